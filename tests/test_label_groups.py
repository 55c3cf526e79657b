"""Label groups quantized by k-medoids (Sechidis et al. 2019, Section 3.1)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from mlfsbench.estimators import registry
from mlfsbench.estimators.transformations.label_groups import (
    LabelGroups,
    distinct_rows,
    k_medoids,
    target_distances,
)
from mlfsbench.estimators.transformations.lp import labelset_codes


def random_labels(n=200, q=10, seed=0):
    """Correlated labels: label j is on with a probability driven by a latent."""
    rng = np.random.default_rng(seed)
    z = rng.random((n, 1))
    return (rng.random((n, q)) < z * np.linspace(0.2, 0.9, q)).astype(np.uint8)


def total_cost(D, medoids, weights):
    return float(weights @ D[:, medoids].min(axis=1))


# ----------------------------------------------------------------- distances
def test_distances_match_scipy():
    rng = np.random.default_rng(1)
    A = rng.integers(0, 2, (7, 5))
    B = rng.integers(0, 2, (4, 5))
    np.testing.assert_allclose(target_distances(A, B, "hamming"),
                               cdist(A, B, "hamming") * 5)
    C = rng.integers(0, 3, (6, 4))  # non-binary codes: generic Hamming
    np.testing.assert_allclose(target_distances(C, C, "hamming"),
                               cdist(C, C, "hamming") * 4)
    R = rng.normal(size=(5, 3))
    np.testing.assert_allclose(target_distances(R, R[:2], "euclidean"),
                               cdist(R, R[:2]), atol=1e-12)
    with pytest.raises(ValueError, match="unknown metric"):
        target_distances(A, B, "cosine")


# ------------------------------------------------------------------ k-medoids
@pytest.mark.parametrize("seed", range(5))
def test_pam_is_swap_optimal_and_near_exhaustive_optimum(seed):
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(9, 2))
    w = rng.integers(1, 5, 9).astype(float)
    D = cdist(pts, pts)
    med = k_medoids(D, 3, w, random_state=seed)
    assert med.tolist() == sorted(set(med.tolist())) and len(med) == 3
    cost = total_cost(D, med, w)
    # PAM's stopping rule: no single medoid/non-medoid swap lowers the cost.
    for i, h in itertools.product(range(3), range(9)):
        if h in med:
            continue
        other = med.copy()
        other[i] = h
        assert total_cost(D, other, w) >= cost - 1e-12
    best = min(total_cost(D, list(c), w) for c in itertools.combinations(range(9), 3))
    assert cost <= best * 1.25 + 1e-12


def test_pam_recovers_separated_clusters_and_weights_count():
    pts = np.array([[0.0], [0.1], [0.3], [10.0], [10.2], [10.3]])
    D = cdist(pts, pts)
    assert k_medoids(D, 2, random_state=3).tolist() == [1, 4]
    # A heavy point attracts the medoid: weights act as multiplicities.
    w = np.array([1, 1, 50, 1, 1, 1.0])
    assert k_medoids(D, 2, w, random_state=3).tolist() == [2, 4]
    assert k_medoids(D, 6).tolist() == list(range(6))
    assert k_medoids(D, 10).tolist() == list(range(6))


# --------------------------------------------------------------- LabelGroups
def test_registered():
    assert registry.get("transformation", "label-groups") is LabelGroups


def test_group_sizes_and_defaults():
    Y = random_labels(q=20)
    lg = LabelGroups(pot=0.30, noc=4, random_state=0).fit(Y)
    assert len(lg.groups_) == 20  # m defaults to the number of targets
    for g in lg.groups_:
        assert len(g) == 6  # the paper's example: 20 x 0.30
        assert np.all(np.diff(g) > 0)  # distinct, sorted
    assert len({tuple(g) for g in lg.groups_}) > 1  # random, overlapping groups
    codes = lg.transform(Y)
    assert codes.shape == (200, 20)
    assert codes.min() >= 0 and codes.max() <= 3
    assert (lg.n_clusters_ == 4).all()
    # round half up: 10 x 0.25 = 2.5 -> 3; at least one label
    assert [len(g) for g in LabelGroups(pot=0.25, m=3, random_state=0)
            .fit(random_labels(q=10)).groups_] == [3, 3, 3]
    assert len(LabelGroups(pot=0.01, m=1).fit(Y).groups_[0]) == 1


def test_one_cluster_per_labelset_gives_label_powerset_codes():
    Y = random_labels(q=6, seed=2)
    lp, sets = labelset_codes(Y)
    lg = LabelGroups(pot=1.0, m=1, noc=len(sets), random_state=0).fit(Y)
    assert lg.groups_[0].tolist() == list(range(6))
    np.testing.assert_array_equal(lg.transform(Y)[:, 0], lp)
    # Fewer clusters than labelsets really quantizes.
    small = LabelGroups(pot=1.0, m=1, noc=3, random_state=0).fit_transform(Y)
    assert len(np.unique(small)) == 3


def test_singleton_groups_reproduce_the_labels():
    Y = random_labels(q=5, seed=3)
    lg = LabelGroups(groups=[[j] for j in range(5)], noc=2).fit(Y)
    np.testing.assert_array_equal(lg.transform(Y), Y)
    np.testing.assert_allclose(lg.pot_, 0.2)


def test_assignment_is_nearest_medoid_and_transform_generalizes():
    Y = random_labels(q=8, seed=4)
    lg = LabelGroups(pot=0.5, noc=4, random_state=1).fit(Y)
    codes = lg.transform(Y)
    for i, (g, med) in enumerate(zip(lg.groups_, lg.medoids_, strict=True)):
        D = cdist(Y[:, g], med, "hamming") * len(g)
        assert (D[np.arange(len(Y)), codes[:, i]] <= D.min(axis=1) + 1e-12).all()
        # medoids are actual target vectors of the training data
        assert all((Y[:, g] == m).all(axis=1).any() for m in med)
    new = random_labels(n=30, q=8, seed=9)
    out = lg.transform(new)
    assert out.shape == (30, len(lg.groups_)) and out.max() < 4
    np.testing.assert_array_equal(LabelGroups(pot=0.5, noc=4, random_state=1)
                                  .fit_transform(Y), codes)


def test_rand_variant_draws_pot_and_noc_per_group():
    Y = random_labels(q=12, seed=5)
    lg = LabelGroups(pot=(0.25, 0.75), noc=(4, 16), random_state=0).fit(Y)
    assert ((lg.pot_ >= 0.25) & (lg.pot_ <= 0.75)).all()
    assert ((lg.noc_ >= 4) & (lg.noc_ <= 16)).all()
    assert len(set(lg.noc_.tolist())) > 1 and np.ptp(lg.pot_) > 0
    sizes = [len(g) for g in lg.groups_]
    assert sizes == [int(np.floor(p * 12 + 0.5)) for p in lg.pot_]
    assert (lg.n_clusters_ <= lg.noc_).all()
    # lists (as YAML gives them) work like tuples
    again = LabelGroups(pot=[0.25, 0.75], noc=[4, 16], random_state=0).fit(Y)
    np.testing.assert_array_equal(again.transform(Y), lg.transform(Y))


def test_seeding():
    Y = random_labels(q=12, seed=6)
    a = LabelGroups(pot=(0.25, 0.75), noc=(4, 16), random_state=7).fit_transform(Y)
    b = LabelGroups(pot=(0.25, 0.75), noc=(4, 16), random_state=7).fit_transform(Y)
    c = LabelGroups(pot=(0.25, 0.75), noc=(4, 16), random_state=8).fit_transform(Y)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_euclidean_for_continuous_targets():
    rng = np.random.default_rng(0)
    centers = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 5.0]])
    truth = rng.integers(0, 3, 90)
    T = centers[truth] + rng.normal(scale=0.3, size=(90, 2))
    codes = LabelGroups(groups=[[0, 1]], noc=3, metric="euclidean",
                        random_state=0).fit_transform(T)[:, 0]
    # the clustering equals the truth up to renaming the clusters
    assert len(set(zip(codes.tolist(), truth.tolist(), strict=True))) == 3


def test_euclidean_clusters_of_real_targets_at_a_large_scale():
    """Hand-made real-valued targets (16 of them, values of order 1e5 as in
    oes97/oes10) around four known centres: Euclidean k-medoids with NoC = 4
    recovers the four groups exactly, a medoid is at distance exactly 0 from
    itself, and a transform of new points goes to the centre they were drawn
    around."""
    rng = np.random.default_rng(3)
    centres = rng.uniform(0.0, 2e5, (4, 16))
    truth = np.repeat(np.arange(4), 25)
    T = centres[truth] + rng.normal(scale=50.0, size=(100, 16))
    lg = LabelGroups(groups=[list(range(16))], noc=4, metric="euclidean",
                     random_state=0).fit(T)
    codes = lg.transform(T)[:, 0]
    # one code per true cluster and one true cluster per code
    pairs = set(zip(codes.tolist(), truth.tolist(), strict=True))
    assert len(pairs) == 4 and len({c for c, _ in pairs}) == 4
    # each medoid lies within twice a point's expected noise (50 sqrt(16))
    # of its cluster's centre
    medoids = lg.medoids_[0]
    assert medoids.shape == (4, 16)
    assert (target_distances(medoids, medoids, "euclidean").diagonal() == 0).all()
    for c, t in pairs:
        assert np.linalg.norm(medoids[c] - centres[t]) < 50.0 * np.sqrt(16) * 2
    fresh = centres[[2, 0, 3]] + rng.normal(scale=50.0, size=(3, 16))
    mapping = {t: c for c, t in pairs}
    assert lg.transform(fresh)[:, 0].tolist() == [mapping[2], mapping[0], mapping[3]]


def test_euclidean_random_groups_of_regression_targets():
    """Group-JMI-Rand's draw on real targets: every group is a subset of the
    targets of the drawn size, clustered into min(NoC, distinct rows)
    clusters, codes in range."""
    rng = np.random.default_rng(5)
    T = rng.normal(size=(60, 6)) * np.array([1.0, 10.0, 100.0, 1.0, 1e3, 1e4])
    lg = LabelGroups(pot=(0.25, 0.75), noc=(4, 16), metric="euclidean",
                     random_state=1).fit(T)
    Z = lg.transform(T)
    assert Z.shape == (60, 6) and len(lg.groups_) == 6
    for i, g in enumerate(lg.groups_):
        assert g.size == max(1, int(np.floor(lg.pot_[i] * 6 + 0.5)))
        assert lg.n_clusters_[i] == lg.noc_[i]  # 60 distinct rows > 16
        assert set(Z[:, i].tolist()) == set(range(lg.n_clusters_[i]))


@pytest.mark.parametrize("params, message", [
    ({"pot": 0.0}, "pot"), ({"pot": 1.5}, "pot"), ({"pot": (0.7, 0.2)}, "pot"),
    ({"noc": 0}, "noc"), ({"noc": (3, 2, 1)}, "noc"), ({"m": 0}, "m must"),
    ({"groups": [[0, 99]]}, "out of range"), ({"metric": "cosine"}, "metric"),
])
def test_invalid_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        LabelGroups(**params).fit(random_labels(q=4))


@pytest.mark.parametrize("seed", range(6))
def test_incremental_swaps_give_the_full_swaps_medoids(seed):
    # Hamming distances of random labelsets with integer counts: the swaps
    # updated per swap must pick exactly the medoids of today's full swaps.
    rng = np.random.default_rng(seed)
    Y = (rng.random((300, 12)) < 0.3).astype(int)
    distinct, counts, _, keys = distinct_rows(Y)
    D = np.bitwise_count(keys[:, None] ^ keys[None, :]).astype(float)
    k = 3 + seed
    full = k_medoids(D, k, counts, random_state=seed, incremental=False)
    fast = k_medoids(D, k, counts, random_state=seed)
    assert fast.tolist() == full.tolist()
    assert len(set(full.tolist())) == k
    # non-integer distances keep the full swaps: the same call either way
    E = D + rng.random(D.shape) * 0.1
    E = (E + E.T) / 2
    np.fill_diagonal(E, 0.0)
    assert (k_medoids(E, k, counts, random_state=1).tolist()
            == k_medoids(E, k, counts, random_state=1, incremental=False).tolist())
