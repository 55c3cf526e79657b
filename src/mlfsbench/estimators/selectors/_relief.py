r"""ReliefF and RReliefF (Robnik-Šikonja & Kononenko 2003), vectorized.

M. Robnik-Šikonja, I. Kononenko (2003). "Theoretical and empirical analysis of
ReliefF and RReliefF." Machine Learning 53, pp. 23-69.

Common definitions (Section 2.1 of the paper):

- ``diff(A, I1, I2) = |v1 - v2| / (max(A) - min(A))`` for a numeric attribute
  (range of the training data; 0 for a constant attribute); a 0/1 nominal
  attribute gives the same value, so binary features need no special case.
- The distance between instances is the sum of the diffs over all attributes
  (Manhattan distance on range-normalised features); ties between equally
  distant neighbours are broken by the lower instance index.
- ``m`` instances are sampled: all of them in data order by default (as in
  Weka's ``ReliefFAttributeEval`` default), or ``m`` drawn without
  replacement with a seeded generator.

ReliefF (the paper's Figure 3), for a class variable: for each sampled
:math:`R_i`, the :math:`k` nearest hits :math:`H_j` (same class) and, for each
other class :math:`C`, the :math:`k` nearest misses :math:`M_j(C)`:

.. math::

    W[A] \mathrel{-}= \sum_{j} \frac{\mathrm{diff}(A, R_i, H_j)}{m\,k}, \qquad
    W[A] \mathrel{+}= \sum_{C \ne \mathrm{class}(R_i)}
        \frac{P(C)}{1 - P(\mathrm{class}(R_i))}
        \sum_{j} \frac{\mathrm{diff}(A, R_i, M_j(C))}{m\,k}.

:math:`P(C)` are the class frequencies of the training data. When a class has
fewer than :math:`k` other instances, all of them are used and the sum is
divided by their number instead of :math:`k` (as Weka and skrebate do).

RReliefF (Figure 5), for a numeric target :math:`\tau`: the :math:`k` nearest
neighbours :math:`I_j` of :math:`R_i` (whatever their target), weighted by
:math:`d(i, j)`, accumulate

.. math::

    N_{dC} \mathrel{+}= \mathrm{diff}(\tau, R_i, I_j)\, d(i,j), \quad
    N_{dA}[A] \mathrel{+}= \mathrm{diff}(A, R_i, I_j)\, d(i,j), \quad
    N_{dC\&dA}[A] \mathrel{+}= \mathrm{diff}(\tau, R_i, I_j)
        \mathrm{diff}(A, R_i, I_j)\, d(i,j),

and :math:`W[A] = N_{dC\&dA}[A]/N_{dC} - (N_{dA}[A] - N_{dC\&dA}[A])/(m - N_{dC})`.
The weights are :math:`d(i,j) = 1/k` (Weka's default, no distance weighting)
or, with ``sigma``, :math:`d_1(i,j) = \exp(-(\mathrm{rank}(R_i, I_j)/\sigma)^2)`
normalised to sum to 1 over the :math:`k` neighbours (the paper's Eq. 8).

Vectorization: the distances of a block of sampled instances to all instances
come from one ``cdist`` call; the neighbours of every class (or of every label
of a binary-relevance decomposition, which share the distances) from one
stable sort per row; and the score of every target is one sparse-times-dense
product of the (instance, neighbour) weights with the diffs of the distinct
pairs, so no Python loop runs over samples or features.

Binary features (every scaled value 0 or 1: the bag-of-words datasets such as
bibtex, medical, enron) take an exact sparse path: the Manhattan distance is
``|x_i| + |x_j| - 2 x_i.x_j`` (one sparse product per block) and
``|x_i - x_j| = x_i + x_j - 2 x_i x_j``, so the scores are sums of sparse
products instead of dense differences of every (instance, neighbour) pair.
Distances are the same integers, hence the same neighbours and tie order; the
scores agree with the dense path to rounding (tested). On a bibtex fold
(6655 x 1836, 159 labels) RF-LP went from 339 s to 14-20 s and RF-BR from
194 s to 78-92 s (the per-label stable sorts of the neighbour lists are what
remains; a two-class target, every BR label, now takes its neighbours from
the class mask of a prefix of each order without sorting,
:func:`_class_neighbours_by_mask`, and other targets sort a 1 024-column
prefix where it holds enough of every class: RF-BR on bibtex 4.2-4.4 CPU s
per 300 sampled rows with whole-order sorts, 3.5 with prefix sorts, 2.2-2.3
with the masks, the same scores). A rare class of a two-class target (the
positives of most bibtex labels) is taken from a stable sort of the row's
distances to its few members instead of a mask over thousands of columns:
1.9 s against 2.9 s per 600 sampled bibtex rows, the same scores bit for bit.
``bench/bench_relieff.py`` compares the binary and dense paths on medical.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import cdist
from sklearn.utils import check_random_state

from mlfsbench.estimators.selectors._base import binary_columns

_MAX_CELLS = 1 << 22
# binary path: bound on (targets x block rows x features) of its sparse products
_MAX_SPARSE_CELLS = 1 << 24
# switch for tests: False forces the dense path on binary data
_BINARY_PATH = True
# columns of each row's distance order searched first for its class
# neighbours (rows whose prefix lacks some class's k fall back to the whole
# order); 0 always searches the whole order
_PREFIX = 1024
# switch for tests: False groups two-class targets by sorting, like the others
_MASK_PATH = True
# switch for tests: False takes rare classes from the order's masks as well
_GATHER_PATH = True


def _class_neighbours_by_mask(S, key, counts, kk, k, D=None):
    """:func:`_class_neighbours` for one or two classes (a BR label), no sort.

    The neighbours of class ``c`` are the positions of row ``r``'s order whose
    class is ``c``, in order: ``np.nonzero`` of the class mask lists them so,
    row by row. Each class is looked for in a prefix of the order about
    ``4 k / frequency`` columns wide (where its ``k`` first members usually
    lie); rows whose prefix holds fewer than ``kk`` of it use the whole order.

    A class with fewer than an eighth as many members as that width (the
    positive class of a rare label: on bibtex most labels hold 1-2 % of the
    instances, a prefix of thousands of columns) is taken from the distances
    ``D`` instead: a stable sort of the row's distances to the class's
    members, which are in increasing index order, gives them in the order of
    ``S`` (distance, then index), so the neighbours are the same.
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
        if D is not None and _GATHER_PATH and 8 * counts[c] <= width:
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


def _class_neighbours(S, key, counts, kk, k, D=None):
    """The first ``kk[r, c]`` neighbours of class ``c`` in row ``r``'s order.

    ``S`` (b, n): instances by increasing distance (stable); ``key`` (n,):
    class codes; ``counts`` (n_cls,): class sizes; ``kk`` (b, n_cls): how many
    neighbours of each class a row uses (at most ``k``). Returns (b, n_cls, k)
    instance indices; entries at ``j >= kk[r, c]`` are not to be used.

    Grouping a row's order by class with a stable sort keeps distance order
    within each class, so the first ``kk`` of a class lie in the shortest
    prefix of the order that holds ``kk`` members of it: the rows whose first
    ``_PREFIX`` columns hold enough of every class are grouped on that prefix
    only (per label of a binary-relevance decomposition a 1 024-column sort
    instead of one over every training instance), the others on the whole
    order, with the same result.
    """
    b, n = S.shape
    n_cls = counts.size
    if n_cls <= 2 and _MASK_PATH:
        return _class_neighbours_by_mask(S, key, counts, kk, k, D)
    j = np.arange(k)
    out = np.empty((b, n_cls, k), dtype=S.dtype)

    def group(S_part, starts):
        """Class-grouped neighbours of rows ``S_part`` from per-row starts."""
        r = np.arange(S_part.shape[0])[:, None]
        by_class = S_part[r, np.argsort(key[S_part], axis=1, kind="stable")]
        pos = np.minimum(starts[:, :, None] + j, S_part.shape[1] - 1)
        return by_class[r[:, :, None], pos]

    rest = np.arange(b)
    width = _PREFIX if 0 < _PREFIX < n else 0
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


def prepare_features(X):
    """Dense float features scaled to ``[0, 1]`` by their training range.

    Returns the scaled matrix; a constant feature becomes all zeros (its diff
    is always 0).
    """
    X = X.toarray() if sp.issparse(X) else np.asarray(X)
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X must be finite (impute missing values first)")
    if X.shape[0] == 0:
        return X
    lo = X.min(axis=0)
    span = X.max(axis=0) - lo
    scale = np.where(span > 0, span, 1.0)
    Xn = (X - lo) / scale
    Xn[:, span == 0] = 0.0
    return Xn


def mean_over_columns(weights: np.ndarray) -> np.ndarray:
    """Row means of per-label (per-target) weights; zeros when there are none.

    Examples
    --------
    >>> mean_over_columns(np.array([[1.0, 3.0], [0.0, 1.0]])).tolist()
    [2.0, 0.5]
    >>> mean_over_columns(np.zeros((2, 0))).tolist()
    [0.0, 0.0]
    """
    if weights.shape[1] == 0:
        return np.zeros(weights.shape[0])
    return weights.mean(axis=1)


def _sample(n: int, n_samples, random_state) -> np.ndarray:
    if n_samples is None or int(n_samples) >= n:
        return np.arange(n)
    if int(n_samples) < 1:
        raise ValueError(f"n_samples must be >= 1 or None, got {n_samples}")
    rng = check_random_state(random_state)
    return np.sort(rng.choice(n, size=int(n_samples), replace=False))


def _check_k(n_neighbors) -> int:
    if isinstance(n_neighbors, bool) or int(n_neighbors) != n_neighbors or (
        n_neighbors < 1
    ):
        raise ValueError(f"n_neighbors must be a positive integer, got {n_neighbors}")
    return int(n_neighbors)


def binary_csr(Xn):
    """CSR copy of scaled features when every value is 0 or 1, else ``None``."""
    if Xn.size == 0 or not binary_columns(Xn).all():
        return None
    return sp.csr_matrix(Xn)


def _distances(Xn, rows, Xs=None):
    """Manhattan distances from each row to every instance (self: ``inf``).

    With ``Xs`` (the 0/1 features as CSR) they come from one sparse product;
    they are exact integers, equal to ``cdist``'s.
    """
    if Xs is not None:
        ones = np.diff(Xs.indptr).astype(float)
        D = ones[rows][:, None] + ones[None, :] - 2.0 * (Xs[rows] @ Xs.T).toarray()
    else:
        D = cdist(Xn[rows], Xn, metric="cityblock")
    D[np.arange(rows.size), rows] = np.inf
    return D


def _sorted_neighbours(Xn, rows, Xs=None):
    """Instances by increasing distance from each row (self last), stable."""
    return np.argsort(_distances(Xn, rows, Xs), axis=1, kind="stable")


def _pair_scores(Xn, pi, pj, weights) -> np.ndarray:
    """``sum_pairs weights[pair, t] * |Xn[pi] - Xn[pj]|`` -> (n_targets, p)."""
    p = Xn.shape[1]
    out = np.zeros((weights.shape[1], p))
    step = max(1, _MAX_CELLS // max(p, 1))
    for lo in range(0, pi.size, step):
        sl = slice(lo, lo + step)
        diffs = np.abs(Xn[pi[sl]] - Xn[pj[sl]])
        out += weights[sl].T @ diffs
    return out


def _binary_pair_scores(Xs, rows, pi, pj, pt, pw, n_t) -> np.ndarray:
    """:func:`_pair_scores` for 0/1 features, from sparse products only.

    ``sum w |x_i - x_j| = sum w x_i + sum w x_j - 2 sum w (x_i * x_j)``; the
    last term is ``sum_i x_i * (W_t X)_i`` with ``W_t`` the (row, neighbour)
    weights of target ``t``. ``rows`` must be sorted and unique.
    """
    n = Xs.shape[0]
    b = rows.size
    local = np.searchsorted(rows, pi)
    A = sp.csr_matrix((pw, (pt * b + local, pj)), shape=(n_t * b, n))
    rowsum = np.asarray(A.sum(axis=1)).reshape(n_t, b)
    first = np.asarray(Xs[rows].T @ rowsum.T).T
    colsum = sp.csr_matrix((pw, (pt, pj)), shape=(n_t, n))
    second = (colsum @ Xs).toarray()
    both = (A @ Xs).multiply(Xs[np.tile(rows, n_t)])
    by_target = sp.csr_matrix(
        (np.ones(n_t * b), (np.repeat(np.arange(n_t), b), np.arange(n_t * b))),
        shape=(n_t, n_t * b),
    )
    cross = (by_target @ both).toarray()
    return first + second - 2.0 * cross


def relieff_scores(X, classes, *, n_neighbors=10, n_samples=None,
                   random_state=None) -> np.ndarray:
    """ReliefF weight of every feature for each class vector (Fig. 3).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Numeric features (0/1 for binary ones).
    classes : array-like of shape (n_samples,) or (n_samples, n_targets)
        One class vector per column (e.g. every BR label, or the LP class);
        all share the distances and the sampled instances.
    n_neighbors : int, default=10
        ``k`` nearest hits and misses per class.
    n_samples : int or None, default=None
        ``m``; ``None`` uses every instance (in order, no randomness).
    random_state : int, RandomState or None
        Seeds the sample when ``n_samples`` is smaller than the data.

    Returns
    -------
    W : ndarray of shape (n_features, n_targets)
        Weights in ``[-1, 1]``.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [0.1, 1.0], [0.9, 0.0], [1.0, 1.0]])
    >>> relieff_scores(X, [0, 0, 1, 1], n_neighbors=1).ravel().round(3).tolist()
    [0.8, -1.0]
    """
    k = _check_k(n_neighbors)
    Xn = prepare_features(X)
    n = Xn.shape[0]
    C = np.asarray(classes)
    if C.ndim == 1:
        C = C.reshape(-1, 1)
    if C.shape[0] != n:
        raise ValueError(f"X has {n} samples but classes has {C.shape[0]}")
    codes = []
    for t in range(C.shape[1]):
        _, c = np.unique(C[:, t], return_inverse=True)
        codes.append(c.reshape(-1).astype(np.intp))
    n_t = len(codes)
    sample = _sample(n, n_samples, random_state)
    m = sample.size
    scores = np.zeros((n_t, Xn.shape[1]))
    if n < 2 or m == 0:
        return scores.T
    max_classes = max(int(c.max()) + 1 for c in codes)
    # per block: (b, n) sort arrays and (b, n_classes, k) neighbour arrays
    block = max(1, min(_MAX_CELLS // n, _MAX_CELLS // (max_classes * k)))
    Xs = binary_csr(Xn) if _BINARY_PATH else None
    if Xs is not None:
        block = max(1, min(block, _MAX_SPARSE_CELLS // (n_t * Xn.shape[1] or 1)))
    for lo in range(0, m, block):
        rows = sample[lo: lo + block]
        D = _distances(Xn, rows, Xs)
        S = np.argsort(D, axis=1, kind="stable")
        pi, pj, pt, pw = [], [], [], []
        for t, cls in enumerate(codes):
            n_cls = int(cls.max()) + 1
            counts = np.bincount(cls, minlength=n_cls)
            prior = counts / n
            # group each row's neighbours by class, keeping distance order
            # (small unsigned keys let numpy's stable sort use radix sort)
            key = cls.astype(np.uint8 if n_cls <= 256 else np.uint16
                             if n_cls <= 65536 else np.intp)
            own = cls[rows]
            avail = counts[None, :] - (np.arange(n_cls)[None, :] == own[:, None])
            kk = np.minimum(avail, k)  # (b, n_cls) neighbours used per class
            j = np.arange(k)
            use = j[None, None, :] < kk[:, :, None]  # (b, n_cls, k)
            neigh = _class_neighbours(S, key, counts, kk, k, D)
            is_hit = np.arange(n_cls)[None, :] == own[:, None]
            with np.errstate(divide="ignore", invalid="ignore"):
                miss_w = prior[None, :] / (1.0 - prior[own])[:, None]
                w = np.where(is_hit, -1.0, miss_w) / (m * np.maximum(kk, 1))
            w = np.broadcast_to(w[:, :, None], use.shape)
            ii = np.broadcast_to(rows[:, None, None], use.shape)
            sel = use & np.isfinite(w)
            pi.append(ii[sel])
            pj.append(neigh[sel])
            pw.append(w[sel])
            pt.append(np.full(int(sel.sum()), t))
        pi = np.concatenate(pi)
        pj = np.concatenate(pj)
        pw = np.concatenate(pw)
        pt = np.concatenate(pt)
        if Xs is not None:
            scores += _binary_pair_scores(Xs, rows, pi, pj, pt, pw, n_t)
            continue
        key = pi.astype(np.int64) * n + pj
        uniq, inv = np.unique(key, return_inverse=True)
        W = sp.csr_matrix(
            (pw, (inv.reshape(-1), pt)), shape=(uniq.size, n_t)
        )
        scores += _pair_scores(Xn, uniq // n, uniq % n, W)
    return scores.T


def rrelieff_scores(X, targets, *, n_neighbors=10, sigma=None, n_samples=None,
                    random_state=None) -> np.ndarray:
    """RReliefF weight of every feature for each numeric target (Fig. 5).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    targets : array-like of shape (n_samples,) or (n_samples, n_targets)
        Continuous targets; each gets its own weights (the neighbours, found
        on the features only, are shared).
    n_neighbors : int, default=10
    sigma : float or None, default=None
        ``None``: every neighbour weighs ``1/k``; a number: rank-based weights
        ``exp(-(rank/sigma)^2)``, normalised (Eq. 8).
    n_samples, random_state
        As in :func:`relieff_scores`.

    Returns
    -------
    W : ndarray of shape (n_features, n_targets)
        A constant target gives weights 0.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 1.0]])
    >>> rrelieff_scores(X, [0.0, 0.0, 0.0, 0.0, 1.0], n_neighbors=1).ravel().tolist()
    [0.0, 1.0]
    """
    k = _check_k(n_neighbors)
    Xn = prepare_features(X)
    n, p = Xn.shape
    T = np.asarray(targets, dtype=float)
    if T.ndim == 1:
        T = T.reshape(-1, 1)
    if T.shape[0] != n:
        raise ValueError(f"X has {n} samples but targets has {T.shape[0]}")
    if not np.isfinite(T).all():
        raise ValueError("targets must be finite")
    span = T.max(axis=0) - T.min(axis=0) if n else np.zeros(T.shape[1])
    Tn = (T - T.min(axis=0)) / np.where(span > 0, span, 1.0) if n else T
    sample = _sample(n, n_samples, random_state)
    m = sample.size
    kk = min(k, n - 1)
    if kk < 1 or m == 0:
        return np.zeros((p, T.shape[1]))
    ranks = np.arange(1, kk + 1, dtype=float)
    if sigma is None:
        d = np.full(kk, 1.0 / kk)
    else:
        if not float(sigma) > 0:
            raise ValueError(f"sigma must be positive or None, got {sigma}")
        d = np.exp(-((ranks / float(sigma)) ** 2))
        d /= d.sum()
    n_dc = np.zeros(T.shape[1])
    n_da = np.zeros(p)
    n_dcda = np.zeros((p, T.shape[1]))
    block = max(1, _MAX_CELLS // max(n, 1))
    for lo in range(0, m, block):
        rows = sample[lo: lo + block]
        S = _sorted_neighbours(Xn, rows)[:, :kk]
        pi = np.repeat(rows, kk)
        pj = S.ravel()
        pw = np.tile(d, rows.size)
        dtau = np.abs(Tn[pi] - Tn[pj])  # (pairs, n_targets)
        n_dc += pw @ dtau
        step = max(1, _MAX_CELLS // max(p, 1))
        for s in range(0, pi.size, step):
            sl = slice(s, s + step)
            da = np.abs(Xn[pi[sl]] - Xn[pj[sl]])
            n_da += pw[sl] @ da
            n_dcda += da.T @ (pw[sl, None] * dtau[sl])
    with np.errstate(divide="ignore", invalid="ignore"):
        W = n_dcda / n_dc[None, :] - (n_da[:, None] - n_dcda) / (m - n_dc)[None, :]
    W[:, ~(n_dc > 0)] = 0.0
    return np.where(np.isfinite(W), W, 0.0)
