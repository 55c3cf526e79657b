"""Label granulation and granular mRMR (Li, Miao & Pedrycz 2017)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlfsbench.estimators import registry
from mlfsbench.estimators.information.entropy import mutual_information
from mlfsbench.estimators.selectors.granular import (
    GranularMRMR,
    granule_mrmr,
    round_robin,
)
from mlfsbench.estimators.selectors.mim import MIMBR
from mlfsbench.estimators.transformations.granulation import (
    Granulation,
    balanced_assignment,
)

from .problems import problem1_codes


def literal_balanced_assignment(D, capacity):
    """Algorithm 1's inner loop as written: argmin, then set distances to inf."""
    D = np.array(D, dtype=float)
    n, q = D.shape
    out = np.full(q, -1)
    size = np.zeros(n, dtype=int)
    left = q
    while left > 0:
        k, j = np.unravel_index(np.argmin(D), D.shape)
        if size[k] >= capacity:
            D[k, j] = np.inf
        else:
            out[j] = k
            size[k] += 1
            D[:, j] = np.inf
            left -= 1
    return out


def grouped_labels(seed=0, n=300):
    """Three blocks of 3 near-identical labels each (90% agreement)."""
    rng = np.random.default_rng(seed)
    base = rng.random((n, 3)) < 0.4
    cols = []
    for b in range(3):
        for _ in range(3):
            flip = rng.random(n) < 0.05
            cols.append(base[:, b] ^ flip)
    return np.column_stack(cols).astype(np.uint8)


# ---------------------------------------------------------------- granulation
@pytest.mark.parametrize("seed", range(4))
def test_balanced_assignment_matches_the_literal_algorithm(seed):
    rng = np.random.default_rng(seed)
    D = rng.random((3, 8))
    D[1, 2] = D[0, 2]  # a tie: argmin's row-major order = lower granule
    for capacity in (3, 4, 8):
        np.testing.assert_array_equal(balanced_assignment(D, capacity),
                                      literal_balanced_assignment(D, capacity))


def test_granulation_sizes_cover_and_recovers_blocks():
    Y = grouped_labels()
    for n in (1, 2, 3, 4, 9, 20):
        g = Granulation(n_granules=n, random_state=0).fit(Y)
        labels = np.concatenate(g.granules_)
        assert sorted(labels.tolist()) == list(range(9))  # each label once
        cap = math.ceil(9 / min(n, 9))
        assert max(len(x) for x in g.granules_) <= cap
        assert all(g.granule_of_[x].tolist() == [i] * len(x)
                   for i, x in enumerate(g.granules_))
    assert [x.tolist() for x in Granulation(n_granules=1).fit(Y).granules_] == [
        list(range(9))]
    assert [x.tolist() for x in Granulation(n_granules=9, random_state=1)
            .fit(Y).granules_] == [[j] for j in range(9)]
    # Three granules of at most 3 find the three blocks, whatever the seed.
    for seed in range(5):
        g = Granulation(n_granules=3, random_state=seed).fit(Y)
        assert [x.tolist() for x in g.granules_] == [[0, 1, 2], [3, 4, 5],
                                                       [6, 7, 8]]


def test_granulation_seeding_and_transform():
    rng = np.random.default_rng(5)
    Y = (rng.random((100, 12)) < 0.3).astype(np.uint8)
    a = Granulation(n_granules=4, random_state=3).fit(Y)
    b = Granulation(n_granules=4, random_state=3).fit(Y)
    assert [x.tolist() for x in a.granules_] == [x.tolist() for x in b.granules_]
    parts = a.transform(Y)
    assert [p.shape[1] for p in parts] == [len(x) for x in a.granules_]
    np.testing.assert_array_equal(parts[0], Y[:, a.granules_[0]])
    assert registry.get("transformation", "granulation") is Granulation
    with pytest.raises(ValueError, match="n_granules"):
        Granulation(n_granules=0).fit(Y)


# -------------------------------------------------------------- granular mRMR
def test_registered():
    assert registry.get("selector", "granular-mrmr") is GranularMRMR
    assert registry.parameters(GranularMRMR)["granules"] == 1


def test_problem1_one_granule_avoids_copies_mim_does_not():
    """Eq. 9: f13, f14, f15 are copies of f3, f4, f5 after binning."""
    copies = [{3, 13}, {4, 14}, {5, 15}]
    for seed in range(3):
        X, Y = problem1_codes(seed)
        top = set((GranularMRMR(granules=1).fit(X, Y).ranking_[:4] + 1).tolist())
        assert not any(pair <= top for pair in copies), top
        assert top == {5, 11, 3, 4}
        mim = (MIMBR().fit(X, Y).ranking_[:4] + 1).tolist()
        assert any(pair <= set(mim) for pair in copies), mim
        # Doquire & Verleysen (2013, Section 5.1): univariate MI ranks f5, f15
        # and f11 first, in some order.
        assert set(mim[:3]) == {5, 15, 11}


def test_incremental_updates_equal_recomputation():
    X, Y = problem1_codes(0, n=300)
    granule = [0, 2]
    C = np.array([np.mean([mutual_information(X[:, f], Y[:, j]) for j in granule])
                  for f in range(X.shape[1])])
    trace = []
    selected, scores = granule_mrmr(X, C, 8, trace=trace)
    for t, J in enumerate(trace):
        S = selected[:t]
        red = np.array([np.mean([mutual_information(X[:, f], X[:, s]) for s in S])
                        if S else 0.0 for f in range(X.shape[1])])
        np.testing.assert_allclose(J, C - red, atol=1e-10)  # Eq. 16
        free = [f for f in range(X.shape[1]) if f not in S]
        assert selected[t] == free[int(np.argmax((C - red)[free]))]
        assert scores[t] == pytest.approx((C - red)[selected[t]], abs=1e-10)


def test_one_ranking_per_granule_and_round_robin():
    X, Y = problem1_codes(1, n=400)
    sel = GranularMRMR(granules=4, n_features_to_select=5, random_state=0).fit(X, Y)
    assert [g.tolist() for g in sel.granules_] == [[0], [1], [2], [3]]
    for g, ranking, part_scores in zip(sel.granules_, sel.granule_rankings_,
                                       sel.granule_scores_, strict=True):
        assert sorted(ranking.tolist()) == list(range(15))  # every feature
        C = sel.mi_[:, g].mean(axis=1)
        assert ranking[0] == int(np.argmax(C))  # first: most correlated
        expected, _ = granule_mrmr(X, C, 5)
        assert ranking[:5].tolist() == expected
        assert (np.diff(C[ranking[5:]]) <= 0).all()  # rest by granule relevance
        assert len(part_scores) == 5
    parts = [r[:5].tolist() for r in sel.granule_rankings_]
    n_rr = len(round_robin(parts, 5))
    assert sel.ranking_[:n_rr].tolist() == round_robin(parts, 5)
    assert sorted(sel.ranking_.tolist()) == list(range(15))
    assert np.isfinite(sel.scores_[sel.ranking_[:n_rr]]).all()
    assert np.isnan(sel.scores_[sel.ranking_[n_rr:]]).all()
    # label 4 (f5 > 0.8) picks f5 or its copy f15 first; label 1 picks f11
    assert sel.granule_rankings_[3][0] in (4, 14)
    assert sel.granule_rankings_[0][0] == 10


def test_single_granule_ranking_is_its_granule_ranking():
    X, Y = problem1_codes(2, n=300)
    sel = GranularMRMR(granules=1, n_features_to_select=6).fit(X, Y)
    np.testing.assert_array_equal(sel.ranking_[:6], sel.granule_rankings_[0][:6])
    assert len(sel.granules_) == 1 and sel.granules_[0].tolist() == [0, 1, 2, 3]


def test_round_robin():
    assert round_robin([[1, 2, 3], [2, 5, 1], [7]], 3) == [1, 2, 7, 5, 3]
    assert round_robin([[0, 1]], 1) == [0]
