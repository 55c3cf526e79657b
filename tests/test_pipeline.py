"""The per-fold stages (mlfsbench.workflow.folds) on a small synthetic dataset."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from mlfsbench.data import Dataset
from mlfsbench.report.aggregate import collect, summarize, write_tables
from mlfsbench.workflow import folds, stages


def synthetic(n=120, sparse=False, seed=0) -> Dataset:
    """Label j is feature j > 0.5 (features 0..2); features 3..5 are noise."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 6))
    Y = (X[:, :3] > 0.5).astype(np.uint8)
    return Dataset(name="syn", X=sp.csr_matrix(X) if sparse else X, Y=Y,
                   feature_names=[f"f{i}" for i in range(6)],
                   label_names=["a", "b", "c"])


@pytest.fixture
def prepared(tmp_path):
    path = tmp_path / "syn.npz"
    synthetic().save(path)
    return path


def select(data, split_file, *, discretized=None, **kwargs) -> dict:
    """The selection record of fold 0 (raw features or a discretize batch's
    codes), as the select stage computes it."""
    ds = Dataset.load(data)
    train, _, X, _ = folds.fold_features(ds, split_file, 0, discretized)
    return folds.select_fold(X, ds.Y[train], ds.feature_names,
                             feature_types=ds.feature_types, **kwargs)


def classify(data, split_file, record, **kwargs) -> tuple[dict, pd.DataFrame]:
    """Fold 0's predictions on the raw features and their metrics, as the
    classify stage computes them (a table of grid point, metric, value)."""
    ds = Dataset.load(data)
    train, test, X_train, X_test = folds.fold_features(ds, split_file, 0, None)
    pred = folds.classify_fold(X_train, ds.Y[train], X_test, record,
                               regression=ds.is_regression, **kwargs)
    rows = folds.evaluate_fold(ds.Y[test], pred, regression=ds.is_regression)
    return pred, pd.DataFrame(rows, columns=["n_features", "metric", "value"])


def test_dataset_roundtrip_dense_and_sparse(tmp_path):
    for sparse in (False, True):
        ds = synthetic(sparse=sparse)
        ds.save(tmp_path / "d.npz")
        back = Dataset.load(tmp_path / "d.npz")
        assert back.is_sparse == sparse
        np.testing.assert_array_equal(back.dense_X(), ds.dense_X())
        np.testing.assert_array_equal(back.Y, ds.Y)
        assert back.feature_names == ds.feature_names


def test_load_rejects_garbage(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip")
    with pytest.raises(ValueError, match="bad.npz"):
        Dataset.load(bad)


def test_stages_end_to_end(tmp_path, prepared):
    spec = {"type": "kfold", "k": 3, "seed": 1}
    stages.split(prepared, spec, tmp_path / "split.npz")
    tests = [folds.load_fold(tmp_path / "split.npz", f)[1] for f in range(3)]
    assert sorted(np.concatenate(tests).tolist()) == list(range(120))

    stages.discretize_batch(prepared, tmp_path / "split.npz", [0], tmp_path / "d.npz",
                            strategy="equal-width", bins=4)
    with np.load(tmp_path / "d.npz") as z:
        assert z["X_train_0"].max() == 3 and z["X_train_0"].shape == (80, 6)

    rec = select(prepared, tmp_path / "split.npz", method="mim-br",
                 discretized=tmp_path / "d.npz")
    # The three informative features come first.
    assert sorted(rec["ranking"][:3]) == [0, 1, 2]
    assert rec["features"][:3] == [f"f{i}" for i in rec["ranking"][:3]]

    pred, table = classify(prepared, tmp_path / "split.npz", rec,
                           classifier="mlknn", params={"k": 5},
                           grid=[1, 3, 10, "all"])
    assert pred["labels"].tolist() == ["1", "3", "all"]  # 10 > 6 features dropped
    assert pred["n_used"].tolist() == [1, 3, 6]
    assert pred["Y_pred"].shape == (3, 40, 3)

    fr = table[table["metric"] == "feature_reduction"].set_index("n_features")
    assert fr["value"].to_dict() == {"1": 100 - 100 / 6, "3": 50.0, "all": 0.0}
    hl = table[table["metric"] == "hamming_loss"].set_index("n_features")["value"]
    # Three informative features beat one; noise added by "all" hurts a bit.
    assert hl["3"] < hl["1"]
    assert hl["3"] < 0.15


def test_missing_values_imputed_with_training_means():
    X = np.array([[1.0, np.nan], [3.0, 4.0], [np.nan, 8.0], [5.0, np.nan]])
    ds = Dataset(name="m", X=X, Y=np.zeros((4, 1), np.uint8),
                 feature_names=["a", "b"], label_names=["l"])
    X_train, X_test = folds.fold_data(ds, np.array([0, 1, 2]), np.array([3]))
    np.testing.assert_array_equal(X_train, [[1, 6], [3, 4], [2, 8]])
    np.testing.assert_array_equal(X_test, [[5, 6]])
    assert np.isnan(ds.X[0, 1])  # the prepared data is not modified


def test_sparse_missing_values_imputed_with_training_means():
    # '?' in a sparse ARFF row (issue 14.3): a stored NaN; the mean counts the
    # implicit zeros of the training rows.
    X = sp.csr_matrix(np.array([[1.0, np.nan], [2.0, 4.0], [0.0, 2.0],
                                [3.0, 0.0], [0.0, np.nan]]))
    ds = Dataset(name="s", X=X, Y=np.zeros((5, 1), np.uint8),
                 feature_names=["a", "b"], label_names=["l"])
    X_train, X_test = folds.fold_data(ds, np.array([0, 1, 2, 3]),
                                      np.array([4]))
    assert sp.issparse(X_train) and sp.issparse(X_test)
    np.testing.assert_array_equal(X_train.toarray(),
                                  [[1, 2], [2, 4], [0, 2], [3, 0]])
    np.testing.assert_array_equal(X_test.toarray(), [[0, 2]])
    assert np.isnan(ds.X[0, 1])  # the prepared data is not modified


def test_all_missing_feature_is_named_without_numpy_warning(caplog):
    X = np.array([[1.0, np.nan], [3.0, np.nan], [2.0, 5.0]])
    ds = Dataset(name="m", X=X, Y=np.zeros((3, 1), np.uint8),
                 feature_names=["a", "gone"], label_names=["l"])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "Mean of empty slice" leaked
        X_train, X_test = folds.fold_data(ds, np.array([0, 1]), np.array([2]))
    np.testing.assert_array_equal(X_train, [[1, 0], [3, 0]])
    np.testing.assert_array_equal(X_test, [[2, 5]])
    assert "m: feature(s) 'gone' have no value in the training part" in caplog.text


def test_grid_sizes():
    assert folds.grid_sizes([1, 5, 50, "all"], 10) == [
        ("1", 1), ("5", 5), ("all", 10)]
    with pytest.raises(ValueError, match="selected"):
        folds.grid_sizes(["selected"], 10)


def test_selected_grid_point_uses_the_selectors_threshold(tmp_path, prepared):
    stages.split(prepared, {"type": "kfold", "k": 3, "seed": 1},
                 tmp_path / "split.npz")
    rec = select(prepared, tmp_path / "split.npz", method="ig-br",
                 params={"threshold": 0.05})
    # Features 0..2 decide one label each (IG about 1/3 bit averaged over
    # the 3 labels); the noise features score below the threshold.
    assert rec["n_selected"] == 3
    pred, _ = classify(prepared, tmp_path / "split.npz", rec, classifier="mlknn",
                       grid=["selected"])
    assert pred["labels"].tolist() == ["selected"]
    assert pred["n_used"].tolist() == [3]


def test_aggregate_is_sorted_and_deterministic(tmp_path):
    rows = []
    for fold in (1, 0):
        for k in ("all", "10", "2"):
            rows.append(("d", "cv", fold, "s", "c", k, "hamming_loss",
                         0.1 * fold + 0.01 * (k != "all")))
    frame = pd.DataFrame(rows, columns=stages.METRIC_COLUMNS)
    (tmp_path / "a.tsv").write_text(stages.format_table(frame.iloc[:3]))
    (tmp_path / "b.tsv").write_text(stages.format_table(frame.iloc[3:]))
    table = collect([tmp_path / "b.tsv", tmp_path / "a.tsv"])
    assert table["n_features"].tolist() == ["2", "2", "10", "10", "all", "all"]
    assert table["fold"].tolist() == [0, 1, 0, 1, 0, 1]
    summary = summarize(table).set_index("n_features")
    assert summary.loc["2", "mean"] == pytest.approx(0.06)
    assert summary.loc["2", "folds"] == 2
    write_tables([tmp_path / "a.tsv", tmp_path / "b.tsv"], tmp_path / "m1.tsv",
                 tmp_path / "s1.tsv")
    write_tables([tmp_path / "b.tsv", tmp_path / "a.tsv"], tmp_path / "m2.tsv",
                 tmp_path / "s2.tsv")
    assert (tmp_path / "m1.tsv").read_bytes() == (tmp_path / "m2.tsv").read_bytes()
    assert (tmp_path / "s1.tsv").read_bytes() == (tmp_path / "s2.tsv").read_bytes()


def test_transform_stage_fits_on_training_labels(tmp_path, prepared):
    stages.split(prepared, {"type": "kfold", "k": 2, "seed": 0},
                 tmp_path / "split.npz")
    train, test = folds.load_fold(tmp_path / "split.npz", 0)
    Y = Dataset.load(prepared).Y
    arrays, summary = folds.transform_fold(Y[train], Y[test], method="ppt",
                                           params={"p": 10})
    # PPT keeps the training labelsets seen >= 10 times; the others become -1.
    sets, counts = np.unique(Y[train], axis=0, return_counts=True)
    rare = {tuple(s) for s, c in zip(sets, counts, strict=True) if c < 10}
    expected_discarded = sum(tuple(row) in rare for row in Y[train])
    assert summary["train_target"]["discarded"] == expected_discarded
    assert summary["train_target"]["classes"] == int((counts >= 10).sum())
    assert arrays["train_target"].shape == (len(train),)
    assert arrays["test_target"].shape == (len(test),)
    assert summary["method"] == "ppt"


def test_multi_target_regression_stages(tmp_path):
    """Real-valued targets: random split, RReliefF, kNN regression, RRMSE."""
    rng = np.random.default_rng(0)
    X = rng.random((150, 5))
    Y = np.column_stack([3 * X[:, 0], X[:, 1] - X[:, 0]])  # features 0, 1 matter
    Dataset(name="reg", X=X, Y=Y, feature_names=[f"f{i}" for i in range(5)],
            label_names=["t0", "t1"]).save(tmp_path / "reg.npz")
    assert Dataset.load(tmp_path / "reg.npz").is_regression
    stages.split(tmp_path / "reg.npz", {"type": "holdout", "test_size": 0.3,
                                        "repeats": 1, "seed": 0},
                 tmp_path / "split.npz")
    rec = select(tmp_path / "reg.npz", tmp_path / "split.npz", method="rrelieff")
    assert sorted(rec["ranking"][:2]) == [0, 1]
    _, table = classify(tmp_path / "reg.npz", tmp_path / "split.npz", rec,
                        classifier="knn-reg", grid=[2, "all"])
    rr = table[table["metric"] == "rrmse"].set_index("n_features")["value"]
    # The two relevant features predict far better than the training mean (1.0)
    # and better than with the three noise features added.
    assert rr["2"] < 0.35 and rr["2"] < rr["all"] < 1.0


def test_selection_of_no_feature_gives_no_prediction_for_that_point(
        tmp_path, prepared, caplog):
    """A threshold no feature reaches: no result there, the paper's '-'."""
    stages.split(prepared, {"type": "kfold", "k": 2, "seed": 0},
                 tmp_path / "split.npz")
    rec = select(prepared, tmp_path / "split.npz", method="ig-br",
                 params={"threshold": 5.0})
    assert rec["n_selected"] == 0
    with caplog.at_level("WARNING"):
        pred, table = classify(prepared, tmp_path / "split.npz", rec,
                               classifier="brknn-b", params={"k": 3},
                               grid=["selected", "all"])
    assert "selected select no feature" in caplog.text
    assert pred["labels"].tolist() == ["all"]
    assert set(table["n_features"]) == {"all"}
    # The workflow's grid without its "all" point (run in a job of its own):
    # the fold has no prediction at all, an empty table, not an error.
    pred, table = classify(prepared, tmp_path / "split.npz", rec,
                           classifier="brknn-b", params={"k": 3},
                           grid=["selected"])
    assert pred["labels"].tolist() == [] and pred["Y_pred"].shape[0] == 0
    assert table.empty
    # A grid none of whose sizes fits the data is still a configuration error.
    with pytest.raises(ValueError, match="no feature count of the grid"):
        classify(prepared, tmp_path / "split.npz", rec, classifier="brknn-b",
                 params={"k": 3}, grid=[50])
