"""``better``: some methods beat others on each cell."""

from __future__ import annotations

import pandas as pd

from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    Outcome,
    Rule,
    better,
    claim_datasets,
    join,
    metrics_of,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better

#: The name of the averaged ``worse`` methods (``worse_aggregate: mean``).
AVERAGE = "average of the others"


class Better(Rule):
    """Every method of ``better`` beats every method of ``worse`` on each
    (dataset, metric) cell at ``n_features`` (``every``: at every integer
    K); the share of cells is at least ``min_fraction`` (default 1).
    ``worse_aggregate: mean`` averages the ``worse`` methods into one score
    per cell (and per fold) first: a figure that compares a method with the
    average over the others (Doquire & Verleysen 2013, Figs. 4-5).

    Each cell's deciding comparisons (every pair when it holds, the failing
    pairs when not) carry the interval of the paired fold differences
    (:class:`~.noise.Noise`); ``best`` is the K chosen on the other folds
    (:func:`~.noise.cv_best`).
    """

    name = "better"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["better", "worse"]}}}

    def describe(self, claim):
        q = claim["quantity"]
        text = "better: " + super().describe(claim)
        if q.get("worse_aggregate") == "mean":
            text += ", against the mean of the others"
        return text

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        k = q.get("n_features", "mean")
        averaged = q.get("worse_aggregate") == "mean"
        worse = [AVERAGE] if averaged else list(q["worse"])
        pairs = [(a, b) for a in q["better"] for b in worse]
        held, total, failed = 0, 0, []
        cells = noise.Noise() if k != "every" else None
        for metric in metrics:
            greater = greater_is_better(metric)
            for d in datasets:
                total += 1
                if k == "every":
                    c = results.curves(metric, d, list(q["better"]) + list(q["worse"]))
                    if averaged:
                        c[AVERAGE] = c[list(q["worse"])].mean(axis=1)
                    ok = all(better(c[a], c[b], greater).all() for a, b in pairs)
                else:
                    s = results.scores(metric, d, list(q["better"]) + list(q["worse"]),
                                       k)
                    if averaged:
                        s[AVERAGE] = sum(s[m] for m in q["worse"]) / len(q["worse"])
                    ok = all(better(s[a], s[b], greater) for a, b in pairs)
                    deciding = pairs if ok else [(a, b) for a, b in pairs
                                                 if not better(s[a], s[b], greater)]
                    cells.add(ok, [_gap(results, metric, d, a, b, k, q)
                                   for a, b in deciding])
                held += ok
                if not ok:
                    failed.append(d if len(metrics) == 1 else f"{metric}/{d}")
        need = float(claim.get("min_fraction", 1.0))
        ours = f"holds in {held} of {total}"
        if failed:
            ours += f" (not on {', '.join(failed)})"
        ok = share_ok(held, total, need)
        if cells is None:
            return Outcome(ok, ours, note, datasets)
        extra, noise_note = cells.verdict(held, total, need)
        return Outcome(ok, ours, join(note, noise_note), datasets, extra)


def _gap(results, metric, dataset, a, b, k, q):
    if b != AVERAGE:
        return results.gap(metric, dataset, a, b, k)
    fa = results.folds(metric, dataset, a, k)
    fw = [results.folds(metric, dataset, m, k) for m in q["worse"]]
    if fa is None or any(f is None for f in fw):
        cell = results.cell(metric, dataset, a, k)
        return noise.Gap(float("nan"), float("nan"), cell[2], "no per-fold table")
    return noise.paired_gap(fa, pd.concat(fw, axis=1).mean(axis=1))
