"""``empty_subset``: a threshold selector selects nothing (the paper's "-")."""

from __future__ import annotations

from mlfsbench.report.claims._base import NotCheckable, Outcome, Rule, claim_datasets


class EmptySubset(Rule):
    """At ``selected``: the method's subset is empty (no result) on every
    fold of each dataset (``paper: empty``) or on none (``nonempty``)."""

    name = "empty_subset"
    evidence = "curves"
    schema = {"required": ["quantity", "paper"],
              "properties": {"quantity": {"required": ["method"]}}}

    def describe(self, claim):
        return f"the selected subset is {claim['paper']} on every fold"

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        s = results.summary
        held, parts = 0, []
        ident = results.method(q["method"])
        for d in datasets:
            rows = s[(s["dataset"] == d) & (s["selector"] == ident)]
            if rows.empty:
                raise NotCheckable(f"no results of {q['method']} on {d}")
            folds = int(rows[rows["n_features"] == "all"]["folds"].max())
            at = rows[rows["n_features"] == "selected"]
            nonempty = int(at["folds"].max()) if not at.empty else 0
            got = ("empty" if nonempty == 0 else "nonempty" if nonempty == folds
                   else "mixed")
            held += got == claim["paper"]
            parts.append(f"{d}: subset in {nonempty} of {folds} folds")
        return Outcome(held == len(datasets), "; ".join(parts), note, datasets)
