"""mRMR (difference form) after BR, LP or PPT (Peng et al. 2005)."""

from __future__ import annotations

import numpy as np
import pytest

from mlfsbench.estimators import registry

from .pairwise_reference import (
    RELEVANCE,
    STEP2,
    H,
    assert_matches_reference,
    fit_with_trace,
    hand_problem,
    small_problem,
)


def test_hand_values_and_picks():
    X, Y = hand_problem()
    sel, trace = fit_with_trace("mrmr", X, Y, transformation="lp")
    np.testing.assert_allclose(trace[0], RELEVANCE, atol=1e-12)
    for k in (0, 1, 3, 4):
        t = STEP2[k]
        assert trace[1][k] == pytest.approx(t["I(k;y)"] - t["I(k;f2)"], abs=1e-12)
    # step 3 (f2, a selected): f3 scores I(f3;y) - (I(f3;f2) + I(f3;a)) / 2
    # with I(f3;a) = 0 ((f3, a) counts 3, 1, 3, 1; H(f3) = H(6, 2)); b and c
    # -(I(k;f2) + 0) / 2
    i_f3_a = H(6, 2) + 1 - H(3, 1, 3, 1)
    assert i_f3_a == pytest.approx(0.0, abs=1e-12)
    f3 = RELEVANCE[3] - (STEP2[3]["I(k;f2)"] + i_f3_a) / 2
    assert trace[2][3] == pytest.approx(f3, abs=1e-12)
    assert trace[2][1] == pytest.approx(-STEP2[1]["I(k;f2)"] / 2, abs=1e-12)
    assert f3 == pytest.approx(0.0778, abs=1e-4)
    # no reward for complementarity: f3, not b, third
    assert sel.ranking_[:3].tolist() == [2, 0, 3]


@pytest.mark.parametrize("transformation", ["br", "lp", "ppt"])
def test_every_step_is_the_equation(transformation):
    X, Y = small_problem()
    assert_matches_reference("mrmr", X, Y, transformation=transformation, p=15)


def test_br_is_granular_mrmr_with_one_granule():
    # Li et al. (2017, Eq. 16) with every label in one granule: mean
    # relevance minus mean redundancy, q times smaller than the BR sum
    X, Y = small_problem(seed=1, p=9, q=4)
    ours = registry.create("selector", "mrmr", {"transformation": "br"}).fit(X, Y)
    li = registry.create("selector", "granular-mrmr", {"granules": 1},
                         random_state=0).fit(X, Y)
    np.testing.assert_array_equal(ours.ranking_, li.ranking_)
    np.testing.assert_allclose(ours.scores_, 4 * li.scores_, rtol=1e-12)
