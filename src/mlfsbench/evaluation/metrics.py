"""Multi-label evaluation measures.

Pure functions of ``Y_true`` (n, q) 0/1, ``Y_pred`` (n, q) 0/1 and ``Y_score``
(n, q) real scores where higher means more relevant; vectorised over
instances. Definitions follow Tsoumakas, Katakis & Vlahavas, "Mining multi-label
data" (*Data Mining and Knowledge Discovery Handbook*, 2010) and, for the
ranking measures, Zhang & Zhou, "ML-KNN: A lazy learning approach to multi-label
learning" (*Pattern Recognition* 40(7), 2007, Sec. 4). Where a formula is
undefined, the convention is that of Mulan (``mulan.evaluation.measure``), the
library the reproduced studies evaluated with:

Bipartition measures, with ``tp``, ``fp``, ``fn`` counted per instance
(example-based), per label (macro) or over all pairs (micro):

- precision ``tp / (tp + fp)``, recall ``tp / (tp + fn)``,
  F1 ``2 tp / (2 tp + fp + fn)``; when ``tp + fp + fn = 0`` (empty truth and
  empty prediction) each is 1; otherwise a zero denominator gives 0 (empty
  prediction with non-empty truth: precision 0; empty truth with non-empty
  prediction: recall 0).
- accuracy (Jaccard) ``|T & P| / |T | P|``, 1 when both sets are empty.
- macro measures average the per-label values over **all** labels, with the
  same rule (a label never true and never predicted scores 1). Macro F1 is the
  mean of per-label F1, not the F1 of macro precision and recall.

Ranking measures. Every label takes the *worst* rank of its group of tied
scores: ``rank_l = |{l' : score_l' >= score_l}|`` (1 is the best); ties
therefore count against the scorer, and a label-order-independent value
results (Mulan and Zhang & Zhou's code instead break most ties by label
index: the ``~label-order`` variants of :data:`VARIANTS`):

- ranking loss: fraction of (relevant, irrelevant) pairs with
  ``score_rel <= score_irr`` (Zhang & Zhou's definition: a tie is an error, as
  in scikit-learn's ``label_ranking_loss``); an instance with no relevant or no
  irrelevant label has loss 0 and is averaged in (Mulan, scikit-learn);
- one-error: 1 unless every top-scored label is relevant; an instance with no
  relevant label counts as an error (Mulan);
- coverage: ``max_{l relevant} rank_l - 1`` (Mulan's convention, ranks from 1);
  0 for an instance with no relevant label (Mulan). ``normalized_coverage``
  divides by ``q``;
- average precision: mean over relevant labels of
  ``|{relevant l' : rank_l' <= rank_l}| / rank_l``; instances with no relevant
  label are skipped (Mulan); ``nan`` if every instance is skipped.

With no ties, coverage equals scikit-learn's ``coverage_error - 1`` and average
precision its ``label_ranking_average_precision_score`` (which scores an
instance without relevant labels 1 instead of skipping it). With ties,
scikit-learn's ``label_ranking_loss``, ``coverage_error`` and
``label_ranking_average_precision_score`` all use these worst ranks too.

Scoring variants (:data:`VARIANTS`): two conventions the papers do not state
are computed both ways from the same predictions, under the names
``<measure>~<reading>`` (the classify stage writes them beside the measures;
the claims stage reads them through a scoring reading's ``metrics``
setting):

- ``~label-order`` (ranking loss, one-error, coverage, normalised coverage,
  average precision): Mulan's ranking. ``MultiLabelOutput.ranksFromValues``
  (Mulan 1.3-1.5, unchanged since 1.2; ``mulan/classifier/MultiLabelOutput.java``)
  sorts the
  scores with Weka's ``Utils.stableSort`` (ascending; scores within
  ``Utils.SMALL = 1e-6`` of the first of their run are equal; equal scores
  kept in label order) and gives position ``i`` the rank ``q - i``: every
  label has its own rank, and among tied labels the *later* label ranks
  first. ``RankingLoss`` counts a pair wrong when ``rank_rel > rank_irr``,
  ``OneError`` reads the label of rank 1, ``Coverage`` the deepest relevant
  rank minus 1 and ``AveragePrecision`` ``|{relevant l': rank_l' <= rank_l}|
  / rank_l`` (``mulan/evaluation/loss/RankingLoss.java``, ``OneError.java``,
  ``measure/Coverage.java``, ``measure/AveragePrecision.java``). Zhang &
  Zhou's MATLAB code of ML-kNN (``coverage.m``, ``Average_precision.m``)
  ranks the same way for coverage and average precision (MATLAB's ``sort``
  is stable and ascending, rank ``q - loc + 1``; exact ties only), but its
  ``Ranking_loss.m`` counts ``score_rel <= score_irr`` as wrong (the worst
  ranks above) and its ``One_error.m`` is correct when *any* top-scored
  label is relevant; it also leaves out of ranking loss, one-error and
  average precision the instances whose labels are all relevant or all
  irrelevant. The variants here are Mulan's.
- ``~absent-0`` / ``~absent-skip`` (macro F1): a label never true in the test
  part and never predicted scores 1 in :func:`macro_f1` (Mulan 1.3-1.5,
  ``InformationRetrievalMeasures.fMeasure``: ``tp + fp + fn == 0`` gives 1;
  Mulan 1.2's ``MacroFMeasure`` threw an exception on such a label;
  scikit-learn's ``f1_score(average="macro", zero_division=1)``); it scores
  0 under ``~absent-0`` (scikit-learn's default ``f1_score(average="macro")``
  on indicator matrices, ``zero_division`` 0 with a warning) and is left out
  of the mean under ``~absent-skip`` (scikit-learn with ``labels=`` the
  labels true or predicted somewhere). A label predicted but never true
  scores 0 under all three. Macro precision and recall have the same rule in
  Mulan and here (1 for such a label) and no variants.

>>> Y_true = np.array([[1, 0, 1], [0, 1, 0]])
>>> Y_pred = np.array([[1, 0, 0], [0, 1, 0]])
>>> round(hamming_loss(Y_true, Y_pred), 4)
0.1667
>>> sorted(evaluate(Y_true, Y_pred))[:3]
['accuracy', 'example_f1', 'example_precision']
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = [
    "GREATER_IS_BETTER",
    "MEASURES",
    "METRICS",
    "VARIANTS",
    "evaluate",
    "evaluate_variants",
    "base_metric",
    "hamming_loss",
    "accuracy",
    "subset_accuracy",
    "example_precision",
    "example_recall",
    "example_f1",
    "micro_precision",
    "micro_recall",
    "micro_f1",
    "macro_precision",
    "macro_recall",
    "macro_f1",
    "ranking_loss",
    "coverage",
    "normalized_coverage",
    "one_error",
    "average_precision",
]


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------
def _dense(Y) -> np.ndarray:
    return np.asarray(Y.toarray() if sp.issparse(Y) else Y)


def _check_binary(Y, name: str) -> np.ndarray:
    Y = _dense(Y)
    if Y.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_labels), got {Y.shape}")
    if Y.shape[0] == 0 or Y.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {Y.shape})")
    if Y.dtype == bool:  # already checked (evaluate passes its checked arrays on)
        return Y
    if np.issubdtype(Y.dtype, np.integer):  # two reductions, no temporaries
        binary = Y.min() >= 0 and Y.max() <= 1
    else:
        binary = bool(((Y == 0) | (Y == 1)).all())
    if not binary:
        raise ValueError(f"{name} must contain only 0/1 values")
    return Y.astype(bool)


def _check_pair(Y_true, Y_pred) -> tuple[np.ndarray, np.ndarray]:
    T = _check_binary(Y_true, "Y_true")
    P = _check_binary(Y_pred, "Y_pred")
    if T.shape != P.shape:
        raise ValueError(f"Y_true has shape {T.shape} but Y_pred has {P.shape}")
    return T, P


def _check_scores(Y_true, Y_score) -> tuple[np.ndarray, np.ndarray]:
    T = _check_binary(Y_true, "Y_true")
    S = _dense(Y_score)
    if S.shape != T.shape:
        raise ValueError(f"Y_true has shape {T.shape} but Y_score has {S.shape}")
    if not np.issubdtype(S.dtype, np.number) or np.iscomplexobj(S):
        raise ValueError(f"Y_score must be real numbers, got dtype {S.dtype}")
    S = np.asarray(S, dtype=np.float64)
    if not np.isfinite(S).all():
        raise ValueError("Y_score contains NaN or infinite values")
    return T, S


# --------------------------------------------------------------------------
# Mulan's information-retrieval formulas, vectorised
# --------------------------------------------------------------------------
def _ratio(num, den, all_zero) -> np.ndarray:
    """``num / den``; 0 where ``den == 0``; 1 where ``tp + fp + fn == 0``."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return np.where(all_zero, 1.0, out)


def _precision(tp, fp, fn):
    return _ratio(tp, tp + fp, tp + fp + fn == 0)


def _recall(tp, fp, fn):
    return _ratio(tp, tp + fn, tp + fp + fn == 0)


def _f1(tp, fp, fn):
    return _ratio(2 * tp, 2 * tp + fp + fn, tp + fp + fn == 0)


def _counts(T: np.ndarray, P: np.ndarray, axis):
    """True positives, false positives and false negatives summed over ``axis``."""
    tp = (T & P).sum(axis=axis)
    fp = (~T & P).sum(axis=axis)
    fn = (T & ~P).sum(axis=axis)
    return tp, fp, fn


# --------------------------------------------------------------------------
# Bipartition measures
# --------------------------------------------------------------------------
def hamming_loss(Y_true, Y_pred) -> float:
    """Fraction of misclassified instance-label pairs (lower is better).

    >>> hamming_loss([[1, 0], [0, 0]], [[1, 1], [0, 0]])
    0.25
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean(T != P))


def subset_accuracy(Y_true, Y_pred) -> float:
    """Fraction of instances whose predicted label set is exactly right.

    >>> subset_accuracy([[1, 0], [0, 0]], [[1, 1], [0, 0]])
    0.5
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean((T == P).all(axis=1)))


def accuracy(Y_true, Y_pred) -> float:
    """Example-based (Jaccard) accuracy ``|T & P| / |T | P|``; empty/empty is 1.

    >>> accuracy([[1, 1, 0], [0, 0, 0]], [[1, 0, 1], [0, 0, 0]])
    0.6666666666666666
    """
    T, P = _check_pair(Y_true, Y_pred)
    inter = (T & P).sum(axis=1)
    union = (T | P).sum(axis=1)
    return float(np.mean(_ratio(inter, union, union == 0)))


def example_precision(Y_true, Y_pred) -> float:
    """Example-based precision (Mulan's empty-set rules; see the module docstring).

    >>> example_precision([[1, 1], [1, 0], [0, 0]], [[1, 0], [0, 0], [0, 0]])
    0.6666666666666666
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean(_precision(*_counts(T, P, axis=1))))


def example_recall(Y_true, Y_pred) -> float:
    """Example-based recall (Mulan's empty-set rules; see the module docstring).

    >>> example_recall([[1, 1], [0, 0], [0, 0]], [[1, 0], [1, 0], [0, 0]])
    0.5
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean(_recall(*_counts(T, P, axis=1))))


def example_f1(Y_true, Y_pred) -> float:
    """Example-based F1, the mean of per-instance ``2 tp / (2 tp + fp + fn)``.

    >>> example_f1([[1, 1], [0, 0]], [[1, 0], [0, 0]])
    0.8333333333333333
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean(_f1(*_counts(T, P, axis=1))))


def micro_precision(Y_true, Y_pred) -> float:
    """Precision of the pooled counts over all instance-label pairs.

    >>> micro_precision([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    0.6666666666666666
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(_precision(*_counts(T, P, axis=None)))


def micro_recall(Y_true, Y_pred) -> float:
    """Recall of the pooled counts over all instance-label pairs.

    >>> micro_recall([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    0.6666666666666666
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(_recall(*_counts(T, P, axis=None)))


def micro_f1(Y_true, Y_pred) -> float:
    """F1 of the pooled counts over all instance-label pairs.

    >>> micro_f1([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    0.6666666666666666
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(_f1(*_counts(T, P, axis=None)))


def macro_precision(Y_true, Y_pred) -> float:
    """Mean over labels of per-label precision (never-true, never-predicted: 1).

    >>> macro_precision([[1, 0], [1, 0]], [[1, 0], [0, 0]])
    1.0
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean(_precision(*_counts(T, P, axis=0))))


def macro_recall(Y_true, Y_pred) -> float:
    """Mean over labels of per-label recall (never-true, never-predicted: 1).

    >>> macro_recall([[1, 0], [1, 0]], [[1, 0], [0, 0]])
    0.75
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean(_recall(*_counts(T, P, axis=0))))


def macro_f1(Y_true, Y_pred) -> float:
    """Mean over labels of per-label F1 (never-true, never-predicted: 1).

    >>> round(macro_f1([[1, 0], [1, 0]], [[1, 0], [0, 0]]), 4)
    0.8333
    """
    T, P = _check_pair(Y_true, Y_pred)
    return float(np.mean(_f1(*_counts(T, P, axis=0))))


def _macro_absent(fn, T: np.ndarray, P: np.ndarray, absent: str) -> float:
    """Mean over labels of ``fn(tp, fp, fn)``, a label never true and never
    predicted (``tp + fp + fn == 0``) scoring 0 (``absent="0"``) or left out
    (``absent="skip"``; ``nan`` when every label is)."""
    tp, fp, fn_ = _counts(T, P, axis=0)
    values = fn(tp, fp, fn_)
    empty = tp + fp + fn_ == 0
    if absent == "0":
        return float(np.mean(np.where(empty, 0.0, values)))
    if absent == "skip":
        return float(np.mean(values[~empty])) if (~empty).any() else float("nan")
    raise ValueError(f"unknown absent-label rule {absent!r}")


# --------------------------------------------------------------------------
# Ranking measures
# --------------------------------------------------------------------------
def _worst_ranks(T: np.ndarray, S: np.ndarray):
    """Tie-aware ranks, shape (n, q) each.

    Returns ``rank`` (``|{l' : S[i, l'] >= S[i, l]}|``) and ``relevant_at``
    (``|{relevant l' : S[i, l'] >= S[i, l]}|``): every label takes the last
    position of its tie group in the descending order of scores.
    """
    n, q = S.shape
    order = np.argsort(-S, axis=1, kind="stable")
    s_sorted = np.take_along_axis(S, order, axis=1)
    positions = np.broadcast_to(np.arange(q), (n, q))
    last_of_group = np.ones((n, q), dtype=bool)
    last_of_group[:, :-1] = s_sorted[:, :-1] != s_sorted[:, 1:]
    ends = np.where(last_of_group, positions, q)
    group_end = np.minimum.accumulate(ends[:, ::-1], axis=1)[:, ::-1]
    relevant_cum = np.cumsum(np.take_along_axis(T, order, axis=1), axis=1)
    rank = np.empty((n, q), dtype=np.int64)
    relevant_at = np.empty((n, q), dtype=np.int64)
    np.put_along_axis(rank, order, group_end + 1, axis=1)
    np.put_along_axis(
        relevant_at, order, np.take_along_axis(relevant_cum, group_end, axis=1), axis=1
    )
    return rank, relevant_at


#: Weka's ``Utils.SMALL``: Mulan's ranking treats scores this close as tied.
MULAN_TIE_TOLERANCE = 1e-6


def _label_order_ranks(T: np.ndarray, S: np.ndarray,
                       tol: float = MULAN_TIE_TOLERANCE):
    """Mulan's ranks, shape (n, q) each: a permutation of ``1..q`` per row.

    As ``MultiLabelOutput.ranksFromValues`` with Weka's ``Utils.stableSort``:
    scores sorted ascending; a run of scores within ``tol`` of its first
    (smallest) one is a tie group, kept in label order; position ``i`` of
    that order has rank ``q - i``. Among tied labels the later label
    therefore ranks first. Returns ``rank`` and ``relevant_at`` (relevant
    labels ranked at or above each label), as :func:`_worst_ranks`.
    """
    n, q = S.shape
    asc = np.argsort(S, axis=1, kind="stable")
    s_asc = np.take_along_axis(S, asc, axis=1)
    group = np.zeros((n, q), dtype=np.int64)
    start = s_asc[:, 0].copy()
    g = np.zeros(n, dtype=np.int64)
    for k in range(1, q):  # greedy runs, as Weka's loop over equal elements
        x = s_asc[:, k]
        new = (x != start) & ~(x - start < tol)
        g += new
        start = np.where(new, x, start)
        group[:, k] = g
    order = np.take_along_axis(asc, np.argsort(group * q + asc, axis=1,
                                               kind="stable"), axis=1)
    # order: labels from the worst rank (q) to the best (1)
    best_first = order[:, ::-1]
    rank = np.empty((n, q), dtype=np.int64)
    np.put_along_axis(rank, best_first, np.arange(1, q + 1), axis=1)
    relevant_cum = np.cumsum(np.take_along_axis(T, best_first, axis=1), axis=1)
    relevant_at = np.empty((n, q), dtype=np.int64)
    np.put_along_axis(relevant_at, best_first, relevant_cum, axis=1)
    return rank, relevant_at


def ranking_loss(Y_true, Y_score) -> float:
    """Fraction of (relevant, irrelevant) label pairs ordered wrongly (ties: wrong).

    Zhang & Zhou (2007), Sec. 4, Eq. for *ranking loss*; instances with no
    relevant or no irrelevant label score 0 (Mulan).

    >>> ranking_loss([[1, 0, 0], [1, 1, 0]], [[0.5, 0.9, 0.1], [0.3, 0.3, 0.3]])
    0.75
    """
    T, S = _check_scores(Y_true, Y_score)
    return _ranking_loss(T, *_worst_ranks(T, S))


def _ranking_loss(T, rank, relevant_at) -> float:
    n_rel = T.sum(axis=1)
    n_pairs = n_rel * (T.shape[1] - n_rel)
    wrong = np.where(T, rank - relevant_at, 0).sum(axis=1)
    return float(np.mean(_ratio(wrong, n_pairs, np.zeros_like(n_pairs, bool))))


def one_error(Y_true, Y_score) -> float:
    """Fraction of instances whose top-scored label is irrelevant.

    Zhang & Zhou (2007), Sec. 4. With a tie at the top it is an error unless
    every top-scored label is relevant; an instance without relevant labels is
    an error (Mulan).

    >>> one_error([[1, 0, 0], [0, 1, 0], [1, 0, 0]],
    ...           [[0.9, 0.5, 0.1], [0.9, 0.5, 0.1], [0.7, 0.7, 0.1]])
    0.6666666666666666
    """
    T, S = _check_scores(Y_true, Y_score)
    top = S == S.max(axis=1, keepdims=True)
    return float(np.mean((top & ~T).any(axis=1)))


def coverage(Y_true, Y_score) -> float:
    """Mean of ``max_{l relevant} rank_l - 1``; 0 for no relevant label (Mulan).

    Zhang & Zhou (2007), Sec. 4; tied labels share the worst rank of the tie.

    >>> coverage([[1, 0, 1], [0, 0, 0]], [[0.9, 0.5, 0.1], [0.1, 0.2, 0.3]])
    1.0
    """
    T, S = _check_scores(Y_true, Y_score)
    return _coverage(T, *_worst_ranks(T, S))


def _coverage(T, rank, relevant_at=None) -> float:
    return float(np.mean(np.where(T, rank, 1).max(axis=1) - 1))


def normalized_coverage(Y_true, Y_score) -> float:
    """:func:`coverage` divided by the number of labels ``q``.

    >>> normalized_coverage([[1, 0, 1], [0, 0, 0]], [[0.9, 0.5, 0.1], [0.1, 0.2, 0.3]])
    0.3333333333333333
    """
    T, S = _check_scores(Y_true, Y_score)
    return coverage(T, S) / T.shape[1]


def average_precision(Y_true, Y_score) -> float:
    """Mean over relevant labels of the fraction of relevant labels ranked above.

    Zhang & Zhou (2007), Sec. 4; instances without relevant labels are skipped
    (Mulan); ``nan`` when all are skipped. Tied labels share the worst rank.

    >>> average_precision([[1, 0, 1], [0, 0, 0]], [[0.9, 0.5, 0.1], [0.1, 0.2, 0.3]])
    0.8333333333333333
    """
    T, S = _check_scores(Y_true, Y_score)
    return _average_precision(T, *_worst_ranks(T, S))


def _average_precision(T, rank, relevant_at) -> float:
    n_rel = T.sum(axis=1)
    keep = n_rel > 0
    if not keep.any():
        return float("nan")
    precision_at = np.where(T, relevant_at / rank, 0.0).sum(axis=1)
    return float(np.mean(precision_at[keep] / n_rel[keep]))


# --------------------------------------------------------------------------
# Registry of measures
# --------------------------------------------------------------------------
_BIPARTITION = {
    "hamming_loss": (hamming_loss, False),
    "accuracy": (accuracy, True),
    "subset_accuracy": (subset_accuracy, True),
    "example_precision": (example_precision, True),
    "example_recall": (example_recall, True),
    "example_f1": (example_f1, True),
    "micro_precision": (micro_precision, True),
    "micro_recall": (micro_recall, True),
    "micro_f1": (micro_f1, True),
    "macro_precision": (macro_precision, True),
    "macro_recall": (macro_recall, True),
    "macro_f1": (macro_f1, True),
}
_RANKING = {
    "ranking_loss": (ranking_loss, False),
    "coverage": (coverage, False),
    "normalized_coverage": (normalized_coverage, False),
    "one_error": (one_error, False),
    "average_precision": (average_precision, True),
}

#: Every measure the workflow reports, by name: one table for its direction
#: (``greater_is_better``), whether it needs real scores (``needs_score``)
#: and the task it measures (``task``): ``"classification"`` (multi-label
#: predictions, :func:`evaluate`), ``"regression"`` (multi-target, :func:`rrmse`)
#: or ``"selection"`` (the selected subset itself, any task:
#: :func:`feature_reduction`).
MEASURES: dict[str, dict] = {
    **{
        name: {"greater_is_better": better, "needs_score": False,
               "task": "classification"}
        for name, (_, better) in _BIPARTITION.items()
    },
    **{
        name: {"greater_is_better": better, "needs_score": True,
               "task": "classification"}
        for name, (_, better) in _RANKING.items()
    },
    "rrmse": {"greater_is_better": False, "needs_score": False,
              "task": "regression"},
    "feature_reduction": {"greater_is_better": True, "needs_score": False,
                          "task": "selection"},
}

#: The multi-label classification measures of :func:`evaluate`, in its order.
METRICS: dict[str, dict] = {
    name: info for name, info in MEASURES.items() if info["task"] == "classification"
}

#: Scoring variants of measures (module docstring): name
#: ``<measure>~<reading>`` -> the measure it varies (``of``), the reading
#: (``ties``: ``"label-order"``; ``absent``: ``"0"`` or ``"skip"``), its
#: direction (the measure's) and whether it needs scores. The classify stage
#: writes them beside :data:`METRICS` (:func:`evaluate` with
#: ``variants=True``); the default tables, figures and statistics leave them
#: out (:func:`is_variant`).
VARIANTS: dict[str, dict] = {
    **{f"{name}~label-order": {"of": name, "ties": "label-order"}
       for name in _RANKING},
    "macro_f1~absent-0": {"of": "macro_f1", "absent": "0"},
    "macro_f1~absent-skip": {"of": "macro_f1", "absent": "skip"},
}
for _info in VARIANTS.values():
    _info.update(greater_is_better=MEASURES[_info["of"]]["greater_is_better"],
                 needs_score=MEASURES[_info["of"]]["needs_score"])

#: Direction of every measure of :data:`MEASURES` and of every variant of
#: :data:`VARIANTS` (for ranks and statistics).
GREATER_IS_BETTER: dict[str, bool] = {
    name: info["greater_is_better"]
    for name, info in {**MEASURES, **VARIANTS}.items()
}


def is_variant(metric: str) -> bool:
    """Whether ``metric`` is a scoring variant (:data:`VARIANTS`).

    >>> is_variant("ranking_loss~label-order"), is_variant("ranking_loss")
    (True, False)
    """
    return metric in VARIANTS


def base_metric(metric: str) -> str:
    """The measure a variant varies (a measure is its own base).

    >>> base_metric("macro_f1~absent-skip"), base_metric("coverage")
    ('macro_f1', 'coverage')
    """
    return VARIANTS[metric]["of"] if metric in VARIANTS else metric


def evaluate(Y_true, Y_pred, Y_score=None, *, variants: bool = False
             ) -> dict[str, float]:
    """All measures of :data:`METRICS`; ranking ones only when ``Y_score`` is given.

    ``variants``: also the scoring variants of :data:`VARIANTS`
    (:func:`evaluate_variants`), after the measures.

    Parameters
    ----------
    Y_true, Y_pred : array-like or sparse, shape (n_samples, n_labels), 0/1
    Y_score : array-like, shape (n_samples, n_labels), optional
        Real scores, higher means more relevant (e.g. ``predict_proba``).

    Returns
    -------
    dict of str to float, in the order of :data:`METRICS`.

    Examples
    --------
    >>> out = evaluate([[1, 0], [0, 1]], [[1, 0], [1, 1]], [[0.9, 0.2], [0.6, 0.7]])
    >>> out["hamming_loss"], out["ranking_loss"], len(out) == len(METRICS)
    (0.25, 0.0, True)
    """
    T, P = _check_pair(Y_true, Y_pred)
    out = {name: fn(T, P) for name, (fn, _) in _BIPARTITION.items()}
    S = None
    if Y_score is not None:
        T, S = _check_scores(T, Y_score)
        out.update(_ranking_measures(T, S))
    if variants:
        out.update(_variants(T, P, S))
    return out


def evaluate_variants(Y_true, Y_pred, Y_score=None) -> dict[str, float]:
    """The scoring variants of :data:`VARIANTS`, in its order; ranking ones
    only when ``Y_score`` is given.

    The tied labels 0 and 1 rank in label order, the later first: label 1,
    relevant, is on top (worst ranks: ranking loss 0.5, one-error 1).

    >>> T, P, S = [[0, 1, 0]], [[1, 0, 0]], [[0.5, 0.5, 0.1]]
    >>> out = evaluate_variants(T, P, S)
    >>> out["ranking_loss~label-order"], out["one_error~label-order"]
    (0.0, 0.0)
    >>> ranking_loss(T, S), one_error(T, S)
    (0.5, 1.0)

    Label 2, never true nor predicted, scores 1 in :func:`macro_f1`:

    >>> macro_f1(T, P), out["macro_f1~absent-0"], out["macro_f1~absent-skip"]
    (0.3333333333333333, 0.0, 0.0)
    """
    T, P = _check_pair(Y_true, Y_pred)
    S = None if Y_score is None else _check_scores(T, Y_score)[1]
    return _variants(T, P, S)


def _variants(T: np.ndarray, P: np.ndarray, S: np.ndarray | None
              ) -> dict[str, float]:
    values = {name: _macro_absent(_f1, T, P, info["absent"])
              for name, info in VARIANTS.items() if info["of"] == "macro_f1"}
    if S is not None:
        ranks = _label_order_ranks(T, S)
        cov = _coverage(T, *ranks)
        top_irrelevant = ~T[np.arange(T.shape[0]), np.argmin(ranks[0], axis=1)]
        values.update({
            "ranking_loss~label-order": _ranking_loss(T, *ranks),
            "coverage~label-order": cov,
            "normalized_coverage~label-order": cov / T.shape[1],
            "one_error~label-order": float(np.mean(top_irrelevant)),
            "average_precision~label-order": _average_precision(T, *ranks),
        })
    return {name: values[name] for name in VARIANTS if name in values}


def _ranking_measures(T: np.ndarray, S: np.ndarray) -> dict[str, float]:
    """The measures of ``_RANKING`` from one tie-aware ranking of ``S``.

    The same values as calling each function, which ranks the scores again
    (one sort of an ``(n, q)`` matrix each: on delicious, 983 labels, most of
    a classify job's evaluation time).
    """
    ranks = _worst_ranks(T, S)
    cov = _coverage(T, *ranks)
    values = {
        "ranking_loss": _ranking_loss(T, *ranks),
        "coverage": cov,
        "normalized_coverage": cov / T.shape[1],
        "one_error": one_error(T, S),
        "average_precision": _average_precision(T, *ranks),
    }
    return {name: values[name] for name in _RANKING}


# --------------------------------------------------------------------------
# Multi-target regression and feature reduction (issue 7)
# --------------------------------------------------------------------------
def rrmse(Y_true, Y_pred, train_mean=None, *, per_target: bool = False):
    """Relative root mean squared error, averaged over targets.

    The measure of Sechidis, Spyromitros-Xioufis & Vlahavas (2019), Sec. 5,
    defined as in its reference [28] (Spyromitros-Xioufis et al., *Machine
    Learning* 104, 2016, Sec. 6.2): for target ``t`` with test values
    ``y_it``, predictions ``y_hat_it`` and reference mean ``m_t``::

        RRMSE_t = sqrt( sum_i (y_it - y_hat_it)^2 / sum_i (y_it - m_t)^2 )

    i.e. the model's RMSE divided by the RMSE of always predicting ``m_t``;
    the result is the mean of ``RRMSE_t`` over targets. Below 1 is better than
    the constant predictor.

    Parameters
    ----------
    Y_true, Y_pred : array-like, shape (n_samples, n_targets) or (n_samples,)
        Real test targets and predictions.
    train_mean : array-like, shape (n_targets,), optional
        ``m_t``: the **training** mean of each target, as the definition asks
        (pass it whenever it is known, e.g. ``KNNRegressor.train_mean_``).
        When omitted, the mean of ``Y_true`` (the test part) is used: a
        slightly different, optimistic-for-the-reference variant, since the
        test mean minimises the denominator.
    per_target : bool, default=False
        Return the array of ``RRMSE_t`` instead of their mean.

    Returns
    -------
    float, or ndarray of shape (n_targets,) when ``per_target``.

    Raises
    ------
    ValueError
        On shape mismatch, non-finite values, or a target whose denominator
        is 0 (test values all equal to ``m_t``): its RRMSE is undefined.

    Examples
    --------
    >>> Y = np.array([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]])
    >>> P = np.array([[1.0, 20.0], [2.0, 20.0], [3.0, 20.0]])
    >>> rrmse(Y, P, per_target=True).tolist()
    [0.0, 1.0]
    >>> rrmse(Y, P)
    0.5
    >>> round(rrmse(Y, P, train_mean=[2.0, 25.0]), 4)
    0.4264
    """
    T = np.asarray(Y_true, dtype=np.float64)
    P = np.asarray(Y_pred, dtype=np.float64)
    if T.ndim == 1:
        T = T[:, np.newaxis]
    if P.ndim == 1:
        P = P[:, np.newaxis]
    if T.ndim != 2 or T.shape != P.shape or T.size == 0:
        raise ValueError(f"Y_true {T.shape} and Y_pred {P.shape} must be non-empty "
                         "arrays of the same 2-D shape")
    if not (np.isfinite(T).all() and np.isfinite(P).all()):
        raise ValueError("Y_true and Y_pred must be finite")
    if train_mean is None:
        mean = T.mean(axis=0)
    else:
        mean = np.asarray(train_mean, dtype=np.float64).reshape(-1)
        if mean.shape != (T.shape[1],) or not np.isfinite(mean).all():
            raise ValueError(f"train_mean must hold {T.shape[1]} finite values, "
                             f"got shape {mean.shape}")
    num = ((T - P) ** 2).sum(axis=0)
    den = ((T - mean) ** 2).sum(axis=0)
    if (den == 0).any():
        bad = np.flatnonzero(den == 0).tolist()
        raise ValueError(f"RRMSE undefined for target(s) {bad}: every test value "
                         "equals the reference mean")
    values = np.sqrt(num / den)
    return values if per_target else float(values.mean())


def feature_reduction(n_selected, n_features) -> float:
    """Percentage of features removed: Spolaôr et al. (2013), Eq. (10).

    ``FeatureReduction = 100 - 100 * |X_j| / M`` with ``|X_j|`` the number of
    selected features and ``M`` the number of features of the dataset (the
    paper's sentence after Eq. 10 says "M examples", but ``M`` is the number
    of features in its Sec. 2.1 and Table 2, and only that reading gives its
    0-100 % range). Averaged over folds by the caller when ``n_selected``
    varies.

    Parameters
    ----------
    n_selected : int or array-like of int
        Selected features, ``0 <= n_selected <= n_features``.
    n_features : int
        ``M``, at least 1.

    Returns
    -------
    float, or ndarray for array input.

    Examples
    --------
    >>> feature_reduction(25, 100)
    75.0
    >>> feature_reduction([0, 103], 103).tolist()
    [100.0, 0.0]
    """
    n = np.asarray(n_selected, dtype=np.float64)
    if isinstance(n_features, bool) or not float(n_features).is_integer() or (
        n_features < 1
    ):
        raise ValueError(f"n_features must be an integer >= 1, got {n_features!r}")
    if (n < 0).any() or (n > n_features).any() or not np.isfinite(n).all():
        raise ValueError(f"n_selected must lie in 0..{n_features}, got {n_selected!r}")
    out = 100.0 - 100.0 * n / float(n_features)
    return float(out) if out.ndim == 0 else out


__all__ += ["rrmse", "feature_reduction"]
