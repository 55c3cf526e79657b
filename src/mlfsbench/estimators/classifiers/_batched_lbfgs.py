"""Batched L-BFGS: every label's logistic regression fitted in lockstep.

The default solver of BR-LR (:mod:`mlfsbench.estimators.classifiers.br_lr`),
:func:`fit_logistic_batch`: the objective and stopping rules of
scikit-learn's ``LogisticRegression`` with L-BFGS, all labels of a fold at
once, sharing the matrix products.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from scipy.linalg import cho_factor, cho_solve, solve_triangular

__all__ = ["fit_logistic_batch"]

_FTOL = 64 * np.finfo(float).eps  # scikit-learn's L-BFGS ``ftol``
_MEMORY = 10  # correction pairs, L-BFGS-B's default ``maxcor``
_MAXLS = 50  # line-search steps, scikit-learn's ``maxls``
_SPARSE = 0.1  # products over sparse row blocks below this share of nonzeros
_DENSIFY = 2**22  # sparse X up to this many entries (32 MB) grouped as dense
_LABEL_CHUNK = 128  # labels per pass over the row blocks (cache blocking)


def _colsum(A, B) -> np.ndarray:
    """Column-wise dot products ``sum_i A[i, j] * B[i, j]``."""
    return np.einsum("ij,ij->j", A, B)


def _with_intercept(X):
    """``X`` with a column of ones appended (dense array or CSR matrix)."""
    ones = np.ones((X.shape[0], 1))
    if sp.issparse(X):
        return sp.hstack([X, ones], format="csr")
    return np.hstack([np.asarray(X, dtype=np.float64), ones])


class _Logistic:
    """Weighted logistic loss and gradient of many labels, by blocks of rows.

    For weights ``W`` (``d + 1`` rows, one column per label) it returns the
    mean loss ``sum_i c_i (log(1 + e^z_il) - y_il z_il) / n`` per label (plus
    the ridge) and its gradient, ``z = X1 W``, ``c`` the row counts. With
    ``h = z / 2`` and ``u = tanh(h)``:

    - ``log(1 + e^z) = max(z, 0) + log 2 - log1p(|u|)`` (``|u| < 1``: no
      overflow). For ``z << 0`` the term ``log 2 - log1p(|u|)`` is exact to
      about ``1e-16`` absolutely rather than relatively; the mean loss is
      thus within about ``1e-16`` of the exact one, far below the
      relative-decrease test's ``64 eps max(|f|, 1) >= 1.4e-14``;
    - ``sigma(z) = (1 + u) / 2``, so the gradient ``X1' C (sigma - y) / n`` is
      ``(X1' c + X1' C u) / 2 - X1' Y`` over ``n``: ``sigma`` is never formed.

    That is four passes per entry (``|h|``, ``tanh``, ``copysign``,
    ``log1p``) besides the two matrix products, against about nine for
    ``exp(-|z|)``, ``log1p`` and a masked ``sigma`` (the mask alone cost as
    much as four passes). The rows go through in blocks of ``block`` (fixed,
    so a label's sums run in the same order whatever the other labels), each
    block's ``z`` in two buffers allocated once per fit: the passes stay in
    cache and no large temporary is allocated (and page-faulted) per
    iteration. Delicious, 50 features, all 983 labels: 82 ms per evaluation
    over the whole block in reused buffers, 52 ms by blocks of 256 rows
    (64 to 1024 rows within the noise).
    """

    def __init__(self, X1, weight, n: int, l2: float, columns: int,
                 block: int = 256):
        rows = X1.shape[0]
        self.w = np.ones(rows) if weight is None else weight
        self.wX1 = np.asarray(X1.T @ self.w).ravel()  # X1' c
        self.wlog2 = math.log(2.0) * float(self.w.sum())
        self.n, self.l2 = n, l2
        # the products over sparse blocks when under a tenth of X1 is nonzero
        # (delicious, 500 features: 4.6 %, both products 277 -> 122 ms per
        # iteration of all labels; 50 features: 21 %, dense 24 ms, sparse 34)
        nonzero = X1.nnz if sp.issparse(X1) else np.count_nonzero(X1)
        self.sparse = bool(sp.issparse(X1) or nonzero < _SPARSE * X1.size)
        self.parts = []
        for start in range(0, rows, block):
            Xb, wb = X1[start:start + block], self.w[start:start + block]
            if self.sparse:
                Xb = sp.csr_matrix(Xb)
                XwT = Xb.T.multiply(wb).tocsr()
            else:
                XwT = (Xb * wb[:, None]).T
            self.parts.append((Xb, XwT, wb))
        size = min(block, rows) * (min(columns, _LABEL_CHUNK) if self.sparse
                                   else columns)
        self._h, self._a = np.empty(0 if self.sparse else size), np.empty(size)
        self._g = np.empty(0 if self.sparse else X1.shape[1] * columns)

    def _pass(self, half, total, G, square):
        """The row blocks for one chunk of labels: adds ``sum c |h|`` minus
        ``sum c log1p(|u|)`` into ``total``, ``X1' C u`` into ``G`` and
        ``sum c u^2`` into ``square`` (those given)."""
        d1, m = half.shape
        if not self.sparse:
            part = self._g[: d1 * m].reshape(d1, m)
        for Xb, XwT, wb in self.parts:
            r = Xb.shape[0]
            if self.sparse:
                H = np.asarray(Xb @ half)
            else:
                H = np.matmul(Xb, half, out=self._h[: r * m].reshape(r, m))
            A = np.abs(H, out=self._a[: r * m].reshape(r, m))
            total += wb @ A  # sum c |h|
            np.tanh(A, out=A)
            if G is not None:
                np.copysign(A, H, out=H)  # u = tanh(h)
            np.log1p(A, out=A)
            total -= wb @ A
            if G is not None:
                if self.sparse:
                    G += XwT @ H
                else:
                    G += np.matmul(XwT, H, out=part)
            if square is not None:
                square += wb @ np.multiply(H, H, out=H)

    def __call__(self, Wt: np.ndarray, XtY: np.ndarray, gradient: bool = True,
                 curvature: bool = False):
        """Mean loss per column of ``Wt`` and (``gradient``) the gradient.

        ``curvature=True`` also returns the mean ``sigma (1 - sigma)`` per
        column, ``(1 - u^2) / 4``.
        """
        half = 0.5 * Wt
        d1, m = Wt.shape
        total = np.zeros(m)
        G = np.zeros((d1, m)) if gradient else None
        square = np.zeros(m) if curvature else None
        # sparse products by chunks of labels: a chunk's weights and block of
        # z stay in cache, and every entry is computed as without chunks
        # (bitwise equal; the dense BLAS products are not chunked, their
        # results may depend on the number of columns)
        chunk = _LABEL_CHUNK if self.sparse else max(m, 1)
        for lo in range(0, m, chunk):
            hi = min(lo + chunk, m)
            whole = lo == 0 and hi == m
            self._pass(half if whole else np.ascontiguousarray(half[:, lo:hi]),
                       total[lo:hi],
                       None if G is None else (G if whole else G[:, lo:hi]),
                       None if square is None else square[lo:hi])
        total += self.wX1 @ half  # sum c h: with the above, sum c max(z, 0)
        total += self.wlog2
        loss = (total - _colsum(XtY, Wt)) / self.n
        if self.l2:
            loss += 0.5 * self.l2 * _colsum(Wt[:-1], Wt[:-1])
        if not gradient:
            return loss, None
        G += self.wX1[:, None]
        G *= 0.5
        G -= XtY
        G /= self.n
        if self.l2:
            G[:-1] += self.l2 * Wt[:-1]
        if curvature:
            return loss, G, (self.w.sum() - square) / (4.0 * self.n)
        return loss, G


def _unique_rows(X):
    """Distinct rows of ``X`` (in a canonical order) and their counts.

    Identical rows share ``z``, so the loss weights each distinct row by its
    count. Each row is compared as one opaque block of bytes (a 1-D sort,
    6x faster than ``np.unique(axis=0)`` on delicious' 50 columns: 11 against
    73 ms); the rows come out sorted by those bytes, so the fit does not
    depend on the order of the training rows. A sparse ``X`` is made dense
    for this when it has at most ``_DENSIFY`` entries (bibtex with 50 of its
    binary features: 3 697 rows, 1 000 to 2 000 distinct); ``None`` for a
    larger one.
    """
    if sp.issparse(X):
        if X.shape[0] * X.shape[1] > _DENSIFY:
            return None
        X = X.toarray()
    X = np.ascontiguousarray(X)
    if X.shape[1] == 0:  # no features: one distinct (empty) row
        return X[:1], np.array([float(X.shape[0])])
    keys = _binary_keys(X)
    if keys is None:
        keys = X.view(np.dtype((np.void, X.itemsize * X.shape[1]))).ravel()
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    return X[first], counts.astype(np.float64)


def _binary_keys(X: np.ndarray):
    """Row keys of a float64 ``X`` of 0.0 and 1.0 only, ordered as its bytes.

    Each row's bits packed (first column first): the byte order of the
    float64 rows (0.0 is eight zero bytes; 1.0 differs from it first in its
    seventh byte, ``0xF0`` against ``0``) is the lexicographic order of the
    0/1 vectors, which is that of the packed bits, so the groups and their
    order are those of the float64 keys, from keys 64 times shorter
    (delicious' 500 columns: 63 bytes instead of 4 000). ``None`` when ``X``
    holds anything else (``-0.0`` included).
    """
    if X.dtype != np.float64:
        return None
    bits = X.view(np.uint64)
    ones = bits == np.uint64(0x3FF0000000000000)
    if not np.all(ones | (bits == 0)):
        return None
    packed = np.packbits(ones, axis=1)
    return packed.view(np.dtype((np.void, packed.shape[1]))).ravel()


def _cross(X, Y) -> np.ndarray:
    """``X1' Y`` (``X1``: ``X`` and a column of ones) for 0/1 ``Y``, exactly.

    Through a sparse copy of ``Y`` (labels are sparse: 2 % ones on
    delicious): no float64 copy of the whole label matrix (100 MB there),
    and a product over the nonzeros only (46 ms against 170 ms).
    """
    labels = sp.csc_matrix(Y).T.tocsr()
    product = labels @ X
    product = product.toarray() if sp.issparse(product) else np.asarray(product)
    out = np.empty((X.shape[1] + 1, Y.shape[1]))
    out[:-1] = product.T
    out[-1] = np.asarray(labels.sum(axis=1)).ravel()
    return out


def fit_logistic_batch(X, Y, W0=None, *, l2=0.0, tol=1e-4, max_iter=1000):
    """Logistic regressions of every label column at once, by a batched L-BFGS.

    Minimises, independently for each column ``l`` of ``Y``,
    ``f_l(w, b) = mean_i(log(1 + exp(z_il)) - y_il z_il) + l2 / 2 ||w||^2``
    with ``z_il = x_i . w + b`` (the intercept is not penalised): the
    objective of scikit-learn's ``LogisticRegression`` with ``l2 = 1 / (C n)``
    (``0`` when unregularised). Each label keeps its own L-BFGS memory (10
    pairs), step and stopping state, exactly as if it ran alone; the labels
    share the matrix products: one ``X @ P`` and one ``X.T @ R`` per
    iteration for all labels still running. A label stops as scikit-learn's
    L-BFGS does: when its largest gradient entry is ``<= tol``, when its loss
    decreases by less than ``64 eps`` relatively, or after ``max_iter``
    iterations.

    What makes it cheaper than one scikit-learn fit per label, at the same
    optimum (delicious, one 80/20 fold, 983 labels, one thread; measured by
    ``bench/bench_delicious.py`` and timing this function):

    - identical rows (binary features) are grouped and weighted by their
      count (50 features: 6 499 distinct rows of 12 884);
    - the initial inverse Hessian is ``M^-1 / c_l`` with ``M = X1' C X1 / n``
      (one Cholesky for all labels) and ``c_l`` the mean of ``p (1 - p)`` at
      the start, exact at the default start (``w = 0``, intercept at the
      label's log-odds, where every ``p`` is the label's rate; loss and
      gradient there in closed form), so the first step is a Newton step and
      the iterations halve (50 features: 7.5 per label against 15.6);
    - the loss and gradient come from ``u = tanh(z / 2)`` in four
      elementwise passes, by blocks of 256 distinct rows into buffers
      allocated once (:class:`_Logistic`); before, about nine passes over
      the whole ``n x q`` block (6.4 M entries) into fresh temporaries took
      1.6 of the 2.1 s, a quarter of the fit in allocation and page faults;
    - ``z`` is recomputed from the weights for every trial, never updated,
      so stopped labels leave the working set at no cost and only the
      ``(d + 1) x q`` arrays (the L-BFGS memory) are compacted, once a tenth
      of the labels have stopped; a backtracking trial is evaluated with its
      gradient (it is usually accepted);
    - the matrix products run over sparse row blocks when under a tenth of
      the entries are nonzero (500 features: 4.6 %, the two products of an
      iteration of all labels 277 -> 122 ms).

    Fit times before -> after these changes (the same iterations, weights
    within 1e-11 in probability at 50 features): 50 features 2.1 s warm /
    3.1 s cold -> 0.6 s; 10, 20, 30 features 1.0, 1.0, 1.3 -> 0.14, 0.25,
    0.35 s; all 500 features (10 101 distinct rows, mean 15 iterations per
    label, max 38) 13.7-14.1 -> 5.0-5.6 s. Line search: backtracking
    from step 1 with the Armijo condition (``c1 = 1e-4``) and quadratic
    interpolation.

    Parameters
    ----------
    X : ndarray or sparse matrix, shape (n, d)
    Y : ndarray or sparse matrix, shape (n, q)
        0/1 targets, any integer, bool or float dtype (read, not copied to
        float).
    W0 : ndarray, shape (d + 1, q), optional
        Starting weights, intercepts in the last row (a warm start); when
        omitted, zero weights and each label's log-odds as intercept.
    l2 : float
        Ridge strength on the mean loss.
    tol : float
    max_iter : int

    Returns
    -------
    W : ndarray, shape (d + 1, q)
        Weights, intercepts in the last row.
    n_iter : ndarray of int, shape (q,)

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> W, _ = fit_logistic_batch(X, np.array([[0, 1], [1, 0], [0, 1], [1, 1]]),
    ...                           tol=1e-10)
    >>> W.round(3).tolist()
    [[0.908, 0.567], [-1.362, 0.347]]
    """
    n, d = X.shape
    q = Y.shape[1]
    W = np.zeros((d + 1, q)) if W0 is None else np.array(W0, dtype=np.float64)
    n_iter = np.zeros(q, dtype=np.int64)
    # sum_i y_il z_il = (X1' Y)_l . w_l: the linear part of the loss, once,
    # on the original rows (its last row counts the positives)
    XtY = _cross(X, Y)
    groups = _unique_rows(X)
    if groups is None:  # large sparse: every row on its own
        X1, weight = _with_intercept(X), np.ones(n)
    else:  # identical rows share z: weight them by their multiplicity
        rows, weight = groups
        X1 = _with_intercept(rows)
    objective = _Logistic(X1, weight, n, l2, q)

    # Preconditioner: at w = 0 with the intercept at the log-odds of the
    # label's rate pi, every row has p = pi, so the Hessian of label l is
    # exactly pi_l (1 - pi_l) M with M = X1' X1 / n, shared by all labels.
    # L-BFGS starts from H0 = M^-1 / (pi (1 - pi)) (a Newton step from that
    # start) and rescales it as usual (Nocedal & Wright, Eq. 7.20, in the
    # metric of M); a little ridge keeps M invertible.
    M = X1.T @ (sp.diags(weight) @ X1 if sp.issparse(X1) else X1 * weight[:, None])
    M = np.asarray(M.toarray() if sp.issparse(M) else M) / n
    M[np.diag_indices_from(M)] += 1e-10 * max(np.trace(M) / (d + 1), 1e-300)
    if l2:
        M[:-1, :-1] += l2 * np.eye(d) / 0.25  # the ridge at p = 1/2
    factor = cho_factor(M, lower=True, check_finite=False)
    if W0 is None:
        rate = np.clip(XtY[-1] / n, 1e-12, 1 - 1e-12)
        W[-1] = np.log(rate / (1 - rate))

    # working set: the stored labels; the stopped ones among them wait (step
    # 0, not evaluated: z = X1 w is recomputed from the weights) until they
    # are a tenth, then the (d + 1) x q arrays are compacted
    idx = np.arange(q)
    XtYw = XtY
    Ww = W.copy()
    # mean curvature p (1 - p) at the start: pi (1 - pi) from the cold start,
    # the warm start's own from a previous solution
    if W0 is None:  # z = b for every row: all in closed form
        p = 1.0 / (1.0 + np.exp(-W[-1]))
        f = np.logaddexp(0.0, W[-1]) - XtY[-1] / n * W[-1]
        G = (np.outer(objective.wX1, p) - XtY) / n
        curvature = p * (1.0 - p)
    else:
        f, G, curvature = objective(Ww, XtYw, curvature=True)
    curvature = np.maximum(curvature, 1e-12)
    S = np.zeros((_MEMORY, d + 1, q))
    Yh = np.zeros((_MEMORY, d + 1, q))
    rho = np.zeros((_MEMORY, q))
    gamma = 1.0 / curvature
    slots: list[int] = []  # ring buffer order, oldest first
    running = np.abs(G).max(axis=0) > tol
    it = 0
    while True:
        if running.sum() < 0.9 * idx.size:  # write back stopped labels, compact
            W[:, idx[~running]] = Ww[:, ~running]
            keep = np.flatnonzero(running)
            idx, XtYw, Ww = idx[keep], XtYw[:, keep], Ww[:, keep]
            f, G = f[keep], G[:, keep]
            S, Yh, rho = S[:, :, keep], Yh[:, :, keep], rho[:, keep]
            gamma, curvature = gamma[keep], curvature[keep]
            running = running[keep]
        if idx.size == 0 or it >= max_iter:
            break
        it += 1
        act = slice(None) if running.all() else np.flatnonzero(running)
        n_iter[idx[act]] += 1
        # two-loop recursion, every label with its own pairs
        P = G.copy()
        alpha = np.zeros((_MEMORY, idx.size))
        for j in reversed(slots):
            alpha[j] = rho[j] * _colsum(S[j], P)
            P -= alpha[j] * Yh[j]
        P = gamma * cho_solve(factor, P, check_finite=False)
        for j in slots:
            beta = rho[j] * _colsum(Yh[j], P)
            P += S[j] * (alpha[j] - beta)
        P = -P
        slope = _colsum(G, P)
        bad = ~(slope < 0)  # not a descent direction: restart that label
        if bad.any():
            gamma[bad] = 1.0 / curvature[bad]
            P[:, bad] = -gamma[bad] * cho_solve(factor, G[:, bad], check_finite=False)
            rho[:, bad] = 0.0
            slope = _colsum(G, P)
        P[:, ~running] = 0.0
        # unit step for every running label at once, then backtracking
        # (Armijo, quadratic interpolation) for the few that need it; a trial
        # point is evaluated with its gradient, since it is usually accepted
        step = running.astype(np.float64)
        W_new = Ww + P
        f_new, G_new = f.copy(), G.copy()
        f_new[act], G_new[:, act] = objective(W_new[:, act], XtYw[:, act])
        ok = (f_new <= f + 1e-4 * slope) | ~running
        retry = np.flatnonzero(~ok)
        for _ in range(_MAXLS):
            if retry.size == 0:
                break
            t = step[retry]
            curv = f_new[retry] - f[retry] - slope[retry] * t
            shrink = np.where(curv > 0, -slope[retry] * t / (2 * curv), 0.5)
            t = t * np.clip(shrink, 0.1, 0.5)
            step[retry] = t
            W_new[:, retry] = Ww[:, retry] + t * P[:, retry]
            f_new[retry], G_new[:, retry] = objective(W_new[:, retry],
                                                      XtYw[:, retry])
            good = f_new[retry] <= f[retry] + 1e-4 * t * slope[retry]
            ok[retry[good]] = True
            retry = retry[~good]
        failed = ~ok
        if failed.any():  # no acceptable step: stay (and stop below)
            step[failed] = 0.0
            W_new[:, failed], f_new[failed], G_new[:, failed] = (
                Ww[:, failed], f[failed], G[:, failed])
        S_new = W_new - Ww
        Y_new = G_new - G
        half = solve_triangular(factor[0], Y_new, lower=True, check_finite=False)
        sy, yy = _colsum(S_new, Y_new), _colsum(half, half)  # y' M^-1 y
        valid = sy > np.finfo(float).eps * np.maximum(yy, 0.0)
        slot = len(slots) if len(slots) < _MEMORY else slots.pop(0)
        slots.append(slot)
        S[slot], Yh[slot] = S_new, Y_new
        rho[slot] = np.where(valid, 1.0 / np.where(valid, sy, 1.0), 0.0)
        gamma = np.where(valid, sy / np.where(valid, yy, 1.0), gamma)
        scale = np.maximum(np.maximum(np.abs(f), np.abs(f_new)), 1.0)
        decrease = (f - f_new) / scale
        Ww, f, G = W_new, f_new, G_new
        running &= ~failed & (np.abs(G).max(axis=0) > tol) & (decrease > _FTOL)
    W[:, idx] = Ww  # still running after max_iter
    return W, n_iter


