"""``fastest``: a method's selection time is the smallest."""

from __future__ import annotations

from mlfsbench.evaluation import printed as printed_tables
from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    claim_datasets,
    printed_outcome,
    printed_table,
)
from mlfsbench.report.claims.rules._stats import these


class Fastest(Rule):
    """``method`` has the smallest mean ``fit`` time on each dataset
    (``tables/runtime.tsv``)."""

    name = "fastest"
    evidence = "none"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["method"]}}}

    def describe(self, claim):
        return "the smallest mean selection time on each dataset"

    def printed(self, claim, datasets, tables):
        t = printed_table(claim, tables, "seconds")
        me = claim["quantity"]["method"]
        agree = sum(me in printed_tables.winners(t, [d])[d] for d in datasets)
        return printed_outcome([(agree == len(datasets),
                                 f"the paper's own {t.id} {these(datasets)}: {me} "
                                 f"best on {agree} of {len(datasets)}")])

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        rt = results.runtime
        me = results.method(q["method"])
        held, parts = 0, []
        for d in datasets:
            rows = rt[rt["dataset"] == d].set_index("selector")["mean"]
            if me not in rows:
                raise NotCheckable(f"no runtime of {q['method']} on {d}")
            held += rows[me] <= rows.min() + 1e-12
            parts.append(f"{d}: {q['method']} {rows[me]:.2f} s, fastest "
                         f"{rows.idxmin()} {rows.min():.2f} s")
        return Outcome(held == len(datasets), "; ".join(parts), note, datasets)
