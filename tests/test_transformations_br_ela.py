"""BR, ELA and the entropy-based label subset: known answers and invariants."""

import math

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.estimators import registry
from mlfsbench.estimators.information.entropy import entropy
from mlfsbench.estimators.transformations.br import BinaryRelevance
from mlfsbench.estimators.transformations.ela import EntropyBasedLabelAssignment
from mlfsbench.estimators.transformations.entropy_labels import (
    EntropyLabelSubset,
    column_entropies,
    resolve_n_labels,
)


def random_labels(seed=0, n=300, q=7, density=0.3):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, q)) < density).astype(np.uint8)
    Y[:5] = 0  # some instances without labels
    return Y


def test_registry_names():
    assert registry.get("transformation", "br") is BinaryRelevance
    assert registry.get("transformation", "ela") is EntropyBasedLabelAssignment
    assert registry.get("transformation", "entropy-labels") is EntropyLabelSubset


# ------------------------------------------------------------------------ BR


def test_br_returns_one_binary_problem_per_label():
    Y = random_labels()
    br = BinaryRelevance().fit(Y)
    T = br.transform(Y)
    assert T.dtype == np.uint8 and T.shape == Y.shape
    np.testing.assert_array_equal(T, Y)
    assert br.n_labels_ == Y.shape[1]
    np.testing.assert_array_equal(br.positives_, Y.sum(axis=0))
    problems = list(br.problems(Y))
    assert len(problems) == Y.shape[1]
    np.testing.assert_array_equal(problems[3], Y[:, 3])


def test_br_rejects_wrong_label_count_and_non_binary():
    br = BinaryRelevance().fit(np.zeros((3, 2), dtype=int))
    with pytest.raises(ValueError, match="labels"):
        br.transform(np.zeros((3, 3), dtype=int))
    with pytest.raises(ValueError, match="0/1"):
        BinaryRelevance().fit(np.array([[0, 2]]))


# ----------------------------------------------------------------------- ELA


def test_ela_weights_sum_to_one_per_labelled_instance():
    Y = random_labels(seed=1)
    copies = EntropyBasedLabelAssignment().fit_transform(Y)
    size = Y.sum(axis=1)
    # one copy per relevant label
    assert copies.sample.size == size.sum()
    np.testing.assert_array_equal(np.bincount(copies.sample, minlength=len(Y)), size)
    np.testing.assert_array_equal(Y[copies.sample, copies.label], 1)
    # weights 1/|Y_i| that sum to one per instance with labels, zero otherwise
    np.testing.assert_allclose(copies.weight, 1.0 / size[copies.sample])
    totals = np.bincount(copies.sample, weights=copies.weight, minlength=len(Y))
    np.testing.assert_allclose(totals[size > 0], 1.0, rtol=0, atol=1e-12)
    assert (totals[size == 0] == 0).all()
    assert (np.diff(copies.sample) >= 0).all()


def test_ela_hand_example_and_empty_label_policy():
    Y = np.array([[1, 1, 1], [0, 1, 0], [0, 0, 0]])
    c = EntropyBasedLabelAssignment().fit_transform(Y)
    assert c.sample.tolist() == [0, 0, 0, 1]
    assert c.label.tolist() == [0, 1, 2, 1]
    np.testing.assert_allclose(c.weight, [1 / 3, 1 / 3, 1 / 3, 1.0])
    ela = EntropyBasedLabelAssignment(empty="label").fit(Y)
    assert ela.n_classes_ == 4
    c = ela.transform(Y)
    assert c.sample.tolist() == [0, 0, 0, 1, 2]
    assert c.label.tolist() == [0, 1, 2, 1, 3]
    W = ela.weight_matrix(Y)
    assert sp.issparse(W) and W.shape == (3, 4)
    np.testing.assert_allclose(np.asarray(W.sum(axis=1)).ravel(), 1.0)
    with pytest.raises(ValueError, match="empty"):
        EntropyBasedLabelAssignment(empty="keep").fit(Y)


# -------------------------------------------------------- entropy label subset


def test_column_entropies_equal_per_column_entropy_dense_and_sparse():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 4, (200, 9)) * (rng.random((200, 9)) < 0.6)
    X[:, 3] = 7  # constant column
    expected = [entropy(X[:, j]) for j in range(X.shape[1])]
    np.testing.assert_allclose(column_entropies(X), expected, atol=1e-12)
    np.testing.assert_allclose(
        column_entropies(sp.csr_matrix(X)), expected, atol=1e-12
    )
    assert column_entropies(X)[3] == 0.0


def test_entropy_label_subset_keeps_highest_entropy_labels():
    # label densities 0.5, 0.1, 0.3, 0.5 (tie with label 0), 0.0
    n = 100
    Y = np.zeros((n, 5), dtype=np.uint8)
    Y[:50, 0] = 1
    Y[:10, 1] = 1
    Y[:30, 2] = 1
    Y[50:, 3] = 1
    t = EntropyLabelSubset(n_labels=3).fit(Y)
    h = [1.0, -(0.1 * math.log2(0.1) + 0.9 * math.log2(0.9)),
         -(0.3 * math.log2(0.3) + 0.7 * math.log2(0.7)), 1.0, 0.0]
    np.testing.assert_allclose(t.entropies_, h, atol=1e-12)
    assert t.order_.tolist() == [0, 3, 2, 1, 4]  # ties: lower index first
    assert t.selected_.tolist() == [0, 3, 2]
    np.testing.assert_array_equal(t.transform(Y), Y[:, [0, 3, 2]])


def test_entropy_label_subset_lowest_order_keeps_smallest_entropy_labels():
    # Lee & Kim 2016, Sec. 4.4: the opposing strategy takes the labels of
    # smallest entropy (same densities as above: 0.5, 0.1, 0.3, 0.5, 0.0)
    n = 100
    Y = np.zeros((n, 5), dtype=np.uint8)
    Y[:50, 0] = 1
    Y[:10, 1] = 1
    Y[:30, 2] = 1
    Y[50:, 3] = 1
    t = EntropyLabelSubset(n_labels=3, order="lowest").fit(Y)
    assert t.order_.tolist() == [4, 1, 2, 0, 3]  # ties: lower index first
    assert t.selected_.tolist() == [4, 1, 2]
    np.testing.assert_array_equal(t.transform(Y), Y[:, [4, 1, 2]])
    high = EntropyLabelSubset(n_labels=3).fit(Y)
    assert set(high.selected_.tolist()) & set(t.selected_.tolist()) == {2}
    # every label or none: the two orders keep the same set
    for k in (0, 5):
        a = EntropyLabelSubset(n_labels=k, order="lowest").fit(Y).selected_
        b = EntropyLabelSubset(n_labels=k).fit(Y).selected_
        assert sorted(a.tolist()) == sorted(b.tolist())
    with pytest.raises(ValueError, match="order"):
        EntropyLabelSubset(order="largest").fit(Y)


def test_resolve_n_labels():
    assert resolve_n_labels(None, 159) == 32  # 20 %, rounded half up
    assert resolve_n_labels(None, 14) == 3
    assert resolve_n_labels(None, 2) == 1  # at least one label
    assert resolve_n_labels(0, 10) == 0
    assert resolve_n_labels(50, 10) == 10
    assert resolve_n_labels(0.5, 7) == 4
    assert resolve_n_labels(1.0, 7) == 7
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError):
            resolve_n_labels(bad, 10)


def test_column_entropies_with_large_codes():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 500, (300, 4))
    expected = [entropy(X[:, j]) for j in range(4)]
    np.testing.assert_allclose(column_entropies(X), expected, atol=1e-12)
