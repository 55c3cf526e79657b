"""``significance``: a post-hoc test's outcome for one method against others."""

from __future__ import annotations

from mlfsbench.evaluation import printed as printed_tables
from mlfsbench.evaluation.stats import MIN_DATASETS
from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    metrics_of,
    printed_outcome,
)
from mlfsbench.report.claims.rules._stats import printed_rows, run_stats, these


def _outcome(diff: float, cd: float) -> str:
    return "better" if diff > cd else "worse" if -diff > cd else "similar"


class Significance(Rule):
    """Bonferroni-Dunn or Nemenyi (``test``): ``method`` against each of
    ``others`` is ``better`` (average ranks further apart than the critical
    difference, in its favour), ``worse`` or ``similar`` (within one CD)."""

    name = "significance"
    evidence = "cd"
    needs_datasets = MIN_DATASETS
    schema = {"required": ["quantity", "paper"],
              "properties": {"quantity": {"required": ["method", "others"]}}}

    def describe(self, claim):
        test = claim["quantity"].get("test", "bonferroni_dunn").replace("_", "-")
        return f"{test} test against each other method: {claim['paper']}"

    def printed(self, claim, datasets, tables):
        q = claim["quantity"]
        parts = []
        for t, methods in printed_rows(claim, tables):
            ranks = printed_tables.average_ranks(t, datasets, methods)
            test = q.get("test", "bonferroni_dunn").replace("_", "-")
            cd = printed_tables.critical_differences(len(methods), len(datasets))[test]
            got = {o: (_outcome(ranks[o] - ranks[q["method"]], cd),
                       ranks[o] - ranks[q["method"]]) for o in q["others"]}
            parts.append((all(g == claim["paper"] for g, _ in got.values()),
                          f"the paper's own {t.id} {these(datasets)} (CD {cd:.2f}): "
                          + ", ".join(f"{g} vs {o} ({d:+.2f})"
                                      for o, (g, d) in got.items())))
        return printed_outcome(parts)

    def check(self, claim, results):
        q = claim["quantity"]
        test = q.get("test", "bonferroni_dunn")
        held, total, parts = 0, 0, []
        for metric in metrics_of(q):
            res = run_stats(q, metric, results)
            cd = res[test]["cd"]
            ranks = res["average_ranks"]
            me = results.method(q["method"])
            if me not in ranks:
                raise NotCheckable(f"{q['method']} not in the {metric} statistics")
            for other in q["others"]:
                o = results.method(other)
                if o not in ranks:
                    raise NotCheckable(f"{other} not in the {metric} statistics")
                diff = ranks[o] - ranks[me]  # > 0: ours ranks better
                got = _outcome(diff, cd)
                total += 1
                held += got == claim["paper"]
                parts.append(f"{metric} vs {other}: {got} (rank difference "
                             f"{diff:+.2f}, CD {cd:.2f})")
        return Outcome(held == total, "; ".join(parts),
                       f"N = {res['n_datasets']} datasets",
                       sorted(res.get("datasets") or results.datasets))
