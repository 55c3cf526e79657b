"""The Bayesian signed-rank test and Cliff's delta against hand-computed
values and independent implementations (baycomp, autorank)."""

from __future__ import annotations

import numpy as np
import pytest

from mlfsbench.evaluation.bayesian import posterior_thetas, signed_rank
from mlfsbench.evaluation.effect_size import cliffs_delta, magnitude
from mlfsbench.evaluation.pairwise import pairwise
from mlfsbench.evaluation.stats import compare_methods


def test_one_dataset_beyond_the_rope_by_hand():
    """One difference z > 2r: the pairs (0, z), (z, 0), (z, z) favour the
    first method, (0, 0) is in the rope, so theta_rope = w0^2 with
    w0 ~ Beta(1/2, 1): the first wins when w0^2 < 1/2, with probability
    P(w0 < 2^-1/2) = (2^-1/2)^(1/2) = 2^-1/4 = 0.8409; the rope the rest."""
    r = signed_rank([0.5], [0.1], rope=0.01, n_samples=400_000, random_state=3)
    assert r.p_first == pytest.approx(2 ** -0.25, abs=0.003)
    assert r.p_rope == pytest.approx(1 - 2 ** -0.25, abs=0.003)
    assert r.p_second == 0.0
    # a loss: the same numbers favour the second method
    r = signed_rank([0.5], [0.1], rope=0.01, higher_is_better=False,
                    n_samples=400_000, random_state=3)
    assert r.p_second == pytest.approx(2 ** -0.25, abs=0.003)


def test_thetas_by_hand():
    # z = (0, 0.1, -0.05), r = 0.01: sums 0 (rope), 0.1, -0.05, 0.2, 0.05,
    # -0.1: first = {(0,1),(1,0),(1,1),(1,2),(2,1)}, second = {(0,2),(2,0),(2,2)}
    w = np.array([[0.2, 0.5, 0.3]])
    first = 2 * 0.2 * 0.5 + 0.25 + 2 * 0.5 * 0.3
    second = 2 * 0.2 * 0.3 + 0.09
    got = posterior_thetas([0.1, -0.05], 0.01, w)[0]
    assert got == pytest.approx([first, 1 - first - second, second], abs=1e-15)
    # a sum on a bound counts half on each side: z = 0.01, r = 0.005
    got = posterior_thetas([0.01], 0.005, np.array([[0.0, 1.0]]))[0]
    assert got == pytest.approx([1.0, 0.0, 0.0])
    got = posterior_thetas([0.005], 0.005, np.array([[0.0, 1.0]]))[0]
    assert got == pytest.approx([0.5, 0.5, 0.0])


SCORES = [
    ([0.81, 0.72, 0.93, 0.66, 0.70, 0.88], [0.80, 0.70, 0.90, 0.67, 0.69, 0.85]),
    ([0.2, 0.3, 0.25, 0.4], [0.25, 0.31, 0.2, 0.45]),
    ([0.5, 0.5, 0.5], [0.5, 0.5, 0.5]),
]


@pytest.mark.parametrize("x, y", SCORES)
@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_the_same_draws_give_baycomps_posterior(x, y, rope):
    """With baycomp's own Dirichlet draws, our thetas are baycomp's sample
    (its left: x better) to rounding."""
    baycomp = pytest.importorskip("baycomp")
    n = 2_000
    sample = baycomp.SignedRankTest.sample(np.array(x), np.array(y), rope,
                                           nsamples=n, random_state=7)
    weights = np.random.RandomState(7).dirichlet(
        np.concatenate(([0.5], np.ones(len(x)))), n)
    ours = posterior_thetas(np.array(x) - np.array(y), rope, weights)
    if rope == 0:  # baycomp gives no rope column's mass there: ours is 0
        assert ours[:, 1] == pytest.approx(0, abs=1e-12)
    assert ours[:, [0, 2]] == pytest.approx(sample[:, [0, 2]], abs=1e-12)


@pytest.mark.parametrize("x, y", SCORES[:2])
def test_probabilities_agree_with_baycomp_within_sampling_error(x, y):
    baycomp = pytest.importorskip("baycomp")
    theirs = baycomp.SignedRankTest.probs(np.array(x), np.array(y), 0.01,
                                          nsamples=50_000, random_state=1)
    ours = signed_rank(x, y, rope=0.01)
    assert (ours.p_first, ours.p_rope, ours.p_second) == pytest.approx(
        theirs, abs=0.01)


def test_signed_rank_refuses_what_it_cannot_test():
    with pytest.raises(ValueError, match="one value per dataset each"):
        signed_rank([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match="finite"):
        signed_rank([0.1, np.nan], [0.1, 0.2])
    with pytest.raises(ValueError, match="rope must be >= 0"):
        signed_rank([0.1], [0.2], rope=-0.1)


@pytest.mark.parametrize("x, y", [
    ([1, 2, 3], [1, 2, 3]),
    ([0.1, 0.5, 0.9, 0.3], [0.2, 0.2, 0.8]),
    ([3, 4, 5, 6, 7], [1, 2, 3]),
    (list(np.random.default_rng(0).normal(size=20)),
     list(np.random.default_rng(1).normal(0.5, size=15))),
])
def test_cliffs_delta_and_magnitude_agree_with_autorank(x, y):
    util = pytest.importorskip("autorank._util")
    delta = cliffs_delta(x, y)
    assert delta == pytest.approx(util._cliffs_delta(np.array(x), np.array(y)),
                                  abs=1e-12)
    assert magnitude(delta) == util._effect_level(abs(delta), "cliff_delta")


def test_cliffs_delta_by_hand():
    # x = (1, 3), y = (2, 2, 4): x > y in (3, 2) twice; x < y in (1, 2)
    # twice, (1, 4), (3, 4): (2 - 4) / 6
    assert cliffs_delta([1, 3], [2, 2, 4]) == pytest.approx(-1 / 3)
    assert cliffs_delta([1, 3], [2, 2, 4], higher_is_better=False) == \
        pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="at least one score"):
        cliffs_delta([], [1])


def test_compare_methods_reports_every_pair():
    table = np.array([[0.2, 0.3, 0.25], [0.1, 0.4, 0.2], [0.3, 0.3, 0.35],
                      [0.15, 0.25, 0.2]])
    import pandas as pd

    out = compare_methods(pd.DataFrame(table, columns=["a", "b", "c"]), rope=0.01)
    assert [p["pair"] for p in out["pairwise"]] == [["a", "b"], ["a", "c"],
                                                    ["b", "c"]]
    ab = out["pairwise"][0]
    # a loss, a = (.2, .1, .3, .15), b = (.3, .4, .3, .25): of the 16 pairs
    # a is lower in 13, higher in 1 (.3 > .25), equal in 2: (13 - 1) / 16
    assert ab["cliffs_delta"] == 0.75
    assert ab["magnitude"] == "large" and ab["p_first"] > 0.9
    assert sum(ab[k] for k in ("p_first", "p_rope", "p_second")) == \
        pytest.approx(1.0)
    # the same pair alone gives the same probabilities (one seed per pair)
    alone = pairwise(table[:, :2], ["a", "b"], higher_is_better=False)
    assert alone[0] == ab
    assert "pairwise" not in compare_methods(pd.DataFrame(table))
