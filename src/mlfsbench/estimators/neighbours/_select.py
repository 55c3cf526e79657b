"""The k smallest entries of each row by (value, column): the tie rule every
neighbour search of the estimators orders by (see the package's docstring).

:func:`smallest_k` runs a compiled one-pass selection (Numba, compiled on
first use) or, with :data:`COMPILED_SEARCH` false, the NumPy selection by
group minima that the benchmarks and tests take as the reference; both give
the columns of ``np.argsort(D, axis=1, kind="stable")[:, :k]``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["COMPILED_SEARCH", "smallest_k"]

#: Whether :func:`smallest_k` runs its compiled one-pass selection
#: (:func:`_smallest_k_rows`); ``False`` restores the NumPy selection by
#: group minima (the reference of the benchmarks, and of the tests).
COMPILED_SEARCH = True

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
    return smallest_k_shifted(D, None, k)


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


def smallest_k_shifted(D: np.ndarray, shift: np.ndarray | None, k: int) -> np.ndarray:
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


