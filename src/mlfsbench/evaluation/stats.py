"""Comparing several methods over several datasets: Friedman and post-hoc tests.

The procedure of J. Demšar, "Statistical comparisons of classifiers over
multiple data sets", *JMLR* 7:1-30, 2006 (Sec. 3.2), as applied by Lee & Kim
(2016, Sec. 4.3) and most multi-label feature-selection papers. The input is a
table of ``N`` datasets (rows) by ``k`` methods (columns) holding one score per
cell.

- **Ranks.** On each dataset the methods are ranked, 1 the best, ties sharing
  the mean of the ranks they span. Which end is best comes from the metric:
  ``higher_is_better=False`` (losses: Hamming loss, ranking loss, coverage,
  one-error, RRMSE) or ``True`` (accuracy, F1, average precision). ``R_j`` is
  the average rank of method ``j`` over the datasets.
- **Friedman test** (Demšar Eq. in Sec. 3.2.2; Lee & Kim Sec. 4.3)::

      chi2_F = 12 N / (k (k + 1)) * (sum_j R_j^2 - k (k + 1)^2 / 4)

  approximately chi-squared with ``k - 1`` degrees of freedom. As in Demšar
  and Lee & Kim, no correction for ties is applied unless
  ``tie_correction=True`` (then ``chi2_F`` is divided by
  ``1 - sum_blocks sum_groups (t^3 - t) / (N (k^3 - k))``, which is what
  :func:`scipy.stats.friedmanchisquare` reports).
- **Iman-Davenport statistic**::

      F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)

  F-distributed with ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom;
  its critical value is the ``1 - alpha`` quantile of that distribution
  (Lee & Kim's Table 7: 2.324 for ``k = 7``, ``N = 8``). When every dataset
  ranks the methods identically, ``N (k - 1) = chi2_F`` and ``F_F = inf``.
- **Critical differences** (Demšar Sec. 3.2.2)::

      CD = q_alpha * sqrt(k (k + 1) / (6 N))

  Nemenyi (all pairs): ``q_alpha = Q_{1-alpha}(k, inf) / sqrt(2)`` with ``Q``
  the studentized range quantile (:data:`scipy.stats.studentized_range`),
  i.e. Demšar's Table 5a (2.949 for ``k = 7``). Bonferroni-Dunn (``k - 1``
  comparisons with a control): ``q_alpha = z_{1 - alpha / (2 (k - 1))}``,
  the Bonferroni-corrected two-sided normal quantile, Demšar's Table 5b
  (2.638 for ``k = 7``, so ``CD = 2.849`` for ``N = 8``, as in Lee & Kim).
  Computed for any ``k``, not read from a table.
- **Post-hoc p-values.** With ``z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))``:
  Nemenyi ``p = P(Q(k, inf) >= sqrt(2) |z|)``; Bonferroni-Dunn
  ``p = min(1, (k - 1) * 2 (1 - Phi(|z|)))``. A difference is significant
  when ``p <= alpha``, equivalently ``|R_i - R_j| >= CD`` ("differ by at
  least the critical difference", Demšar).
- **Wilcoxon signed-rank with Holm's correction** (Demšar Sec. 3.1.3 and
  3.2.2): each pair's two-sided p-value from :func:`scipy.stats.wilcoxon`
  with zero differences split between the signs (``zero_method="zsplit"``,
  Demšar's recommendation), then Holm's step-down adjustment
  ``p_(i) <- max_{j <= i} min(1, (m - j + 1) p_(j))`` over the ``m`` tested
  pairs.
- **Critical-difference diagrams** (Demšar Figs. 1 and 2) are drawn by
  :func:`mlfsbench.report.cd_diagram.critical_difference_diagram` (the
  report layer) from the ranks, the CD and :func:`cliques` computed here.
- **Numbers as printed.** Papers rank the values of their tables, rounded
  to a few decimals (Lee & Kim 2016, Tables 5-6: three), so values equal
  when printed tie. ``compare_methods(..., decimals=3)`` ranks and tests the
  table rounded half away from zero to 3 decimals (:func:`round_table`), as
  a reader recomputing from the printed tables would.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as ss

from mlfsbench.evaluation.pairwise import pairwise

__all__ = [
    "FriedmanResult",
    "rank_table",
    "average_ranks",
    "friedman_test",
    "iman_davenport",
    "nemenyi_q",
    "bonferroni_dunn_q",
    "critical_difference",
    "min_datasets",
    "rank_shortfall",
    "nemenyi_pvalues",
    "bonferroni_dunn_pvalues",
    "control_z_tests",
    "holm_adjust",
    "wilcoxon_holm",
    "cliques",
    "compare_methods",
    "round_table",
]


# --------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------
#: The fewest datasets and methods the rank tests compare (Friedman,
#: Iman-Davenport, Nemenyi, Bonferroni-Dunn: ranks over datasets).
MIN_DATASETS = MIN_METHODS = 2


def rank_shortfall(n_datasets: int, n_methods: int | None = None) -> str | None:
    """Why results on ``n_datasets`` of ``n_methods`` cannot be compared by
    their ranks over the datasets, in words; None when they can.

    >>> rank_shortfall(1, 7)
    'needs at least 2 datasets, this run has 1'
    >>> rank_shortfall(8, 1)
    'needs at least 2 methods, this run has 1'
    >>> rank_shortfall(2) is None
    True
    """
    if n_datasets < MIN_DATASETS:
        return f"needs at least {MIN_DATASETS} datasets, this run has {n_datasets}"
    if n_methods is not None and n_methods < MIN_METHODS:
        return f"needs at least {MIN_METHODS} methods, this run has {n_methods}"
    return None


def _table(table) -> tuple[np.ndarray, list[str]]:
    """``(values, method names)`` from a DataFrame or a 2-D array."""
    if isinstance(table, pd.DataFrame):
        names = [str(c) for c in table.columns]
        values = table.to_numpy()
    else:
        values = np.asarray(table)
        names = [f"m{j}" for j in range(values.shape[1])] if values.ndim == 2 else []
    try:
        values = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("the table must hold numbers only") from None
    if values.ndim != 2:
        raise ValueError(
            f"the table must be 2-D (datasets x methods), got {values.shape}"
        )
    n, k = values.shape
    if n < 2 or k < 2:
        raise ValueError(f"need at least 2 datasets and 2 methods, got {n} x {k}")
    if not np.isfinite(values).all():
        rows = sorted(set(np.nonzero(~np.isfinite(values))[0].tolist()))
        raise ValueError(f"the table has missing or infinite values in row(s) {rows}; "
                         "the Friedman test needs every method on every dataset")
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate method names: {names}")
    return values, names


def round_table(values, decimals: int) -> np.ndarray:
    """Values rounded half away from zero to ``decimals``, as tables print them.

    Through the shortest decimal representation of each float, so that
    ``0.0625`` and ``0.0635`` both round up at 3 decimals (binary rounding
    with ``np.round`` would round half to even and see ``0.0635`` as
    ``0.06349999...``).

    >>> round_table([[0.0625, 0.0635, -0.0625, 0.1234]], 3).tolist()
    [[0.063, 0.064, -0.063, 0.123]]
    """
    if int(decimals) != decimals or decimals < 0:
        raise ValueError(f"decimals must be an integer >= 0, got {decimals!r}")
    from decimal import ROUND_HALF_UP, Decimal

    quantum = Decimal(1).scaleb(-int(decimals))
    arr = np.asarray(values, dtype=np.float64)
    out = np.array([
        float(Decimal(repr(float(v))).quantize(quantum, rounding=ROUND_HALF_UP))
        if np.isfinite(v) else v
        for v in arr.ravel()
    ]).reshape(arr.shape)
    return out


def wins_ties_losses(table: pd.DataFrame, challenger: str, method: str, *,
                     higher_is_better: bool, decimals: int | None
                     ) -> tuple[int, int, int]:
    """The wins, ties and losses of ``challenger`` against ``method`` (two
    columns of ``table``) over the table's datasets (rows); values rounded to
    ``decimals`` first (:func:`round_table`; ``None``: as given).

    >>> t = pd.DataFrame({"c": [0.1004, 0.2, 0.3], "m": [0.1, 0.3, 0.25]})
    >>> wins_ties_losses(t, "c", "m", higher_is_better=True, decimals=3)
    (1, 1, 1)
    """
    a = table[challenger].to_numpy(dtype=float)
    b = table[method].to_numpy(dtype=float)
    if decimals is not None:
        a, b = round_table(a, decimals), round_table(b, decimals)
    better = a > b if higher_is_better else a < b
    worse = a < b if higher_is_better else a > b
    return int(better.sum()), int((a == b).sum()), int(worse.sum())


def _check_k_n_alpha(n_methods, n_datasets, alpha) -> None:
    if int(n_methods) != n_methods or n_methods < 2:
        raise ValueError(f"n_methods must be an integer >= 2, got {n_methods!r}")
    if int(n_datasets) != n_datasets or n_datasets < 1:
        raise ValueError(f"n_datasets must be an integer >= 1, got {n_datasets!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")


# --------------------------------------------------------------------------
# Ranks and the Friedman / Iman-Davenport statistics
# --------------------------------------------------------------------------
def rank_table(table, *, higher_is_better: bool = False) -> np.ndarray:
    """Per-dataset ranks, 1 = best, ties averaged.

    Parameters
    ----------
    table : array-like or DataFrame, shape (n_datasets, n_methods)
    higher_is_better : bool, default=False
        ``False`` for losses (the smallest value gets rank 1).

    Returns
    -------
    ndarray, shape (n_datasets, n_methods)

    Examples
    --------
    >>> rank_table([[0.1, 0.3, 0.1], [0.5, 0.2, 0.4]]).tolist()
    [[1.5, 3.0, 1.5], [3.0, 1.0, 2.0]]
    >>> rank_table([[0.1, 0.3, 0.2]], higher_is_better=True).tolist()
    [[3.0, 1.0, 2.0]]
    """
    values = np.asarray(table.to_numpy() if isinstance(table, pd.DataFrame) else table,
                        dtype=np.float64)
    if values.ndim != 2:
        raise ValueError(f"the table must be 2-D, got shape {values.shape}")
    return ss.rankdata(-values if higher_is_better else values, axis=1,
                       method="average")


def average_ranks(table, *, higher_is_better: bool = False) -> np.ndarray:
    """``R_j``: the mean over datasets of :func:`rank_table`.

    Examples
    --------
    >>> average_ranks([[0.1, 0.3, 0.1], [0.5, 0.2, 0.4]]).tolist()
    [2.25, 2.0, 1.75]
    """
    return rank_table(table, higher_is_better=higher_is_better).mean(axis=0)


def iman_davenport(chi2: float, n_datasets: int, n_methods: int,
                   alpha: float = 0.05) -> tuple[float, float, float]:
    """Iman-Davenport ``F_F``, its p-value and its critical value at ``alpha``.

    ``F_F = (N - 1) chi2 / (N (k - 1) - chi2)`` with ``k - 1`` and
    ``(k - 1)(N - 1)`` degrees of freedom (Demšar 2006, Sec. 3.2.2; Lee & Kim
    2016, Sec. 4.3).

    Examples
    --------
    >>> f, p, crit = iman_davenport(12.0, 8, 7)
    >>> round(f, 4), round(crit, 3)
    (2.3333, 2.324)
    """
    _check_k_n_alpha(n_methods, n_datasets, alpha)
    N, k = int(n_datasets), int(n_methods)
    df1, df2 = k - 1, (k - 1) * (N - 1)
    denom = N * (k - 1) - chi2
    f = math.inf if denom <= 0 else (N - 1) * chi2 / denom
    if df2 == 0:
        return f, math.nan, math.nan
    p = 0.0 if math.isinf(f) else float(ss.f.sf(f, df1, df2))
    return float(f), p, float(ss.f.ppf(1 - alpha, df1, df2))


@dataclass(frozen=True)
class FriedmanResult:
    """Result of :func:`friedman_test`.

    Attributes
    ----------
    average_ranks : ndarray, shape (n_methods,)
    chi2, p_value : float
        Friedman's statistic and its chi-squared (``k - 1`` df) p-value.
    f_statistic, f_p_value, f_critical : float
        Iman-Davenport ``F_F``, its p-value and its ``1 - alpha`` critical value.
    df1, df2 : int
        ``k - 1`` and ``(k - 1)(N - 1)``.
    n_datasets, n_methods : int
    alpha : float
    """

    average_ranks: np.ndarray
    chi2: float
    p_value: float
    f_statistic: float
    f_p_value: float
    f_critical: float
    df1: int
    df2: int
    n_datasets: int
    n_methods: int
    alpha: float

    @property
    def rejected(self) -> bool:
        """Whether Iman-Davenport rejects "all methods are equivalent" at alpha."""
        return bool(self.f_p_value <= self.alpha)


def friedman_test(table, *, higher_is_better: bool = False, alpha: float = 0.05,
                  tie_correction: bool = False) -> FriedmanResult:
    """Friedman's chi-squared and the Iman-Davenport F of a results table.

    Parameters
    ----------
    table : array-like or DataFrame, shape (n_datasets, n_methods)
    higher_is_better : bool, default=False
    alpha : float, default=0.05
        Level of the reported F critical value.
    tie_correction : bool, default=False
        Divide ``chi2`` by the tie correction (as
        :func:`scipy.stats.friedmanchisquare`); Demšar's and Lee & Kim's
        formula has none.

    Returns
    -------
    FriedmanResult

    Examples
    --------
    >>> res = friedman_test([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]])
    >>> res.average_ranks.tolist(), res.chi2, round(res.f_statistic, 3)
    ([1.25, 2.0, 2.75], 4.5, 3.857)
    """
    values, _ = _table(table)
    N, k = values.shape
    ranks = rank_table(values, higher_is_better=higher_is_better)
    R = ranks.mean(axis=0)
    chi2 = 12.0 * N / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(float(chi2), 0.0)
    if tie_correction:
        ties = 0.0
        for row in ranks:  # per dataset: tie-group sizes of the ranks
            _, t = np.unique(row, return_counts=True)
            ties += float(np.sum(t**3 - t))
        c = 1.0 - ties / (N * (k**3 - k))
        chi2 = chi2 / c if c > 0 else 0.0
    p = float(ss.chi2.sf(chi2, k - 1))
    f, fp, crit = iman_davenport(chi2, N, k, alpha)
    return FriedmanResult(R, chi2, p, f, fp, crit, k - 1, (k - 1) * (N - 1), N, k,
                          float(alpha))


# --------------------------------------------------------------------------
# Critical differences and post-hoc p-values
# --------------------------------------------------------------------------
def nemenyi_q(n_methods: int, alpha: float = 0.05) -> float:
    """Nemenyi ``q_alpha = Q_{1-alpha}(k, inf) / sqrt(2)`` (Demšar Table 5a).

    Examples
    --------
    >>> round(nemenyi_q(7), 3), round(nemenyi_q(2), 3)
    (2.948, 1.96)
    """
    _check_k_n_alpha(n_methods, 1, alpha)
    return float(ss.studentized_range.ppf(1 - alpha, int(n_methods), np.inf)
                 / math.sqrt(2.0))


def bonferroni_dunn_q(n_methods: int, alpha: float = 0.05) -> float:
    """Bonferroni-Dunn ``q_alpha = z_{1 - alpha / (2 (k - 1))}`` (Demšar Table 5b).

    Examples
    --------
    >>> round(bonferroni_dunn_q(7), 3), round(bonferroni_dunn_q(10, 0.10), 3)
    (2.638, 2.539)
    """
    _check_k_n_alpha(n_methods, 1, alpha)
    return float(ss.norm.isf(alpha / (2 * (int(n_methods) - 1))))


def critical_difference(n_methods: int, n_datasets: int, alpha: float = 0.05,
                        test: str = "nemenyi") -> float:
    """``CD = q_alpha sqrt(k (k + 1) / (6 N))``, test ``nemenyi``/``bonferroni-dunn``.

    Examples
    --------
    >>> round(critical_difference(7, 8, test="bonferroni-dunn"), 2)
    2.85
    >>> round(critical_difference(4, 14), 3)
    1.254
    """
    _check_k_n_alpha(n_methods, n_datasets, alpha)
    if test == "nemenyi":
        q = nemenyi_q(n_methods, alpha)
    elif test == "bonferroni-dunn":
        q = bonferroni_dunn_q(n_methods, alpha)
    else:
        raise ValueError(f"test must be 'nemenyi' or 'bonferroni-dunn', got {test!r}")
    k, N = int(n_methods), int(n_datasets)
    return q * math.sqrt(k * (k + 1) / (6.0 * N))


def min_datasets(n_methods: int, alpha: float = 0.05,
                 test: str = "nemenyi") -> int:
    """The fewest datasets N for which the test can find any difference: the
    smallest N whose critical difference is below ``k - 1``, the widest gap
    two average ranks can have (one method first, the other last on every
    dataset). With fewer, no pair can differ significantly whatever the
    results.

    Examples
    --------
    >>> min_datasets(6), min_datasets(13)
    (3, 3)
    >>> critical_difference(13, 2) > 12 > critical_difference(13, 3)
    True
    """
    k = int(n_methods)
    n = 1
    while critical_difference(k, n, alpha, test) >= k - 1:
        n += 1
    return n


def _z(avg_ranks, n_datasets) -> tuple[np.ndarray, float]:
    R = np.asarray(avg_ranks, dtype=np.float64).ravel()
    k = R.size
    _check_k_n_alpha(k, n_datasets, 0.05)
    return R, math.sqrt(k * (k + 1) / (6.0 * int(n_datasets)))


def nemenyi_pvalues(avg_ranks, n_datasets: int) -> np.ndarray:
    """All-pairs Nemenyi p-values from average ranks (symmetric, diagonal 1).

    ``p_ij = P(Q(k, inf) >= sqrt(2) |R_i - R_j| / sqrt(k (k + 1) / (6 N)))``.

    Examples
    --------
    >>> p = nemenyi_pvalues([1.0, 2.0, 3.0], 5)
    >>> round(float(p[0, 2]), 4), float(p[1, 1])
    (0.0045, 1.0)
    """
    R, se = _z(avg_ranks, n_datasets)
    z = np.abs(R[:, None] - R[None, :]) / se
    p = ss.studentized_range.sf(z * math.sqrt(2.0), R.size, np.inf)
    p = np.clip(p, 0.0, 1.0)
    np.fill_diagonal(p, 1.0)
    return p


def bonferroni_dunn_pvalues(avg_ranks, n_datasets: int, control: int) -> np.ndarray:
    """Bonferroni-adjusted two-sided p-values of every method vs ``control``.

    ``min(1, (k - 1) * 2 * (1 - Phi(|R_i - R_c| / sqrt(k (k + 1) / (6 N)))))``;
    the control's own entry is 1.

    Examples
    --------
    >>> bonferroni_dunn_pvalues([1.0, 2.0, 3.5], 10, control=0).round(4).tolist()
    [1.0, 0.0507, 0.0]
    """
    R, se = _z(avg_ranks, n_datasets)
    if not 0 <= int(control) < R.size:
        raise ValueError(f"control index {control} out of range 0..{R.size - 1}")
    z = np.abs(R - R[int(control)]) / se
    p = np.minimum(1.0, (R.size - 1) * 2.0 * ss.norm.sf(z))
    p[int(control)] = 1.0
    return p


def control_z_tests(avg_ranks, n_datasets: int,
                    control: int) -> tuple[np.ndarray, np.ndarray]:
    """Every method against ``control`` by its average rank: ``(z, p)``.

    ``z_j = (R_control - R_j) / sqrt(k (k + 1) / (6 N))`` (Demšar 2006,
    Sec. 3.2.2; negative when the control ranks better) and the unadjusted
    two-sided normal ``p_j = 2 (1 - Phi(|z_j|))``, for a step-down correction
    such as :func:`holm_adjust` over the ``k - 1`` comparisons (Demšar's
    Holm procedure; :func:`bonferroni_dunn_pvalues` is the one-step one). The
    control's own entries are 0 and 1.

    Examples
    --------
    >>> z, p = control_z_tests([1.0, 2.0, 3.5], 10, control=0)
    >>> z.round(4).tolist(), p.round(4).tolist()
    ([0.0, -2.2361, -5.5902], [1.0, 0.0253, 0.0])
    """
    R, se = _z(avg_ranks, n_datasets)
    c = int(control)
    if not 0 <= c < R.size:
        raise ValueError(f"control index {control} out of range 0..{R.size - 1}")
    z = (R[c] - R) / se
    p = np.minimum(1.0, 2.0 * ss.norm.sf(np.abs(z)))
    z[c], p[c] = 0.0, 1.0
    return z, p


def holm_adjust(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the input order.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = np.asarray(pvalues, dtype=np.float64).ravel()
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped)
    return adjusted


def wilcoxon_holm(table, *, control: int | None = None) -> dict[str, np.ndarray]:
    """Pairwise two-sided Wilcoxon signed-rank tests with Holm's correction.

    Parameters
    ----------
    table : array-like or DataFrame, shape (n_datasets, n_methods)
    control : int, optional
        Test only ``control`` against each other method (``k - 1`` pairs);
        by default all ``k (k - 1) / 2`` pairs.

    Returns
    -------
    dict with ``pairs`` (m, 2) column indices, ``statistic``, ``p_value``
    (raw) and ``p_holm`` (Holm-adjusted over the m pairs). A pair whose
    differences are all 0 gets ``p = 1``.

    Examples
    --------
    >>> t = np.column_stack([np.arange(8.0), np.arange(8.0) + 1, np.arange(8.0)])
    >>> out = wilcoxon_holm(t)
    >>> out["pairs"].tolist(), out["p_value"].round(4).tolist()
    ([[0, 1], [0, 2], [1, 2]], [0.0078, 1.0, 0.0078])
    """
    values, _ = _table(table)
    k = values.shape[1]
    if control is None:
        pairs = np.array(list(itertools.combinations(range(k), 2)), dtype=np.intp)
    else:
        if not 0 <= int(control) < k:
            raise ValueError(f"control index {control} out of range 0..{k - 1}")
        others = [j for j in range(k) if j != int(control)]
        pairs = np.array([[int(control), j] for j in others], dtype=np.intp)
    diffs = values[:, pairs[:, 0]] - values[:, pairs[:, 1]]
    stat = np.zeros(len(pairs))
    p = np.ones(len(pairs))
    live = (diffs != 0).any(axis=0)
    if live.any():  # every pair in one vectorized call
        res = ss.wilcoxon(diffs[:, live], axis=0, zero_method="zsplit")
        stat[live] = res.statistic
        p[live] = res.pvalue
    p = np.where(np.isnan(p), 1.0, p)
    return {"pairs": pairs, "statistic": stat, "p_value": p, "p_holm": holm_adjust(p)}


def cliques(avg_ranks, cd: float) -> list[list[int]]:
    """Maximal groups of methods whose average ranks all lie within ``< cd``.

    The groups joined by a bar in Demšar's diagrams: sorted by average rank,
    each maximal run ``i..j`` with ``R_j - R_i < cd`` (not significantly
    different), of at least two methods. Indices refer to ``avg_ranks``.

    Examples
    --------
    >>> cliques([1.0, 1.5, 3.0, 2.2, 4.0], 1.3)
    [[0, 1, 3], [3, 2], [2, 4]]
    """
    R = np.asarray(avg_ranks, dtype=np.float64).ravel()
    order = np.argsort(R, kind="stable")
    r = R[order]
    # last index j with r[j] - r[i] < cd, for each i (r sorted ascending)
    ends = np.searchsorted(r, r + cd, side="left") - 1
    groups, last = [], -1
    for i, j in enumerate(ends):
        if j > i and j > last:
            groups.append([int(x) for x in order[i: j + 1]])
            last = j
    return groups


# --------------------------------------------------------------------------
# The whole comparison (CLI and the workflow's statistics stage)
# --------------------------------------------------------------------------
def compare_methods(table, *, higher_is_better: bool = False,
                    control: str | None = None, alpha: float = 0.05,
                    decimals: int | None = None,
                    rope: float | None = None,
                    wilcoxon: bool = True) -> dict[str, Any]:
    """Ranks, Friedman/Iman-Davenport, Nemenyi, Bonferroni-Dunn and
    Wilcoxon-Holm; with ``rope``, every pair's Bayesian signed-rank test and
    Cliff's delta too.

    Parameters
    ----------
    table : DataFrame or array-like, shape (n_datasets, n_methods)
        Columns are the methods (their names are used in the output).
    higher_is_better : bool, default=False
    control : str, optional
        Method compared with the others by Bonferroni-Dunn and
        Wilcoxon-Holm; without it Wilcoxon-Holm tests all pairs and no
        Bonferroni-Dunn p-values are reported (its CD is).
    alpha : float, default=0.05
    decimals : int, optional
        Rank and test the table rounded to this many decimals
        (:func:`round_table`; ties where the printed numbers are equal).
        ``None``: the values as given.
    rope : float, optional
        Region of practical equivalence of the Bayesian signed-rank test, in
        the table's units (:mod:`~mlfsbench.evaluation.pairwise`); ``None``:
        no ``pairwise`` entry.
    wilcoxon : bool, default=True
        ``False``: no ``wilcoxon_holm`` entry (its exact tests are the
        costly part, for a caller that reads the ranks only).

    Returns
    -------
    dict (JSON-ready): ``decimals``, ``methods``, ``average_ranks``, ``friedman``,
    ``iman_davenport``, ``nemenyi`` (``q_alpha``, ``cd``, ``p_values``,
    ``significant_pairs``), ``bonferroni_dunn`` (``q_alpha``, ``cd``,
    ``control``, ``p_values``, ``significant``), ``wilcoxon_holm``; with
    ``rope``, ``pairwise`` (:func:`~mlfsbench.evaluation.pairwise.pairwise`).

    Examples
    --------
    >>> t = pd.DataFrame({"a": [1, 1, 1, 1], "b": [2, 3, 2, 2], "c": [3, 2, 3, 3]})
    >>> out = compare_methods(t, control="a")
    >>> out["average_ranks"], out["nemenyi"]["significant_pairs"]
    ({'a': 1.0, 'b': 2.25, 'c': 2.75}, [['a', 'c']])
    >>> t = pd.DataFrame({"a": [0.1101, 0.2], "b": [0.1104, 0.3]})
    >>> compare_methods(t, decimals=3)["average_ranks"]  # 0.110 = 0.110
    {'a': 1.25, 'b': 1.75}
    """
    values, names = _table(table)
    if decimals is not None:
        values = round_table(values, decimals)
    N, k = values.shape
    if control is not None and control not in names:
        raise ValueError(f"control {control!r} is not a method of the table: {names}")
    fr = friedman_test(values, higher_is_better=higher_is_better, alpha=alpha)
    R = fr.average_ranks
    nem_p = nemenyi_pvalues(R, N)
    cd_nem = critical_difference(k, N, alpha, "nemenyi")
    cd_bd = critical_difference(k, N, alpha, "bonferroni-dunn")
    significant_pairs = [
        [names[i], names[j]] for i, j in itertools.combinations(range(k), 2)
        if nem_p[i, j] <= alpha
    ]
    bd: dict[str, Any] = {"q_alpha": bonferroni_dunn_q(k, alpha), "cd": cd_bd,
                          "control": control}
    c = None if control is None else names.index(control)
    if c is not None:
        bd_p = bonferroni_dunn_pvalues(R, N, c)
        bd["p_values"] = {names[j]: float(bd_p[j]) for j in range(k) if j != c}
        bd["significant"] = [names[j] for j in range(k)
                             if j != c and bd_p[j] <= alpha]
    extra: dict[str, Any] = {}
    if wilcoxon:
        wil = wilcoxon_holm(values, control=c)
        extra["wilcoxon_holm"] = [
            {"pair": [names[i], names[j]], "statistic": float(s),
             "p_value": float(p), "p_holm": float(ph),
             "significant": bool(ph <= alpha)}
            for (i, j), s, p, ph in zip(wil["pairs"], wil["statistic"],
                                        wil["p_value"], wil["p_holm"], strict=True)
        ]
    if rope is not None:
        extra["pairwise"] = pairwise(values, names, higher_is_better=higher_is_better,
                                     rope=rope)
    return {
        "n_datasets": N,
        "n_methods": k,
        "decimals": None if decimals is None else int(decimals),
        "alpha": float(alpha),
        "higher_is_better": bool(higher_is_better),
        "methods": names,
        "average_ranks": {n: float(r) for n, r in zip(names, R, strict=True)},
        "friedman": {"chi2": fr.chi2, "p_value": fr.p_value, "df": fr.df1},
        "iman_davenport": {"F": fr.f_statistic, "p_value": fr.f_p_value,
                           "df1": fr.df1, "df2": fr.df2,
                           "critical_value": fr.f_critical,
                           "rejected": fr.rejected},
        "nemenyi": {
            "q_alpha": nemenyi_q(k, alpha),
            "cd": cd_nem,
            "p_values": {names[i]: {names[j]: float(nem_p[i, j]) for j in range(k)}
                         for i in range(k)},
            "significant_pairs": significant_pairs,
        },
        "bonferroni_dunn": bd,
        **extra,
    }
