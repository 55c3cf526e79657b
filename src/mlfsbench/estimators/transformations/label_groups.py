r"""Output-space quantization of Sechidis, Spyromitros-Xioufis & Vlahavas (2019).

Section 3.1 of the paper ("Information Theoretic Multi-Target Feature Selection
via Output Space Quantization", *Entropy* 21(9):855; Algorithm 1, lines 3-6)
replaces the targets by ``m`` new discrete variables
:math:`\widetilde Y_1, \dots, \widetilde Y_m`:

1. *Groups (PoT).* Group :math:`Z_i` is a random subset of the targets, drawn
   without replacement inside the group; different groups may overlap. Its size
   is the proportion of targets PoT times the number of targets ``q``
   (the paper's example: ``q = 20``, PoT = 0.30 gives 6 targets).
2. *Quantization (NoC).* The group's target vectors are clustered by
   k-medoids (Hastie, Tibshirani & Friedman 2009, Section 14.3.10) into NoC
   clusters -- Hamming distance for binary (multi-label) targets, Euclidean for
   continuous ones (Section 3.1, and Section 5: "using the Euclidean distance
   for clustering, since we have continuous variables") -- and
   :math:`\widetilde y_i^n` is the cluster index of sample ``n``. Real
   targets are clustered on their values as given: the paper scales nothing,
   nor does the authors' released multi-target demo (raw targets, MATLAB's
   ``kmedoids`` with ``'euclidean'``), so a target of larger spread weighs
   more in a group's distances.

Group-JMI-Rand (Section 3.4) draws, for every group, PoT uniformly from
[0.25, 0.75] and NoC uniformly from {4, ..., 16}; here ``pot=(0.25, 0.75)``
and ``noc=(4, 16)``.

Choices where the paper is silent (all tested):

- ``m`` defaults to the number of targets (Algorithm 1, line 3, loops
  ``i = 1..m`` with ``m`` the number of target variables).
- Group size ``max(1, floor(PoT * q + 0.5))`` (round half up).
- The labels of a group are kept in increasing index order (the order of
  the targets inside a group does not change the clustering).
- k-medoids is PAM (Kaufman & Rousseeuw 1990): k-medoids++ seeding (Arthur &
  Vassilvitskii 2007, with squared distances) from the seeded generator,
  alternate steps (Hastie et al., Algorithm 14.2) as a fast descent, then
  the SWAP phase -- the best swap of a medoid with a non-medoid, all swaps
  evaluated at once in matrix form -- until no swap lowers the total distance.
  It runs on the *distinct* target vectors weighted by their counts, which
  gives the same objective as on the samples. With Hamming distances the
  changes of the swaps are updated per swap from the few points whose
  nearest medoids moved, exact in integers (the same medoids as recomputing
  them), and binary labelsets are packed into 64-bit words (distinct rows
  by ``lexsort``, distances by popcount): the same rows, distances and
  medoids as before, faster (``bench/bench_label_groups.py``).
- When NoC is at least the number of distinct target vectors of the group,
  every distinct vector is its own cluster (no algorithm is run).
- Clusters are numbered by the position of their medoid among the distinct
  vectors sorted lexicographically (:func:`numpy.unique` order); with one
  cluster per distinct vector, the cluster index is therefore exactly the
  label-powerset class of
  :func:`mlfsbench.estimators.transformations.lp.labelset_codes`.
  A sample goes to the nearest medoid, ties to the lower cluster index.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.neighbours import euclidean_distances
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import Count, Number, positive_count

METRICS = ("hamming", "euclidean")


def target_distances(A, B, metric: str = "hamming") -> np.ndarray:
    """Distances between the rows of ``A`` (a, d) and ``B`` (b, d).

    ``"hamming"``: number of coordinates that differ (matrix products for 0/1
    data); ``"euclidean"``: Euclidean distance of the values as given (no
    scaling of the targets; equal rows are at distance exactly 0).

    >>> target_distances(np.array([[0, 1, 1]]), np.array([[0, 0, 0], [1, 1, 1]]))
    array([[2., 1.]])
    """
    A = np.asarray(A)
    B = np.asarray(B)
    if metric == "hamming":
        if np.isin(A, (0, 1)).all() and np.isin(B, (0, 1)).all():
            Af, Bf = A.astype(float), B.astype(float)
            return Af @ (1.0 - Bf).T + (1.0 - Af) @ Bf.T
        return (A[:, None, :] != B[None, :, :]).sum(axis=2).astype(float)
    if metric == "euclidean":
        # From differences: the expansion |a|^2 + |b|^2 - 2 a.b cancels on
        # large target values and moves medoid ties and assignments.
        return euclidean_distances(A, B)
    raise ValueError(f"unknown metric {metric!r}; expected one of {METRICS}")


def check_real_targets(Y) -> np.ndarray:
    """Real-valued targets as a float matrix (n_samples, n_targets), finite.

    For Euclidean clustering of multi-target regression outputs.

    >>> check_real_targets([[1, 2.5], [0, 1]]).dtype
    dtype('float64')
    >>> check_real_targets([[1.0, np.nan]])
    Traceback (most recent call last):
    ...
    ValueError: Y must be finite (real-valued targets)
    """
    Y = np.asarray(Y.toarray() if hasattr(Y, "toarray") else Y, dtype=float)
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (n_samples, n_targets), got shape {Y.shape}")
    if not np.isfinite(Y).all():
        raise ValueError("Y must be finite (real-valued targets)")
    return Y


def distinct_rows(Z):
    """Distinct rows of ``Z`` in lexicographic order, with counts and inverse.

    Binary rows of at most 62 columns are keyed by the integer they spell in
    base 2 (same order as :func:`numpy.unique` with ``axis=0``, much faster);
    the keys are returned too (else ``None``) for popcount Hamming distances.

    >>> rows, counts, inverse, keys = distinct_rows(np.array([[1, 0], [0, 1], [1, 0]]))
    >>> rows.tolist(), counts.tolist(), inverse.tolist(), keys.tolist()
    ([[0, 1], [1, 0]], [1, 2], [1, 0, 1], [1, 2])
    """
    Z = np.asarray(Z)
    if Z.shape[1] <= 62 and Z.dtype.kind in "iub" and np.isin(Z, (0, 1)).all():
        weights = np.left_shift(1, np.arange(Z.shape[1] - 1, -1, -1, dtype=np.int64))
        keys = Z.astype(np.int64) @ weights
        uniq, first, inverse, counts = np.unique(
            keys, return_index=True, return_inverse=True, return_counts=True)
        return Z[first], counts, inverse.reshape(-1), uniq
    rows, inverse, counts = np.unique(Z, axis=0, return_inverse=True,
                                      return_counts=True)
    return rows, counts, inverse.reshape(-1), None


def _is_binary(Y) -> bool:
    """Integer or boolean 0/1 matrix (the rows can be packed into bits)."""
    return Y.dtype.kind in "iub" and bool(((Y == 0) | (Y == 1)).all())


def _packed_rows(Z) -> np.ndarray:
    """0/1 rows as unsigned 64-bit words, (n, ceil(d / 64)), first column the
    highest bit of the first word: rows compare lexicographically as their
    word tuples, and the Hamming distance is the popcount of the XOR."""
    n, d = Z.shape
    packed = np.zeros((n, 8 * max(1, -(-d // 64))), dtype=np.uint8)
    packed[:, :-(-d // 8)] = np.packbits(Z.astype(bool, copy=False), axis=1)
    return packed.view(">u8").astype(np.uint64)


def _distinct_packed(words):
    """:func:`distinct_rows` of packed rows: a representative row of each
    distinct row (lexicographic order), counts and inverse."""
    n = words.shape[0]
    order = np.lexsort(words.T[::-1])  # first word primary
    s = words[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (s[1:] != s[:-1]).any(axis=1)
    starts = np.flatnonzero(new)
    inverse = np.empty(n, dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return order[starts], np.diff(np.append(starts, n)), inverse


def _hamming_packed(a, b) -> np.ndarray:
    """Hamming distances (integers) between packed rows ``a`` and ``b``."""
    words = a.shape[1]
    out = np.bitwise_count(a[:, None, 0] ^ b[None, :, 0])  # uint8
    if words > 1:
        out = out.astype(np.uint8 if words < 4 else np.int64)  # no overflow
        for j in range(1, words):
            out += np.bitwise_count(a[:, None, j] ^ b[None, :, j])
    return out


def _hamming_square(Z) -> np.ndarray:
    """Hamming distances (integers) between all 0/1 rows of ``Z``, from one
    single-precision product: ``|a| + |b| - 2 a.b``, exact below ``2**24``."""
    F = Z.astype(np.float32)
    if Z.shape[1] >= 2**23:
        F = F.astype(float)
    inner = F @ F.T
    ones = np.diagonal(inner).copy()
    D = (ones[:, None] + ones[None, :]) - 2 * inner
    return D.astype(np.uint8 if Z.shape[1] < 256 else np.int64)


def k_medoids(D, k: int, weights=None, *, random_state=None,
              max_iter: int = 100, incremental: bool = True) -> np.ndarray:
    """PAM k-medoids on a distance matrix: indices of the ``k`` medoids, sorted.

    k-medoids++ seeding, alternate steps (every medoid moves to the member of
    its cluster with the least total distance to the others, until stable),
    then SWAP steps: with ``d1``/``d2`` the distances of
    each point ``o`` to its nearest and second nearest medoid, replacing
    medoid ``m`` by ``h`` changes the weighted total distance by
    ``sum_{o in C_m} w_o (min(D[o,h], d2[o]) - d1[o])
    + sum_{o not in C_m} w_o min(D[o,h] - d1[o], 0)``; all ``(m, h)`` pairs are
    evaluated with one matrix product and the best improving swap is applied,
    until none improves (or ``max_iter`` swaps).

    Parameters
    ----------
    D : ndarray of shape (u, u)
        Symmetric distances, zero diagonal.
    k : int
        Number of medoids; ``k >= u`` returns every point.
    weights : ndarray of shape (u,), optional
        Multiplicity of each point (default 1).
    random_state : int, RandomState or None
    max_iter : int
    incremental : bool, default=True
        With integer distances and weights (Hamming distances of binary
        targets), update the swaps' changes per swap instead of recomputing
        them (:func:`_swaps_incremental`): the same medoids, bit for bit;
        ``False`` recomputes every swap (the benchmark's baseline).

    Examples
    --------
    >>> pts = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]])
    >>> D = np.abs(pts - pts.T)
    >>> k_medoids(D, 2, random_state=0).tolist()
    [1, 4]
    """
    D = np.asarray(D)
    if D.dtype.kind not in "iub":  # integer distances stay as they are
        D = D.astype(float)
    u = D.shape[0]
    w = np.ones(u) if weights is None else np.asarray(weights, dtype=float)
    if k >= u:
        return np.arange(u)
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    rng = check_random_state(random_state)
    medoids = [int(rng.choice(u, p=w / w.sum()))]
    nearest = D[medoids[0]].astype(float)
    for _ in range(1, k):
        p = w * nearest**2
        p[medoids] = 0.0
        if p.sum() <= 0:  # every point sits on a medoid: take any other point
            p = w.copy()
            p[medoids] = 0.0
        medoids.append(int(rng.choice(u, p=p / p.sum())))
        nearest = np.minimum(nearest, D[medoids[-1]])
    medoids = np.array(medoids)
    farthest = float(w @ D.max(axis=1))
    scale = max(1.0, farthest)
    exact = (_integral(w) and farthest < 2.0**50
             and (D.dtype.kind in "iub" or _integral(D)))
    # Alternate (Hastie et al. 2009, Algorithm 14.2): each cluster's medoid
    # becomes the member closest in total to the other members; a cheap
    # descent that leaves few swaps for PAM. Integer distances and weights:
    # all clusters' totals in one product, exact (integers below 2**24 in
    # single precision, else 2**50 in double), so the same medoids.
    Dx = None
    if exact:
        Dx = D.astype(np.float32 if float(w.sum()) * float(D.max()) < 2.0**23
                      else float)
    for _ in range(max_iter):
        nearest = np.argmin(D[:, medoids], axis=1)
        member = nearest[:, None] == np.arange(k)[None, :]
        if Dx is not None and member.any(axis=0).all():
            totals = Dx @ np.where(member, w[:, None], 0.0).astype(Dx.dtype)
            new = np.argmin(np.where(member, totals, np.inf), axis=0)
        else:
            new = medoids.copy()
            for c in range(k):
                members = np.flatnonzero(nearest == c)
                inner = D[np.ix_(members, members)] @ w[members]
                new[c] = members[np.argmin(inner)]
        if np.array_equal(new, medoids):
            break
        medoids = new
    if incremental and exact:
        return np.sort(_swaps_incremental(D, w, medoids, max_iter, scale))
    return np.sort(_swaps_full(D.astype(float), w, medoids, max_iter, scale))


def _integral(a: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(a)) and np.array_equal(a, np.rint(a)))


def _nearest_two(D, medoids):
    """Each point's nearest medoid (position, ties to the lower) and the
    distances to its nearest and second nearest medoid."""
    u, k = D.shape[0], medoids.size
    rows = np.arange(u)
    Dm = D[:, medoids]
    order = np.argsort(Dm, axis=1, kind="stable")
    d1 = Dm[rows, order[:, 0]]
    d2 = Dm[rows, order[:, 1]] if k > 1 else np.full(u, np.inf)
    return order[:, 0], d1, d2


def _swaps_full(D, w, medoids, max_iter, scale):
    """PAM's SWAP phase, every swap's change recomputed from scratch."""
    u, k = D.shape[0], medoids.size
    rows = np.arange(u)
    for _ in range(max_iter):
        nearest, d1, d2 = _nearest_two(D, medoids)
        gain_removed = np.minimum(D, d2[:, None]) - d1[:, None]  # o's medoid goes
        gain_kept = np.minimum(D - d1[:, None], 0.0)  # o's medoid stays
        member = np.zeros((k, u))
        member[nearest, rows] = w
        delta = (w @ gain_kept)[None, :] + member @ (gain_removed - gain_kept)
        delta[:, medoids] = np.inf
        i, h = np.unravel_index(np.argmin(delta), delta.shape)
        if delta[i, h] >= -1e-12 * scale:
            break
        medoids[i] = h
    return medoids


def _swaps_incremental(D, w, medoids, max_iter, scale):
    """:func:`_swaps_full` for integer distances and weights, updated per swap.

    The change of a swap is a sum of one term per point; a swap changes the
    nearest or second nearest medoid of few points, so only their terms are
    taken out of the sums and put back. The terms are integers (Hamming
    distances, counts) and every sum stays below ``2**24`` (single precision)
    or ``2**50`` (double): they add exactly in any order, so the changes are
    the same numbers as the full recomputation's, bit for bit, hence the same
    swaps and medoids (tested).
    """
    u, k = D.shape[0], medoids.size
    rows, clusters = np.arange(u), np.arange(k)
    top = float(D.max())
    dtype = np.float32 if float(w.sum()) * top < 2.0**23 else np.float64
    # the elementwise terms in bytes when the distances fit (fewer passes)
    small = np.uint8 if top < 255 else dtype
    Ds, wf = D.astype(small), w.astype(dtype)

    def nearest_two(medoids):  # as _nearest_two
        Dm = Ds[:, medoids]
        first = np.argmin(Dm, axis=1)  # the first of the ties
        d1 = Dm[rows, first]
        if k == 1:
            return first, d1, np.full(u, top, small)
        Dm[rows, first] = np.iinfo(small).max if small is np.uint8 else np.inf
        return first, d1, Dm.min(axis=1)

    def terms(o, c, d1, d2):
        lo, hi = d1[:, None], d2[:, None]
        Do = Ds[o]
        M = np.maximum(Do, lo)
        Do = np.subtract(M, Do, out=Do)  # max(d1 - D, 0) = -min(D - d1, 0)
        kept = -(wf[o] @ Do.astype(dtype, copy=False))
        np.minimum(M, hi, out=M)  # moved: min(max(D, d1), d2) - d1
        M -= lo
        weights = np.where(clusters[:, None] == c[None, :], wf[o][None, :], 0)
        return kept, weights.astype(dtype, copy=False) @ M.astype(dtype, copy=False)

    nearest, d1, d2 = nearest_two(medoids)
    kept_sum, moved_sum = terms(rows, nearest, d1, d2)
    for _ in range(max_iter):
        delta = kept_sum[None, :] + moved_sum
        delta[:, medoids] = np.inf
        i, h = np.unravel_index(np.argmin(delta), delta.shape)
        if float(delta[i, h]) >= -1e-12 * scale:
            break
        medoids[i] = h
        new_nearest, e1, e2 = nearest_two(medoids)
        o = np.flatnonzero((new_nearest != nearest) | (e1 != d1) | (e2 != d2))
        if o.size:
            old_kept, old_moved = terms(o, nearest[o], d1[o], d2[o])
            new_kept, new_moved = terms(o, new_nearest[o], e1[o], e2[o])
            kept_sum += new_kept - old_kept
            moved_sum += new_moved - old_moved
        nearest, d1, d2 = new_nearest, e1, e2
    return medoids


def _draw(spec, rng, kind: str):
    """A parameter value: fixed, or uniform over a ``(low, high)`` range."""
    if isinstance(spec, (list, tuple)):
        if len(spec) != 2:
            raise ValueError(f"{kind} range must be (low, high), got {spec!r}")
        low, high = spec
        if kind == "pot":
            return float(rng.uniform(float(low), float(high)))
        return int(rng.randint(int(low), int(high) + 1))
    return float(spec) if kind == "pot" else int(spec)


def _check_spec(spec, kind: str) -> None:
    values = spec if isinstance(spec, (list, tuple)) else [spec]
    if isinstance(spec, (list, tuple)) and (len(spec) != 2 or spec[0] > spec[1]):
        raise ValueError(f"{kind} range must be (low, high) with low <= high, "
                         f"got {spec!r}")
    for v in values:
        if kind == "pot":
            if not isinstance(v, Real) or not 0 < v <= 1:
                raise ValueError(f"pot must be in (0, 1], got {spec!r}")
        elif not isinstance(v, Integral) or v < 1:
            raise ValueError(f"noc must be a positive integer, got {spec!r}")


class _Range(Interval):
    """A ``(low, high)`` list or tuple of two values of the interval, with
    ``low <= high`` (a parameter drawn per group; booleans refused).

    >>> r = _Range(Real, 0, 1, closed="right")
    >>> r.is_satisfied_by((0.25, 0.75)), r.is_satisfied_by([0.7, 0.2])
    (True, False)
    >>> r.is_satisfied_by(0.5), r.is_satisfied_by((0.0, 0.5))
    (False, False)
    """

    def is_satisfied_by(self, val):
        if not isinstance(val, list | tuple) or len(val) != 2:
            return False
        value = Count(self.type, self.left, self.right, closed=self.closed)
        return all(value.is_satisfied_by(v) for v in val) and val[0] <= val[1]

    def __str__(self):
        return f"a (low, high) pair with low <= high, each {super().__str__()}"


@register("transformation", "label-groups")
class LabelGroups(TransformerMixin, BaseEstimator):
    """Random label groups quantized by k-medoids (Sechidis et al. 2019, §3.1).

    See the module docstring for the method and every convention.

    Parameters
    ----------
    pot : float or (float, float), default=0.5
        Proportion of targets per group, or a range drawn from per group
        (Group-JMI-Rand: ``(0.25, 0.75)``).
    noc : int or (int, int), default=8
        Number of clusters per group, or an inclusive range drawn from per
        group (Group-JMI-Rand: ``(4, 16)``).
    m : int or None, default=None
        Number of groups; ``None``: the number of targets.
    groups : list of lists of int, optional
        Explicit groups (label indices) instead of random ones; ``pot`` and
        ``m`` are then unused.
    metric : {"hamming", "euclidean"}, default="hamming"
        Distance between target vectors (binary vs continuous targets).
    max_iter : int, default=100
        Maximum number of PAM swaps per group.
    random_state : int, RandomState or None

    Attributes
    ----------
    groups_ : list of ndarray
        Sorted label indices of each group.
    pot_ : ndarray of shape (m,)
        PoT used for each group (``len(group) / q`` for explicit groups).
    noc_ : ndarray of shape (m,)
        NoC requested for each group.
    n_clusters_ : ndarray of shape (m,)
        Clusters actually formed: ``min(noc, distinct target vectors)``.
    medoids_ : list of ndarray
        Medoid target vectors of each group, shape (n_clusters, len(group)),
        in cluster-index order.

    Examples
    --------
    >>> Y = np.array([[1, 1, 0], [1, 1, 0], [1, 0, 0], [0, 0, 1], [0, 0, 1]])
    >>> lg = LabelGroups(groups=[[0, 1], [2]], noc=2, random_state=0).fit(Y)
    >>> lg.transform(Y).tolist()  # [1, 0] is as far from both: lower cluster
    [[1, 0], [1, 0], [0, 0], [0, 1], [0, 1]]
    >>> lg.medoids_[0].tolist()
    [[0, 0], [1, 1]]
    """

    _parameter_constraints: dict = {
        "pot": [Number(Real, 0, 1, closed="right"), _Range(Real, 0, 1, closed="right")],
        "noc": [positive_count(), _Range(Integral, 1, None, closed="left")],
        "m": [positive_count(), None],
        "groups": ["array-like", None],
        "metric": [StrOptions(set(METRICS))],
        "max_iter": [Count(Integral, 0, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, *, pot=0.5, noc=8, m=None, groups=None, metric="hamming",
                 max_iter=100, random_state=None):
        self.pot = pot
        self.noc = noc
        self.m = m
        self.groups = groups
        self.metric = metric
        self.max_iter = max_iter
        self.random_state = random_state

    def _check_targets(self, Y) -> np.ndarray:
        Y = np.asarray(Y.toarray() if hasattr(Y, "toarray") else Y)
        if Y.ndim != 2:
            raise ValueError(f"Y must be 2-D (n_samples, n_targets), got {Y.shape}")
        if self.metric not in METRICS:
            raise ValueError(f"unknown metric {self.metric!r}; expected one of "
                             f"{METRICS}")
        if Y.dtype.kind == "f" and not np.isfinite(Y).all():
            raise ValueError("Y must not contain NaN or infinite values")
        return Y

    def fit(self, Y, y=None):
        """Draw the groups and cluster each group's target vectors."""
        Y = self._check_targets(Y)
        _check_spec(self.noc, "noc")
        q = Y.shape[1]
        if q == 0:
            raise ValueError("Y has no targets")
        rng = check_random_state(self.random_state)
        groups, pots, nocs = [], [], []
        if self.groups is not None:
            for g in self.groups:
                g = np.unique(np.asarray(g, dtype=np.intp))
                if g.size == 0 or g.min() < 0 or g.max() >= q:
                    raise ValueError(f"group {g.tolist()} is empty or out of "
                                     f"range for {q} targets")
                groups.append(g)
                pots.append(g.size / q)
                nocs.append(_draw(self.noc, rng, "noc"))
        else:
            _check_spec(self.pot, "pot")
            m = q if self.m is None else int(self.m)
            if m < 1:
                raise ValueError(f"m must be >= 1, got {self.m}")
            for _ in range(m):
                pot = _draw(self.pot, rng, "pot")
                noc = _draw(self.noc, rng, "noc")
                size = min(q, max(1, int(np.floor(pot * q + 0.5))))
                groups.append(np.sort(rng.choice(q, size, replace=False)))
                pots.append(pot)
                nocs.append(noc)
        self.groups_ = groups
        self.pot_ = np.asarray(pots, dtype=float)
        self.noc_ = np.asarray(nocs, dtype=np.intp)
        self.medoids_ = []
        packed = self.metric == "hamming" and _is_binary(Y)
        for g, noc in zip(groups, nocs, strict=True):
            if packed:  # the same rows, counts and distances as below
                words = _packed_rows(Y[:, g])
                first, counts, _ = _distinct_packed(words)
                D = _hamming_square(Y[first][:, g])
                idx = k_medoids(D, noc, counts, random_state=rng,
                                max_iter=int(self.max_iter))
                self.medoids_.append(Y[first[idx]][:, g])
                continue
            distinct, counts, _, keys = distinct_rows(Y[:, g])
            if self.metric == "hamming" and keys is not None:
                D = np.bitwise_count(keys[:, None] ^ keys[None, :]).astype(float)
            else:
                D = target_distances(distinct, distinct, self.metric)
            idx = k_medoids(D, noc, counts, random_state=rng,
                            max_iter=int(self.max_iter))
            self.medoids_.append(distinct[idx])
        self.n_clusters_ = np.array([len(md) for md in self.medoids_], dtype=np.intp)
        self.n_targets_ = q
        return self

    def transform(self, Y) -> np.ndarray:
        """Cluster index of every sample in every group, shape (n, m)."""
        check_is_fitted(self, "medoids_")
        Y = self._check_targets(Y)
        if Y.shape[1] != self.n_targets_:
            raise ValueError(f"Y has {Y.shape[1]} targets; expected "
                             f"{self.n_targets_}")
        out = np.empty((Y.shape[0], len(self.groups_)), dtype=np.int64)
        packed = self.metric == "hamming" and _is_binary(Y)
        for i, (g, med) in enumerate(zip(self.groups_, self.medoids_, strict=True)):
            if packed and _is_binary(med):  # the same integer distances
                D = _hamming_packed(_packed_rows(Y[:, g]), _packed_rows(med))
                out[:, i] = np.argmin(D, axis=1)
                continue
            distinct, _, inverse, _ = distinct_rows(Y[:, g])
            D = target_distances(distinct, med, self.metric)
            out[:, i] = np.argmin(D, axis=1)[inverse]
        return out
