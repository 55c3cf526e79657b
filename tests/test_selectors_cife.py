"""CIFE after BR, LP or PPT (Lin & Tang 2006; Brown et al. 2012)."""

from __future__ import annotations

import numpy as np
import pytest

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
    sel, trace = fit_with_trace("cife", X, Y, transformation="lp")
    np.testing.assert_allclose(trace[0], RELEVANCE, atol=1e-12)
    for k in (0, 1, 3, 4):
        t = STEP2[k]
        expected = t["I(k;y)"] - t["I(k;f2)"] + t["I(k;f2|y)"]
        assert trace[1][k] == pytest.approx(expected, abs=1e-12)
    # f3's redundancy with f2 (0.4669) outweighs its relevance (0.3113) and
    # its class-conditional redundancy (0.1556): exactly 0; a's
    # complementarity makes up for its zero relevance
    assert trace[1][3] == pytest.approx(0.0, abs=1e-12)
    assert trace[1][0] == pytest.approx(0.10684, abs=1e-5)
    assert sel.ranking_[:3].tolist() == [2, 0, 1]


def test_second_step_is_the_conditional_relevance():
    # with one feature selected, I(k;y) - I(k;j) + I(k;j|y) = I(k;y|j): CIFE
    # and CMIM score the second step alike
    X, Y = small_problem(seed=2)
    cife = fit_with_trace("cife", X, Y, transformation="br")[1]
    cmim = fit_with_trace("cmim", X, Y, transformation="br")[1]
    np.testing.assert_allclose(cife[1], cmim[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("transformation", ["br", "lp", "ppt"])
def test_every_step_is_the_equation(transformation):
    X, Y = small_problem()
    assert_matches_reference("cife", X, Y, transformation=transformation, p=15)
