"""Machinery shared by the forward-greedy information-theoretic selectors.

Every greedy selector of this package follows the same scheme: a criterion
``J(f)`` is evaluated for all candidate features at once, the best candidate is
added to the selected list, and the criterion is *updated* with the terms that
involve the newly selected feature (one vectorized pass over the data per
step, see
:func:`mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`)
instead of being recomputed from scratch.

Conventions common to all of them (documented in each selector):

- ``n_features_to_select`` caps the greedy search; ``None`` means
  :data:`DEFAULT_GREEDY_STEPS` (50, the largest subset size of the
  experiments of Sechidis et al. 2019, K = 1..50) or the number of features if
  smaller.
- The ranking always holds every feature: after the greedy steps the features
  not selected follow by decreasing relevance (the first-order term of the
  criterion), ties by lower index.
- Ties in the criterion (values within ``1e-10`` relative of the maximum, so
  that rounding noise never decides) go to the lower feature index.
- ``scores_`` holds, for each greedily selected feature, the criterion value at
  the step it was selected, and ``NaN`` for the features appended afterwards.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from mlfsbench.estimators.information.entropy import (
    CodeIndicators,
    mutual_information_matrix,
)
from mlfsbench.estimators.selectors._base import (  # noqa: F401 (re-export)
    BaseMultiLabelSelector,
    check_discrete_features,
)

DEFAULT_GREEDY_STEPS = 50
TIE_TOLERANCE = 1e-10


def column(X, j: int) -> np.ndarray:
    """Column ``j`` of dense or sparse codes as a 1-D int64 array."""
    if sp.issparse(X):
        return np.asarray(X[:, [j]].toarray()).ravel().astype(np.int64)
    return np.asarray(X[:, j]).astype(np.int64)


def n_greedy_steps(n_features_to_select, n_features: int) -> int:
    """Number of greedy steps: the cap of the module docstring."""
    if n_features_to_select is None:
        return min(DEFAULT_GREEDY_STEPS, n_features)
    k = int(n_features_to_select)
    if k < 0:
        raise ValueError(f"n_features_to_select must be >= 0, got {k}")
    return min(k, n_features)


def best_candidate(scores: np.ndarray, available: np.ndarray) -> int:
    """Index of the best available score; near-ties go to the lower index."""
    masked = np.where(available, scores, -np.inf)
    top = masked.max()
    tol = TIE_TOLERANCE * max(1.0, abs(top)) if np.isfinite(top) else 0.0
    return int(np.flatnonzero(masked >= top - tol)[0])


def greedy_forward(
    n_features: int,
    n_steps: int,
    criterion: Callable[[np.ndarray, int], np.ndarray],
    update: Callable[[int], np.ndarray],
    *,
    first_scores: np.ndarray | None = None,
    trace: list | None = None,
) -> tuple[list[int], list[float]]:
    """Incremental forward selection.

    Parameters
    ----------
    n_features, n_steps : int
    criterion : callable ``(acc, t) -> J``
        The criterion of every feature given ``acc``, the sum of the
        ``update`` vectors of the ``t`` features selected so far.
    update : callable ``s -> u``
        The terms that selecting feature ``s`` adds to ``acc`` (one vector
        over all features).
    first_scores : array, optional
        Criterion of the first step (default ``criterion(0, 0)``).
    trace : list, optional
        When given, the criterion vector of every step is appended to it
        (used by the tests to check the updates against a recomputation).

    Returns
    -------
    selected : list of int
    step_scores : list of float
        The criterion value of each selected feature at its step.
    """
    available = np.ones(n_features, dtype=bool)
    acc = np.zeros(n_features)
    selected: list[int] = []
    step_scores: list[float] = []
    for t in range(n_steps):
        if t == 0 and first_scores is not None:
            J = np.asarray(first_scores, dtype=float)
        else:
            J = criterion(acc, t)
        if trace is not None:
            trace.append(np.array(J, dtype=float))
        j = best_candidate(J, available)
        selected.append(j)
        step_scores.append(float(J[j]))
        available[j] = False
        if t + 1 < n_steps:
            acc = acc + update(j)
    return selected, step_scores


def complete_ranking(selected, relevance: np.ndarray) -> np.ndarray:
    """``selected`` followed by the other features by decreasing relevance."""
    selected = [int(j) for j in selected]
    rest = np.setdiff1d(np.arange(len(relevance)), selected)
    order = np.argsort(-np.asarray(relevance, dtype=float)[rest], kind="mergesort")
    return np.concatenate([np.asarray(selected, dtype=np.intp), rest[order]])


def selection_scores(n_features: int, selected, step_scores) -> np.ndarray:
    """Per-feature scores: the step criterion of selected features, else NaN."""
    scores = np.full(n_features, np.nan)
    scores[np.asarray(selected, dtype=np.intp)] = step_scores
    return scores


def greedy_outcome(selector, n_features: int, selected, step_scores,
                   relevance: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, ranking)`` of a greedy search; sets ``selector.n_selected_``.

    Scores from :func:`selection_scores`, ranking from
    :func:`complete_ranking` (the selection, then the rest by relevance).
    """
    selector.n_selected_ = len(selected)
    return (selection_scores(n_features, selected, step_scores),
            complete_ranking(selected, relevance))


def label_pair_joint_mi(X, Y, labels=None, *, block: int = 256) -> np.ndarray:
    """``sum_{i<j} I(X_f; (Y_i, Y_j))`` over pairs of ``labels`` for every feature.

    The pairs' joint codes ``2 y_i + y_j`` go through
    :func:`mlfsbench.estimators.information.entropy.mutual_information_matrix`
    ``block`` pairs at a
    time (bounded memory). ``labels`` defaults to all labels.
    """
    labels = np.arange(Y.shape[1]) if labels is None else np.asarray(labels)
    iu, ju = np.triu_indices(len(labels), k=1)
    total = np.zeros(X.shape[1])
    Y = np.asarray(Y, dtype=np.int64)
    for start in range(0, len(iu), block):
        a = labels[iu[start:start + block]]
        b = labels[ju[start:start + block]]
        codes = 2 * Y[:, a] + Y[:, b]
        total += mutual_information_matrix(X, codes).sum(axis=1)
    return total


class RelevanceGreedySelector(BaseMultiLabelSelector):
    """Greedy selector whose first-order term is ``sum_l I(f; l)``.

    The base of AMI, PMU, SCLS
    (:mod:`mlfsbench.estimators.selectors.multivariate_mi`) and MDMR: ``_fit``
    computes the relevance ``relevance_ = sum_l I(f; l)``, asks
    :meth:`_setup` for the ``(criterion, update)`` pair of
    :func:`greedy_forward` and completes the ranking by relevance.
    """

    input_kind = "discrete"

    def _setup(self, X, XI, Y, mi):  # pragma: no cover - abstract
        """Return ``(criterion, update)`` for :func:`greedy_forward`.

        ``XI`` is the :class:`CodeIndicators` of ``X``, built once in
        :meth:`_fit` for the relevance and every step's MI matrices.
        """
        raise NotImplementedError

    def _fit(self, X, Y, trace=None):
        XI = CodeIndicators(X)  # built once for the relevance and every step
        mi = mutual_information_matrix(XI, Y)
        self.relevance_ = mi.sum(axis=1)
        criterion, update = self._setup(X, XI, Y, mi)
        n_steps = n_greedy_steps(self.n_features_to_select, X.shape[1])
        selected, step_scores = greedy_forward(
            X.shape[1], n_steps, criterion, update, trace=trace)
        return greedy_outcome(self, X.shape[1], selected, step_scores,
                              self.relevance_)
