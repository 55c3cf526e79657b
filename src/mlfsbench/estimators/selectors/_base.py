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
or ``"continuous"``. :meth:`BaseMultiLabelSelector.fit` validates the
parameters against ``_parameter_constraints`` (scikit-learn's machinery; a
subclass extends the dict of its base) and the input once, as
scikit-learn's ``validate_data`` does (array-likes and DataFrames accepted,
``n_features_in_`` and ``feature_names_in_`` set, NaN rejected in continuous
input; discrete input checked by :func:`check_discrete_features`), so
``_fit`` receives a checked array or CSR/CSC matrix and a checked ``Y``
(:func:`mlfsbench.estimators.validation.check_label_matrix`; the constraints
shared with the other estimators are in :mod:`mlfsbench.estimators.validation`).

``fit`` also takes the types of the features (``feature_types``, as the
prepared dataset records them: ``"numeric"``, or ``"binary"``, ``"onehot"``,
``"ordinal"`` for codes of a nominal attribute); they are stored as
``feature_types_`` for the selectors that need them (IG's
``discretization="auto"``). :func:`fit_selector` passes them only to a
selector whose ``fit`` accepts them.
"""

from __future__ import annotations

import inspect

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from mlfsbench.estimators.information.entropy import check_codes
from mlfsbench.estimators.validation import check_label_matrix, positive_count

#: Feature types of a prepared dataset; all but ``"numeric"`` are nominal codes.
NOMINAL_TYPES = ("binary", "onehot", "ordinal")
FEATURE_TYPES = ("numeric", *NOMINAL_TYPES)


def rank_scores(scores: np.ndarray) -> np.ndarray:
    """Feature indices by decreasing score; ties keep the lower index first.

    >>> rank_scores(np.array([0.1, 0.5, 0.5, 0.0])).tolist()
    [1, 2, 0, 3]
    """
    scores = np.asarray(scores, dtype=float)
    keyed = np.where(np.isnan(scores), -np.inf, scores)
    return np.argsort(-keyed, kind="mergesort")


def check_rankable(scores: np.ndarray) -> np.ndarray:
    """``scores`` if none is NaN: a ranking made from scores is their order,
    and a NaN has no place in it (it would rank last, ties in column order,
    as if scored); else a ValueError naming how many and which features.
    Infinities are ordered and kept.

    >>> check_rankable(np.array([0.5, np.inf])).tolist()
    [0.5, inf]
    >>> check_rankable(np.array([0.5, np.nan, np.nan]))
    Traceback (most recent call last):
    ...
    ValueError: 2 of 3 scores are NaN (features 1, 2); the ranking is the order of the scores: give every feature a number, or return (scores, ranking) from _fit when the ranking is not the scores' order
    """  # noqa: E501
    nan = np.flatnonzero(np.isnan(scores))
    if nan.size:
        shown = ", ".join(str(j) for j in nan[:5].tolist())
        more = f" and {nan.size - 5} more" if nan.size > 5 else ""
        raise ValueError(
            f"{nan.size} of {scores.size} scores are NaN (feature"
            f"{'s' if nan.size > 1 else ''} {shown}{more}); the ranking is the "
            f"order of the scores: give every feature a number, or return "
            f"(scores, ranking) from _fit when the ranking is not the scores' "
            f"order")
    return scores


def mean_over_columns(weights: np.ndarray) -> np.ndarray:
    """Row means of per-label (per-target) weights; zeros when there are none.

    Examples
    --------
    >>> mean_over_columns(np.array([[1.0, 3.0], [0.0, 1.0]])).tolist()
    [2.0, 0.5]
    >>> mean_over_columns(np.zeros((2, 0))).tolist()
    [0.0, 0.0]
    """
    if weights.shape[1] == 0:
        return np.zeros(weights.shape[0])
    return weights.mean(axis=1)


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


def check_feature_types(feature_types, n_features: int):
    """Validate per-feature types; ``None`` stays ``None``.

    >>> check_feature_types(["numeric", "binary"], 2).tolist()
    ['numeric', 'binary']
    >>> check_feature_types(["numeric"], 2)
    Traceback (most recent call last):
    ...
    ValueError: feature_types has 1 entries but X has 2 features
    """
    if feature_types is None:
        return None
    types = np.asarray(list(feature_types), dtype=str)
    if types.shape != (n_features,):
        raise ValueError(
            f"feature_types has {types.size} entries but X has {n_features} features"
        )
    unknown = sorted(set(types.tolist()) - set(FEATURE_TYPES))
    if unknown:
        raise ValueError(
            f"unknown feature type(s) {unknown}; expected {list(FEATURE_TYPES)}"
        )
    return types


def fit_selector(selector, X, Y, *, feature_types=None):
    """``selector.fit(X, Y)``, passing ``feature_types`` when ``fit`` takes it.

    Every :class:`BaseMultiLabelSelector` does; a selector from another
    package (registered through an entry point) may not, and then is fitted
    without them.
    """
    if feature_types is not None and (
        "feature_types" in inspect.signature(selector.fit).parameters
    ):
        return selector.fit(X, Y, feature_types=feature_types)
    return selector.fit(X, Y)


class BaseMultiLabelSelector(SelectorMixin, BaseEstimator):
    """Common ``fit`` / support logic; see the module docstring.

    Parameters common to all selectors
    ----------------------------------
    n_features_to_select : int or None
        How many top-ranked features ``get_support`` keeps (``None``: all).
    """

    input_kind = "discrete"

    #: Fitted attributes that the workflow writes to the selection record
    #: (its ``"fitted"`` mapping, :func:`mlfsbench.workflow.folds.selection_record`):
    #: what the selector chose from the data that the ranking does not show,
    #: e.g. the pruning parameter ``p_`` of the kNN-MI selectors.
    record_attributes: tuple[str, ...] = ()

    _parameter_constraints: dict = {
        "n_features_to_select": [positive_count(), None],
        "random_state": ["random_state"],
    }

    def __init__(self, *, n_features_to_select=None, random_state=None):
        self.n_features_to_select = n_features_to_select
        self.random_state = random_state

    def _fit(self, X, Y):  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_targets(self, Y) -> np.ndarray:
        """Validate ``Y``: a 0/1 label matrix (overridden for real targets)."""
        return check_label_matrix(Y)

    def fit(self, X, Y, feature_types=None):
        """Score and rank the features of ``X`` against labels ``Y``.

        Parameters
        ----------
        X : array-like, DataFrame or sparse matrix of shape (n_samples, n_features)
            Integer codes (``input_kind == "discrete"``) or real values.
        Y : array-like of shape (n_samples, n_labels)
            0/1 label matrix (real targets for regression selectors).
        feature_types : sequence of str of length n_features, optional
            Type of each feature (see the module docstring); stored as
            ``feature_types_`` (``None`` when not given).

        Returns
        -------
        self
        """
        self._validate_params()
        if len(np.shape(X)) != 2:
            raise ValueError(
                f"X must be 2-D (n_samples, n_features), got shape {np.shape(X)}"
            )
        discrete = self.input_kind == "discrete"
        X = validate_data(
            self, X, accept_sparse=("csr", "csc"),
            dtype=None if discrete else "numeric",
            ensure_all_finite=not discrete,  # codes: check_codes names NaN
        )
        if discrete:
            X = check_discrete_features(X)
        Y = self._check_targets(Y)
        if X.shape[0] != Y.shape[0]:
            raise ValueError(
                f"X has {X.shape[0]} samples but Y has {Y.shape[0]}"
            )
        self.feature_types_ = check_feature_types(feature_types, X.shape[1])
        out = self._fit(X, Y)
        if isinstance(out, tuple):
            scores, ranking = out
        else:
            scores = np.asarray(out, dtype=float)
            ranking = rank_scores(check_rankable(scores))
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


class ThresholdSelectorMixin:
    """Support by score threshold unless ``n_features_to_select`` is set.

    For a selector with a ``threshold`` parameter (the IG and ReliefF
    selectors of Spolaôr et al. 2013); sets ``feature_reduction_`` (their
    Eq. 10) after ``fit``.
    """

    def _get_support_mask(self):
        check_is_fitted(self, "ranking_")
        if self.n_features_to_select is not None or self.threshold is None:
            return super()._get_support_mask()
        return np.asarray(self.scores_ >= float(self.threshold))

    def fit(self, X, Y, feature_types=None):
        """Score and rank the features; report the feature reduction."""
        super().fit(X, Y, feature_types=feature_types)
        selected = int(self._get_support_mask().sum())
        self.n_selected_ = selected
        self.feature_reduction_ = 100.0 - 100.0 * selected / self.n_features_in_
        return self
