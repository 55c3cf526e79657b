"""``similar``: methods within a tolerance of each other."""

from __future__ import annotations

import numpy as np

from mlfsbench.io import BASELINE
from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    Outcome,
    Rule,
    claim_datasets,
    fmt,
    fraction_bounds,
    join,
    metrics_of,
    printed_outcome,
    printed_table,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better
from mlfsbench.report.claims.rules._curves import shifted
from mlfsbench.report.claims.rules._stats import these

BEST_OF_OTHERS = "best-of-others"


class Similar(Rule):
    """On each (dataset, metric) cell the scores of ``methods`` at
    ``n_features`` lie within ``tolerance`` of each other (a figure's "the
    same performance"); share of cells at least ``min_fraction``.

    ``method`` + ``others`` + ``reference: best-of-others``: ``method``'s
    score is within ``tolerance`` of the best of the ``others`` on each cell
    (``side: no-worse``: only a score worse than that best by more than the
    tolerance fails). ``tolerance_relative_to: all-features``: the cell's
    tolerance is ``tolerance`` x |the all-features score of that cell| (one
    tolerance for criteria on different scales). ``n_features: every``
    compares at each integer K (``k_range``/``k_values`` restrict them): a
    cell holds when every K does.

    Noise (at one ``n_features``, not ``every``): the deciding comparison is
    the gap between the two methods that make the cell's spread (the
    largest and the smallest score; ``method`` and the best other) against
    the tolerance, with the paired fold differences' s.e. x t; the verdict
    is within noise when flipping the cells so decided could change it
    (:class:`~.noise.Noise`). The printed check (``printed:``) is the same
    rule on the paper's own printed cells.
    """

    name = "similar"
    schema = {"required": ["quantity", "tolerance"],
              "properties": {"quantity": {
                  "anyOf": [{"required": ["methods"]},
                            {"required": ["method", "others", "reference"]}]}}}

    def describe(self, claim):
        q = claim["quantity"]
        tol = fmt(float(claim["tolerance"]))
        if q.get("tolerance_relative_to") == BASELINE:
            tol += " x |the all-features score|"
        if q.get("reference") == BEST_OF_OTHERS:
            side = " (or better)" if claim.get("side") == "no-worse" else ""
            text = (f"{super().describe(claim)}, {q['method']} within {tol} "
                    f"of the best of {', '.join(q['others'])}{side}")
        else:
            text = f"{super().describe(claim)}, all within {tol}"
        if q.get("k_range"):
            text += f", K from {q['k_range'][0]} to {q['k_range'][1]}"
        return text

    def printed(self, claim, datasets, tables):
        q = claim["quantity"]
        tolerance = float(claim["tolerance"])
        parts = []
        for metric in metrics_of(q):
            t = printed_table(claim, tables, metric)
            held, shown = 0, []
            for d in datasets:
                row = t.frame([d], _names(q)).iloc[0]
                tol = tolerance
                if q.get("tolerance_relative_to") == BASELINE:
                    tol *= abs(float(t.frame([d], [BASELINE]).iloc[0, 0]))
                gap = _spread({m: float(row[m]) for m in _names(q)}, q,
                              t.higher_is_better)[0]
                ok = _within(gap, tol, q, claim)
                held += ok
                shown.append(f"{d} {gap:.4g}")
            need = float(claim.get("min_fraction", 1.0))
            parts.append((share_ok(held, len(datasets), need),
                          f"the paper's own {t.id} {these(datasets)}: within "
                          f"{tolerance:g} on {held} of {len(datasets)} (gaps "
                          f"{', '.join(shown)})"))
        return printed_outcome(parts)

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        k = q.get("n_features", "mean")
        tolerance = float(claim["tolerance"])
        names = _names(q)
        held, total, parts = 0, 0, []
        cells = noise.Noise() if k != "every" else None
        for metric in metrics:
            greater = greater_is_better(metric)
            for d in datasets:
                tol = tolerance
                if q.get("tolerance_relative_to") == BASELINE:
                    tol *= abs(results.scores(metric, d, [BASELINE], "all")[BASELINE])
                label = d if len(metrics) == 1 else f"{metric}/{d}"
                total += 1
                if k == "every":
                    c = results.curves(metric, d, names, q)
                    gaps = [_spread(c.loc[x].to_dict(), q, greater)[0] for x in c.index]
                    worst = max(gaps, key=abs)
                    ok = all(_within(g, tol, q, claim) for g in gaps)
                    parts.append(f"{label}: largest gap {worst:.4f} over "
                                 f"{len(gaps)} K")
                else:
                    s = results.scores(metric, d, names, k)
                    gap, a, b = _spread(s, q, greater)
                    ok = _within(gap, tol, q, claim)
                    g = (results.rank_gaps(metric, d, names, [(a, b)], symmetric=True)
                         .get((a, b)) if k == "mean-rank"
                         else results.gap(metric, d, a, b, k))
                    if g is None:  # no per-fold table for the rank scores
                        g = noise.Gap(gap, float("nan"), 0, "no per-fold table")
                    # measured as the spread (positive: a worse than b, or a above b)
                    g = noise.Gap(gap, g.half, g.n, g.kind)
                    cells.add(ok, [shifted(g, tol if gap >= 0 else -tol)])
                    shown = ", ".join(f"{m} {v:.4f}" for m, v in s.items())
                    own = f", tolerance {tol:.4g}" if tol != tolerance else ""
                    parts.append(f"{label}: {shown} (gap {gap:.4f}{own})")
                held += ok
        need, most = fraction_bounds(claim)
        ours = f"within {tolerance:g} in {held} of {total} ({'; '.join(parts)})"
        ok = share_ok(held, total, need, most)
        if cells is None:
            return Outcome(ok, ours, note, datasets)
        extra, noise_note = cells.verdict(held, total, need, most)
        return Outcome(ok, ours, join(note, noise_note), datasets, extra)


def _names(q) -> list[str]:
    if q.get("reference") == BEST_OF_OTHERS:
        return [q["method"], *q["others"]]
    return list(q["methods"])


def _spread(scores, q, greater: bool) -> tuple[float, str, str]:
    """The cell's gap and the two methods that make it: with
    ``best-of-others``, how much ``method`` is worse than the best other
    (negative: better); else the largest minus the smallest score.

    >>> _spread({"a": .2, "b": .25, "c": .3}, {"reference": "best-of-others",
    ...          "method": "a", "others": ["b", "c"]}, greater=False)
    (-0.04999999999999999, 'a', 'b')
    """
    if q.get("reference") == BEST_OF_OTHERS:
        others = {m: scores[m] for m in q["others"]}
        best = (max(others, key=lambda m: others[m]) if greater
                else min(others, key=lambda m: others[m]))
        me = q["method"]
        worse = (others[best] - scores[me]) if greater else (scores[me] - others[best])
        return float(worse), me, best
    hi = max(scores, key=scores.get)
    lo = min(scores, key=scores.get)
    return float(scores[hi] - scores[lo]), hi, lo


def _within(gap: float, tol: float, q, claim) -> bool:
    if q.get("reference") == BEST_OF_OTHERS and claim.get("side") == "no-worse":
        return bool(gap <= tol + 1e-12)
    return bool(np.isfinite(gap) and abs(gap) <= tol + 1e-12)
