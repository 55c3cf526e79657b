"""The k-NN learners' exact Euclidean search: :class:`EuclideanIndex` (a fit,
a prediction), :class:`NestedKeys` and :class:`KeyedIndex` (the K path on
exact features), :class:`SharedIndex` (one index for many queries), ordered
by :func:`~mlfsbench.estimators.neighbours._select.smallest_k` (the tie
rule: the package's docstring).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.linalg.blas import dgemm as _gemm
from scipy.linalg.blas import sgemm as _gemm32

from mlfsbench.estimators.neighbours._select import smallest_k_shifted

__all__ = ["EXACT_BOUND", "NESTED_KEYS_MIB", "READY_KEYS", "SEARCH_MEMORY_MIB",
           "SINGLE_KEYS", "EuclideanIndex", "KeyedIndex", "KeyedRows", "NestedKeys",
           "SharedIndex", "SharedRows", "exact_values"]

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

#: Memory (MiB) the K path may hold for the accumulated keys of a fold with
#: exact (integer-valued) features (:class:`NestedKeys`); larger folds search
#: each subset from its own product, as a fit does.
NESTED_KEYS_MIB = 256

#: Query rows per block of :class:`EuclideanIndex` (bibtex's 3 697 training
#: rows: 3.6 MB of keys a block, which stay in cache between the passes of
#: :func:`smallest_k`; the whole 110 MB matrix at once took 4 times longer).
_BLOCK_ROWS = 128


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
            out[start:stop] = smallest_k_shifted(keys, shift, int(k))
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



