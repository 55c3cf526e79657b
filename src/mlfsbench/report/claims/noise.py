"""How far a verdict stands from the noise of the folds that decided it.

Every verdict is decided by comparisons: our mean against the paper's number
give or take a tolerance (a value claim), one method against another on the
same folds (winner, better, an ordering), a rank score against another (a
rank averaged over K). Each comparison's uncertainty is the one of *its*
quantity:

- a mean over ``n`` folds: the standard error ``s.d./sqrt(n)``;
- a gap between two methods on the same folds: the standard error of the
  paired fold differences (the two methods share each fold's training and
  test parts, so their common fold-to-fold swings cancel);
- a rank score (ranks among the methods at each K, averaged over K): a
  bootstrap over folds (:func:`bootstrap_rank_scores`), which redraws the
  folds, recomputes each K's mean and the ranks, :data:`BOOTSTRAP` times with
  a fixed seed.

A comparison is *within noise* when the quantity that decides it lies
inside its two-sided 95 % interval: ``|gap| < t(0.975, n - 1) * SE`` (the
paired t interval), or the bootstrap's 2.5-97.5 % percentiles of the gap
straddle the threshold. Folds of a cross-validation overlap in training
data, so the paired interval is, if anything, too narrow: a verdict labelled
beyond noise is so by at least this much.

"Best over K" (:func:`cv_best`): the best point of a curve of 15-50 noisy
means is biased toward the curve. Where there are folds, the K is chosen on
the other folds and the value read on the held-out one (leave one fold
out), so the comparison with a single value (all features) is fair and its
noise is that of paired fold values; on one split there is nothing to
choose on, the maximum is used and the verdict says ``no spread (n = 1)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mlfsbench.report.claims._base import BEYOND_NOISE, NO_SPREAD, WITHIN_NOISE

#: Bootstrap redraws of the folds for a rank score's interval.
BOOTSTRAP = 1000
#: The bootstrap's seed (the same interval on every run).
SEED = 0
LEVEL = 0.95


def t_half(se: float, n: int) -> float:
    """Half-width of the two-sided 95 % t interval of a mean with standard
    error ``se`` over ``n`` values (nan for fewer than 2).

    >>> round(t_half(1.0, 10), 4)
    2.2622
    """
    if n < 2 or not np.isfinite(se):
        return float("nan")
    return float(stats.t.ppf(0.5 + LEVEL / 2, n - 1) * se)


@dataclass(frozen=True)
class Gap:
    """A compared quantity's value and the half-width of its 95 % interval
    (nan without spread); ``n`` folds; ``kind`` names the yardstick."""

    gap: float
    half: float
    n: int
    kind: str

    @property
    def has_spread(self) -> bool:
        return self.n > 1 and np.isfinite(self.half)

    def within(self, threshold: float = 0.0) -> bool:
        """Whether ``threshold`` (the value that would flip the comparison)
        lies inside the interval."""
        return self.has_spread and abs(self.gap - threshold) < self.half

    def words(self) -> str:
        return (f"{self.kind} {self.half:.4f} (95 %, n = {self.n})"
                if self.has_spread else NO_SPREAD)


def mean_gap(values: pd.Series | np.ndarray, reference: float = 0.0) -> Gap:
    """Our mean over folds against a reference number: the gap and the t
    interval of the mean (standard error s.d./sqrt(n))."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    n = len(v)
    se = float(v.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return Gap(float(v.mean()) - reference if n else float("nan"), t_half(se, n), n,
               "s.e. of the mean x t")


def summary_gap(mean: float, sd: float, n: int, reference: float = 0.0) -> Gap:
    """:func:`mean_gap` from a summary row (mean, s.d., folds)."""
    se = sd / np.sqrt(n) if n > 1 and np.isfinite(sd) else float("nan")
    return Gap(mean - reference, t_half(se, n), n, "s.e. of the mean x t")


def paired_gap(a: pd.Series, b: pd.Series) -> Gap:
    """``a - b`` over the folds both have (aligned on their index): the mean
    difference and the t interval of the paired differences."""
    d = (a - b).dropna()
    n = len(d)
    se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return Gap(float(d.mean()) if n else float("nan"), t_half(se, n), n,
               "paired fold differences' s.e. x t")


def unpaired_gap(a: tuple[float, float, int], b: tuple[float, float, int]) -> Gap:
    """``a - b`` from two summary rows ``(mean, s.d., n)`` when the folds are
    not at hand: the Welch standard error (wider than the paired one)."""
    (ma, sa, na), (mb, sb, nb) = a, b
    n = min(na, nb)
    if n < 2 or not (np.isfinite(sa) and np.isfinite(sb)):
        return Gap(ma - mb, float("nan"), n, "summary s.e.")
    se = float(np.sqrt(sa ** 2 / na + sb ** 2 / nb))
    return Gap(ma - mb, t_half(se, n), n, "unpaired s.e. x t (no per-fold table)")


def cv_best(table: pd.DataFrame, greater: bool) -> tuple[pd.Series, pd.Series]:
    """Per fold, the value at the K that is best on the *other* folds.

    ``table``: folds x K (values). Returns ``(values, chosen K)`` per fold.
    Ties between K go to the smallest K. On one fold the fold's own best.

    >>> t = pd.DataFrame({1: [.5, .1], 2: [.3, .4]}, index=["f0", "f1"])
    >>> v, k = cv_best(t, greater=True)
    >>> v.tolist(), k.tolist()
    ([0.3, 0.1], [2, 1])
    """
    t = table.dropna(axis=1, how="any")
    values, chosen = {}, {}
    for fold in t.index:
        others = t.drop(index=fold) if len(t) > 1 else t
        means = others.mean(axis=0)
        best = means.max() if greater else means.min()
        k = min(c for c in means.index if np.isclose(means[c], best, rtol=0,
                                                     atol=1e-15))
        values[fold], chosen[fold] = float(t.at[fold, k]), k
    return pd.Series(values), pd.Series(chosen)


def rank_scores(curves: Mapping[str, pd.Series], greater: bool) -> dict[str, float]:
    """Each method's rank among the methods at each K, averaged over K
    (the K every method has); rank 1 is the best, ties averaged."""
    frame = pd.DataFrame(curves).dropna()
    ranks = frame.rank(axis=1, ascending=not greater, method="average")
    return {m: float(ranks[m].mean()) for m in curves}


def bootstrap_rank_scores(folds: Mapping[str, pd.DataFrame], greater: bool,
                          redraws: int = BOOTSTRAP, seed: int = SEED) -> pd.DataFrame:
    """Rank scores (:func:`rank_scores`) over bootstrap redraws of the folds.

    ``folds``: method -> folds x K values (the same folds for every
    method). Each redraw takes the folds with replacement, averages each K
    over them and ranks the methods. Returns redraws x methods.
    """
    names = list(folds)
    common = folds[names[0]].index
    ks = folds[names[0]].columns
    for m in names[1:]:
        common = common.intersection(folds[m].index)
        ks = ks.intersection(folds[m].columns)
    cube = np.stack([folds[m].loc[common, ks].to_numpy(float) for m in names])
    n = cube.shape[1]
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(redraws, n))
    means = cube[:, idx, :].mean(axis=2)  # methods x redraws x K
    means = np.moveaxis(means, 0, -1)  # redraws x K x methods
    signed = -means if greater else means
    ranks = stats.rankdata(signed, method="average", axis=2)
    return pd.DataFrame(ranks.mean(axis=1), columns=names)


def bootstrap_gap(samples: pd.Series, observed: float) -> Gap:
    """A gap's bootstrap interval: ``half`` is chosen so that ``within(0)``
    says whether 0 lies inside the 2.5-97.5 % percentiles of ``samples``
    (the interval need not be symmetric around ``observed``)."""
    lo, hi = np.percentile(samples, [50 * (1 - LEVEL), 50 * (1 + LEVEL)])
    inside = lo < 0 < hi
    half = abs(observed) + 1e-12 if inside else abs(observed) * (1 - 1e-9)
    return Gap(observed, half, len(samples),
               f"bootstrap over folds ({len(samples)} redraws)")


class Noise:
    """Cells of a share verdict (winner, better) and whether noise decides it.

    A held cell is noisy when one of its deciding comparisons is within
    noise (it could fail with other folds); a failed cell when every one of
    its failing comparisons is. The verdict is ``within fold noise`` when
    flipping the noisy cells could change it.
    """

    def __init__(self):
        self.noisy_held = self.noisy_failed = 0
        self.n: int | None = None
        self.kinds: set[str] = set()

    def add(self, held: bool, gaps: list[Gap]) -> None:
        noisy = [g.within() for g in gaps]
        if held:
            self.noisy_held += any(noisy)
        else:
            self.noisy_failed += bool(noisy) and all(noisy)
        ns = [g.n for g in gaps] or [0]
        self.n = min(ns) if self.n is None else min(self.n, *ns)
        self.kinds |= {g.kind for g in gaps if g.has_spread}

    def verdict(self, held: int, total: int, need: float,
                most: float = 1.0) -> tuple[dict, str]:
        """The noise columns of a share verdict ``need <= held/total <=
        most``: within noise when some count reachable by flipping noisy
        cells (``held - noisy_held`` .. ``held + noisy_failed``) gives the
        other verdict."""
        if not self.n or self.n <= 1:
            return {"n": str(self.n or ""), "robust": NO_SPREAD}, ""

        def ok(h: int) -> bool:
            return need - 1e-12 <= h / total <= most + 1e-12

        flips = any(ok(h) != ok(held) for h in range(held - self.noisy_held,
                                                     held + self.noisy_failed + 1))
        noisy = self.noisy_held + self.noisy_failed
        kind = "; ".join(sorted(self.kinds))
        note = (f"{noisy} of {total} cells decided within the 95 % interval of "
                f"their comparison ({kind})" if noisy else "")
        return ({"n": str(self.n), "robust": WITHIN_NOISE if flips else BEYOND_NOISE},
                note)
