"""DISR after BR, LP or PPT (Meyer & Bontempi 2006; Brown et al. 2012)."""

from __future__ import annotations

import numpy as np
import pytest

from mlfsbench.estimators import registry

from .pairwise_reference import (
    RELEVANCE,
    STEP2,
    assert_matches_reference,
    fit_with_trace,
    hand_problem,
    small_problem,
)


def test_hand_values_and_picks():
    X, Y = hand_problem()
    sel, trace = fit_with_trace("disr", X, Y, transformation="lp")
    np.testing.assert_allclose(trace[0], RELEVANCE, atol=1e-12)
    for k in (0, 1, 3, 4):
        t = STEP2[k]
        joint = RELEVANCE[2] + t["I(k;y|f2)"]  # I(k f2; y), chain rule
        assert trace[1][k] == pytest.approx(joint / t["H(k,f2,y)"], abs=1e-12)
    # H(f3, f2, y) = H(1, 2, 4, 1) = 1.75 bits against 2.25 for a: the
    # normalisation prefers f3, which adds nothing to f2 (0.3136 > 0.2914)
    assert STEP2[3]["H(k,f2,y)"] == 1.75
    assert STEP2[0]["H(k,f2,y)"] == 2.25
    assert trace[1][3] == pytest.approx(0.31360, abs=1e-5)
    assert trace[1][0] == pytest.approx(0.29140, abs=1e-5)
    assert sel.ranking_[:3].tolist() == [2, 3, 0]


@pytest.mark.parametrize("transformation", ["br", "lp", "ppt"])
def test_every_step_is_the_equation(transformation):
    X, Y = small_problem()
    assert_matches_reference("disr", X, Y, transformation=transformation, p=15)


def test_a_constant_pair_and_label_counts_zero():
    # H(X_k X_j Y) = 0 only when the pair and the label are constant
    X = np.zeros((6, 3), dtype=int)
    X[:3, 2] = 1
    Y = np.zeros((6, 1), dtype=np.uint8)
    sel = registry.create("selector", "disr", {"transformation": "br"}).fit(X, Y)
    assert sel.ranking_.tolist() == [0, 1, 2]
    assert sel.scores_.tolist() == [0.0, 0.0, 0.0]
