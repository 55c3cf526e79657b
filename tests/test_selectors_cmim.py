"""CMIM after BR, LP or PPT (Fleuret 2004; Brown et al. 2012)."""

from __future__ import annotations

import numpy as np
import pytest

from .pairwise_reference import (
    FIRST,
    RELEVANCE,
    STEP2,
    assert_matches_reference,
    fit_with_trace,
    hand_problem,
    small_problem,
)


def test_hand_values_and_picks():
    X, Y = hand_problem()
    sel, trace = fit_with_trace("cmim", X, Y, transformation="lp")
    np.testing.assert_allclose(trace[0], RELEVANCE, atol=1e-12)
    # step 2: J(k) = I(k; y | f2); a, b and c gain 0.1068 bits given f2, f3
    # none (it is f2 with one more error)
    for k in (0, 1, 3, 4):
        assert trace[1][k] == pytest.approx(STEP2[k]["I(k;y|f2)"], abs=1e-12)
    assert STEP2[0]["I(k;y|f2)"] == pytest.approx(0.10684, abs=1e-5)
    assert STEP2[3]["I(k;y|f2)"] == pytest.approx(0.0, abs=1e-12)
    # f2, then a (tied with b and c: the lower index), then b: given a, b
    # determines y with f2's help
    assert sel.ranking_[:3].tolist() == [FIRST, 0, 1]
    assert sel.scores_[[2, 0]].tolist() == pytest.approx(
        [RELEVANCE[2], STEP2[0]["I(k;y|f2)"]], abs=1e-12)


def test_feast_variant_caps_by_the_relevance():
    X, Y = hand_problem()
    sel, trace = fit_with_trace("cmim", X, Y, transformation="lp", variant="feast")
    # min(I(k;y), I(k;y|f2)): a, b, c have no relevance of their own
    np.testing.assert_allclose(trace[1][[0, 1, 3, 4]], 0.0, atol=1e-12)
    assert sel.ranking_[:3].tolist() == [2, 0, 1]
    assert sel.scores_[0] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("transformation", ["br", "lp", "ppt"])
@pytest.mark.parametrize("variant", ["equation", "feast"])
def test_every_step_is_the_equation(transformation, variant):
    X, Y = small_problem()
    assert_matches_reference("cmim", X, Y, transformation=transformation, p=15,
                             variant=variant)
