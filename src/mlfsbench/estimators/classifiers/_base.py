"""What the classifiers share: input validation, scaling, the k-NN mixin and the K path.

- Validation (:func:`check_features`, :func:`check_labels`, :func:`check_targets`,
  :func:`check_int`, :func:`check_flag`, :func:`check_n_train`,
  :func:`check_n_features`) raises ``ValueError`` with the offending name:
  lists are accepted, NaN and infinity rejected, a 1-D ``Y`` rejected where a
  label matrix is required.
- Min-max scaling on the training part (:func:`minmax_scale_factors`,
  :func:`apply_minmax_scale`), the neighbour search of the k-NN learners
  (:class:`EuclideanIndex`, :func:`smallest_k`: nearest first, equal
  distances in training order) and their neighbour label counts
  (:func:`neighbour_label_counts`).
- :class:`PathMixin` gives every classifier ``predict_path``: the predictions
  for a sequence of feature subsets (the K grid of the workflow) in one call.
  Its default is the per-K loop; :class:`ScaledNeighboursMixin` (ML-kNN,
  BRkNN, k-NN regression) validates and scales the fold once and searches
  neighbours once per subset, and BR-LR warm-starts its solver along the path.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from scipy.linalg.blas import dgemm as _gemm
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_array, validate_data

__all__ = [
    "SEARCH_MEMORY_MIB",
    "EuclideanIndex",
    "KeyedIndex",
    "KeyedRows",
    "MultiLabelClassifier",
    "NESTED_KEYS_MIB",
    "NestedKeys",
    "PathMixin",
    "ScaledNeighboursMixin",
    "apply_minmax_scale",
    "check_features",
    "check_flag",
    "check_int",
    "check_labels",
    "check_n_features",
    "check_n_train",
    "check_targets",
    "exact_values",
    "minmax_scale_factors",
    "neighbour_label_counts",
    "smallest_k",
]


#: Memory (MiB) for one block of the distances of a neighbour search.
SEARCH_MEMORY_MIB = 128

#: Memory (MiB) the K path may hold for the accumulated keys of a fold with
#: exact (integer-valued) features (:class:`NestedKeys`); larger folds search
#: each subset from its own product, as a fit does.
NESTED_KEYS_MIB = 256


# --------------------------------------------------------------------------
# Validation
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


def check_int(name: str, value, minimum: int = 1) -> int:
    """``value`` as an int; ``ValueError`` unless an integer ``>= minimum``.

    >>> check_int("k", True)
    Traceback (most recent call last):
    ...
    ValueError: k must be an integer >= 1, got True
    """
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_flag(name: str, value) -> bool:
    """Reject a flag that is not a boolean."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


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


# --------------------------------------------------------------------------
# Scaling and neighbour counts
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


# --------------------------------------------------------------------------
# The neighbour search
# --------------------------------------------------------------------------
#: Query rows per block of :class:`EuclideanIndex` (bibtex's 3 697 training
#: rows: 3.6 MB of keys a block, which stay in cache between the passes of
#: :func:`smallest_k`; the whole 110 MB matrix at once took 4 times longer).
_BLOCK_ROWS = 128
#: Width of the column groups whose minima bound the k-th smallest value.
_GROUP_WIDTH = 16


def smallest_k(D: np.ndarray, k: int) -> np.ndarray:
    """Columns of the ``k`` smallest entries of each row, by (value, column).

    The neighbour rule of the k-NN learners: nearest first, and among equal
    distances the lower training index first, so the result is a function of
    the distances alone (equal to ``np.argsort(D, axis=1, kind="stable")[:,
    :k]``, the reference the tests check against).

    ``np.argpartition`` (scikit-learn's brute-force search of sparse data)
    leaves the choice among equal values to its selection algorithm, and
    slows down by an order of magnitude when most of a row is equal: with a
    few of bibtex's binary features most instances are at distance 0 from
    each other. Here the columns are split into groups of at most
    :data:`_GROUP_WIDTH`; the ``k``-th smallest group minimum ``t`` bounds
    the ``k``-th smallest value from above (``k`` groups hold a value
    ``<= t``), so the entries ``<= t`` are the candidates, which one stable
    sort orders. A row with more than ``4 k`` candidates (many values equal
    to ``t``) keeps those below ``t`` and only the first of those equal to
    it. On 128 x 3 697 blocks: 0.8 ms with continuous values, 1.8 ms with
    mostly equal ones, against 4.6 and 43 ms for ``np.argpartition``.
    Counting each row's candidates from their row indices instead of over
    the whole block: 0.65 -> 0.36 ms on a 128 x 3 697 block of continuous
    values, 0.28 -> 0.19 ms on 128 x 1 208 (yeast's training half), best of
    100 on an idle machine; an ML-kNN path over K = 1..50 on a yeast fold
    0.61 -> 0.53 s.

    Parameters
    ----------
    D : ndarray, shape (n_rows, n_columns)
        Distances (any values without NaN; ``inf`` marks an excluded entry).
    k : int
        ``1 <= k``; ``k >= n_columns`` returns every column, sorted.

    Returns
    -------
    ndarray of intp, shape (n_rows, min(k, n_columns))

    Examples
    --------
    >>> smallest_k(np.array([[3.0, 1.0, 1.0, 0.0], [2.0, 2.0, 2.0, 2.0]]), 2).tolist()
    [[3, 1], [0, 1]]
    """
    D = np.ascontiguousarray(D)
    b, n = D.shape
    if k >= n:
        return np.argsort(D, axis=1, kind="stable")
    width = max(1, min(_GROUP_WIDTH, n // (2 * k)))
    groups = n // width  # group g: columns g, g + groups, ..., (>= k groups)
    minima = D[:, : groups * width].reshape(b, width, groups).min(axis=1)
    if groups * width < n:  # the remaining columns are groups of one
        minima = np.concatenate([minima, D[:, groups * width:]], axis=1)
    t = np.sort(minima, axis=1)[:, k - 1:k]  # >= the k-th smallest value
    # The candidates, row-major (columns ascending in a row); each row's
    # count from their row indices, not from counts over the whole block.
    flat = np.flatnonzero(D <= t)
    r = flat // n
    per_row = np.bincount(r, minlength=b)  # >= k each
    v = D.ravel()[flat]
    if per_row.max() > 4 * k:
        # Crowded rows (many values equal to t): the k smallest by (value,
        # column) are the entries below t and the first of those equal to t,
        # as many as are missing (none when k or more are below t). Selected
        # from the candidate list alone, without passes over the block.
        tied = v == t[r, 0]
        r_tied = r[tied]
        n_tied = np.bincount(r_tied, minlength=b)
        need = k - (per_row - n_tied)
        rank = np.arange(r_tied.size) - (np.cumsum(n_tied) - n_tied)[r_tied]
        keep = ~tied
        keep[tied] = rank < need[r_tied]
        flat, r, v = flat[keep], r[keep], v[keep]
        per_row = np.bincount(r, minlength=b)
    c = (flat - r * n)[np.lexsort((v, r))]  # stable: equal values keep order
    starts = np.cumsum(per_row) - per_row
    return c[starts[:, np.newaxis] + np.arange(k)]


class EuclideanIndex:
    """Brute-force Euclidean nearest neighbours of fixed training rows.

    A query ``q`` ranks the training rows ``t`` by ``|t|^2 - 2 q.t``, its
    squared distance to them less its own squared norm (the same for every
    ``t``, so the order is the squared distances'): one BLAS product with the
    stored ``-2 T'`` (exact scaling) plus the stored norms, or a sparse
    product for CSR data. The neighbours are :func:`smallest_k` of those
    keys: nearest first, equal distances in training order, whatever the
    thread count. Queries go in blocks of :data:`_BLOCK_ROWS` rows (fewer when
    a block's keys would exceed :data:`SEARCH_MEMORY_MIB`), small enough for
    the keys to stay in cache between the passes of the selection.

    The K path and a fit search the same rows in the same blocks and compute
    the same bits. As in any floating-point search, two distances equal in
    exact arithmetic may differ in their last bits (and then the nearer by a
    rounding comes first); a block of another size (the last, partial one)
    may round a product differently. Exact data, such as binary or
    small-integer features, are not affected.

    Parameters
    ----------
    X : ndarray or CSR matrix, shape (n_train, n_features)
        Scaled training features (finite).

    Examples
    --------
    >>> index = EuclideanIndex(np.array([[0.0], [1.0], [1.0], [3.0]]))
    >>> index.kneighbors(np.array([[1.2], [2.0]]), 2).tolist()
    [[1, 2], [1, 2]]
    >>> index.kneighbors(np.array([[0.0], [1.0], [1.0], [3.0]]), 1,
    ...                  exclude_self=True).ravel().tolist()
    [1, 2, 1, 1]
    """

    def __init__(self, X):
        self.sparse = sp.issparse(X)
        if self.sparse:
            X = sp.csr_matrix(X, dtype=np.float64)
            self._minus_2t = (X.T * -2.0).tocsr()  # (n_features, n_train)
            self.sq_norms = np.asarray(X.multiply(X).sum(axis=1)).ravel()
        else:
            X = np.ascontiguousarray(X, dtype=np.float64)
            self._minus_2t = np.ascontiguousarray((X * -2.0).T)
            self.sq_norms = np.einsum("ij,ij->i", X, X)
        self.n_samples = X.shape[0]

    def _query(self, Q):
        if self.sparse:
            return sp.csr_matrix(Q, dtype=np.float64)
        Q = Q.toarray() if sp.issparse(Q) else Q
        return np.ascontiguousarray(Q, dtype=np.float64)

    def _keys(self, Q) -> np.ndarray:
        """``|t|^2 - 2 q.t`` for a block of (checked) queries, (n_q, n_train)."""
        keys = Q @ self._minus_2t
        if self.sparse:
            keys = keys.toarray()
        keys += self.sq_norms
        return keys

    def kneighbors(self, Q, k: int, *, exclude_self: bool = False) -> np.ndarray:
        """Indices (n_queries, k) of each query's ``k`` nearest training rows.

        With ``exclude_self`` the queries are the training rows themselves and
        row ``i`` is not its own neighbour (its ``k`` nearest *other* rows,
        however many duplicates it has).
        """
        Q = self._query(Q)
        return _search(lambda a, b: self._keys(Q[a:b]), Q.shape[0],
                       self.n_samples, k, exclude_self)


def _search(block_keys, m: int, n: int, k: int, exclude_self: bool) -> np.ndarray:
    """The ``k`` nearest of ``m`` queries among ``n`` training rows, by blocks.

    ``block_keys(start, stop)`` returns a new (stop - start, n) array of the
    keys of those queries; with ``exclude_self`` query ``i`` is training row
    ``i`` and not its own neighbour.
    """
    if exclude_self and m != n:
        raise ValueError(f"exclude_self needs the {n} training rows as "
                         f"queries, got {m}")
    block = max(1, min(_BLOCK_ROWS, (SEARCH_MEMORY_MIB << 20) // (8 * max(n, 1))))
    out = np.empty((m, int(k)), dtype=np.intp)
    for start in range(0, m, block):
        stop = min(m, start + block)
        keys = block_keys(start, stop)
        if exclude_self:
            rows = np.arange(stop - start)
            keys[rows, rows + start] = np.inf
        out[start:stop] = smallest_k(keys, int(k))
    return out


#: Largest magnitude of an exact feature value (:func:`exact_values`).
EXACT_BOUND = 1024.0


def exact_values(X, bound: float = EXACT_BOUND) -> bool:
    """Whether every value of ``X`` is an integer of magnitude ``<= bound``.

    Sums of products of such values are exact in float64 in any order (for
    fewer than ``2**31`` features), so keys accumulated over column chunks
    equal, bit for bit, the keys of one product (:class:`NestedKeys`).

    Examples
    --------
    >>> exact_values(np.array([[0.0, 1.0], [1.0, 0.0]]))
    True
    >>> exact_values(sp.csr_matrix(np.array([[0.5, 0.0]])))
    False
    """
    data = X.data if sp.issparse(X) else np.asarray(X)
    if data.size == 0:
        return True
    return bool(np.all(np.abs(data) <= bound) and np.all(data == np.rint(data)))


class KeyedRows:
    """Query rows whose search keys against the training rows are known.

    Stands in for scaled features in ``_fit_scaled`` / ``_predict_scaled`` of
    the K path (:meth:`ScaledNeighboursMixin.predict_path`): ``keys`` holds
    ``-2 q.t`` for every query ``q`` and training row ``t``, ``sq_norms`` the
    ``|t|^2``; ``index`` searches them as :class:`EuclideanIndex` does.
    """

    def __init__(self, keys: np.ndarray, index: KeyedIndex):
        self.keys = keys
        self.index = index
        self.shape = (keys.shape[0], index.n_features)


class KeyedIndex:
    """:class:`EuclideanIndex` over keys accumulated by :class:`NestedKeys`.

    ``kneighbors`` takes :class:`KeyedRows` and returns what
    ``EuclideanIndex(X_train[:, cols]).kneighbors(X[:, cols], k)`` returns
    for the same rows: the keys are the same integers, and :func:`smallest_k`
    orders each row by (key, column) alone.

    Being integers, the keys are searched as ``key * n_train + column``: the
    order by (key, column) of the keys, with no two values equal. Exact
    features tie often (many training rows share a query's few selected
    binary features), and :func:`smallest_k` is several times slower on a
    row crowded with equal values (Li 2017's per-granule ML-kNN on enron, a
    fold of 53 granules, one thread: 14.6 -> 11.0 s, the same predictions
    bit for bit). ``bound`` bounds the magnitude of
    the keys; with ``bound * n_train >= 2**52`` (never, for the sizes
    :class:`NestedKeys` accepts) the keys are searched as they are.
    """

    def __init__(self, sq_norms: np.ndarray, n_features: int,
                 bound: float = np.inf):
        self.sq_norms = sq_norms
        self.n_samples = n = sq_norms.shape[0]
        self.n_features = n_features
        scaled = (bound + 1.0) * n < 2.0 ** 52
        self._scale = float(n) if scaled else 1.0
        # |t|^2 * n + t's index: exact integers below 2**52
        self._offsets = sq_norms * self._scale + (np.arange(n) if scaled else 0.0)

    def _block(self, Q: KeyedRows, a: int, b: int) -> np.ndarray:
        keys = Q.keys[a:b] * self._scale  # a new array (exact: * 1.0 or * n)
        keys += self._offsets
        return keys

    def kneighbors(self, Q: KeyedRows, k: int, *, exclude_self: bool = False):
        return _search(lambda a, b: self._block(Q, a, b), Q.keys.shape[0],
                       self.n_samples, k, exclude_self)


class NestedKeys:
    """Search keys of a fold along nested feature subsets, computed once.

    The K path's subsets grow (``np.sort(ranking[:k])`` for increasing
    ``k``), and the key ``|t|^2 - 2 q.t`` of a query and a training row is a
    sum over the subset's columns. For exact features (:func:`exact_values`:
    the binary word indicators of enron, medical, genbase) the sums over the
    columns a subset adds can be added to those of the previous subset with
    the same result, bit for bit, as one product over the whole subset, so
    every column enters one product instead of one per subset. A subset that
    does not contain the previous one starts the sums again.

    Parameters
    ----------
    X_train, X_test : ndarray or CSR matrix
        The fold's scaled features (all columns), exact.

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
    >>> train, test = NestedKeys(X, X[:1]).rows(np.array([0, 1]))
    >>> train.index.kneighbors(train, 1, exclude_self=True).ravel().tolist()
    [1, 0, 1]
    """

    def __init__(self, X_train, X_test):
        self._train = X_train.tocsc() if sp.issparse(X_train) else X_train
        self._test = X_test.tocsc() if sp.issparse(X_test) else X_test
        n, m = X_train.shape[0], X_test.shape[0]
        self._done = np.zeros(X_train.shape[1], dtype=bool)
        self._train_keys = np.zeros((n, n))
        self._test_keys = np.zeros((m, n))
        self._sq_norms = np.zeros(n)

    def _pairs(self, cols: np.ndarray) -> int:
        """Training pairs holding one of the sparse columns ``cols`` (bound)."""
        counts = np.diff(self._train.indptr)[cols].astype(np.int64)
        return int((counts * counts).sum())

    @staticmethod
    def fits(X_train, X_test) -> bool:
        """Whether the fold is exact and its keys fit :data:`NESTED_KEYS_MIB`."""
        n, m = X_train.shape[0], X_test.shape[0]
        return (8 * n * (n + m) <= NESTED_KEYS_MIB << 20
                and exact_values(X_train) and exact_values(X_test))

    def rows(self, cols: np.ndarray) -> tuple[KeyedRows, KeyedRows]:
        """Training and test rows keyed on the columns ``cols``."""
        want = np.zeros_like(self._done)
        want[cols] = True
        if (self._done & ~want).any():  # not a superset: start again
            self._done[:] = False
            self._train_keys[:] = 0.0
            self._test_keys[:] = 0.0
            self._sq_norms[:] = 0.0
        new = np.flatnonzero(want & ~self._done)
        if new.size:
            T, Q = self._train[:, new], self._test[:, new]
            if sp.issparse(T) and 8 * self._pairs(new) < self._train_keys.size:
                # few rows hold the new columns: only their pairs change
                minus_2t = (T.T * -2.0).tocsr()
                for keys, rows in ((self._train_keys, T), (self._test_keys, Q)):
                    part = (rows @ minus_2t).tocoo()
                    keys[part.row, part.col] += part.data
            else:
                if sp.issparse(T):
                    T, Q = T.toarray(), Q.toarray()
                T, Q = np.asfortranarray(T), np.asfortranarray(Q)
                # keys.T (column-major) += -2 T Q' in place, one BLAS call
                for keys, rows in ((self._train_keys, T), (self._test_keys, Q)):
                    _gemm(-2.0, T, rows, 1.0, keys.T, trans_b=True, overwrite_c=True)
            sq = T.multiply(T).sum(axis=1) if sp.issparse(T) else (T * T).sum(axis=1)
            self._sq_norms += np.asarray(sq).ravel()
            self._done |= want
        # |key| <= |t|^2 + 2 |q.t| <= 3 * columns * EXACT_BOUND**2
        n_cols = int(want.sum())
        index = KeyedIndex(self._sq_norms.copy(), n_cols,
                           bound=3.0 * n_cols * EXACT_BOUND ** 2)
        return KeyedRows(self._train_keys, index), KeyedRows(self._test_keys, index)


# --------------------------------------------------------------------------
# The K path
# --------------------------------------------------------------------------
class PathMixin:
    """``predict_path``: predictions for a sequence of feature subsets.

    The default is the plain loop: for each subset a fresh ``clone(self)`` is
    fitted on those training columns and predicts the same test columns.
    Subclasses override :meth:`predict_path` to share work across subsets and
    return the same numbers (exactly for the k-NN learners, within the
    solver's tolerance for BR-LR).
    """

    def _path_inputs(self, X_train, X_test, column_sets):
        """Validated training and test features and column index arrays."""
        X_train = check_features(X_train, name="X_train")
        X_test = check_features(X_test, name="X_test")
        if X_test.shape[1] != X_train.shape[1]:
            raise ValueError(f"X_test has {X_test.shape[1]} features but X_train "
                             f"has {X_train.shape[1]}")
        sets = []
        for cols in column_sets:
            cols = np.asarray(cols)
            if cols.ndim != 1 or cols.size == 0 or not np.issubdtype(
                cols.dtype, np.integer
            ):
                raise ValueError("column_sets must hold non-empty 1-D integer "
                                 f"index arrays, got {cols!r}")
            if cols.min() < -X_train.shape[1] or cols.max() >= X_train.shape[1]:
                raise ValueError(f"column index out of range for "
                                 f"{X_train.shape[1]} features: {cols!r}")
            sets.append(cols)
        return X_train, X_test, sets

    def predict_path(self, X_train, Y_train, X_test, column_sets):
        """Fit and predict once per feature subset.

        Parameters
        ----------
        X_train : array-like or sparse matrix, shape (n_train, n_features)
        Y_train : array-like, shape (n_train, n_labels)
        X_test : array-like or sparse matrix, shape (n_test, n_features)
        column_sets : sequence of 1-D integer arrays
            Feature columns of each subset (in the workflow
            ``np.sort(ranking[:k])`` for increasing ``k``).

        Returns
        -------
        list of (Y_pred, Y_score)
            One pair per subset, equal to ``clone(self).fit(X_train[:, cols],
            Y_train)`` followed by ``predict(X_test[:, cols])`` and
            ``predict_proba(X_test[:, cols])``. ``self`` is not fitted.
        """
        X_train, X_test, sets = self._path_inputs(X_train, X_test, column_sets)
        out = []
        for cols in sets:
            model = clone(self).fit(X_train[:, cols], Y_train)
            out.append((model.predict(X_test[:, cols]),
                        model.predict_proba(X_test[:, cols])))
        return out


class MultiLabelClassifier(PathMixin, ClassifierMixin, BaseEstimator):
    """Base of the multi-label classifiers: tags (multi-label, sparse input)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.input_tags.sparse = True
        return tags


class ScaledNeighboursMixin(PathMixin):
    """Min-max scaling on the training part, a Euclidean index, the K path.

    For :class:`~mlfsbench.estimators.classifiers.mlknn.MLkNN`,
    :mod:`~mlfsbench.estimators.classifiers.brknn` and
    :mod:`~mlfsbench.estimators.classifiers.knn_reg`. The estimator has
    ``k`` and ``scale`` parameters and implements

    - ``_check_params()``: validate the parameters;
    - ``_check_y(Y, n_samples)``: validate the training targets;
    - ``_fit_scaled(Xs, Y)``: fit on scaled training features (calls
      :meth:`_index`);
    - ``_predict_scaled(Xs)``: ``(predict, predict_proba)`` of scaled test
      features from one neighbour search.

    Once fitted: ``n_features_in_``, ``index_`` and (when ``scale``)
    ``feature_min_`` / ``feature_inv_range_``.
    """

    def _transform(self, X):
        if not self.scale:
            return X
        return apply_minmax_scale(X, self.feature_min_, self.feature_inv_range_)

    def _index(self, Xs) -> None:
        """Index scaled training features for the Euclidean neighbour search
        (the K path's :class:`KeyedRows` bring their own index)."""
        self.index_ = Xs.index if isinstance(Xs, KeyedRows) else EuclideanIndex(Xs)

    def _query_neighbours(self, Xs, k: int, *, exclude_self: bool = False):
        """Indices (n_queries, k) of the training neighbours of scaled ``Xs``.

        :meth:`EuclideanIndex.kneighbors`: nearest first, equal distances in
        training order; ``exclude_self`` for the training rows' own
        (leave-one-out) neighbours.
        """
        return self.index_.kneighbors(Xs, int(k), exclude_self=exclude_self)

    def _check_query(self, X):
        """Checked and scaled query features of a fitted estimator."""
        validate_data(self, X, reset=False, skip_check_array=True)
        X = check_features(X)
        check_n_features(X, self)
        return self._transform(X)

    def fit(self, X, Y):
        """Learn the scaling of training ``X``, index it and fit the model.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix, shape (n_samples, n_features)
        Y : array-like, shape (n_samples, n_labels)
            Training labels (targets for the regressor).

        Returns
        -------
        self
        """
        self._check_params()
        # feature_names_in_ (from a DataFrame) and n_features_in_, as sklearn
        validate_data(self, X, reset=True, skip_check_array=True)
        X = check_features(X)
        Y = self._check_y(Y, X.shape[0])
        self.n_features_in_ = X.shape[1]
        if self.scale:
            self.feature_min_, self.feature_inv_range_ = minmax_scale_factors(X)
        self._fit_scaled(self._transform(X), Y)
        return self

    def predict_path(self, X_train, Y_train, X_test, column_sets):
        """Fit and predict once per feature subset, one neighbour search each.

        Same contract as :meth:`PathMixin.predict_path`, and exactly equal to
        it: the fold is validated once and scaled once (min-max factors are
        per column, so a subset's factors are the full ones restricted to it;
        sparse subsets are scaled per subset, as a fresh fit does); each
        subset then indexes its training columns, does the searches of one
        ``fit`` and a single test search shared by ``predict`` and
        ``predict_proba`` (a per-subset fit does two). For exact features
        (binary words) whose keys fit :data:`NESTED_KEYS_MIB`, the keys are
        accumulated along the subsets (:class:`NestedKeys`), the same
        integers as each subset's own product.
        """
        self._check_params()
        X_train, X_test, sets = self._path_inputs(X_train, X_test, column_sets)
        Y = self._check_y(Y_train, X_train.shape[0])
        sparse = sp.issparse(X_train)
        if self.scale:
            lo, inv = minmax_scale_factors(X_train)
        if not sparse:  # elementwise: slicing the scaled fold = scaling a slice
            if self.scale:
                X_train = apply_minmax_scale(X_train, lo, inv)
                X_test = apply_minmax_scale(X_test, lo, inv)
            X_train, X_test = np.asarray(X_train), np.asarray(X_test)
        nested = None
        if len(sets) > 1:
            if sparse and self.scale:  # per column: the same as per subset
                Str, Ste = (apply_minmax_scale(X_train, lo, inv),
                            apply_minmax_scale(X_test, lo, inv))
            else:
                Str, Ste = X_train, X_test
            if NestedKeys.fits(Str, Ste):
                nested = NestedKeys(Str, Ste)
        out = []
        for cols in sets:
            model = clone(self)
            model.n_features_in_ = len(cols)
            if self.scale:
                model.feature_min_, model.feature_inv_range_ = lo[cols], inv[cols]
            if nested is not None:
                Xtr, Xte = nested.rows(cols)
            else:
                Xtr, Xte = X_train[:, cols], X_test[:, cols]
                if self.scale and sparse:
                    Xtr, Xte = model._transform(Xtr), model._transform(Xte)
            model._fit_scaled(Xtr, Y)
            out.append(model._predict_scaled(Xte))
        return out
