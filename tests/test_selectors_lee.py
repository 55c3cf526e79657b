"""AMI, PMU, FIMF, SCLS (Lee & Kim) and MDMR (Lin et al. 2015).

The hand-computed case: a, b, c are independent fair bits and the 8 rows are
their 8 combinations, so plug-in estimates are exact. Labels l0 = a,
l1 = a XOR b, l2 = c; features f0 = a, f1 = b, f2 = a AND c, f3 = c, f4 = a.
With h = H(1/4) = 2 - (3/4) log2 3 (the entropy of a AND c):

- I(f; l) rows: a -> (1, 0, 0), b -> (0, 0, 0), ac -> (h - 1/2, 0, h - 1/2),
  c -> (0, 0, 1); relevance = (1, 0, 2h - 1, 1, 1).
- I(a; ac) = I(c; ac) = h - 1/2 (H(ac) - H(ac | a) = h - 1/2 H(c)); every
  other pair of distinct features is independent.
- I(ac; a | c) = I(ac; c | a) = 1/2; I(b; a | a XOR b) = 1;
  I(b; a XOR b | ac) = I(ac; a | a XOR b) = h - 1/2.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.estimators import registry
from mlfsbench.estimators.information.entropy import (
    conditional_mutual_information,
    entropy,
    joint_entropy,
    mutual_information,
)
from mlfsbench.estimators.selectors.mdmr import MDMR
from mlfsbench.estimators.selectors.multivariate_mi import AMI, FIMF, PMU, SCLS

H = 2 - 0.75 * np.log2(3)


def hand_case():
    abc = np.array(list(itertools.product([0, 1], repeat=3)))
    a, b, c = abc.T
    X = np.column_stack([a, b, a & c, c, a])
    Y = np.column_stack([a, a ^ b, c]).astype(np.uint8)
    return X, Y


def coinfo(x, y, z):
    """I(x; y; z) = I(x; y) - I(x; y | z), from joint entropies."""
    return (entropy(x) + entropy(y) + entropy(z) - joint_entropy(x, y)
            - joint_entropy(x, z) - joint_entropy(y, z) + joint_entropy(x, y, z))


# ------------------------------------------------------ from-scratch criteria
def rel(X, Y, f):
    return sum(mutual_information(X[:, f], Y[:, k]) for k in range(Y.shape[1]))


def scratch_ami(X, Y, S, f):
    return rel(X, Y, f) - sum(mutual_information(X[:, f], X[:, s]) for s in S)


def scratch_pmu(X, Y, S, f):
    q = Y.shape[1]
    labels = sum(coinfo(X[:, f], Y[:, i], Y[:, j])
                 for i in range(q) for j in range(i + 1, q))
    red = sum(coinfo(X[:, f], X[:, s], Y[:, k]) for s in S for k in range(q))
    return rel(X, Y, f) - red - labels


def scratch_scls(X, Y, S, f):
    h = entropy(X[:, f])
    share = sum(mutual_information(X[:, f], X[:, s]) for s in S) / h if h else 0
    return rel(X, Y, f) * (1 - share)


def scratch_mdmr(X, Y, S, f):
    if not S:
        return rel(X, Y, f)
    red = sum(mutual_information(X[:, f], X[:, s])
              - sum(conditional_mutual_information(X[:, f], Y[:, k], X[:, s])
                    for k in range(Y.shape[1]))
              for s in S)
    return rel(X, Y, f) - red / len(S)


SCRATCH = {AMI: scratch_ami, PMU: scratch_pmu, SCLS: scratch_scls,
           MDMR: scratch_mdmr}


def test_registered():
    for name, cls in [("ami", AMI), ("pmu", PMU), ("scls", SCLS), ("mdmr", MDMR),
                      ("fimf", FIMF)]:
        assert registry.get("selector", name) is cls
    assert {"promising_features", "promising_labels"} <= set(
        registry.parameters(FIMF))


# --------------------------------------------------------------- hand case
def test_ami_hand_computed():
    X, Y = hand_case()
    sel = AMI().fit(X, Y)
    # step 2: J = rel - I(f; a) = (., 0, h - 1/2, 1, 0) -> f3 (= c)
    # step 3: J = rel - I(f; a) - I(f; c) = (., 0, 0, ., 0): tie -> f1
    # step 4: f2 and f4 both 0 -> f2; step 5: f4: 1 - 1 - 0 - 0 - (h - 1/2)
    assert sel.ranking_.tolist() == [0, 3, 1, 2, 4]
    np.testing.assert_allclose(sel.scores_, [1, 0, 0, 1, -(H - 0.5)], atol=1e-12)


def test_scls_hand_computed():
    X, Y = hand_case()
    sel = SCLS().fit(X, Y)
    # step 2: f2: (2h-1)(1 - (h-1/2)/h), f3: 1, f4: 1 - 1 = 0 -> f3
    # step 3: f2: (2h-1)(1 - 2(h-1/2)/h) = (2h-1)(1-h)/h > 0 = f1, f4 -> f2
    # step 4: f1: 0; f4: 1 - 1 - 0 - (h-1/2) -> f1; step 5: f4 = -(h - 1/2)
    assert sel.ranking_.tolist() == [0, 3, 2, 1, 4]
    np.testing.assert_allclose(
        sel.scores_, [1, 0, (2 * H - 1) * (1 - H) / H, 1, -(H - 0.5)], atol=1e-12)
    np.testing.assert_allclose(sel.entropy_, [1, 1, H, 1, 1], atol=1e-12)


def test_pmu_hand_computed():
    X, Y = hand_case()
    sel = PMU().fit(X, Y)
    # label term sum_{i<j} I(f; l_i; l_j): b -> I(b; a) - I(b; a | a^b) = -1,
    # ac -> I(ac; a) - I(ac; a | c) = h - 1, others 0: base = (1, 1, h, 1, 1)
    np.testing.assert_allclose(sel.label_interaction_, [0, -1, H - 1, 0, 0],
                               atol=1e-12)
    # step 2 (S = {a}): b gains 1 (I(b; a; a^b) = -1): J = 2 -> f1
    # step 3 (S = {a, b}): f2 = 3/2 - h + (h - 1/2) = 1, f3 = 1, f4 = 0 + 1:
    #   exact three-way tie -> f2 (lower index; rounding never decides)
    # step 4: f3 and f4 both 1 - (2h - 3/2) = 5/2 - 2h -> f3; step 5: f4
    assert sel.ranking_.tolist() == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(sel.scores_, [1, 2, 1, 2.5 - 2 * H, 2.5 - 2 * H],
                               atol=1e-12)


def test_mdmr_hand_computed():
    X, Y = hand_case()
    sel = MDMR().fit(X, Y)
    # step 2 (S = {a}): redundancy I(f;a) - sum_l I(f;l|a):
    #   b: 0 - 1 = -1 -> J = 1; ac: (h - 1/2) - 1/2 -> J = h; c: 0 - 1 -> J = 2
    # step 3 (S = {a, c}): b: (-1 + 0)/2 -> 1/2; ac: 2(h-1)/2 -> h; a: (1 - 1)/2
    #   -> J = 1 -> f4; step 4: b: 0 + 2/3, ac: h -> f2
    # step 5: b gains 0 - I(b; a^b | ac) = -(h - 1/2): J = (3/2 + h)/4
    assert sel.ranking_.tolist() == [0, 3, 4, 2, 1]
    np.testing.assert_allclose(sel.scores_, [1, (1.5 + H) / 4, H, 2, 1],
                               atol=1e-12)


def test_fimf_hand_computed():
    X, Y = hand_case()
    # All labels promising: V = relevance - label term = (1, 1, h, 1, 1).
    sel = FIMF().fit(X, Y)
    np.testing.assert_allclose(sel.scores_, [1, 1, H, 1, 1], atol=1e-12)
    assert sel.ranking_.tolist() == [0, 1, 3, 4, 2]
    # K = the 2 labels of highest entropy (all 1 bit: ties -> l0, l1):
    # only the pair (a, a^b) interacts: b -> -1, ac -> 0: V(ac) = 2h - 1.
    two = FIMF(promising_labels=2).fit(X, Y)
    assert two.promising_labels_.tolist() == [0, 1]
    np.testing.assert_allclose(two.scores_, [1, 1, 2 * H - 1, 1, 1], atol=1e-12)
    # Q = the 3 features of highest entropy (f2 = ac has h < 1): f2 unscored
    # and ranked last, after f4 (by entropy).
    q3 = FIMF(promising_features=3, promising_labels=2).fit(X, Y)
    assert q3.promising_features_.tolist() == [0, 1, 3]
    assert np.isnan(q3.scores_[[2, 4]]).all()
    assert q3.ranking_.tolist() == [0, 1, 3, 4, 2]
    reordered = FIMF(promising_features=2).fit(X[:, [2, 4, 0, 1, 3]], Y)
    assert reordered.promising_features_.tolist() == [1, 2]  # a, a (entropy 1)
    assert reordered.ranking_.tolist() == [1, 2, 3, 4, 0]


# ------------------------------------------- incremental == recomputation
def random_case(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (120, 6))
    X[:, 5] = X[:, 0]  # an exact copy
    noise = rng.integers(0, 2, (120, 3))
    Y = np.column_stack([(X[:, 0] + noise[:, 0]) > 2, X[:, 1] == X[:, 2],
                         noise[:, 1] | (X[:, 3] > 1)]).astype(np.uint8)
    return X, Y


@pytest.mark.parametrize("cls", [AMI, PMU, SCLS, MDMR])
@pytest.mark.parametrize("seed", [0, 1])
def test_incremental_updates_equal_recomputation(cls, seed):
    X, Y = random_case(seed)
    sel = cls()
    trace = []
    _, ranking = sel._fit(X, Y, trace=trace)
    scratch = SCRATCH[cls]
    for t, J in enumerate(trace):
        S = ranking[:t].tolist()
        expected = np.array([scratch(X, Y, S, f) for f in range(X.shape[1])])
        np.testing.assert_allclose(J, expected, atol=1e-10)
        free = [f for f in range(X.shape[1]) if f not in S]
        assert ranking[t] == free[int(np.argmax(expected[free]))]


def test_fimf_equals_pmu_first_step_with_all_promising():
    X, Y = random_case(2)
    trace = []
    PMU()._fit(X, Y, trace=trace)
    np.testing.assert_allclose(FIMF().fit(X, Y).scores_, trace[0], atol=1e-12)
    # A 2-label K keeps only that pair's interaction term.
    two = FIMF(promising_labels=2).fit(X, Y)
    K = two.promising_labels_.tolist()
    expected = [rel(X, Y, f) - coinfo(X[:, f], Y[:, K[0]], Y[:, K[1]])
                for f in range(6)]
    np.testing.assert_allclose(two.scores_, expected, atol=1e-12)


def test_cap_keeps_every_feature():
    X, Y = random_case(3)
    for cls in (AMI, PMU, SCLS, MDMR):
        sel = cls(n_features_to_select=2).fit(X, Y)
        assert sorted(sel.ranking_.tolist()) == list(range(6))
        assert np.isnan(sel.scores_[sel.ranking_[2:]]).all()
        assert (np.diff(sel.relevance_[sel.ranking_[2:]]) <= 0).all()


def test_fimf_default_takes_ten_promising_labels():
    # 12 labels of distinct entropy: label k is 1 in the first 2 + k of 40 rows
    rng = np.random.default_rng(4)
    Y = np.zeros((40, 12), dtype=np.uint8)
    for k in range(12):
        Y[: 2 + k, k] = 1
    X = rng.integers(0, 2, (40, 5))
    sel = FIMF().fit(X, Y)
    assert sel.promising_labels_.tolist() == list(range(2, 12))
    assert FIMF(promising_labels=None).fit(X, Y).promising_labels_.size == 12


@pytest.mark.parametrize("sparse", [False, True])
def test_count_based_pair_term_equals_per_pair_mi(sparse):
    from mlfsbench.estimators.selectors._greedy import label_pair_joint_mi
    from mlfsbench.estimators.selectors.multivariate_mi import (
        label_pair_joint_mi_counts,
    )

    rng = np.random.default_rng(9)
    X = rng.integers(0, 3, (150, 6)) * (rng.random((150, 6)) < 0.4)
    X[:, 4] = 0  # a constant feature: every pair term is 0
    Y = (rng.random((150, 7)) < 0.2).astype(np.uint8)
    Y[:, 3] = Y[:, 1]
    Xin = sp.csr_matrix(X) if sparse else X
    for labels in (None, [0, 3, 1, 6]):
        np.testing.assert_allclose(
            label_pair_joint_mi_counts(Xin, Y, labels),
            label_pair_joint_mi(X, Y, labels), atol=1e-10,
        )
    assert label_pair_joint_mi_counts(Xin, Y)[4] == pytest.approx(0.0, abs=1e-12)
    # X = Y_1 (= Y_3): I(X; (Y_i, Y_j)) = H(Y_1) for the 11 pairs holding
    # label 1 or 3; the other 10 pairs are among labels 0, 2, 4, 5, 6.
    h1 = mutual_information(Y[:, 1], Y[:, 1])
    others = [0, 2, 4, 5, 6]
    rest = sum(
        mutual_information(Y[:, 1], 2 * Y[:, i] + Y[:, j])
        for i, j in itertools.combinations(others, 2)
    )
    got = label_pair_joint_mi_counts(Y[:, [1]], Y)[0]
    assert got == pytest.approx(11 * h1 + rest, abs=1e-10)
