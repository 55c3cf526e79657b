"""ML-kNN: multi-label k-nearest neighbours with Bayesian inference.

Reference: M.-L. Zhang and Z.-H. Zhou, "ML-KNN: A lazy learning approach to
multi-label learning", *Pattern Recognition* 40(7):2038-2048, 2007 (Fig. 1 gives
the algorithm; Eqs. (3)-(5) the estimates implemented below).

For a label ``l`` let ``H1_l`` be "the instance has label ``l``", ``H0_l`` its
negation and ``E_j`` "exactly ``j`` of the ``k`` nearest neighbours have label
``l``". With smoothing ``s`` (Laplace when ``s = 1``), ``n`` training instances
and ``y_il`` their 0/1 labels:

- prior (Fig. 1, steps 1-2): ``P(H1_l) = (s + sum_i y_il) / (2 s + n)``;
- every training instance counts ``c_il``, the number of its ``k`` nearest
  *other* training instances having label ``l`` (leave-one-out; Fig. 1, step 6);
- ``kappa1[j, l]`` (``kappa0[j, l]``) is the number of training instances with
  (without) label ``l`` whose count ``c_il`` is ``j``;
- likelihoods (steps 7-13):
  ``P(E_j | H1_l) = (s + kappa1[j, l]) / (s (k + 1) + sum_j kappa1[j, l])``, and
  likewise for ``H0_l`` with ``kappa0``;
- a test instance with count ``c`` gets label ``l`` when
  ``P(H1_l) P(E_c | H1_l) > P(H0_l) P(E_c | H0_l)`` (step 16, maximum a
  posteriori) and the confidence ``P(H1_l | E_c)`` (step 17) used for ranking.

Because a decision and a confidence depend only on ``(c, l)``, :meth:`MLkNN.fit`
tabulates both for every ``c`` in ``0..k``; prediction is one neighbour search
and a table look-up.

Conventions (those of Mulan's ``MLkNN``, which the experiments in this field
ran):

- Features are min-max scaled with the training part's minimum and range when
  ``scale=True`` (Weka's ``EuclideanDistance`` normalisation); a feature that is
  constant in training contributes 0; test data uses the training minimum and
  range, without clipping. Distances are Euclidean.
- An exact tie ``P(H1)P(E|H1) == P(H0)P(E|H0)`` is decided in exact rational
  arithmetic (the estimates are ratios of counts and ``s``) and broken by a fair
  coin drawn from ``check_random_state(random_state)``, created afresh at each
  :meth:`~MLkNN.predict` call: an integer seed gives the same predictions every
  call; ``None`` draws from NumPy's global generator. The confidence of a tied
  pair is exactly 0.5.
- A training instance is never its own neighbour, even when duplicate rows
  exist: ``k + 1`` neighbours are queried and the instance's own index is
  dropped; when ties among duplicates push the own index out of the ``k + 1``,
  the last (farthest) neighbour is dropped instead.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.neighbors import NearestNeighbors
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from mlfsbench.estimators.registry import register

__all__ = [
    "MLkNN",
    "minmax_scale_factors",
    "apply_minmax_scale",
    "drop_self_neighbours",
    "neighbour_label_counts",
    "count_tables",
    "prior_probabilities",
    "likelihood_tables",
]


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------
def _check_X(X, *, name: str = "X"):
    """Return ``X`` as float64 dense array or CSR matrix; reject NaN/inf."""
    X = check_array(
        X, accept_sparse="csr", dtype=np.float64, ensure_all_finite=False,
        input_name=name,
    )
    values = X.data if sp.issparse(X) else X
    if not np.isfinite(values).all():
        bad = int(np.size(values) - np.isfinite(values).sum())
        raise ValueError(
            f"{name} contains {bad} NaN or infinite value(s); ML-kNN needs "
            "complete numeric features (impute or drop them first)"
        )
    return X


def _check_Y(Y, n_samples: int) -> np.ndarray:
    """Return the 0/1 label matrix ``Y`` as a dense int64 array."""
    Y = np.asarray(Y.toarray() if sp.issparse(Y) else Y)
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (n_samples, n_labels), got shape {Y.shape}")
    if Y.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but Y has {Y.shape[0]}")
    if Y.shape[1] == 0:
        raise ValueError("Y has no labels (0 columns)")
    if not np.isin(Y, (0, 1)).all():
        raise ValueError("Y must contain only 0/1 values")
    return Y.astype(np.int64)


def _check_k(k) -> None:
    """Reject a neighbour count ``k`` that is not an integer >= 1."""
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k!r}")


def _check_scale(scale) -> None:
    """Reject a ``scale`` flag that is not a boolean."""
    if not isinstance(scale, bool | np.bool_):
        raise ValueError(f"scale must be True or False, got {scale!r}")


def _check_n_train(n_samples: int, needed: int, k: int) -> None:
    """Reject a training set smaller than the ``needed`` instances of ``k``-NN."""
    if n_samples < needed:
        raise ValueError(f"k={k} needs at least {needed} training instances, "
                         f"got {n_samples}")


def _check_n_features(X, estimator) -> None:
    """Reject query data whose width differs from the fitted ``estimator``'s."""
    if X.shape[1] != estimator.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features but "
                         f"{type(estimator).__name__} was fitted with "
                         f"{estimator.n_features_in_}")


def _check_params(k, s, scale) -> None:
    _check_k(k)
    if isinstance(s, bool) or not isinstance(s, Real) or not (
        math.isfinite(s) and s > 0
    ):
        raise ValueError(
            f"s must be a finite number > 0 (the smoothing keeps every estimate "
            f"positive), got {s!r}"
        )
    _check_scale(scale)


# --------------------------------------------------------------------------
# Pure building blocks
# --------------------------------------------------------------------------
def minmax_scale_factors(X) -> tuple[np.ndarray, np.ndarray]:
    """Per-feature minimum and inverse range of training features.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix, shape (n_samples, n_features)
        Training features, finite.

    Returns
    -------
    minimum : ndarray, shape (n_features,)
    inv_range : ndarray, shape (n_features,)
        ``1 / (max - min)``; 0 for a constant feature, which therefore
        contributes 0 to every distance (Weka's convention).

    Examples
    --------
    >>> lo, inv = minmax_scale_factors(np.array([[0.0, 5.0], [2.0, 5.0]]))
    >>> lo.tolist(), inv.tolist()
    ([0.0, 5.0], [0.5, 0.0])
    """
    if sp.issparse(X):
        lo = np.asarray(X.min(axis=0).toarray()).ravel().astype(np.float64)
        hi = np.asarray(X.max(axis=0).toarray()).ravel().astype(np.float64)
    else:
        lo = np.asarray(X, dtype=np.float64).min(axis=0)
        hi = np.asarray(X, dtype=np.float64).max(axis=0)
    span = hi - lo
    inv = np.zeros_like(span)
    np.divide(1.0, span, out=inv, where=span > 0)
    return lo, inv


def apply_minmax_scale(X, minimum: np.ndarray, inv_range: np.ndarray):
    """Scale features with training factors from :func:`minmax_scale_factors`.

    Dense input becomes ``(X - minimum) * inv_range``. Sparse input becomes
    ``X * inv_range`` and stays sparse: the shift by the minimum is omitted
    because Euclidean distances do not change under a common translation, so
    the neighbours are the same as with full min-max scaling (and for
    non-negative sparse data, whose minimum is 0, the result *is* min-max
    scaling).

    Examples
    --------
    >>> X = np.array([[1.0, 3.0], [3.0, 3.0]])
    >>> apply_minmax_scale(X, *minmax_scale_factors(X)).tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    >>> S = sp.csr_matrix(X)
    >>> apply_minmax_scale(S, *minmax_scale_factors(S)).toarray().tolist()
    [[0.5, 0.0], [1.5, 0.0]]
    """
    if sp.issparse(X):
        out = sp.csr_matrix(X.multiply(inv_range[np.newaxis, :]), dtype=np.float64)
        out.eliminate_zeros()
        return out
    return (np.asarray(X, dtype=np.float64) - minimum) * inv_range


def drop_self_neighbours(indices: np.ndarray) -> np.ndarray:
    """Remove each training instance from its own ``k + 1`` neighbour list.

    Parameters
    ----------
    indices : ndarray of int, shape (n_samples, k + 1)
        Neighbours of training instance ``i`` (row ``i``), nearest first.

    Returns
    -------
    ndarray of int, shape (n_samples, k)
        Row ``i`` without ``i``; a row not containing ``i`` (possible when more
        than ``k`` duplicates of instance ``i`` tie at distance 0) loses its last
        entry instead.

    Examples
    --------
    >>> drop_self_neighbours(np.array([[0, 2, 1], [0, 1, 2], [0, 1, 3]])).tolist()
    [[2, 1], [0, 2], [0, 1]]
    """
    indices = np.asarray(indices)
    n = indices.shape[0]
    is_self = indices == np.arange(n)[:, np.newaxis]
    is_self[~is_self.any(axis=1), -1] = True
    return indices[~is_self].reshape(n, indices.shape[1] - 1)


def neighbour_label_counts(indices: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """For each query and label, how many of its neighbours have the label.

    Parameters
    ----------
    indices : ndarray of int, shape (n_queries, k)
        Indices of training neighbours.
    Y : ndarray, shape (n_train, n_labels)
        Training 0/1 labels.

    Returns
    -------
    ndarray of int64, shape (n_queries, n_labels)
        Values in ``0..k`` (the membership counting vector of Zhang & Zhou,
        Eq. (1)); computed as a sparse (query x training) adjacency product.

    Examples
    --------
    >>> Y = np.array([[1, 0], [1, 1], [0, 1]])
    >>> neighbour_label_counts(np.array([[0, 1], [1, 2]]), Y).tolist()
    [[2, 1], [1, 2]]
    """
    indices = np.asarray(indices)
    m, k = indices.shape
    adjacency = sp.csr_matrix(
        (np.ones(m * k, dtype=np.int64), indices.ravel(), np.arange(0, m * k + 1, k)),
        shape=(m, Y.shape[0]),
    )
    return np.asarray(adjacency @ np.asarray(Y, dtype=np.int64), dtype=np.int64)


def count_tables(counts: np.ndarray, Y: np.ndarray, k: int):
    """Tables ``kappa1[j, l]`` and ``kappa0[j, l]`` of Zhang & Zhou (Fig. 1).

    ``kappa1[j, l]`` is the number of training instances that have label ``l``
    and exactly ``j`` neighbours with label ``l``; ``kappa0`` the same for
    instances without label ``l``. All labels at once, with one ``bincount``.

    Parameters
    ----------
    counts : ndarray of int, shape (n_train, n_labels)
        Leave-one-out neighbour counts, in ``0..k``.
    Y : ndarray, shape (n_train, n_labels)
        Training 0/1 labels.
    k : int

    Returns
    -------
    kappa1, kappa0 : ndarray of int64, shape (k + 1, n_labels)

    Examples
    --------
    >>> k1, k0 = count_tables(np.array([[2], [1], [1]]), np.array([[1], [1], [0]]), 2)
    >>> k1.ravel().tolist(), k0.ravel().tolist()
    ([0, 1, 1], [0, 1, 0])
    """
    counts = np.asarray(counts, dtype=np.int64)
    q = counts.shape[1]
    cell = (counts * q + np.arange(q)).ravel()
    positive = np.asarray(Y).ravel() == 1
    size = (k + 1) * q
    kappa1 = np.bincount(cell[positive], minlength=size).reshape(k + 1, q)
    kappa0 = np.bincount(cell[~positive], minlength=size).reshape(k + 1, q)
    return kappa1.astype(np.int64), kappa0.astype(np.int64)


def prior_probabilities(Y: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """Smoothed priors ``P(H1_l)`` and ``P(H0_l)`` (Zhang & Zhou, Fig. 1).

    ``P(H1_l) = (s + sum_i y_il) / (2 s + n)``; ``P(H0_l)`` is computed as
    ``(s + n - sum_i y_il) / (2 s + n)`` (equal to ``1 - P(H1_l)``).

    Examples
    --------
    >>> p1, p0 = prior_probabilities(np.array([[1, 0], [1, 0], [0, 0]]), 1.0)
    >>> p1.tolist(), p0.tolist()
    ([0.6, 0.2], [0.4, 0.8])
    """
    Y = np.asarray(Y)
    n = Y.shape[0]
    positives = Y.sum(axis=0)
    return (s + positives) / (2 * s + n), (s + n - positives) / (2 * s + n)


def likelihood_tables(kappa: np.ndarray, s: float) -> np.ndarray:
    """Smoothed ``P(E_j | H_l) = (s + kappa[j, l]) / (s (k+1) + sum_j kappa[j, l])``.

    Examples
    --------
    >>> likelihood_tables(np.array([[0], [1], [1]]), 1.0).ravel().tolist()
    [0.2, 0.4, 0.4]
    """
    kappa = np.asarray(kappa, dtype=np.float64)
    return (s + kappa) / (s * kappa.shape[0] + kappa.sum(axis=0))


def _exact_decisions(n_pos, n_neg, kappa1, kappa0, s: float) -> np.ndarray:
    """Sign of ``P(H1)P(E_j|H1) - P(H0)P(E_j|H0)`` in exact arithmetic, (k+1, q).

    With ``s = a / b`` (the exact value of the float), each side is a product
    of ratios of integers; cross-multiplying leaves integer products that
    Python integers hold exactly, so a tie is a true tie of the estimates.
    """
    a, b = float(s).as_integer_ratio()
    kp1 = kappa1.shape[0]

    def ints(values):
        return np.asarray(values, dtype=np.int64).astype(object)

    n_pos, n_neg = ints(n_pos), ints(n_neg)
    side1 = (a + b * n_pos) * (a + b * ints(kappa1)) * (a * kp1 + b * n_neg)
    side0 = (a + b * n_neg) * (a + b * ints(kappa0)) * (a * kp1 + b * n_pos)
    return (side1 > side0).astype(np.int8) - (side1 < side0).astype(np.int8)


# --------------------------------------------------------------------------
# Scaled neighbour search, shared by the k-NN learners
# --------------------------------------------------------------------------
class _ScaledNeighboursMixin:
    """Optional min-max scaling on the training part and a Euclidean index.

    Used by :class:`MLkNN`, :mod:`~mlfsbench.estimators.classifiers.brknn` and
    :mod:`~mlfsbench.estimators.classifiers.knn_reg`; the estimator has a ``scale``
    parameter and, once fitted, ``n_features_in_``, ``nn_`` and (when
    ``scale``) ``feature_min_`` / ``feature_inv_range_``.
    """

    def _transform(self, X):
        if not self.scale:
            return X
        return apply_minmax_scale(X, self.feature_min_, self.feature_inv_range_)

    def _index_neighbours(self, X, k: int):
        """Learn the scaling of training ``X``, index it; return the scaled ``X``."""
        self.n_features_in_ = X.shape[1]
        if self.scale:
            self.feature_min_, self.feature_inv_range_ = minmax_scale_factors(X)
        Xs = self._transform(X)
        self.nn_ = NearestNeighbors(n_neighbors=int(k), metric="euclidean").fit(Xs)
        return Xs

    def _query_neighbours(self, X, k: int) -> np.ndarray:
        """Indices (n_queries, k) of the training neighbours of checked ``X``."""
        _check_n_features(X, self)
        return self.nn_.kneighbors(
            self._transform(X), n_neighbors=int(k), return_distance=False
        )


# --------------------------------------------------------------------------
# Estimator
# --------------------------------------------------------------------------
@register("classifier", "mlknn")
class MLkNN(_ScaledNeighboursMixin, ClassifierMixin, BaseEstimator):
    """ML-kNN multi-label classifier (Zhang & Zhou, 2007).

    See the module docstring for the estimates, the scaling, the exclusion of
    an instance from its own neighbours and the tie rule.

    Parameters
    ----------
    k : int, default=10
        Number of neighbours (Zhang & Zhou recommend 10).
    s : float, default=1.0
        Smoothing parameter, > 0 (1 is Laplace smoothing).
    scale : bool, default=True
        Min-max scale features on the training part (Mulan/Weka default).
    random_state : int, RandomState or None, default=None
        Seeds the coin that breaks exact ties in :meth:`predict`.

    Attributes
    ----------
    n_features_in_ : int
    n_labels_ : int
    feature_min_, feature_inv_range_ : ndarray, shape (n_features,)
        Scaling factors (only when ``scale``).
    prior_true_, prior_false_ : ndarray, shape (n_labels,)
        ``P(H1_l)`` and ``P(H0_l)``.
    kappa_true_, kappa_false_ : ndarray of int, shape (k + 1, n_labels)
        Count tables ``kappa1[j, l]`` and ``kappa0[j, l]``.
    likelihood_true_, likelihood_false_ : ndarray, shape (k + 1, n_labels)
        ``P(E_j | H1_l)`` and ``P(E_j | H0_l)``.
    confidence_table_ : ndarray, shape (k + 1, n_labels)
        ``P(H1_l | E_j)``.
    decision_table_ : ndarray of int8, shape (k + 1, n_labels)
        +1 (predict the label), -1 (do not) or 0 (exact tie, coin flip).

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [0.2], [1.0], [1.1], [1.2]])
    >>> Y = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1]])
    >>> clf = MLkNN(k=2).fit(X, Y)
    >>> clf.prior_true_.tolist()
    [0.5, 0.5]
    >>> clf.predict(np.array([[0.05], [1.15]])).tolist()
    [[1, 0], [0, 1]]
    >>> clf.predict_proba(np.array([[0.05]])).round(3).tolist()
    [[0.8, 0.2]]
    """

    def __init__(self, *, k=10, s=1.0, scale=True, random_state=None):
        self.k = k
        self.s = s
        self.scale = scale
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.input_tags.sparse = True
        return tags

    # -- helpers -----------------------------------------------------------
    def _query_counts(self, X) -> np.ndarray:
        """Neighbour label counts ``c`` (n_queries, n_labels) for new data."""
        check_is_fitted(self, "decision_table_")
        indices = self._query_neighbours(_check_X(X), self.k)
        return neighbour_label_counts(indices, self._Y)

    # -- API ---------------------------------------------------------------
    def fit(self, X, Y):
        """Estimate priors and likelihood tables (Zhang & Zhou, Fig. 1, 1-13).

        Parameters
        ----------
        X : array-like or scipy.sparse matrix, shape (n_samples, n_features)
        Y : array-like or scipy.sparse matrix, shape (n_samples, n_labels)
            0/1 label matrix.

        Returns
        -------
        self
        """
        _check_params(self.k, self.s, self.scale)
        X = _check_X(X)
        Y = _check_Y(Y, X.shape[0])
        n, q = Y.shape
        k, s = int(self.k), float(self.s)
        if n < k + 1:
            raise ValueError(
                f"k={k} needs at least k + 1 = {k + 1} training instances, got {n}"
            )
        self.n_labels_ = q
        Xs = self._index_neighbours(X, k)
        with_self = self.nn_.kneighbors(Xs, n_neighbors=k + 1, return_distance=False)
        counts = neighbour_label_counts(drop_self_neighbours(with_self), Y)

        self.prior_true_, self.prior_false_ = prior_probabilities(Y, s)
        self.kappa_true_, self.kappa_false_ = count_tables(counts, Y, k)
        self.likelihood_true_ = likelihood_tables(self.kappa_true_, s)
        self.likelihood_false_ = likelihood_tables(self.kappa_false_, s)
        joint_true = self.prior_true_ * self.likelihood_true_
        joint_false = self.prior_false_ * self.likelihood_false_
        n_pos = Y.sum(axis=0)
        self.decision_table_ = _exact_decisions(
            n_pos, n - n_pos, self.kappa_true_, self.kappa_false_, s
        )
        confidence = joint_true / (joint_true + joint_false)
        confidence[self.decision_table_ == 0] = 0.5
        self.confidence_table_ = confidence
        self._Y = Y
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Confidences ``P(H1_l | E_c)`` (Zhang & Zhou, Fig. 1, step 17).

        Returns
        -------
        ndarray, shape (n_samples, n_labels)
            Not calibrated probabilities; used to rank labels.
        """
        counts = self._query_counts(X)
        return np.take_along_axis(self.confidence_table_, counts, axis=0)

    def predict(self, X) -> np.ndarray:
        """Maximum a posteriori label sets (Zhang & Zhou, Fig. 1, step 16).

        Exact ties are broken by a fair coin from
        ``check_random_state(random_state)``.

        Returns
        -------
        ndarray of int64, shape (n_samples, n_labels)
            0/1 predictions.
        """
        counts = self._query_counts(X)
        decision = np.take_along_axis(self.decision_table_, counts, axis=0)
        Y = (decision > 0).astype(np.int64)
        tied = decision == 0
        n_tied = int(tied.sum())
        if n_tied:
            rng = check_random_state(self.random_state)
            Y[tied] = rng.randint(0, 2, size=n_tied)
        return Y
