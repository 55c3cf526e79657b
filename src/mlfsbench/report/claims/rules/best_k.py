"""``best_k``: the number of features at which a curve reaches its best."""

from __future__ import annotations

import numpy as np

from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    Outcome,
    Rule,
    claim_datasets,
    join,
    metrics_of,
    scope_words,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better
from mlfsbench.report.claims.rules._curves import allowance, curve, reach_k
from mlfsbench.report.claims.rules.earliest_best import tol_words


class BestK(Rule):
    """The K at which the curve of ``method`` (or of each of ``methods``)
    *reaches its best* (the first K within ``best_tolerance`` of its best
    value: ``0``, default, the best itself; ``sd`` one s.d. over folds of the
    best K's cell; a number, that amount) lies within ``paper`` +-
    ``tolerance`` features (default 0) on each (dataset, metric, method)
    cell; ``k_values``/``k_range`` restrict the curve (Lee 2016's n = 10,
    30, 50). With ``best_tolerance`` 0 a tie counts: the cell holds when any
    K at the best value lies in the window. Share of cells at least
    ``min_fraction`` (default 1).

    Noise, with ``best_tolerance`` 0: the deciding comparison is the best
    point inside the window against the best point outside it (the same
    method's folds at the two K, paired fold differences' s.e. x t); the
    verdict is within noise when flipping the cells so decided could change
    it (:class:`~.noise.Noise`). With ``sd`` or a number the K is read with
    an allowance for the folds' spread already and there is no label.
    """

    name = "best_k"
    evidence = "curves"
    schema = {"required": ["quantity", "paper"],
              "properties": {"paper": {"type": "number"},
                             "tolerance": {"type": "number", "minimum": 0},
                             "best_tolerance": {"oneOf": [
                                 {"type": "number", "minimum": 0}, {"const": "sd"}]},
                             "quantity": {"anyOf": [{"required": ["method"]},
                                                    {"required": ["methods"]}]}}}

    def describe(self, claim):
        q = claim["quantity"]
        text = (f"best_k: the K of the best (within {tol_words(claim)}) in "
                f"{claim['paper']:g} +- {float(claim.get('tolerance', 0)):g}")
        if q.get("k_values"):
            text += f", of K = {', '.join(str(k) for k in q['k_values'])}"
        return text + scope_words(claim)

    def check(self, claim, results):
        q = claim["quantity"]
        methods = list(q["methods"]) if "methods" in q else [q["method"]]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        target, width = float(claim["paper"]), float(claim.get("tolerance", 0))
        spec = claim.get("best_tolerance", 0)
        cells = noise.Noise() if spec in (0, None) else None
        held, total, failed, found = 0, 0, [], []
        for metric in metrics:
            greater = greater_is_better(metric)
            for d in datasets:
                for m in methods:
                    c = curve(results, metric, d, m, q)
                    k = reach_k(c, greater, allowance(spec, results, metric, d, m, c))
                    inside = [x for x in c.index if abs(x - target) <= width + 1e-9]
                    ok = abs(k - target) <= width + 1e-9
                    if cells is not None:
                        best = c.max() if greater else c.min()
                        ok = ok or any(np.isclose(c[x], best, rtol=0, atol=1e-12)
                                       for x in inside)
                        gaps = _gaps(results, metric, d, m, c, inside, greater)
                        if gaps:  # else no K outside (or inside) the window decides
                            cells.add(ok, gaps)
                    total += 1
                    held += ok
                    found.append(k)
                    if not ok:
                        failed.append("/".join(([metric] if len(metrics) > 1 else [])
                                               + ([d] if len(datasets) > 1 else [])
                                               + ([m] if len(methods) > 1 else []))
                                      + f" {k}")
        need = float(claim.get("min_fraction", 1.0))
        ours = f"in the window in {held} of {total}"
        if total == 1:
            ours = f"K = {found[0]} ({'in' if held else 'outside'} the window)"
        elif failed:
            ours += f" (not: {', '.join(failed)})"
        ok = share_ok(held, total, need)
        if cells is None:
            return Outcome(ok, ours, note, datasets)
        extra, noise_note = cells.verdict(held, total, need)
        return Outcome(ok, ours, join(note, noise_note), datasets, extra)


def _gaps(results, metric, dataset, method, c, inside, greater):
    """The best K inside the window against the best outside it, paired
    over folds (none when either side is empty)."""
    outside = [x for x in c.index if x not in inside]
    if not inside or not outside:
        return []
    pick = (lambda ks: max(ks, key=lambda x: c[x])) if greater else \
        (lambda ks: min(ks, key=lambda x: c[x]))
    fa = results.folds(metric, dataset, method, pick(inside))
    fb = results.folds(metric, dataset, method, pick(outside))
    if fa is None or fb is None:
        return [noise.Gap(float("nan"), float("nan"), 1, "no per-fold table")]
    return [noise.paired_gap(fa, fb)]
