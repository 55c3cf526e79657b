"""``stable``: a curve that stays flat over a range of K."""

from __future__ import annotations

import numpy as np

from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    claim_datasets,
    metrics_of,
    share_ok,
)
from mlfsbench.report.claims.rules._curves import curve


class Stable(Rule):
    """On each (dataset, metric) cell every score of ``method`` at the K of
    ``k_range`` lies within one s.d. over folds (the mean of those K's
    s.d.s) of their mean (a figure's "stable results after 50 features");
    share of cells at least ``min_fraction`` (default 1). Not checkable on
    one split (no s.d.).

    No noise label: the allowance is the folds' spread itself, so the
    verdict already says whether the curve moves by more than the folds do.
    """

    name = "stable"
    evidence = "curves"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["method", "k_range"]}}}

    def describe(self, claim):
        lo, hi = claim["quantity"]["k_range"]
        return (f"stable: every score at K from {lo} to {hi} within one s.d. over "
                "folds of their mean")

    def check(self, claim, results):
        q = claim["quantity"]
        m = q["method"]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        held, total, parts = 0, 0, []
        for metric in metrics:
            for d in datasets:
                c = curve(results, metric, d, m, q)
                sds = [results.cell(metric, d, m, int(k))[1] for k in c.index]
                sd = float(np.nanmean(sds)) if np.isfinite(sds).any() else float("nan")
                if not np.isfinite(sd):
                    raise NotCheckable(f"no s.d. over folds of {m} on {d} (one split)")
                dev = float((c - c.mean()).abs().max())
                ok = dev <= sd + 1e-12
                total += 1
                held += ok
                label = "/".join(([metric] if len(metrics) > 1 else [])
                                 + ([d] if len(datasets) > 1 else []))
                parts.append(f"{label + ': ' if label else ''}largest deviation "
                             f"{dev:.4f} {'<=' if ok else '>'} s.d. {sd:.4f}")
        need = float(claim.get("min_fraction", 1.0))
        ours = f"stable in {held} of {total} ({'; '.join(parts)})"
        return Outcome(share_ok(held, total, need), ours, note, datasets)
