"""The bad-plugin corpus (:mod:`tests.badplugins`) through the workflow's
per-fold functions, its batch stages and ``mlfsbench select``: an error
naming the method, the fold and the problem, or the right values (issue 38,
W1 and U4). Registration of an entry point that names no estimator fails
where the registry reads it (``tests/test_plugins.py``)."""

from __future__ import annotations

import copy
import json
import re

import numpy as np
import pandas as pd
import pytest

from mlfsbench.cli import main
from mlfsbench.data import Dataset
from mlfsbench.estimators import registry
from mlfsbench.workflow import folds, stages

from .badplugins import BY_VARIANCE, CASES, FOLD, TEST, TRAIN, PluginCase, X, Y

NAMES = [f"f{j}" for j in range(X.shape[1])]
SELECTORS = [c for c in CASES if c.kind == "selector"]
CLASSIFIERS = [c for c in CASES if c.kind == "classifier"]


@pytest.fixture
def plugins(monkeypatch):
    """Every case's class registered under its id (a copy of the registry,
    restored afterwards), as an entry point would register it."""
    registry.describe()  # the built-ins imported once, for good
    monkeypatch.setattr(registry, "_REGISTRY", copy.deepcopy(registry._REGISTRY))
    for case in CASES:
        registry.register(case.kind, case.id)(case.cls)
    return registry


def test_the_corpus_has_distinct_cases_of_both_kinds():
    assert len({c.id for c in CASES}) == len(CASES) >= 30
    assert sum(c.error is not None for c in SELECTORS) >= 15
    assert sum(c.error is not None for c in CLASSIFIERS) >= 7


def select(case: PluginCase) -> dict:
    return folds.select_fold(X[TRAIN], Y[TRAIN], NAMES, method=case.id, seed=0,
                             name=FOLD)


def classify(record: dict, classifier: str = "mlknn", grid=None, **kw) -> dict:
    params = {"k": 3} if classifier == "mlknn" else None
    return folds.classify_fold(X[TRAIN], Y[TRAIN], X[TEST], record,
                               classifier=classifier, params=params,
                               grid=grid or [1, 3, 5], seed=0,
                               name=f"{FOLD}: selector {record['method']!r}", **kw)


@pytest.mark.parametrize("case", SELECTORS, ids=lambda c: c.id)
def test_selector_output(case, plugins):
    if case.error is not None:
        with pytest.raises(ValueError) as err:
            classify(select(case), grid=case.grid)
        message = str(err.value)
        assert message.startswith(f"{FOLD}: selector {case.id!r}"), message
        assert re.search(case.error, message), message
        assert "\n" not in message
        return
    record = select(case)
    assert record["ranking"] == case.ranking
    assert record["features"] == [f"f{j}" for j in case.ranking]
    # the record's scores are JSON: a NaN or an infinity is null
    json.dumps(record, allow_nan=False)
    pred = classify(record, grid=case.grid)
    assert pred["n_used"].tolist() == [1, 3, 5]
    # the features used are the ranking's first K: those of the variance
    # ranking where it is (every valid case but the infinite score's)
    if case.ranking[:5] == BY_VARIANCE[:5]:
        reference = classify({**record, "ranking": BY_VARIANCE}, grid=case.grid)
        np.testing.assert_array_equal(pred["Y_pred"], reference["Y_pred"])
        np.testing.assert_array_equal(pred["Y_score"], reference["Y_score"])


def test_an_infinite_score_ranks_first_and_is_recorded_as_null(plugins):
    record = select(next(c for c in CASES if c.id.startswith("selector-infinite")))
    assert record["scores"][0] is None
    assert record["scores"][1:] == pytest.approx([(j + 1) ** 2 for j in range(1, 8)])


def test_a_prefix_ranking_serves_every_k_up_to_its_depth_and_all(plugins):
    record = select(next(c for c in CASES if c.id.endswith("as-deep-as-the-grid")))
    pred = classify(record, grid=[5, "all"])
    assert pred["labels"].tolist() == ["5", "all"]
    assert pred["n_used"].tolist() == [5, 8]
    full = classify({**record, "ranking": BY_VARIANCE}, grid=[5, "all"])
    np.testing.assert_array_equal(pred["Y_score"], full["Y_score"])


def _record() -> dict:
    return {"method": "s", "selector": "s", "ranking": BY_VARIANCE, "n_selected": 8}


@pytest.mark.parametrize("case", CLASSIFIERS, ids=lambda c: c.id)
def test_classifier_output(case, plugins):
    if case.error is not None:
        with pytest.raises(ValueError) as err:
            classify(_record(), classifier=case.id)
        message = str(err.value)
        assert message.startswith(f"{FOLD}: selector 's': classifier {case.id!r}: "), \
            message
        assert re.search(case.error, message), message
        return
    pred = classify(_record(), classifier=case.id)
    prior = Y[TRAIN].mean(axis=0)
    expected_pred = np.tile(prior >= 0.5, (3, len(TEST), 1))
    np.testing.assert_array_equal(pred["Y_pred"], expected_pred)
    np.testing.assert_array_equal(pred["Y_score"], np.tile(prior, (3, len(TEST), 1)))


@pytest.mark.parametrize(("record", "message"), [
    ({"ranking": [7, 7, 6]}, r"the ranking names feature 7 twice"),
    ({"ranking": [0, -2, 1]}, r"the ranking holds a negative index, -2"),
    ({"ranking": [3.0, 1.0]}, r"the ranking holds float64 values"),
    ({"granules": [{"labels": [0, 5], "ranking": BY_VARIANCE}]},
     r"granule 0's labels holds index 5 \(position 1\), but there are 3"),
    ({"granules": [{"labels": [0, 1, 2], "ranking": [1, 2]}]},
     r"granule 0's ranking ranks 2 features, but the grid asks for K = 3"),
])
def test_a_recorded_selection_is_checked_before_it_indexes_features(record,
                                                                     message):
    """A selection record read from a file (a batch's, or one given to the
    CLI) is checked at the classify stage too."""
    with pytest.raises(ValueError, match=message):
        classify({"method": "m", "n_selected": 2, **record}, grid=[1, 2, 3])


# ----------------------------------------------------------- the batch stages
@pytest.fixture
def prepared(tmp_path):
    ds = Dataset(name="d", X=X, Y=Y, feature_names=NAMES,
                 label_names=["a", "b", "c"], feature_types=["numeric"] * 8,
                 is_test=np.isin(np.arange(40), TEST))
    data = tmp_path / "d.npz"
    ds.save(data)
    split = tmp_path / "folds.npz"
    stages.split(data, {"type": "given"}, split)
    return data, split


def test_a_short_ranking_stops_the_classify_job_naming_dataset_fold_and_method(
        prepared, plugins, tmp_path):
    data, split = prepared
    keys = {"dataset": "d", "split": "given", "selector": "short-1"}
    sel = tmp_path / "select.json"
    stages.select_batch(data, split, [0], sel,
                        method="selector-ranking-shorter-than-the-grid",
                        params=None, seed=0, keys=keys)
    out = tmp_path / "metrics.tsv"
    with pytest.raises(ValueError) as err:
        stages.classify_batch(data, split, [0], sel, out, classifier="mlknn",
                              params={"k": 3}, grid=[1, 3, 5], seed=0,
                              keys={**keys, "classifier": "mlknn"})
    assert str(err.value) == (
        f"{data} (dataset d, fold 0): selector 'short-1' ranks 3 features, but "
        "the grid asks for K = 5 (points 5); a selector must rank at least as "
        "deep as the largest K of the grid")
    assert not out.exists()  # no row in any table


def test_duplicate_indices_stop_the_select_job(prepared, plugins, tmp_path):
    data, split = prepared
    sel = tmp_path / "select.json"
    with pytest.raises(ValueError) as err:
        stages.select_batch(data, split, [0], sel,
                            method="selector-duplicate-index", params=None,
                            seed=0, keys={"dataset": "d", "split": "given",
                                          "selector": "dup"})
    assert str(err.value).startswith(
        f"{data} (dataset d, fold 0): selector 'selector-duplicate-index': its "
        "ranking (ranking_) names feature 7 twice")
    assert not sel.exists()


def test_the_stability_of_a_prefix_ranking_up_to_its_depth(prepared, plugins,
                                                           tmp_path):
    """A ranking as deep as the grid is valid: the stability table has its
    K up to its depth, the same as a full ranking's with the same top, and
    nothing beyond (it used to stop: "feature indices outside 0..4")."""
    from mlfsbench.report.selections import stability_table

    data, _ = prepared
    split = tmp_path / "cv.npz"
    stages.split(data, {"type": "kfold", "k": 2, "seed": 0}, split)
    tables = {}
    for method in ("selector-prefix-as-deep-as-the-grid", "selector-valid"):
        sel = tmp_path / f"{method}.json"
        stages.select_batch(data, split, [0, 1], sel, method=method, params=None,
                            seed=0, keys={"dataset": "d", "split": "cv",
                                          "selector": "s"})
        table = stability_table([sel], [1, 3, 5, 6, "all"], tmp_path / "st.tsv")
        tables[method] = table.set_index("n_features")
    prefix, full = tables.values()
    assert prefix.index.tolist() == [1, 3, 5] and full.index.tolist() == [1, 3, 5, 6]
    pd.testing.assert_frame_equal(prefix, full.loc[[1, 3, 5]])


# ------------------------------------------------------------ mlfsbench select
@pytest.fixture
def arff(tmp_path):
    head = "@relation d\n" + "".join(f"@attribute f{j} numeric\n" for j in range(8))
    head += "@attribute a {0,1}\n@attribute b {0,1}\n@attribute c {0,1}\n@data\n"
    rows = [",".join([*(f"{v:.9f}" for v in X[i]), *map(str, Y[i])])
            for i in TRAIN]  # the training rows: variances (j + 1)^2
    (tmp_path / "d.arff").write_text(head + "\n".join(rows) + "\n")
    (tmp_path / "d.xml").write_text(
        '<labels><label name="a"/><label name="b"/><label name="c"/></labels>')
    return [str(tmp_path / "d.arff"), "--xml", str(tmp_path / "d.xml")]


def test_select_command_names_the_method_and_the_problem(arff, plugins, capsys):
    code = main(["select", *arff, "--method", "selector-negative-index"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith(f"mlfsbench: error: {arff[0]}: selector "
                          "'selector-negative-index': its ranking (ranking_) holds "
                          "a negative index, -1 (position 0)"), err


def test_select_command_prints_a_score_that_is_not_a_number_as_a_dash(
        arff, plugins, capsys):
    # issue 38 U4: "unsupported format string passed to NoneType.__format__"
    code = main(["select", *arff, "--method", "selector-greedy-nan-for-unscored",
                 "--n-features", "4"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert [line.split("\t")[0] for line in out] == ["f7", "f6", "f5", "f4"]
    assert out[3].split("\t")[1] == "-"  # f4's variance is not above f4's
    assert float(out[0].split("\t")[1]) == pytest.approx(64, rel=1e-5)
    assert float(out[2].split("\t")[1]) == pytest.approx(36, rel=1e-5)
