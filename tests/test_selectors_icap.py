"""ICAP after BR, LP or PPT (Jakulin 2005; Brown et al. 2012)."""

from __future__ import annotations

import numpy as np
import pytest

from .pairwise_reference import (
    RELEVANCE,
    STEP2,
    assert_matches_reference,
    cmi,
    fit_with_trace,
    hand_problem,
    mi,
    reference,
    small_problem,
)


def test_hand_values_and_picks():
    X, Y = hand_problem()
    sel, trace = fit_with_trace("icap", X, Y, transformation="lp")
    np.testing.assert_allclose(trace[0], RELEVANCE, atol=1e-12)
    for k in (0, 1, 3, 4):
        t = STEP2[k]
        expected = t["I(k;y)"] - max(0.0, t["I(k;f2)"] - t["I(k;f2|y)"])
        assert trace[1][k] == pytest.approx(expected, abs=1e-12)
    # the cap: a's class-conditional redundancy with f2 (0.1556) exceeds its
    # redundancy (0.0488), but gains it nothing (CIFE would add 0.1068)
    assert STEP2[0]["I(k;f2|y)"] > STEP2[0]["I(k;f2)"]
    assert trace[1][0] == pytest.approx(0.0, abs=1e-12)
    # every candidate scores 0: the tie goes to the lowest index, a, then b
    np.testing.assert_allclose(trace[1][[0, 1, 3, 4]], 0.0, atol=1e-12)
    assert sel.ranking_[:3].tolist() == [2, 0, 1]


@pytest.mark.parametrize("transformation", ["br", "lp", "ppt"])
def test_every_step_is_the_equation(transformation):
    X, Y = small_problem()
    assert_matches_reference("icap", X, Y, transformation=transformation, p=15)


def test_the_cap_is_per_selected_feature_and_label():
    # not max(0, sum of the differences) (ITMO_FS's ICAP): a complementary
    # selected feature does not offset a redundant one
    X, Y = small_problem(seed=4, p=8)
    sel, trace = fit_with_trace("icap", X, Y, transformation="br",
                                n_features_to_select=4)
    S = sel.ranking_[:3].tolist()
    rest = np.setdiff1d(np.arange(8), S)
    per_term = reference("icap", X, Y, S)
    summed = np.array([sum(
        mi(X[:, k], y) - max(0.0, sum(mi(X[:, k], X[:, j]) - cmi(X[:, k], X[:, j], y)
                                      for j in S))
        for y in Y.T) for k in range(8)])
    np.testing.assert_allclose(trace[3][rest], per_term[rest], atol=1e-12)
    assert np.abs(summed[rest] - per_term[rest]).max() > 0.01
