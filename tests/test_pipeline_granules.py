"""Per-granule classification (Li et al. 2017, Fig. 2) in the per-fold stages."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mlfsbench.data import Dataset
from mlfsbench.estimators.classifiers.mlknn import MLkNN
from mlfsbench.workflow import folds, stages

# Algorithm 1 starts from randomly chosen labels; seeds whose two initial
# centers fall in the same block end in the symmetric local optimum
# [[0, 3], [1, 2]] (k-means). This seed starts from one label of each block.
GOOD_SEED = 3


def granular_dataset(n=150, seed=0) -> Dataset:
    """Labels 0-1 depend on features 0-1, labels 2-3 on features 2-3."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 8))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 0] + 0.1 * X[:, 1] > 0.6,
                         X[:, 2] > 0.5, X[:, 2] + 0.1 * X[:, 3] > 0.6])
    return Dataset(name="gran", X=X, Y=Y.astype(np.uint8),
                   feature_names=[f"f{i}" for i in range(8)],
                   label_names=list("abcd"))


@pytest.fixture
def staged(tmp_path):
    path = tmp_path / "gran.npz"
    granular_dataset().save(path)
    stages.split(path, {"type": "kfold", "k": 3, "seed": 0}, tmp_path / "split.npz")
    stages.discretize_batch(path, tmp_path / "split.npz", [0], tmp_path / "d.npz",
                            strategy="equal-width", bins=5)
    return tmp_path, path


def select(path, tmp, **kwargs) -> dict:
    """The selection record of fold 0, on the discretized features."""
    ds = Dataset.load(path)
    train, _, X, _ = folds.fold_features(ds, tmp / "split.npz", 0, tmp / "d.npz")
    return folds.select_fold(X, ds.Y[train], ds.feature_names, **kwargs)


def classify(path, tmp, record, **kwargs) -> dict:
    """The predictions of fold 0 on the raw features."""
    ds = Dataset.load(path)
    train, _, X_train, X_test = folds.fold_features(ds, tmp / "split.npz", 0, None)
    return folds.classify_fold(X_train, ds.Y[train], X_test, record, **kwargs)


def test_selection_record_has_granules(staged):
    tmp, path = staged
    rec = select(path, tmp, method="granular-mrmr", params={"granules": 2},
                 seed=GOOD_SEED)
    stored = json.loads(json.dumps(rec))  # what the selection file keeps
    assert stored["granules"] == rec["granules"]
    labels = sorted(sum((g["labels"] for g in rec["granules"]), []))
    assert labels == [0, 1, 2, 3]
    assert sorted(g["labels"] for g in rec["granules"]) == [[0, 1], [2, 3]]
    for g in rec["granules"]:
        assert sorted(g["ranking"]) == list(range(8))
        # each granule's own informative feature comes first
        assert g["ranking"][0] == (0 if g["labels"] == [0, 1] else 2)
    # selectors without granules keep the old record
    plain = select(path, tmp, method="mim-br")
    assert "granules" not in plain


def test_classify_trains_one_model_per_granule(staged):
    tmp, path = staged
    record = json.loads(json.dumps(select(
        path, tmp, method="granular-mrmr", params={"granules": 2}, seed=GOOD_SEED)))
    pred = classify(path, tmp, record, classifier="mlknn", params={"k": 5},
                    grid=[1, 2, "all"])
    ds = granular_dataset()
    train, test = folds.load_fold(tmp / "split.npz", 0)
    assert pred["labels"].tolist() == ["1", "2", "all"]
    assert pred["Y_pred"].shape == (3, len(test), 4)
    Y_pred, Y_score = pred["Y_pred"], pred["Y_score"]
    for i, k in enumerate([1, 2, 8]):
        for g in record["granules"]:
            cols = np.sort(np.asarray(g["ranking"][:k]))
            model = MLkNN(k=5, random_state=0).fit(ds.X[train][:, cols],
                                                   ds.Y[train][:, g["labels"]])
            np.testing.assert_array_equal(Y_pred[i][:, g["labels"]],
                                          model.predict(ds.X[test][:, cols]))
            np.testing.assert_allclose(Y_score[i][:, g["labels"]],
                                       model.predict_proba(ds.X[test][:, cols]))
    # With one feature per granule, each granule sees its own informative
    # feature: much better than one shared top-1 feature for all labels.
    hamming = (Y_pred[0] != ds.Y[test]).mean()
    assert hamming < 0.15
    single = np.sort(np.asarray(record["ranking"][:1]))
    shared = MLkNN(k=5, random_state=0).fit(ds.X[train][:, single], ds.Y[train])
    assert (shared.predict(ds.X[test][:, single]) != ds.Y[test]).mean() > hamming


def test_classify_without_granules_is_unchanged(staged):
    tmp, path = staged
    rec = select(path, tmp, method="mim-br")
    pred = classify(path, tmp, rec, classifier="mlknn", params={"k": 5}, grid=[3])
    ds = granular_dataset()
    train, test = folds.load_fold(tmp / "split.npz", 0)
    cols = np.sort(np.asarray(rec["ranking"][:3]))
    model = MLkNN(k=5, random_state=0).fit(ds.X[train][:, cols], ds.Y[train])
    np.testing.assert_array_equal(pred["Y_pred"][0],
                                  model.predict(ds.X[test][:, cols]))
    np.testing.assert_allclose(pred["Y_score"][0],
                               model.predict_proba(ds.X[test][:, cols]))
