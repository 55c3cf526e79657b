"""Named baseline of ``bench_label_groups.py``: Group-JMI-Rand before the speed-up.

The label quantization of ``src/mlfsbench/estimators/transformations/
label_groups.py`` as of commit 962426a (issue #30), unchanged but for its
docstring and registration (the ``@register`` line removed), and below it
:func:`jmi_forward` and :class:`GroupJMIRand` of ``selectors/jmi.py`` as of
that commit, wired to this module's :class:`LabelGroups`, so that the
benchmark and the tests time and compare the current code and this baseline
in the same run. See the current modules for documentation.
"""
# ruff: noqa

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.neighbours import euclidean_distances

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
    D = np.asarray(D, dtype=float)
    u = D.shape[0]
    w = np.ones(u) if weights is None else np.asarray(weights, dtype=float)
    if k >= u:
        return np.arange(u)
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    rng = check_random_state(random_state)
    medoids = [int(rng.choice(u, p=w / w.sum()))]
    nearest = D[medoids[0]].copy()
    for _ in range(1, k):
        p = w * nearest**2
        p[medoids] = 0.0
        if p.sum() <= 0:  # every point sits on a medoid: take any other point
            p = w.copy()
            p[medoids] = 0.0
        medoids.append(int(rng.choice(u, p=p / p.sum())))
        nearest = np.minimum(nearest, D[medoids[-1]])
    medoids = np.array(medoids)
    # Alternate (Hastie et al. 2009, Algorithm 14.2): each cluster's medoid
    # becomes the member closest in total to the other members; a cheap
    # descent that leaves few swaps for PAM.
    for _ in range(max_iter):
        nearest = np.argmin(D[:, medoids], axis=1)
        new = medoids.copy()
        for c in range(k):
            members = np.flatnonzero(nearest == c)
            inner = D[np.ix_(members, members)] @ w[members]
            new[c] = members[np.argmin(inner)]
        if np.array_equal(new, medoids):
            break
        medoids = new
    scale = max(1.0, float(w @ D.max(axis=1)))
    exact = _integral(D) and _integral(w) and float(w @ D.max(axis=1)) < 2.0**50
    swaps = _swaps_incremental if incremental and exact else _swaps_full
    return np.sort(swaps(D, w, medoids, max_iter, scale))


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
    taken out of the sums and put back. Integer terms (Hamming distances,
    counts; sums below ``2**50``) add exactly in any order: the same changes,
    bit for bit, hence the same swaps and medoids (tested).
    """
    u, k = D.shape[0], medoids.size

    def terms(o, d1, d2):
        kept = np.minimum(D[o] - d1[:, None], 0.0)
        moved = np.minimum(np.maximum(D[o], d1[:, None]), d2[:, None]) - d1[:, None]
        return w[o] @ kept, w[o][:, None] * moved

    def by_cluster(c, values):  # sum of the rows of each cluster, (k, u)
        one_hot = np.zeros((k, c.size))
        one_hot[c, np.arange(c.size)] = 1.0
        return one_hot @ values

    nearest, d1, d2 = _nearest_two(D, medoids)
    kept_sum, moved = terms(np.arange(u), d1, d2)
    moved_sum = by_cluster(nearest, moved)
    for _ in range(max_iter):
        delta = kept_sum[None, :] + moved_sum
        delta[:, medoids] = np.inf
        i, h = np.unravel_index(np.argmin(delta), delta.shape)
        if delta[i, h] >= -1e-12 * scale:
            break
        medoids[i] = h
        new_nearest, e1, e2 = _nearest_two(D, medoids)
        o = np.flatnonzero((new_nearest != nearest) | (e1 != d1) | (e2 != d2))
        old_kept, old_moved = terms(o, d1[o], d2[o])
        new_kept, new_moved = terms(o, e1[o], e2[o])
        kept_sum += new_kept - old_kept
        moved_sum += by_cluster(new_nearest[o], new_moved)
        moved_sum -= by_cluster(nearest[o], old_moved)
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
        for g, noc in zip(groups, nocs, strict=True):
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
        for i, (g, med) in enumerate(zip(self.groups_, self.medoids_, strict=True)):
            distinct, _, inverse, _ = distinct_rows(Y[:, g])
            D = target_distances(distinct, med, self.metric)
            out[:, i] = np.argmin(D, axis=1)[inverse]
        return out


# ---------------------------------------------------------------------------
# selectors/jmi.py as of commit 962426a: jmi_forward, and Group-JMI-Rand
# on this module's LabelGroups and jmi_forward
# ---------------------------------------------------------------------------

from mlfsbench.estimators.information.entropy import (
    CodeIndicators,
    column_entropies,
    conditional_mutual_information_matrix,
    mutual_information_matrix,
)
from mlfsbench.estimators.selectors._greedy import (
    check_discrete_features,
    column,
    greedy_forward,
    greedy_outcome,
    n_greedy_steps,
)
from mlfsbench.estimators.selectors.jmi import GroupJMIRand as _CurrentGroupJMIRand


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` elementwise, 0 where ``den`` is 0."""
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def jmi_forward(X, T, n_steps: int, *, normalize: bool = False,
                trace: list | None = None):
    """Greedy forward selection with :math:`\\sum_{j \\in S} \\sum_i I(X_j X_k; T_i)`.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Discrete feature codes.
    T : array-like of shape (n_samples, n_targets)
        Discrete target codes (labels, the LP class, or quantized groups).
    n_steps : int
        Number of features to select.
    normalize : bool, default=False
        Divide every term by :math:`\\sqrt{H(X_j X_k) H(T_i)}` (and the
        first step's :math:`I(X_k; T_i)` by :math:`\\sqrt{H(X_k) H(T_i)}`):
        the criterion of the authors' released ``Group_JMI_Rand.m``.
    trace : list, optional
        Receives the criterion vector of every step (for tests).

    Returns
    -------
    selected : list of int
    step_scores : list of float
        Criterion of each selected feature at its step (relevance at step 1).
    relevance : ndarray of shape (n_features,)
        :math:`\\sum_i I(X_k; T_i)` (normalized when ``normalize``).

    Examples
    --------
    >>> X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2)
    >>> T = np.bitwise_xor(X[:, :1], X[:, 1:2])  # T = x0 XOR x1 (= x2)
    >>> selected, _, relevance = jmi_forward(X, T, 2)
    >>> selected, relevance.tolist()
    ([2, 0], [0.0, 0.0, 1.0])
    >>> jmi_forward(X, T, 2, normalize=True)[0]  # I(x2 x0; T) / sqrt(2 * 1)
    [2, 0]
    """
    X = check_discrete_features(X)
    T = np.asarray(T)
    if T.ndim == 1:
        T = T.reshape(-1, 1)
    XI = CodeIndicators(X)  # built once for every step
    mi = mutual_information_matrix(XI, T)  # (p, t)
    if not normalize:
        relevance = mi.sum(axis=1)

        def update(s: int) -> np.ndarray:
            cmi = conditional_mutual_information_matrix(XI, T, column(X, s))
            return relevance[s] + cmi.sum(axis=1)
    else:
        h_x = column_entropies(X)
        h_t = column_entropies(T)
        relevance = _ratio(mi, np.sqrt(np.outer(h_x, h_t))).sum(axis=1)

        def update(s: int) -> np.ndarray:
            xs = column(X, s)
            joint_mi = mi[s] + conditional_mutual_information_matrix(XI, T, xs)
            h_pair = h_x[s] + h_x - mutual_information_matrix(XI, xs)[:, 0]
            h_pair = np.maximum(h_pair, 0.0)  # rounding below 0 when constant
            return _ratio(joint_mi, np.sqrt(np.outer(h_pair, h_t))).sum(axis=1)

    selected, step_scores = greedy_forward(
        X.shape[1], n_steps, lambda acc, t: acc, update,
        first_scores=relevance, trace=trace,
    )
    return selected, step_scores, relevance



class GroupJMIRand(_CurrentGroupJMIRand):
    """Group-JMI-Rand as of commit 962426a (not registered)."""

    def _targets(self, Y):
        self.label_groups_ = LabelGroups(
            pot=self.pot, noc=self.noc, m=self.m, groups=self._explicit_groups(),
            metric=self.target_metric, random_state=self.random_state,
        )
        return self.label_groups_.fit_transform(Y)

    def _fit(self, X, Y):
        T = self._targets(Y)
        n_steps = n_greedy_steps(self.n_features_to_select, X.shape[1])
        selected, step_scores, relevance = jmi_forward(
            X, T, n_steps, normalize=self._normalize())
        self.relevance_ = relevance
        return greedy_outcome(self, X.shape[1], selected, step_scores, relevance)
