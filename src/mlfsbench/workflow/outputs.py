"""What the pipeline requires of a method's outputs, checked where they enter it.

A selector or classifier may come from another package (an entry point,
``mlfsbench challenge``), so the per-fold functions of
:mod:`mlfsbench.workflow.folds` do not trust what a fitted method returns:

- a selection (:func:`check_selection`, at the select stage): ``ranking_`` a
  1-D array of integer feature indices, each in ``0 .. n_features - 1`` and
  named once (:func:`check_ranking`: a permutation of the features or a
  prefix of one, best first); ``scores_`` one real number per feature, not
  all NaN; the support (``get_support()``) the first ``n_selected`` of the
  ranking; a granular selector's granules and their rankings likewise;
- a ranking's depth (:func:`check_depth`, at the classify stage, which knows
  the grid): as long as the largest K it is asked for;
- a classifier's predictions and scores (:func:`check_predictions`): the
  shape of the test part's label matrix, finite, predictions 0 or 1 (finite
  numbers for a regressor), and one pair per feature subset asked for
  (:func:`check_path`).

Each check raises ValueError naming what it is about (the caller's ``what``:
the method and the fold) and the problem: the expected and the received
shape, the offending index and its positions. Each costs a pass over the
array it checks, O(n_features) for a ranking, nothing beside the fit; no
check changes a value.

A NaN among the scores that *make* a ranking (a selector whose ``_fit``
returns scores only) is refused where the ranking is made,
:class:`mlfsbench.estimators.selectors.BaseMultiLabelSelector`; a selector
that gives its ranking itself may leave the scores of features it did not
score NaN (the greedy selectors do), but not every one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

#: How many offending entries a message lists.
SHOWN = 5


def _listed(values: Sequence[Any]) -> str:
    """The first :data:`SHOWN` of ``values``, comma-separated.

    >>> _listed([1, 2, 3, 4, 5, 6, 7])
    '1, 2, 3, 4, 5 and 2 more'
    """
    text = ", ".join(str(v) for v in values[:SHOWN])
    more = len(values) - SHOWN
    return f"{text} and {more} more" if more > 0 else text


def check_ranking(ranking: Any, n_features: int, *, what: str) -> np.ndarray:
    """``ranking`` as an index array if it is one: 1-D, integers, each in
    ``0 .. n_features - 1`` and named once, not empty; else a ValueError
    naming ``what`` and the problem.

    >>> check_ranking([2, 0, 1], 3, what="ranking").tolist()
    [2, 0, 1]
    >>> check_ranking([2, 0, 2], 3, what="ranking")
    Traceback (most recent call last):
    ...
    ValueError: ranking names feature 2 twice (positions 0 and 2); a ranking names each feature once
    >>> check_ranking([0, -1], 3, what="ranking")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ranking holds a negative index, -1 (position 1); ... would count from the last feature
    """  # noqa: E501
    values = np.asarray(ranking)
    if values.ndim != 1:
        raise ValueError(f"{what} has shape {values.shape}; expected a 1-D array "
                         f"of feature indices, best first, of shape "
                         f"({n_features},) (or a prefix of it)")
    if values.size == 0:
        if n_features == 0:
            return values.astype(np.intp)
        raise ValueError(f"{what} is empty; expected the indices of the "
                         f"{n_features} features, best first")
    if values.dtype == bool or not np.issubdtype(values.dtype, np.integer):
        raise ValueError(f"{what} holds {values.dtype} values; expected integer "
                         f"feature indices (0 .. {n_features - 1}), best first")
    negative = np.flatnonzero(values < 0)
    if negative.size:
        raise ValueError(
            f"{what} holds a negative index, {int(values[negative[0]])} "
            f"(position{'s' if negative.size > 1 else ''} "
            f"{_listed(negative.tolist())}); feature indices run from 0 to "
            f"{n_features - 1}, and a negative one would count from the last "
            f"feature")
    beyond = np.flatnonzero(values >= n_features)
    if beyond.size:
        raise ValueError(
            f"{what} holds index {int(values[beyond[0]])} (position "
            f"{int(beyond[0])}), but there are {n_features} features "
            f"(0 .. {n_features - 1})")
    counts = np.bincount(values, minlength=n_features)
    if counts.max() > 1:
        repeated = np.flatnonzero(counts[values] > 1)
        feature = int(values[repeated[0]])
        places = np.flatnonzero(values == feature).tolist()
        times = "twice" if len(places) == 2 else f"{len(places)} times"
        where = (f"{places[0]} and {places[1]}" if len(places) == 2
                 else _listed(places))
        others = int((counts > 1).sum()) - 1
        also = f"; {others} other feature(s) are named more than once" if others \
            else ""
        raise ValueError(f"{what} names feature {feature} {times} (positions "
                         f"{where}){also}; a ranking names each feature once")
    return values.astype(np.intp, copy=False)


def check_scores(scores: Any, n_features: int, *, what: str) -> np.ndarray:
    """``scores`` as a float array if it holds one real number per feature,
    not all NaN (for more than one feature); else a ValueError.

    >>> check_scores([0.5, np.nan], 2, what="scores_").tolist()
    [0.5, nan]
    >>> check_scores([[0.5, 0.1]], 2, what="scores_")
    Traceback (most recent call last):
    ...
    ValueError: scores_ has shape (1, 2); expected one score per feature, shape (2,)
    """
    try:
        values = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{what} is not an array of numbers ({type(scores).__name__}"
                         f"); expected one score per feature, shape "
                         f"({n_features},)") from None
    if values.shape != (n_features,):
        raise ValueError(f"{what} has shape {values.shape}; expected one score per "
                         f"feature, shape ({n_features},)")
    if n_features > 1 and np.isnan(values).all():
        raise ValueError(f"{what} are all NaN: the selector scored no feature")
    return values


def _support_size(selector, ranking: np.ndarray, n_features: int,
                  what: str) -> int:
    """The size of the selector's support if it is the first features of its
    ranking (the grid point ``"selected"`` classifies on them)."""
    support = np.asarray(selector.get_support())
    if support.shape != (n_features,) or support.dtype != bool:
        raise ValueError(f"{what}: get_support() returned {support.dtype} of shape "
                         f"{support.shape}; expected a boolean mask of shape "
                         f"({n_features},)")
    size = int(np.count_nonzero(support))
    if size > ranking.size:
        raise ValueError(f"{what}: its support holds {size} features but its "
                         f"ranking only {ranking.size}")
    if not support[ranking[:size]].all():
        outside = np.setdiff1d(np.flatnonzero(support), ranking[:size]).tolist()
        raise ValueError(
            f"{what}: its support (get_support(), {size} features) is not the "
            f"first {size} of its ranking (feature(s) {_listed(outside)} are "
            f"selected but ranked lower); the grid point 'selected' classifies "
            f"on the ranking's first n_selected features")
    return size


def check_selection(selector, n_features: int, n_labels: int, *,
                    what: str) -> None:
    """A fitted selector's outputs: ``ranking_`` (:func:`check_ranking`),
    ``scores_`` (:func:`check_scores`), its support (the first of its
    ranking) and, when it has them, ``granules_`` (disjoint sets of label
    indices) and ``granule_rankings_`` (one ranking per granule). Raises
    ValueError starting with ``what`` (the selector and the fold)."""
    for name in ("ranking_", "scores_"):
        if not hasattr(selector, name):
            raise ValueError(f"{what}: the fitted selector has no {name}; a "
                             f"selector's fit sets ranking_ (feature indices, "
                             f"best first) and scores_ (one per feature)")
    check_scores(selector.scores_, n_features, what=f"{what}: its scores (scores_)")
    ranking = check_ranking(selector.ranking_, n_features,
                            what=f"{what}: its ranking (ranking_)")
    _support_size(selector, ranking, n_features, what)
    if not hasattr(selector, "granule_rankings_"):
        return
    granules = list(getattr(selector, "granules_", []))
    rankings = list(selector.granule_rankings_)
    if len(granules) != len(rankings):
        raise ValueError(f"{what}: {len(granules)} granules (granules_) but "
                         f"{len(rankings)} granule rankings (granule_rankings_)")
    seen = np.zeros(n_labels, dtype=bool)
    for i, (labels, granule_ranking) in enumerate(zip(granules, rankings,
                                                      strict=True)):
        labels = check_ranking(labels, n_labels,
                               what=f"{what}: granule {i}'s labels (granules_[{i}])")
        if seen[labels].any():
            twice = labels[seen[labels]].tolist()
            raise ValueError(f"{what}: label(s) {_listed(twice)} are in more than "
                             f"one granule (granules_[{i}] and an earlier one)")
        seen[labels] = True
        check_ranking(granule_ranking, n_features,
                      what=f"{what}: granule {i}'s ranking (granule_rankings_[{i}])")


def check_depth(ranking: np.ndarray, sizes: Sequence[tuple[str, int]], *,
                what: str) -> None:
    """A ranking must be as long as the largest K of the grid points
    ``sizes`` (``(label, K)`` pairs; ``"all"`` is every feature, whatever
    the ranking); else a ValueError naming the K and the ranking's length.

    >>> check_depth(np.arange(3), [("1", 1), ("5", 5)], what="selector 's'")
    Traceback (most recent call last):
    ...
    ValueError: selector 's' ranks 3 features, but the grid asks for K = 5 (points 5); a selector must rank at least as deep as the largest K of the grid
    """  # noqa: E501
    short = [(label, k) for label, k in sizes
             if label != "all" and k > len(ranking)]
    if short:
        deepest = max(k for _, k in short)
        raise ValueError(
            f"{what} ranks {len(ranking)} features, but the grid asks for "
            f"K = {deepest} (points {', '.join(label for label, _ in short)}); a "
            f"selector must rank at least as deep as the largest K of the grid")


def check_path(path: Sequence, n: int, *, what: str,
               unit: str = "feature subset") -> list:
    """One item of ``path`` per ``unit``, as a list: a ``(predictions,
    scores)`` pair per feature subset (``predict_path``), or one such path
    per granule (``unit="granule"``, ``predict_granules``); else a
    ValueError.

    >>> check_path([([[1]], [[0.5]])], 2, what="c")
    Traceback (most recent call last):
    ...
    ValueError: c: predict_path gave 1 result(s) for 2 feature subset(s); expected one per feature subset
    """  # noqa: E501
    source = "predict_path" if unit == "feature subset" else "predict_granules"
    path = list(path)
    if len(path) != n:
        raise ValueError(f"{what}: {source} gave {len(path)} result(s) for {n} "
                         f"{unit}(s); expected one per {unit}")
    if unit == "feature subset":
        for item in path:
            if not isinstance(item, tuple | list) or len(item) != 2:
                raise ValueError(f"{what}: {source} gave {type(item).__name__} "
                                 f"for a feature subset; expected a "
                                 f"(predictions, scores) pair")
    return path


def check_predictions(pred: Any, score: Any, shape: tuple[int, int], *,
                      regression: bool, what: str) -> tuple[np.ndarray, np.ndarray]:
    """A classifier's predictions and scores on the test part, as arrays, if
    both have ``shape`` (test instances, labels), are finite, and the
    predictions are 0 or 1 (a regressor's: finite numbers); else a
    ValueError naming ``what``, the expected and the received shape.

    >>> p, s = check_predictions([[1, 0]], [[0.9, 0.2]], (1, 2), regression=False,
    ...                          what="c")
    >>> p.tolist(), s.tolist()
    ([[1, 0]], [[0.9, 0.2]])
    >>> check_predictions([1, 0], [[0.9, 0.2]], (1, 2), regression=False, what="c")
    Traceback (most recent call last):
    ...
    ValueError: c: predict returned shape (2,); expected (test instances, labels) = (1, 2)
    """  # noqa: E501
    out = []
    for name, values in (("predict", pred), ("predict_proba", score)):
        if hasattr(values, "toarray"):  # a sparse matrix
            values = values.toarray()
        try:
            array = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{what}: {name} returned {type(values).__name__}, "
                             f"not an array of numbers; expected shape (test "
                             f"instances, labels) = {shape}") from None
        if array.shape != shape:
            raise ValueError(f"{what}: {name} returned shape {array.shape}; "
                             f"expected (test instances, labels) = {shape}")
        finite = np.isfinite(array)
        if not finite.all():
            row, col = np.argwhere(~finite)[0].tolist()
            raise ValueError(
                f"{what}: {name} returned {int(array.size - finite.sum())} NaN or "
                f"infinite value(s) (first: test instance {row}, label {col})")
        out.append(np.asarray(values))
    if not regression:
        values = out[0]
        binary = (values == 0) | (values == 1)
        if not binary.all():
            row, col = np.argwhere(~binary)[0].tolist()
            raise ValueError(
                f"{what}: predict returned {values[row, col].item()!r} (test instance "
                f"{row}, label {col}); predictions are 0 or 1")
    return out[0], out[1]
