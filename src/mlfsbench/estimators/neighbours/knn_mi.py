"""kNN mutual information's searches (Doquire & Verleysen 2013, the
``knnmi-*`` selectors): distances to the K-th neighbour, which are the same
whichever of equally distant points is called the K-th (the package's
docstring).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

__all__ = ["kth_distances_1d", "kth_neighbour_sq_distances", "kth_smallest",
           "sorted_neighbours"]

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


