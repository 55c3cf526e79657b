r"""Every exact nearest-neighbour search of the estimators, with its tie rule.

A change to how neighbours are found belongs here. Three estimators search,
with different distances and different needs:

- **The k-NN learners** (ML-kNN, BRkNN-a/-b, k-NN regression and their K
  path; :mod:`mlfsbench.estimators.classifiers`): Euclidean distances on
  min-max scaled features, :class:`EuclideanIndex` (a fit, a prediction),
  :class:`NestedKeys` / :class:`KeyedIndex` (the K path on exact features),
  both ordering by :func:`smallest_k`.
- **kNN mutual information** (Doquire & Verleysen 2013, the ``knnmi-*``
  selectors; :mod:`mlfsbench.estimators.information.knn`): squared Euclidean
  distances on standardized, jittered features,
  :func:`kth_neighbour_sq_distances` (a KD-tree), :func:`kth_distances_1d`
  (every single feature), :func:`kth_smallest` (a distance matrix) and
  :func:`sorted_neighbours` (the forward search's candidate lists).
- **ReliefF and RReliefF** (``rf-br``, ``rf-lp``, ``rrelieff``;
  :mod:`mlfsbench.estimators.selectors._relief`): Manhattan distances on
  range-scaled features, :func:`manhattan_distances`, ordered by
  :func:`smallest_k`, and :func:`class_neighbours` (hits and misses per
  class).

The tie rule
------------
Neighbours are ordered by (distance, index): nearest first and, among equal
distances, the lower (training) index first, so a neighbour list is a function
of the distances alone, whatever the thread count or block size. The reference
is ``np.argsort(D, axis=1, kind="stable")``; :func:`smallest_k` returns its
first ``k`` columns faster and is what the k-NN learners and ReliefF use (a
``k`` of the row length gives the whole stable order). An instance is never
its own neighbour: its distance is ``+inf`` (``exclude_self`` of the
learners' searches, the diagonal of ReliefF's and kNN-MI's matrices).

Where the estimators differ
---------------------------
- **kNN-MI needs values, not indices.** Eq. 7 uses the distance to the
  ``K``-th neighbour, which is the same whichever of equally distant points is
  called the ``K``-th, so its functions return distances
  (:func:`kth_neighbour_sq_distances`: a KD-tree, Euclidean, self excluded by
  querying ``K + 1`` points; :func:`kth_distances_1d`: sorted windows, every
  single feature at once; :func:`kth_smallest`: a partition of a distance
  matrix). The forward search's candidate lists (:func:`sorted_neighbours`)
  come from ``np.argpartition``, whose choice among values equal to the
  ``(m+1)``-th is left to the algorithm: any choice gives the same, exact,
  estimate (the lists only bound where the ``K``-th neighbour can be).
- **ReliefF needs neighbours per class.** The ``k`` nearest hits and the ``k``
  nearest misses of each other class are the first members of each class in
  the row's (distance, index) order (:func:`class_neighbours`): the same tie
  rule, restricted to a class.
- **Distances.** The learners rank by ``|t|^2 - 2 q.t`` (one BLAS product per
  block, the squared distance less the query's own norm); kNN-MI sums squared
  differences; ReliefF takes Manhattan distances from ``cdist``, or, for 0/1
  features, from one sparse product (:func:`manhattan_distances`; the same
  integers).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.linalg.blas import dgemm as _gemm
from scipy.linalg.blas import sgemm as _gemm32
from scipy.spatial import cKDTree
from scipy.spatial.distance import cdist

__all__ = [
    "EXACT_BOUND",
    "NESTED_KEYS_MIB",
    "RELIEFF_PREFIX",
    "SEARCH_MEMORY_MIB",
    "EuclideanIndex",
    "SharedIndex",
    "SharedRows",
    "KeyedIndex",
    "KeyedRows",
    "NestedKeys",
    "class_neighbours",
    "class_neighbours_by_mask",
    "exact_values",
    "kth_distances_1d",
    "kth_neighbour_sq_distances",
    "kth_smallest",
    "manhattan_distances",
    "members_by_distance",
    "small_int_keys",
    "smallest_k",
    "sorted_neighbours",
    "two_class_neighbours",
]

#: Memory (MiB) for one block of the distances of a neighbour search.
SEARCH_MEMORY_MIB = 128

#: Whether :class:`NestedKeys` keeps keys in single precision where every
#: key is an integer it holds exactly (binary words: half the memory traffic
#: of the K path's searches, the same neighbours); ``False`` restores the
#: double-precision keys (the reference of ``bench/bench_granules.py``).
SINGLE_KEYS = True

#: Whether :class:`NestedKeys` accumulates the finished search keys
#: (``n (|t|^2 - 2 q.t) + t``, see :class:`KeyedIndex`) where they are exact
#: integers, so that a search reads its blocks in place instead of making
#: each from the sums (Li 2017's per-granule ML-kNN on an enron fold: about
#: a sixth of its time); ``False`` restores the blocks made per search (the
#: reference of ``bench/bench_granules.py``).
READY_KEYS = True

#: Whether :func:`smallest_k` runs its compiled one-pass selection
#: (:func:`_smallest_k_rows`); ``False`` restores the NumPy selection by
#: group minima (the reference of the benchmarks, and of the tests).
COMPILED_SEARCH = True

#: Memory (MiB) the K path may hold for the accumulated keys of a fold with
#: exact (integer-valued) features (:class:`NestedKeys`); larger folds search
#: each subset from its own product, as a fit does.
NESTED_KEYS_MIB = 256


# --------------------------------------------------------------------------
# The k-NN learners: exact Euclidean search
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
    each other. Here a compiled loop reads each row once, keeping its ``k``
    smallest so far by insertion (:func:`_smallest_k_rows`; equal values
    cost nothing more). Li 2017's per-granule ML-kNN on an enron fold (53
    granules, one thread): 7.2 -> 4.5 s, the same neighbours. Its NumPy
    reference (:func:`_smallest_k_numpy`, ``COMPILED_SEARCH = False``): the
    columns are split into groups of at most
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
    return _smallest_k_shifted(D, None, k)


def _compiled(D) -> bool:
    """Whether :func:`_smallest_k_rows` selects from ``D``."""
    return COMPILED_SEARCH and D.dtype in (np.float32, np.float64)


_KERNEL = []


def _kernel():
    """:func:`_smallest_k_rows`, compiled on first use.

    Numba is imported here, not with the module: a job that never searches
    (most select jobs, every report job) does not pay its import (0.16 s);
    one that does pays it and the loading of the cached machine code
    (about 0.15 s) once.
    """
    if not _KERNEL:
        import numba

        try:
            kernel = numba.njit(cache=True, nogil=True)(_smallest_k_rows)
        except RuntimeError:  # no writable cache (read-only install, HOME)
            kernel = numba.njit(nogil=True)(_smallest_k_rows)  # compiled per process
        _KERNEL.append(kernel)
    return _KERNEL[0]


def _smallest_k_shifted(D: np.ndarray, shift: np.ndarray | None, k: int) -> np.ndarray:
    """``smallest_k(D + shift, k)`` for a row ``shift`` (``None``: none).

    The compiled selection adds ``shift`` as it reads (the same float
    additions as ``D += shift``, without a pass writing them); the stable
    sort (``k`` of the whole row) and the NumPy selection add it in place,
    so ``D`` is then changed.
    """
    D = np.ascontiguousarray(D)
    b, n = D.shape
    if shift is not None and (k >= n or not _compiled(D)):
        D += shift
        shift = None
    if k >= n:
        return np.argsort(D, axis=1, kind="stable")
    if not _compiled(D):
        return _smallest_k_numpy(D, k)
    out = np.empty((b, k), dtype=np.intp)
    if shift is None:
        _kernel()(D, np.empty(0, dtype=D.dtype), False, k, out)
    else:
        _kernel()(D, np.ascontiguousarray(shift, dtype=D.dtype), True, k, out)
    return out


def _smallest_k_rows(D, shift, shifted, k, out):
    """:func:`smallest_k` in one pass over each row (compiled by :func:`_kernel`).

    Each row is read once, in column order, keeping its ``k`` smallest
    entries so far sorted by (value, column) in ``out``: an entry enters
    when it is below the ``k``-th kept value (an equal value comes later in
    the row, so it ranks after), by insertion. Only comparisons: the result
    is the NumPy selection's (:func:`_smallest_k_numpy`), bit for bit.
    With ``shifted``, the value of column ``c`` is ``D[r, c] + shift[c]``.
    """
    b, n = D.shape
    vals = np.empty(k, dtype=D.dtype)
    for r in range(b):
        row = D[r]
        cols = out[r]
        m = 0
        threshold = vals[0]  # set once k entries are kept
        for c in range(n):
            v = row[c] + shift[c] if shifted else row[c]
            if m == k:
                if not v < threshold:
                    continue
                pos = k - 1
            else:
                pos = m
                m += 1
            while pos > 0 and vals[pos - 1] > v:
                vals[pos] = vals[pos - 1]
                cols[pos] = cols[pos - 1]
                pos -= 1
            vals[pos] = v
            cols[pos] = c
            if m == k:
                threshold = vals[k - 1]


def _smallest_k_numpy(D: np.ndarray, k: int) -> np.ndarray:
    """:func:`smallest_k` (``k < n_columns``, contiguous ``D``) by group minima,
    in NumPy (the selection before the compiled one; the tests' reference)."""
    b, n = D.shape
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
        """``-2 q.t`` for a block of (checked) queries, (n_q, n_train); the
        search adds the norms ``|t|^2`` as it reads them."""
        keys = Q @ self._minus_2t
        if self.sparse:
            keys = keys.toarray()
        return keys

    def kneighbors(self, Q, k: int, *, exclude_self: bool = False) -> np.ndarray:
        """Indices (n_queries, k) of each query's ``k`` nearest training rows.

        With ``exclude_self`` the queries are the training rows themselves and
        row ``i`` is not its own neighbour (its ``k`` nearest *other* rows,
        however many duplicates it has).
        """
        Q = self._query(Q)
        return _search(lambda a, b: self._keys(Q[a:b]), Q.shape[0],
                       self.n_samples, k, exclude_self, shift=self.sq_norms)


def _search(block_keys, m: int, n: int, k: int, exclude_self: bool,
            in_place: bool = False, shift: np.ndarray | None = None) -> np.ndarray:
    """The ``k`` nearest of ``m`` queries among ``n`` training rows, by blocks.

    ``block_keys(start, stop)`` returns a new (stop - start, n) array of the
    keys of those queries (with ``in_place``: a view of stored keys, which
    the search leaves as it found them), to which ``shift`` (n,) is added
    when given; with ``exclude_self`` query ``i`` is training row ``i`` and
    not its own neighbour.
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
            if in_place:
                own = keys[rows, rows + start]
            keys[rows, rows + start] = np.inf
        try:
            out[start:stop] = _smallest_k_shifted(keys, shift, int(k))
        finally:
            if exclude_self and in_place:  # the stored keys as they were
                keys[rows, rows + start] = own
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


def _max_abs(X) -> float:
    """Largest magnitude of the values of ``X`` (0 when empty)."""
    data = X.data if sp.issparse(X) else np.asarray(X)
    return float(np.abs(data).max()) if data.size else 0.0


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
                 bound: float = np.inf, dtype=np.float64, ready: bool = False):
        self.sq_norms = sq_norms
        self.n_samples = n = sq_norms.shape[0]
        self.n_features = n_features
        # ready: the keys given are the finished ones, n (|t|^2 - 2 q.t) + t
        # (NestedKeys accumulates them so): searched in place
        self.ready = ready
        if ready:
            return
        scaled = (bound + 1.0) * n < 2.0 ** 52
        if dtype == np.float32 and not (bound + 1.0) * n < 2.0 ** 24:
            raise ValueError("single-precision keys need (bound + 1) * n < 2**24")
        self._scale = float(n) if scaled else 1.0
        # |t|^2 * n + t's index: exact integers below 2**52 (2**24 in float32)
        self._offsets = sq_norms * self._scale + (np.arange(n) if scaled else 0.0)
        self._offsets = self._offsets.astype(dtype)
        self._scale = np.dtype(dtype).type(self._scale)

    def _block(self, Q: KeyedRows, a: int, b: int) -> np.ndarray:
        keys = Q.keys[a:b] * self._scale  # new, Q.keys' dtype (exact: * 1 or * n)
        keys += self._offsets
        return keys

    def kneighbors(self, Q: KeyedRows, k: int, *, exclude_self: bool = False):
        if self.ready:
            return _search(lambda a, b: Q.keys[a:b], Q.keys.shape[0],
                           self.n_samples, k, exclude_self, in_place=True)
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
        # Keys are integers of magnitude <= 3 * columns * top**2 (see rows):
        # below 2**24 with the KeyedIndex scaling, float32 holds them exactly
        # and every BLAS partial sum too, in any order.
        top = max(_max_abs(X_train), _max_abs(X_test), 1.0)
        self._top2 = top * top
        # the finished keys n (|t|^2 - 2 q.t) + t are integers of magnitude
        # below (3 * columns * top**2 + 1) * n: exact in the keys' precision
        bound = (3.0 * X_train.shape[1] * self._top2 + 1.0) * n
        self._single = SINGLE_KEYS and bound < 2.0 ** 24
        dtype = np.float32 if self._single else np.float64
        self._ready = READY_KEYS and bound < (2.0 ** 24 if self._single else 2.0 ** 52)
        self._n = n
        self._done = np.zeros(X_train.shape[1], dtype=bool)
        self._train_keys = np.zeros((n, n), dtype=dtype)
        self._test_keys = np.zeros((m, n), dtype=dtype)
        self._sq_norms = np.zeros(n)
        self._start()

    def _start(self) -> None:
        """Keys of the empty subset: 0, or with ready keys each row ``t``."""
        for keys in (self._train_keys, self._test_keys):
            keys[:] = np.arange(self._n) if self._ready else 0.0
        self._sq_norms[:] = 0.0

    def _pairs(self, cols: np.ndarray) -> int:
        """Training pairs holding one of the sparse columns ``cols`` (bound)."""
        counts = np.diff(self._train.indptr)[cols].astype(np.int64)
        return int((counts * counts).sum())

    def _add(self, new: np.ndarray) -> None:
        """Add the columns ``new`` to the keys (and the training norms).

        Ready keys (``_ready``) gain ``n (|t|^2 - 2 q.t)`` over the new
        columns, the others ``-2 q.t``; the sums are integers the keys hold
        exactly, so the order of the additions does not matter.
        """
        T, Q = self._train[:, new], self._test[:, new]
        sq = T.multiply(T).sum(axis=1) if sp.issparse(T) else (T * T).sum(axis=1)
        sq = np.asarray(sq, dtype=np.float64).ravel()
        self._sq_norms += sq
        scale = float(self._n) if self._ready else 1.0
        # single-precision keys make the dense update the cheaper one
        # down to fewer pairs (enron, 53 granules: 8 -> 64 about 10 %)
        factor = 64 if self._single else 8
        if sp.issparse(T) and factor * self._pairs(new) < self._train_keys.size:
            # few rows hold the new columns: only their pairs change
            minus_2t = (T.T * (-2.0 * scale)).tocsr()
            held = np.flatnonzero(sq)  # the rows whose |t|^2 grows
            for keys, rows in ((self._train_keys, T), (self._test_keys, Q)):
                part = (rows @ minus_2t).tocoo()
                keys[part.row, part.col] += part.data
                if self._ready:
                    keys[:, held] += (scale * sq[held]).astype(keys.dtype)
            return
        if sp.issparse(T):
            T, Q = T.toarray(), Q.toarray()
        gemm, dtype = ((_gemm32, np.float32) if self._single
                       else (_gemm, np.float64))
        # keys.T (column-major) += [T, |t|^2] [-2 n R, n]' = n (|t|^2 - 2 T R')
        # in place, one BLAS call: for ready keys the norms ride as one more
        # inner column; the others take -2 T R' alone
        c, extra = new.size, int(self._ready)
        A = np.empty((T.shape[0], c + extra), dtype=dtype, order="F")
        A[:, :c] = T
        if extra:
            A[:, c] = sq
        for keys, R in ((self._train_keys, T), (self._test_keys, Q)):
            B = np.empty((R.shape[0], c + extra), dtype=dtype, order="F")
            np.multiply(R, -2.0 * scale, out=B[:, :c], casting="unsafe")
            if extra:
                B[:, c] = scale
            gemm(1.0, A, B, 1.0, keys.T, trans_b=True, overwrite_c=True)

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
            self._start()
        new = np.flatnonzero(want & ~self._done)
        if new.size:
            self._add(new)
            self._done |= want
        # |key| <= |t|^2 + 2 |q.t| <= 3 * columns * EXACT_BOUND**2
        n_cols = int(want.sum())
        if self._ready:
            index = KeyedIndex(self._sq_norms.copy(), n_cols, ready=True)
        elif self._single:
            index = KeyedIndex(self._sq_norms.copy(), n_cols,
                               bound=3.0 * n_cols * self._top2, dtype=np.float32)
        else:
            index = KeyedIndex(self._sq_norms.copy(), n_cols,
                               bound=3.0 * n_cols * EXACT_BOUND ** 2)
        return KeyedRows(self._train_keys, index), KeyedRows(self._test_keys, index)


class SharedRows:
    """Rows of a fold whose searches several estimators share (:class:`SharedIndex`).

    Stands in for scaled features in ``_fit_scaled`` / ``_predict_scaled``
    as :class:`KeyedRows` does; ``rows`` are the features (or
    :class:`KeyedRows`) the search reads.
    """

    def __init__(self, rows, index: SharedIndex, part: str):
        self.rows = rows
        self.index = index
        self.part = part
        self.shape = rows.shape


class SharedIndex:
    """An index that searches each query once for every estimator using it.

    Li 2017's per-granule ML-kNN fits one model per granule on the same
    columns at a grid point they share (``all``): the searches of one fit and
    one prediction are the same for every granule, only the labels counted
    differ. ``index`` is the :class:`EuclideanIndex` or :class:`KeyedIndex`
    of those columns; the first search of a part (``"train"``, ``"test"``)
    with a given ``k`` is kept and returned to every later caller, the same
    array as a search of its own.
    """

    def __init__(self, index):
        self._index = index
        self._memo: dict = {}
        self.n_samples = index.n_samples

    def rows(self, X_train, X_test) -> tuple[SharedRows, SharedRows]:
        """Training and test rows searched through this index."""
        return SharedRows(X_train, self, "train"), SharedRows(X_test, self, "test")

    def kneighbors(self, Q: SharedRows, k: int, *, exclude_self: bool = False):
        key = (Q.part, int(k), bool(exclude_self))
        if key not in self._memo:
            self._memo[key] = self._index.kneighbors(Q.rows, k,
                                                     exclude_self=exclude_self)
        return self._memo[key]



# --------------------------------------------------------------------------
# kNN mutual information: distances to the K-th neighbour
# --------------------------------------------------------------------------
def kth_neighbour_sq_distances(Z: np.ndarray, k: int, *,
                               workers: int = 1) -> np.ndarray:
    """Squared Euclidean distance of each row of ``Z`` to its ``k``-th nearest other.

    A KD-tree (:class:`scipy.spatial.cKDTree`) queried for ``k + 1`` points:
    the query includes the point itself (distance 0, the smallest), so the
    ``(k+1)``-th smallest distance is the ``k``-th neighbour's even with ties.

    >>> kth_neighbour_sq_distances(np.array([[0.0], [1.0], [3.0]]), 1).tolist()
    [1.0, 1.0, 4.0]
    """
    dist, _ = cKDTree(Z).query(Z, k=k + 1, workers=workers)
    return dist[:, k] ** 2


def kth_distances_1d(Z: np.ndarray, k: int) -> np.ndarray:
    """Per column of ``Z``, each row's distance to its ``k``-th nearest other row.

    In one dimension the ``k`` nearest neighbours of a point together with the
    point are ``k + 1`` consecutive sorted values, so the ``k``-th neighbour
    distance is the smallest over the ``k + 1`` such windows of the largest
    distance to a window end (``O(N k)`` after a sort, vectorized over
    columns). Rows come out in sorted order of each column (the caller sums
    over them).

    >>> kth_distances_1d(np.array([[0.0], [1.0], [3.0]]), 1).ravel().tolist()
    [1.0, 1.0, 2.0]
    """
    n, f = Z.shape
    V = np.sort(Z, axis=0)
    padded = np.empty((n + 2 * k, f))
    padded[:k] = -np.inf
    padded[k : k + n] = V
    padded[k + n :] = np.inf
    best = np.full((n, f), np.inf)
    for s in range(k + 1):
        # Window of k+1 sorted values V[i-k+s] .. V[i+s] around position i.
        lo = padded[s : s + n]
        hi = padded[s + k : s + k + n]
        np.minimum(best, np.maximum(V - lo, hi - V), out=best)
    return best


def kth_smallest(D: np.ndarray, k: int) -> np.ndarray:
    """The ``k``-th smallest value along the last axis (``np.partition``).

    With ``+inf`` for a point's distance to itself, the ``k``-th smallest of a
    row of distances is the distance to its ``k``-th nearest other point.

    >>> kth_smallest(np.array([[np.inf, 2.0, 1.0], [4.0, np.inf, 3.0]]), 2).tolist()
    [2.0, 4.0]
    """
    return np.partition(D, k - 1, axis=-1)[..., k - 1]


def sorted_neighbours(D: np.ndarray, m: int):
    """The ``m`` smallest entries of each row, sorted, and one more.

    Returns ``(idx, vals)`` of width ``m + 1``: column indices and values of
    the ``m`` nearest neighbours (self excluded by the ``+inf`` diagonal) and,
    in the last column, the ``(m+1)``-th smallest value -- a lower bound of
    every unlisted distance -- or ``+inf`` when the row has no more than ``m``
    other points (then every neighbour is listed). Which of several points at
    the ``(m+1)``-th distance are listed is ``np.argpartition``'s choice (see
    the module notes: the kNN-MI forward search needs only the values).

    >>> D = np.array([[np.inf, 1.0, 3.0, 2.0], [1.0, np.inf, 5.0, 4.0],
    ...               [3.0, 5.0, np.inf, 6.0], [2.0, 4.0, 6.0, np.inf]])
    >>> idx, vals = sorted_neighbours(D, 1)
    >>> idx[:, 0].tolist(), vals.tolist()
    ([1, 0, 0, 0], [[1.0, 2.0], [1.0, 4.0], [3.0, 5.0], [2.0, 4.0]])
    """
    n = D.shape[0]
    if m >= n - 1:
        idx = np.argsort(D, axis=1, kind="stable")[:, : n - 1]
        idx = np.concatenate([idx, np.arange(n)[:, None]], axis=1)  # self: +inf
        return idx, np.take_along_axis(D, idx, axis=1)
    part = np.argpartition(D, m, axis=1)[:, : m + 1]
    vals = np.take_along_axis(D, part, axis=1)
    order = np.argsort(vals, axis=1, kind="stable")
    return (np.take_along_axis(part, order, axis=1),
            np.take_along_axis(vals, order, axis=1))


# --------------------------------------------------------------------------
# ReliefF: Manhattan distances and neighbours per class
# --------------------------------------------------------------------------
#: Columns of each row's distance order searched first for its class
#: neighbours by :func:`class_neighbours` (rows whose prefix lacks some
#: class's ``k`` fall back to the whole order); 0 always searches the whole
#: order.
RELIEFF_PREFIX = 1024


def euclidean_distances(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Euclidean distances between the rows of ``A`` (a, d) and ``B`` (b, d),
    from differences (``cdist``), not ``|a|^2 + |b|^2 - 2 a.b``: the expansion
    cancels on large values (16 targets of order 1e5: equal rows up to 0.008
    apart instead of 0). Label groups' k-medoids on real-valued targets
    (Sechidis 2019, Sec. 5) use it.

    >>> euclidean_distances(np.array([[1e5, 0.0]]), np.array([[1e5, 0.0], [1e5, 3.0]]))
    array([[0., 3.]])
    """
    return cdist(np.asarray(A, dtype=float), np.asarray(B, dtype=float),
                 "euclidean")


def manhattan_distances(Xn, rows, Xs=None):
    """Manhattan distances from each of ``rows`` to every instance (self: ``inf``).

    ``Xn`` holds the (range-scaled) features; with ``Xs`` (the same features,
    all 0 or 1, as CSR) the distances come from one sparse product,
    ``|x_i| + |x_j| - 2 x_i.x_j``: exact integers, equal to ``cdist``'s.

    >>> X = np.array([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
    >>> manhattan_distances(X, np.array([0, 2])).tolist()
    [[inf, 1.0, 2.0], [2.0, 1.0, inf]]
    >>> manhattan_distances(X, np.array([0, 2]), sp.csr_matrix(X)).tolist()
    [[inf, 1.0, 2.0], [2.0, 1.0, inf]]
    """
    if Xs is not None:
        ones = np.diff(Xs.indptr).astype(float)
        D = ones[rows][:, None] + ones[None, :] - 2.0 * (Xs[rows] @ Xs.T).toarray()
    else:
        D = cdist(Xn[rows], Xn, metric="cityblock")
    D[np.arange(rows.size), rows] = np.inf
    return D


def small_int_keys(D):
    """Integer distances (self: ``inf``) as 16-bit keys with the same order.

    The binary path's Manhattan distances are exact integers up to the
    number of features; as ``int16`` (``inf``: the largest value) every sort
    orders them as it orders ``D``, ties included, and numpy's stable sort
    takes a radix sort for them instead of a merge sort. ``D`` itself when a
    value is not an integer or does not fit.

    >>> small_int_keys(np.array([[np.inf, 3.0, 0.0]])).tolist()
    [[32767, 3, 0]]
    >>> small_int_keys(np.array([[np.inf, 0.5]])).dtype == float
    True
    """
    top = np.iinfo(np.int16).max
    finite = np.isfinite(D)
    vals = D[finite]
    if vals.size and (vals.max() >= top or vals.min() < 0
                      or not np.array_equal(vals, np.round(vals))):
        return D
    return np.where(finite, D, top).astype(np.int16)


def class_neighbours_by_mask(S, key, counts, kk, k, D=None, *, gather=True):
    """:func:`class_neighbours` for one or two classes (a BR label), no sort.

    The neighbours of class ``c`` are the positions of row ``r``'s order whose
    class is ``c``, in order: ``np.nonzero`` of the class mask lists them so,
    row by row. Each class is looked for in a prefix of the order about
    ``4 k / frequency`` columns wide (where its ``k`` first members usually
    lie); rows whose prefix holds fewer than ``kk`` of it use the whole order.

    With ``gather`` (and the distances ``D``), a class with fewer than an
    eighth as many members as that width (the positive class of a rare label:
    on bibtex most labels hold 1-2 % of the instances, a prefix of thousands
    of columns) is taken from the distances instead: a stable sort of the
    row's distances to the class's members, which are in increasing index
    order, gives them in the order of ``S`` (distance, then index), so the
    neighbours are the same.
    """
    b, n = S.shape
    n_cls = counts.size
    out = np.zeros((b, n_cls, k), dtype=S.dtype)
    freq = counts / max(int(counts.sum()), 1)
    for c in range(n_cls):
        need = kk[:, c]
        if not need.any():
            continue
        width = n if freq[c] <= 0 else int(min(n, max(64, 4 * k / freq[c])))
        if D is not None and gather and 8 * counts[c] <= width:
            members = np.flatnonzero(key == c)
            order = np.argsort(D[:, members], axis=1, kind="stable")[:, :k]
            got = order.shape[1]
            out[:, c, :got] = members[order]
            continue
        rows = np.arange(b)
        for w in dict.fromkeys((width, n)):  # the prefix, then the whole order
            head = S[rows, :w] if rows.size < b else S[:, :w]
            r, pos = np.nonzero(key[head] == c)
            found = np.bincount(r, minlength=rows.size)
            rank = np.arange(r.size) - (np.cumsum(found) - found)[r]
            enough = found >= need[rows]
            keep = enough[r] & (rank < need[rows][r])
            out[rows[r[keep]], c, rank[keep]] = head[r[keep], pos[keep]]
            rows = rows[~enough]
            if not rows.size:
                break
    return out


def two_class_neighbours(S, codes, want, kk, k, width=32):
    """:func:`class_neighbours_by_mask` for one class of many targets at once.

    ``S`` (b, n): each row's order (distance, then index); ``codes`` (n, T):
    the 0/1 class of every instance in each of ``T`` two-class targets (a BR
    decomposition); ``want`` (T,): the class looked for in each target (the
    larger one, whose ``k`` nearest members lie in a short prefix of the
    order); ``kk`` (b, T): how many of them each row uses. One gather of the
    codes of the first ``width`` columns of every order serves all targets:
    the neighbours are the positions of that prefix whose code is ``want``,
    in order. Returns ``(out, lacking)``: ``out`` (b, T, k) instance indices
    (entries at ``j >= kk`` are not to be used) and ``lacking`` (b, T), the
    cells whose prefix holds fewer than ``kk`` of them (their ``out`` is not
    set: the caller looks them up in the whole order).
    """
    b, n = S.shape
    n_t = codes.shape[1]
    out = np.zeros((b, n_t, k), dtype=S.dtype)
    head = S[:, : min(width, n)]
    mask = (codes[head] == want).transpose(0, 2, 1)  # (b, T, w)
    rank = np.cumsum(mask, axis=2, dtype=np.int32) - 1
    found = rank[:, :, -1] + 1 if head.shape[1] else np.zeros((b, n_t), int)
    r, t, pos = np.nonzero(mask & (rank < kk[:, :, None]))
    out[r, t, rank[r, t, pos]] = head[r, pos]
    return out, found < kk


def members_by_distance(D, members, k):
    """The ``k`` nearest of ``members`` (increasing indices) for each row of ``D``.

    A stable sort of the row's distances to the members orders them by
    (distance, index), as the row's whole order does (the ``gather`` path of
    :func:`class_neighbours_by_mask`). Returns (b, min(k, members.size)).
    """
    return members[np.argsort(D[:, members], axis=1, kind="stable")[:, :k]]


def class_neighbours(S, key, counts, kk, k, D=None, *, prefix=RELIEFF_PREFIX,
                     mask=True, gather=True):
    """The first ``kk[r, c]`` neighbours of class ``c`` in row ``r``'s order.

    ``S`` (b, n): instances by increasing distance, ties by index (the stable
    order, :func:`smallest_k` of the whole row); ``key`` (n,): class codes;
    ``counts`` (n_cls,): class sizes; ``kk`` (b, n_cls): how many neighbours
    of each class a row uses (at most ``k``); ``D`` (b, n): the distances
    ``S`` orders (for ``gather``). Returns (b, n_cls, k) instance indices;
    entries at ``j >= kk[r, c]`` are not to be used.

    Grouping a row's order by class with a stable sort keeps distance order
    within each class, so the first ``kk`` of a class lie in the shortest
    prefix of the order that holds ``kk`` members of it: the rows whose first
    ``prefix`` columns hold enough of every class are grouped on that prefix
    only (per label of a binary-relevance decomposition a 1 024-column sort
    instead of one over every training instance), the others on the whole
    order, with the same result. With ``mask``, one or two classes go to
    :func:`class_neighbours_by_mask` (with ``gather``). ``prefix``, ``mask``
    and ``gather`` choose the work, not the result (tested).
    """
    b, n = S.shape
    n_cls = counts.size
    if n_cls <= 2 and mask:
        return class_neighbours_by_mask(S, key, counts, kk, k, D, gather=gather)
    j = np.arange(k)
    out = np.empty((b, n_cls, k), dtype=S.dtype)

    def group(S_part, starts):
        """Class-grouped neighbours of rows ``S_part`` from per-row starts."""
        r = np.arange(S_part.shape[0])[:, None]
        by_class = S_part[r, np.argsort(key[S_part], axis=1, kind="stable")]
        pos = np.minimum(starts[:, :, None] + j, S_part.shape[1] - 1)
        return by_class[r[:, :, None], pos]

    rest = np.arange(b)
    width = prefix if 0 < prefix < n else 0
    if width:
        head = S[:, :width]
        cells = np.arange(b)[:, None] * n_cls + key[head]
        in_head = np.bincount(cells.ravel(), minlength=b * n_cls).reshape(b, n_cls)
        enough = (in_head >= kk).all(axis=1)
        if enough.any():
            starts = np.cumsum(in_head[enough], axis=1) - in_head[enough]
            out[enough] = group(head[enough], starts)
        rest = np.flatnonzero(~enough)
    if rest.size:
        starts = np.broadcast_to(np.cumsum(counts) - counts, (rest.size, n_cls))
        out[rest] = group(S[rest], starts)
    return out
