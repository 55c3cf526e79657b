"""BRkNN-a / BRkNN-b (Spyromitros, Tsoumakas & Vlahavas 2008)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.estimators import registry
from mlfsbench.estimators.classifiers.brknn import (
    BRkNNa,
    BRkNNb,
    brknn_a_decisions,
    brknn_b_decisions,
    brknn_b_sizes,
    top_labels,
)


# --------------------------------------------------------------------------
# A direct loop implementation of the paper's definitions
# --------------------------------------------------------------------------
def _loop_brknn(X_train, Y_train, X_test, k):
    """Per query: confidences, admissible -a and -b label sets (as must/may sets).

    Written sample by sample from Spyromitros et al. (2008), Sec. 3, with
    explicit distances and sorting; returns for each query the confidences,
    the -a set bounds and the -b size with its bounds.
    """
    out = []
    for x in X_test:
        dist = [float(np.sqrt(np.sum((row - x) ** 2))) for row in X_train]
        neigh = sorted(range(len(dist)), key=lambda j: dist[j])[:k]
        n_labels = len(Y_train[0])
        conf = [sum(Y_train[j][lab] for j in neigh) / k for lab in range(n_labels)]
        # -a
        chosen = {lab for lab, c in enumerate(conf) if c >= 0.5}
        if chosen:
            a_must, a_may, a_size = chosen, set(), len(chosen)
        else:
            best = max(conf)
            tops = {lab for lab, c in enumerate(conf) if c == best}
            a_must, a_may, a_size = set(), tops, 1
        # -b: round half up, at least one label
        s = sum(sum(Y_train[j]) for j in neigh) / k
        size = max(1, int(np.floor(s + 0.5)))
        ordered = sorted(conf, reverse=True)
        cut = ordered[size - 1]
        b_must = {lab for lab, c in enumerate(conf) if c > cut}
        b_may = {lab for lab, c in enumerate(conf) if c == cut}
        out.append((conf, (a_must, a_may, a_size), (b_must, b_may, size)))
    return out


def _check_admissible(pred_row, must, may, size):
    chosen = set(np.flatnonzero(pred_row).tolist())
    assert must <= chosen
    assert chosen <= must | may
    assert len(chosen) == size


@pytest.fixture
def tiny():
    rng = np.random.RandomState(3)
    X = rng.normal(size=(40, 3))
    Y = (rng.uniform(size=(40, 5)) < [0.6, 0.4, 0.3, 0.15, 0.05]).astype(int)
    X_test = rng.normal(size=(25, 3))
    return X, Y, X_test


@pytest.mark.parametrize("k", [1, 4, 5, 10])
def test_against_direct_loop(tiny, k):
    X, Y, X_test = tiny
    expected = _loop_brknn(X.tolist(), Y.tolist(), X_test, k)
    a = BRkNNa(k=k, scale=False, random_state=0).fit(X, Y)
    b = BRkNNb(k=k, scale=False, random_state=0).fit(X, Y)
    np.testing.assert_allclose(a.predict_proba(X_test), [e[0] for e in expected])
    np.testing.assert_allclose(b.predict_proba(X_test), [e[0] for e in expected])
    for row_a, row_b, (_, a_set, b_set) in zip(
        a.predict(X_test), b.predict(X_test), expected, strict=True
    ):
        _check_admissible(row_a, *a_set)
        _check_admissible(row_b, *b_set)


# --------------------------------------------------------------------------
# The two known bugs: half-to-even rounding and s rounding to 0
# --------------------------------------------------------------------------
def _stack(label_sets, n_labels):
    """Training set of identical points (all at 0) with the given labelsets."""
    Y = np.zeros((len(label_sets), n_labels), dtype=int)
    for i, labels in enumerate(label_sets):
        Y[i, labels] = 1
    return np.zeros((len(label_sets), 1)), Y


@pytest.mark.parametrize(
    ("label_sets", "expected_size"),
    [
        ([[0, 1], [0, 1, 2]], 3),        # s = 2.5 -> 3 (half-to-even gives 2)
        ([[0], []], 1),                  # s = 0.5 -> 1 (half-to-even gives 0)
        ([[], []], 1),                   # s = 0 -> at least one label, not all
        ([[0, 1], [0, 1, 2, 3]], 3),     # s = 3 -> 3
        ([[0], [0, 1, 2]], 2),           # s = 2 -> 2
        ([[0, 1], [0, 1, 2, 3, 4]], 4),  # s = 3.5 -> 4 (half-to-even gives 4)
    ],
)
def test_brknn_b_size_rounds_half_up_and_at_least_one(label_sets, expected_size):
    X, Y = _stack(label_sets, 6)
    clf = BRkNNb(k=2, random_state=0).fit(X, Y)
    pred = clf.predict(np.zeros((50, 1)))
    assert (pred.sum(axis=1) == expected_size).all()


def test_brknn_b_sizes_function():
    # k = 4: totals 2, 6, 10 are s = 0.5, 1.5, 2.5 exactly
    assert brknn_b_sizes(np.array([0, 1, 2, 5, 6, 10, 11]), 4).tolist() == [
        1, 1, 1, 1, 2, 3, 3,
    ]
    assert np.round(2.5) == 2  # the numpy behaviour the rule avoids


def test_brknn_b_chooses_most_confident_labels():
    counts = np.array([[5, 1, 3, 0], [0, 0, 0, 2]])
    # row 0: s = 9/5 -> 2 labels: 0 and 2; row 1: s = 0.4 -> 1 label: 3
    rng = np.random.RandomState(0)
    assert brknn_b_decisions(counts, 5, rng).tolist() == [[1, 0, 1, 0], [0, 0, 0, 1]]


def test_brknn_b_never_more_labels_than_exist():
    counts = np.array([[3, 3]])  # s = 6 / 3 = 2 = q
    assert brknn_b_decisions(counts, 3, np.random.RandomState(0)).tolist() == [[1, 1]]


def test_brknn_a_threshold_is_inclusive_and_falls_back_to_top_label():
    rng = np.random.RandomState(0)
    # k = 4: count 2 is confidence exactly 0.5 (np.rint would round it to 0)
    counts = np.array([[2, 1, 0], [1, 0, 0], [0, 0, 0], [4, 3, 2]])
    pred = brknn_a_decisions(counts, 4, rng)
    assert pred[0].tolist() == [1, 0, 0]
    assert pred[1].tolist() == [1, 0, 0]          # none >= 0.5: top label
    assert pred[2].sum() == 1                     # all tied at 0: one label
    assert pred[3].tolist() == [1, 1, 1]


# --------------------------------------------------------------------------
# Seeded tie-breaks
# --------------------------------------------------------------------------
def test_tie_breaks_are_seeded_and_fair():
    counts = np.tile([3, 3, 1], (2000, 1))  # one slot, two tied labels
    sizes = np.ones(2000, dtype=int)
    first = top_labels(counts, sizes, np.random.RandomState(7))
    again = top_labels(counts, sizes, np.random.RandomState(7))
    other = top_labels(counts, sizes, np.random.RandomState(8))
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    assert (first[:, 2] == 0).all() and (first.sum(axis=1) == 1).all()
    share = first[:, 0].mean()
    assert 0.45 < share < 0.55  # a fair coin: 4.5 standard deviations


def test_predict_same_seed_same_output(tiny):
    X, Y, X_test = tiny
    clf = BRkNNb(k=4, random_state=11).fit(X, Y)
    np.testing.assert_array_equal(clf.predict(X_test), clf.predict(X_test))


# --------------------------------------------------------------------------
# Scaling, sparse input, validation, registry
# --------------------------------------------------------------------------
def test_scaling_uses_training_range():
    # feature 1 spans 0..100 and dominates unscaled distances
    X = np.array([[0.0, 0.0], [1.0, 100.0]])
    Y = np.array([[1, 0], [0, 1]])
    query = np.array([[0.9, 20.0]])
    # unscaled: 20.02 to (0, 0) vs 80.0 to (1, 100)
    assert BRkNNa(k=1, scale=False).fit(X, Y).predict(query).tolist() == [[1, 0]]
    # scaled to (0.9, 0.2): 0.922 to (0, 0) vs 0.806 to (1, 1)
    assert BRkNNa(k=1, scale=True).fit(X, Y).predict(query).tolist() == [[0, 1]]


def test_scaled_equals_unscaled_on_prescaled_data(tiny):
    X, Y, X_test = tiny
    lo, hi = X.min(axis=0), X.max(axis=0)
    a = BRkNNb(k=5, scale=True, random_state=0).fit(X, Y)
    b = BRkNNb(k=5, scale=False, random_state=0).fit((X - lo) / (hi - lo), Y)
    Xt = (X_test - lo) / (hi - lo)
    np.testing.assert_allclose(a.predict_proba(X_test), b.predict_proba(Xt))
    np.testing.assert_array_equal(a.predict(X_test), b.predict(Xt))


def test_sparse_input_matches_dense(tiny):
    X, Y, X_test = tiny
    X, X_test = np.abs(X), np.abs(X_test)
    dense = BRkNNa(k=5, random_state=0).fit(X, Y)
    sparse = BRkNNa(k=5, random_state=0).fit(sp.csr_matrix(X), sp.csr_matrix(Y))
    np.testing.assert_allclose(dense.predict_proba(X_test),
                               sparse.predict_proba(sp.csr_matrix(X_test)))


def test_validation():
    X, Y = np.zeros((3, 1)), np.array([[1], [0], [1]])
    with pytest.raises(ValueError, match="'k' parameter of BRkNNa must be"):
        BRkNNa(k=0).fit(X, Y)
    with pytest.raises(ValueError, match="at least 4"):
        BRkNNb(k=4).fit(X, Y)
    with pytest.raises(ValueError, match="0/1"):
        BRkNNb(k=1).fit(X, Y * 2)
    with pytest.raises(ValueError, match="features"):
        BRkNNb(k=1).fit(X, Y).predict(np.zeros((1, 2)))
    with pytest.raises(ValueError):
        BRkNNa(k=1).fit(np.array([[np.nan], [0.0], [1.0]]), Y)


def test_registry_and_defaults():
    a = registry.create("classifier", "brknn-a", {"k": 5}, random_state=1)
    b = registry.create("classifier", "brknn-b", {}, random_state=1)
    assert isinstance(a, BRkNNa) and a.k == 5 and a.random_state == 1
    assert isinstance(b, BRkNNb) and b.k == 10 and b.scale is True


# --------------------------------------------------------------------------
# Cross-check against scikit-multilearn on yeast (confidences)
# --------------------------------------------------------------------------
@pytest.mark.slow
def test_confidences_match_skmultilearn_on_yeast(shared_datasets):
    from skmultilearn.adapt import BRkNNaClassifier

    from mlfsbench.data import load_mulan

    d = shared_datasets / "multi-label" / "yeast"
    ds = load_mulan([d / "yeast-train.arff", d / "yeast-test.arff"], d / "yeast.xml",
                    name="yeast")
    train, test = np.flatnonzero(~ds.is_test), np.flatnonzero(ds.is_test)
    X = np.asarray(ds.X, dtype=float)
    # odd k: no confidence is exactly 0.5
    ours = BRkNNa(k=11, scale=False, random_state=0).fit(X[train], ds.Y[train])
    theirs = BRkNNaClassifier(k=11).fit(X[train], sp.csr_matrix(ds.Y[train]))
    their_pred = theirs.predict(X[test]).toarray()
    conf = np.asarray(theirs.confidences_)
    np.testing.assert_allclose(ours.predict_proba(X[test]), conf)
    # scikit-multilearn has no top-label fallback for an empty prediction:
    # predictions agree wherever some confidence exceeds 0.5
    plain = (conf > 0.5).any(axis=1)
    assert plain.sum() > 0.9 * len(test)
    np.testing.assert_array_equal(ours.predict(X[test])[plain], their_pred[plain])
