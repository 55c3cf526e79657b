r"""Granular multi-label feature selection (Li, Miao & Pedrycz 2017).

F. Li, D. Miao, W. Pedrycz (2017), "Granular multi-label feature selection based
on mutual information", *Pattern Recognition* 67:410-423.

1. The labels are granulated into ``granules`` information granules by
   balanced k-means (Algorithm 1,
   :class:`mlfsbench.estimators.transformations.granulation.Granulation`).
2. For every granule ``G`` a feature subset ``S`` is grown greedily with the
   maximal-correlation minimal-redundancy criterion (Eqs. 13-16)

   .. math::

       \Gamma(x_i) = \frac{1}{|G|} \sum_{l_j \in G} MI(x_i; l_j)
           - \frac{1}{|S|} \sum_{x_j \in S} MI(x_i; x_j),

   the first feature of a granule being the one of largest mean MI with the
   granule's labels (``S`` empty: no redundancy term).
3. Fig. 2: one classifier is trained per granule on the granule's own feature
   subset and labels, and their predictions are combined -- the per-granule
   classification path of :func:`mlfsbench.workflow.stages.classify`, which reads the
   ``granules`` of the selection record (labels and ranking of each granule).

``granules=1`` is multi-label mRMR without granulation; ``granules = |L|``
gives one granule per label.

Outputs: ``granules_`` and ``granule_rankings_`` (one full ranking per
granule: its greedy selection, then the remaining features by decreasing
granule relevance). A single combined ``ranking_`` is also provided for the
single-classifier path: *round-robin* over the granules -- the first feature of
every granule (in granule order), then the second of every granule, and so on,
skipping features already taken -- through the greedy parts, then the other
features by decreasing mean MI with all labels.

MI is the plug-in estimate in bits on discretized features; the redundancy
columns :math:`MI(\cdot; x_j)` are computed once per selected feature and
shared by all granules. Greedy-search conventions (cap of 50 steps per granule
by default, ties, ``scores_``): :mod:`mlfsbench.estimators.selectors._greedy`.
"""

from __future__ import annotations

import numpy as np

from mlfsbench.estimators.information.entropy import (
    CodeIndicators,
    mutual_information_matrix,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector
from mlfsbench.estimators.selectors._greedy import (
    check_discrete_features,
    column,
    complete_ranking,
    greedy_forward,
    n_greedy_steps,
)
from mlfsbench.estimators.transformations.granulation import Granulation


def granule_mrmr(X, correlation: np.ndarray, n_steps: int, redundancy=None, *,
                 trace: list | None = None):
    """Greedy maximization of Eq. 16 for one granule.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Discrete feature codes.
    correlation : ndarray of shape (n_features,)
        ``C`` of Eq. 13: mean MI of every feature with the granule's labels.
    n_steps : int
    redundancy : callable ``s -> MI(X; x_s)``, optional
        Redundancy column of a selected feature (default: computed).
    trace : list, optional
        Receives the criterion vector of every step.

    Returns
    -------
    selected : list of int
    step_scores : list of float

    Examples
    --------
    >>> X = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1]])
    >>> granule_mrmr(X, np.array([1.0, 1.0, 0.5]), 3)
    ([0, 2, 1], [1.0, 0.5, 0.5])
    """
    X = check_discrete_features(X)
    if redundancy is None:
        XI = CodeIndicators(X)

        def redundancy(s):
            return mutual_information_matrix(XI, column(X, s))[:, 0]

    def criterion(acc, t):
        return correlation - acc / t if t else correlation

    return greedy_forward(X.shape[1], n_steps, criterion, redundancy,
                          trace=trace)


def round_robin(rankings, n_steps: int) -> list[int]:
    """Interleave the first ``n_steps`` entries of each ranking, no repeats.

    >>> round_robin([[3, 1, 2], [3, 0, 2]], 2)
    [3, 1, 0]
    """
    out: list[int] = []
    seen: set[int] = set()
    for t in range(n_steps):
        for ranking in rankings:
            if t < len(ranking) and int(ranking[t]) not in seen:
                seen.add(int(ranking[t]))
                out.append(int(ranking[t]))
    return out


@register("selector", "granular-mrmr")
class GranularMRMR(BaseMultiLabelSelector):
    """Granular mRMR (Li et al. 2017): one mRMR subset per label granule.

    See :mod:`mlfsbench.estimators.selectors.granular` for Eqs. 13-16, Fig. 2 and the
    combined ranking.

    Parameters
    ----------
    granules : int, default=1
        Number of label granules (1: no granulation; the number of labels:
        one granule per label). Li et al. used 9 (enron), 5 (medical) and 2
        (emotions).
    max_iter : int, default=100
        Iterations of the granulation (Algorithm 1's ``it``).
    n_features_to_select : int or None, default=None
        Greedy steps per granule (``None``: 50, or all features if fewer).
    random_state : int, RandomState or None
        Seeds the granulation.

    Attributes
    ----------
    granules_ : list of ndarray
        Label indices of each granule.
    granule_rankings_ : list of ndarray
        Full ranking of each granule (greedy part first).
    granule_scores_ : list of ndarray
        Criterion of each greedily selected feature at its step, per granule.
    ranking_ : ndarray of shape (n_features,)
        Round-robin combination of the granule rankings.
    scores_ : ndarray of shape (n_features,)
        For features of the round-robin part, the criterion at the step the
        contributing granule selected them; NaN otherwise.
    mi_ : ndarray of shape (n_features, n_labels)
        ``MI(x_i; l_j)`` in bits.

    Examples
    --------
    >>> X = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1]] * 2)
    >>> Y = X[:, [0, 2]]
    >>> sel = GranularMRMR(granules=2, random_state=0).fit(X, Y)
    >>> [g.tolist() for g in sel.granules_], sel.ranking_.tolist()
    ([[0], [1]], [0, 2, 1])
    >>> [r.tolist() for r in sel.granule_rankings_]
    [[0, 1, 2], [2, 0, 1]]
    """

    input_kind = "discrete"

    def __init__(self, *, granules=1, max_iter=100, n_features_to_select=None,
                 random_state=None):
        self.granules = granules
        self.max_iter = max_iter
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)

    def _fit(self, X, Y):
        p = X.shape[1]
        self.granulation_ = Granulation(
            n_granules=self.granules, max_iter=self.max_iter,
            random_state=self.random_state,
        ).fit(Y)
        self.granules_ = [g.copy() for g in self.granulation_.granules_]
        XI = CodeIndicators(X)  # built once for every step and granule
        self.mi_ = mi = mutual_information_matrix(XI, Y)
        n_steps = n_greedy_steps(self.n_features_to_select, p)
        cache: dict[int, np.ndarray] = {}

        def redundancy(s: int) -> np.ndarray:
            if s not in cache:
                cache[s] = mutual_information_matrix(XI, column(X, s))[:, 0]
            return cache[s]

        self.granule_rankings_, self.granule_scores_ = [], []
        greedy_parts = []
        for g in self.granules_:
            correlation = mi[:, g].mean(axis=1)
            selected, step_scores = granule_mrmr(X, correlation, n_steps,
                                                 redundancy)
            greedy_parts.append(selected)
            self.granule_scores_.append(np.asarray(step_scores))
            self.granule_rankings_.append(complete_ranking(selected, correlation))

        scores = np.full(p, np.nan)
        for t in range(n_steps):
            for part, part_scores in zip(greedy_parts, self.granule_scores_,
                                         strict=True):
                if np.isnan(scores[part[t]]):
                    scores[part[t]] = part_scores[t]
        combined = round_robin(greedy_parts, n_steps)
        return scores, complete_ranking(combined, mi.mean(axis=1))
