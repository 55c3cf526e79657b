"""Chi2 discretization (Liu & Setiono 1995) and the chi2-lp selector (Trohidis 2008).

Hand-made cases for the χ² of adjacent intervals, ChiMerge, the inconsistency
rate and the two Chi2 phases; the selector's statistic against
``scipy.stats.chi2_contingency``; and the artificial problems of Doquire &
Verleysen (2013, Section 5.1) with discretized input.
"""

import numpy as np
import pytest
from scipy.stats import chi2 as chi2_dist
from scipy.stats import chi2_contingency

from mlfsbench.estimators import registry
from mlfsbench.estimators.discretizers.chi2 import (
    Chi2Discretizer,
    chi2_threshold,
    chimerge,
    inconsistency_rate,
    pair_chi2,
)
from mlfsbench.estimators.discretizers.unsupervised import EqualWidthDiscretizer
from mlfsbench.estimators.selectors.chi2_lp import Chi2LP, chi2_scores
from mlfsbench.estimators.transformations.lp import labelset_codes

from .problems import problem1, problem2


def test_pair_chi2_by_hand_and_against_scipy():
    # [[3, 1], [1, 3]]: E = 2 everywhere, chi2 = 4 * 1 / 2 = 2
    assert pair_chi2([3, 1], [1, 3]) == pytest.approx(2.0)
    table = np.array([[5, 2, 7], [3, 6, 1]])
    expected = chi2_contingency(table, correction=False)[0]
    assert pair_chi2(*table) == pytest.approx(expected)
    # an absent class adds 0.1 per cell (Kerber's E = 0.1)
    assert pair_chi2([5, 2, 7, 0], [3, 6, 1, 0]) == pytest.approx(expected + 0.2)


def test_threshold_is_upper_quantile():
    assert chi2_threshold(0.1, 4) == pytest.approx(chi2_dist.ppf(0.9, 4))
    assert chi2_threshold(0.5, 1) == pytest.approx(0.45494, abs=1e-5)


def test_chimerge_merges_lowest_pair_first():
    counts = [[4, 0], [3, 0], [2, 1], [0, 4], [0, 5]]
    # chi2 of the pairs: 0.2, 1.43, 4.41, 0.2 -> at alpha = 0.5 (0.455) the two
    # pure pairs merge; [7, 0] vs [2, 1] then has 2.59 and stays apart.
    assert pair_chi2([4, 0], [3, 0]) == pytest.approx(0.2)
    assert pair_chi2([7, 0], [2, 1]) == pytest.approx(2.592593, abs=1e-6)
    assert chimerge(counts, chi2_threshold(0.5, 1)).tolist() == [0, 2, 3]
    assert chimerge(counts, 3.0).tolist() == [0, 3]
    assert chimerge(counts, np.inf).tolist() == [0]
    assert chimerge(counts, 0.0).tolist() == [0, 1, 2, 3, 4]
    assert chimerge([[1, 2]], 5.0).tolist() == [0]


def test_inconsistency_rate_by_hand():
    codes = np.array([[0, 0], [0, 0], [0, 0], [0, 1], [0, 1], [1, 1]])
    y = np.array([0, 0, 1, 1, 0, 1])
    # pattern (0,0): 1 minority; (0,1): 1 minority; (1,1): 0
    assert inconsistency_rate(codes, y) == pytest.approx(2 / 6)
    assert inconsistency_rate(np.zeros((6, 1)), y) == pytest.approx(3 / 6)
    assert inconsistency_rate(np.arange(6)[:, None], y) == 0.0


def test_chi2_discretizer_hand_made_case():
    # Pure class blocks of 4, 3, 3 values (3 classes, df = 2) and a constant.
    # alpha = 0.5 (threshold 1.386): equal-class singletons have chi2 0.4
    # (four E = 0.1 cells) and merge into the 3 blocks. Block pairs: 7.2 for
    # [4,0,0]|[0,3,0] and 6.2 for [0,3,0]|[0,0,3] (hand-computed below).
    # alpha = 0.05 (5.99): nothing merges; alpha = 0.025 (7.38) would merge the
    # last two blocks, inconsistency 0.3 > delta = 0: undone, Phase 1 stops at
    # 0.05 and Phase 2 freezes the feature.
    x0 = np.array([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99])
    y = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2, 2])
    X = np.column_stack([x0, np.full(10, 7.0)])
    assert pair_chi2([4, 0, 0], [0, 3, 0]) == pytest.approx(7.2)
    assert pair_chi2([0, 3, 0], [0, 0, 3]) == pytest.approx(6.2)
    disc = Chi2Discretizer().fit(X, y)
    assert disc.delta_ == 0.0  # the raw data is consistent
    assert disc.inconsistency_ == 0.0
    assert disc.sig_level_phase1_ == 0.05
    assert disc.cut_points_[0, :2].tolist() == pytest.approx([0.5, 0.85])
    assert disc.n_bins_.tolist() == [3, 1]
    assert disc.transform(X)[:, 0].tolist() == [0, 0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert disc.transform(np.array([[0.5, 0], [0.51, 0]]))[:, 0].tolist() == [0, 1]
    # delta = 0.35 accepts the 0.025 merge (rate 0.3); at 0.01 (9.21) the pair
    # [4,0,0]|[0,3,3] has chi2 10.0 and stays; 0.005 (10.6) would merge it
    # (rate 0.6): undone.
    assert pair_chi2([4, 0, 0], [0, 3, 3]) == pytest.approx(10.0)
    loose = Chi2Discretizer(delta=0.35).fit(X, y)
    assert loose.cut_points_[0, :1].tolist() == pytest.approx([0.5])
    assert loose.n_bins_.tolist() == [2, 1]
    assert loose.sig_level_phase1_ == 0.01
    assert loose.inconsistency_ == pytest.approx(0.3)


def test_chi2_discretizer_validation():
    with pytest.raises(ValueError, match="decreasing"):
        Chi2Discretizer(sig_levels=(0.1, 0.5)).fit(np.zeros((4, 1)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="samples"):
        Chi2Discretizer().fit(np.zeros((4, 1)), [0, 1, 0])


def test_chi2_scores_against_scipy():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 300)
    X = np.column_stack([rng.integers(0, 3, 300), (y + rng.integers(0, 2, 300)) % 5,
                         np.zeros(300, int)])
    scores = chi2_scores(X, y)
    for j in range(2):
        table = np.zeros((X[:, j].max() + 1, 4))
        np.add.at(table, (X[:, j], y), 1)
        table = table[table.sum(axis=1) > 0]
        assert scores[j] == pytest.approx(chi2_contingency(table, correction=False)[0])
    assert scores[2] == 0.0
    assert scores[1] > 200 > scores[0]


def test_registry_and_input_kind_property():
    assert registry.get("selector", "chi2-lp") is Chi2LP
    sel = registry.create("selector", "chi2-lp", {"discretization": "chi2"})
    assert sel.input_kind == "continuous"
    assert Chi2LP().input_kind == "discrete"
    with pytest.raises(ValueError, match="discretization"):
        Chi2LP(discretization="mdl").fit(np.zeros((4, 1), int), np.eye(4, 2, dtype=int))
    with pytest.raises(ValueError, match="integer codes"):
        Chi2LP().fit(np.full((4, 1), 0.5), np.eye(4, 2, dtype=int))


def test_chi2_lp_uses_label_powerset():
    # labels (0,1) and (1,0) are two LP classes; the feature separates them
    X = np.array([[0], [0], [1], [1], [2], [2]])
    Y = np.array([[0, 1], [0, 1], [1, 0], [1, 0], [1, 1], [1, 1]])
    sel = Chi2LP().fit(X, Y)
    assert sel.scores_[0] == pytest.approx(6 * 2)  # N (min(r, c) - 1) = 12
    y, _ = labelset_codes(Y)
    assert sel.scores_[0] == pytest.approx(chi2_scores(X, y)[0])


@pytest.mark.parametrize("seed", range(5))
def test_problem1_chi2_ranks_f5_f15_f11_first(seed):
    # Paper: "the first three best ranked features are always f5, f15 and f11"
    # (here on equal-width 5-bin codes, the workflow's discretize stage)
    X, Y = problem1(seed)
    codes = EqualWidthDiscretizer(bins=5).fit_transform(X)
    top = Chi2LP().fit(codes, Y).ranking_[:3].tolist()
    assert set(top) == {4, 14, 10}


@pytest.mark.parametrize("seed", range(3))
def test_problem2_chi2_scores_are_negligible(seed):
    # Paper: chi2 returns (about) zero for every feature. With 5 bins and 8
    # classes, each statistic is that of independence (df = 28): no feature is
    # significant, and all are tiny next to problem 1's relevant features.
    X, Y = problem2(seed)
    scores = Chi2LP().fit(EqualWidthDiscretizer(bins=5).fit_transform(X), Y).scores_
    assert chi2_dist.sf(scores, 28).min() > 0.001
    X1, Y1 = problem1(seed)
    ref = Chi2LP().fit(EqualWidthDiscretizer(bins=5).fit_transform(X1), Y1).scores_
    assert scores.max() < 0.1 * ref.max()


def test_problem1_with_chi2_discretization():
    # Chi2 (Liu & Setiono) keeps the data consistent: of redundant twins it may
    # merge one away (one interval -> score 0); f11 and one of f5/f15 lead.
    X, Y = problem1(0)
    sel = Chi2LP(discretization="chi2", random_state=0).fit(X, Y)
    top = set(sel.ranking_[:2].tolist())
    assert 10 in top and len(top & {4, 14}) == 1
    assert sel.discretizer_.inconsistency_ <= sel.discretizer_.delta_
    assert (sel.scores_[sel.discretizer_.n_bins_ == 1] == 0).all()


def test_chi2_scores_equal_sklearn_chi2_summed_over_value_indicators():
    # sklearn's chi2 of a 0/1 indicator column is the sum over classes of
    # (O - E)^2 / E for that value's row of the table; summed over a
    # feature's values it is Pearson's statistic of the whole table
    from sklearn.feature_selection import chi2 as sk_chi2

    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 200)
    X = np.column_stack([(y + rng.integers(0, 2, 200)) % 4, rng.integers(0, 5, 200)])
    scores = chi2_scores(X, y)
    for j in range(2):
        indicators = (X[:, j][:, None] == np.unique(X[:, j])[None, :]).astype(float)
        assert scores[j] == pytest.approx(sk_chi2(indicators, y)[0].sum(), rel=1e-12)
    assert scores[0] > 100 > scores[1]


def test_chi2_statistic_reading_ranks_phase1_codes_by_chi2():
    # chi2="statistic": Chi2's Phase 1 discretization only, then Pearson's
    # statistic of each feature's table against the LP class (scipy)
    X, Y = problem1(0)
    y, _ = labelset_codes(Y)
    sel = Chi2LP(discretization="chi2", chi2="statistic", random_state=0).fit(X, Y)
    assert sel.discretizer_.phase2 is False
    phase1 = Chi2Discretizer(random_state=sel.discretizer_.random_state,
                             phase2=False).fit(X, y)
    codes = phase1.transform(X)
    assert np.array_equal(codes, sel.discretizer_.transform(X))
    for j in range(X.shape[1]):
        table = np.zeros((codes[:, j].max() + 1, y.max() + 1))
        np.add.at(table, (codes[:, j], y), 1)
        table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
        expected = (chi2_contingency(table, correction=False)[0]
                    if table.shape[0] > 1 else 0.0)
        assert sel.scores_[j] == pytest.approx(expected, rel=1e-10)
    # Phase 1 keeps every feature's intervals: the twins f5 and f15 = 2 f5
    # get the same intervals and score, and with f11 lead as the paper says
    assert sel.scores_[4] == sel.scores_[14] > 0
    assert set(sel.ranking_[:3].tolist()) == {4, 14, 10}
    # the default reading (Phase 2) merges one twin away on this draw
    full = Chi2LP(discretization="chi2", random_state=0).fit(X, Y)
    assert full.discretizer_.phase2 is True
    assert (full.discretizer_.n_bins_ <= phase1.n_bins_).all()
    assert set(full.ranking_[:3].tolist()) != {4, 14, 10}


def test_chi2_reading_parameter_is_validated():
    with pytest.raises(ValueError, match="chi2"):
        Chi2LP(discretization="chi2", chi2="plain").fit(np.zeros((4, 1)),
                                                         np.eye(4, 2, dtype=int))
