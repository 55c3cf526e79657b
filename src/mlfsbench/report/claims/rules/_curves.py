"""What the curve rules share: a method's curve over K, where it reaches its
best, and correlations along it.

A *curve* is a method's mean over folds at each integer K of the run
(:meth:`~mlfsbench.report.claims.results.Results.curves`), restricted to the
claim's ``k_range``/``k_values`` (:func:`~.results.restrict_k`). A curve
*reaches its best* at the first K (ascending) whose score is within the
claim's best-tolerance of the curve's best value: ``0`` the best value
itself, ``sd`` one s.d. over folds of the best K's cell, a number that
absolute amount.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from mlfsbench.report.claims import noise
from mlfsbench.report.claims.results import greater_is_better, restrict_k


def curve(results, metric: str, dataset: str, method: str, q) -> pd.Series:
    """One method's curve (K -> mean over folds), restricted as ``q`` says."""
    return restrict_k(results.curves(metric, dataset, [method])[method], q)


def best_k(c: pd.Series, greater: bool) -> int:
    """The K of the curve's best value (the smallest K among ties)."""
    best = c.max() if greater else c.min()
    return int(min(k for k in c.index if np.isclose(c[k], best, rtol=0, atol=1e-12)))


def allowance(spec: Any, results, metric: str, dataset: str, method: str,
              c: pd.Series) -> float:
    """The best-tolerance ``spec`` (0, ``sd`` or a number) in the metric's
    units; ``sd`` on one fold (no s.d.) is 0."""
    if spec in (None, 0):
        return 0.0
    if spec == "sd":
        kb = best_k(c, greater_is_better(metric))
        sd = results.cell(metric, dataset, method, kb)[1]
        return float(sd) if np.isfinite(sd) else 0.0
    return float(spec)


def reach_k(c: pd.Series, greater: bool, tol: float) -> int:
    """The first K (ascending) whose score is within ``tol`` of the best.

    >>> reach_k(pd.Series([.1, .5, .48, .2], index=[1, 2, 3, 4]), True, .05)
    2
    >>> reach_k(pd.Series([.1, .46, .5, .2], index=[1, 2, 3, 4]), True, .05)
    2
    >>> reach_k(pd.Series([.1, .46, .5, .2], index=[1, 2, 3, 4]), True, 0)
    3
    """
    c = c.sort_index()
    best = c.max() if greater else c.min()
    near = c >= best - tol - 1e-12 if greater else c <= best + tol + 1e-12
    return int(c.index[near.to_numpy()][0])


def spearman(x, y) -> float:
    """Spearman's rank correlation (nan when either side is constant)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(stats.spearmanr(x, y)[0])


def fold_curves(results, metric: str, dataset: str, method: str,
                ks) -> pd.DataFrame | None:
    """Folds x K (integers ``ks``) of one method's values; None without a
    per-fold table or when a K is missing."""
    t = results.fold_table(metric, dataset, method)
    if t is None:
        return None
    cols = [str(k) for k in ks]
    if any(c not in t.columns for c in cols):
        return None
    out = t[cols].dropna()
    out.columns = [int(c) for c in cols]
    return out


def bootstrap_spearman(folds: pd.DataFrame, sign: float,
                       redraws: int = noise.BOOTSTRAP,
                       seed: int = noise.SEED) -> np.ndarray:
    """Spearman(K, sign x mean over redrawn folds) for each bootstrap
    redraw of the folds (rows of ``folds``, with replacement)."""
    v = folds.to_numpy(float)
    n = v.shape[0]
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(redraws, n))
    means = sign * v[idx].mean(axis=1)  # redraws x K
    ry = stats.rankdata(means, axis=1)
    rx = stats.rankdata(np.asarray(folds.columns, dtype=float))
    ry = ry - ry.mean(axis=1, keepdims=True)
    rx = rx - rx.mean()
    den = np.sqrt((ry ** 2).sum(axis=1) * (rx ** 2).sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        return (ry @ rx) / den


def shifted(g: noise.Gap, threshold: float) -> noise.Gap:
    """``g`` measured from ``threshold`` (so that ``within()`` asks whether
    the threshold lies inside its interval), for :class:`~.noise.Noise`."""
    return noise.Gap(g.gap - threshold, g.half, g.n, g.kind)
