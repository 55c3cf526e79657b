r"""Label granulation by balanced k-means (Li, Miao & Pedrycz 2017, Algorithm 1).

F. Li, D. Miao, W. Pedrycz (2017), "Granular multi-label feature selection based
on mutual information", *Pattern Recognition* 67:410-423, Section 4.1. The
labels are grouped into ``n`` information granules of at most
:math:`\lceil |L| / n \rceil` labels each:

1. the ``n`` granule centers start as ``n`` distinct labels drawn at random;
2. the distance :math:`d_{kj}` of every label :math:`l_j` to every center
   :math:`g_k` is computed from the label data ``W``;
3. repeatedly the globally smallest :math:`d_{kj}` is taken: if granule ``k``
   is full its distance is set to infinity, otherwise :math:`l_j` joins
   :math:`G_k` and all distances of :math:`l_j` are set to infinity;
4. the centers are recomputed; the loop stops when they no longer change or
   after ``it`` iterations.

Choices where the paper is silent (tested):

- A label is its 0/1 column over the training instances and the distance is
  Euclidean; a center is the mean of its granule's label columns (k-means).
- Step 3 visits the (granule, label) pairs once in increasing distance order,
  which is the same as repeatedly taking the minimum; equal distances go to
  the lower granule, then the lower label index.
- "Centers unchanged" is tested as "assignment unchanged" (the centers are
  the means of the members, so both are the same).
- A granule left empty keeps its previous center and is dropped from the
  output; granules are output with sorted label indices, ordered by their
  smallest label. ``n`` larger than ``|L|`` is reduced to ``|L|``.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import check_label_matrix, positive_count


def balanced_assignment(D: np.ndarray, capacity: int) -> np.ndarray:
    """Greedy capacity-constrained assignment of Li et al. (2017), Algorithm 1.

    Parameters
    ----------
    D : ndarray of shape (n_granules, n_labels)
        Distance of every label to every granule center.
    capacity : int
        Maximum number of labels per granule.

    Returns
    -------
    granule_of : ndarray of shape (n_labels,)

    Examples
    --------
    >>> D = np.array([[0.0, 0.1, 0.2], [5.0, 5.0, 0.3]])
    >>> balanced_assignment(D, 2).tolist()
    [0, 0, 1]
    >>> balanced_assignment(D, 1).tolist()  # 3 labels cannot fit: capacity
    Traceback (most recent call last):
    ...
    ValueError: 2 granules of capacity 1 cannot hold 3 labels
    """
    n_granules, n_labels = D.shape
    if n_granules * capacity < n_labels:
        raise ValueError(f"{n_granules} granules of capacity {capacity} cannot "
                         f"hold {n_labels} labels")
    granule_of = np.full(n_labels, -1, dtype=np.intp)
    size = np.zeros(n_granules, dtype=np.intp)
    left = n_labels
    for flat in np.argsort(D, axis=None, kind="stable"):
        k, j = divmod(int(flat), n_labels)
        if granule_of[j] >= 0 or size[k] >= capacity:
            continue
        granule_of[j] = k
        size[k] += 1
        left -= 1
        if left == 0:
            break
    return granule_of


@register("transformation", "granulation")
class Granulation(TransformerMixin, BaseEstimator):
    """Balanced k-means granulation of the labels (Li et al. 2017, Algorithm 1).

    See the module docstring for the algorithm and its conventions.

    Parameters
    ----------
    n_granules : int, default=1
        Number of information granules ``n`` (1: every label together;
        ``|L|``: one granule per label).
    max_iter : int, default=100
        Iterations ``it``.
    random_state : int, RandomState or None
        Seeds the initial centers.

    Attributes
    ----------
    granules_ : list of ndarray
        Sorted label indices of each non-empty granule.
    granule_of_ : ndarray of shape (n_labels,)
        Index into ``granules_`` of each label's granule.
    n_iter_ : int
        Iterations run.

    Examples
    --------
    >>> Y = np.array([[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 1, 1, 1]])
    >>> g = Granulation(n_granules=2, random_state=0).fit(Y)
    >>> [x.tolist() for x in g.granules_]
    [[0, 1], [2, 3]]
    >>> [part.shape for part in g.transform(Y)]
    [(4, 2), (4, 2)]
    """

    _parameter_constraints: dict = {
        "n_granules": [positive_count()],
        "max_iter": [positive_count()],
        "random_state": ["random_state"],
    }

    def __init__(self, *, n_granules=1, max_iter=100, random_state=None):
        self.n_granules = n_granules
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, Y, y=None):
        """Granulate the label columns of the training labels ``Y``."""
        Y = check_label_matrix(Y)
        q = Y.shape[1]
        if q == 0:
            raise ValueError("Y has no labels")
        if int(self.n_granules) < 1:
            raise ValueError(f"n_granules must be >= 1, got {self.n_granules}")
        n = min(int(self.n_granules), q)
        capacity = math.ceil(q / n)
        rng = check_random_state(self.random_state)
        W = Y.T.astype(float)  # one row per label
        centers = W[rng.choice(q, n, replace=False)]
        granule_of = None
        self.n_iter_ = 0
        sq_norms = (W**2).sum(axis=1)
        for _ in range(max(1, int(self.max_iter))):
            self.n_iter_ += 1
            sq = (centers**2).sum(1)[:, None] + sq_norms[None, :] - 2 * centers @ W.T
            D = np.sqrt(np.maximum(sq, 0.0))
            new = balanced_assignment(D, capacity)
            if granule_of is not None and np.array_equal(new, granule_of):
                break
            granule_of = new
            for k in range(n):
                members = granule_of == k
                if members.any():
                    centers[k] = W[members].mean(axis=0)
        # Renumber the non-empty granules by their smallest label.
        used = [k for k in range(n) if (granule_of == k).any()]
        used.sort(key=lambda k: int(np.flatnonzero(granule_of == k)[0]))
        self.granules_ = [np.flatnonzero(granule_of == k) for k in used]
        self.granule_of_ = np.empty(q, dtype=np.intp)
        for i, g in enumerate(self.granules_):
            self.granule_of_[g] = i
        self.n_labels_ = q
        return self

    def transform(self, Y) -> list[np.ndarray]:
        """The label sub-matrix ``Y[:, granule]`` of every granule."""
        check_is_fitted(self, "granules_")
        Y = check_label_matrix(Y)
        if Y.shape[1] != self.n_labels_:
            raise ValueError(f"Y has {Y.shape[1]} labels; expected {self.n_labels_}")
        return [Y[:, g] for g in self.granules_]
