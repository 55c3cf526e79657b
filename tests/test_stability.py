"""Nogueira, Sechidis & Brown (2018) stability estimator."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mlfsbench.evaluation.stability import (
    nogueira_stability,
    nogueira_variance,
    selection_matrix,
    stability,
    top_k_matrix,
)


def _kuncheva(a, b, d):
    """Kuncheva's consistency index of two subsets of equal size k."""
    k = len(a)
    r = len(set(a) & set(b))
    return (r * d - k * k) / (k * (d - k))


def test_identical_subsets_give_one():
    Z = selection_matrix([[0, 3, 5]] * 4, 8)
    assert nogueira_stability(Z) == 1.0
    assert nogueira_variance(Z) == 0.0
    res = stability(Z)
    assert (res.stability, res.ci_low, res.ci_high) == (1.0, 1.0, 1.0)
    assert res.n_runs == 4 and res.mean_size == 3.0


def test_hand_value():
    # p = (1, 2/3, 1/3, 0); s_f^2 = 3/2 p (1 - p) = (0, 1/3, 1/3, 0): mean 1/6
    # k_bar = 2, d = 4: denominator 1/2 * 1/2 = 1/4 -> 1 - (1/6) / (1/4) = 1/3
    Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    assert nogueira_stability(Z) == pytest.approx(1 / 3)
    # psi = (4/3, 4/3, 2/3) (module docstring): var = (2 (2/9)^2 + (4/9)^2) / 9
    assert nogueira_variance(Z) == pytest.approx(24 / 729)


def test_disjoint_halves_give_minus_one():
    # two runs, disjoint subsets covering everything: the minimum for M = 2
    assert nogueira_stability([[1, 1, 0, 0], [0, 0, 1, 1]]) == pytest.approx(-1.0)


def test_equals_mean_pairwise_kuncheva_for_fixed_k():
    rng = np.random.RandomState(0)
    d, k, M = 15, 4, 7
    subsets = [rng.choice(d, size=k, replace=False).tolist() for _ in range(M)]
    subsets[1] = subsets[0]  # some overlap
    expected = np.mean([_kuncheva(a, b, d)
                        for a, b in itertools.combinations(subsets, 2)])
    assert nogueira_stability(selection_matrix(subsets, d)) == pytest.approx(expected)


def test_random_subsets_average_zero():
    rng = np.random.RandomState(1)
    values = [nogueira_stability(top_k_matrix(
        np.argsort(rng.uniform(size=(5, 20)), axis=1), 6)) for _ in range(400)]
    assert abs(np.mean(values)) < 0.02  # E[Phi] = 0 under random selection


def test_variance_matches_monte_carlo():
    """The asymptotic variance estimate agrees with the spread of Phi."""
    rng = np.random.RandomState(2)
    d, probs = 20, np.linspace(0.05, 0.9, 20)
    phis, variances = [], []
    for _ in range(300):
        Z = rng.uniform(size=(50, d)) < probs
        phis.append(nogueira_stability(Z))
        variances.append(nogueira_variance(Z))
    assert np.mean(variances) == pytest.approx(np.var(phis), rel=0.25)


def test_confidence_interval_is_normal():
    Z = [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0]]
    res = stability(Z, alpha=0.1)
    half = 1.6448536269514722 * np.sqrt(res.variance)
    assert res.ci_low == pytest.approx(res.stability - half)
    assert res.ci_high == pytest.approx(res.stability + half)


def test_top_k_matrix_from_rankings():
    Z = top_k_matrix([[3, 1, 0, 2], [1, 3, 2, 0]], 2)
    assert Z.astype(int).tolist() == [[0, 1, 0, 1], [0, 1, 0, 1]]
    assert top_k_matrix([[0, 1]], 1, n_features=5).shape == (1, 5)


def test_validation():
    with pytest.raises(ValueError, match="at least 2 runs"):
        nogueira_stability([[1, 0, 1]])
    with pytest.raises(ValueError, match="undefined"):
        nogueira_stability([[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="undefined"):
        nogueira_stability([[1, 1], [1, 1]])
    with pytest.raises(ValueError, match="0/1"):
        nogueira_stability([[2, 0], [1, 0]])
    with pytest.raises(ValueError, match="outside"):
        selection_matrix([[0, 9]], 4)
    with pytest.raises(ValueError, match="k"):
        top_k_matrix([[0, 1]], 3)
