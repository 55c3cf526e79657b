"""BRkNN-a and BRkNN-b: binary-relevance k-NN with one neighbour search.

Reference: E. Spyromitros, G. Tsoumakas and I. Vlahavas, "An empirical study of
lazy multilabel classification algorithms", *SETN 2008*, LNAI 5138, pp. 401-406
(Sec. 3, "BRkNN" and its extensions -a and -b); used with ``k = 5`` by Spolaôr,
Cherman, Monard & Lee (2013), Sec. 2.4.

BRkNN is binary relevance with a k-NN base learner whose ``q`` binary searches
are replaced by a single search: for a query ``x`` with neighbours ``N(x)``
(``|N(x)| = k``) and training labels ``y_jl``, the **confidence** of label
``l`` is the fraction of neighbours having it::

    conf_l(x) = (1 / k) * sum_{j in N(x)} y_jl

(returned by ``predict_proba``). The two extensions differ in the label set
they output:

- **BRkNN-a**: every label with ``conf_l(x) >= 0.5``; if there is none, the
  single label of highest confidence (so the prediction is never empty).
- **BRkNN-b**: the ``round(s)`` labels of highest confidence, where
  ``s = (1 / k) * sum_{j in N(x)} |Y_j|`` is the average labelset size of the
  neighbours.

Choices where the paper is silent (tested in ``tests/test_brknn.py``):

- ``round`` is *half up* (``floor(s + 0.5)``, Java's ``Math.round`` used by
  Mulan), computed in integers as ``(2 * sum |Y_j| + k) // (2 k)``; NumPy's
  half-to-even ``np.round`` would turn ``s = 2.5`` into 2 and ``0.5`` into 0.
- BRkNN-b outputs at least one label: when ``s`` rounds to 0 (neighbours
  mostly without labels) the top label is output, never an empty *or full*
  set (a ``top-0`` selection written as ``confidence >= 0-th largest`` picks
  every label).
- Ties in confidence at the boundary (the ``round(s)``-th and next label of
  BRkNN-b; the top label of BRkNN-a when none reaches 0.5) are broken
  uniformly at random with ``check_random_state(random_state)``, created
  afresh at each :meth:`predict` call (an integer seed gives the same
  predictions every call). Ties away from the boundary do not matter.
- The 0.5 threshold is compared exactly, in integers: ``2 * count >= k``.
- Features are min-max scaled on the training part when ``scale=True``, with
  the helpers of :mod:`mlfsbench.estimators.classifiers._base` (Weka's
  ``EuclideanDistance`` normalisation, the default of Mulan's ``BRkNN``);
  distances are Euclidean. Among equally distant neighbours the earlier
  training instances come first
  (:class:`~mlfsbench.estimators.neighbours.EuclideanIndex`, the tie rule of
  :mod:`mlfsbench.estimators.neighbours`).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.classifiers._base import (
    MultiLabelClassifier,
    ScaledNeighboursMixin,
    neighbour_label_counts,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import (
    check_labels,
    check_n_train,
    positive_count,
)

__all__ = [
    "BRkNNa",
    "BRkNNb",
    "brknn_a_decisions",
    "brknn_b_decisions",
    "brknn_b_sizes",
    "top_labels",
]


# --------------------------------------------------------------------------
# Pure decision rules
# --------------------------------------------------------------------------
def top_labels(counts: np.ndarray, n_top: np.ndarray, rng) -> np.ndarray:
    """0/1 matrix selecting the ``n_top[i]`` labels of highest count in row ``i``.

    Ties at the boundary are broken uniformly at random: each count gets a
    random fraction in ``[0, 1)``, which orders equal counts without ever
    crossing an integer.

    Parameters
    ----------
    counts : ndarray of int, shape (n, q)
        Neighbour label counts (confidence times ``k``).
    n_top : ndarray of int, shape (n,)
        Labels to select per row, in ``0..q``.
    rng : numpy.random.RandomState

    Returns
    -------
    ndarray of int64, shape (n, q)

    Examples
    --------
    >>> rng = np.random.RandomState(0)
    >>> top_labels(np.array([[3, 1, 2], [0, 5, 5]]), np.array([2, 1]), rng)[0]
    array([1, 0, 1])
    """
    counts = np.asarray(counts)
    n, q = counts.shape
    key = counts + rng.random_sample((n, q))
    order = np.argsort(-key, axis=1, kind="stable")
    position = np.empty_like(order)
    np.put_along_axis(position, order, np.arange(q)[np.newaxis, :], axis=1)
    return (position < np.asarray(n_top)[:, np.newaxis]).astype(np.int64)


def brknn_a_decisions(counts: np.ndarray, k: int, rng) -> np.ndarray:
    """BRkNN-a label sets from neighbour counts (Spyromitros et al. 2008, Sec. 3).

    Labels with confidence ``counts / k >= 0.5``; a row with none gets its
    top label (random among tied tops).

    Examples
    --------
    >>> rng = np.random.RandomState(0)
    >>> brknn_a_decisions(np.array([[5, 4, 6], [1, 3, 2]]), 10, rng).tolist()
    [[1, 0, 1], [0, 1, 0]]
    """
    counts = np.asarray(counts, dtype=np.int64)
    Y = (2 * counts >= k).astype(np.int64)
    empty = ~Y.any(axis=1)
    if empty.any():
        Y[empty] = top_labels(counts[empty], np.ones(int(empty.sum()), int), rng)
    return Y


def brknn_b_sizes(label_total: np.ndarray, k: int) -> np.ndarray:
    """``max(1, round_half_up(label_total / k))``: BRkNN-b's label-set sizes.

    ``label_total[i]`` is the summed labelset size of query ``i``'s ``k``
    neighbours, so ``label_total / k`` is their average size ``s``.

    Examples
    --------
    >>> brknn_b_sizes(np.array([25, 15, 14, 4, 0]), 10).tolist()
    [3, 2, 1, 1, 1]
    """
    label_total = np.asarray(label_total, dtype=np.int64)
    return np.maximum((2 * label_total + k) // (2 * k), 1)


def brknn_b_decisions(counts: np.ndarray, k: int, rng) -> np.ndarray:
    """BRkNN-b label sets from neighbour counts (Spyromitros et al. 2008, Sec. 3).

    The ``max(1, round(s))`` labels of highest confidence, ``s`` the average
    labelset size of the neighbours (``counts.sum(axis=1) / k``), rounded
    half up; random tie-breaks at the boundary.

    Examples
    --------
    >>> rng = np.random.RandomState(0)
    >>> brknn_b_decisions(np.array([[2, 1, 0], [4, 4, 2]]), 4, rng)[0].tolist()
    [1, 0, 0]
    """
    counts = np.asarray(counts, dtype=np.int64)
    sizes = np.minimum(brknn_b_sizes(counts.sum(axis=1), k), counts.shape[1])
    return top_labels(counts, sizes, rng)


# --------------------------------------------------------------------------
# Estimators
# --------------------------------------------------------------------------
class _BRkNN(ScaledNeighboursMixin, MultiLabelClassifier):
    """Shared fit / neighbour search / confidences of BRkNN-a and -b."""

    _rule = staticmethod(brknn_a_decisions)

    _parameter_constraints: dict = {
        "k": [positive_count()],
        "scale": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, *, k=10, scale=True, random_state=None):
        self.k = k
        self.scale = scale
        self.random_state = random_state

    def _check_y(self, Y, n_samples: int) -> np.ndarray:
        Y = check_labels(Y, n_samples)
        check_n_train(n_samples, self.k, self.k)
        return Y

    def _fit_scaled(self, Xs, Y: np.ndarray) -> None:
        self.n_labels_ = Y.shape[1]
        self._index(Xs)
        self._Y = Y

    def _decisions(self, counts: np.ndarray) -> np.ndarray:
        return self._rule(counts, int(self.k), check_random_state(self.random_state))

    def _predict_scaled(self, Xs):
        counts = neighbour_label_counts(self._query_neighbours(Xs, self.k), self._Y)
        return self._decisions(counts), counts / self.k

    def neighbour_counts(self, X) -> np.ndarray:
        """Number of the ``k`` nearest training neighbours having each label.

        Returns
        -------
        ndarray of int64, shape (n_samples, n_labels)
        """
        check_is_fitted(self, "index_")
        Xs = self._check_query(X)
        return neighbour_label_counts(self._query_neighbours(Xs, self.k), self._Y)

    def predict_proba(self, X) -> np.ndarray:
        """Label confidences: fraction of the ``k`` neighbours having each label.

        Returns
        -------
        ndarray, shape (n_samples, n_labels), values in ``{0, 1/k, ..., 1}``
        """
        return self.neighbour_counts(X) / self.k

    def predict(self, X) -> np.ndarray:
        """0/1 label sets (see the module docstring for the rule and ties).

        Returns
        -------
        ndarray of int64, shape (n_samples, n_labels)
        """
        return self._decisions(self.neighbour_counts(X))


@register("classifier", "brknn-a")
class BRkNNa(_BRkNN):
    """BRkNN-a: labels with neighbour confidence >= 0.5, else the top label.

    Spyromitros, Tsoumakas & Vlahavas (2008), Sec. 3; see the module docstring
    for the conventions.

    Parameters
    ----------
    k : int, default=10
        Number of neighbours.
    scale : bool, default=True
        Min-max scale features on the training part (Mulan's default).
    random_state : int, RandomState or None, default=None
        Seeds the tie-breaks of :meth:`predict`.

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [0.2], [1.0], [1.1], [1.2]])
    >>> Y = np.array([[1, 0], [1, 1], [1, 0], [0, 1], [0, 1], [0, 1]])
    >>> clf = BRkNNa(k=3).fit(X, Y)
    >>> clf.predict_proba(np.array([[0.05]])).round(3).tolist()
    [[1.0, 0.333]]
    >>> clf.predict(np.array([[0.05], [1.15]])).tolist()
    [[1, 0], [0, 1]]
    """

    _rule = staticmethod(brknn_a_decisions)


@register("classifier", "brknn-b")
class BRkNNb(_BRkNN):
    """BRkNN-b: the round(s) most confident labels, s = neighbours' mean labelset size.

    Spyromitros, Tsoumakas & Vlahavas (2008), Sec. 3; Spolaôr et al. (2013) run
    it with ``k = 5``. ``round`` is half up and the size is at least 1; see the
    module docstring.

    Parameters
    ----------
    k : int, default=10
        Number of neighbours.
    scale : bool, default=True
        Min-max scale features on the training part (Mulan's default).
    random_state : int, RandomState or None, default=None
        Seeds the tie-breaks of :meth:`predict`.

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [0.2], [1.0], [1.1], [1.2]])
    >>> Y = np.array([[1, 1], [1, 1], [1, 0], [0, 1], [0, 1], [0, 1]])
    >>> clf = BRkNNb(k=3, random_state=0).fit(X, Y)
    >>> clf.predict(np.array([[0.05], [1.15]])).tolist()
    [[1, 1], [0, 1]]
    """

    _rule = staticmethod(brknn_b_decisions)
