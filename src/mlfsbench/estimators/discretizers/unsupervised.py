"""Unsupervised discretization of numeric features into small integer codes.

The information-theoretic selectors need discrete features. A discretizer is
fitted on the training part of a split only (cut points come from the training
values) and then applied to any data: values beyond the training range fall
into the outer bins, and a feature constant on the training data gets a single
bin (code 0).

Cut-point convention (Weka's ``weka.filters.unsupervised.attribute.Discretize``):
intervals are closed on the right, ``(-inf, c_1], (c_1, c_2], ..., (c_m, inf)``,
so a value equal to a cut point goes to the *lower* bin; the code of ``v`` is the
number of cut points strictly below ``v``.

- :class:`EqualWidthDiscretizer`: ``bins`` intervals of equal width between the
  training minimum and maximum, cut points ``min + i * (max - min) / bins``,
  computed exactly as Weka does.
- :class:`EqualFrequencyDiscretizer`: about ``n / bins`` training values per
  interval; cut points lie midway between consecutive distinct training values
  (duplicate cut points collapse, so heavily tied features get fewer bins).
- :class:`PassthroughDiscretizer`: data that is already discrete (e.g. nominal
  ARFF attributes) is validated and passed through.

Missing values (``NaN``) are rejected with a ``ValueError``; impute first.
Codes are unsigned integers of the smallest sufficient type (``uint8`` for up
to 256 bins). The output is a dense array by default (it is what the workflow
stores in ``.npz`` files); with ``sparse_output=True`` a sparse input gives a
CSR output when zero maps to code 0 in every feature (always true for
non-negative data such as counts or TF-IDF), and a dense one otherwise. Sparse
input is never densified as a whole when fitting, and when transforming only
to produce dense output.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from mlfsbench.estimators.information.entropy import check_codes

__all__ = [
    "STRATEGIES",
    "EqualFrequencyDiscretizer",
    "EqualWidthDiscretizer",
    "PassthroughDiscretizer",
    "apply_cut_points",
    "equal_frequency_cut_points",
    "equal_width_cut_points",
    "make_discretizer",
]

STRATEGIES = ("equal-width", "equal-frequency", "none")


# --------------------------------------------------------------------------
# Pure functions: cut points and their application
# --------------------------------------------------------------------------


def _check_bins(bins) -> int:
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral) or bins < 2:
        raise ValueError(f"bins must be an integer >= 2, got {bins!r}")
    return int(bins)


def _code_dtype(max_code: int) -> np.dtype:
    """Smallest unsigned integer type holding ``0 .. max_code``."""
    return np.min_scalar_type(max(int(max_code), 0))


def equal_width_cut_points(X, bins: int) -> np.ndarray:
    """Equal-width cut points of each column, padded with ``+inf``.

    Cut point ``i`` (1-based) of a column is ``min + i * (max - min) / bins``,
    as in Weka's ``Discretize`` filter (``calculateCutPointsByEqualWidthBinning``).
    A constant column has no cut point.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Finite training values.
    bins : int
        Number of intervals, >= 2.

    Returns
    -------
    cuts : ndarray of shape (n_features, bins - 1)
        Increasing cut points per row; ``+inf`` where a column has none.

    Examples
    --------
    >>> equal_width_cut_points(np.array([[0.0, 1.0], [10.0, 1.0]]), 5)
    array([[ 2.,  4.,  6.,  8.],
           [inf, inf, inf, inf]])
    """
    bins = _check_bins(bins)
    if sp.issparse(X):
        lo = X.min(axis=0).toarray().ravel().astype(float)
        hi = X.max(axis=0).toarray().ravel().astype(float)
    else:
        lo = np.min(X, axis=0).astype(float)
        hi = np.max(X, axis=0).astype(float)
    width = (hi - lo) / bins
    steps = np.arange(1, bins, dtype=float)
    cuts = lo[:, None] + width[:, None] * steps[None, :]
    cuts[~(width > 0)] = np.inf
    return cuts


def _column_value_counts(values: np.ndarray, n_implicit_zeros: int):
    """Distinct values and their counts, adding ``n_implicit_zeros`` zeros."""
    u, counts = np.unique(values, return_counts=True)
    if n_implicit_zeros:
        at = np.searchsorted(u, 0.0)
        if at < u.size and u[at] == 0.0:
            counts[at] += n_implicit_zeros
        else:
            u = np.insert(u, at, 0.0)
            counts = np.insert(counts, at, n_implicit_zeros)
    return u, counts


def _equal_frequency_column(u: np.ndarray, counts: np.ndarray, bins: int):
    """Cut points of one column from its distinct values and counts.

    Candidate cut points are the midpoints between consecutive distinct values;
    for each ideal boundary ``k * n / bins`` (k = 1 .. bins-1) the candidate
    whose cumulative count is closest is taken (ties: the lower one), then
    duplicates are dropped.
    """
    if u.size < 2:
        return np.empty(0)
    below = np.cumsum(counts)[:-1]  # values <= candidate cut point
    candidates = u[:-1] + (u[1:] - u[:-1]) / 2
    targets = np.arange(1, bins) * (counts.sum() / bins)
    best = np.argmin(np.abs(below[None, :] - targets[:, None]), axis=1)
    return candidates[np.unique(best)]


def equal_frequency_cut_points(X, bins: int) -> np.ndarray:
    """Equal-frequency cut points of each column, padded with ``+inf``.

    Each cut point lies midway between two consecutive distinct training
    values, chosen so that the number of training values at or below it is
    as close as possible to ``k * n / bins`` (k = 1 .. bins-1; ties go to the
    lower candidate). Several ideal boundaries can select the same candidate
    when values are tied; such duplicates are collapsed, so a column gets at
    most ``bins`` and at least one interval (one for a constant column). This
    follows the idea of Weka's equal-frequency binning (cut points between
    distinct values) with a simpler, order-free choice of boundaries; the cut
    points may differ from Weka's greedy procedure.

    Examples
    --------
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]])
    >>> equal_frequency_cut_points(X, 3)
    array([[2.5, 4.5]])
    >>> equal_frequency_cut_points(np.array([[0.0], [0], [0], [0], [1]]), 4)
    array([[0.5, inf, inf]])
    """
    bins = _check_bins(bins)
    n, p = X.shape
    cuts = np.full((p, bins - 1), np.inf)
    if sp.issparse(X):
        X = sp.csc_matrix(X)
        for j in range(p):
            data = X.data[X.indptr[j] : X.indptr[j + 1]]
            u, counts = _column_value_counts(data, n - data.size)
            c = _equal_frequency_column(u, counts, bins)
            cuts[j, : c.size] = c
    else:
        for j in range(p):
            u, counts = np.unique(X[:, j], return_counts=True)
            c = _equal_frequency_column(u, counts, bins)
            cuts[j, : c.size] = c
    return cuts


def apply_cut_points(X, cuts: np.ndarray, *, sparse_output: bool = False):
    """Code of each value: the number of its column's cut points below it.

    A value equal to a cut point goes to the lower bin (Weka's convention).

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    cuts : ndarray of shape (n_features, n_cuts)
        Increasing cut points per row, padded with ``+inf``.
    sparse_output : bool, default=False
        Return a CSR matrix when ``X`` is sparse and zero maps to code 0 in
        every column (otherwise the result is dense).

    Returns
    -------
    codes : ndarray or CSR matrix of unsigned integers

    Examples
    --------
    >>> cuts = np.array([[2.0, 4.0, 6.0, 8.0]])
    >>> X = np.array([[-1.0], [2.0], [2.5], [8.0], [99.0]])
    >>> apply_cut_points(X, cuts).ravel().tolist()
    [0, 0, 1, 3, 4]
    """
    cuts = np.asarray(cuts, dtype=float)
    if cuts.ndim != 2 or cuts.shape[0] != X.shape[1]:
        raise ValueError(
            f"cuts must have shape (n_features={X.shape[1]}, n_cuts), "
            f"got {cuts.shape}"
        )
    dtype = _code_dtype(cuts.shape[1])
    n_used = int(np.isfinite(cuts).sum(axis=1).max()) if cuts.size else 0
    cuts = cuts[:, :n_used]
    if sp.issparse(X):
        zero_code = (cuts < 0).sum(axis=1)
        if sparse_output and not zero_code.any():
            X = sp.csr_matrix(X)
            col_cuts = cuts[X.indices]  # (nnz, n_used)
            data = (X.data[:, None] > col_cuts).sum(axis=1).astype(dtype)
            out = sp.csr_matrix(
                (data, X.indices.copy(), X.indptr.copy()), shape=X.shape
            )
            out.eliminate_zeros()
            return out
        return _apply_dense_blocks(X, cuts, dtype)
    return _apply_dense(np.asarray(X, dtype=float), cuts, dtype)


def _apply_dense(X: np.ndarray, cuts: np.ndarray, dtype) -> np.ndarray:
    codes = np.zeros(X.shape, dtype=dtype)
    for k in range(cuts.shape[1]):
        codes += X > cuts[:, k]
    return codes


def _apply_dense_blocks(X, cuts: np.ndarray, dtype, block: int = 256) -> np.ndarray:
    """Dense codes of a sparse ``X``, densifying ``block`` columns at a time."""
    X = sp.csc_matrix(X)
    codes = np.empty(X.shape, dtype=dtype)
    for start in range(0, X.shape[1], block):
        stop = min(start + block, X.shape[1])
        part = X[:, start:stop].toarray().astype(float, copy=False)
        codes[:, start:stop] = _apply_dense(part, cuts[start:stop], dtype)
    return codes


# --------------------------------------------------------------------------
# Estimators
# --------------------------------------------------------------------------


class _CutPointDiscretizer(TransformerMixin, BaseEstimator):
    """Fit cut points on training data; ``transform`` applies them."""

    def __init__(self, *, bins=5, sparse_output=False):
        self.bins = bins
        self.sparse_output = sparse_output

    def _cut_points(self, X, bins):  # pragma: no cover - abstract
        raise NotImplementedError

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.transformer_tags.preserves_dtype = []  # output: integer codes
        return tags

    def fit(self, X, y=None):
        """Compute the cut points of every feature from the training ``X``.

        ``y`` is ignored (unsupervised). Sets ``cut_points_`` (n_features,
        bins - 1), padded with ``+inf``, and ``n_bins_`` (n_features,).
        """
        bins = _check_bins(self.bins)
        X = validate_data(
            self, X, accept_sparse=("csr", "csc"), dtype=np.float64,
            ensure_all_finite=True, reset=True,
        )
        self.cut_points_ = self._cut_points(X, bins)
        self.n_bins_ = np.isfinite(self.cut_points_).sum(axis=1) + 1
        return self

    def transform(self, X):
        """Integer codes of ``X`` under the fitted cut points."""
        check_is_fitted(self, "cut_points_")
        X = validate_data(
            self, X, accept_sparse=("csr", "csc"), dtype=np.float64,
            ensure_all_finite=True, reset=False,
        )
        return apply_cut_points(X, self.cut_points_, sparse_output=self.sparse_output)


class EqualWidthDiscretizer(_CutPointDiscretizer):
    """Equal-width binning with Weka-compatible cut points.

    Parameters
    ----------
    bins : int, default=5
        Number of intervals (>= 2).
    sparse_output : bool, default=False
        Keep sparse input sparse when zero maps to code 0 in every feature.

    Attributes
    ----------
    cut_points_ : ndarray of shape (n_features, bins - 1)
        ``min + i * (max - min) / bins`` of the training data, ``+inf``
        padded (constant features have none).
    n_bins_ : ndarray of shape (n_features,)
        Intervals per feature (1 for a constant feature).

    Examples
    --------
    >>> d = EqualWidthDiscretizer(bins=4).fit([[0.0], [4.0]])
    >>> d.cut_points_.tolist()
    [[1.0, 2.0, 3.0]]
    >>> d.transform([[-5.0], [1.0], [1.5], [4.0], [9.0]]).ravel().tolist()
    [0, 0, 1, 3, 3]
    """

    def _cut_points(self, X, bins):
        return equal_width_cut_points(X, bins)


class EqualFrequencyDiscretizer(_CutPointDiscretizer):
    """Equal-frequency binning; cut points midway between distinct values.

    See :func:`equal_frequency_cut_points` for how ties are handled.

    Parameters
    ----------
    bins : int, default=5
        Maximum number of intervals (>= 2).
    sparse_output : bool, default=False
        Keep sparse input sparse when zero maps to code 0 in every feature.

    Attributes
    ----------
    cut_points_ : ndarray of shape (n_features, bins - 1)
        ``+inf`` padded cut points.
    n_bins_ : ndarray of shape (n_features,)
        Intervals per feature after collapsing duplicate cut points.

    Examples
    --------
    >>> d = EqualFrequencyDiscretizer(bins=2).fit([[1.0], [2.0], [3.0], [10.0]])
    >>> d.cut_points_.tolist()
    [[2.5]]
    >>> d.transform([[0.0], [2.5], [2.6], [99.0]]).ravel().tolist()
    [0, 0, 1, 1]
    """

    def _cut_points(self, X, bins):
        return equal_frequency_cut_points(X, bins)


class PassthroughDiscretizer(TransformerMixin, BaseEstimator):
    """Pass already discrete data through after checking it holds integer codes.

    Non-negative integral values (integer or float dtype, dense or sparse) are
    returned as unsigned integer codes; anything else raises ``ValueError``.

    Parameters
    ----------
    sparse_output : bool, default=False
        Return sparse input as CSR instead of a dense array.

    Examples
    --------
    >>> PassthroughDiscretizer().fit_transform([[0.0, 1.0], [2.0, 0.0]])
    array([[0, 1],
           [2, 0]], dtype=uint8)
    """

    def __init__(self, *, sparse_output=False):
        self.sparse_output = sparse_output

    def fit(self, X, y=None):
        """Validate ``X`` and record ``n_features_in_``."""
        X = check_codes(X)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {X.shape}")
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X):
        """``X`` as unsigned integer codes (CSR when sparse)."""
        check_is_fitted(self, "n_features_in_")
        X = check_codes(X)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has shape {X.shape}; expected {self.n_features_in_} features"
            )
        values = X.data if sp.issparse(X) else X
        dtype = _code_dtype(values.max() if values.size else 0)
        if sp.issparse(X) and not self.sparse_output:
            return X.toarray().astype(dtype)
        return X.astype(dtype)


def make_discretizer(strategy: str, bins: int = 5, *, sparse_output: bool = False):
    """Build the discretizer named by ``strategy``.

    Parameters
    ----------
    strategy : {"equal-width", "equal-frequency", "none"}
        ``"none"`` validates and passes integer codes through (``bins`` is
        ignored).
    bins : int, default=5
    sparse_output : bool, default=False
        See the module docstring; the default gives dense arrays.

    Examples
    --------
    >>> make_discretizer("equal-width", 3)
    EqualWidthDiscretizer(bins=3)
    >>> make_discretizer("none")
    PassthroughDiscretizer()
    """
    if strategy == "equal-width":
        return EqualWidthDiscretizer(
            bins=_check_bins(bins), sparse_output=sparse_output
        )
    if strategy == "equal-frequency":
        return EqualFrequencyDiscretizer(
            bins=_check_bins(bins), sparse_output=sparse_output
        )
    if strategy == "none":
        return PassthroughDiscretizer(sparse_output=sparse_output)
    raise ValueError(
        f"unknown discretization strategy {strategy!r}; expected one of "
        f"{', '.join(STRATEGIES)}"
    )
