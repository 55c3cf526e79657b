"""MATLAB glmfit's IRLS for the binomial family with the logit link, batched
over labels.

The ``irls-glmfit`` solver of
:class:`~mlfsbench.estimators.classifiers.br_lr.BRLogisticRegression`
(:func:`fit_logistic_glmfit`): glmfit's iteration limit (100), its
convergence test on the coefficients (``TolX`` 1e-6) and its bounded linear
predictor; the weighted least squares of all running labels go through their
normal equations at once where the scaled Gram matrix is well conditioned,
through glmfit's QR elsewhere (docs/design.md,
docs/journal/2026-11-27-br-lr-glmfit.md).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from scipy.linalg import get_blas_funcs, get_lapack_funcs, qr, solve_triangular
from scipy.special import expit

__all__ = ["GLMFIT_MAX_ITER", "GLMFIT_TOLX", "LOGIT_BOUND", "fit_logistic_glmfit"]

_EPS = np.finfo(float).eps
GLMFIT_MAX_ITER = 100  # statset('glmfit').MaxIter
GLMFIT_TOLX = 1e-6  # statset('glmfit').TolX
#: glmfit's logit inverse link bounds the linear predictor to
#: ``[log(eps), -log(eps)]`` (about +-36.04) before ``1 / (1 + exp(-eta))``
LOGIT_BOUND = -math.log(_EPS)
_GLM_CHUNK = 2**22  # entries of one batch of weighted design matrices
_PAIRS_DENSE = 0.03  # share of nonzero pairs above which Gram matrices are dense
_PAIRS_MEMORY = 2**28  # bytes of a dense matrix of pair products (256 MiB)
#: labels from which the dense pair products pay: reading them costs about
#: as much as this many labels' syrk (delicious' n = 50 codes: 68 MB)
_GEMM_LABELS = 32


def _glm_mean(eta: np.ndarray) -> np.ndarray:
    """glmfit's binomial mean from the linear predictor (in place on ``eta``'s
    copy): the bounded logit inverse, then ``mu`` kept in ``[eps, 1 - eps]``."""
    mu = expit(np.clip(eta, -LOGIT_BOUND, LOGIT_BOUND))
    return np.clip(mu, _EPS, 1.0 - _EPS, out=mu)


def _glm_design(X, Y):
    """The grouped design of :func:`fit_logistic_glmfit` (shared by its solvers).

    Returns ``(X, rows, counts, group_of, positives, keep)``: ``X`` as a dense
    float64 array, its distinct rows and their counts, each row's group, the
    positives of each label per group, and the columns of ``[1, rows]`` kept
    by the rank test (constant first).
    """
    if sp.issparse(X):
        X = X.toarray()
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    q = Y.shape[1]
    if d:  # identical rows: one row, weight = count, targets summed
        keys = np.ascontiguousarray(X).view(
            np.dtype((np.void, X.itemsize * d))).ravel()
        _, first, group_of, counts = np.unique(
            keys, return_index=True, return_inverse=True, return_counts=True)
        rows, group_of = X[first], group_of.reshape(-1)
        counts = counts.astype(np.float64)
    else:
        rows, counts, group_of = X[:1], np.array([float(n)]), np.zeros(n, np.intp)
    r = rows.shape[0]
    positives = np.zeros((r, q))
    np.add.at(positives, group_of, np.asarray(Y, dtype=np.float64))
    D = np.column_stack([np.ones(r), rows])  # glmfit's constant comes first
    # dependent columns, once: pivoted QR of the design (its grouped form
    # has the same Gram matrix, hence the same R)
    R0, perm = qr(D * np.sqrt(counts)[:, None], mode="r", pivoting=True)
    diag = np.abs(np.diag(R0))
    rank = int(np.sum(diag > diag[0] * max(n, d + 1) * _EPS)) if diag.size else 0
    keep = np.sort(perm[:rank])
    return X, D[:, keep], counts, group_of, positives, keep


def _glm_weights(eta, ybar):
    """glmfit's working response ``z`` and weights ``sqrt(mu (1 - mu))``
    (floored at ``max(weights) eps^(2/3)`` per label) from ``eta``."""
    mu = _glm_mean(eta)
    v = mu * (1.0 - mu)
    z = eta + (ybar - mu) / v
    w = np.sqrt(v)
    floor = w.max(axis=0) * _EPS ** (2.0 / 3.0)
    return z, np.maximum(w, floor)


def _qr_solves(design, w, z):
    """Weighted least-squares solutions, one per column of ``w`` and ``z``,
    by the QR of each weighted design (glmfit's ``wfit``)."""
    p, m = design.shape[1], w.shape[1]
    out = np.empty((p, m))
    step = max(1, _GLM_CHUNK // max(design.shape[0] * p, 1))
    for lo in range(0, m, step):
        sl = slice(lo, lo + step)
        # the weighted design and response side by side: the R of their
        # QR holds R and Q' (w z) in its last column, without forming Q
        k = min(lo + step, m) - lo
        A = np.empty((k, design.shape[0], p + 1))
        np.multiply(w[:, sl].T[:, :, None], design[None], out=A[:, :, :p])
        A[:, :, p] = (z[:, sl] * w[:, sl]).T
        R = np.linalg.qr(A, mode="r")
        out[:, sl] = np.linalg.solve(R[:, :p, :p], R[:, :p, p:])[:, :, 0].T
    return out


class _Gram:
    """``D' diag(c) D`` of a fixed design ``D`` for many weight columns ``c``.

    The products ``D_ij D_ik`` of each row's nonzero pairs ``j >= k`` are
    laid out once as a sparse matrix ``P`` (one row per pair present in
    some row of ``D``, one column per row of ``D``), so that ``P @ C`` gives
    every label's Gram entries in one product over the nonzeros only
    (enron's 2-bin codes, 1 001 features: 85 nonzeros a row, 3 700 pairs a
    row instead of 500 000). When the pairs are not that sparse (more than
    ``_PAIRS_DENSE`` of all, as yeast's codes: 18 %), the same products as a
    dense matrix and one dense matrix product for all labels (``route``
    ``"gemm"``), where that matrix fits in ``_PAIRS_MEMORY`` (the n <= 50
    paths of Lee 2016: 51-101 columns) and at least ``_GEMM_LABELS`` labels
    are solved at once (the product reads the whole matrix); else (fewer
    labels, or all of delicious' 501 codes) each label's
    ``(sqrt(c) D)' (sqrt(c) D)`` by a BLAS ``syrk`` (``"syrk"``). The routes
    sum the same products in other orders: the entries agree to about
    1e-13 relatively (tested).
    """

    def __init__(self, D: np.ndarray):
        r, p = D.shape
        self.D, self.p = D, p
        nonzero = D != 0
        per_row = nonzero.sum(axis=1)
        pairs = int(np.sum(per_row * (per_row + 1) // 2))
        all_pairs = p * (p + 1) // 2
        self.dense = pairs > _PAIRS_DENSE * r * all_pairs
        self.route = "sparse"
        if self.dense:
            self.route = "gemm" if 8 * r * all_pairs <= _PAIRS_MEMORY else "syrk"
            self.Pt = None  # the dense pair products, made when first used
            return
        _, cols_of = np.nonzero(nonzero)
        starts = np.concatenate([[0], np.cumsum(per_row)])
        # every (j, k) with j >= k of each row, as flat indices j * p + k;
        # the pairs of row i are the entries of column i of P (CSC)
        flat, vals = [], []
        for i in range(r):
            cols = cols_of[starts[i]:starts[i + 1]]
            jj, kk = np.tril_indices(cols.size)
            a, b = cols[jj], cols[kk]
            flat.append(a * p + b)
            vals.append(D[i, a] * D[i, b])
        flat = np.concatenate(flat)
        present = np.zeros(p * p, dtype=bool)
        present[flat] = True
        self.slots = np.flatnonzero(present)
        where = np.cumsum(present) - 1  # pair -> row of P
        indptr = np.concatenate([[0], np.cumsum(per_row * (per_row + 1) // 2)])
        self.P = sp.csc_matrix((np.concatenate(vals), where[flat], indptr),
                               shape=(self.slots.size, r)).tocsr()

    def __call__(self, C: np.ndarray) -> np.ndarray:
        """The lower triangles of ``D' diag(C[:, l]) D``, shape ``(m, p, p)``
        (the upper triangle: zeros, or the full matrix on the dense path)."""
        p, m = self.p, C.shape[1]
        if self.route == "gemm" and m >= _GEMM_LABELS:
            # every label's pairs in one product
            if self.Pt is None:
                jj, kk = np.tril_indices(p)
                self.flat = jj * p + kk
                # one row per pair (j, k), j >= k, one column per row of D
                self.Pt = np.ascontiguousarray((self.D[:, jj] * self.D[:, kk]).T)
            G = np.zeros((m, p * p))
            G[:, self.flat] = (self.Pt @ C).T
            return G.reshape(m, p, p)
        if self.dense:  # one BLAS syrk per label (the lower triangle)
            G = np.empty((m, p, p))
            root = np.sqrt(C)
            for j in range(m):
                A = self.D * root[:, j:j + 1]  # its transpose is Fortran-ordered
                G[j] = _SYRK(1.0, A.T, lower=1)
            return G
        G = np.zeros((m, p * p))
        G[:, self.slots] = (self.P @ C).T
        return G.reshape(m, p, p)


def fit_logistic_glmfit(X, Y, *, max_iter=GLMFIT_MAX_ITER, tolx=GLMFIT_TOLX,
                        solver="cholesky", steady=True):
    """Unregularised logistic regressions of every label as MATLAB's ``glmfit``.

    ``glmfit(X, y, 'binomial')`` (logit link, a constant term, prior weights
    1) as its documentation and options describe it, for all columns of ``Y``
    at once (each label's iterations are its own; the labels share the
    elementwise passes and the batched least-squares solves):

    - the design is ``[1, X]``; dependent columns are dropped once, by a
      column-pivoted QR of the design (rank: diagonal entries of ``R`` above
      ``|R_11| max(n, p) eps``), and get coefficient 0 (glmfit's
      "ill conditioned" warning). The rank of ``sqrt(W) [1, X]`` equals that
      of ``[1, X]`` for positive weights, so this is the same for every label;
    - start ``mu = (y + 0.5) / 2``, ``eta = logit(mu)``, coefficients 0;
    - each iteration (IRLS, Fisher scoring): working response
      ``z = eta + (y - mu) / (mu (1 - mu))``, weights ``sqrt(mu (1 - mu))``
      raised to ``max(weights) eps^(2/3)`` where smaller (glmfit's guard
      against an enormous weight range), the weighted least-squares
      solution; then ``eta = [1, X] b`` and ``mu`` by the bounded inverse
      link (:data:`LOGIT_BOUND`), kept in ``[eps, 1 - eps]``;
    - a label stops when no coefficient changed by more than
      ``tolx max(sqrt(eps), |b_old|)`` (``statset('glmfit')``: ``TolX`` 1e-6),
      or after ``max_iter + 1`` solves (``MaxIter`` 100: glmfit's loop runs
      while the counter, incremented first, is ``<= MaxIter``, and warns of
      the iteration limit when it ends above it).

    The weighted least-squares solutions (``solver``):

    - ``"cholesky"`` (default): the normal equations of all running labels
      at once. Their Gram matrices ``[1, X]' W [1, X]`` come from one sparse
      product over the nonzero pairs of the distinct rows (:class:`_Gram`),
      their right-hand sides from one matrix product; then one Cholesky
      factorisation and solve per label (LAPACK). The first iteration's
      weights are the same for every row and label (``mu`` is 1/4 or 3/4,
      ``mu (1 - mu) = 3/16``), so it is one factorisation for all labels.
      But only while the label's Gram matrix, scaled to a unit diagonal,
      has condition number at most ``1 / GLM_RCOND`` (1e6) and is
      numerically positive definite; from the first solve that fails this
      the label is solved by QR to the end of its fit (and every label is
      when the design itself fails it, as enron's 1 001 codes do);
    - ``"qr"``: glmfit's own way (``wfit``), a QR of each label's weighted
      design (the former implementation; the reference of the tests).

    Within the bound the two differ by about ``kappa(S) eps <= 1e-10``
    relatively in the scaled coefficients, four orders of magnitude under
    ``TolX``: the same iterations, and for the labels that converge
    coefficients within ``1e-9`` relative (yeast's, in the tests; the
    measured differences are about 1e-13). On a label that runs to the limit
    (separable) the rows past the bound weigh ``sqrt(eps)`` and the
    condition number of ``S`` reaches 1e15-1e17: the normal equations there
    have no correct digit (tried: coefficients of 1e16), QR has, and takes
    over. The scores of such labels stay close (yeast: 1e-13, ties at the
    bounds included, ``tests/test_br_lr_glmfit.py``; on the n <= 50 paths of
    genbase and languagelog up to 4e-3 in a score of a label at the limit:
    rounding differences grow over its 101 solves; no prediction moved,
    ``bench/bench_br_lr_glmfit.py``). Test scores within
    about 1e-10 of a threshold (a group whose fitted probability is 1/2)
    may fall on either side, as they may between two QR implementations.

    Steady iterations (``steady``, with the ``"cholesky"`` solver): on a
    separable label the rows that a change of the coefficients moves end up
    past the bound, on their own side, moving outward. Once every row the
    last change ``delta`` moved (by more than ``1e-9 max(1, |eta|)``) was
    already past the bound before it, their ``mu`` stayed clipped: the next
    least-squares problem has the last one's weights and its response
    shifted by ``[1, X] delta``, so its solution is the last one plus
    ``delta`` (the design has full column rank), and the same holds at every
    later iteration. In exact arithmetic the coefficients then go on by
    ``delta`` per iteration until the convergence test passes or the limit
    comes; that iteration's ``b + t delta`` is taken at once. Computed, the
    successive changes agree to about 1e-9 where the normal equations solve
    them (delicious' codes) and only to 1e-3-1e-2 where QR does, on Gram
    matrices of condition 1e15 and more (bibtex's): there solving every
    iteration only adds rounding noise. Measured against solving every
    iteration: the same iterations, scores within about 1e-12 and the same
    predictions on yeast, genbase and delicious, about half of the solves
    of a label at the limit not made (``tests/test_br_lr_glmfit.py``,
    ``bench/bench_br_lr_glmfit.py``, docs/journal/2026-11-28-glmfit-steady.md).

    On separable labels the coefficients grow at every iteration until the
    limit, the linear predictor reaches the bound on many rows and their
    probabilities tie at ``1 / (1 + eps^-1)`` or ``1 / (1 + eps)``: such ties
    are what MATLAB's ``glmval`` would return for them (Lee & Kim 2016
    released MATLAB code; their classifier is a BR logistic regression,
    Sec. 4.1). Identical rows of ``X`` are grouped and weighted by their
    count (the same normal equations; the weight floor is computed on the
    per-row weights, as without grouping).

    References: MATLAB Statistics and Machine Learning Toolbox documentation,
    ``glmfit`` (``'Options'``, ``statset('glmfit')``: ``MaxIter`` 100,
    ``TolX`` 1e-6) and ``glmval``; P. McCullagh, J. A. Nelder,
    *Generalized Linear Models*, 2nd ed., 1989, Sec. 2.5 (IRLS).

    Parameters
    ----------
    X : ndarray or sparse matrix, shape (n, d)
    Y : ndarray, shape (n, q)
        0/1 targets.
    max_iter : int, default=100
    tolx : float, default=1e-6
    solver : {"cholesky", "qr"}, default="cholesky"
    steady : bool, default=True
        Take a label's steady iterations at once (``"cholesky"`` only; the
        ``"qr"`` solver, the reference, solves every iteration).

    Returns
    -------
    W : ndarray, shape (d + 1, q)
        Weights, intercepts in the last row.
    n_iter : ndarray of int, shape (q,)
        Least-squares solves per label (``max_iter + 1`` at the limit).

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> W, n_iter = fit_logistic_glmfit(X, np.array([[0, 1], [1, 0], [0, 1], [1, 1]]))
    >>> W.round(3).tolist(), n_iter.tolist()
    ([[0.908, 0.567], [-1.362, 0.347]], [5, 4])
    """
    if solver not in ("cholesky", "qr"):
        raise ValueError(f"solver must be 'cholesky' or 'qr', got {solver!r}")
    Y = np.asarray(Y)
    X, Dk, counts, group_of, positives, keep = _glm_design(X, Y)
    n, d = X.shape
    q = Y.shape[1]
    p = keep.size
    B = np.zeros((p, q))
    n_iter = np.zeros(q, dtype=np.int64)
    # After the first solve eta is a function of x: a group's rows share mu
    # and weight, and their least-squares terms add up to one row of weight
    # count * w^2 and response eta + (ybar - mu) / v (ybar: the group's
    # share of positives).
    ybar = positives / counts[:, None]
    gram = None  # the pair products, made when first needed
    by_qr = np.zeros(q, dtype=bool)  # labels whose solves went to QR
    active = np.arange(q)
    it = 0
    eta = None
    while active.size and it <= max_iter:
        it += 1
        n_iter[active] = it
        if solver == "qr" and it == 1:  # on the original rows: per-row start
            Bnew = _qr_first(X, Y[:, active], keep)
        elif solver == "qr":
            z, w = _glm_weights(eta, ybar[:, active])
            Bnew = _qr_solves(Dk, w * np.sqrt(counts)[:, None], z)
        elif it == 1:
            Bnew, well = _cholesky_first(Dk, counts, positives)
            # an ill-conditioned design (uniform weights) stays so under
            # IRLS weights in practice: every solve by QR, no Gram tried
            by_qr[:] = not well
        else:
            z, w = _glm_weights(eta, ybar[:, active])
            if gram is None and not by_qr[active].all():
                gram = _Gram(Dk)
            Bnew, by_qr[active] = _cholesky_solves(gram, Dk, w, z, counts,
                                                   by_qr[active])
        B_prev = B[:, active]
        moved = np.abs(Bnew - B_prev) > tolx * np.maximum(math.sqrt(_EPS),
                                                          np.abs(B_prev))
        B[:, active] = Bnew
        going = moved.any(axis=0)
        if steady and solver == "cholesky" and it >= 2:
            going &= ~_steady_steps(Dk, B, B_prev, Bnew - B_prev, active, going,
                                    n_iter, it, max_iter, tolx)
        active = active[going]
        eta = Dk @ B[:, active]
    W = np.zeros((d + 1, q))
    coef = np.zeros((d + 1, q))
    coef[keep] = B  # design order: constant first
    W[:-1] = coef[1:]
    W[-1] = coef[0]
    return W, n_iter


def _steady_steps(Dk, B, B_prev, change, active, going, n_iter, it, max_iter,
                  tolx):
    """The steady iterations of :func:`fit_logistic_glmfit`, taken at once.

    For each running label (``going``) every row of which this iteration's
    ``change`` (a column per ``active`` label, from ``B_prev``) moved was
    past the bound at ``B_prev``, moving outward: ``B`` and ``n_iter`` set
    to where glmfit's loop would stop. Returns which of the active labels
    were so finished.
    """
    done = np.zeros(active.size, dtype=bool)
    left = max_iter + 1 - it  # solves glmfit would still make at most
    cols = np.flatnonzero(going)
    if not cols.size or left < 1:
        return done
    eta, move = Dk @ B_prev[:, cols], Dk @ change[:, cols]  # every label at once
    moving = np.abs(move) > 1e-9 * np.maximum(1.0, np.abs(eta))
    outward = (np.abs(eta) >= LOGIT_BOUND) & (np.sign(eta) == np.sign(move))
    steady = moving.any(axis=0) & (outward | ~moving).all(axis=0)
    for j in cols[steady]:
        delta = change[:, j]
        # iteration it + t: b + t delta, tested against b + (t - 1) delta
        label = active[j]
        b = B[:, label]
        t = np.arange(1, left + 1)
        before = b[:, None] + (t - 1)[None, :] * delta[:, None]
        moves = (np.abs(delta)[:, None] > tolx * np.maximum(
            math.sqrt(_EPS), np.abs(before))).any(axis=0)
        stop = int(np.argmin(moves)) + 1 if not moves.all() else left
        B[:, label] = b + stop * delta
        n_iter[label] = it + stop
        done[j] = True
    return done


def _qr_first(X, Y, keep):
    """QR path, first solve: on the original rows (the start is per row)."""
    mu = (np.asarray(Y, dtype=np.float64) + 0.5) / 2.0
    v = mu * (1.0 - mu)
    z = np.log(mu / (1.0 - mu)) + (Y - mu) / v
    design = np.column_stack([np.ones(X.shape[0]), X])[:, keep]
    return _qr_solves(design, np.sqrt(v), z)


_POTRF, _POTRS, _POCON = get_lapack_funcs(("potrf", "potrs", "pocon"),
                                           (np.empty(1),))
_SYRK = get_blas_funcs("syrk", (np.empty(1),))
_GRAM_MEMORY = 2**25  # bytes of Gram matrices built at once (32 MiB)
#: smallest reciprocal condition number (1-norm estimate) of a label's
#: scaled Gram matrix whose normal equations are used; below it the label's
#: least squares go to QR (see :func:`_scaled_cholesky`)
GLM_RCOND = 1e-6
_stats = {"cholesky": 0, "qr": 0}  # solves by each route (for the benchmark)


def _scaled_cholesky(G):
    """Cholesky factor of the Gram matrix ``G`` (its lower triangle) scaled to
    a unit diagonal, and the scale ``s = diag(G)^-1/2``; ``None`` when the
    scaled matrix ``S = s G s`` is not numerically positive definite or its
    estimated condition number exceeds ``1 / GLM_RCOND``.

    The normal equations lose about ``kappa(S) eps`` relatively in the
    scaled coefficients, QR (glmfit's ``wfit``) about the square root of
    that plus a residual term of up to the same size: below the bound both
    are within about ``1e-10`` of the exact solution, four orders of
    magnitude under glmfit's ``TolX``; above it the normal equations are
    not used (LAPACK's 1-norm estimate from the factor, ``O(p^2)``).
    """
    L = np.tril(G)
    s = 1.0 / np.sqrt(L.diagonal())
    L *= s[:, None]
    L *= s[None, :]
    absL = np.abs(L)  # 1-norm of the symmetric S from its lower triangle
    norm = float((absL.sum(axis=0) + absL.sum(axis=1) - absL.diagonal()).max())
    factor, info = _POTRF(L, lower=1, clean=0, overwrite_a=1)
    if info != 0:
        return None
    rcond, info = _POCON(factor, norm, uplo="L")
    if info != 0 or not rcond >= GLM_RCOND:
        return None
    return factor, s


def _scaled_solve(factor, s, rhs):
    """``G^-1 rhs`` from :func:`_scaled_cholesky`'s factor and scale."""
    y, _ = _POTRS(factor, s[:, None] * rhs.reshape(len(s), -1), lower=1)
    return (s[:, None] * y).reshape(rhs.shape)


def _cholesky_first(Dk, counts, positives):
    """First solve, one factorisation for all labels.

    From ``mu = (y + 0.5) / 2`` every row has weight ``3/16`` and response
    ``+-(log 3 + 4/3)`` (the sign of ``2 y - 1``): the same weighted design
    for every label. The rows of a group then add up to one row of weight
    ``count`` and response ``(log 3 + 4/3)(2 ybar - 1)``, and the solution
    is that of ``[1, X]' C [1, X] b = (log 3 + 4/3) [1, X]' (2 pos - C 1)``
    with ``C`` the group counts: by one Cholesky factorisation when well
    conditioned (:func:`_scaled_cholesky`), else by one QR of
    ``sqrt(C) [1, X]`` with every label's response beside it. Returns the
    solutions and whether the normal equations were used.
    """
    scale = math.log(3.0) + 4.0 / 3.0
    G = Dk.T @ (Dk * counts[:, None])
    found = _scaled_cholesky(G)
    if found is not None:
        _stats["cholesky"] += positives.shape[1]
        rhs = Dk.T @ (scale * (2.0 * positives - counts[:, None]))
        return _scaled_solve(*found, rhs), True
    _stats["qr"] += positives.shape[1]
    root = np.sqrt(counts)[:, None]
    zbar = scale * (2.0 * positives / counts[:, None] - 1.0)
    p = Dk.shape[1]
    R = np.linalg.qr(np.hstack([Dk * root, zbar * root]), mode="r")
    return solve_triangular(R[:p, :p], R[:p, p:], check_finite=False), False


_SMALL = 64  # Gram matrices up to this order are tested and solved batched


def _small_solves(G, rhs):
    """:func:`_scaled_cholesky`'s test and solve for a stack of small Gram
    matrices (lower triangles) at once: the scaled matrices' inverses
    (batched LU) give their exact 1-norm condition ``||S||_1 ||S^-1||_1``
    (LAPACK's estimate is a lower bound of it; the same bound,
    ``1 / GLM_RCOND``) and the solutions of the well-conditioned ones.
    Returns which passed (``None`` when a matrix is exactly singular: the
    caller then tests them one by one) and the solutions (columns)."""
    L = np.tril(G)
    S = L + np.swapaxes(L, 1, 2)
    idx = np.arange(S.shape[1])
    diag = L[:, idx, idx]
    S[:, idx, idx] = diag
    s = 1.0 / np.sqrt(diag)
    S *= s[:, :, None]
    S *= s[:, None, :]
    try:
        inv = np.linalg.inv(S)
    except np.linalg.LinAlgError:
        return None, None
    norm = np.abs(S).sum(axis=1).max(axis=1)
    norm_inv = np.abs(inv).sum(axis=1).max(axis=1)
    good = np.isfinite(norm_inv) & (norm * norm_inv <= 1.0 / GLM_RCOND)
    x = np.einsum("mij,mj->mi", inv, s * rhs.T)
    return good, (s * x).T


def _cholesky_solves(gram, Dk, w, z, counts, by_qr):
    """Every running label's weighted least squares by its normal equations.

    ``w``, ``z``: the per-row weights and responses of the groups (one column
    per label); each group weighs ``count * w^2``. A label whose scaled Gram
    matrix fails :func:`_scaled_cholesky`'s test is solved by QR, and so are
    its later iterations (``by_qr``, one flag per column, returned updated:
    its weights only grow more extreme as its coefficients do, and no Gram
    matrix is formed for it again). Returns the solutions and the flags.
    """
    r, p = Dk.shape
    m = w.shape[1]
    C = w * w
    C *= counts[:, None]
    out = np.empty((p, m))
    by_qr = by_qr.copy()
    chol = np.flatnonzero(~by_qr)
    if chol.size:
        rhs = Dk.T @ (C[:, chol] * z[:, chol])  # all right-hand sides at once
        step = max(1, _GRAM_MEMORY // (8 * p * (max(p, r) if gram.route == "syrk"
                                                else p)))
        for lo in range(0, chol.size, step):
            cols = chol[lo:lo + step]
            G = gram(C[:, cols])
            if p <= _SMALL:  # batched: no per-label calls
                good, x = _small_solves(G, rhs[:, lo:lo + cols.size])
                if good is not None:
                    out[:, cols[good]] = x[:, good]
                    by_qr[cols[~good]] = True
                    continue
            for j, col in enumerate(cols):
                found = _scaled_cholesky(G[j])
                if found is None:
                    by_qr[col] = True
                else:
                    out[:, col] = _scaled_solve(*found, rhs[:, lo + j])
    cols = np.flatnonzero(by_qr)
    _stats["cholesky"] += m - cols.size
    _stats["qr"] += cols.size
    if cols.size:
        out[:, cols] = _qr_solves(Dk, w[:, cols] * np.sqrt(counts)[:, None],
                                  z[:, cols])
    return out, by_qr


