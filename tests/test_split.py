"""Iterative stratification (Sechidis et al. 2011) and the split protocols."""

import os
import re
import time
from pathlib import Path

import arff
import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.data.split import (
    given_split,
    holdout_splits,
    iterative_stratification,
    kfold_splits,
    make_splits,
    n_folds,
)

SHARED = Path(
    os.environ.get(
        "MLFS_SHARED_DATASETS", Path(__file__).parents[1] / "../shared/datasets"
    )
)


def load_labels(name: str) -> np.ndarray:
    """Label matrix of a Mulan dataset (labels are the last attributes)."""
    folder = SHARED / "multi-label" / name
    arff_path, xml_path = folder / f"{name}.arff", folder / f"{name}.xml"
    if not arff_path.exists() or not xml_path.exists():
        pytest.skip(f"dataset {name} not found under {SHARED}")
    n_labels = len(re.findall(r"<label\s", xml_path.read_text()))
    text = arff_path.read_text()
    try:
        data = arff.loads(text, encode_nominal=True, return_type=arff.COO)
        values, rows, cols = data["data"]
        shape = (max(rows) + 1, len(data["attributes"]))
        M = sp.csr_matrix((np.asarray(values, float), (rows, cols)), shape=shape)
        Y = M[:, -n_labels:].toarray()
    except arff.BadLayout:  # dense ARFF
        data = arff.loads(text, encode_nominal=True)
        Y = np.array([row[-n_labels:] for row in data["data"]], dtype=float)
    return Y.astype(np.uint8)


@pytest.fixture(scope="module", params=["yeast", "emotions"])
def real_Y(request):
    return load_labels(request.param)


def synthetic_Y(seed=0, n=300, q=8):
    rng = np.random.default_rng(seed)
    rates = np.linspace(0.03, 0.5, q)
    Y = (rng.random((n, q)) < rates).astype(np.uint8)
    return Y


def label_counts(Y, folds, k):
    return np.stack([Y[folds == f].sum(axis=0) for f in range(k)])


def mean_label_deviation(Y, folds, k):
    """Mean |positives of a label in a fold - ideal share|, over labels and folds."""
    return np.abs(label_counts(Y, folds, k) - Y.sum(axis=0) / k).mean()


def folds_from_splits(splits, n):
    folds = np.full(n, -1)
    for f, (_, test) in enumerate(splits):
        folds[test] = f
    return folds


# ---------------------------------------------------------------- stratification


def test_folds_are_an_assignment_of_every_example():
    Y = synthetic_Y()
    folds = iterative_stratification(Y, 5, random_state=0)
    assert folds.shape == (Y.shape[0],)
    assert folds.dtype == np.intp
    assert set(folds.tolist()) == set(range(5))


@pytest.mark.parametrize("stratify", [True, False])
def test_kfold_splits_partition_the_data(stratify):
    Y = synthetic_Y()
    n = Y.shape[0]
    splits = kfold_splits(Y, 7, random_state=3, stratify=stratify)
    assert len(splits) == 7
    tests = np.concatenate([test for _, test in splits])
    assert np.array_equal(np.sort(tests), np.arange(n))
    for train, test in splits:
        assert np.array_equal(train, np.sort(train))
        assert np.array_equal(test, np.sort(test))
        assert np.intersect1d(train, test).size == 0
        assert train.size + test.size == n


def test_plain_random_fold_sizes_differ_by_at_most_one():
    splits = kfold_splits(synthetic_Y(), 7, random_state=0, stratify=False)
    sizes = [test.size for _, test in splits]
    assert max(sizes) - min(sizes) <= 1


def test_stratified_fold_sizes_are_close_to_equal(real_Y):
    # Iterative stratification favours the label distribution over the fold
    # sizes (Sechidis et al. 2011 report its "examples distribution" ED > 0),
    # so sizes are near, not exactly, n / k.
    k = 10
    for seed in range(3):
        sizes = np.bincount(iterative_stratification(real_Y, k, seed), minlength=k)
        ideal = real_Y.shape[0] / k
        assert np.abs(sizes - ideal).max() <= 0.1 * ideal


def test_single_label_examples_give_near_equal_folds():
    Y = np.eye(4, dtype=np.uint8).repeat([10, 20, 30, 40], axis=0)
    folds = iterative_stratification(Y, 5, random_state=0)
    sizes = np.bincount(folds)
    assert sizes.max() - sizes.min() <= 1
    counts = label_counts(Y, folds, 5)
    assert (counts == Y.sum(axis=0) / 5).all()


def test_deterministic_from_seed_and_seeds_differ():
    Y = synthetic_Y(1)
    a = iterative_stratification(Y, 5, random_state=42)
    b = iterative_stratification(Y, 5, random_state=42)
    c = iterative_stratification(Y, 5, random_state=43)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    sa = make_splits({"type": "kfold", "k": 5, "seed": 7}, Y)
    sb = make_splits({"type": "kfold", "k": 5, "seed": 7}, Y)
    assert all(np.array_equal(x[1], y[1]) for x, y in zip(sa, sb, strict=True))


def test_every_frequent_label_in_every_test_fold(real_Y):
    k = 10
    frequent = real_Y.sum(axis=0) >= k
    for seed in range(5):
        folds = iterative_stratification(real_Y, k, seed)
        assert (label_counts(real_Y, folds, k)[:, frequent] > 0).all()


def test_label_distribution_beats_random_kfold(real_Y):
    k = 10
    n = real_Y.shape[0]
    for seed in range(3):
        strat = folds_from_splits(kfold_splits(real_Y, k, seed), n)
        plain = folds_from_splits(kfold_splits(real_Y, k, seed, stratify=False), n)
        d_strat = mean_label_deviation(real_Y, strat, k)
        d_plain = mean_label_deviation(real_Y, plain, k)
        assert d_strat < 0.5 * d_plain
        # within one example of the ideal share on average
        assert d_strat < 1.0


def test_unlabelled_examples_are_spread():
    Y = np.zeros((50, 3), dtype=np.uint8)
    Y[:20, 0] = 1
    folds = iterative_stratification(Y, 5, random_state=0)
    assert np.bincount(folds).tolist() == [10] * 5
    assert label_counts(Y, folds, 5)[:, 0].tolist() == [4] * 5


def test_unequal_proportions():
    Y = synthetic_Y(2, n=1000)
    folds = iterative_stratification(Y, random_state=0, proportions=[0.2, 0.8])
    share = Y[folds == 0].sum(axis=0) / Y.sum(axis=0)
    np.testing.assert_allclose(share, 0.2, atol=0.02)
    assert abs((folds == 0).mean() - 0.2) < 0.02


def test_sparse_labels_equal_dense():
    Y = synthetic_Y(3)
    a = iterative_stratification(Y, 4, random_state=1)
    b = iterative_stratification(sp.csr_matrix(Y), 4, random_state=1)
    assert np.array_equal(a, b)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_splits": 1}, "n_splits"),
        ({"n_splits": 2.5}, "n_splits"),
        ({}, "n_splits or proportions"),
        ({"proportions": [0.5, 0.6]}, "sum to 1"),
        ({"proportions": [1.0]}, "at least two"),
        ({"n_splits": 3, "proportions": [0.5, 0.5]}, "proportions"),
    ],
)
def test_iterative_stratification_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        iterative_stratification(synthetic_Y(), **kwargs)


def test_label_matrix_validation():
    with pytest.raises(ValueError, match="0/1"):
        kfold_splits(np.array([[2, 0], [0, 1]]), 2)
    with pytest.raises(ValueError, match="cannot split"):
        kfold_splits(np.ones((3, 1)), 5)


def test_bibtex_ten_folds_is_fast():
    Y = load_labels("bibtex")
    start = time.perf_counter()
    splits = kfold_splits(Y, 10, random_state=0)
    assert time.perf_counter() - start < 10.0
    assert len(splits) == 10


# ---------------------------------------------------------------- hold-out and given


@pytest.mark.parametrize("stratify", [True, False])
def test_holdout_sizes_and_repeats(stratify):
    Y = synthetic_Y(4, n=500)
    splits = holdout_splits(Y, 0.3, n_repeats=6, random_state=0, stratify=stratify)
    assert len(splits) == 6
    for train, test in splits:
        assert train.size + test.size == 500
        assert np.intersect1d(train, test).size == 0
        if stratify:
            assert abs(test.size - 150) <= 10
        else:
            assert test.size == 150
    assert not np.array_equal(splits[0][1], splits[1][1])


def test_holdout_repeat_does_not_depend_on_number_of_repeats():
    Y = synthetic_Y(5)
    few = holdout_splits(Y, 0.5, n_repeats=2, random_state=9)
    many = holdout_splits(Y, 0.5, n_repeats=5, random_state=9)
    for (_, a), (_, b) in zip(few, many[:2], strict=True):
        assert np.array_equal(a, b)


def test_holdout_is_stratified(real_Y):
    (_, test), = holdout_splits(real_Y, 0.5, 1, random_state=0)
    share = real_Y[test].sum(axis=0) / real_Y.sum(axis=0)
    np.testing.assert_allclose(share, 0.5, atol=0.03)


@pytest.mark.parametrize("test_size", [0, 1, 1.5, -0.1, True])
def test_holdout_rejects_bad_test_size(test_size):
    with pytest.raises(ValueError, match="test_size"):
        holdout_splits(synthetic_Y(), test_size)


def test_given_split():
    (train, test), = given_split(np.array([False, True, False, True, True]))
    assert train.tolist() == [0, 2]
    assert test.tolist() == [1, 3, 4]
    with pytest.raises(ValueError, match="no separate test part"):
        given_split(np.zeros(4, dtype=bool))
    with pytest.raises(ValueError, match="boolean"):
        given_split([0, 2, 1])


# ---------------------------------------------------------------- specs


def test_make_splits_and_n_folds_agree():
    Y = synthetic_Y(6)
    is_test = np.arange(Y.shape[0]) % 3 == 0
    specs = [
        {"type": "kfold", "k": 4, "seed": 0},
        {"type": "kfold", "k": 3, "seed": 1, "stratify": False},
        {"type": "holdout", "test_size": 0.5, "repeats": 5, "seed": 0},
        {"type": "holdout", "test_size": 0.2},
        {"type": "given"},
    ]
    for spec in specs:
        splits = make_splits(spec, Y, is_test)
        assert len(splits) == n_folds(spec)
    (_, test), = make_splits({"type": "given"}, Y, is_test)
    assert np.array_equal(test, np.flatnonzero(is_test))


@pytest.mark.parametrize(
    "spec, match",
    [
        ({"type": "loo"}, "unknown split type"),
        ({"k": 3}, "type"),
        ({"type": "kfold"}, "needs 'k'"),
        ({"type": "kfold", "k": 3, "folds": 3}, "no key"),
        ({"type": "kfold", "k": 1}, "k must be"),
        ({"type": "kfold", "k": 3, "stratify": "yes"}, "stratify"),
        ({"type": "holdout", "repeats": 3}, "test_size"),
        ({"type": "holdout", "test_size": 0.3, "repeats": 0}, "repeats"),
        ({"type": "given", "seed": 0}, "no key"),
    ],
)
def test_bad_specs(spec, match):
    with pytest.raises(ValueError, match=match):
        n_folds(spec)


def test_given_spec_needs_is_test():
    with pytest.raises(ValueError, match="is_test"):
        make_splits({"type": "given"}, synthetic_Y())
    with pytest.raises(ValueError, match="entries"):
        make_splits({"type": "given"}, synthetic_Y(), np.array([True, False]))
