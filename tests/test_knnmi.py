"""The kNN mutual information estimator (Eq. 7 of Doquire & Verleysen 2013).

Hand-computed values, the duplicate-point guard, known limits (independence:
0; a feature determining the class: H(class), nats), agreement with
scikit-learn's related kNN estimator, and the exactness of the incremental
forward machinery against from-scratch computations (KD-trees and full
distance matrices).
"""

import math

import numpy as np
import pytest
from scipy.special import digamma
from sklearn.feature_selection import mutual_info_classif

from mlfsbench.estimators.information.entropy import entropy
from mlfsbench.estimators.information.knn import (
    ForwardKnnMI,
    backward_elimination,
    forward_selection,
    knn_mutual_information,
    knn_mutual_information_univariate,
    mi_from_log_sums,
    prepare_features,
    squared_distances,
)


def test_eq7_by_hand_one_dimension():
    # Points 0 1 3 | 6 10 15 (classes 0 | 1), K = 1, no scaling, no jitter.
    # Whole-set 1st-neighbour distances: 1 1 2 3 4 5; within class: 1 1 2 4 4 5.
    x = np.array([0.0, 1, 3, 6, 10, 15])
    y = np.array([0, 0, 0, 1, 1, 1])
    expected = (digamma(6) - digamma(3)) + (math.log(3) - math.log(4)) / 6
    assert expected == pytest.approx(1 / 3 + 1 / 4 + 1 / 5 + math.log(0.75) / 6)
    kw = dict(k=1, standardize_features=False, noise=0.0)
    assert knn_mutual_information(x[:, None], y, **kw) == pytest.approx(expected,
                                                                        abs=1e-12)
    uni = knn_mutual_information_univariate(x[:, None], y, **kw)
    assert uni[0] == pytest.approx(expected, abs=1e-12)


def test_eq7_two_dimensions_by_hand():
    # Square corners (0,0) (1,0) | (0,3) (1,3), K = 1: every whole-set and
    # within-class neighbour is at distance 1, so only the digamma terms stay.
    X = np.array([[0.0, 0], [1, 0], [0, 3], [1, 3]])
    y = np.array([0, 0, 1, 1])
    value = knn_mutual_information(X, y, k=1, standardize_features=False, noise=0.0)
    assert value == pytest.approx(digamma(4) - digamma(2), abs=1e-12)
    assert value == pytest.approx(1 / 2 + 1 / 3)


def test_mi_from_log_sums_units_are_nats():
    # Separated classes: psi(N) - psi(N/2) -> ln 2 nats = 1 bit.
    value = mi_from_log_sums(0.0, 0.0, [5000, 5000], 3)
    assert value == pytest.approx(math.log(2), abs=1e-3)


@pytest.mark.parametrize("noise", [1e-10, 0.0])
def test_duplicate_points_stay_finite(noise):
    rng = np.random.default_rng(0)
    X = np.repeat(rng.random((30, 2)), 5, axis=0)  # every point 5 times
    X = np.vstack([X, np.zeros((20, 2))])  # and a block of 20 equal points
    y = rng.integers(0, 3, len(X))
    kw = dict(noise=noise, random_state=0)
    assert np.isfinite(knn_mutual_information(X, y, **kw))
    assert np.isfinite(knn_mutual_information_univariate(X, y, **kw)).all()
    assert np.isfinite(knn_mutual_information(np.ones((50, 3)), y[:50], **kw))
    Z = prepare_features(X, noise=noise, random_state=0)
    order, path, uni = forward_selection(Z, y)
    assert np.isfinite(path).all() and np.isfinite(uni).all()
    assert np.isfinite(backward_elimination(Z, y)[1]).all()


def test_guard_gives_plug_in_value_for_discrete_features():
    # With the jitter, a discrete feature's estimate is its plug-in MI: a
    # 4-valued feature that is a noisy copy of a 2-class variable.
    from mlfsbench.estimators.information.entropy import mutual_information

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 4000)
    x = np.where(rng.random(4000) < 0.8, y, 1 - y) * 2 + rng.integers(0, 2, 4000)
    plug_in = mutual_information(x, y) * math.log(2)
    est = knn_mutual_information_univariate(x[:, None], y, random_state=0)[0]
    # per-point log-ratio estimates have variance ~1/K: tolerance 0.02 nats
    assert est == pytest.approx(plug_in, abs=0.02)


def test_independent_variables_give_about_zero():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((2000, 3))
    y = rng.integers(0, 3, 2000)
    assert abs(knn_mutual_information(X, y, random_state=0)) < 0.04
    uni = knn_mutual_information_univariate(X, y, random_state=0)
    assert np.abs(uni).max() < 0.04


def test_feature_determining_the_class_gives_its_entropy():
    rng = np.random.default_rng(3)
    y = rng.choice(3, 3000, p=[0.5, 0.3, 0.2])
    X = np.column_stack([5.0 * y + rng.random(3000), 5.0 * y + rng.random(3000)])
    h_nats = entropy(y) * math.log(2)  # infotheory gives bits
    assert knn_mutual_information(X, y, random_state=0) == pytest.approx(h_nats,
                                                                         abs=0.01)
    uni = knn_mutual_information_univariate(X, y, random_state=0)
    np.testing.assert_allclose(uni, h_nats, atol=0.01)


def test_agrees_with_sklearn_kraskov_estimator_in_trend():
    # scikit-learn's mutual_info_classif (Ross 2014, a related kNN estimator,
    # nats) on Gaussian classes at growing separations.
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 3000)
    shifts = [0.0, 0.5, 1.0, 2.0, 4.0]
    X = np.column_stack([rng.standard_normal(3000) + s * y for s in shifts])
    ours = knn_mutual_information_univariate(X, y, random_state=0)
    theirs = mutual_info_classif(X, y, n_neighbors=4, random_state=0)
    assert np.all(np.diff(ours) > 0) and np.all(np.diff(theirs) > 0)
    np.testing.assert_allclose(ours, theirs, atol=0.03)


def test_univariate_equals_one_feature_at_a_time():
    rng = np.random.default_rng(5)
    X = rng.random((300, 4))
    y = (X[:, 0] + 0.3 * rng.random(300) > 0.6).astype(int) + (X[:, 2] > 0.8)
    Z = prepare_features(X, random_state=1)
    uni = knn_mutual_information_univariate(Z, y, standardize_features=False,
                                            noise=0.0)
    single = [knn_mutual_information(Z[:, [j]], y, standardize_features=False,
                                     noise=0.0) for j in range(4)]
    np.testing.assert_allclose(uni, single, rtol=0, atol=1e-10)


@pytest.mark.parametrize("n_neighbours", [None, 10, 399])
def test_incremental_scores_equal_from_scratch(n_neighbours):
    rng = np.random.default_rng(6)
    Z = prepare_features(rng.standard_normal((400, 7)), random_state=0)
    y = rng.integers(0, 4, 400)
    search = ForwardKnnMI(Z, y, k=4, n_neighbours=n_neighbours, n_jobs=2)
    for j in [5, 0, 3, 6]:
        search.add(j)
        rest = [i for i in range(7) if i not in search.selected]
        fast = search.scores(rest)
        np.testing.assert_allclose(fast, search.scores_full(rest), rtol=0,
                                   atol=1e-12)
        trees = [knn_mutual_information(Z[:, search.selected + [i]], y,
                                        standardize_features=False, noise=0.0)
                 for i in rest]
        np.testing.assert_allclose(fast, trees, rtol=0, atol=1e-9)
        assert search.mi() == pytest.approx(knn_mutual_information(
            Z[:, search.selected], y, standardize_features=False, noise=0.0),
            abs=1e-9)
    # the distance matrix accumulated step by step equals a fresh one
    np.testing.assert_array_equal(search.D2, squared_distances(
        search.Z, search.selected))
    if n_neighbours == 10:
        assert search.n_fallback_rows > 0  # the full-row path was exercised


def test_forward_and_backward_follow_their_definitions():
    rng = np.random.default_rng(7)
    Z = prepare_features(rng.random((250, 5)), random_state=0)
    y = rng.integers(0, 3, 250)
    order, path, uni = forward_selection(Z, y, n_steps=3)
    selected = []
    for t, j in enumerate(order):
        rest = [i for i in range(5) if i not in selected]
        brute = [knn_mutual_information(Z[:, selected + [i]], y,
                                        standardize_features=False, noise=0.0)
                 for i in rest]
        assert rest[int(np.argmax(brute))] == j
        assert path[t] == pytest.approx(max(brute), abs=1e-9)
        selected.append(int(j))
    removed, bpath, last = backward_elimination(Z, y, n_jobs=2)
    subset = list(range(5))
    for t, j in enumerate(removed):
        brute = [knn_mutual_information(Z[:, [i for i in subset if i != c]], y,
                                        standardize_features=False, noise=0.0)
                 for c in subset]
        assert subset[int(np.argmax(brute))] == j
        assert bpath[t] == pytest.approx(max(brute), abs=1e-9)
        subset.remove(int(j))
    assert subset == [last]


def test_input_validation():
    X = np.random.default_rng(0).random((20, 2))
    with pytest.raises(ValueError, match="more than k=4"):
        knn_mutual_information(X, np.array([0] * 16 + [1] * 4))
    with pytest.raises(ValueError, match="finite"):
        knn_mutual_information(np.full((20, 1), np.nan), np.zeros(20))
    with pytest.raises(ValueError, match="k must be"):
        knn_mutual_information(X, np.zeros(20), k=0)
    with pytest.raises(ValueError, match="1-D"):
        knn_mutual_information(X, np.zeros(19))
    search = ForwardKnnMI(X, np.zeros(20))
    search.add(1)
    with pytest.raises(ValueError, match="already"):
        search.add(1)
