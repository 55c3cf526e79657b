"""The workflow's batch jobs: folds of a split in one job, records with their
keys, derived seeds, the classifier's input, code versions."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mlfsbench.data import Dataset
from mlfsbench.estimators import registry
from mlfsbench.estimators.classifiers._base import PathMixin
from mlfsbench.estimators.classifiers.mlknn import MLkNN
from mlfsbench.workflow import folds, pool, stages
from mlfsbench.workflow.seeds import derive_seed


def emotions_like(n=150, seed=0) -> Dataset:
    """Six labels, each from one of the first six features; six noise
    features; every feature takes the values 0..3."""
    rng = np.random.default_rng(seed)
    U = rng.random((n, 12))
    Y = (U[:, :6] + 0.3 * rng.random((n, 6)) > 0.65).astype(np.uint8)
    X = np.floor(U * 4)
    return Dataset(name="syn", X=X, Y=Y, feature_names=[f"f{i}" for i in range(12)],
                   label_names=[f"l{j}" for j in range(6)])


@pytest.fixture
def files(tmp_path):
    data, split = tmp_path / "syn.npz", tmp_path / "split.npz"
    emotions_like().save(data)
    stages.split(data, {"type": "kfold", "k": 3, "seed": 0}, split)
    return data, split


KEYS = {"dataset": "syn", "split": "kfold-k3-seed0"}


def test_derive_seed_depends_on_every_key():
    base = derive_seed(0, "emotions", "holdout-t0.5-r30-seed0", 0, "group-jmi-rand")
    assert base == derive_seed(0, "emotions", "holdout-t0.5-r30-seed0", 0,
                               "group-jmi-rand")
    others = {derive_seed(1, "emotions", "holdout-t0.5-r30-seed0", 0, "group-jmi-rand"),
              derive_seed(0, "scene", "holdout-t0.5-r30-seed0", 0, "group-jmi-rand"),
              derive_seed(0, "emotions", "kfold-k10-seed0", 0, "group-jmi-rand"),
              derive_seed(0, "emotions", "holdout-t0.5-r30-seed0", 1, "group-jmi-rand"),
              derive_seed(0, "emotions", "holdout-t0.5-r30-seed0", 0, "single-jmi")}
    assert base not in others and len(others) == 5
    assert all(0 <= s < 2**31 for s in others)
    # A fixed value: the derivation must not change silently between versions
    # (every randomized result would).
    assert derive_seed(0, "d", "s", 0, "m") == derive_seed(0, "d", "s", 0, "m")


def test_group_jmi_rand_draws_other_groups_in_other_folds(files):
    data, split = files
    out = stages.select_batch(data, split, [0, 1, 2], split.with_name("s.json"),
                              method="group-jmi-rand", params={}, seed=0,
                              keys={**KEYS, "selector": "group-jmi-rand"})
    seeds = [r["seed"] for r in out["records"]]
    assert seeds == [derive_seed(0, "syn", "kfold-k3-seed0", f, "group-jmi-rand")
                     for f in (0, 1, 2)]
    assert len(set(seeds)) == 3
    # Before, every fold's selector got random_state = the experiment seed (0)
    # and drew the same groups; now the folds' groupings differ.
    ds = Dataset.load(data)
    draws = []
    for fold, seed in enumerate(seeds):
        train, _ = folds.load_fold(split, fold)
        sel = registry.create("selector", "group-jmi-rand", {}, random_state=seed)
        sel.fit(ds.X[train], ds.Y[train])
        groups = sel.label_groups_
        draws.append((tuple(groups.noc_.tolist()), tuple(np.round(groups.pot_, 6))))
    assert len(set(draws)) == 3, draws


def _without_seconds(path):
    data = json.loads(path.read_text())
    for r in data["records"]:
        r.pop("seconds")
    return data


def test_same_config_gives_bitwise_identical_results(files, tmp_path):
    data, split = files
    keys = {**KEYS, "selector": "group-jmi-rand"}
    for name, threads in (("a.json", 1), ("b.json", 2)):
        stages.select_batch(data, split, [0, 1, 2], tmp_path / name,
                            method="group-jmi-rand", params={}, seed=0, keys=keys,
                            threads=threads)
    a, b = (_without_seconds(tmp_path / name) for name in ("a.json", "b.json"))
    assert a == b
    for name, threads in (("a.tsv", 1), ("b.tsv", 2)):
        stages.classify_batch(data, split, [0, 1, 2], tmp_path / "a.json",
                              tmp_path / name, classifier="mlknn", params={},
                              grid=[1, 3, "all"], seed=0,
                              keys={**keys, "classifier": "mlknn"}, threads=threads)
    assert (tmp_path / "a.tsv").read_bytes() == (tmp_path / "b.tsv").read_bytes()


def test_classify_batch_equals_per_fold_classify_and_evaluate(files, tmp_path):
    """The batched job (fit, predict, score in one) gives the old two-stage
    results, fold by fold, with the fold's derived seed."""
    data, split = files
    keys = {**KEYS, "selector": "mim-br", "classifier": "mlknn"}
    stages.discretize_batch(data, split, [0, 1, 2], tmp_path / "d.npz",
                            strategy="equal-width", bins=3)
    stages.select_batch(data, split, [0, 1, 2], tmp_path / "s.json",
                        method="mim-br", params={}, seed=0, keys=keys,
                        discretized=tmp_path / "d.npz")
    table = stages.classify_batch(
        data, split, [0, 1, 2], tmp_path / "s.json", tmp_path / "m.tsv",
        classifier="mlknn", params={"k": 5}, grid=[1, 4, "all"], seed=0,
        keys=keys, predictions_dir=tmp_path / "pred")
    assert sorted(p.name for p in (tmp_path / "pred").iterdir()) == [
        "fold0.npz", "fold0.npz.sha256", "fold1.npz", "fold1.npz.sha256",
        "fold2.npz", "fold2.npz.sha256"]  # each with its checksum (S7)
    records = stages.read_selections(tmp_path / "s.json")
    ds = Dataset.load(data)
    for fold in (0, 1, 2):
        train, test = folds.load_fold(split, fold)
        X_train, X_test = folds.fold_data(ds, train, test)
        pred = folds.classify_fold(
            X_train, ds.Y[train], X_test, records[fold], classifier="mlknn",
            params={"k": 5}, grid=[1, 4, "all"],
            seed=derive_seed(0, "syn", "kfold-k3-seed0", fold, "mlknn"))
        with np.load(tmp_path / "pred" / f"fold{fold}.npz") as z:
            np.testing.assert_array_equal(z["test"], test)
            np.testing.assert_array_equal(z["Y_score"], pred["Y_score"])
        old = pd.DataFrame(
            [("syn", "kfold-k3-seed0", fold, "mim-br", "mlknn", *row)
             for row in folds.evaluate_fold(ds.Y[test], pred)],
            columns=stages.METRIC_COLUMNS)
        new = table[table["fold"] == fold].reset_index(drop=True)
        pd.testing.assert_frame_equal(new, old)
    written = pd.read_csv(tmp_path / "m.tsv", sep="\t", dtype={"n_features": str})
    assert written.columns.tolist() == stages.METRIC_COLUMNS
    assert set(written["split"]) == {"kfold-k3-seed0"}


@pytest.mark.parametrize("selector", ["mim-br", "granular-mrmr"])
def test_all_features_job_equals_every_selectors_all_point(files, tmp_path,
                                                          selector):
    """The workflow runs "all" features once, without a selection: the rows
    are those each selector's job gave at "all" (the classifier's seed does
    not depend on the selector). With granules, ML-kNN's labels are fitted
    independently, so per-granule models on every feature are the one model,
    up to the fair coin of exact ties, drawn in another order (none here)."""
    data, split = files
    keys = {**KEYS, "selector": selector, "classifier": "mlknn"}
    stages.select_batch(data, split, [0, 1, 2], tmp_path / "s.json",
                        method=selector, params={}, seed=0, keys=keys)
    common = dict(classifier="mlknn", params={"k": 5}, seed=0)
    per_selector = stages.classify_batch(
        data, split, [0, 1, 2], tmp_path / "s.json", tmp_path / "m.tsv",
        grid=[1, 4, "all"], keys=keys, **common)
    shared = stages.classify_batch(
        data, split, [0, 1, 2], None, tmp_path / "all.tsv", grid=["all"],
        keys={**keys, "selector": "all-features"}, **common)
    assert set(shared["n_features"]) == {"all"}
    assert set(shared["selector"]) == {"all-features"}
    cols = ["fold", "metric", "value"]
    expected = per_selector[per_selector["n_features"] == "all"][cols]
    pd.testing.assert_frame_equal(shared[cols].reset_index(drop=True),
                                  expected.reset_index(drop=True))


def test_classifier_reads_codes_when_asked(files, tmp_path):
    """``input: codes``: the classifier is trained on the discretize stage's
    codes of the fold (Lee & Kim 2016 on yeast), not on the raw values."""
    data, split = files
    keys = {**KEYS, "selector": "mim-br", "classifier": "br-lr"}
    stages.discretize_batch(data, split, [0, 1], tmp_path / "d.npz",
                            strategy="equal-width", bins=2)
    stages.select_batch(data, split, [0, 1], tmp_path / "s.json", method="mim-br",
                        params={}, seed=0, keys=keys, discretized=tmp_path / "d.npz")
    common = dict(classifier="br-lr", params={"penalty": None}, grid=["all"],
                  seed=0, keys=keys)
    raw = stages.classify_batch(data, split, [0, 1], tmp_path / "s.json",
                                tmp_path / "raw.tsv", **common)
    codes = stages.classify_batch(data, split, [0, 1], tmp_path / "s.json",
                                  tmp_path / "codes.tsv", codes=tmp_path / "d.npz",
                                  **common)
    assert not np.allclose(raw["value"], codes["value"])
    # the same as fitting BR-LR on the codes by hand
    ds = Dataset.load(data)
    with np.load(tmp_path / "d.npz") as z:
        X_train, X_test = z["X_train_0"], z["X_test_0"]
    train, test = folds.load_fold(split, 0)
    model = registry.create("classifier", "br-lr", {"penalty": None},
                            random_state=derive_seed(0, "syn", "kfold-k3-seed0", 0,
                                                     "br-lr"))
    model.fit(X_train, ds.Y[train])
    expected = np.mean(model.predict(X_test) != ds.Y[test])
    hl = codes[(codes["fold"] == 0) & (codes["metric"] == "hamming_loss")]
    assert hl["value"].item() == pytest.approx(expected, abs=1e-12)


class PathKNN(MLkNN):
    """ML-kNN with a ``predict_path`` that records its calls (granules: the
    default loop, one ``predict_path`` each)."""

    calls: list[int] = []
    predict_granules = PathMixin.predict_granules

    def predict_path(self, X_train, Y_train, X_test, column_sets):
        PathKNN.calls.append(len(column_sets))
        out = []
        for cols in column_sets:
            model = MLkNN(**self.get_params()).fit(X_train[:, cols], Y_train)
            out.append((model.predict(X_test[:, cols]),
                        model.predict_proba(X_test[:, cols])))
        return out


def test_classify_uses_predict_path_once_per_granule(monkeypatch):
    ds = emotions_like()
    X_train, Y_train, X_test = ds.X[:100], ds.Y[:100], ds.X[100:]
    record = {"ranking": list(range(11, -1, -1)), "n_selected": 12,
              "granules": [{"labels": [0, 1, 2], "ranking": list(range(12))},
                           {"labels": [3, 4, 5], "ranking": list(range(11, -1, -1))}]}
    kwargs = dict(params={"k": 5}, grid=[1, 3, 6, "all"], seed=3)
    plain = folds.classify_fold(X_train, Y_train, X_test, record,
                                 classifier="mlknn", **kwargs)
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda kind, name: PathKNN
                        if (kind, name) == ("classifier", "path-knn")
                        else real_get(kind, name))
    PathKNN.calls = []
    path = folds.classify_fold(X_train, Y_train, X_test, record,
                                classifier="path-knn", **kwargs)
    assert PathKNN.calls == [4, 4]  # one call per granule, every K at once
    np.testing.assert_array_equal(path["Y_pred"], plain["Y_pred"])
    np.testing.assert_array_equal(path["Y_score"], plain["Y_score"])


def test_transform_batch_equals_each_fold_alone(files, tmp_path):
    # One job per batch: the arrays and summary of each fold are those of the
    # per-fold transformation with that fold's derived seed (label-groups is random).
    data, split = files
    keys = {**KEYS, "transformation": "label-groups"}
    out = stages.transform_batch(data, split, [0, 1, 2], tmp_path / "t.npz",
                                 tmp_path / "t.json", method="label-groups",
                                 params={"noc": 2}, seed=0, keys=keys)
    with np.load(tmp_path / "t.npz") as z:
        batch = {k: z[k] for k in z.files}
    ds = Dataset.load(data)
    for fold, record in zip([0, 1, 2], out["records"], strict=True):
        seed = derive_seed(0, "syn", "kfold-k3-seed0", fold, "label-groups")
        assert record["seed"] == seed and record["fold"] == fold
        train, test = folds.load_fold(split, fold)
        arrays, alone = folds.transform_fold(ds.Y[train], ds.Y[test],
                                             method="label-groups",
                                             params={"noc": 2}, seed=seed)
        assert {k: v for k, v in record.items() if k in alone} == alone
        assert sorted(arrays) == sorted(k.split("/", 1)[1] for k in batch
                                        if k.startswith(f"{fold}/"))
        for k, v in arrays.items():
            np.testing.assert_array_equal(batch[f"{fold}/{k}"], v)


def _worker_pid(i):
    import os

    return os.getpid()


def _die(i):
    import os

    if i == 1:
        os._exit(3)
    return i


def _blas_threads(i):
    from threadpoolctl import threadpool_info

    return sorted({p["num_threads"] for p in threadpool_info()})


def test_map_runs_items_in_workers_in_order():
    import os
    import sys

    assert pool.map_folds(abs, [(-3,), (2,), (-1,)], 2) == [3, 2, 1]
    pids = pool.map_folds(_worker_pid, [(0,), (1,), (2,), (3,)], 2)
    assert os.getpid() not in pids
    if sys.platform.startswith("linux"):  # forked workers: one BLAS thread each
        assert pool.map_folds(_blas_threads, [(0,), (1,)], 2) == [[1], [1]]
    # one item or one thread: in this process, no worker
    assert pool.map_folds(_worker_pid, [(0,)], 2) == [os.getpid()]
    assert pool.map_folds(_worker_pid, [(0,), (1,)], 1) == [os.getpid()] * 2


def test_map_fails_when_a_worker_dies():
    """A killed worker (out of memory) fails the job instead of hanging it."""
    import sys
    from concurrent.futures.process import BrokenProcessPool

    if not sys.platform.startswith("linux"):
        pytest.skip("forked workers on Linux only")
    with pytest.raises(BrokenProcessPool):
        pool.map_folds(_die, [(0,), (1,), (2,)], 2)
