"""Stability of feature selection across resamplings (Nogueira et al. 2018).

Reference: S. Nogueira, K. Sechidis and G. Brown, "On the stability of feature
selection algorithms", *JMLR* 18(174):1-54, 2018. A selector run on ``M``
resamplings (e.g. the folds of a cross-validation) of a dataset with ``d``
features gives the binary matrix ``Z`` (``M x d``), ``Z[i, f] = 1`` when run
``i`` selected feature ``f``. With ``p_f`` the selection frequency of feature
``f`` (the column mean), ``k_bar`` the mean subset size and
``s_f^2 = M / (M - 1) p_f (1 - p_f)`` the unbiased variance of column ``f``,
the estimator (their Definition 4 / Eq. 4) is::

    Phi(Z) = 1 - mean_f(s_f^2) / ((k_bar / d) (1 - k_bar / d))

It is 1 when every run selects the same subset, 0 in expectation for
subsets drawn at random with the same sizes, and it equals the average
pairwise Kuncheva index when all subsets have the same size (tested).

Variance and confidence interval (their Theorem 9 / Appendix): ``Phi`` is
asymptotically normal. Writing ``Phi = 1 - (k_bar - U) / D`` with
``D = k_bar (1 - k_bar / d)`` and ``U`` the mean over ordered pairs
``i != j`` of ``|Z_i & Z_j|`` (a U-statistic), the delta method gives, per
run ``i`` (``k_i = |Z_i|``)::

    psi_i = (2 Z_i . p - 2 k_bar k_i / d + Phi (2 k_bar k_i / d - k_i)) / D
    Var(Phi) ~= (1 / M^2) sum_i (psi_i - mean(psi))^2

(the paper's ``phi_i`` is ``psi_i / 2`` plus a constant, with the factor 4 in
front of the sum). The ``1 - alpha`` interval is
``Phi +- z_{1 - alpha/2} sqrt(Var)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as ss

__all__ = [
    "StabilityResult",
    "selection_matrix",
    "top_k_matrix",
    "nogueira_stability",
    "nogueira_variance",
    "stability",
]


def selection_matrix(subsets: Sequence[Sequence[int]], n_features: int) -> np.ndarray:
    """``Z`` (M x d, bool) from the feature indices selected in each run.

    Examples
    --------
    >>> selection_matrix([[0, 2], [2, 3]], 4).astype(int).tolist()
    [[1, 0, 1, 0], [0, 0, 1, 1]]
    """
    Z = np.zeros((len(subsets), int(n_features)), dtype=bool)
    for i, subset in enumerate(subsets):
        idx = np.asarray(subset, dtype=np.intp)
        if idx.size and (idx.min() < 0 or idx.max() >= n_features):
            raise ValueError(
                f"subset {i} has feature indices outside 0..{n_features - 1}"
            )
        Z[i, idx] = True
    return Z


def top_k_matrix(rankings, k: int, n_features: int | None = None) -> np.ndarray:
    """``Z`` of the top-``k`` features of each ranking (best first).

    Parameters
    ----------
    rankings : array-like of int, shape (M, >= k)
        One feature ranking per run (e.g. ``ranking`` of the selection files
        of each fold).
    k : int
    n_features : int, optional
        ``d``; by default the length of the rankings.

    Examples
    --------
    >>> top_k_matrix([[2, 0, 1], [0, 2, 1]], 2).astype(int).tolist()
    [[1, 0, 1], [1, 0, 1]]
    """
    R = np.asarray(rankings, dtype=np.intp)
    if R.ndim != 2 or not 1 <= k <= R.shape[1]:
        raise ValueError(f"need rankings (M, >= k) with k >= 1, got shape {R.shape} "
                         f"and k={k!r}")
    d = R.shape[1] if n_features is None else int(n_features)
    return selection_matrix(R[:, :k], d)


def _check_Z(Z) -> np.ndarray:
    Z = np.asarray(Z)
    if Z.ndim != 2:
        raise ValueError(f"Z must be 2-D (runs x features), got shape {Z.shape}")
    if not np.isin(Z, (0, 1)).all():
        raise ValueError("Z must contain only 0/1 values")
    M, d = Z.shape
    if M < 2 or d < 2:
        raise ValueError(
            f"stability needs at least 2 runs and 2 features, got {Z.shape}"
        )
    Z = Z.astype(np.float64)
    k_bar = Z.sum(axis=1).mean()
    if k_bar == 0 or k_bar == d:
        raise ValueError("stability is undefined when every run selects no feature "
                         "or all features")
    return Z


def nogueira_stability(Z) -> float:
    """Stability estimate ``Phi(Z)`` of Nogueira et al. (2018), Eq. 4.

    Parameters
    ----------
    Z : array-like of 0/1, shape (M, d)
        ``M >= 2`` runs; the mean subset size must be strictly between 0 and
        ``d``.

    Returns
    -------
    float
        At most 1 (identical subsets); about 0 for random subsets; can be
        negative.

    Examples
    --------
    >>> round(nogueira_stability([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]), 12)
    0.333333333333
    >>> nogueira_stability([[1, 0, 1], [1, 0, 1]])
    1.0
    """
    Z = _check_Z(Z)
    M, d = Z.shape
    p = Z.mean(axis=0)
    k_bar = p.sum()
    s2 = M / (M - 1) * p * (1 - p)
    return float(1.0 - s2.mean() / ((k_bar / d) * (1 - k_bar / d)))


def nogueira_variance(Z) -> float:
    """Asymptotic variance of :func:`nogueira_stability` (delta method; see module).

    Examples
    --------
    >>> nogueira_variance([[1, 0, 1], [1, 0, 1], [1, 0, 1]])
    0.0
    >>> round(nogueira_variance([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]), 4)
    0.0329
    """
    Z = _check_Z(Z)
    M, d = Z.shape
    p = Z.mean(axis=0)
    k_bar = p.sum()
    k_i = Z.sum(axis=1)
    phi = nogueira_stability(Z)
    D = k_bar * (1 - k_bar / d)
    psi = (2 * Z @ p - 2 * k_bar * k_i / d + phi * (2 * k_bar * k_i / d - k_i)) / D
    return float(np.sum((psi - psi.mean()) ** 2) / M**2)


@dataclass(frozen=True)
class StabilityResult:
    """Stability with its variance and ``1 - alpha`` normal confidence interval."""

    stability: float
    variance: float
    ci_low: float
    ci_high: float
    n_runs: int
    mean_size: float


def stability(Z, alpha: float = 0.05) -> StabilityResult:
    """:func:`nogueira_stability`, :func:`nogueira_variance` and the CI.

    Examples
    --------
    >>> res = stability([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]])
    >>> round(res.stability, 4), round(res.ci_low, 3), round(res.ci_high, 3)
    (0.3333, -0.022, 0.689)
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    phi = nogueira_stability(Z)
    var = nogueira_variance(Z)
    half = float(ss.norm.isf(alpha / 2)) * math.sqrt(var)
    Z = np.asarray(Z)
    return StabilityResult(phi, var, phi - half, phi + half, int(Z.shape[0]),
                           float(Z.sum(axis=1).mean()))
