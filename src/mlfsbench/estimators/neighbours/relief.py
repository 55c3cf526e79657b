"""ReliefF's and RReliefF's searches: Manhattan (and Euclidean) distances
and the nearest hits and misses per class, in each row's (distance, index)
order (the package's docstring).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist

__all__ = ["RELIEFF_PREFIX", "class_neighbours", "class_neighbours_by_mask",
           "euclidean_distances", "manhattan_distances", "members_by_distance",
           "small_int_keys", "two_class_neighbours"]

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
    >>> import scipy.sparse
    >>> manhattan_distances(X, np.array([0, 2]), scipy.sparse.csr_matrix(X)).tolist()
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
