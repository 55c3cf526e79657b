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

Vectorization (the searches: :mod:`mlfsbench.estimators.neighbours`): the
distances of a block of sampled instances to all instances come from one
``cdist`` call; the neighbours of every class (or of every label
of a binary-relevance decomposition, which share the distances) from one
stable sort per row; and the score of every target is one sparse-times-dense
product of the (instance, neighbour) weights with the diffs of the distinct
pairs, so no Python loop runs over samples or features.

Binary features (every scaled value 0 or 1: the bag-of-words datasets such as
bibtex, medical, enron) take an exact sparse path: the Manhattan distance is
``|x_i| + |x_j| - 2 x_i.x_j`` (one sparse product per block) and ``|x_i - x_j|
= x_i + x_j - 2 x_i x_j``, so the scores are sums of sparse products instead
of dense differences of every (instance, neighbour) pair. Distances are the
same integers, hence the same neighbours and tie order; the scores agree with
the dense path to rounding (tested). On a bibtex fold (6655 x 1836, 159
labels) RF-LP went from 339 s to 14-20 s and RF-BR from 194 s to 78-92 s (the
per-label stable sorts of the neighbour lists are what remains; a two-class
target, every BR label, now takes its neighbours from the class mask of a
prefix of each order without sorting,
:func:`~mlfsbench.estimators.neighbours.class_neighbours_by_mask`, and other
targets sort a 1 024-column prefix where it holds enough of every class: RF-BR
on bibtex 4.2-4.4 CPU s per 300 sampled rows with whole-order sorts, 3.5 with
prefix sorts, 2.2-2.3 with the masks, the same scores). A rare class of a
two-class target (the positives of most bibtex labels) is taken from a stable
sort of the row's distances to its few members instead of a mask over
thousands of columns: 1.9 s against 2.9 s per 600 sampled bibtex rows, the
same scores bit for bit.
Every two-class target of a block (each BR label) is handled at once
(``batch_path``): the larger class's ``k`` nearest from one gather of the
labels of a 32-column prefix of the orders
(:func:`~mlfsbench.estimators.neighbours.two_class_neighbours`), the pair
weights of all labels in one pass, and the binary path's integer distances
sorted as 16-bit keys (radix sorts); the smaller class of a label is taken
from a stable sort of the distances to its members when rare, else as above.
The same scores bit for bit; RF-BR on bibtex 1.3-1.6x, RF-LP 1.1x (600
sampled rows, best of 3 alternating with ``batch_path=False`` under load),
yeast's RF-BR (14 common labels, dense path) 0.93x. What remains on bibtex
RF-BR: the scores' sparse products about 40 %, the per-label search of the
smaller class and the pair arrays about 25 %, the dense copy of the features
(``prepare_features``, once per fit) and the distances.
``bench/bench_relieff.py`` compares the binary and dense paths on medical.

The shared path (``shared_path``, the default on 0/1 features,
:func:`_shared_binary_scores`): a weight of a two-class target depends only
on the row's class and the neighbour's, so each label's score is four
weights times four integer sums of ``|x_i - x_j|``, exact in any order. A
row's ``k`` nearest of the larger class are its ``k`` nearest overall, less
the smaller class's members among them, plus as many next members of the
larger class; the first part is one ``(2 labels x rows) @ (rows x
features)`` product of 0/1 indicators with each row's summed diffs to its
``k`` nearest, shared by every label, so only the corrections and the
smaller class's ``k`` nearest (from the distances to its members) remain
pairs. Their cross term ``sum x_i x_j`` is counted per (group, neighbour)
cell as popcounts of bit sets (the cell's rows of the block, each feature's
rows), not by a sparse product per pair (:func:`_bitset_cross`). A
many-class target (the LP class) takes every member of a class of at most
``k`` members as a miss of every other row, a closed form per feature; its
larger classes' ``k`` nearest are weighted pairs. With every row sampled
each block reuses the earlier blocks' distances to it (16-bit keys), and
sparse 0/1 input is not copied densely. The scores agree with the pairwise
path (``shared_path=False``) to 1e-12 of the largest (another order of the
float operations; identical columns score the same) and the rankings are
equal up to ties within that; the measured ratios are in
``bench/bench_relieff.py``'s shared part and
docs/journal/2026-11-27-benchmark-ratios.md.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from mlfsbench.estimators.neighbours import (
    RELIEFF_PREFIX,
    class_neighbours,
    class_neighbours_by_mask,
    manhattan_distances,
    members_by_distance,
    small_int_keys,
    smallest_k,
    two_class_neighbours,
)
from mlfsbench.estimators.validation import binary_columns

_MAX_CELLS = 1 << 22
#: Binary path: bound on (targets x block rows x features) of its sparse
#: products (``max_sparse_cells`` of :func:`relieff_scores`).
MAX_SPARSE_CELLS = 1 << 24


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


def sparse_binary_csr(X):
    """:func:`binary_csr` of :func:`prepare_features` straight from sparse ``X``.

    When every column's minimum is 0 and its stored nonzero values all equal
    its maximum, the scaled features are the 0/1 pattern of the nonzeros
    (the same CSR, without the dense copy); ``None`` otherwise (dense or
    other input: the caller scales it densely).
    """
    if not sp.issparse(X) or X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        return None
    X = sp.csr_matrix(X, dtype=float)
    if not np.isfinite(X.data).all():
        return None
    X.eliminate_zeros()
    hi = np.asarray(X.max(axis=0).todense()).ravel()
    lo = np.asarray(X.min(axis=0).todense()).ravel()
    if (lo != 0).any() or (X.data != hi[X.indices]).any():
        return None
    X.sort_indices()
    return sp.csr_matrix((np.ones(X.nnz), X.indices, X.indptr), shape=X.shape)


def binary_csr(Xn):
    """CSR copy of scaled features when every value is 0 or 1, else ``None``."""
    if Xn.size == 0 or not binary_columns(Xn).all():
        return None
    return sp.csr_matrix(Xn)


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
                   random_state=None, binary_path=True, prefix=RELIEFF_PREFIX,
                   mask_path=True, gather_path=True, batch_path=True,
                   shared_path=True,
                   max_sparse_cells=MAX_SPARSE_CELLS) -> np.ndarray:
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

    Other Parameters
    ----------------
    binary_path : bool, default=True
        Take the sparse path on 0/1 features (``False``: the dense path;
        equal scores to rounding, tested).
    prefix, mask_path, gather_path
        How the class neighbours are found
        (:func:`mlfsbench.estimators.neighbours.class_neighbours`'s
        ``prefix``, ``mask`` and ``gather``); the same scores bit for bit.
    batch_path : bool, default=True
        Find the neighbours and pair weights of every two-class target (each
        BR label) at once (:func:`_two_class_pairs`) instead of one target
        at a time, and sort the binary path's integer distances as 16-bit
        keys (:func:`~mlfsbench.estimators.neighbours.small_int_keys`, radix
        sorts); ``False``: the code before 2026-11-25. The same scores bit
        for bit (tested).
    shared_path : bool, default=True
        On 0/1 features, integer sums per weight group and the larger
        class's neighbours shared by all labels (:func:`_shared_binary_scores`;
        the other flags then choose nothing); ``False``: the pairwise path it
        replaced (2026-11-25). The scores agree to 1e-12 of the largest and the
        rankings up to ties within that (tested).
    max_sparse_cells : int, default=MAX_SPARSE_CELLS
        Bound on (targets x block rows x features) of the binary path's
        sparse products (smaller: smaller blocks).

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [0.1, 1.0], [0.9, 0.0], [1.0, 1.0]])
    >>> relieff_scores(X, [0, 0, 1, 1], n_neighbors=1).ravel().round(3).tolist()
    [0.8, -1.0]
    """
    k = _check_k(n_neighbors)
    # sparse 0/1 input: straight to the CSR of the binary path
    Xs = sparse_binary_csr(X) if shared_path and binary_path else None
    Xn = prepare_features(X) if Xs is None else None
    n, p = (Xn if Xs is None else Xs).shape
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
    scores = np.zeros((n_t, p))
    if n < 2 or m == 0:
        return scores.T
    max_classes = max(int(c.max()) + 1 for c in codes)
    # per block: (b, n) sort arrays and (b, n_classes, k) neighbour arrays
    block = max(1, min(_MAX_CELLS // n, _MAX_CELLS // (max_classes * k)))
    if Xs is None:
        Xs = binary_csr(Xn) if binary_path else None
    # two-class targets (BR labels) handled together (batch_path)
    two = np.array([t for t, c in enumerate(codes) if c.max() == 1]
                   if batch_path and mask_path else [], dtype=np.intp)
    if two.size:
        codes2 = np.column_stack([codes[t] for t in two]).astype(np.uint8)
        counts2 = np.column_stack([np.bincount(codes[t], minlength=2)
                                   for t in two]).T  # (T2, 2)
    if Xs is not None and shared_path:
        return _shared_binary_scores(Xs, codes, sample, k, m, max_sparse_cells).T
    if Xs is not None:
        block = max(1, min(block, max_sparse_cells // (n_t * Xn.shape[1] or 1)))
    for lo in range(0, m, block):
        rows = sample[lo: lo + block]
        D = manhattan_distances(Xn, rows, Xs)
        if batch_path and Xs is not None:
            D = small_int_keys(D)  # same orders, radix-sorted
        S = smallest_k(D, n)  # every instance, by (distance, index)
        pieces = [None] * n_t
        if two.size:
            for t, piece in zip(two, _two_class_pairs(
                    S, D, rows, codes2, counts2, k, m, n, gather_path),
                    strict=True):
                pieces[t] = piece
        for t, cls in enumerate(codes):
            if pieces[t] is not None:
                continue
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
            neigh = class_neighbours(S, key, counts, kk, k, D, prefix=prefix,
                                     mask=mask_path, gather=gather_path)
            is_hit = np.arange(n_cls)[None, :] == own[:, None]
            with np.errstate(divide="ignore", invalid="ignore"):
                miss_w = prior[None, :] / (1.0 - prior[own])[:, None]
                w = np.where(is_hit, -1.0, miss_w) / (m * np.maximum(kk, 1))
            w = np.broadcast_to(w[:, :, None], use.shape)
            ii = np.broadcast_to(rows[:, None, None], use.shape)
            sel = use & np.isfinite(w)
            pieces[t] = (ii[sel], neigh[sel], w[sel])
        pi = np.concatenate([q[0] for q in pieces])
        pj = np.concatenate([q[1] for q in pieces])
        pw = np.concatenate([q[2] for q in pieces])
        pt = np.repeat(np.arange(n_t), [q[0].size for q in pieces])
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


def _two_class_pairs(S, D, rows, codes2, counts2, k, m, n, gather):
    """(instance, neighbour, weight) of every two-class target of a block.

    What the per-target loop of :func:`relieff_scores` yields for each
    target of ``codes2`` (n, T2), in the same order (row, class, rank) and
    with the same floating-point operations, from one
    :func:`~mlfsbench.estimators.neighbours.two_class_neighbours` over all
    targets; the cells whose order prefix lacks neighbours of a class (the
    positives of rare labels) are found per target by
    :func:`~mlfsbench.estimators.neighbours.class_neighbours_by_mask`.
    """
    b = rows.size
    n_t2 = codes2.shape[1]
    own = codes2[rows].astype(np.intp)  # (b, T2)
    cls = np.arange(2)
    avail = counts2[None, :, :] - (cls[None, None, :] == own[:, :, None])
    kk = np.minimum(avail, k)  # (b, T2, 2)
    # the larger class of every target from one prefix of the orders, the
    # other (and the rows whose prefix lacks) per target
    big = np.argmax(counts2, axis=1)  # (T2,)
    neigh = np.zeros((b, n_t2, 2, k), dtype=S.dtype)
    got_big, lacking = two_class_neighbours(
        S, codes2, big, kk[:, np.arange(n_t2), big], k)
    neigh[:, np.arange(n_t2), big] = got_big
    n_all = codes2.shape[0]
    for ti in range(n_t2):
        small = 1 - big[ti]
        count = counts2[ti, small]
        # a rare class (as class_neighbours_by_mask's gather): from the
        # distances to its members
        rare = gather and D is not None and 8 * count <= min(
            n_all, max(64, 4 * k * n_all / count))
        if rare:
            members = np.flatnonzero(codes2[:, ti] == small)
            near = members_by_distance(D, members, k)
            neigh[:, ti, small, : near.shape[1]] = near
            if not lacking[:, ti].any():
                continue
        lack = np.zeros((b, 2), dtype=bool)
        lack[:, small] = not rare
        lack[:, big[ti]] = lacking[:, ti]
        need = np.where(lack, kk[:, ti, :], 0)
        got = class_neighbours_by_mask(S, codes2[:, ti], counts2[ti], need, k, D,
                                       gather=gather)
        neigh[:, ti] = np.where(lack[:, :, None], got, neigh[:, ti])
    prior = counts2 / n  # (T2, 2)
    is_hit = cls[None, None, :] == own[:, :, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        miss_w = prior[None, :, :] / (
            1.0 - prior[np.arange(n_t2)[None, :], own])[:, :, None]
        w = np.where(is_hit, -1.0, miss_w) / (m * np.maximum(kk, 1))
    # target-major, as the per-target loop concatenates them
    use = np.arange(k)[None, None, None, :] < kk.transpose(1, 0, 2)[..., None]
    wt = np.broadcast_to(w.transpose(1, 0, 2)[..., None], use.shape)
    sel = use & np.isfinite(wt)
    pi = np.broadcast_to(rows[None, :, None, None], use.shape)[sel]
    pj = neigh.transpose(1, 0, 2, 3)[sel]
    pw = wt[sel]
    cuts = np.cumsum(sel.reshape(n_t2, -1).sum(axis=1))[:-1]
    return zip(np.split(pi, cuts), np.split(pj, cuts), np.split(pw, cuts),
               strict=True)


# --------------------------------------------------------------------------
# The shared path (``shared_path``): integer sums per weight group
# --------------------------------------------------------------------------
#: Width of the order prefix searched for the larger class of a two-class
#: target beyond a row's ``k`` nearest (:func:`_shared_binary_scores`).
_SHARED_WIDTH = 32
#: Largest ``n * n`` for which :func:`_shared_binary_scores` keeps every
#: distance (16-bit keys, 128 MiB at most) to compute each pair once.
_SYMMETRIC_CELLS = 1 << 26
#: Bound on (block rows x instances) of :func:`_shared_binary_scores`.
_SHARED_BLOCK_CELLS = _MAX_CELLS


def _class_weight(prior, counts, own, cls, k, m):
    """The weight of a neighbour of class ``cls`` for a row of class ``own``.

    The expression of :func:`relieff_scores`'s per-target loop, element by
    element: ``-1`` (hit) or ``P(C) / (1 - P(own))`` (miss), over ``m`` times
    the neighbours used.
    """
    kk = np.minimum(counts[cls] - (cls == own), k)
    with np.errstate(divide="ignore", invalid="ignore"):
        miss = prior[cls] / (1.0 - prior[own])
        return np.where(cls == own, -1.0, miss) / (m * np.maximum(kk, 1))


def _group_pair_sums(Xs, Xb, pl, pj, pg, pw, n_groups, max_cells, unit=None):
    """``sum pw |x_i - x_j|`` over the pairs of each group -> (n_groups, p).

    ``Xb``: the block's rows of ``Xs`` (CSR); ``pl``: each pair's row in the
    block, ``pj``: its neighbour, ``pg``: its group, ``pw``: its weight. As
    :func:`_binary_pair_scores`, ``|x_i - x_j| = x_i + x_j - 2 x_i x_j``;
    the cross term ``sum x_i x_j`` is a sparse product per (group, row)
    cell, ``x_i * sum_j x_j``, or per (group, neighbour) cell,
    ``x_j * sum_i x_i``, whichever has fewer cells (the many labels' pairs
    with the few members of their smaller class: the neighbours), in slices
    of about ``max_cells`` (pairs x features). With integer weights every
    sum is an exact integer, whatever its order. The pairs of the groups
    marked ``unit`` (one weight per (group, neighbour) cell, each row once)
    take :func:`_bitset_cross` instead.
    """
    n, p = Xs.shape
    b = Xb.shape[0]
    # sum pw x_i: the weights per (group, row) summed, times the rows
    by_row = np.bincount(pg.astype(np.int64) * b + pl, weights=pw,
                         minlength=n_groups * b).reshape(n_groups, b)
    out = np.asarray(Xb.T @ by_row.T).T
    # sum pw x_j: per distinct (group, neighbour), in order (CSR as it is)
    cells, where = _cells(pg.astype(np.int64) * n + pj, n_groups * n)
    by_neighbour = sp.csr_matrix(
        (np.bincount(where, weights=pw, minlength=cells.size), cells % n,
         np.searchsorted(cells, np.arange(n_groups + 1) * n)),
        shape=(n_groups, n))
    out += (by_neighbour @ Xs).toarray()
    if unit is not None:
        bits = unit[pg]
        out -= 2.0 * _bitset_cross(Xs, Xb, pl[bits], pj[bits], pg[bits],
                                   pw[bits], n_groups)
        pl, pj, pg, pw = pl[~bits], pj[~bits], pg[~bits], pw[~bits]
        if not pl.size:
            return out
    options = []
    for side, other, size, M, Mo in ((pl, pj, b, Xb, Xs), (pj, pl, n, Xs, Xb)):
        cells, where = _cells(pg.astype(np.int64) * size + side, n_groups * size)
        options.append((cells.size, cells, where, other, size, M, Mo))
    # the (group, row) or (group, neighbour) cells, whichever are fewer
    _, cells, where, other, size, M, Mo = min(options, key=lambda c: c[0])
    A = sp.csr_matrix((pw, (where, other)), shape=(cells.size, Mo.shape[0]))
    step = max(1, int(max_cells // max(1.0, Mo.nnz / max(Mo.shape[0], 1))))
    cuts = np.unique(np.searchsorted(A.indptr, np.arange(step, A.nnz, step)))
    bounds = [0, *cuts[(cuts > 0) & (cuts < cells.size)], cells.size]
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        part = cells[lo:hi]
        both = (A[lo:hi] @ Mo).multiply(M[part % size])
        by_group = sp.csr_matrix(
            (np.ones(part.size), (part // size, np.arange(part.size))),
            shape=(n_groups, part.size))
        out -= 2.0 * (by_group @ both).toarray()
    return out


def _cells(key, size):
    """The distinct values of ``key`` (in ``[0, size)``), sorted, and each
    key's position among them: by a mask over ``size`` when that is small,
    else by sorting."""
    if size > 16 * key.size + (1 << 16):
        cells, where = np.unique(key, return_inverse=True)
        return cells, where.reshape(-1)
    seen = np.zeros(size, dtype=bool)
    seen[key] = True
    dtype = np.int32 if size < 2**31 else np.int64
    return np.flatnonzero(seen), (np.cumsum(seen, dtype=dtype) - 1)[key]


#: (cell, feature) pairs per slice of :func:`_bitset_cross`.
_BITSET_SLICE = 1 << 18


def _bitset_cross(Xs, Xb, pl, pj, pg, pw, n_groups):
    """``sum pw x_i x_j`` per group, for pairs of one weight per (group, j) cell.

    Each (group, neighbour ``j``) cell's rows ``i`` as a bit set over the
    block, and each feature's block rows as another: the cell's count at a
    feature ``f`` of ``x_j`` is the popcount of their intersection, so the
    work is (cells x features of ``x_j`` x words of the block) word
    operations instead of a sparse product over every row of every pair.
    Exact integers (times the cell's weight).
    """
    n, p = Xs.shape
    b = Xb.shape[0]
    out = np.zeros(n_groups * p)
    if not pl.size:
        return out.reshape(n_groups, p)
    cells, where = _cells(pg.astype(np.int64) * n + pj, n_groups * n)
    weight = np.zeros(cells.size)
    weight[where] = pw
    words = (b + 63) // 64

    def bitsets(mask):
        packed = np.packbits(mask, axis=1, bitorder="little")
        full = np.zeros((mask.shape[0], words * 8), dtype=np.uint8)
        full[:, : packed.shape[1]] = packed
        return full.view(np.uint64)

    member = np.zeros((cells.size, b), dtype=bool)
    member[where, pl] = True
    rows_of = bitsets(member)
    feat = bitsets(Xb.T.toarray() != 0)  # (p, words)
    j = cells % n
    length = np.diff(Xs.indptr)[j]
    total = int(length.sum())
    cell = np.repeat(np.arange(cells.size), length)
    f = Xs.indices[np.arange(total) - np.repeat(np.cumsum(length) - length, length)
                   + np.repeat(Xs.indptr[j], length)]
    group = cells // n
    for lo in range(0, total, _BITSET_SLICE):
        c, g = cell[lo: lo + _BITSET_SLICE], f[lo: lo + _BITSET_SLICE]
        counts = np.bitwise_count(rows_of[c] & feat[g]).sum(axis=1)
        out += np.bincount(group[c] * p + g, weights=weight[c] * counts,
                           minlength=n_groups * p)
    return out.reshape(n_groups, p)


def _shared_binary_scores(Xs, codes, sample, k, m, max_cells):
    """:func:`relieff_scores` on 0/1 features by weight groups (``shared_path``).

    Every weight of a two-class target (a BR label) is one of four, set by
    the row's class and the neighbour's (``kk`` depends on nothing else), so
    the score is four weights times four integer sums of ``|x_i - x_j|``
    over the pairs of each kind, exact in any order. The larger class's
    ``k`` nearest of a row are its ``k`` nearest overall, less the members
    of the smaller class among them, plus as many next members of the larger
    class: the first part is shared by all labels, one
    ``(labels x rows) @ (rows x features)`` product of 0/1 indicators with
    the rows' summed diffs to their ``k`` nearest; only the corrections and
    the smaller class's neighbours (from the distances to its members) are
    pairs. Other targets (the LP class): every member of a class with at
    most ``k`` members is a neighbour of every row of another class, a
    closed form per feature (``sum_j v_j |x_i - x_j| = x_i (V - 2 U) + U``
    with ``U = sum_j v_j x_j``); the larger classes' ``k`` nearest are pairs
    with their weights. The same scores as the per-pair sums up to the
    order of the float operations (tested to 1e-12); identical feature
    columns get identical scores.
    """
    n, p = Xs.shape
    n_t = len(codes)
    two, rest, coef = [], [], []  # coef: (target, group, weight)
    n_groups = 0
    for t, cls in enumerate(codes):
        counts = np.bincount(cls)
        prior = counts / n
        big = int(np.argmax(counts))
        if counts.size == 2 and counts[big] > k:
            for own in (0, 1):
                for c in (0, 1):
                    w = _class_weight(prior, counts, np.intp(own), np.intp(c), k, m)
                    coef.append((t, n_groups + 2 * own + c, float(w)))
            two.append((t, n_groups, big, np.flatnonzero(cls == big),
                        np.flatnonzero(cls != big), counts))
            n_groups += 4
            continue
        order = np.argsort(cls, kind="stable")
        members = np.split(order, np.cumsum(counts)[:-1])
        few = counts <= k  # every member is a neighbour of the other classes
        plan = {"t": t, "g": n_groups, "cls": cls, "counts": counts,
                "prior": prior, "members": members, "few": few}
        if few.any():
            beta = np.where(few, prior / (m * np.maximum(counts, 1)), 0.0)
            if counts.size > 1:  # misses in the small classes: closed form
                v = beta[cls]
                plan["U"] = np.asarray(v @ Xs).ravel()
                plan["V"] = float(v.sum())
            pad = np.full((counts.size, k), -1, dtype=np.intp)
            for c in np.flatnonzero(few):
                pad[c, : counts[c]] = members[c]
            plan["pad"], plan["beta"] = pad, beta
        rest.append(plan)
        coef.append((t, n_groups, 1.0))
        n_groups += 1
    acc = np.zeros((n_groups, p))
    unit = np.zeros(n_groups, dtype=bool)  # the two-class targets' groups
    for q in two:
        unit[q[1]: q[1] + 4] = True
    if two:
        codes2 = np.column_stack([codes[q[0]] for q in two]).astype(np.uint8)
        big2 = np.array([q[2] for q in two], dtype=np.uint8)
        base2 = np.array([q[1] for q in two], dtype=np.intp)
    width = min(n, max(_SHARED_WIDTH, k + 1))
    block = max(1, min(m, _SHARED_BLOCK_CELLS // max(n, 1)))
    # every row sampled, in order: each block's distances to the earlier
    # rows are the earlier blocks' to it (half the products), kept as 16-bit
    # keys (exact: at most p < 2**15)
    keep = m == n and p < np.iinfo(np.int16).max and n * n <= _SYMMETRIC_CELLS
    Dall = np.empty((n, n), dtype=np.int16) if keep else None
    for lo in range(0, m, block):
        rows = sample[lo: lo + block]
        Xb = Xs[rows]
        if keep:
            D = Dall[lo: lo + rows.size]
            D[:, :lo] = Dall[:lo, lo: lo + rows.size].T
            D[:, lo:] = small_int_keys(manhattan_distances(
                None, rows - lo, Xs[lo:]))
        else:
            D = small_int_keys(manhattan_distances(None, rows, Xs))
        top = smallest_k(D, width)
        pairs = []  # (row in block, neighbour, group, weight)
        if two:
            _two_class_block(Xs, Xb, D, top, rows, codes2, big2, base2, two,
                             k, acc, pairs)
        for plan in rest:
            _other_block(Xs, Xb, D, top, rows, plan, k, m, acc, pairs)
        if pairs:
            pl, pj, pg, pw = (np.concatenate(z) for z in zip(*pairs, strict=True))
            acc += _group_pair_sums(Xs, Xb, pl, pj, pg, pw, n_groups, max_cells,
                                    unit)
    scores = np.zeros((n_t, p))
    for t, g, w in coef:  # in group order: the same operations per column
        scores[t] += w * acc[g]
    return scores


def _two_class_block(Xs, Xb, D, top, rows, codes2, big2, base2, two, k, acc,
                     pairs):
    """One block of :func:`_shared_binary_scores`'s two-class targets."""
    b = rows.size
    n_t2 = codes2.shape[1]
    own = codes2[rows].astype(np.intp)  # (b, T2)
    topk = top[:, :k]
    # each row's summed diffs to its k nearest (exact small integers)
    near = sp.csr_matrix((np.ones(b * k), topk.ravel(), np.arange(0, b * k + 1, k)),
                         shape=(b, Xs.shape[0])) @ Xs
    xb = Xb.toarray()
    near = near.toarray()
    G = k * xb + near - 2.0 * xb * near
    ind = np.concatenate([(own == 0).T, (own == 1).T]).astype(float)  # (2 T2, b)
    shared = ind @ G
    acc[base2 + big2] += shared[:n_t2]  # own 0, class big
    acc[base2 + 2 + big2] += shared[n_t2:]
    g_big = base2[None, :] + 2 * own + big2[None, :]  # (b, T2)
    g_small = g_big + 1 - 2 * big2[None, :].astype(np.intp)
    # the smaller class among the k nearest: out of the larger's sum
    in_top = codes2[topk] != big2  # (b, k, T2)
    r, pos, t2 = np.nonzero(in_top)
    pairs.append((r, topk[r, pos], g_big[r, t2], np.full(r.size, -1.0)))
    n_small = in_top.sum(axis=1)  # (b, T2)
    # ... and as many next members of the larger class: from the order's
    # prefix past the k nearest, or from the distances where it lacks them
    r, t2 = np.nonzero(n_small)
    need = n_small[r, t2]
    tail = top[r, k:]
    is_big = codes2[tail, t2[:, None]] == big2[t2][:, None]
    rank = np.cumsum(is_big, axis=1, dtype=np.int32) - 1
    found = is_big.sum(axis=1)
    c, col = np.nonzero(is_big & (rank < need[:, None]) & (found >= need)[:, None])
    pairs.append((r[c], tail[c, col], g_big[r[c], t2[c]], np.ones(c.size)))
    short = found < need
    for t in np.unique(t2[short]):
        cell = np.flatnonzero(short & (t2 == t))
        nn = members_by_distance(D[r[cell]], two[t][3], k)  # (cells, k)
        q, j = np.nonzero(np.arange(k)[None, :] >= k - need[cell][:, None])
        pairs.append((r[cell[q]], nn[q, j], g_big[r[cell[q]], t], np.ones(q.size)))
    # the smaller class: its nearest members, from the distances to them
    for t2, (_, _, big, _, small_members, counts) in enumerate(two):
        kk = np.minimum(counts[1 - big] - (own[:, t2] != big), k)
        if not small_members.size:
            continue
        nn = members_by_distance(D, small_members, k)
        r, j = np.nonzero(np.arange(nn.shape[1])[None, :] < kk[:, None])
        pairs.append((r, nn[r, j], g_small[r, t2], np.ones(r.size)))


def _other_block(Xs, Xb, D, top, rows, plan, k, m, acc, pairs):
    """One block of :func:`_shared_binary_scores` for a many-class target."""
    cls, counts, prior, g = plan["cls"], plan["counts"], plan["prior"], plan["g"]
    own = cls[rows]
    n = Xs.shape[0]
    for c in np.flatnonzero(~plan["few"]):
        w = _class_weight(prior, counts, own, np.intp(c), k, m)
        members = plan["members"][c]
        nn = top[:, :k] if members.size == n and top.shape[1] >= k else (
            members_by_distance(D, members, k))
        r = np.repeat(np.arange(rows.size), k)
        pairs.append((r, nn.ravel(), np.full(r.size, g), w[r]))
    if "pad" not in plan:
        return
    # the hits of a row of a class of at most k members: all the others
    mine = plan["pad"][own]  # (b, k)
    r, j = np.nonzero((mine >= 0) & (mine != rows[:, None]))
    w = _class_weight(prior, counts, own[r], own[r], k, m)
    if "U" in plan:
        # misses in the classes of at most k members: all of them, less
        # the row's own class (counted in the closed form)
        with np.errstate(divide="ignore"):
            alpha = 1.0 / (1.0 - prior[own])
        U, V = plan["U"], plan["V"]
        acc[g] += (Xb.T @ alpha) * (V - 2.0 * U) + alpha.sum() * U
        w = w - alpha[r] * plan["beta"][own[r]]
    pairs.append((r, mine[r, j], np.full(r.size, g), w))


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
        S = smallest_k(manhattan_distances(Xn, rows), kk)
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
