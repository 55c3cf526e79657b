"""Scoring variants of the measures (evaluation.metrics.VARIANTS): tied
scores in label order (Mulan's ranking) and macro F1's never-true,
never-predicted labels counted 0 or left out; hand values and
scikit-learn's implementations."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import (
    coverage_error,
    f1_score,
    label_ranking_average_precision_score,
    label_ranking_loss,
)

from mlfsbench.evaluation import metrics as M

# three instances, four labels, ties everywhere
T = np.array([[1, 0, 1, 0],
              [0, 0, 1, 0],
              [0, 1, 0, 0]])
S = np.array([[0.8, 0.8, 0.3, 0.3],
              [0.5, 0.5, 0.5, 0.1],
              [0.9, 0.2, 0.2, 0.2]])
# Mulan's ranks (1 = top; tied labels in label order, the later first):
#   row 0: l1=1 l0=2 l3=3 l2=4   relevant l0, l2
#   row 1: l2=1 l1=2 l0=3 l3=4   relevant l2
#   row 2: l0=1 l3=2 l2=3 l1=4   relevant l1
LABEL_ORDER = {
    # wrong pairs (rank_rel > rank_irr): row 0 (l0,l1) (l2,l1) (l2,l3) of 4,
    # row 1 none of 3, row 2 all 3 of 3
    "ranking_loss~label-order": (3 / 4 + 0 + 1) / 3,
    # top label: l1 irrelevant, l2 relevant, l0 irrelevant
    "one_error~label-order": 2 / 3,
    # deepest relevant rank - 1: 3, 0, 3
    "coverage~label-order": 2.0,
    "normalized_coverage~label-order": 0.5,
    # row 0: l0 1/2, l2 2/4; row 1: 1; row 2: 1/4
    "average_precision~label-order": (0.5 + 1 + 0.25) / 3,
}
# the default measures' worst ranks on the same scores (hand values):
#   row 0: l0=l1=2, l2=l3=4; row 1: l0=l1=l2=3, l3=4; row 2: l0=1, others 4
WORST = {"ranking_loss": (3 / 4 + 2 / 3 + 1) / 3, "one_error": 1.0,
         "coverage": (3 + 2 + 3) / 3, "average_precision": (0.5 + 1 / 3 + 0.25) / 3}


def test_label_order_variants_hand_values():
    out = M.evaluate_variants(T, T, S)
    for name, value in LABEL_ORDER.items():
        assert out[name] == pytest.approx(value), name
    for name, value in WORST.items():  # the measures themselves unchanged
        assert getattr(M, name)(T, S) == pytest.approx(value), name
        better = M.GREATER_IS_BETTER[name]  # label order is kinder here
        assert (out[f"{name}~label-order"] > value) is better, name


def test_label_order_equals_sklearn_on_scores_with_the_ties_broken():
    # Adding a tiny increasing amount per label breaks every tie the way
    # Mulan does (the later label first) and leaves no tie; scikit-learn's
    # functions, whatever their tie rule, then give the label-order values.
    broken = S + 1e-9 * np.arange(S.shape[1])
    out = M.evaluate_variants(T, T, S)
    assert out["ranking_loss~label-order"] == pytest.approx(
        label_ranking_loss(T, broken))
    assert out["coverage~label-order"] == pytest.approx(coverage_error(T, broken) - 1)
    # every row has a relevant label and an irrelevant one: no convention differs
    assert out["average_precision~label-order"] == pytest.approx(
        label_ranking_average_precision_score(T, broken))


def test_the_default_ranking_measures_match_sklearns_worst_ranks():
    # scikit-learn gives tied labels the worst rank in all three (its
    # label_ranking_loss counts a tie as a wrong pair)
    assert M.ranking_loss(T, S) == pytest.approx(label_ranking_loss(T, S))
    assert M.coverage(T, S) == pytest.approx(coverage_error(T, S) - 1)
    assert M.average_precision(T, S) == pytest.approx(
        label_ranking_average_precision_score(T, S))
    assert label_ranking_loss(T, S) != pytest.approx(
        M.evaluate_variants(T, T, S)["ranking_loss~label-order"])


def test_without_ties_the_variants_equal_the_measures():
    rng = np.random.default_rng(3)
    Y = (rng.random((40, 7)) < 0.3).astype(int)
    Y[0] = 0  # an instance without relevant labels (one-error 1, coverage 0)
    Y[1] = 1  # and one with every label relevant
    Sc = rng.random((40, 7))
    out = M.evaluate(Y, Y, Sc, variants=True)
    for name, info in M.VARIANTS.items():
        if "ties" in info:
            assert out[name] == pytest.approx(out[info["of"]]), name


def test_mulan_ties_scores_within_one_millionth():
    # Weka's stableSort: a run within 1e-6 of its smallest score is one tie
    # group, ranked in label order (the later label first)
    Tt = np.array([[0, 1, 0]])
    St = np.array([[0.5 + 5e-7, 0.5, 0.1]])
    assert M.one_error(Tt, St) == 1.0  # l0 scores higher
    out = M.evaluate_variants(Tt, Tt, St)
    assert out["one_error~label-order"] == 0.0  # tied with l0: l1 ranks first
    assert out["ranking_loss~label-order"] == 0.0
    # the runs are greedy from the smallest score: 0.5 and 0.5+6e-7 are one
    # group, 0.5+1.2e-6 (1.2e-6 above its start) the next
    Tt = np.array([[1, 0, 0]])
    St = np.array([[0.5 + 1.2e-6, 0.5 + 6e-7, 0.5]])
    out = M.evaluate_variants(Tt, Tt, St)
    assert out["one_error~label-order"] == 0.0  # l0 alone on top
    # exactly equal scores are tied whatever the tolerance
    rank, _ = M._label_order_ranks(np.zeros((1, 3), bool), np.array([[0.2] * 3]),
                                   tol=0.0)
    assert rank.tolist() == [[3, 2, 1]]


# labels: l0 true twice, found once; l1 right; l2 never true nor predicted;
# l3 predicted once, never true
TM = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 0, 0]])
PM = np.array([[1, 0, 0, 0], [0, 1, 0, 1], [0, 1, 0, 0]])


def test_macro_f1_absent_label_variants_hand_values():
    f0 = 2 * 1 / (2 * 1 + 0 + 1)  # l0: tp 1, fn 1
    assert M.macro_f1(TM, PM) == pytest.approx((f0 + 1 + 1 + 0) / 4)
    out = M.evaluate_variants(TM, PM)
    assert out == pytest.approx({"macro_f1~absent-0": (f0 + 1 + 0 + 0) / 4,
                                 "macro_f1~absent-skip": (f0 + 1 + 0) / 3})
    # no scores: no ranking variant
    assert set(out) == {"macro_f1~absent-0", "macro_f1~absent-skip"}
    # every label empty: skip leaves nothing to average
    z = np.zeros((2, 3), int)
    assert np.isnan(M.evaluate_variants(z, z)["macro_f1~absent-skip"])
    assert M.evaluate_variants(z, z)["macro_f1~absent-0"] == 0.0


def test_macro_f1_variants_match_sklearn():
    out = M.evaluate_variants(TM, PM)
    present = [j for j in range(4) if TM[:, j].any() or PM[:, j].any()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert M.macro_f1(TM, PM) == pytest.approx(
            f1_score(TM, PM, average="macro", zero_division=1))
        assert out["macro_f1~absent-0"] == pytest.approx(
            f1_score(TM, PM, average="macro", zero_division=0))
        assert out["macro_f1~absent-skip"] == pytest.approx(
            f1_score(TM, PM, average="macro", labels=present))


def test_evaluate_appends_the_variants_on_request():
    out = M.evaluate(T, T, S, variants=True)
    assert list(out) == list(M.METRICS) + list(M.VARIANTS)
    assert list(M.evaluate(T, T, S)) == list(M.METRICS)
    assert M.base_metric("coverage~label-order") == "coverage"
    assert M.is_variant("macro_f1~absent-0") and not M.is_variant("macro_f1")
