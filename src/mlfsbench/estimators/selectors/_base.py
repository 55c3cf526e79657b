"""Base class shared by every multi-label feature selector.

A selector is a scikit-learn estimator: ``__init__`` stores keyword-only
parameters, ``fit(X, Y)`` sets ``scores_`` (higher is better) and ``ranking_``
(feature indices, best first) and returns ``self``; ``get_support`` and
``transform`` come from :class:`sklearn.feature_selection.SelectorMixin`.

Subclasses implement :meth:`_fit` and return per-feature scores (ranking
selectors) or ``(scores, ranking)`` (greedy selectors whose order is not the
order of a score). Ties in scores are broken by the lower feature index
(stable sort), so a ranking is deterministic.

Class attribute ``input_kind`` tells the pipeline what ``X`` must be:
``"discrete"`` (non-negative integer codes, produced by the discretize stage)
or ``"continuous"``. :meth:`BaseMultiLabelSelector.fit` validates discrete
input once (:func:`check_discrete_features`), so ``_fit`` of a discrete
selector receives checked codes.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.information.entropy import check_codes


def rank_scores(scores: np.ndarray) -> np.ndarray:
    """Feature indices by decreasing score; ties keep the lower index first.

    >>> rank_scores(np.array([0.1, 0.5, 0.5, 0.0])).tolist()
    [1, 2, 0, 3]
    """
    scores = np.asarray(scores, dtype=float)
    keyed = np.where(np.isnan(scores), -np.inf, scores)
    return np.argsort(-keyed, kind="mergesort")


def check_label_matrix(Y) -> np.ndarray:
    """Validate a binary label matrix (n_samples, n_labels) and return it as uint8."""
    Y = np.asarray(Y.toarray() if hasattr(Y, "toarray") else Y)
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (n_samples, n_labels), got shape {Y.shape}")
    if Y.size and not ((Y == 0) | (Y == 1)).all():  # np.isin: 100x slower here
        raise ValueError("Y must contain only 0/1 values")
    return Y.astype(np.uint8, copy=False)


def check_discrete_features(X):
    """Validate integer codes (n_samples, n_features); dense or CSR.

    >>> check_discrete_features(np.array([[0, 2], [1, 0]])).shape
    (2, 2)
    >>> check_discrete_features(np.array([0, 1]))
    Traceback (most recent call last):
    ...
    ValueError: X must be 2-D (n_samples, n_features), got (2,)
    """
    X = check_codes(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got {X.shape}")
    return X


def binary_columns(X) -> np.ndarray:
    """Mask of the features whose values are all 0 or 1 (dense or sparse).

    >>> binary_columns(np.array([[0, 1, 0.5], [1, 1, 2.0]])).tolist()
    [True, True, False]
    >>> binary_columns(sp.csr_matrix(np.array([[0, 3], [1, 0]]))).tolist()
    [True, False]
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        bad = np.zeros(X.shape[1], dtype=bool)
        bad[X.indices[(X.data != 0) & (X.data != 1)]] = True
        return ~bad
    X = np.asarray(X)
    return ((X == 0) | (X == 1)).all(axis=0)


class BaseMultiLabelSelector(SelectorMixin, BaseEstimator):
    """Common ``fit`` / support logic; see the module docstring.

    Parameters common to all selectors
    ----------------------------------
    n_features_to_select : int or None
        How many top-ranked features ``get_support`` keeps (``None``: all).
    """

    input_kind = "discrete"

    def __init__(self, *, n_features_to_select=None, random_state=None):
        self.n_features_to_select = n_features_to_select
        self.random_state = random_state

    def _fit(self, X, Y):  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_targets(self, Y) -> np.ndarray:
        """Validate ``Y``: a 0/1 label matrix (overridden for real targets)."""
        return check_label_matrix(Y)

    def fit(self, X, Y):
        """Score and rank the features of ``X`` against labels ``Y``."""
        Y = self._check_targets(Y)
        if self.input_kind == "discrete":
            X = check_discrete_features(X)
        if X.shape[0] != Y.shape[0]:
            raise ValueError(
                f"X has {X.shape[0]} samples but Y has {Y.shape[0]}"
            )
        self.n_features_in_ = X.shape[1]
        out = self._fit(X, Y)
        if isinstance(out, tuple):
            scores, ranking = out
        else:
            scores, ranking = out, rank_scores(out)
        self.scores_ = np.asarray(scores, dtype=float)
        self.ranking_ = np.asarray(ranking, dtype=np.intp)
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "ranking_")
        k = self.n_features_to_select
        k = len(self.ranking_) if k is None else min(int(k), len(self.ranking_))
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.ranking_[:k]] = True
        return mask
