"""``similar``: methods within a tolerance of each other."""

from __future__ import annotations

from mlfsbench.report.claims._base import (
    Outcome,
    Rule,
    claim_datasets,
    fmt,
    fraction_bounds,
    metrics_of,
    share_ok,
)


class Similar(Rule):
    """On each (dataset, metric) cell the scores of ``methods`` at
    ``n_features`` lie within ``tolerance`` of each other (a figure's "the
    same performance"); share of cells at least ``min_fraction``."""

    name = "similar"
    schema = {"required": ["quantity", "tolerance"],
              "properties": {"quantity": {"required": ["methods"]}}}

    def describe(self, claim):
        return (f"similar: {super().describe(claim)}, all within "
                f"{fmt(float(claim['tolerance']))}")

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        k = q.get("n_features", "mean")
        tolerance = float(claim["tolerance"])
        held, total, parts = 0, 0, []
        for metric in metrics:
            for d in datasets:
                s = results.scores(metric, d, q["methods"], k)
                gap = max(s.values()) - min(s.values())
                total += 1
                held += gap <= tolerance
                label = d if len(metrics) == 1 else f"{metric}/{d}"
                shown = ", ".join(f"{m} {v:.4f}" for m, v in s.items())
                parts.append(f"{label}: {shown} (gap {gap:.4f})")
        need, most = fraction_bounds(claim)
        ours = f"within {tolerance:g} in {held} of {total} ({'; '.join(parts)})"
        return Outcome(share_ok(held, total, need, most), ours, note, datasets)
