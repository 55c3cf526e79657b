r"""Doquire & Verleysen (2013): kNN mutual information on the pruned label powerset.

The method of G. Doquire, M. Verleysen (2013), "Mutual information-based
feature selection for multilabel classification", Neurocomputing 122:

1. **PPT** (Section 3): every distinct labelset of the training labels is a
   class; the samples of classes with fewer than ``p`` samples are removed
   (:class:`mlfsbench.estimators.transformations.lp.PrunedProblemTransformation`,
   ``reassign=False``). ``p > K`` is required, so that every class has the
   ``K`` within-class neighbours the estimator needs.
2. **Estimator** (Eq. 7, :mod:`mlfsbench.estimators.information.knn`): multivariate
mutual
   information, in nats, between the continuous features (standardized on the
   training part, jittered by ``noise`` to break ties) and the PPT class.
3. **Search** (Section 3): greedy forward selection (``knnmi-forward``),
   backward elimination (``knnmi-backward``, Section 5.1) or the univariate
   ranking baseline (``knnmi-rank``, the paper's "MI").
4. **Automatic p** (Section 4, Eq. 8), ``p="auto"``: for every candidate
   ``p`` in ``p_range`` (and every ``K`` of ``k_grid`` below ``p``, if given),
   the training data is pruned with ``p`` and split into ``n_folds`` (20)
   stratified folds; on each fold's training part the univariate estimate of
   every feature, :math:`I(f^i; O_t)`, and of an independently permuted copy,
   :math:`I(f^{i,\pi}; O_t)`, are computed. The Student measure

   .. math::

       t_x^i = \frac{\mu_x - \mu_x^\pi}{\sqrt{\sigma_x^2 + (\sigma_x^\pi)^2}}

   (means and unbiased variances over the folds) is taken per feature, and the
   ``p`` (and ``K``) of the largest :math:`t_x^i` over all features wins (ties:
   the smaller ``p``, then the smaller ``K``).

Choices where the paper is silent
---------------------------------
- The 20 estimates use the 20 **training parts** (19/20 of the data each):
  the paper says "non-overlapping subsets ... using a 20-fold
  cross-validation scheme", but a 1/20 subset of emotions (~20 samples) cannot
  give ``K = 4`` within-class neighbours for classes of ``p <= 20`` samples.
- Inside a fold, classes left with ``K`` or fewer samples are dropped for that
  estimate (the PPT rule with ``K + 1``).
- Each feature of each fold is permuted independently (seeded).
- Standardization uses all training samples given to ``fit``, before pruning.
- The search uses only the pruned samples; the workflow then classifies with
  all instances (Section 5.3): the selector only returns a ranking.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from mlfsbench.estimators.information.knn import (
    DEFAULT_K,
    DEFAULT_NOISE,
    backward_elimination,
    forward_selection,
    prepare_features,
    standardize,
    univariate_prepared,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector, rank_scores
from mlfsbench.estimators.transformations.lp import PrunedProblemTransformation
from mlfsbench.estimators.validation import Count

__all__ = [
    "DEFAULT_MAX_FORWARD_STEPS",
    "KnnMIBackward",
    "KnnMIForward",
    "KnnMIRank",
    "pruning_t_statistics",
]

#: Forward steps when ``n_features_to_select`` is None (the rest of the
#: features follow by univariate score).
DEFAULT_MAX_FORWARD_STEPS = 50


def _check_counts(values, name: str, minimum: int) -> list[int]:
    """The integers of a parameter holding several (``p_range``, ``k_grid``)."""
    count = Count(Integral, minimum, None, closed="left")
    bad = [v for v in values if not count.is_satisfied_by(v)]
    if bad:
        raise ValueError(f"{name} must hold integers >= {minimum}, got {bad[0]!r}")
    return [int(v) for v in values]


def _ppt_classes(Y: np.ndarray, p: int) -> np.ndarray:
    """PPT class of each row (``-1``: pruned)."""
    return PrunedProblemTransformation(p=p).fit(Y).transform(Y)


def _drop_small(y: np.ndarray, k: int) -> np.ndarray:
    """Mask of the samples whose class has more than ``k`` members."""
    _, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    return counts[inverse.reshape(-1)] > k


def pruning_t_statistics(Z: np.ndarray, Y: np.ndarray, *, p_values: Sequence[int],
                         k_values: Sequence[int], n_folds: int = 20,
                         random_state=None):
    """Eq. 8 for every feature and every ``(p, K)`` with ``K < p``.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_features)
        Standardized training features.
    Y : ndarray of shape (n_samples, n_labels)
        Binary training labels.
    p_values, k_values : sequences of int
        Candidate pruning parameters and numbers of neighbours.
    n_folds : int, default=20
        Folds of the resampling (Section 4 uses 20).
    random_state : None, int or RandomState
        Seeds the folds, the permutations and the jitter.

    Returns
    -------
    grid : list of (p, k)
    t : ndarray of shape (len(grid), n_features)
        ``t[g, i]``: the Student measure of feature ``i`` under ``grid[g]``
        (``nan`` when fewer than two classes survive the pruning).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, (300, 2))
    >>> Z = np.column_stack([Y[:, 0] + 0.3 * rng.standard_normal(300),
    ...                      rng.standard_normal(300)])
    >>> grid, t = pruning_t_statistics(Z, Y, p_values=[5, 6], k_values=[4],
    ...                                n_folds=5, random_state=0)
    >>> grid, bool(t[0, 0] > 5 > abs(t[0, 1]))
    ([(5, 4), (6, 4)], True)
    """
    rng = check_random_state(random_state)
    seed_folds = int(rng.randint(np.iinfo(np.int32).max))
    permuter = np.random.default_rng(int(rng.randint(np.iinfo(np.int32).max)))
    noise_seed = int(rng.randint(np.iinfo(np.int32).max))
    grid, rows = [], []
    for p in p_values:
        classes = _ppt_classes(Y, p)
        keep = classes >= 0
        Zp = prepare_features(Z[keep], standardize_features=False,
                              random_state=noise_seed)
        yp = classes[keep]
        ks = [k for k in k_values if k < p]
        if len(np.unique(yp)) < 2:
            for k in ks:
                grid.append((p, k))
                rows.append(np.full(Z.shape[1], np.nan))
            continue
        # StratifiedKFold needs a class at least as large as n_splits.
        n_splits = min(n_folds, int(np.bincount(
            np.unique(yp, return_inverse=True)[1].reshape(-1)).max()))
        if n_splits < 2:
            for k in ks:
                grid.append((p, k))
                rows.append(np.full(Z.shape[1], np.nan))
            continue
        folds = StratifiedKFold(n_splits=n_splits, shuffle=True,
                                random_state=seed_folds)
        real = {k: [] for k in ks}
        perm = {k: [] for k in ks}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # classes < n_folds
            splits = list(folds.split(Zp, yp))
        for train, _ in splits:
            Zf, yf = Zp[train], yp[train]
            Zf_perm = permuter.permuted(Zf, axis=0)  # each column independently
            for k in ks:
                ok = _drop_small(yf, k)
                if len(np.unique(yf[ok])) < 2:
                    continue
                codes = np.unique(yf[ok], return_inverse=True)[1].reshape(-1)
                counts = np.bincount(codes)
                real[k].append(univariate_prepared(Zf[ok], codes, counts, k))
                perm[k].append(univariate_prepared(Zf_perm[ok], codes, counts, k))
        for k in ks:
            grid.append((p, k))
            if len(real[k]) < 2:
                rows.append(np.full(Z.shape[1], np.nan))
                continue
            a, b = np.array(real[k]), np.array(perm[k])
            den = np.sqrt(a.var(axis=0, ddof=1) + b.var(axis=0, ddof=1))
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (a.mean(axis=0) - b.mean(axis=0)) / den
            rows.append(np.where(den > 0, t, np.nan))
    return grid, np.array(rows).reshape(len(grid), Z.shape[1])


class _KnnMIBase(BaseMultiLabelSelector):
    """Shared parameters, PPT and the choice of ``p`` (see the module docstring).

    Parameters
    ----------
    k : int, default=4
        Nearest neighbours ``K`` of the estimator (Eq. 7).
    p : int or "auto", default="auto"
        PPT pruning parameter (``p > k``), or chosen by Eq. 8.
    p_range : (int, int), default=(5, 20)
        Inclusive range of the candidate ``p`` values for ``p="auto"``.
    k_grid : sequence of int or None, default=None
        With ``p="auto"``, choose ``K`` among these values too (pairs with
        ``K < p``); ``None`` keeps ``k``.
    n_folds : int, default=20
        Folds of the Eq. 8 resampling.
    noise : float, default=1e-10
        Jitter of the standardized features (the duplicate-point guard of
        :mod:`mlfsbench.estimators.information.knn`).
    n_jobs : int or None, default=None
        Threads over candidate features (``-1``: all cores).
    n_features_to_select : int or None
        Number of top-ranked features kept by ``get_support``.
    random_state : None, int or RandomState
        Seeds the jitter, the folds and the permutations.

    Attributes
    ----------
    p_, k_ : int
        The pruning parameter and ``K`` used (with ``n_samples_pruned_``,
        ``n_classes_``, ``p_grid_`` and ``t_max_``, written to the workflow's
        selection record: ``record_attributes``).
    p_grid_ : list of (p, k)
        Candidates of Eq. 8 (``p="auto"``; empty otherwise).
    t_ : ndarray of shape (len(p_grid_), n_features)
        Eq. 8 per candidate and feature.
    t_max_ : ndarray of shape (len(p_grid_),)
        Largest ``t`` over the features, per candidate.
    n_samples_pruned_ : int
        Samples kept by the PPT (``N_t``).
    n_classes_ : int
        Classes after the PPT.
    """

    input_kind = "continuous"

    # The automatic choice of Section 4 (reported in Sec. 5.3: p = 8, 12, 9
    # for yeast, scene, emotions) goes into the selection record.
    record_attributes = ("p_", "k_", "n_samples_pruned_", "n_classes_",
                         "p_grid_", "t_max_")

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "k": [Count(Integral, 1, None, closed="left")],
        "p": [Count(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "n_folds": [Count(Integral, 2, None, closed="left")],
        "noise": [Interval(Real, 0, None, closed="left")],
        "n_jobs": [Integral, None],
    }

    def __init__(self, *, k=DEFAULT_K, p="auto", p_range=(5, 20), k_grid=None,
                 n_folds=20, noise=DEFAULT_NOISE, n_jobs=None,
                 n_features_to_select=None, random_state=None):
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)
        self.k = k
        self.p = p
        self.p_range = p_range
        self.k_grid = k_grid
        self.n_folds = n_folds
        self.noise = noise
        self.n_jobs = n_jobs

    def _prepare(self, X, Y):
        """Standardize, choose ``p`` (and ``K``), prune; return ``(Z, y)``."""
        k = int(self.k)
        Z, _, _ = standardize(X)
        rng = check_random_state(self.random_state)
        seed_auto = int(rng.randint(np.iinfo(np.int32).max))
        seed_noise = int(rng.randint(np.iinfo(np.int32).max))
        self.p_grid_, self.t_ = [], np.empty((0, Z.shape[1]))
        self.t_max_ = np.empty(0)
        if isinstance(self.p, str):  # "auto"
            p_lo, p_hi = _check_counts(self.p_range, "p_range", 2)
            k_values = [k] if self.k_grid is None else sorted(
                set(_check_counts(self.k_grid, "k_grid", 1)))
            p_values = [p for p in range(p_lo, p_hi + 1) if p > min(k_values)]
            if not p_values:
                raise ValueError(
                    f"p_range {tuple(self.p_range)} has no value above k="
                    f"{min(k_values)}; the estimator needs p > k"
                )
            grid, t = pruning_t_statistics(
                Z, Y, p_values=p_values, k_values=k_values,
                n_folds=int(self.n_folds),
                random_state=seed_auto,
            )
            t_max = np.array([np.nanmax(row) if np.isfinite(row).any() else -np.inf
                              for row in t])
            if not np.isfinite(t_max).any():
                n_sets = len(np.unique(np.asarray(Y), axis=0))
                raise ValueError(
                    f"no pruning threshold p in {p_lo}..{p_hi} leaves two "
                    f"labelsets with more than k={min(k_values)} instances each "
                    f"({n_sets} distinct labelset(s) in {len(Y)} instances): too "
                    f"few distinct labelsets for the PPT transformation"
                )
            best = int(np.argmax(t_max))
            self.p_grid_, self.t_, self.t_max_ = grid, t, t_max
            p, k = grid[best]
        else:
            p = int(self.p)
            if p <= k:
                raise ValueError(f"p must be greater than k (p={p}, k={k})")
        classes = _ppt_classes(Y, p)
        keep = classes >= 0
        if len(np.unique(classes[keep])) < 2:
            raise ValueError(
                f"PPT with p={p} leaves fewer than two classes; lower p"
            )
        self.p_, self.k_ = int(p), int(k)
        self.n_samples_pruned_ = int(keep.sum())
        self.n_classes_ = len(np.unique(classes[keep]))
        Zp = prepare_features(Z[keep], standardize_features=False,
                              noise=float(self.noise), random_state=seed_noise)
        return Zp, classes[keep]


@register("selector", "knnmi-forward")
class KnnMIForward(_KnnMIBase):
    """Greedy forward selection on kNN mutual information after PPT (D&V 2013).

    Section 3 of Doquire & Verleysen (2013): start from the empty set, add at
    each step the feature whose addition maximizes Eq. 7 for the PPT class
    (ties: lower index). Parameters and fitted attributes: see
    :class:`_KnnMIBase`; the search runs ``n_features_to_select`` steps, or
    ``min(n_features, 50)`` (:data:`DEFAULT_MAX_FORWARD_STEPS`) when it is
    ``None``.

    Attributes
    ----------
    ranking_ : ndarray
        The features in order of addition, then the others by decreasing
        univariate Eq. 7 (ties: lower index).
    scores_ : ndarray
        ``scores_[ranking_[i]]`` = Eq. 7 of ``ranking_[: i + 1]`` for the
        selected features; ``nan`` for the others.
    mi_path_ : ndarray
        Eq. 7 of the growing subset.
    univariate_mi_ : ndarray
        Eq. 7 of every single feature.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((400, 5))
    >>> Y = np.column_stack([X[:, 1] > X[:, 3], X[:, 4] > 0.5]).astype(int)
    >>> sel = KnnMIForward(p=10, n_features_to_select=3, random_state=0).fit(X, Y)
    >>> sorted(sel.ranking_[:3].tolist()), sel.p_
    ([1, 3, 4], 10)
    """

    def _fit(self, X, Y):
        Z, y = self._prepare(X, Y)
        f = Z.shape[1]
        steps = self.n_features_to_select
        steps = min(f, DEFAULT_MAX_FORWARD_STEPS) if steps is None else min(
            int(steps), f)
        order, path, univariate = forward_selection(
            Z, y, k=self.k_, n_steps=steps, n_jobs=self.n_jobs
        )
        rest = np.setdiff1d(np.arange(f), order)
        rest = rest[rank_scores(univariate[rest])]
        scores = np.full(f, np.nan)
        scores[order] = path
        self.mi_path_ = path
        self.univariate_mi_ = univariate
        return scores, np.concatenate([order, rest])


@register("selector", "knnmi-backward")
class KnnMIBackward(_KnnMIBase):
    """Backward elimination on kNN mutual information after PPT (D&V 2013).

    Section 3 / 5.1 of Doquire & Verleysen (2013): start from all features and
    remove at each step the one whose removal keeps Eq. 7 highest (ties: lower
    index), down to one feature. Cost ``O(f^{2.5} N^2)``: for moderate ``f``.
    Parameters: see :class:`_KnnMIBase`.

    Attributes
    ----------
    ranking_ : ndarray
        Reverse order of removal: the last feature left first.
    scores_ : ndarray
        ``scores_[ranking_[i]]`` = Eq. 7 of ``ranking_[: i + 1]`` (the subset
        from which ``ranking_[i]`` was removed); ``nan`` for the first feature
        removed (the full set is not scored).
    removal_order_ : ndarray
        Features in order of removal.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((300, 4))
    >>> Y = np.column_stack([(X[:, 0] > 0.5) == (X[:, 2] > 0.5),
    ...                      X[:, 1] > 2]).astype(int)   # label 2 always 0
    >>> sel = KnnMIBackward(p=10, random_state=0).fit(X, Y)
    >>> sorted(sel.ranking_[:2].tolist())
    [0, 2]
    """

    def _fit(self, X, Y):
        Z, y = self._prepare(X, Y)
        removed, path, last = backward_elimination(Z, y, k=self.k_,
                                                   n_jobs=self.n_jobs)
        ranking = np.concatenate([[last], removed[::-1]]).astype(np.intp)
        # path[t]: Eq. 7 of the set left after removal t, i.e. the set from
        # which removed[t + 1] is removed next (the full set is not scored).
        scores = np.full(Z.shape[1], np.nan)
        scores[removed[1:]] = path[:-1]
        scores[last] = path[-1] if len(path) else np.nan
        self.removal_order_ = removed
        self.mi_path_ = path
        return scores, ranking


@register("selector", "knnmi-rank")
class KnnMIRank(_KnnMIBase):
    """Univariate kNN mutual information ranking after PPT (the paper's "MI").

    Each feature is scored by Eq. 7 with ``d = 1`` against the PPT class
    (Doquire & Verleysen 2013, Section 5, baseline "MI"); ties: lower index.
    Parameters and attributes: see :class:`_KnnMIBase`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((400, 3))
    >>> Y = np.column_stack([X[:, 2] > 0.5, X[:, 0] > 0.7]).astype(int)
    >>> KnnMIRank(p=8, random_state=0).fit(X, Y).ranking_.tolist()
    [2, 0, 1]
    """

    def _fit(self, X, Y):
        Z, y = self._prepare(X, Y)
        codes = np.unique(y, return_inverse=True)[1].reshape(-1)
        return univariate_prepared(Z, codes, np.bincount(codes), self.k_)
