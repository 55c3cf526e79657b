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

The package's modules: :mod:`._select` (:func:`smallest_k`, the tie rule's
selection, and its :data:`~._select.COMPILED_SEARCH` switch), :mod:`.index`
(the k-NN learners' indexes and their memory settings), :mod:`.knn_mi` (kNN
MI's distances to the K-th neighbour) and :mod:`.relief` (ReliefF's
distances and neighbours per class). A setting is changed in the module
that holds it (e.g. ``neighbours.index.SEARCH_MEMORY_MIB``).
"""

from __future__ import annotations

from mlfsbench.estimators.neighbours._select import smallest_k
from mlfsbench.estimators.neighbours.index import (
    EXACT_BOUND,
    NESTED_KEYS_MIB,
    SEARCH_MEMORY_MIB,
    EuclideanIndex,
    KeyedIndex,
    KeyedRows,
    NestedKeys,
    SharedIndex,
    SharedRows,
    exact_values,
)
from mlfsbench.estimators.neighbours.knn_mi import (
    kth_distances_1d,
    kth_neighbour_sq_distances,
    kth_smallest,
    sorted_neighbours,
)
from mlfsbench.estimators.neighbours.relief import (
    RELIEFF_PREFIX,
    class_neighbours,
    class_neighbours_by_mask,
    euclidean_distances,
    manhattan_distances,
    members_by_distance,
    small_int_keys,
    two_class_neighbours,
)

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
    "euclidean_distances",
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
