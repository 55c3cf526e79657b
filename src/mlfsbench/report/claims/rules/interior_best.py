"""``interior_best``: curves that rise to a best inside the grid and come
back down."""

from __future__ import annotations

import numpy as np

from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    BEYOND_NOISE,
    NO_SPREAD,
    WITHIN_NOISE,
    Outcome,
    Rule,
    claim_datasets,
    metrics_of,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better
from mlfsbench.report.claims.rules._curves import best_k, curve, shifted


class InteriorBest(Rule):
    """Each curve of ``methods`` peaks inside the grid: on each (dataset,
    metric) its best K (the best value itself, the smallest K among ties)
    is neither the first nor the last K of the curve (``k_range``
    restricts it), and the score at the last K is worse than the best by
    more than one s.d. over folds of the best K's cell (the curve comes back
    down, not a plateau; on one split, by more than 0). A cell is (dataset,
    metric, method); ``min_fraction`` (default 1) applies per method: each
    method must hold on that share of its cells.

    Noise: where the best K is inside, the deciding comparison is the drop
    from the best K to the last K (the method's paired fold differences'
    s.e. x t) against the s.d.; each method's share is labelled by
    :class:`~.noise.Noise`, and the verdict is within fold noise when a
    method whose share decides it is (any method when the claim holds,
    every failing method when it does not).
    """

    name = "interior_best"
    evidence = "curves"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["methods"]}}}

    def describe(self, claim):
        text = ("interior_best: each curve's best K inside the grid and its last K "
                "worse than the best by more than one s.d.")
        if "min_fraction" in claim:
            text += (f", in at least {float(claim['min_fraction']):.3g} of each "
                     "method's cells")
        return text

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        need = float(claim.get("min_fraction", 1.0))
        per_method, labels, parts = [], [], []
        for m in q["methods"]:
            cells, held, total, failed = noise.Noise(), 0, 0, []
            n_folds = 0
            for metric in metrics:
                greater = greater_is_better(metric)
                sign = 1.0 if greater else -1.0
                for d in datasets:
                    c = curve(results, metric, d, m, q).sort_index()
                    kb = best_k(c, greater)
                    first, last = int(c.index[0]), int(c.index[-1])
                    sd = results.cell(metric, d, m, kb)[1]
                    sd = float(sd) if np.isfinite(sd) else 0.0
                    drop = sign * (c[kb] - c[last])
                    ok = kb not in (first, last) and drop > sd + 1e-12
                    fb = results.folds(metric, d, m, kb)
                    n_folds = max(n_folds, 0 if fb is None else len(fb))
                    if kb not in (first, last):
                        fl = results.folds(metric, d, m, last)
                        if fb is not None and fl is not None:
                            g = noise.paired_gap(fb, fl)
                            cells.add(ok, [shifted(noise.Gap(sign * g.gap, g.half, g.n,
                                                             g.kind), sd)])
                    total += 1
                    held += ok
                    if not ok:
                        where = "/".join(([metric] if len(metrics) > 1 else [])
                                         + ([d] if len(datasets) > 1 else []))
                        end = "first" if kb == first else "last"
                        why = (f"best at the {end} K {kb}"
                               if kb in (first, last) else
                               f"best at {kb}, drop {abs(drop):.4f} <= s.d. {sd:.4f}")
                        failed.append(f"{where + ' ' if where else ''}{why}")
            ok = share_ok(held, total, need)
            per_method.append(ok)
            extra, _ = cells.verdict(held, total, need)
            if cells.n is None and n_folds > 1:  # decided by where the best K is
                extra = {"n": str(n_folds), "robust": BEYOND_NOISE}
            labels.append((ok, extra))
            parts.append(f"{m} {held} of {total}"
                         + (f" (not: {', '.join(failed)})" if failed else ""))
        ok = all(per_method)
        deciding = [e for o, e in labels if o == ok]
        extra = {}
        if deciding:
            ns = [int(e["n"]) for e in deciding if e.get("n", "").isdigit()]
            robust = [e["robust"] for e in deciding]
            within = (any(r == WITHIN_NOISE for r in robust) if ok
                      else all(r == WITHIN_NOISE for r in robust))
            extra = {"n": str(min(ns)) if ns else "",
                     "robust": WITHIN_NOISE if within
                     else BEYOND_NOISE if BEYOND_NOISE in robust else NO_SPREAD}
        ours = "peaked: " + "; ".join(parts)
        return Outcome(ok, ours, note, datasets, extra)
