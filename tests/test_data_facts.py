"""Data facts: a parameter without effect on a dataset shares its job.

The k-NN learners' ``scale`` changes nothing on features all 0 or 1
(``ScaledNeighboursMixin``): checked here on invented data built to test
the argument (constant training columns whose test values differ, duplicate
rows, so equal distances) and on genbase, then the plan's use of it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

from mlfsbench.data import Dataset, dataset_statistics
from mlfsbench.estimators import registry
from mlfsbench.workflow.ids import cache_id, entry_on_data
from mlfsbench.workflow.prepared import dataset_facts

from .conftest import plan_of
from .test_predict_path import genbase_fold, yeast_fold  # noqa: F401 (fixtures)

KNN = ["mlknn", "brknn-a", "brknn-b"]


def _binary_fold():
    """60 training rows (10 of them repeated) and 40 test rows of 12 binary
    features; column 3 is 1 and column 7 is 0 in every training row, and
    half the test rows differ from that constant."""
    rng = np.random.RandomState(3)
    X = (rng.rand(100, 12) < 0.4).astype(float)
    X[:60, 3], X[:60, 7] = 1.0, 0.0
    X[60:80, 3], X[60:80, 7] = 0.0, 1.0
    Y = (rng.rand(100, 4) < 0.35).astype(np.uint8)
    X_train = np.vstack([X[:60], X[:10]])
    Y_train = np.vstack([Y[:60], Y[:10]])
    sets = [np.array([3]), np.array([3, 7]), np.array([0, 3, 5, 7]), np.arange(12)]
    return X_train, Y_train, X[60:], sets


def _paths_equal(name, X_train, Y_train, X_test, sets, **params):
    paths = [registry.create("classifier", name, {**params, "scale": scale})
             .predict_path(X_train, Y_train, X_test, sets) for scale in (True, False)]
    for (pred_a, score_a), (pred_b, score_b) in zip(*paths, strict=True):
        assert_array_equal(pred_a, pred_b)
        assert_array_equal(score_a, score_b)


@pytest.mark.parametrize("dense", [True, False])
@pytest.mark.parametrize("name", KNN)
def test_scale_changes_no_knn_output_on_binary_features(name, dense):
    X_train, Y_train, X_test, sets = _binary_fold()
    if not dense:
        X_train, X_test = sp.csr_matrix(X_train), sp.csr_matrix(X_test)
    _paths_equal(name, X_train, Y_train, X_test, sets, k=5, random_state=0)


def test_scale_changes_no_knn_regression_on_binary_features():
    X_train, _, X_test, sets = _binary_fold()
    targets = np.random.RandomState(4).rand(X_train.shape[0], 2)
    paths = [registry.create("classifier", "knn-reg", {"k": 5, "scale": scale})
             .predict_path(X_train, targets, X_test, sets) for scale in (True, False)]
    for (pred_a, _), (pred_b, _) in zip(*paths, strict=True):
        assert_array_equal(pred_a, pred_b)


@pytest.mark.parametrize("dense", [True, False])
def test_scale_changes_no_mlknn_output_on_genbase(genbase_fold, dense):  # noqa: F811
    X_train, Y_train, X_test, sets = genbase_fold
    if dense:
        X_train, X_test = X_train.toarray(), X_test.toarray()
    _paths_equal("mlknn", X_train, Y_train, X_test, sets, k=7, random_state=0)


def test_scale_changes_mlknn_outputs_on_real_valued_features(yeast_fold):  # noqa: F811
    """The control: on yeast's real values the two settings differ."""
    X_train, Y_train, X_test, sets = yeast_fold
    with pytest.raises(AssertionError):
        _paths_equal("mlknn", X_train, Y_train, X_test, sets[-3:], k=7,
                     random_state=0)


def test_statistics_record_whether_features_are_binary():
    Y = np.array([[1, 0], [0, 1]], dtype=np.uint8)
    stats = [dataset_statistics(Dataset("d", X, Y, ["a", "b"], ["y1", "y2"]))
             ["binary_features"] for X in (
                 np.array([[0.0, 1.0], [1.0, 1.0]]),
                 np.array([[0.0, 1.0], [1.0, 0.5]]),
                 sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]])),
                 sp.csr_matrix(np.array([[0.0, -1.0], [1.0, 0.0]])))]
    assert stats == [True, False, True, False]


def test_an_unknown_fact_is_an_error_naming_the_class():
    class Knn:
        _params_unused_on = {"sparse_features": ("scale",)}

    with pytest.raises(ValueError, match=r"Knn._params_unused_on names unknown "
                       r"fact\(s\) sparse_features; known: binary_features"):
        registry.params_unused_on(Knn, {"sparse_features": True})


def test_entry_on_data_drops_a_per_dataset_parameter_without_effect():
    entry = {"name": "mlknn", "id": "m", "params": {"k": 7},
             "dataset_params": {"enron": {"scale": False}}}
    binary = {"binary_features": True}
    assert entry_on_data(entry, "enron", "classifier", binary) == {
        "name": "mlknn", "id": "m", "params": {"k": 7}}
    assert (cache_id(entry_on_data(entry, "enron", "classifier", binary), "enron",
                     "classifier") == cache_id({"name": "mlknn", "params": {"k": 7}},
                                               "enron", "classifier"))
    # codes are not the raw features; br-lr declares nothing
    codes = {**entry, "input": "codes"}
    assert entry_on_data(codes, "enron", "classifier", binary) is codes
    lr = {"name": "br-lr", "params": {"penalty": "none"}}
    assert entry_on_data(lr, "enron", "classifier", binary) is lr


def test_dataset_facts_read_the_statistics_files(tmp_path):
    (tmp_path / "a.stats.json").write_text(json.dumps({"binary_features": True}))
    (tmp_path / "b.stats.json").write_text(json.dumps({"features": 3}))
    (tmp_path / "c.stats.json").write_text("not json")
    assert dataset_facts(["a", "b", "c", "d"], str(tmp_path)) == {
        "a": {"binary_features": True}}


READING = {
    "experiments": {"x": {
        "datasets": ["emotions", "genbase"],
        "splits": {"cv": {"type": "kfold", "k": 2}},
        "selectors": [{"name": "mim-br"}],
        "classifiers": [{"id": "mlknn-7", "name": "mlknn", "params": {"k": 7}}],
        "n_features": [5, "all"],
        "readings": {"mlknn-scale": {
            "about": "scaled or raw distances", "favoured": "scaled",
            "evidence": "the toolbox's default",
            "options": {"scaled": {}, "raw": {"classifiers": {
                "mlknn-7": {"params": {"scale": False}}}}}}},
    }},
    "datasets_table": "config/datasets.tsv",
}


def _classify_keys(plan, experiment, dataset):
    return {tuple(sorted(j.keys.items())) for j in plan.outputs(experiment, "classify")
            if j.keys["dataset"] == dataset}


def test_a_reading_without_effect_on_a_dataset_adds_no_job_there():
    facts = {"genbase": {"binary_features": True},
             "emotions": {"binary_features": False}}
    plan = plan_of(READING, facts=facts)
    raw = "x~mlknn-scale-raw"
    genbase = _classify_keys(plan, "x", "genbase")
    assert len(genbase) == 2  # one fold batch: the grid, the all-features point
    assert _classify_keys(plan, raw, "genbase") == genbase
    emotions = _classify_keys(plan, "x", "emotions")
    assert len(emotions) == 2 and not _classify_keys(plan, raw, "emotions") & emotions
    # without the facts (a dataset not prepared yet) each option has its jobs
    plan = plan_of(READING)
    assert not _classify_keys(plan, raw, "genbase") & _classify_keys(
        plan, "x", "genbase")
