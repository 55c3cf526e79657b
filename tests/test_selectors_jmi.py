"""Single-, Joint-, Group- and Group-Rand-JMI (Sechidis et al. 2019, Eqs. 1-3)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import mutual_info_score

from mlfsbench.estimators import registry
from mlfsbench.estimators.information.entropy import (
    conditional_mutual_information,
    conditional_mutual_information_matrix,
    encode_codes,
)
from mlfsbench.estimators.selectors.jmi import (
    GroupJMI,
    GroupJMIRand,
    JointJMI,
    SingleJMI,
    jmi_forward,
)
from mlfsbench.estimators.selectors.mim import MIMBR
from mlfsbench.estimators.transformations.lp import labelset_codes

from .problems import problem1_codes, problem2_codes

LN2 = np.log(2)


def bits(x, y):
    """Plug-in MI in bits by scikit-learn (an independent implementation)."""
    return mutual_info_score(x, y) / LN2


def scratch_jmi(X, T, selected):
    """Eq. 1-3 from scratch: sum_j sum_i I(X_j X_k; T_i), one table per triple."""
    p = X.shape[1]
    if not selected:
        return np.array([sum(bits(X[:, k], T[:, i]) for i in range(T.shape[1]))
                         for k in range(p)])
    J = np.zeros(p)
    for k in range(p):
        for j in selected:
            pair = encode_codes(np.column_stack([X[:, j], X[:, k]]))
            J[k] += sum(bits(pair, T[:, i]) for i in range(T.shape[1]))
    return J


def small_data(seed=0, n=150, p=7, q=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (n, p))
    Y = ((X[:, :q] + rng.integers(0, 3, (n, q))) > 3).astype(np.uint8)
    return X, Y


def test_conditional_mi_matrix_matches_pairwise_definition():
    import scipy.sparse as sp

    rng = np.random.default_rng(7)
    X = rng.integers(0, 4, (200, 5))
    # uint8 target codes up to 120 with a 5-valued z: the merged codes exceed
    # 255, so they must be widened before merging
    Y = rng.integers(0, 3, (200, 2)).astype(np.uint8) * 60
    z = rng.integers(0, 5, 200)
    expected = np.array([[conditional_mutual_information(X[:, j], Y[:, k], z)
                          for k in range(2)] for j in range(5)])
    np.testing.assert_allclose(conditional_mutual_information_matrix(X, Y, z),
                               expected, atol=1e-12)
    np.testing.assert_allclose(
        conditional_mutual_information_matrix(sp.csr_matrix(X), Y, z), expected,
        atol=1e-12)
    # z independent of everything and constant: CMI = MI
    np.testing.assert_allclose(
        conditional_mutual_information_matrix(X, Y, np.zeros(200, int))[:, 0],
        [bits(X[:, j], Y[:, 0]) for j in range(5)], atol=1e-12)


def test_registered_with_parameters():
    for name, cls in [("single-jmi", SingleJMI), ("joint-jmi", JointJMI),
                      ("group-jmi", GroupJMI), ("group-jmi-rand", GroupJMIRand)]:
        assert registry.get("selector", name) is cls
    params = registry.parameters(GroupJMI)
    assert {"pot", "noc", "m", "n_features_to_select", "random_state"} <= set(params)
    assert registry.parameters(GroupJMIRand)["pot"] == (0.25, 0.75)
    assert registry.parameters(GroupJMIRand)["noc"] == (4, 16)
    sel = registry.create("selector", "group-jmi", {"pot": 0.3, "noc": 4},
                          random_state=0)
    assert sel.pot == 0.3 and sel.random_state == 0


@pytest.mark.parametrize("target", ["single", "joint", "groups"])
def test_incremental_updates_equal_recomputation(target):
    X, Y = small_data()
    if target == "single":
        T = Y
    elif target == "joint":
        T = labelset_codes(Y)[0][:, None]
    else:
        T = np.column_stack([Y[:, 0] * 2 + Y[:, 1], Y[:, 2], 1 - Y[:, 0]])
    trace = []
    selected, step_scores, relevance = jmi_forward(X, T, X.shape[1], trace=trace)
    assert sorted(selected) == list(range(X.shape[1]))
    for t, J in enumerate(trace):
        expected = scratch_jmi(X, T, selected[:t])
        np.testing.assert_allclose(J, expected, atol=1e-10)
        masked = np.where(np.isin(np.arange(X.shape[1]), selected[:t]), -np.inf,
                          expected)
        assert selected[t] == int(np.argmax(masked))  # argmax of the scratch J
        assert step_scores[t] == pytest.approx(expected[selected[t]], abs=1e-10)
    np.testing.assert_allclose(relevance, scratch_jmi(X, T, []), atol=1e-12)


def test_problem2_single_jmi_selects_the_pairs_consecutively():
    """Once one of f1..f4 is in, Single-JMI picks the other three next."""
    for seed in range(6):
        X, Y = problem2_codes(seed)
        ranking = SingleJMI().fit(X, Y).ranking_.tolist()
        first = min(ranking.index(j) for j in range(4))
        assert sorted(ranking[first:first + 4]) == [0, 1, 2, 3], (seed, ranking)
        # MIM-BR cannot: each feature alone carries almost no information.
        mim = MIMBR().fit(X, Y)
        assert mim.scores_.max() < 0.03
        joint = bits(encode_codes(X[:, :2]), Y[:, 0])
        assert joint > 0.3  # while the pair (f1, f2) explains O1
    X, Y = problem2_codes(0)
    assert sorted(MIMBR().fit(X, Y).ranking_[:4].tolist()) != [0, 1, 2, 3]


def test_problem1_single_jmi_documented_behaviour():
    """Single-JMI: f5, f11 and f3/f4, then the copy f15 of f5 comes 4th.

    Summing I(X_j X_k; Y_i) over the selected X_j rewards a copy of a strong
    feature (I(f5 f15; O4) = I(f5; O4) is large), so f15 is ranked before the
    complementary f4/f3; MIM-BR ranks the copy 2nd.
    """
    for seed in range(3):
        X, Y = problem1_codes(seed)
        assert (X[:, 14] == X[:, 4]).all()  # equal-width bins make f15 a copy
        top = (SingleJMI().fit(X, Y).ranking_[:4] + 1).tolist()
        assert top[:2] == [5, 11]
        assert top[3] == 15 and top[2] in (3, 4)
        assert (MIMBR().fit(X, Y).ranking_[:2] + 1).tolist() == [5, 15]


def test_group_jmi_equals_joint_jmi_with_one_group_and_enough_clusters():
    """m = 1, pot = 1.0 (all labels) and noc >= distinct training labelsets."""
    X, Y = problem1_codes(0, n=400)
    n_sets = len(labelset_codes(Y)[1])
    joint = JointJMI().fit(X, Y)
    group = GroupJMI(m=1, pot=1.0, noc=n_sets, random_state=3).fit(X, Y)
    np.testing.assert_array_equal(group.ranking_, joint.ranking_)
    np.testing.assert_array_equal(group.scores_, joint.scores_)
    bigger = GroupJMI(m=1, pot=1.0, noc=n_sets + 5, random_state=4).fit(X, Y)
    np.testing.assert_array_equal(bigger.ranking_, joint.ranking_)
    # With fewer clusters than labelsets the target really is coarser.
    coarse = GroupJMI(m=1, pot=1.0, noc=2, random_state=0).fit(X, Y)
    assert not np.array_equal(coarse.scores_, joint.scores_)


def test_group_jmi_equals_single_jmi_with_one_group_per_label():
    """groups = [[0], ..., [q-1]] and noc >= 2."""
    X, Y = problem1_codes(1, n=400)
    single = SingleJMI().fit(X, Y)
    for noc in (2, 5):
        group = GroupJMI(groups=[[j] for j in range(4)], noc=noc).fit(X, Y)
        np.testing.assert_array_equal(group.ranking_, single.ranking_)
        np.testing.assert_array_equal(group.scores_, single.scores_)
    # Random singletons (pot = 1/q, m = q) draw labels independently: when a
    # label repeats (most seeds), the criterion is not Single-JMI's.
    repeated = 0
    for seed in range(5):
        rand = GroupJMI(pot=0.25, noc=2, random_state=seed).fit(X, Y)
        drawn = sorted(int(g[0]) for g in rand.label_groups_.groups_)
        if drawn != [0, 1, 2, 3]:
            repeated += 1
            assert not np.array_equal(rand.scores_, single.scores_, equal_nan=True)
    assert repeated >= 3


def test_rand_seeding():
    X, Y = problem1_codes(2, n=300)
    a = GroupJMIRand(random_state=0).fit(X, Y)
    b = GroupJMIRand(random_state=0).fit(X, Y)
    np.testing.assert_array_equal(a.ranking_, b.ranking_)
    np.testing.assert_array_equal(a.scores_, b.scores_)
    others = [GroupJMIRand(random_state=s).fit(X, Y) for s in (1, 2, 3)]
    assert any(not np.array_equal(o.ranking_[:8], a.ranking_[:8]) for o in others)
    assert all(not np.array_equal(o.scores_, a.scores_, equal_nan=True)
               for o in others)
    lg = a.label_groups_
    assert len(lg.groups_) == 4
    assert ((lg.noc_ >= 4) & (lg.noc_ <= 16)).all()


def test_cap_and_completion_of_the_ranking():
    X, Y = small_data(seed=3, p=9)
    sel = SingleJMI(n_features_to_select=3).fit(X, Y)
    assert sorted(sel.ranking_.tolist()) == list(range(9))
    assert sel.n_selected_ == 3
    assert np.isfinite(sel.scores_[sel.ranking_[:3]]).all()
    assert np.isnan(sel.scores_[sel.ranking_[3:]]).all()
    rest = sel.relevance_[sel.ranking_[3:]]
    assert (np.diff(rest) <= 0).all()  # the rest by decreasing relevance
    full = SingleJMI().fit(X, Y)
    np.testing.assert_array_equal(full.ranking_[:3], sel.ranking_[:3])
    assert full.n_selected_ == 9  # default cap min(50, p)
    assert sel.transform(X).shape == (150, 3)


def test_sparse_input_gives_the_same_selection():
    import scipy.sparse as sp

    X, Y = small_data(seed=4)
    dense = SingleJMI().fit(X, Y)
    sparse = SingleJMI().fit(sp.csr_matrix(X), Y)
    np.testing.assert_array_equal(dense.ranking_, sparse.ranking_)
    np.testing.assert_allclose(dense.scores_, sparse.scores_)


# ------------------------------------------- the authors' released criterion
def released_case():
    """16 rows, one balanced target; x0 identifies the row (H = 4 bits,
    I(x0; T) = 1), x1 is T with one flipped row (9 ones), x2 is noise."""
    T = np.repeat([0, 1], 8)
    x0 = np.arange(16)
    x1 = T.copy()
    x1[0] = 1
    x2 = np.tile([0, 1, 1, 0], 4)
    return np.column_stack([x0, x1, x2]), T[:, None]


def test_released_code_first_step_hand_computed():
    X, T = released_case()
    # I(x1; T) = 1 - 9/16 H(1/9); H(x1) = H(7/16)
    def h2(p):
        return -p * np.log2(p) - (1 - p) * np.log2(1 - p)
    i1 = 1 - 9 / 16 * h2(1 / 9)
    expected = [1 / np.sqrt(4 * 1), i1 / np.sqrt(h2(7 / 16) * 1), 0.0]
    _, _, rel = jmi_forward(X, T, 1, normalize=True)
    np.testing.assert_allclose(rel, expected, atol=1e-12)
    assert expected[1] == pytest.approx(0.7210, abs=1e-4)  # > 0.5: x1 first
    # Eq. 3 takes the identifier (1 bit > 0.717 bits); the released code x1
    paper = GroupJMI(groups=[[0]], noc=2).fit(X, T)
    released = GroupJMI(groups=[[0]], noc=2, criterion="released-code").fit(X, T)
    assert paper.ranking_[0] == 0
    assert released.ranking_[0] == 1


def test_released_code_later_steps_equal_direct_computation():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (60, 5))
    X[:, 4] = 1  # constant: every normalized term with it alone is 0
    T = np.column_stack([(X[:, 0] + rng.integers(0, 2, 60)) % 3,
                         X[:, 1] > 0]).astype(int)
    trace = []
    selected, _, _ = jmi_forward(X, T, 4, normalize=True, trace=trace)

    def H(col):  # plug-in entropy in bits, independent of the package
        counts = np.unique(col, return_counts=True)[1] / len(col)
        return float(-(counts * np.log2(counts)).sum())

    for t, J in enumerate(trace):
        S = selected[:t]
        for k in range(5):
            if t == 0:
                want = sum(
                    mutual_info_score(X[:, k], T[:, i]) / np.log(2)
                    / np.sqrt(H(X[:, k]) * H(T[:, i])) if H(X[:, k]) > 0 else 0.0
                    for i in range(2))
            else:
                want = 0.0
                for j in S:
                    pair = 3 * X[:, j] + X[:, k]
                    for i in range(2):
                        den = np.sqrt(H(pair) * H(T[:, i]))
                        if den > 0:
                            want += mutual_info_score(pair, T[:, i]) / np.log(2) / den
            if k not in S:
                assert J[k] == pytest.approx(want, abs=1e-10)


def test_group_jmi_rand_takes_the_criterion_and_its_own_parameters():
    sel = GroupJMIRand(criterion="released-code", random_state=0)
    params = sel.get_params()
    assert params["criterion"] == "released-code"
    assert "groups" not in params and not hasattr(sel, "groups")
    assert params["pot"] == (0.25, 0.75) and params["noc"] == (4, 16)
    X, T = released_case()
    Y = np.column_stack([T[:, 0], T[:, 0], 1 - T[:, 0]])
    fitted = sel.fit(X, Y)
    # every group quantizes copies of T: x1 first, as in the hand case
    assert fitted.ranking_[0] == 1
    assert GroupJMIRand(random_state=0).fit(X, Y).ranking_[0] == 0
    with pytest.raises(ValueError, match="criterion"):
        GroupJMIRand(criterion="matlab").fit(X, Y)


# ------------------------------------------- real-valued targets (Section 5)
def regression_data(seed=0, n=240):
    """Four real targets of very different scales driven by x0 (4 codes, the
    cluster) and x1 (a smaller shift); x2..x5 are noise codes."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (n, 6))
    centres = rng.uniform(-1.0, 1.0, (4, 4)) * np.array([1.0, 10.0, 1e3, 1e5])
    Y = centres[X[:, 0]] * 5 + 0.5 * X[:, 1:2] * centres.std(axis=0)
    Y = Y + rng.normal(size=(n, 4)) * 0.05 * centres.std(axis=0)
    return X, Y


def test_group_jmi_rand_on_regression_targets_clusters_by_euclidean_distance():
    X, Y = regression_data()
    sel = GroupJMIRand(target_metric="euclidean", random_state=0).fit(X, Y)
    lg = sel.label_groups_
    assert lg.metric == "euclidean" and len(lg.groups_) == 4  # m = q targets
    assert ((lg.noc_ >= 4) & (lg.noc_ <= 16)).all()
    # the targets of the criterion are the groups' cluster codes: the ranking
    # is jmi_forward's on them
    T = lg.transform(Y)
    selected, _, relevance = jmi_forward(X, T, 6)
    assert sel.ranking_.tolist() == selected
    np.testing.assert_allclose(sel.relevance_, relevance)
    # x0 decides the cluster, x1 shifts within it, the rest is noise
    assert sel.ranking_[:2].tolist() == [0, 1]
    assert sel.input_kind == "discrete"


def test_euclidean_group_of_every_target_recovers_the_driving_feature():
    """One group of all four targets, NoC = 4 = the codes of x0, centres far
    apart: the clusters are x0 renamed, so I(x0; T) = H(T) = H(x0)."""
    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, (200, 3))
    centres = np.array([[0.0, 0, 0, 0], [1e4, 0, 0, 0], [0, 1e4, 0, 0],
                        [0, 0, 1e4, 1e4]])
    Y = centres[X[:, 0]] + rng.normal(size=(200, 4))
    sel = GroupJMI(groups=[[0, 1, 2, 3]], noc=4, target_metric="euclidean",
                   random_state=0).fit(X, Y)
    codes = sel.label_groups_.transform(Y)[:, 0]
    assert len(set(zip(codes.tolist(), X[:, 0].tolist(), strict=True))) == 4
    assert sel.ranking_[0] == 0
    assert sel.relevance_[0] == pytest.approx(bits(X[:, 0], X[:, 0]), abs=1e-12)


def test_target_metric_is_a_checked_parameter():
    X, Y = regression_data(n=60)
    # Hamming (the multi-label default) refuses real targets, naming the fix
    with pytest.raises(ValueError, match="target_metric='euclidean'"):
        GroupJMIRand(random_state=0).fit(X, Y)
    with pytest.raises(ValueError, match="target_metric"):
        GroupJMIRand(target_metric="cosine").fit(X, Y)
    with pytest.raises(ValueError, match="finite"):
        GroupJMIRand(target_metric="euclidean").fit(X, np.where(Y > 0, np.inf, Y))
    sel = registry.create("selector", "group-jmi-rand",
                          {"target_metric": "euclidean"}, random_state=3)
    assert sel.get_params()["target_metric"] == "euclidean"
    assert registry.parameters(GroupJMIRand)["target_metric"] == "hamming"
    assert registry.parameters(GroupJMI)["target_metric"] == "hamming"
    # 0/1 labels clustered by Euclidean distance run too (d = sqrt(Hamming))
    Xl, Yl = small_data()
    GroupJMIRand(target_metric="euclidean", random_state=0).fit(Xl, Yl)
