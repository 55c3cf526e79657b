"""Tests of :mod:`mlfsbench.evaluation.metrics` on hand-computed cases and against
sklearn."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.metrics as skm
from numpy.testing import assert_allclose

from mlfsbench.evaluation import metrics as M

# --------------------------------------------------------------------------
# One small case, every number worked out by hand (see the comments).
# --------------------------------------------------------------------------
Y_TRUE = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 0]])
Y_PRED = np.array([[1, 1, 0], [0, 1, 0], [1, 0, 0], [0, 0, 0]])
Y_SCORE = np.array(
    [[0.9, 0.8, 0.1], [0.2, 0.5, 0.5], [0.3, 0.6, 0.1], [0.1, 0.2, 0.3]]
)
# Per instance (tp, fp, fn): i0 (1, 1, 1), i1 (1, 0, 0), i2 (1, 0, 1), i3 empty.
# Per label (tp, fp, fn): l0 (2, 0, 0), l1 (1, 1, 1), l2 (0, 0, 1).
HAND_BIPARTITION = {
    "hamming_loss": 3 / 12,  # i0 labels 1 and 2, i2 label 1
    "subset_accuracy": 2 / 4,  # i1 and i3
    "accuracy": (1 / 3 + 1 + 1 / 2 + 1) / 4,  # Jaccard; i3 empty/empty = 1
    "example_precision": (1 / 2 + 1 + 1 + 1) / 4,
    "example_recall": (1 / 2 + 1 + 1 / 2 + 1) / 4,
    "example_f1": (1 / 2 + 1 + 2 / 3 + 1) / 4,
    "micro_precision": 3 / 4,  # tp 3, fp 1
    "micro_recall": 3 / 5,  # tp 3, fn 2
    "micro_f1": 6 / 9,  # 2 tp / (2 tp + fp + fn)
    "macro_precision": (1 + 1 / 2 + 0) / 3,  # l2: nothing predicted, fn > 0 -> 0
    "macro_recall": (1 + 1 / 2 + 0) / 3,
    "macro_f1": (1 + 1 / 2 + 0) / 3,
}
# Worst ranks per instance: i0 (1, 2, 3); i1 (3, 2, 2) (tie 1-2);
# i2 (2, 1, 3); i3 (3, 2, 1).
HAND_RANKING = {
    # i0: pair (2, 1) wrong of 2; i1: tie (1, 2) wrong of 2; i2: 0; i3: none -> 0
    "ranking_loss": (1 / 2 + 1 / 2 + 0 + 0) / 4,
    # i1: top tie {1, 2} holds an irrelevant label; i3: no relevant label
    "one_error": (0 + 1 + 0 + 1) / 4,
    "coverage": (2 + 1 + 1 + 0) / 4,
    "normalized_coverage": (2 + 1 + 1 + 0) / 4 / 3,
    # i0: (1/1 + 2/3) / 2; i1: 1/2; i2: (1/1 + 2/2) / 2; i3 skipped
    "average_precision": ((1 + 2 / 3) / 2 + 1 / 2 + 1) / 3,
}


@pytest.mark.parametrize("name", sorted(HAND_BIPARTITION))
def test_bipartition_by_hand(name):
    fn = getattr(M, name)
    assert fn(Y_TRUE, Y_PRED) == pytest.approx(HAND_BIPARTITION[name], abs=1e-15)


@pytest.mark.parametrize("name", sorted(HAND_RANKING))
def test_ranking_by_hand(name):
    fn = getattr(M, name)
    assert fn(Y_TRUE, Y_SCORE) == pytest.approx(HAND_RANKING[name], abs=1e-15)


def test_evaluate_and_metrics_table():
    out = M.evaluate(Y_TRUE, Y_PRED, Y_SCORE)
    assert list(out) == list(M.METRICS)
    assert out == pytest.approx({**HAND_BIPARTITION, **HAND_RANKING})
    assert all(isinstance(v, float) for v in out.values())
    no_scores = M.evaluate(Y_TRUE, Y_PRED)
    assert list(no_scores) == [n for n, m in M.METRICS.items() if not m["needs_score"]]
    lower_better = {n for n, m in M.METRICS.items() if not m["greater_is_better"]}
    assert lower_better == {"hamming_loss", "ranking_loss", "coverage",
                            "normalized_coverage", "one_error"}


def test_sparse_inputs():
    out = M.evaluate(sp.csr_matrix(Y_TRUE), sp.csr_matrix(Y_PRED), Y_SCORE)
    assert out == pytest.approx({**HAND_BIPARTITION, **HAND_RANKING})


# --------------------------------------------------------------------------
# Empty-set conventions (Mulan's InformationRetrievalMeasures)
# --------------------------------------------------------------------------
EXAMPLE_BASED = ["accuracy", "example_precision", "example_recall", "example_f1"]


@pytest.mark.parametrize(
    ("truth", "pred", "expected"),
    [
        ([[0, 0]], [[0, 0]], {"accuracy": 1, "example_precision": 1,
                              "example_recall": 1, "example_f1": 1}),
        ([[1, 0]], [[0, 0]], {"accuracy": 0, "example_precision": 0,
                              "example_recall": 0, "example_f1": 0}),
        ([[0, 0]], [[0, 1]], {"accuracy": 0, "example_precision": 0,
                              "example_recall": 0, "example_f1": 0}),
    ],
)
def test_example_based_empty_sets(truth, pred, expected):
    for name in EXAMPLE_BASED:
        assert getattr(M, name)(truth, pred) == expected[name], name


def test_micro_and_macro_empty_conventions():
    zeros = np.zeros((3, 2), dtype=int)
    for name in ["micro_precision", "micro_recall", "micro_f1",
                 "macro_precision", "macro_recall", "macro_f1"]:
        assert getattr(M, name)(zeros, zeros) == 1.0, name
    # label 1 never true and never predicted -> 1; label 0 perfect -> 1
    truth = np.array([[1, 0], [0, 0]])
    assert M.macro_f1(truth, truth) == 1.0
    # label 1 predicted but never true: precision 0, recall 0 (tp + fn == 0)
    pred = np.array([[1, 1], [0, 0]])
    assert M.macro_precision(truth, pred) == 0.5
    assert M.macro_recall(truth, pred) == 0.5
    assert M.macro_f1(truth, pred) == 0.5


def test_ranking_degenerate_instances():
    scores = np.array([[0.1, 0.2], [0.1, 0.2]])
    # all relevant: loss 0 and still averaged in (Mulan, sklearn)
    assert M.ranking_loss([[1, 1], [1, 0]], scores) == 0.5
    # no relevant label: ranking loss 0, coverage 0, one-error 1 (Mulan)
    assert M.ranking_loss([[0, 0], [0, 0]], scores) == 0.0
    assert M.coverage([[0, 0], [0, 0]], scores) == 0.0
    assert M.one_error([[0, 0], [0, 1]], scores) == 0.5
    # average precision skips them; all skipped -> nan
    assert M.average_precision([[0, 0], [1, 0]], scores) == 0.5
    assert math.isnan(M.average_precision([[0, 0], [0, 0]], scores))
    assert M.average_precision([[1, 1]], [[0.3, 0.3]]) == 1.0


def test_constant_scores_count_as_ties_against_the_scorer():
    truth = np.array([[1, 0, 0, 1], [0, 1, 0, 0]])
    flat = np.full(truth.shape, 0.25)
    assert M.ranking_loss(truth, flat) == 1.0
    assert M.one_error(truth, flat) == 1.0
    assert M.coverage(truth, flat) == 3.0
    assert M.average_precision(truth, flat) == pytest.approx((2 / 4 + 1 / 4) / 2)


# --------------------------------------------------------------------------
# Independent loop-based references and sklearn cross-checks
# --------------------------------------------------------------------------
def _reference_ranking(T, S):
    """Literal per-instance loops of the documented definitions."""
    n, q = T.shape
    rl, oe, cov, ap = [], [], [], []
    for i in range(n):
        rel = [lab for lab in range(q) if T[i, lab]]
        irr = [lab for lab in range(q) if not T[i, lab]]

        def rank(lab, i=i):
            return sum(S[i, m] >= S[i, lab] for m in range(q))

        if rel and irr:
            wrong = sum(S[i, a] <= S[i, b] for a in rel for b in irr)
            rl.append(wrong / (len(rel) * len(irr)))
        else:
            rl.append(0.0)
        top = [lab for lab in range(q) if S[i, lab] == max(S[i])]
        oe.append(float(any(lab in irr for lab in top)))
        cov.append(max([rank(lab) for lab in rel], default=1) - 1)
        if rel:
            ap.append(np.mean([sum(rank(m) <= rank(lab) for m in rel) / rank(lab)
                               for lab in rel]))
    return np.mean(rl), np.mean(oe), np.mean(cov), np.mean(ap)


def _random_case(seed, n=60, q=7, decimals=1):
    rng = np.random.default_rng(seed)
    T = (rng.random((n, q)) < 0.35).astype(int)
    S = np.round(rng.random((n, q)), decimals)  # decimals=1 -> many ties
    return T, S


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ranking_matches_loop_reference(seed):
    T, S = _random_case(seed)
    expected = _reference_ranking(T, S)
    got = (M.ranking_loss(T, S), M.one_error(T, S), M.coverage(T, S),
           M.average_precision(T, S))
    assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("decimals", [1, 12])
def test_ranking_matches_sklearn(decimals):
    T, S = _random_case(5, n=200, q=9, decimals=decimals)
    both = (T.sum(axis=1) > 0) & (T.sum(axis=1) < T.shape[1])
    T2, S2 = T[both], S[both]
    # sklearn also counts a tie as a wrongly ordered pair and gives tied labels
    # their worst rank, so these agree with ties too.
    assert M.ranking_loss(T2, S2) == pytest.approx(skm.label_ranking_loss(T2, S2))
    assert M.average_precision(T2, S2) == pytest.approx(
        skm.label_ranking_average_precision_score(T2, S2))
    # sklearn's coverage_error is 0 (so -1 here) without relevant labels; Mulan 0
    some = T.sum(axis=1) > 0
    assert not some.all()
    T3, S3 = T[some], S[some]
    assert M.coverage(T3, S3) == pytest.approx(skm.coverage_error(T3, S3) - 1)
    assert M.normalized_coverage(T3, S3) == pytest.approx(
        (skm.coverage_error(T3, S3) - 1) / T.shape[1])


def test_bipartition_matches_sklearn():
    rng = np.random.default_rng(11)
    T = (rng.random((80, 6)) < 0.4).astype(int)
    P = np.where(rng.random(T.shape) < 0.8, T, 1 - T)
    T[0], P[0] = 1, 1  # every label true and predicted at least once
    assert M.hamming_loss(T, P) == pytest.approx(skm.hamming_loss(T, P))
    assert M.subset_accuracy(T, P) == pytest.approx(skm.accuracy_score(T, P))
    for avg in ("micro", "macro"):
        for name, sk in (("precision", skm.precision_score),
                         ("recall", skm.recall_score), ("f1", skm.f1_score)):
            ours = getattr(M, f"{avg}_{name}")(T, P)
            assert ours == pytest.approx(sk(T, P, average=avg, zero_division=1))
    # example-based measures equal sklearn's "samples" average when no
    # instance has empty truth or empty prediction
    full = (T.sum(axis=1) > 0) & (P.sum(axis=1) > 0)
    T2, P2 = T[full], P[full]
    assert M.example_f1(T2, P2) == pytest.approx(
        skm.f1_score(T2, P2, average="samples"))
    assert M.example_precision(T2, P2) == pytest.approx(
        skm.precision_score(T2, P2, average="samples"))
    assert M.example_recall(T2, P2) == pytest.approx(
        skm.recall_score(T2, P2, average="samples"))
    assert M.accuracy(T2, P2) == pytest.approx(
        skm.jaccard_score(T2, P2, average="samples"))


def test_label_permutation_invariance():
    T, S = _random_case(9)
    P = (S > 0.5).astype(int)
    perm = np.random.default_rng(0).permutation(T.shape[1])
    assert M.evaluate(T, P, S) == pytest.approx(
        M.evaluate(T[:, perm], P[:, perm], S[:, perm]), nan_ok=True)


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------
def test_validation_errors():
    with pytest.raises(ValueError, match="shape"):
        M.hamming_loss(Y_TRUE, Y_PRED[:, :2])
    with pytest.raises(ValueError, match="0/1"):
        M.accuracy(Y_TRUE, Y_PRED * 2)
    with pytest.raises(ValueError, match="2-D"):
        M.micro_f1([1, 0], [1, 0])
    with pytest.raises(ValueError, match="empty"):
        M.macro_f1(np.zeros((0, 3)), np.zeros((0, 3)))
    bad = Y_SCORE.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        M.ranking_loss(Y_TRUE, bad)
    with pytest.raises(ValueError, match="shape"):
        M.coverage(Y_TRUE, Y_SCORE[:2])
    with pytest.raises(ValueError, match="real"):
        M.one_error(Y_TRUE, np.array([["a"] * 3] * 4))


@pytest.mark.parametrize("seed", [0, 1])
def test_evaluate_equals_each_measure_exactly(seed):
    """evaluate ranks the scores once for the five ranking measures; each
    value must still be bit-for-bit the one its own function computes (the
    scores below have many ties, the instances empty and full label sets)."""
    rng = np.random.default_rng(seed)
    T = rng.random((300, 40)) < 0.2
    T[0] = False
    T[1] = True
    P = rng.random((300, 40)) < 0.3
    S = rng.integers(0, 6, size=(300, 40)) / 5.0
    out = M.evaluate(T.astype(np.uint8), P.astype(np.int64), S)
    for name in M.METRICS:
        fn = getattr(M, name)
        expected = fn(T, S) if M.METRICS[name]["needs_score"] else fn(T, P)
        assert out[name] == expected, name


@pytest.mark.parametrize("bad", [np.array([[0, 2]]), np.array([[-1, 0]]),
                                 np.array([[0.5, 1.0]]), np.array([[True, 3]])])
def test_non_binary_labels_rejected_for_every_dtype(bad):
    with pytest.raises(ValueError, match="Y_pred must contain only 0/1"):
        M.hamming_loss(np.zeros((1, 2), dtype=int), bad)
    assert M.hamming_loss(np.zeros((1, 2), dtype=np.uint8),
                          np.array([[0.0, 1.0]])) == 0.5
