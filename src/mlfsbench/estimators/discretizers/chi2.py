r"""Chi2 supervised discretization (Liu & Setiono, 1995).

Chi2 generalizes ChiMerge (Kerber, 1992). For a numeric attribute sorted by
value, every distinct value starts as its own interval; the :math:`\chi^2`
statistic of each pair of adjacent intervals against the class is

.. math::

    \chi^2 = \sum_{i=1}^{2} \sum_{j=1}^{k} \frac{(A_{ij} - E_{ij})^2}{E_{ij}},
    \qquad E_{ij} = \frac{R_i C_j}{N},

with :math:`A_{ij}` the number of samples of interval :math:`i` in class
:math:`j`, :math:`R_i` and :math:`C_j` the row and column sums and :math:`N`
the samples of the pair; :math:`E_{ij} = 0` is replaced by ``0.1`` (Kerber's
rule). The pair with the lowest value is merged, repeatedly, while it is
below the threshold :math:`\chi^2_{k-1}(\alpha)` (the upper-:math:`\alpha`
quantile with ``k - 1`` degrees of freedom, ``k`` the number of classes).

Chi2 adjusts the significance level :math:`\alpha` to the data with the
**inconsistency rate**: two samples are inconsistent when all their
discretized attributes agree but their classes differ; the rate is
:math:`\sum_{\text{patterns}} (n_{\text{pattern}} - \max_c n_{\text{pattern},c})
/ N`. With :math:`\delta` the allowed rate (default: the rate of the data
before discretization, as in Liu & Setiono):

Phase 1
    For :math:`\alpha` = 0.5, then smaller levels of :data:`SIG_LEVELS`: merge
    every attribute at :math:`\alpha` (continuing from the current intervals);
    stop at the first level whose result exceeds :math:`\delta` and keep the
    last discretization that did not.
Phase 2
    Every attribute starts from the level reached in Phase 1; in rounds over
    the attributes (in index order), an attribute is merged at its next
    smaller level; if the inconsistency rate stays within :math:`\delta` the
    merge is kept, otherwise it is undone and the attribute is frozen. The
    last level is :math:`\alpha = 0` (infinite threshold: one interval); an
    attribute reduced to one interval carries no information and is in effect
    removed (Chi2's feature selection). ``phase2=False`` skips this phase:
    the attributes keep Phase 1's common level (Chi2's discretization without
    its feature selection; Liu & Setiono present Phase 1 as the
    discretization, a ChiMerge with an automatic threshold, and Phase 2 as
    the feature selection).

Choices where the paper leaves room: the decreasing levels are
:data:`SIG_LEVELS`; a level whose merge exceeds :math:`\delta` is undone
(Phase 1 keeps the last consistent state); cut points lie midway between the
last value of an interval and the first of the next, and a value equal to a
cut point goes to the lower interval (the convention of
:mod:`mlfsbench.estimators.discretizers.unsupervised`); the inconsistency rate
identifies patterns by a
random 64-bit hash of the codes (seeded; a collision has probability about
:math:`N^2 / 2^{64}`).

- H. Liu, R. Setiono (1995). "Chi2: feature selection and discretization of
  numeric attributes." Proc. 7th IEEE Int. Conf. on Tools with Artificial
  Intelligence, pp. 388-391.
- R. Kerber (1992). "ChiMerge: discretization of numeric attributes." AAAI,
  pp. 123-128.
"""

from __future__ import annotations

import heapq

import numpy as np
from scipy.stats import chi2 as chi2_distribution
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from mlfsbench.estimators.discretizers.unsupervised import apply_cut_points
from mlfsbench.estimators.information.entropy import encode_codes

__all__ = [
    "SIG_LEVELS",
    "Chi2Discretizer",
    "chi2_threshold",
    "chimerge",
    "inconsistency_rate",
    "pair_chi2",
]

#: Significance levels tried in decreasing order (0: merge everything).
SIG_LEVELS = (0.5, 0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.0025, 0.001, 5e-4,
              2.5e-4, 1e-4, 1e-5, 1e-6, 1e-8, 1e-10, 1e-15, 0.0)


def pair_chi2(a, b) -> float:
    """:math:`\\chi^2` of two adjacent intervals' class counts (Kerber's rule).

    Parameters
    ----------
    a, b : array-like of shape (n_classes,)
        Class counts of the two intervals (each with at least one sample).

    Examples
    --------
    Identical distributions give 0; opposite pure intervals of 2 samples give
    4 (each cell: ``(2 - 1)^2 / 1``):

    >>> pair_chi2([2, 2], [1, 1])
    0.0
    >>> pair_chi2([2, 0], [0, 2])
    4.0

    A class absent from both intervals adds ``2 * 0.1`` (``E = 0.1``):

    >>> round(pair_chi2([2, 0, 0], [0, 2, 0]), 10)
    4.2
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    ra, rb = a.sum(), b.sum()
    col = a + b
    n = ra + rb
    ea = ra * col / n
    eb = rb * col / n
    ea[ea == 0] = 0.1
    eb[eb == 0] = 0.1
    return float((((a - ea) ** 2) / ea).sum() + (((b - eb) ** 2) / eb).sum())


def chi2_threshold(sig_level: float, df: int) -> float:
    """Upper-``sig_level`` quantile of :math:`\\chi^2_{df}` (``inf`` for 0).

    >>> round(chi2_threshold(0.05, 1), 4)
    3.8415
    >>> chi2_threshold(0.0, 3)
    inf
    """
    if sig_level <= 0:
        return float("inf")
    return float(chi2_distribution.isf(sig_level, max(int(df), 1)))


def chimerge(counts, threshold: float) -> np.ndarray:
    """Merge adjacent intervals while the lowest pair's :math:`\\chi^2` < threshold.

    Parameters
    ----------
    counts : array-like of shape (n_intervals, n_classes)
        Class counts of consecutive intervals (in value order).
    threshold : float
        Merge while the smallest adjacent :math:`\\chi^2` is below it
        (``inf``: merge everything).

    Returns
    -------
    starts : ndarray of int
        Index of the first input interval of each merged interval
        (``starts[0] == 0``). Ties between equal :math:`\\chi^2` values merge
        the leftmost pair first.

    Examples
    --------
    Pure neighbours of the same class have :math:`\\chi^2 = 0.2` (two
    ``E = 0.1`` cells) and merge at :math:`\\alpha = 0.5` (threshold 0.455);
    ``[0, 5]`` against ``[1, 0]`` has 6.0 and stays apart:

    >>> counts = [[3, 0], [2, 0], [0, 2], [0, 3], [1, 0]]
    >>> chimerge(counts, chi2_threshold(0.5, 1)).tolist()
    [0, 2, 4]
    >>> chimerge(counts, 0.0).tolist()
    [0, 1, 2, 3, 4]
    """
    counts = np.asarray(counts, dtype=float)
    m = counts.shape[0]
    if m <= 1:
        return np.zeros(min(m, 1), dtype=np.intp)
    if np.isinf(threshold):
        return np.zeros(1, dtype=np.intp)
    rows = [counts[i].copy() for i in range(m)]
    nxt = list(range(1, m)) + [-1]
    prv = [-1] + list(range(m - 1))
    alive = [True] * m
    version = [0] * m
    heap = [(pair_chi2(rows[i], rows[i + 1]), i, 0) for i in range(m - 1)]
    heapq.heapify(heap)
    while heap:
        value, i, ver = heapq.heappop(heap)
        if not alive[i] or ver != version[i] or nxt[i] < 0:
            continue
        if value >= threshold:
            break
        j = nxt[i]  # merge j into i
        rows[i] = rows[i] + rows[j]
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] >= 0:
            prv[nxt[j]] = i
        version[i] += 1
        if nxt[i] >= 0:
            heapq.heappush(heap, (pair_chi2(rows[i], rows[nxt[i]]), i, version[i]))
        p = prv[i]
        if p >= 0:
            version[p] += 1
            heapq.heappush(heap, (pair_chi2(rows[p], rows[i]), p, version[p]))
    return np.flatnonzero(alive).astype(np.intp)


def _pattern_ids(keys: np.ndarray) -> np.ndarray:
    return np.unique(keys, return_inverse=True)[1].reshape(-1)


def _inconsistency_from_patterns(patterns: np.ndarray, y: np.ndarray,
                                 n_classes: int) -> float:
    cells, counts = np.unique(patterns.astype(np.int64) * n_classes + y,
                              return_counts=True)
    owner = cells // n_classes
    best = np.zeros(owner.max() + 1, dtype=np.int64)
    np.maximum.at(best, owner, counts)
    return float((len(y) - best.sum()) / len(y))


def inconsistency_rate(codes, y) -> float:
    """Inconsistency rate of discrete data (Liu & Setiono 1995).

    Samples with identical rows of ``codes`` form a pattern; each pattern
    counts its samples outside its majority class. The rate is the total over
    patterns divided by the number of samples.

    Examples
    --------
    Rows 0-2 share a pattern with classes (0, 0, 1): one inconsistency.

    >>> codes = np.array([[0, 1], [0, 1], [0, 1], [1, 1]])
    >>> inconsistency_rate(codes, [0, 0, 1, 1])
    0.25
    """
    codes = np.asarray(codes)
    y = encode_codes(y)
    if codes.ndim == 1:
        codes = codes.reshape(-1, 1)
    patterns = encode_codes(codes) if codes.shape[1] else np.zeros(len(y), int)
    return _inconsistency_from_patterns(patterns, y, int(y.max()) + 1)


class Chi2Discretizer(TransformerMixin, BaseEstimator):
    """Chi2 discretization of numeric features against a class (Liu & Setiono 1995).

    See the module docstring for the algorithm and the choices made.

    Parameters
    ----------
    delta : float or None, default=None
        Allowed inconsistency rate; ``None``: the rate of the undiscretized
        training data (Liu & Setiono's default).
    sig_levels : sequence of float, default=SIG_LEVELS
        Decreasing significance levels.
    random_state : int, default=0
        Seed of the pattern hash.
    phase2 : bool, default=True
        Run Phase 2 (per-attribute merging, Chi2's feature selection);
        ``False``: stop after Phase 1.

    Attributes
    ----------
    cut_points_ : ndarray of shape (n_features, max_cuts)
        Increasing cut points per feature, padded with ``+inf``.
    n_bins_ : ndarray of shape (n_features,)
        Intervals per feature (1: the feature is removed by Chi2).
    sig_level_phase1_ : float
        Last level of Phase 1 that kept the rate within ``delta``.
    sig_levels_ : ndarray of shape (n_features,)
        Level of each feature at the end of Phase 2.
    delta_ : float
        The inconsistency rate allowed.
    inconsistency_ : float
        Rate of the discretized training data.

    Examples
    --------
    Feature 0 separates the classes at 0.5; feature 1 is noise.

    >>> X = np.array([[0.1, 5.0], [0.2, 3.0], [0.3, 4.0], [0.7, 2.0],
    ...               [0.8, 1.0], [0.9, 6.0]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> disc = Chi2Discretizer().fit(X, y)
    >>> disc.n_bins_.tolist(), float(disc.cut_points_[0, 0])
    ([2, 1], 0.5)
    >>> disc.transform(X)[:, 0].tolist()
    [0, 0, 0, 1, 1, 1]
    """

    def __init__(self, *, delta=None, sig_levels=SIG_LEVELS, random_state=0,
                 phase2=True):
        self.delta = delta
        self.sig_levels = sig_levels
        self.random_state = random_state
        self.phase2 = phase2

    def fit(self, X, y):
        """Find the Chi2 intervals of every feature of the training ``X``."""
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite=True,
                          reset=True)
        y = encode_codes(y)
        if len(y) != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} samples but y has {len(y)}")
        levels = [float(s) for s in self.sig_levels]
        if not levels or any(b >= a for a, b in zip(levels, levels[1:],
                                                    strict=False)):
            raise ValueError("sig_levels must be a non-empty decreasing sequence")
        n, f = X.shape
        n_classes = int(y.max()) + 1
        df = n_classes - 1
        thresholds = [chi2_threshold(s, df) for s in levels]

        values, tables, inverse = [], [], []
        for j in range(f):
            u, inv = np.unique(X[:, j], return_inverse=True)
            inv = inv.reshape(-1)
            table = np.bincount(inv * n_classes + y,
                                minlength=u.size * n_classes)
            values.append(u)
            inverse.append(inv)
            tables.append(table.reshape(u.size, n_classes).astype(float))
        starts = [np.arange(u.size) for u in values]  # each value its interval

        rng = np.random.default_rng(self.random_state)
        weights = rng.integers(1, np.iinfo(np.int64).max, size=f, dtype=np.int64,
                               endpoint=False).astype(np.uint64)
        codes = np.column_stack(inverse).astype(np.uint64) if f else np.zeros(
            (n, 0), np.uint64)
        with np.errstate(over="ignore"):
            keys = (codes * weights).sum(axis=1, dtype=np.uint64)

        def rate(k):
            return _inconsistency_from_patterns(_pattern_ids(k), y, n_classes)

        delta = rate(keys) if self.delta is None else float(self.delta)

        def merged(j, level):
            st = starts[j]
            grouped = np.add.reduceat(tables[j], st, axis=0)
            return st[chimerge(grouped, thresholds[level])]

        def new_codes(j, st):
            return (np.searchsorted(st, inverse[j], side="right") - 1).astype(
                np.uint64)

        # Phase 1: all attributes together, decreasing levels.
        reached = -1
        for level in range(len(levels)):
            trial = [merged(j, level) for j in range(f)]
            trial_codes = np.column_stack(
                [new_codes(j, trial[j]) for j in range(f)]) if f else codes
            with np.errstate(over="ignore"):
                trial_keys = (trial_codes * weights).sum(axis=1, dtype=np.uint64)
            if rate(trial_keys) > delta:
                break
            starts, codes, keys, reached = trial, trial_codes, trial_keys, level
        # Phase 2: each attribute on its own, further levels.
        level_of = np.full(f, reached)
        active = [j for j in range(f) if self.phase2
                  and reached + 1 < len(levels) and starts[j].size > 1]
        while active:
            still = []
            for j in active:
                level = level_of[j] + 1
                st = merged(j, level)
                if st.size == starts[j].size:
                    level_of[j] = level  # nothing merged: consistent
                else:
                    c = new_codes(j, st)
                    with np.errstate(over="ignore"):
                        trial_keys = keys + (c - codes[:, j]) * weights[j]
                    if rate(trial_keys) > delta:
                        continue  # undo, freeze attribute j
                    starts[j], codes[:, j], keys = st, c, trial_keys
                    level_of[j] = level
                if level_of[j] + 1 < len(levels) and starts[j].size > 1:
                    still.append(j)
            active = still

        max_cuts = max([s.size - 1 for s in starts] + [1])
        cuts = np.full((f, max_cuts), np.inf)
        for j in range(f):
            u, st = values[j], starts[j]
            if st.size > 1:
                lower_last = u[st[1:] - 1]
                cuts[j, : st.size - 1] = lower_last + (u[st[1:]] - lower_last) / 2
        self.cut_points_ = cuts
        self.n_bins_ = np.array([s.size for s in starts], dtype=np.intp)
        self.sig_level_phase1_ = levels[reached] if reached >= 0 else None
        self.sig_levels_ = np.array(
            [levels[lv] if lv >= 0 else np.nan for lv in level_of])
        self.delta_ = delta
        self.inconsistency_ = rate(keys)
        return self

    def transform(self, X):
        """Interval codes of ``X`` (unsigned integers)."""
        check_is_fitted(self, "cut_points_")
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite=True,
                          reset=False)
        return apply_cut_points(X, self.cut_points_)
