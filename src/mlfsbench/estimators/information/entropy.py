r"""Plug-in (maximum-likelihood) entropies and mutual information of discrete data.

Every quantity is in **bits** (logarithms base 2). Probabilities are the
empirical frequencies of the values, the "plug-in" estimator (Cover & Thomas,
*Elements of Information Theory*, 2nd ed., 2006, ch. 2), so for samples of
``x`` and ``y``

.. math::

    H(X) = -\sum_x p(x) \log_2 p(x), \qquad
    I(X;Y) = \sum_{x,y} p(x,y) \log_2 \frac{p(x,y)}{p(x)\,p(y)},

with :math:`p` the relative frequencies in the sample.

Multiply by ``ln 2`` to compare with scikit-learn, whose
:func:`sklearn.metrics.mutual_info_score` returns nats.

The one-variable functions (:func:`entropy`, :func:`joint_entropy`,
:func:`conditional_entropy`, :func:`mutual_information`,
:func:`conditional_mutual_information`) accept any hashable discrete values;
a 2-D argument stands for the joint variable of its columns.

:func:`mutual_information_matrix` computes ``I(X_j; Y_k)`` for every feature
``j`` and label ``k`` at once from integer codes, with a few sparse matrix
products and no Python loop over samples or pairs; it is the building block of
the filter selectors.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

# Dense codes up to this value are counted with one vectorized pass per value
# (:func:`column_entropies`); larger codes through the distinct pairs.
MAX_DENSE_CODE = 32

__all__ = [
    "CodeIndicators",
    "FixedTargets",
    "check_codes",
    "column_entropies",
    "conditional_entropy",
    "conditional_mutual_information",
    "encode_codes",
    "entropy",
    "entropy_from_counts",
    "joint_entropy",
    "mutual_information",
    "mutual_information_matrix",
    "value_indicators",
    "xlog2x",
]


# --------------------------------------------------------------------------
# Encoding and validation
# --------------------------------------------------------------------------


def encode_codes(x) -> np.ndarray:
    """Map the values of a discrete sample to integer codes ``0 .. m-1``.

    Codes follow the sorted order of the distinct values. A 2-D array
    (n_samples, n_variables) is encoded row-wise: each distinct row (a
    combination of values of its columns) gets one code.

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, n_variables)
        Discrete values (numbers, strings, booleans). Floating-point ``NaN``
        is rejected because it is not equal to itself.

    Returns
    -------
    codes : ndarray of shape (n_samples,), dtype intp
        ``codes.max() + 1`` is the number of distinct values.

    Examples
    --------
    >>> encode_codes(["b", "a", "c", "a"]).tolist()
    [1, 0, 2, 0]
    >>> encode_codes([[0, 1], [0, 1], [1, 0]]).tolist()
    [0, 0, 1]
    """
    x = np.asarray(x.toarray() if sp.issparse(x) else x)
    if x.ndim not in (1, 2):
        raise ValueError(f"expected a 1-D or 2-D sample, got shape {x.shape}")
    if x.dtype.kind == "f" and np.isnan(x).any():
        raise ValueError("discrete values must not contain NaN")
    if x.ndim == 2:
        if x.shape[1] == 0:
            return np.zeros(x.shape[0], dtype=np.intp)
        _, codes = np.unique(x, axis=0, return_inverse=True)
    else:
        _, codes = np.unique(x, return_inverse=True)
    return codes.reshape(-1).astype(np.intp, copy=False)


def check_codes(X, name: str = "X"):
    """Validate non-negative integer codes; return them with an integer dtype.

    Accepts a dense array or a scipy sparse matrix (returned as CSR with the
    explicit zeros removed). Integer input keeps its dtype, boolean input
    becomes ``uint8`` and floating-point input, accepted when every value is
    integral (as ARFF readers give nominal attributes), becomes ``int64``.

    Raises
    ------
    ValueError
        If ``X`` holds NaN, non-integral or negative values, or is not 1-D/2-D.

    Examples
    --------
    >>> check_codes(np.array([[0.0, 2.0], [1.0, 0.0]])).dtype.kind
    'i'
    >>> check_codes(np.array([[0.5, 1.0]]))
    Traceback (most recent call last):
    ...
    ValueError: X must hold integer codes; found non-integral value 0.5
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        values = X.data
    else:
        X = np.asarray(X)
        values = X
    if X.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D or 2-D, got shape {X.shape}")
    kind = values.dtype.kind
    if kind == "b":
        values = values.astype(np.uint8)
    elif kind == "f":
        if np.isnan(values).any():
            raise ValueError(f"{name} must hold integer codes; found NaN")
        bad = values != np.round(values)
        if bad.any():
            raise ValueError(
                f"{name} must hold integer codes; found non-integral value "
                f"{values[bad].flat[0].item()!r}"
            )
    elif kind not in "iu":
        raise ValueError(
            f"{name} must hold integer codes; got dtype {values.dtype} "
            "(use encode_codes to map arbitrary values to codes)"
        )
    if values.size and values.min() < 0:
        raise ValueError(
            f"{name} must hold non-negative integer codes; found {values.min().item()}"
        )
    if values.dtype.kind not in "iu":
        values = values.astype(np.int64)
    if sp.issparse(X):
        X = sp.csr_matrix((values, X.indices, X.indptr), shape=X.shape)
        X.eliminate_zeros()
        return X
    return values


# --------------------------------------------------------------------------
# Scalar quantities of one or a few variables
# --------------------------------------------------------------------------


def xlog2x(c: np.ndarray) -> np.ndarray:
    """``c * log2(c)`` with ``0 log 0 = 0`` (elementwise)."""
    c = np.asarray(c, dtype=float)
    out = np.zeros_like(c)
    pos = c > 0
    out[pos] = c[pos] * np.log2(c[pos])
    return out


def entropy_from_counts(counts) -> float:
    """Plug-in entropy in bits of a distribution given by its counts.

    Zero counts contribute nothing (``0 log 0 = 0``).

    Examples
    --------
    >>> entropy_from_counts([5, 5])
    1.0
    >>> entropy_from_counts([4, 0])
    0.0
    """
    counts = np.asarray(counts, dtype=float).ravel()
    if (counts < 0).any():
        raise ValueError("counts must be non-negative")
    n = counts.sum()
    if n == 0:
        return 0.0
    h = np.log2(n) - xlog2x(counts).sum() / n
    return float(max(h, 0.0))


def column_entropies(X) -> np.ndarray:
    """Plug-in entropy in bits of every column of a matrix of integer codes.

    ``H(X_j) = log2 n - sum_v n_v log2 n_v / n`` from the value counts ``n_v``
    of column ``j``: dense input with codes up to 32 is counted with one
    vectorized pass per value, anything else from the distinct (column, value)
    pairs of the non-zero entries plus the implicit zeros.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_columns)
        Non-negative integer codes.

    Returns
    -------
    ndarray of shape (n_columns,)

    Examples
    --------
    >>> column_entropies(np.array([[0, 0, 1], [1, 0, 2], [0, 0, 3], [1, 0, 4]]))
    array([1., 0., 2.])
    """
    X = check_codes(X, "X")
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    n, p = X.shape
    if n == 0 or p == 0:
        return np.zeros(p)
    if not sp.issparse(X):
        top = int(X.max())
        if top <= MAX_DENSE_CODE:
            # one counting pass per value (dense codes are small integers)
            sum_clogc = np.zeros(p)
            seen = np.zeros(p, dtype=np.int64)
            for v in range(1, top + 1):
                c = np.count_nonzero(X == v, axis=0)
                seen += c
                sum_clogc += xlog2x(c)
            sum_clogc += xlog2x(n - seen)
            return np.maximum(np.log2(n) - sum_clogc / n, 0.0)
        X = sp.csc_matrix(X)  # large codes: count the distinct (column, value)
    X = sp.csc_matrix(X)
    col = np.repeat(np.arange(p), np.diff(X.indptr))
    data = X.data.astype(np.int64)
    zeros = n - np.diff(X.indptr)
    # count (column, value) pairs; np.unique keeps memory at O(nnz) whatever
    # the size of the codes
    width = int(data.max()) + 1 if data.size else 1
    pairs, counts = np.unique(col.astype(np.int64) * width + data, return_counts=True)
    pair_col = pairs // width
    sum_clogc = np.bincount(pair_col, weights=xlog2x(counts), minlength=p)
    sum_clogc = sum_clogc.astype(float)  # bincount of nothing is int
    sum_clogc += xlog2x(zeros)
    h = np.log2(n) - sum_clogc / n
    return np.maximum(h, 0.0)


def _joint_codes(variables) -> np.ndarray:
    """One code per distinct combination of the given variables' values."""
    if not variables:
        raise ValueError("at least one variable is required")
    codes = [encode_codes(v) for v in variables]
    n = codes[0].shape[0]
    if any(c.shape[0] != n for c in codes):
        raise ValueError(
            "all variables must have the same number of samples, got "
            f"{[c.shape[0] for c in codes]}"
        )
    if len(codes) == 1:
        return codes[0]
    return encode_codes(np.column_stack(codes))


def entropy(x) -> float:
    """Plug-in Shannon entropy ``H(X)`` in bits.

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, n_variables)
        Discrete sample; 2-D means the joint variable of the columns.

    Examples
    --------
    >>> entropy([0, 0, 1, 1])
    1.0
    >>> entropy(["a", "a", "b", "c"])  # p = (1/2, 1/4, 1/4)
    1.5
    """
    codes = _joint_codes([x])
    return entropy_from_counts(np.bincount(codes))


def joint_entropy(*variables) -> float:
    """Plug-in joint entropy ``H(X_1, ..., X_m)`` in bits.

    Examples
    --------
    >>> joint_entropy([0, 0, 1, 1], [0, 1, 0, 1])
    2.0
    >>> joint_entropy([0, 0, 1, 1], [0, 0, 1, 1])
    1.0
    """
    codes = _joint_codes(list(variables))
    return entropy_from_counts(np.bincount(codes))


def conditional_entropy(x, y) -> float:
    """Conditional entropy ``H(X | Y) = H(X, Y) - H(Y)`` in bits.

    Examples
    --------
    >>> conditional_entropy([0, 0, 1, 1], [0, 1, 0, 1])  # independent
    1.0
    >>> conditional_entropy([0, 0, 1, 1], [5, 5, 7, 7])  # X determined by Y
    0.0
    """
    return max(joint_entropy(x, y) - entropy(y), 0.0)


def mutual_information(x, y) -> float:
    """Plug-in mutual information ``I(X; Y)`` in bits.

    Computed from the contingency table as
    ``sum_xy p(x,y) log2(p(x,y) / (p(x) p(y)))`` (Cover & Thomas 2006, eq. 2.28),
    which equals ``H(X) + H(Y) - H(X, Y)``; tiny negative rounding is clipped
    to 0.

    Examples
    --------
    >>> mutual_information([0, 0, 1, 1], [0, 0, 1, 1])
    1.0
    >>> mutual_information([0, 0, 1, 1], [0, 1, 0, 1])
    0.0
    """
    cx = _joint_codes([x])
    cy = _joint_codes([y])
    if cx.shape[0] != cy.shape[0]:
        raise ValueError(
            f"x and y must have the same length, got {cx.shape[0]} and {cy.shape[0]}"
        )
    n = cx.shape[0]
    if n == 0:
        return 0.0
    my = cy.max() + 1
    joint = np.bincount(cx * my + cy)
    nz = np.flatnonzero(joint)
    nxy = joint[nz].astype(float)
    nx = np.bincount(cx)[nz // my].astype(float)
    ny = np.bincount(cy)[nz % my].astype(float)
    mi = np.sum(nxy * np.log2(n * nxy / (nx * ny))) / n
    return float(max(mi, 0.0))


def conditional_mutual_information(x, y, z) -> float:
    """Conditional mutual information ``I(X; Y | Z)`` in bits.

    Uses ``I(X;Y|Z) = H(X,Z) + H(Y,Z) - H(X,Y,Z) - H(Z)`` (Cover & Thomas 2006,
    eq. 2.60); tiny negative rounding is clipped to 0.

    Examples
    --------
    >>> x = [0, 0, 1, 1]; y = [0, 1, 0, 1]
    >>> conditional_mutual_information(x, y, np.bitwise_xor(x, y))  # XOR
    1.0
    """
    cmi = (
        joint_entropy(x, z)
        + joint_entropy(y, z)
        - joint_entropy(x, y, z)
        - entropy(z)
    )
    return max(cmi, 0.0)


# --------------------------------------------------------------------------
# All feature x label pairs at once
# --------------------------------------------------------------------------


def value_indicators(codes, *, zero: bool = False):
    """Indicator matrix of the (column, value) pairs of integer codes.

    The one contingency-table builder of the package: for a class or weight
    matrix ``W`` (n_samples, n_classes), ``A.T @ W`` holds the (weighted)
    counts of every (feature value, class) cell, which is how
    :func:`mutual_information_matrix`, the χ² of
    :func:`mlfsbench.estimators.selectors.chi2_lp.chi2_scores` and the
    weighted tables of :func:`mlfsbench.estimators.selectors.ela_chi.weighted_tables`
    are all computed.

    Parameters
    ----------
    codes : array-like or sparse matrix of shape (n_samples, n_columns)
        Non-negative integer codes (already checked, e.g. by :func:`check_codes`).
    zero : bool, default=False
        Whether code 0 gets indicator columns too. Without it, a column's
        code-0 counts follow from the totals, which keeps sparse input
        sparse; with it, sparse input is densified.

    Returns
    -------
    A : sparse matrix of shape (n_samples, n_pairs), CSC float64
        ``A[i, c] = 1`` when sample ``i`` has value ``value_of[c]`` in column
        ``column_of[c]``; pairs are sorted by column, then value, and only the
        pairs that occur get a column.
    column_of, value_of : ndarray of shape (n_pairs,), intp

    Examples
    --------
    >>> A, column_of, value_of = value_indicators(np.array([[0, 2], [1, 2]]))
    >>> A.toarray().tolist(), column_of.tolist(), value_of.tolist()
    ([[0.0, 1.0], [1.0, 1.0]], [0, 1], [1, 2])
    >>> value_indicators(np.array([[0, 2], [1, 2]]), zero=True)[2].tolist()
    [0, 1, 2]
    """
    if zero:
        dense = np.asarray(codes.toarray() if sp.issparse(codes) else codes)
        n, p = dense.shape
        rows = np.repeat(np.arange(n, dtype=np.intp), p)
        cols = np.tile(np.arange(p, dtype=np.int64), n)
        vals = dense.ravel().astype(np.int64)
        offset = 0
    else:
        coo = codes.tocoo() if sp.issparse(codes) else sp.coo_matrix(codes)
        n = coo.shape[0]
        keep = coo.data != 0
        rows = coo.row[keep].astype(np.intp)
        cols = coo.col[keep].astype(np.int64)
        vals = coo.data[keep].astype(np.int64)
        offset = 1
    width = int(vals.max()) + 1 - offset if vals.size else 1
    pairs, pair_of_entry = np.unique(cols * width + (vals - offset),
                                     return_inverse=True)
    pair_of_entry = pair_of_entry.reshape(-1)
    A = sp.csc_matrix(
        (np.ones(rows.shape[0]), (rows, pair_of_entry)), shape=(n, pairs.shape[0])
    )
    column_of = (pairs // width).astype(np.intp)
    value_of = (pairs % width + offset).astype(np.intp)
    return A, column_of, value_of


def _indicators(codes):
    """Indicators of the non-zero codes and ``G`` (n_columns, n_pairs) CSR,
    ``G[j, c] = 1`` when ``column_of[c] == j`` (sums within a column's values).
    """
    A, column_of, _ = value_indicators(codes)
    m = column_of.shape[0]
    G = sp.csr_matrix((np.ones(m), (column_of, np.arange(m))),
                      shape=(codes.shape[1], m))
    return A, G


class CodeIndicators:
    """Integer codes with their value indicators, for repeated MI matrices.

    The greedy selectors compute ``mutual_information_matrix(X, z)`` against a
    new column ``z`` at every step, and building the indicators of ``X``
    (one ``np.unique`` over its non-zero codes) was more than half of each
    call (MDMR on enron, 100 steps: 3.9 of 6.8 s). Pass this object instead
    of ``Xd`` to :func:`mutual_information_matrix` and
    :func:`conditional_mutual_information_matrix` to build them once; the
    results are the same numbers.

    Parameters
    ----------
    codes : array-like or sparse matrix of shape (n_samples, n_columns)
        Non-negative integer codes (checked with :func:`check_codes`); the
        indicators are of this state of the data (build a new object after
        changing it).

    Examples
    --------
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> mutual_information_matrix(CodeIndicators(X), np.array([0, 0, 1, 1]))
    array([[1.],
           [0.]])
    """

    def __init__(self, codes):
        codes = check_codes(codes, "Xd")
        if codes.ndim == 1:
            codes = codes.reshape(-1, 1)
        self.shape = codes.shape
        self.A, self.G = _indicators(codes)
        self.counts = np.asarray(self.A.sum(axis=0)).ravel()


def _dense_codes(codes, name: str) -> np.ndarray:
    """Validated codes as a dense 2-D array (a vector is one column)."""
    codes = check_codes(codes, name)
    if sp.issparse(codes):
        codes = codes.toarray()
    codes = np.asarray(codes)
    return codes.reshape(-1, 1) if codes.ndim == 1 else codes


class FixedTargets:
    """Targets of repeated :func:`conditional_mutual_information_matrix` calls.

    A greedy forward selection computes ``I(X_j; T_k | Z)`` for the same
    targets ``T`` and a new ``Z`` (the feature selected last) at every step.
    Pass this object instead of ``Yd`` to build the contingency tables of
    ``(X_j, (T_k, Z))`` from the targets' indicators made once: the counts of
    the cells with ``Z = z`` are one product of the feature indicators and
    the target indicators restricted to the samples with ``Z = z`` (dense in
    single precision, counts below ``2**24`` being exact, when that costs
    less than the sparse product), those of the most frequent ``z`` the
    all-sample totals minus the others', and the merged codes are found by
    counting, not sorting. The tables, hence the results, are the same
    numbers, bit for bit (tested).

    Parameters
    ----------
    codes : array-like of shape (n_samples, n_targets) or (n_samples,)
        Non-negative integer codes (dense).

    Examples
    --------
    >>> x = np.array([[0], [0], [1], [1]]); z = np.array([0, 1, 0, 1])
    >>> T = np.bitwise_xor(x, z[:, None])
    >>> conditional_mutual_information_matrix(x, FixedTargets(T), z)
    array([[1.]])
    """

    def __init__(self, codes):
        codes = _dense_codes(codes, "Yd")
        self.codes = codes
        self.shape = codes.shape
        n, q = codes.shape
        sizes = codes.max(axis=0).astype(np.int64) + 1 if n else np.ones(q, np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.n_values = int(sizes.sum())
        self.column_of_value = np.repeat(np.arange(q), sizes)
        # index of (target k, its value) among all target values, per sample
        self.value_index = codes.astype(np.int64) + self.offsets[None, :]
        self._dense = None  # target indicators (n, n_values), float32
        self._totals = None  # (features, counts over all samples)

    def dense(self) -> np.ndarray:
        if self._dense is None:
            n = self.shape[0]
            B = np.zeros((n, self.n_values), dtype=np.float32)
            B[np.arange(n)[:, None], self.value_index] = 1.0
            self._dense = B
        return self._dense


def _cmi_fixed_targets(Xd: CodeIndicators, Yd: FixedTargets, z):
    """:func:`conditional_mutual_information_matrix` for :class:`FixedTargets`.

    The same operations on the same numbers as the general path
    (``mutual_information_matrix(Xd, stacked)`` with ``stacked`` the codes
    ``T_k * width + z`` of every target, then ``z``), bit for bit, in another
    layout: the counts of the (feature value, stacked value) cells come from
    the per-``z`` products of the indicators, transposed (one row per stacked
    value), and the cell terms are computed and summed a few targets at a
    time, in cache, each sum in the order of the general path's sparse
    products (zero, then the values of a target in increasing order). The
    counts are exact integers in any order and precision. ``None`` when no
    stacked value is non-zero or the dense target indicators would pass
    ``2**26`` entries (then the general path).
    """
    n, q = Yd.shape
    width = int(z.max()) + 1
    # merged value (target value, z) of every sample and target; the
    # stacked code of target k is merged - offset_k * width
    merged = Yd.value_index * width + z[:, None]
    counts = np.bincount(merged.ravel(), minlength=Yd.n_values * width)
    counts[Yd.offsets * width] = 0  # code 0 gets no indicator
    present = np.flatnonzero(counts)  # sorted by target, then code
    z_counts = np.bincount(z, minlength=width)
    z_present = np.flatnonzero(z_counts[1:]) + 1
    m = present.size + z_present.size
    if m == 0:
        return None
    column_of = np.concatenate([Yd.column_of_value[present // width],
                                np.full(z_present.size, q)])
    ny = np.concatenate([counts[present], z_counts[z_present]]).astype(float)
    A, Gx, nx = Xd.A, Xd.G, Xd.counts
    r, p = A.shape[1], Xd.shape[1]
    if n * Yd.n_values > 2**26:  # the dense target indicators too large
        return None
    Bd = Yd.dense()
    if Yd._totals is None or Yd._totals[0] is not Xd:  # once per features
        # dense single-precision products when they cost less than the
        # sparse ones (flops against products, about 100 to 1)
        if 2.0 * r * n * Yd.n_values <= 100.0 * float(A.nnz) * (q + 1):
            Ad = A.toarray().astype(np.float32)
            total = Bd.T @ Ad
        else:
            Ad = A.tocsr()
            total = np.asarray(A.T @ Bd).T.astype(np.float32)
        by_value = np.asarray(Ad.sum(axis=0)).ravel().astype(np.float32)
        Yd._totals = (Xd, Ad, total, by_value)  # counts over all samples
    _, Ad, total, total_by_z = Yd._totals
    order = np.argsort(z, kind="stable")  # samples grouped by z
    cuts = np.searchsorted(z[order], np.arange(width + 1))
    full = np.zeros((width, Yd.n_values, r), dtype=np.float32)
    by_z = np.zeros((width, r), dtype=np.float32)
    largest = int(np.argmax(np.diff(cuts)))
    dense = isinstance(Ad, np.ndarray)
    if dense:
        As, Bs = Ad[order], Bd[order]
    for b in range(width):
        lo, hi = cuts[b], cuts[b + 1]
        if hi == lo or b == largest:
            continue
        if dense:  # counts below 2**24: exact in single precision
            np.matmul(Bs[lo:hi].T, As[lo:hi], out=full[b])
            by_z[b] = As[lo:hi].sum(axis=0)
        else:
            rows = order[lo:hi]
            Ab = Ad[rows]
            full[b] = np.asarray(Ab.T @ Bd[rows]).T
            by_z[b] = np.asarray(Ab.sum(axis=0)).ravel()
    # the most frequent z value's counts: the totals minus the others'
    # (exact integers), one product fewer -- most of the samples when the
    # features are sparse
    np.subtract(total, full.sum(axis=0), out=full[largest])
    np.subtract(total_by_z, by_z.sum(axis=0), out=by_z[largest])
    value_of, z_of = present // width, present % width

    def counts_of(a, b):  # rows a:b of the transposed table, float64
        out = np.empty((b - a, r))
        k = min(b, present.size)
        if a < k:
            out[:k - a] = full[z_of[a:k], value_of[a:k]]
        if b > present.size:
            out[max(a, present.size) - a:] = by_z[
                z_present[max(a, present.size) - present.size:b - present.size]]
        return out

    Nx = Gx @ nx
    nx0 = n - Nx
    # a feature never 0 has only empty x = 0 cells: any positive marginal
    nx0_pos = np.where(nx0 > 0, nx0, 1.0)[None, :]
    bounds = np.searchsorted(column_of, np.arange(q + 2))
    Ny = np.zeros(q + 1)
    by_label = np.zeros((q + 1, r))  # sum_{y>0} n(x, y), transposed
    S1 = np.zeros((q + 1, r))  # x > 0, y > 0 terms summed per target
    S3 = np.zeros((q + 1, p))  # x = 0, y > 0 terms summed per target
    chunk = max(1, 32768 // max(r, p, 1))
    k0 = 0
    while k0 <= q:
        k1 = k0 + 1
        while k1 <= q and bounds[k1 + 1] - bounds[k0] <= chunk:
            k1 += 1
        a, b = bounds[k0], bounds[k1]
        if b > a:
            Ct = counts_of(a, b)
            nyc = ny[a:b, None]
            t1 = _cell_terms_positive(Ct, nyc, nx[None, :], n)
            by_feature = (Gx @ Ct.T).T  # sum_{x>0} n(x, y): exact integers
            t3 = _cell_terms_positive(nyc - by_feature, nyc, nx0_pos, n)
            for k in range(k0, k1):
                lo, hi = bounds[k] - a, bounds[k + 1] - a
                if hi > lo:
                    S1[k] = t1[lo:hi].sum(axis=0)  # row by row, in order
                    S3[k] = t3[lo:hi].sum(axis=0)
                    by_label[k] = Ct[lo:hi].sum(axis=0)
                    Ny[k] = ny[a + lo:a + hi].sum()
        k0 = k1
    ny0 = n - Ny
    C_by_label = by_label.T
    C_both = np.asarray(Gx @ C_by_label)
    total = np.asarray(Gx @ S1.T)
    t = _cell_terms(nx[:, None] - C_by_label, nx[:, None], ny0[None, :], n)
    total += np.asarray(Gx @ t)
    total += S3.T
    n00 = n - Nx[:, None] - Ny[None, :] + C_both
    total += _cell_terms(n00, nx0[:, None], ny0[None, :], n)
    mi = np.maximum(total / n, 0.0)
    return np.maximum(mi[:, :-1] - mi[:, -1:], 0.0)


def _cell_terms(nxy, nx, ny, n: int) -> np.ndarray:
    """``nxy * log2(n * nxy / (nx * ny))`` elementwise, 0 where ``nxy == 0``."""
    nxy = np.asarray(nxy, float)
    with np.errstate(divide="ignore", invalid="ignore"):  # empty cells: 0 * log 0
        out = nxy * np.log2(n * nxy / (np.asarray(nx, float) * np.asarray(ny, float)))
    return np.where(nxy > 0, out, 0.0)



def _cell_terms_positive(nxy, nx, ny, n: int) -> np.ndarray:
    """:func:`_cell_terms` of a float count array, the same numbers, in C
    order, for positive marginals ``nx * ny > 0``: the empty cells' ratio
    ``0`` becomes ``1`` (``0 * log2 1 = 0``) before the logarithm, whose
    special case for 0 slows the vectorized loop; no masked arithmetic."""
    out = np.multiply(n, nxy, order="C")  # C order: summed row by row
    out /= nx * ny
    out += nxy == 0  # r + 0 = r exactly where the cell is not empty
    np.log2(out, out=out)
    out *= nxy
    return out

def mutual_information_matrix(Xd, Yd) -> np.ndarray:
    """``I(X_j; Y_k)`` in bits for every feature ``j`` and label ``k`` at once.

    The contingency tables of all pairs come from one sparse product: with
    ``A`` the indicator matrix of the non-zero codes of the features (one
    column per feature-value pair) and ``B`` that of the labels,
    ``C = A.T @ B`` holds the counts ``n(x, y)`` of all cells with ``x > 0``
    and ``y > 0``. The cells where a code is 0 follow from the marginal counts
    (``n(x, 0) = n(x) - sum_{y>0} n(x, y)`` and so on), and the per-pair sums of
    ``n(x,y) log2(n n(x,y) / (n(x) n(y)))`` (Cover & Thomas 2006, eq. 2.28) are
    grouped by feature and label with two more sparse products. The work is
    proportional to the non-zeros of ``Xd`` times the label indicators, so a
    sparse ``Xd`` (zero is code 0) is never densified.

    Parameters
    ----------
    Xd : array-like, sparse matrix or CodeIndicators, shape (n_samples, n_features)
        Non-negative integer codes (e.g. from
        :mod:`mlfsbench.estimators.discretizers.unsupervised`).
        Codes need not be contiguous; unused codes cost nothing.
        :class:`CodeIndicators` of them skips rebuilding their indicators.
    Yd : array-like or sparse matrix of shape (n_samples, n_labels)
        Non-negative integer codes, typically a 0/1 label matrix.

    Returns
    -------
    mi : ndarray of shape (n_features, n_labels), float64
        Mutual information in bits, clipped below at 0.

    Examples
    --------
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> Y = np.array([[0], [0], [1], [1]])
    >>> mutual_information_matrix(X, Y)
    array([[1.],
           [0.]])
    """
    if not isinstance(Xd, CodeIndicators):
        Xd = CodeIndicators(Xd)
    Yd = check_codes(Yd, "Yd")
    if Yd.ndim == 1:
        Yd = Yd.reshape(-1, 1)
    if Xd.shape[0] != Yd.shape[0]:
        raise ValueError(
            f"Xd has {Xd.shape[0]} samples but Yd has {Yd.shape[0]}"
        )
    n = Xd.shape[0]
    p, q = Xd.shape[1], Yd.shape[1]
    if n == 0:
        return np.zeros((p, q))

    A, Gx, nx = Xd.A, Xd.G, Xd.counts  # (n, r), (p, r), n(x) for x > 0
    B, Gy = _indicators(Yd)  # (n, s), (q, s)
    ny = np.asarray(B.sum(axis=0)).ravel()
    # n(x, y), x > 0, y > 0 (r, s): exact integer counts either way; a dense
    # right-hand side skips the sparse product's two passes when it is narrow
    C = A.T @ B.toarray() if B.shape[1] <= 256 else (A.T @ B).toarray()
    return _mi_from_tables(C, nx, ny, Gx, Gy, n)


def _mi_from_tables(C, nx, ny, Gx, Gy, n: int) -> np.ndarray:
    """The all-pairs MI of :func:`mutual_information_matrix` from its tables:
    ``C`` the counts of the (feature value > 0, label value > 0) cells,
    ``nx``/``ny`` the value counts, ``Gx``/``Gy`` the column of each value."""
    Nx = Gx @ nx  # samples with a non-zero code, per feature   (p,)
    Ny = Gy @ ny  #                                per label    (q,)
    nx0 = n - Nx  # n(x = 0) per feature
    ny0 = n - Ny
    C_by_label = np.asarray((Gy @ C.T).T)  # sum_{y>0} n(x, y)   (r, q)
    C_by_feature = np.asarray(Gx @ C)  # sum_{x>0} n(x, y)      (p, s)
    C_both = np.asarray(Gx @ C_by_label)  # sum_{x>0,y>0}        (p, q)

    # x > 0, y > 0
    t = _cell_terms(C, nx[:, None], ny[None, :], n)
    total = np.asarray(Gx @ (Gy @ t.T).T)
    # x > 0, y = 0 (per label k)
    t = _cell_terms(nx[:, None] - C_by_label, nx[:, None], ny0[None, :], n)
    total += np.asarray(Gx @ t)
    # x = 0, y > 0 (per feature j)
    t = _cell_terms(ny[None, :] - C_by_feature, nx0[:, None], ny[None, :], n)
    total += np.asarray((Gy @ t.T).T)
    # x = 0, y = 0
    n00 = n - Nx[:, None] - Ny[None, :] + C_both
    total += _cell_terms(n00, nx0[:, None], ny0[None, :], n)

    return np.maximum(total / n, 0.0)


# --------------------------------------------------------------------------
# Conditioned on one extra variable (greedy forward selection)
# --------------------------------------------------------------------------


def conditional_mutual_information_matrix(Xd, Yd, z) -> np.ndarray:
    """``I(X_j; Y_k | Z)`` in bits for every feature ``j`` and label ``k`` at once.

    Uses the chain rule ``I(X; Y, Z) = I(X; Z) + I(X; Y | Z)`` (Cover & Thomas
    2006, eq. 2.62): one :func:`mutual_information_matrix` call against the
    columns ``(Y_k, Z)`` (each pair of codes merged into one code) and ``Z``
    itself gives both terms, so the cost is that of one all-pairs MI matrix.
    Plug-in entropies satisfy the chain rule exactly, so the result equals
    :func:`conditional_mutual_information` of every pair up to rounding; tiny
    negative rounding is clipped to 0.

    This is the building block of the greedy selectors: with ``Z`` the
    feature selected last, ``I(X_j Z; Y_k) = I(Z; Y_k) + I(X_j; Y_k | Z)``
    updates a joint-mutual-information criterion for every candidate at once.

    Parameters
    ----------
    Xd : array-like, sparse matrix or CodeIndicators, shape (n_samples, n_features)
        Non-negative integer codes.
    Yd : array-like of shape (n_samples, n_labels) or (n_samples,), or FixedTargets
        Non-negative integer codes (dense). :class:`FixedTargets` of them
        builds the tables faster across calls with the same targets; the
        results are the same numbers.
    z : array-like of shape (n_samples,)
        Non-negative integer codes of the conditioning variable.

    Returns
    -------
    cmi : ndarray of shape (n_features, n_labels), float64

    Examples
    --------
    >>> x = np.array([0, 0, 1, 1]); z = np.array([0, 1, 0, 1])
    >>> y = np.bitwise_xor(x, z)  # y is independent of x, determined by (x, z)
    >>> conditional_mutual_information_matrix(x[:, None], y, z)
    array([[1.]])
    >>> mutual_information_matrix(x[:, None], y)
    array([[0.]])
    """
    z = check_codes(z, "z")
    if sp.issparse(z):
        z = z.toarray()
    z = np.asarray(z).reshape(-1).astype(np.int64)
    if isinstance(Yd, FixedTargets):
        if Yd.shape[0] != z.shape[0]:
            raise ValueError(f"Yd has {Yd.shape[0]} samples but z has {z.shape[0]}")
        if not isinstance(Xd, CodeIndicators):
            Xd = CodeIndicators(Xd)
        if Xd.shape[0] != z.shape[0]:
            raise ValueError(f"Xd has {Xd.shape[0]} samples but Yd has {z.shape[0]}")
        cmi = _cmi_fixed_targets(Xd, Yd, z) if z.size else None
        if cmi is None:  # nothing to count: the general path
            return conditional_mutual_information_matrix(Xd, Yd.codes, z)
        return cmi
    Yd = _dense_codes(Yd, "Yd")
    if Yd.shape[0] != z.shape[0]:
        raise ValueError(f"Yd has {Yd.shape[0]} samples but z has {z.shape[0]}")
    width = int(z.max()) + 1 if z.size else 1
    stacked = np.empty((Yd.shape[0], Yd.shape[1] + 1), dtype=np.int64)
    stacked[:, :-1] = Yd  # widen before multiplying (no uint8 overflow)
    stacked[:, :-1] *= width
    stacked[:, :-1] += z[:, None]
    stacked[:, -1] = z
    mi = mutual_information_matrix(Xd, stacked)
    return np.maximum(mi[:, :-1] - mi[:, -1:], 0.0)
