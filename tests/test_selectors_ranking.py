"""Ranking selectors of issue 3: cross-checks against independent computations.

ReliefF vs ``skrebate.ReliefF``: with a binary class, ``n_neighbors=k``,
every feature declared continuous (``categorical_features=[]``; by default
skrebate treats a feature with at most 10 distinct values as categorical and
then switches to a "ramp" diff with the feature's standard deviation) and no
missing values, skrebate computes exactly the ReliefF update of
Robnik-Šikonja & Kononenko (range-normalised diffs, Manhattan distance, all
instances, division by the number of hits/misses found). Differences not
exercised here: skrebate treats a class with more than 10 values as a
continuous target (a hit is a neighbour within one standard deviation of the
target, not RReliefF), weighs the misses of a multi-class problem by their
frequency among the neighbours instead of ``P(C) / (1 - P(class))``, and
breaks distance ties with a non-stable sort.
"""

import math
import warnings

import arff
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.stats import chi2_contingency, pearsonr
from sklearn.feature_selection import f_classif

from mlfsbench.data import load_mulan
from mlfsbench.estimators import registry
from mlfsbench.estimators.discretizers.mdl import mdl_information_gain
from mlfsbench.estimators.information.entropy import (
    entropy,
    mutual_information,
    mutual_information_matrix,
)
from mlfsbench.estimators.selectors._relief import relieff_scores, rrelieff_scores
from mlfsbench.estimators.selectors.br_cc import BRCorrelation
from mlfsbench.estimators.selectors.br_or import BROddsRatio
from mlfsbench.estimators.selectors.ela_chi import ELAChi2
from mlfsbench.estimators.selectors.entropy_label_selection import (
    EntropyLabelSelection,
)
from mlfsbench.estimators.selectors.information_gain import (
    InformationGainBR,
    InformationGainLP,
)
from mlfsbench.estimators.selectors.mfs import MultiLabelFStatistic
from mlfsbench.estimators.selectors.mim import MIMBR
from mlfsbench.estimators.selectors.ppt_mi import PPTMutualInformation
from mlfsbench.estimators.selectors.relieff import ReliefFBR, ReliefFLP
from mlfsbench.estimators.selectors.rrelieff import RReliefF
from mlfsbench.estimators.transformations.lp import labelset_codes

NAMES = {
    "ig-br": ("continuous", InformationGainBR),
    "ig-lp": ("continuous", InformationGainLP),
    "rf-br": ("continuous", ReliefFBR),
    "rf-lp": ("continuous", ReliefFLP),
    "ppt-mi": ("discrete", PPTMutualInformation),
    "ela-chi": ("discrete", ELAChi2),
    "br-cc": ("continuous", BRCorrelation),
    "br-or": ("discrete", BROddsRatio),
    "mfs": ("continuous", MultiLabelFStatistic),
    "lee2016": ("discrete", EntropyLabelSelection),
    "rrelieff": ("continuous", RReliefF),
}


def discrete_problem(seed=0, n=400, p=15, q=12):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, q)) < rng.uniform(0.05, 0.5, q)).astype(np.uint8)
    X = rng.integers(0, 3, (n, p))
    X[:, 0] = Y[:, 0] * 2 + Y[:, 1]
    X[:, 1] = np.where(rng.random(n) < 0.8, Y[:, 2], 1 - Y[:, 2])
    X[:, 2] = Y[:, 3] | Y[:, 4]
    return X, Y


def continuous_problem(seed=0, n=300):
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, 3)).astype(np.uint8)
    X = np.column_stack([
        Y[:, 0] + rng.normal(0, 0.3, n),
        Y[:, 1] * 2 + Y[:, 2] + rng.normal(0, 0.3, n),
        rng.random(n),
        rng.normal(0, 1, n),
    ])
    return X, Y


@pytest.mark.parametrize("name", sorted(NAMES))
def test_registered_with_input_kind_and_common_parameters(name):
    kind, cls = NAMES[name]
    assert registry.get("selector", name) is cls
    assert cls.input_kind == kind
    params = registry.parameters(cls)
    assert params["n_features_to_select"] is None and "random_state" in params
    sel = registry.create("selector", name, {}, random_state=0)
    assert sel.get_params()["random_state"] == 0


# ---------------------------------------------------------- Lee & Kim (2016)


def test_lee2016_all_labels_equals_exact_sum_of_mi():
    X, Y = discrete_problem()
    sel = EntropyLabelSelection(n_labels=Y.shape[1]).fit(X, Y)
    mim = MIMBR().fit(X, Y)
    np.testing.assert_allclose(sel.scores_, mim.scores_, atol=1e-12)
    assert sel.ranking_.tolist() == mim.ranking_.tolist()
    direct = [sum(mutual_information(X[:, j], Y[:, k]) for k in range(Y.shape[1]))
              for j in range(X.shape[1])]
    np.testing.assert_allclose(sel.scores_, direct, atol=1e-12)


def test_lee2016_no_labels_ranks_by_feature_entropy():
    X, Y = discrete_problem(seed=1)
    X[:, 5] = 0  # H = 0
    X[:, 6] = np.arange(len(X)) % 2  # H = 1
    sel = EntropyLabelSelection(n_labels=0).fit(X, Y)
    hf = np.array([entropy(X[:, j]) for j in range(X.shape[1])])
    hl = np.array([entropy(Y[:, k]) for k in range(Y.shape[1])])
    np.testing.assert_allclose(
        sel.scores_, np.minimum(hf[:, None], hl[None, :]).sum(axis=1), atol=1e-12
    )
    # Proposition 1: H(a) >= H(b) implies C~(a) >= C~(b) (ties once H(f)
    # exceeds every H(l), where min(H(f), H(l)) saturates)
    by_h = np.argsort(-hf, kind="stable")
    assert (np.diff(sel.scores_[by_h]) <= 1e-12).all()


def test_lee2016_no_labels_equals_entropy_ranking_below_label_entropies():
    rng = np.random.default_rng(13)
    n = 500
    Y = (rng.random((n, 6)) < 0.5).astype(np.uint8)  # H(l) close to 1 bit
    X = (rng.random((n, 20)) < rng.uniform(0.01, 0.2, 20)).astype(int)  # H < 0.73
    hf = np.array([entropy(X[:, j]) for j in range(X.shape[1])])
    assert hf.max() < min(entropy(Y[:, k]) for k in range(6))
    sel = EntropyLabelSelection(n_labels=0).fit(X, Y)
    np.testing.assert_allclose(sel.scores_, 6 * hf, atol=1e-12)
    assert sel.ranking_.tolist() == np.argsort(-hf, kind="stable").tolist()


def test_lee2016_scores_never_increase_with_more_labels():
    X, Y = discrete_problem(seed=2)
    q = Y.shape[1]
    scores = np.array([
        EntropyLabelSelection(n_labels=j).fit(X, Y).scores_ for j in range(q + 1)
    ])
    exact = MIMBR().fit(X, Y).scores_
    # Lemma 1 / Theorem 1: C(f) <= C~_j+1(f) <= C~_j(f) <= C~_0(f)
    assert (np.diff(scores, axis=0) <= 1e-12).all()
    assert (scores >= exact - 1e-12).all()
    np.testing.assert_allclose(scores[-1], exact, atol=1e-12)


def test_lee2016_picks_highest_entropy_labels_and_default_size():
    X, Y = discrete_problem(seed=3, q=10)
    sel = EntropyLabelSelection().fit(X, Y)  # 20 % of 10 labels
    hl = [entropy(Y[:, k]) for k in range(Y.shape[1])]
    assert sel.selected_labels_.tolist() == np.argsort(hl)[::-1][:2].tolist()
    chosen = sel.selected_labels_
    others = np.setdiff1d(np.arange(10), chosen)
    hf = np.array([entropy(X[:, j]) for j in range(X.shape[1])])
    expected = [
        sum(mutual_information(X[:, j], Y[:, k]) for k in chosen)
        + sum(min(hf[j], hl[k]) for k in others)
        for j in range(X.shape[1])
    ]
    np.testing.assert_allclose(sel.scores_, expected, atol=1e-12)
    sparse = EntropyLabelSelection().fit(sp.csr_matrix(X), Y)
    np.testing.assert_allclose(sparse.scores_, sel.scores_, atol=1e-12)


def test_lee2016_lowest_label_order_scores_smallest_entropy_labels_exactly():
    # Sec. 4.4's opposing method: M(f; l) on the |Y| labels of smallest
    # entropy, the bound min(H(f), H(l)) on the others
    X, Y = discrete_problem(seed=3, q=10)
    sel = EntropyLabelSelection(n_labels=3, label_order="lowest").fit(X, Y)
    hl = np.array([entropy(Y[:, k]) for k in range(Y.shape[1])])
    chosen = np.argsort(hl, kind="stable")[:3]
    assert sel.selected_labels_.tolist() == chosen.tolist()
    assert hl[chosen].max() <= np.delete(hl, chosen).min()
    hf = np.array([entropy(X[:, j]) for j in range(X.shape[1])])
    expected = [
        sum(mutual_information(X[:, j], Y[:, k]) for k in chosen)
        + sum(min(hf[j], hl[k]) for k in np.setdiff1d(np.arange(10), chosen))
        for j in range(X.shape[1])
    ]
    np.testing.assert_allclose(sel.scores_, expected, atol=1e-12)
    high = EntropyLabelSelection(n_labels=3).fit(X, Y)
    assert not np.allclose(high.scores_, sel.scores_)
    # all labels: both orders score the exact sum of MI
    np.testing.assert_allclose(
        EntropyLabelSelection(n_labels=1.0, label_order="lowest").fit(X, Y).scores_,
        MIMBR().fit(X, Y).scores_, atol=1e-12)
    with pytest.raises(ValueError, match="label_order"):
        EntropyLabelSelection(label_order="low").fit(X, Y)


# ------------------------------------------------------------------ ReliefF


def direct_relieff(X, y, k, sample):
    """Figure 3 of Robnik-Šikonja & Kononenko (2003), one instance at a time."""
    X = np.asarray(X, float)
    span = X.max(0) - X.min(0)
    Xn = (X - X.min(0)) / np.where(span > 0, span, 1)
    n, p = X.shape
    classes, counts = np.unique(y, return_counts=True)
    prior = dict(zip(classes, counts / n, strict=True))
    W = np.zeros(p)
    m = len(sample)
    for i in sample:
        dist = [(np.abs(Xn[i] - Xn[j]).sum(), j) for j in range(n) if j != i]
        order = [j for _, j in sorted(dist)]
        for c in classes:
            near = [j for j in order if y[j] == c][:k]
            if not near:
                continue
            mean_diff = sum(np.abs(Xn[i] - Xn[j]) for j in near) / len(near)
            if c == y[i]:
                W -= mean_diff / m
            else:
                W += prior[c] / (1 - prior[y[i]]) * mean_diff / m
    return W


def test_relieff_matches_direct_update_rule_multiclass():
    rng = np.random.default_rng(4)
    n = 40
    y = np.array([0] * 20 + [1] * 13 + [2] * 5 + [3] * 2)  # class 3 has < k
    X = np.column_stack([y + rng.random(n), rng.random(n), rng.integers(0, 2, n)])
    expected = direct_relieff(X, y, k=3, sample=range(n))
    np.testing.assert_allclose(
        relieff_scores(X, y, n_neighbors=3)[:, 0], expected, atol=1e-12
    )
    got = relieff_scores(X, y, n_neighbors=3, n_samples=15, random_state=5)[:, 0]
    sample = np.sort(np.random.RandomState(5).choice(n, 15, replace=False))
    np.testing.assert_allclose(got, direct_relieff(X, y, 3, sample), atol=1e-12)


def test_relieff_several_targets_equal_separate_runs():
    X, Y = continuous_problem(seed=5, n=120)
    together = relieff_scores(X, Y, n_neighbors=5)
    for t in range(Y.shape[1]):
        np.testing.assert_allclose(
            together[:, t], relieff_scores(X, Y[:, t], n_neighbors=5)[:, 0],
            atol=1e-12,
        )
    np.testing.assert_allclose(
        together[:, 0], direct_relieff(X, Y[:, 0], 5, range(len(X))), atol=1e-12
    )


@pytest.fixture(scope="module")
def emotions(shared_datasets):
    folder = shared_datasets / "multi-label" / "emotions"
    ds = load_mulan(folder / "emotions.arff", folder / "emotions.xml")
    return np.asarray(ds.X, dtype=float), ds.Y


def test_relieff_agrees_with_skrebate_on_emotions(emotions):
    skrebate = pytest.importorskip("skrebate")
    X, Y = emotions
    ref = skrebate.ReliefF(n_neighbors=10, n_features_to_select=X.shape[1],
                           categorical_features=[]).fit(X.copy(), Y[:, 0])
    ours = ReliefFBR(threshold=None).fit(X, Y)
    np.testing.assert_allclose(ours.relief_[:, 0], ref.feature_importances_,
                               rtol=0, atol=1e-12)
    assert ours.relief_.shape == (72, 6)


def test_rf_br_rf_lp_scores_and_threshold_selection():
    X, Y = continuous_problem(seed=6, n=150)
    br = ReliefFBR().fit(X, Y)
    np.testing.assert_allclose(
        br.scores_, relieff_scores(X, Y, n_neighbors=10).mean(axis=1), atol=1e-15
    )
    assert set(br.ranking_[:2]) == {0, 1}
    codes, _ = labelset_codes(Y)
    lp = ReliefFLP().fit(X, Y)
    np.testing.assert_allclose(
        lp.scores_, direct_relieff(X, codes, 10, range(len(X))), atol=1e-12
    )
    assert lp.n_classes_ == 8
    # Eq. 10: percentage of features not selected by the 0.01 threshold
    mask = br.scores_ >= 0.01
    assert br.get_support().tolist() == mask.tolist()
    assert br.feature_reduction_ == pytest.approx(100 - 100 * mask.sum() / 4)
    assert 0 < br.feature_reduction_ < 100
    top1 = ReliefFBR(n_features_to_select=1).fit(X, Y)
    assert top1.get_support().sum() == 1 and top1.feature_reduction_ == 75.0
    none = ReliefFBR(threshold=10.0).fit(X, Y)
    assert none.get_support().sum() == 0 and none.feature_reduction_ == 100.0


# ------------------------------------------------------------------ RReliefF


def direct_rrelieff(X, T, k, sigma=None):
    """Figure 5 of Robnik-Šikonja & Kononenko (2003), per target."""
    X = np.asarray(X, float)
    span = X.max(0) - X.min(0)
    Xn = (X - X.min(0)) / np.where(span > 0, span, 1)
    n, p = X.shape
    out = []
    for t in range(T.shape[1]):
        tau = T[:, t]
        dtau_all = np.abs(tau[:, None] - tau[None, :]) / (tau.max() - tau.min())
        ndc, nda, ndcda = 0.0, np.zeros(p), np.zeros(p)
        for i in range(n):
            dist = sorted((np.abs(Xn[i] - Xn[j]).sum(), j) for j in range(n) if j != i)
            near = [j for _, j in dist[:k]]
            if sigma is None:
                w = np.full(k, 1 / k)
            else:
                w = np.exp(-((np.arange(1, k + 1) / sigma) ** 2))
                w /= w.sum()
            for r, j in enumerate(near):
                da = np.abs(Xn[i] - Xn[j])
                ndc += dtau_all[i, j] * w[r]
                nda += da * w[r]
                ndcda += dtau_all[i, j] * da * w[r]
        out.append(ndcda / ndc - (nda - ndcda) / (n - ndc))
    return np.column_stack(out)


@pytest.mark.parametrize("sigma", [None, 2.0])
def test_rrelieff_matches_direct_update_rule(sigma):
    rng = np.random.default_rng(8)
    X = rng.random((35, 4))
    T = np.column_stack([X[:, 0] + 0.1 * rng.random(35), X[:, 1] * X[:, 2]])
    np.testing.assert_allclose(
        rrelieff_scores(X, T, n_neighbors=4, sigma=sigma),
        direct_rrelieff(X, T, 4, sigma), atol=1e-12,
    )


@pytest.fixture(scope="module")
def atp1d(shared_datasets):
    with open(shared_datasets / "multi-target" / "atp1d.arff", encoding="utf-8") as fh:
        data = np.array(arff.load(fh)["data"], dtype=float)
    return data[:, :-6], data[:, -6:]  # the last 6 attributes are the targets


def test_rrelieff_on_atp1d(atp1d):
    X, T = atp1d
    assert X.shape == (337, 411) and T.shape == (337, 6)
    sel = RReliefF(n_neighbors=10).fit(X, T)
    assert sel.weights_.shape == (411, 6)
    np.testing.assert_allclose(sel.scores_, sel.weights_.mean(axis=1))
    # same weights as the direct per-instance computation on a few targets
    sub = np.r_[0:40, 300:337]
    np.testing.assert_allclose(
        rrelieff_scores(X[sub], T[sub, :2], n_neighbors=10),
        direct_rrelieff(X[sub], T[sub, :2], 10), atol=1e-10,
    )
    assert (np.abs(sel.weights_) <= 1).all() and sel.scores_[sel.ranking_[0]] > 0
    # a copy of target 0 added as a feature is that target's best feature
    plus = RReliefF(n_neighbors=10).fit(np.column_stack([X, T[:, 0]]), T)
    assert np.argmax(plus.weights_[:, 0]) == 411
    # binary-label selectors refuse the continuous targets
    with pytest.raises(ValueError, match="0/1"):
        ReliefFBR().fit(X, T)


# ------------------------------------------------------------ IG-BR / IG-LP


def test_ig_br_and_ig_lp_equal_information_gain_of_mdl_or_codes():
    X, Y = continuous_problem(seed=9)
    sel = InformationGainBR().fit(X, Y)
    np.testing.assert_allclose(sel.ig_, mdl_information_gain(X, Y), atol=1e-15)
    np.testing.assert_allclose(sel.scores_, sel.ig_.mean(axis=1))
    assert sel.ranking_[:2].tolist() == [1, 0]
    codes, _ = labelset_codes(Y)
    lp = InformationGainLP().fit(X, Y)
    np.testing.assert_allclose(
        lp.scores_, mdl_information_gain(X, codes)[:, 0], atol=1e-15
    )
    Xd, Yd = discrete_problem(seed=4)
    nominal = InformationGainBR(discretization="none").fit(Xd, Yd)
    np.testing.assert_allclose(
        nominal.scores_, mutual_information_matrix(Xd, Yd).mean(axis=1), atol=1e-15
    )
    lp_nominal = InformationGainLP(discretization="none").fit(Xd, Yd)
    lp_codes, _ = labelset_codes(Yd)
    np.testing.assert_allclose(
        lp_nominal.scores_,
        [mutual_information(Xd[:, j], lp_codes) for j in range(Xd.shape[1])],
        atol=1e-12,
    )
    with pytest.raises(ValueError, match="discretization"):
        InformationGainBR(discretization="equal-width").fit(X, Y)


def test_ig_threshold_selection_and_feature_reduction():
    X, Y = continuous_problem(seed=10)
    sel = InformationGainBR().fit(X, Y)  # noise features have IG 0 < 0.01
    assert sel.get_support().tolist() == [True, True, False, False]
    assert sel.feature_reduction_ == 50.0 and sel.n_selected_ == 2


# --------------------------------------------------------------- other baselines


def test_ppt_mi_equals_mi_on_kept_instances():
    X, Y = discrete_problem(seed=5, q=5)
    sel = PPTMutualInformation(p=10).fit(X, Y)
    codes, sets = labelset_codes(Y)
    counts = np.bincount(codes)
    kept = counts[codes] >= 10
    assert sel.n_kept_ == kept.sum() < len(Y)
    assert sel.n_classes_ == (counts >= 10).sum()
    expected = [mutual_information(X[kept, j], codes[kept]) for j in range(X.shape[1])]
    np.testing.assert_allclose(sel.scores_, expected, atol=1e-12)


def test_ela_chi_equals_chi2_contingency_of_the_weighted_copies():
    X, Y = discrete_problem(seed=6, q=5)
    sel = ELAChi2().fit(X, Y)
    size = Y.sum(axis=1)
    W = Y / np.maximum(size, 1)[:, None]
    for j in range(X.shape[1]):
        table = np.array([W[X[:, j] == v].sum(axis=0) for v in np.unique(X[:, j])])
        table = table[:, table.sum(axis=0) > 0]
        expected = chi2_contingency(table, correction=False)[0]
        assert sel.scores_[j] == pytest.approx(expected, rel=1e-10)
    sparse = ELAChi2().fit(sp.csr_matrix(X), Y)
    np.testing.assert_allclose(sparse.scores_, sel.scores_, rtol=1e-12)


def test_br_cc_equals_pearsonr_per_pair():
    X, Y = continuous_problem(seed=11, n=120)
    X[:, 3] = 2.0  # constant: r = 0
    sel = BRCorrelation().fit(X, Y)
    for j in range(3):
        expected = sum(abs(pearsonr(X[:, j], Y[:, k])[0]) for k in range(3))
        assert sel.scores_[j] == pytest.approx(expected, rel=1e-12)
    assert sel.scores_[3] == 0.0
    sparse = BRCorrelation().fit(sp.csr_matrix(X), Y)
    np.testing.assert_allclose(sparse.scores_, sel.scores_, rtol=1e-10)


def test_br_or_hand_computed_table():
    # feature 0 vs label: a=3, b=1, c=1, d=3 -> log((3.5 * 3.5) / (1.5 * 1.5))
    X = np.array([[1], [1], [1], [0], [1], [0], [0], [0]])
    Y = np.array([[1], [1], [1], [1], [0], [0], [0], [0]])
    sel = BROddsRatio().fit(X, Y)
    assert sel.scores_[0] == pytest.approx(2 * math.log(3.5 / 1.5), rel=1e-12)
    Y2 = np.column_stack([Y[:, 0], 1 - Y[:, 0]])
    # MOR (Chen et al. 2009) sums |OR|: +OR and -OR add up
    assert BROddsRatio().fit(X, Y2).scores_[0] == pytest.approx(
        4 * math.log(3.5 / 1.5)
    )
    signed = BROddsRatio(absolute=False).fit(X, Y2)
    assert signed.scores_[0] == pytest.approx(0.0, abs=1e-12)  # they cancel
    assert BROddsRatio(alpha=1.0).fit(X, Y).scores_[0] == pytest.approx(
        math.log(16 / 4)
    )


def test_br_or_constant_features_last_label_copy_first():
    # 40 instances, a rare label (4 positives) and a common one (20).
    rng = np.random.default_rng(5)
    Y = np.zeros((40, 2), dtype=np.uint8)
    Y[:4, 0] = 1
    Y[::2, 1] = 1
    never = np.zeros(40, dtype=np.uint8)
    always = np.ones(40, dtype=np.uint8)
    copy = Y[:, 0].copy()
    noise = rng.integers(0, 2, (40, 3)).astype(np.uint8)
    X = np.column_stack([never, always, noise, copy])
    sel = BROddsRatio().fit(X, Y)
    order = np.argsort(-sel.scores_, kind="mergesort")
    assert order[0] == 5  # the copy of the rare label
    assert set(order[-2:].tolist()) == {0, 1}  # constants last ...
    assert sel.scores_[0] == sel.scores_[1] == 0.0  # ... with no information
    assert (sel.scores_[2:5] > 0).all()  # noise in between
    # the copy: a = 4, b = 0, c = 0, d = 36 for label 0; a = 2, b = 18, c = 2,
    # d = 18 for label 1
    expected = math.log(4.5 * 36.5 / 0.25) + abs(
        math.log(2.5 * 18.5 / (18.5 * 2.5))
    )
    assert sel.scores_[5] == pytest.approx(expected, rel=1e-12)
    # before: +0.5 on the never-present feature gave each label its own odds,
    # log((n - n_l + .5) / (n_l + .5)), above every noise feature
    assert sel.odds_ratio_[0].tolist() == [0.0, 0.0]


def test_mfs_equals_anova_f_for_single_label_data():
    rng = np.random.default_rng(12)
    y = rng.integers(0, 4, 200)
    X = np.column_stack([y + rng.normal(0, 1, 200), rng.normal(0, 1, (200, 3))])
    Y = np.eye(4, dtype=np.uint8)[y]
    sel = MultiLabelFStatistic().fit(X, Y)
    np.testing.assert_allclose(sel.scores_, f_classif(X, y)[0], rtol=1e-10)
    assert sel.ranking_[0] == 0


def test_mfs_multi_label_membership_counts_every_label():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    Y = np.array([[1, 0], [1, 1], [0, 1], [0, 1]])
    # memberships: A = {0, 1}, B = {1, 2, 3}; N = 5, K = 2, m = 7/5
    mA, mB, m = 0.5, 2.0, 7 / 5
    sb = 2 * (mA - m) ** 2 + 3 * (mB - m) ** 2
    sw = 0.25 * 2 + (1 + 0 + 1)
    expected = (5 - 2) / (2 - 1) * sb / sw
    assert MultiLabelFStatistic().fit(X, Y).scores_[0] == pytest.approx(expected)


# ReliefF on 0/1 features takes a sparse path (distances and |x_i - x_j| from
# sparse products); it must give the dense path's numbers.
def _binary_problem(seed, n=90, p=25, n_labels=4):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, n_labels)) < 0.35).astype(int)
    X = (rng.random((n, p)) < 0.15).astype(float)
    X[:, 0] = Y[:, 0]  # relevant feature
    X[:, 1] = 0.0  # constant feature
    return X, Y


def test_relieff_binary_path_is_used_and_matches_direct_rule():
    from mlfsbench.estimators.selectors import _relief

    X, Y = _binary_problem(7)
    assert _relief.binary_csr(_relief.prepare_features(X)) is not None
    assert _relief.binary_csr(_relief.prepare_features(X * 2 + 1)) is not None
    assert _relief.binary_csr(_relief.prepare_features(X + 0.5 * (X > 2))) is not None
    Xt = X.copy()
    Xt[0, 2] = 0.5
    assert _relief.binary_csr(_relief.prepare_features(Xt)) is None
    # many tied distances: ties broken by index in both paths
    got = relieff_scores(sp.csr_matrix(X), Y[:, 0], n_neighbors=4)[:, 0]
    np.testing.assert_allclose(got, direct_relieff(X, Y[:, 0], 4, range(len(X))),
                               atol=1e-12)
    assert got[0] > 0.3 and got[1] == 0.0


@pytest.mark.parametrize("n_samples", [None, 31])
@pytest.mark.parametrize("k", [1, 3, 10])
def test_relieff_binary_path_equals_dense_path(k, n_samples):
    X, Y = _binary_problem(8 + k)
    codes, _ = labelset_codes(Y)
    targets = np.column_stack([Y, codes])
    fast = relieff_scores(X, targets, n_neighbors=k, n_samples=n_samples,
                          random_state=3)
    # a tiny sparse budget forces one-row blocks on the sparse path
    tiny_blocks = relieff_scores(X, targets, n_neighbors=k, n_samples=n_samples,
                                 random_state=3, max_sparse_cells=1)
    dense = relieff_scores(X, targets, n_neighbors=k, n_samples=n_samples,
                           random_state=3, binary_path=False)
    np.testing.assert_allclose(fast, dense, atol=1e-12)
    np.testing.assert_allclose(tiny_blocks, dense, atol=1e-12)
    assert np.abs(dense).max() > 0.05



def _discrete_selector_names():
    out = []
    for name in registry.names("selector"):
        cls = registry.get("selector", name)
        kind = cls.input_kind if isinstance(cls.input_kind, str) else cls().input_kind
        if kind == "discrete":
            out.append(name)
    return out


@pytest.mark.parametrize("name", _discrete_selector_names())
def test_every_discrete_selector_rejects_non_codes_in_fit(name):
    """The base class checks discrete input once for every discrete selector."""
    rng = np.random.default_rng(0)
    Y = (rng.random((30, 3)) < 0.5).astype(int)
    codes = rng.integers(0, 3, (30, 4))
    extra = {"n_labels": 2} if name == "lee2016" else {}
    registry.create("selector", name, extra).fit(codes, Y)  # codes are fine
    with pytest.raises(ValueError, match="non-integral value"):
        registry.create("selector", name, extra).fit(codes + 0.5, Y)
    with pytest.raises(ValueError, match="negative"):
        registry.create("selector", name, extra).fit(codes - 1, Y)
    with pytest.raises(ValueError, match="2-D"):
        registry.create("selector", name, extra).fit(codes[:, 0], Y)


def test_ig_auto_takes_0_1_features_as_nominal_and_mdl_for_the_rest():
    """Weka treats Mulan's {0,1} word attributes as nominal: no MDL test."""
    from mlfsbench.estimators.validation import binary_columns

    # a weak word: present in 3 of 10 positives and 1 of 10 negatives
    y = np.array([1] * 10 + [0] * 10)
    word = np.zeros(20)
    word[[0, 1, 2, 10]] = 1
    # hand-computed IG in bits: H(y) = 1; H(y | word) = 4/20 H(3/4) + 16/20 H(7/16)
    def h(p):
        return -p * math.log2(p) - (1 - p) * math.log2(1 - p)
    expected = 1 - (4 / 20 * h(3 / 4) + 16 / 20 * h(7 / 16))
    assert expected == pytest.approx(0.04678, abs=1e-5)  # 1 - 0.95322
    rng = np.random.default_rng(3)
    numeric = y + rng.random(20) * 0.8  # separable: MDL accepts a cut
    X = np.column_stack([word, numeric])
    Y = y.reshape(-1, 1)
    mdl = InformationGainBR(discretization="mdl").fit(X, Y)
    auto = InformationGainBR(discretization="auto").fit(X, Y)
    assert mdl.ig_[0, 0] == 0.0  # MDL rejects the single 0/1 cut
    assert auto.ig_[0, 0] == pytest.approx(expected, abs=1e-12)
    assert auto.ig_[1, 0] == pytest.approx(mdl.ig_[1, 0], abs=1e-15)
    assert auto.ig_[1, 0] == pytest.approx(1.0)
    # sparse input, all-binary input, and the LP variant agree
    sparse = InformationGainBR(discretization="auto").fit(sp.csr_matrix(X), Y)
    np.testing.assert_allclose(sparse.ig_, auto.ig_, atol=1e-15)
    words = InformationGainLP(discretization="auto").fit(word.reshape(-1, 1), Y)
    assert words.scores_[0] == pytest.approx(expected, abs=1e-12)
    assert binary_columns(X).tolist() == [True, False]


def test_spolaor_config_takes_declared_words_as_nominal():
    """The IG entries of config/papers/spolaor2013.yaml, built as the workflow
    builds them, read a 0/1 word as Weka does (nominal) and MDL-discretize a
    numeric feature, given the dataset's feature types."""
    from pathlib import Path

    import yaml

    path = Path(__file__).resolve().parents[1] / "config/papers/spolaor2013.yaml"
    selectors = yaml.safe_load(path.read_text())["experiments"]["spolaor2013"][
        "selectors"]
    ig = {s["name"]: s["params"] for s in selectors if s["name"].startswith("ig-")}
    assert set(ig) == {"ig-br", "ig-lp"}
    rng = np.random.default_rng(0)
    Y = rng.integers(0, 2, (200, 2))
    word = np.where(rng.random(200) < 0.45, 1 - Y[:, 1], Y[:, 1]).astype(float)
    X = np.column_stack([word, word])  # one column declared numeric, one a word
    types = ["numeric", "binary"]
    for name, params in ig.items():
        sel = registry.create("selector", name, params).fit(X, Y, feature_types=types)
        mdl = registry.create("selector", name, {"discretization": "mdl"}).fit(X, Y)
        codes = registry.create("selector", name, {"discretization": "none"}).fit(X, Y)
        assert sel.scores_.tolist() == [mdl.scores_[0], codes.scores_[1]], name
        assert sel.threshold == 0.01
    # the weak word reaches the paper's threshold only when read as nominal
    br = registry.create("selector", "ig-br", ig["ig-br"]).fit(
        X, Y, feature_types=types)
    assert br.get_support().tolist() == [False, True]


def test_br_or_on_genbase_selects_no_constant_feature(shared_datasets):
    # issue 13.1: with +0.5 on every cell all 50 picks on a genbase training
    # part were constant there (1 079 of its 1 185 features are)
    from mlfsbench.data.split import holdout_splits

    folder = shared_datasets / "multi-label" / "genbase"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the protein identifier is dropped
        ds = load_mulan(folder / "genbase.arff", folder / "genbase.xml")
    X = np.asarray(ds.X.toarray() if sp.issparse(ds.X) else ds.X) != 0
    train, _ = holdout_splits(ds.Y, 0.2, 1, random_state=0)[0]
    Xt, Yt = X[train].astype(np.uint8), ds.Y[train]
    counts = Xt.sum(axis=0)
    constant = (counts == 0) | (counts == len(train))
    assert constant.sum() > 1000
    top = BROddsRatio(n_features_to_select=50).fit(Xt, Yt).ranking_[:50]
    assert not constant[top].any()


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("prefix, mask, gather", [
    (1, False, True), (6, False, True), (40, False, True), (0, True, True),
    (0, True, False)])
def test_relieff_shortcuts_equal_sorting_the_whole_order(binary, prefix, mask,
                                                          gather):
    """Class neighbours found in a prefix of each row's distance order (rows
    whose prefix lacks some class fall back to the whole order), or for a
    two-class target from the class mask without sorting, or for a rare class
    of a two-class target (the 5 % label) from a stable sort of the distances
    to its members, are those of the stable sort of the whole order: the same
    scores bit for bit (ties abound in the binary case), for binary-relevance
    labels (a rare one and a constant one among them) and a many-class
    label-powerset class."""
    rng = np.random.default_rng(3)
    X = (rng.random((120, 9)) < 0.3).astype(float) if binary else rng.random((120, 9))
    Y = (rng.random((120, 5)) < [0.5, 0.2, 0.05, 0.9, 0.0]).astype(int)
    lp = Y @ (1 << np.arange(5))
    whole = [relieff_scores(X, classes, n_neighbors=5, prefix=0, mask_path=False,
                            shared_path=False)
             for classes in (Y, lp)]
    for expected, classes in zip(whole, (Y, lp), strict=True):
        got = relieff_scores(X, classes, n_neighbors=5, prefix=prefix,
                             mask_path=mask, gather_path=gather, shared_path=False)
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("k, n_samples", [(1, None), (5, None), (10, 37)])
def test_relieff_batched_two_class_targets_equal_one_at_a_time(binary, k,
                                                               n_samples):
    """Every BR label of a block at once (batch_path) gives the scores of the
    per-label loop bit for bit: binary features (ties abound), labels
    balanced to the instance (class sizes tie), rare (a few positives, below
    k), common (the larger class is 1), constant, and a label-powerset class
    beside them (which keeps the per-target loop)."""
    rng = np.random.default_rng(7)
    n = 160
    X = (rng.random((n, 12)) < 0.25).astype(float) if binary else rng.random((n, 12))
    Y = (rng.random((n, 6)) < [0.3, 0.03, 0.9, 0.0, 0.1, 0.6]).astype(int)
    Y[:, 0] = np.arange(n) % 2  # 80 and 80
    lp = Y @ (1 << np.arange(6))
    for classes in (Y, np.column_stack([Y, lp])):
        kw = {"n_neighbors": k, "n_samples": n_samples, "random_state": 1,
              "shared_path": False}
        new = relieff_scores(X, classes, **kw)
        old = relieff_scores(X, classes, batch_path=False, **kw)
        assert np.array_equal(new, old)
        assert np.abs(new).max() > 0


def test_relieff_batched_equals_one_at_a_time_on_emotions(emotions):
    X, Y = emotions
    lp = Y @ (1 << np.arange(Y.shape[1]))
    for classes in (Y, lp):
        new = relieff_scores(X, classes)
        old = relieff_scores(X, classes, batch_path=False)
        assert np.array_equal(new, old)


def test_two_class_neighbours_are_the_first_of_their_class_in_the_order():
    from mlfsbench.estimators.neighbours import two_class_neighbours

    rng = np.random.default_rng(0)
    D = rng.integers(0, 4, (7, 50)).astype(float)  # many ties
    S = np.argsort(D, axis=1, kind="stable")
    codes = (rng.random((50, 3)) < [0.5, 0.1, 0.95]).astype(np.uint8)
    want = np.array([1, 1, 0])  # the last two: rare in the prefix
    kk = np.full((7, 3), 4)
    out, lacking = two_class_neighbours(S, codes, want, kk, 4, width=12)
    for r in range(7):
        for t in range(3):
            first = [j for j in S[r] if codes[j, t] == want[t]][:4]
            in_prefix = [j for j in S[r, :12] if codes[j, t] == want[t]]
            assert lacking[r, t] == (len(in_prefix) < 4)
            if not lacking[r, t]:
                assert out[r, t].tolist() == first
    assert lacking.any() and not lacking.all()
