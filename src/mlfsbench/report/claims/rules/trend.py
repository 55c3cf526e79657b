"""``trend``: a curve improves (or a measure grows) along an axis."""

from __future__ import annotations

import numpy as np

from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    claim_datasets,
    join,
    metrics_of,
    scope_words,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better
from mlfsbench.report.claims.rules._curves import (
    bootstrap_spearman,
    curve,
    fold_curves,
    spearman,
)


class Trend(Rule):
    """Each curve of ``methods`` improves with the number of features: the
    Spearman correlation between K and the score (lower-is-better metrics
    negated, so that improvement is positive) is at least ``threshold``
    (default 0) on each (dataset, metric, method) cell, over the K of the
    run (``k_range``/``k_values`` restrict them); the share of cells is at
    least ``min_fraction`` (default 1).

    ``along: methods`` with ``measure: fit_seconds`` correlates instead the
    position in ``methods`` with each method's mean selection time on the
    dataset (``tables/runtime.tsv``): a cell is a dataset, and a larger
    time is "grows" (no sign flip).

    Noise: a curve cell is within fold noise when ``threshold`` lies inside
    the 2.5-97.5 % percentiles of the correlation over a bootstrap of the
    folds (:data:`~.noise.BOOTSTRAP` redraws, fixed seed: each redraw
    averages the redrawn folds at each K and recomputes the correlation);
    the verdict is within noise when flipping such cells could change it
    (:class:`~.noise.Noise`). The runtime table has no per-fold times: a
    runtime trend has no noise label.
    """

    name = "trend"
    evidence = "curves"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["methods"]},
                             "threshold": {"type": "number", "minimum": -1,
                                           "maximum": 1}}}

    def describe(self, claim):
        q = claim["quantity"]
        t = float(claim.get("threshold", 0))
        if q.get("along") == "methods":
            return (f"trend: Spearman(position in {', '.join(q['methods'])}, mean "
                    f"{q.get('measure', 'fit_seconds')}) >= {t:g} on each dataset")
        text = (f"trend: Spearman(K, score, improvement positive) >= {t:g} for "
                "each method")
        return text + scope_words(claim)

    def check(self, claim, results):
        q = claim["quantity"]
        if q.get("along") == "methods":
            return self._along_methods(claim, results)
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        threshold = float(claim.get("threshold", 0))
        held, total, failed, rhos = 0, 0, [], []
        cells = noise.Noise()
        for metric in metrics:
            sign = 1.0 if greater_is_better(metric) else -1.0
            for d in datasets:
                for m in q["methods"]:
                    c = curve(results, metric, d, m, q)
                    rho = spearman(c.index, sign * c.to_numpy())
                    ok = bool(rho >= threshold - 1e-12)
                    total += 1
                    held += ok
                    rhos.append(rho)
                    if not ok:
                        failed.append(f"{_label(metric, d, m, metrics, datasets)} "
                                      f"{rho:.2f}")
                    cells.add(ok, [_gap(results, metric, d, m, c, sign, rho,
                                        threshold)])
        need = float(claim.get("min_fraction", 1.0))
        ours = (f"correlation >= {threshold:g} on {held} of {total} curves "
                f"(range {np.nanmin(rhos):.2f} to {np.nanmax(rhos):.2f})"
                if np.isfinite(rhos).any() else
                f"correlation >= {threshold:g} on {held} of {total} curves")
        if failed:
            ours += f"; not on {', '.join(failed)}"
        extra, noise_note = cells.verdict(held, total, need)
        return Outcome(share_ok(held, total, need), ours, join(note, noise_note),
                       datasets, extra)

    def _along_methods(self, claim, results):
        q = claim["quantity"]
        measure = q.get("measure", "fit_seconds")
        if measure != "fit_seconds":
            raise ValueError(f"claim {claim['id']}: unknown measure {measure!r}")
        datasets, note = claim_datasets(claim, results)
        threshold = float(claim.get("threshold", 0))
        rt = results.runtime
        held, parts = 0, []
        for d in datasets:
            rows = rt[rt["dataset"] == d].set_index("selector")["mean"]
            times = []
            for m in q["methods"]:
                ident = results.method(m)
                if ident not in rows:
                    raise NotCheckable(f"no runtime of {m} on {d}")
                times.append(float(rows[ident]))
            rho = spearman(range(len(times)), times)
            ok = bool(rho >= threshold - 1e-12)
            held += ok
            parts.append(f"{d}: {rho:.2f} ({', '.join(f'{t:.2f}' for t in times)} s)")
        need = float(claim.get("min_fraction", 1.0))
        ours = (f"correlation >= {threshold:g} on {held} of {len(datasets)} "
                f"({'; '.join(parts)})")
        return Outcome(share_ok(held, len(datasets), need), ours, note, datasets)


def _label(metric, dataset, method, metrics, datasets):
    parts = ([metric] if len(metrics) > 1 else []) + \
            ([dataset] if len(datasets) > 1 else []) + [method]
    return "/".join(parts)


def _gap(results, metric, dataset, method, c, sign, rho, threshold):
    """The correlation measured from ``threshold`` with its bootstrap
    interval over folds (no spread on one fold or without a per-fold
    table)."""
    folds = fold_curves(results, metric, dataset, method, c.index)
    n = 0 if folds is None else len(folds)
    if n < 2 or not np.isfinite(rho):
        return noise.Gap(rho - threshold, float("nan"), max(n, 1), "no spread")
    boot = bootstrap_spearman(folds, sign)
    lo, hi = np.nanpercentile(boot, [50 * (1 - noise.LEVEL), 50 * (1 + noise.LEVEL)])
    observed = rho - threshold
    inside = lo < threshold < hi
    half = abs(observed) + 1e-12 if inside else abs(observed) * (1 - 1e-9)
    return noise.Gap(observed, half, n,
                     f"bootstrap over folds of the correlation ({noise.BOOTSTRAP} "
                     f"redraws)")
