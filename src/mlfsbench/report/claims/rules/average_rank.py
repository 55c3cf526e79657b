"""``average_rank``: the order of the methods' average ranks."""

from __future__ import annotations

from mlfsbench.evaluation import printed as printed_tables
from mlfsbench.evaluation.stats import MIN_DATASETS
from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    claim_methods,
    metrics_of,
    printed_outcome,
    share_ok,
)
from mlfsbench.report.claims.rules._stats import printed_rows, run_stats, these


class AverageRank(Rule):
    """From the statistics of each metric: ``best`` has the lowest average
    rank, or every ``better`` method ranks above every ``worse`` one.
    ``among`` recomputes the statistics on those methods only (at
    ``n_features``), for a figure that compares a subset of the
    experiment's methods."""

    name = "average_rank"
    evidence = "cd"
    needs_datasets = MIN_DATASETS
    schema = {"required": ["quantity"]}

    def describe(self, claim):
        return super().describe(claim) + ", from the average ranks over the datasets"

    def printed(self, claim, datasets, tables):
        q = claim["quantity"]
        parts = []
        for t, methods in printed_rows(claim, tables):
            ranks = printed_tables.average_ranks(t, datasets, methods)
            if "best" in q:
                ok = ranks[q["best"]] <= ranks.min() + 1e-12
            else:
                ok = all(ranks[a] < ranks[b] for a in q["better"] for b in q["worse"])
            parts.append((ok, f"the paper's own {t.id} {these(datasets)}: first "
                              f"{ranks.idxmin()} {ranks.min():.2f}"))
        return printed_outcome(parts)

    def check(self, claim, results):
        q = claim["quantity"]
        held, total, parts, judged = 0, 0, [], set()
        for metric in metrics_of(q):
            res = run_stats(q, metric, results)
            ranks = {m: res["average_ranks"].get(results.method(m))
                     for m in claim_methods(q)}
            missing = [m for m, r in ranks.items() if r is None]
            if missing:
                raise NotCheckable(f"{', '.join(missing)} not in the {metric} "
                                   "statistics")
            total += 1
            if "best" in q:
                ok = ranks[q["best"]] <= min(res["average_ranks"].values()) + 1e-12
            else:
                ok = all(ranks[a] < ranks[b] for a in q["better"] for b in q["worse"])
            held += ok
            judged |= set(res.get("datasets") or results.datasets)
            shown = ", ".join(f"{m} {r:.2f}" for m, r in sorted(ranks.items(),
                                                                key=lambda x: x[1]))
            if "best" in q:
                first = min(res["average_ranks"], key=res["average_ranks"].get)
                shown = f"first: {first} {res['average_ranks'][first]:.2f}; {shown}"
            parts.append(f"{metric}: {shown} (N = {res['n_datasets']})")
        need = float(claim.get("min_fraction", 1.0))
        return Outcome(share_ok(held, total, need), "; ".join(parts), "",
                       sorted(judged))
