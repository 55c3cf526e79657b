"""The input and parameter checks the estimators share.

One set of helpers for the transformations, selectors and classifiers (each
raises ``ValueError`` naming the offending input):

- Parameter constraints for scikit-learn's ``_parameter_constraints``
  (validated by ``BaseEstimator._validate_params``): :class:`Count` (an
  integer interval), :class:`Number` (a real interval), both refusing
  booleans; :func:`positive_count`.
- Label matrices: :func:`check_label_matrix` (0/1, as ``uint8``: the
  transformations and selectors) and :func:`check_labels` (0/1, as
  ``int64``, with the sample count: the classifiers);
  :func:`check_targets` (real-valued targets of a regressor).
- Features: :func:`check_features` (finite float64, dense or CSR: the
  classifiers), :func:`binary_columns` (which features are all 0 or 1),
  :func:`check_n_features` and :func:`check_n_train` (a fitted model's
  width, a training set's size).

The selectors' own checks of integer codes and feature types stay in
:mod:`mlfsbench.estimators.selectors._base`.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_array

__all__ = [
    "Count",
    "Number",
    "binary_columns",
    "check_features",
    "check_label_matrix",
    "check_labels",
    "check_n_features",
    "check_n_train",
    "check_targets",
    "positive_count",
]


# --------------------------------------------------------------------------
# Parameter constraints
# --------------------------------------------------------------------------
class Count(Interval):
    """An ``Interval`` of ``Integral`` that refuses booleans.

    Python counts ``True`` as the integer 1; a count parameter set to
    ``True`` is a mistake, not one feature.

    >>> Count(Integral, 1, None, closed="left").is_satisfied_by(True)
    False
    """

    def is_satisfied_by(self, val):
        return not isinstance(val, bool | np.bool_) and super().is_satisfied_by(val)


class Number(Count):
    """An ``Interval`` of ``Real`` that refuses booleans (and NaN).

    >>> from numbers import Real
    >>> s = Number(Real, 0, np.inf, closed="neither")
    >>> s.is_satisfied_by(0.5), s.is_satisfied_by(True), s.is_satisfied_by(np.inf)
    (True, False, False)
    """


def positive_count():
    """Constraint of a count of at least 1 (``n_features_to_select``, ``k``)."""
    return Count(Integral, 1, None, closed="left")


# --------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------
def check_label_matrix(Y) -> np.ndarray:
    """Validate a binary label matrix (n_samples, n_labels) and return it as uint8.

    >>> check_label_matrix([[1, 0], [0, 1]]).dtype
    dtype('uint8')
    """
    Y = np.asarray(Y.toarray() if hasattr(Y, "toarray") else Y)
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (n_samples, n_labels), got shape {Y.shape}")
    if Y.size and not ((Y == 0) | (Y == 1)).all():  # np.isin: 100x slower here
        raise ValueError("Y must contain only 0/1 values")
    return Y.astype(np.uint8, copy=False)


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


# --------------------------------------------------------------------------
# Features and labels of the classifiers
# --------------------------------------------------------------------------
def check_features(X, *, name: str = "X"):
    """Return ``X`` as a float64 dense array or CSR matrix; reject NaN and inf.

    Examples
    --------
    >>> check_features([[0, 1], [2, 3]]).dtype
    dtype('float64')
    >>> check_features([[0.0, float("nan")]])
    Traceback (most recent call last):
    ...
    ValueError: X contains 1 NaN or infinite value(s); the classifiers need complete numeric features (impute or drop them first)
    """  # noqa: E501
    X = check_array(X, accept_sparse="csr", dtype=np.float64,
                    ensure_all_finite=False, input_name=name)
    values = X.data if sp.issparse(X) else X
    finite = np.isfinite(values)
    if not finite.all():
        bad = int(finite.size - finite.sum())
        raise ValueError(
            f"{name} contains {bad} NaN or infinite value(s); the classifiers "
            "need complete numeric features (impute or drop them first)"
        )
    return X


def check_labels(Y, n_samples: int, *, name: str = "Y") -> np.ndarray:
    """Return the 0/1 label matrix ``Y`` as a dense int64 array.

    Examples
    --------
    >>> check_labels([[1, 0], [0, 1]], 2).tolist()
    [[1, 0], [0, 1]]
    >>> check_labels([1, 0], 2)
    Traceback (most recent call last):
    ...
    ValueError: Y must be 2-D (n_samples, n_labels), got shape (2,)
    """
    if Y is None:
        raise ValueError("this classifier requires y to be passed, but the "
                         f"target y is None ({name}: a 0/1 label matrix)")
    Y = np.asarray(Y.toarray() if sp.issparse(Y) else Y)
    if Y.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_labels), "
                         f"got shape {Y.shape}")
    if Y.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but {name} has {Y.shape[0]}")
    if Y.shape[1] == 0:
        raise ValueError(f"{name} has no labels (0 columns)")
    if Y.dtype == bool:
        binary = True
    elif np.issubdtype(Y.dtype, np.integer):  # two reductions, no temporaries
        binary = Y.size == 0 or (Y.min() >= 0 and Y.max() <= 1)
    else:
        binary = bool(((Y == 0) | (Y == 1)).all())
    if not binary:
        raise ValueError(f"{name} must contain only 0/1 values")
    return Y.astype(np.int64)


def check_targets(Y, n_samples: int, *, name: str = "Y") -> tuple[np.ndarray, bool]:
    """Real-valued targets as a finite float64 ``(n, n_targets)`` array.

    A 1-D ``Y`` (one target, scikit-learn's regressor convention) is accepted;
    the flag returned says so.

    Examples
    --------
    >>> Y, one = check_targets([1.0, 2.5], 2)
    >>> Y.tolist(), one
    ([[1.0], [2.5]], True)
    """
    if Y is None:
        raise ValueError("this regressor requires y to be passed, but the "
                         f"target y is None ({name}: real-valued targets)")
    Y = np.asarray(Y.toarray() if sp.issparse(Y) else Y, dtype=np.float64)
    one = Y.ndim == 1
    Y = check_array(Y[:, np.newaxis] if one else Y, dtype=np.float64,
                    input_name=name)
    if Y.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but {name} has {Y.shape[0]}")
    return Y, one


def check_n_train(n_samples: int, needed: int, k: int) -> None:
    """Reject a training set smaller than the ``needed`` instances of ``k``-NN."""
    if n_samples < needed:
        raise ValueError(f"k={k} needs at least {needed} training instances, "
                         f"got n_samples={n_samples}")


def check_n_features(X, estimator) -> None:
    """Reject query data whose width differs from the fitted ``estimator``'s."""
    if X.shape[1] != estimator.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but "
                         f"{type(estimator).__name__} is expecting "
                         f"{estimator.n_features_in_} features as input")


