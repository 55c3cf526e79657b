"""``winner``: the paper's best method is ours on each cell."""

from __future__ import annotations

import numpy as np

from mlfsbench.evaluation import printed as printed_tables
from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    claim_datasets,
    fraction_bounds,
    join,
    metrics_of,
    printed_outcome,
    printed_table,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better
from mlfsbench.report.claims.rules import joint_figures as joint


class Winner(Rule):
    """On each dataset (and metric), the best of ``methods`` at
    ``n_features`` is the paper's winner (``paper``: one method, a mapping
    dataset -> method, or dataset -> a list of methods any of which may win:
    a figure with "no clear winner between" two); reproduced when the share
    of agreeing cells is at least ``min_fraction`` (default 1). Ties count
    for every tied method. ``mean-rank`` ranks the methods among themselves
    at each K and averages the ranks (Sechidis et al. 2019, Table 2).

    Each cell's deciding comparisons are the wanted winner against every
    other method (a cell that agrees) or against the methods that beat it
    (one that does not), each with its interval: paired fold differences at
    one K, a bootstrap over folds for a rank score (:class:`~.noise.Noise`).

    ``joint: feature_reduction`` reads each method as the point (measure,
    share of features kept) of a joint figure and the best by
    ``joint_score`` (:mod:`.joint_figures`): the nearest to the figure's best
    corner (``corner``, its propagated s.d. for the noise) or the
    undominated ones (``pareto``, the default; no interval).
    ``max_fraction`` bounds the share from above.
    """

    name = "winner"
    schema = {"required": ["quantity", "paper"]}

    def describe(self, claim):
        q = claim.get("quantity") or {}
        return (super().describe(claim)
                + (joint.describe(q) if q.get("joint") else ""))

    def printed(self, claim, datasets, tables):
        q = claim["quantity"]
        parts = []
        for metric in metrics_of(q):
            t = printed_table(claim, tables, metric)
            agree, total = 0, 0
            for d in datasets:
                want = _wanted(claim["paper"], d)
                if want is None:
                    continue
                total += 1
                best = printed_tables.winners(t, [d], q["methods"])[d]
                agree += any(w in best for w in want)
            need, most = fraction_bounds(claim)
            who = claim["paper"] if isinstance(claim["paper"], str) else \
                "the paper's winner"
            these = "on this dataset" if len(datasets) == 1 else \
                f"on these {len(datasets)} datasets"
            parts.append((share_ok(agree, total, need, most),
                          f"the paper's own {t.id} {these}: {who} best on {agree} "
                          f"of {total}" + (f" (the claim needs {need:.4g})"
                                           if need < 1 else "")))
        return printed_outcome(parts)

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        k = q.get("n_features", "mean")
        how = q.get("joint_score", "pareto") if q.get("joint") else None
        agree, total, parts = 0, 0, []
        cells = noise.Noise()
        for metric in metrics:
            greater = greater_is_better(metric) and k != "mean-rank"
            for d in datasets:
                want = _wanted(claim["paper"], d)
                if want is None:
                    continue
                shown = ""
                if how:
                    pts = joint.points(results, metric, d, q["methods"], k, greater,
                                        q["joint"])
                    scores = pts
                    winners = joint.winners(pts, greater, how)
                    shown = f" [{joint.words(pts, how)}]"
                else:
                    scores = results.scores(metric, d, q["methods"], k)
                    best = max(scores.values()) if greater else min(scores.values())
                    winners = [m for m, v in scores.items() if np.isclose(v, best)]
                total += 1
                hit = [w for w in want if w in winners]
                agree += bool(hit)
                first = hit[0] if hit else next((w for w in want if w in scores), None)
                if first is not None and how != "pareto":
                    rivals = [m for m in scores if m not in want] if hit else \
                        [m for m in winners if m != first]
                    gaps = ([joint.corner_gap(pts[first], pts[r]) for r in rivals]
                            if how == "corner" else
                            _gaps(results, metric, d, q["methods"], k, first, rivals))
                    cells.add(bool(hit), gaps)
                label = d if len(metrics) == 1 else f"{metric}/{d}"
                parts.append(f"{label}: {'='.join(winners)}{shown}")
        if total == 0:
            raise NotCheckable("the paper names no winner on the datasets run here")
        need, most = fraction_bounds(claim)
        ours = f"winner agrees on {agree} of {total} ({'; '.join(parts)})"
        if how == "pareto":
            extra, noise_note = {"robust": joint.PARETO_ROBUST}, ""
        else:
            extra, noise_note = cells.verdict(agree, total, need, most)
        return Outcome(share_ok(agree, total, need, most), ours,
                       join(note, noise_note), datasets, extra)


def _wanted(paper, dataset):
    want = paper.get(dataset) if isinstance(paper, dict) else paper
    if want is None:
        return None
    return want if isinstance(want, list) else [want]


def _gaps(results, metric, dataset, methods, k, first, rivals):
    if k == "mean-rank":
        return list(results.rank_gaps(metric, dataset, methods,
                                      [(first, r) for r in rivals]).values())
    return [results.gap(metric, dataset, first, r, k) for r in rivals]
