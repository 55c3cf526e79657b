"""``friedman``: the Iman-Davenport test's outcome."""

from __future__ import annotations

from mlfsbench.evaluation import printed as printed_tables
from mlfsbench.evaluation.stats import MIN_DATASETS
from mlfsbench.report.claims._base import (
    Outcome,
    Rule,
    metrics_of,
    printed_outcome,
)
from mlfsbench.report.claims.rules._stats import printed_rows, these

TIE_STATES = 20_000
"""At most this many rank-sum vectors are enumerated to bound a printed
Friedman statistic over the printed ties (Lee 2016's Table 6: 8109 on eight
datasets; Table 5 has too many, and says so)."""


class Friedman(Rule):
    """The Iman-Davenport test rejects equal performance (``paper:
    rejected``) or not."""

    name = "friedman"
    evidence = "cd"
    needs_datasets = MIN_DATASETS
    schema = {"required": ["quantity", "paper"]}

    def describe(self, claim):
        return f"Iman-Davenport test at alpha 0.05: {claim['paper']}"

    def printed(self, claim, datasets, tables):
        parts = []
        for t, methods in printed_rows(claim, tables):
            res = printed_tables.friedman(t, datasets, methods)
            rejected = bool(res["rejected"])
            text = (f"the paper's own {t.id} {these(datasets)} gives F = "
                    f"{res['F']:.2f} {'>' if rejected else '<'} "
                    f"{res['F_critical']:.2f}")
            try:
                r = printed_tables.friedman_tie_range(t, datasets, methods,
                                                      max_states=TIE_STATES)
            except ValueError:
                text += " (too many printed ties to bound)"
            else:
                if r["min"] <= r["F_critical"] < r["max"]:
                    text += (f"; resolving its printed ties gives F from "
                             f"{r['min']:.2f} to {r['max']:.2f}: the printed "
                             "precision decides it")
            parts.append((rejected == (claim["paper"] == "rejected"), text))
        return printed_outcome(parts)

    def check(self, claim, results):
        held, total, parts = 0, 0, []
        for metric in metrics_of(claim["quantity"]):
            res = results.stats(metric)
            idv = res["iman_davenport"]
            rejected = bool(idv["rejected"])
            total += 1
            held += rejected == (claim["paper"] == "rejected")
            parts.append(f"{metric}: F = {idv['F']:.3f}, critical "
                         f"{idv['critical_value']:.3f} "
                         f"({'rejected' if rejected else 'not rejected'})")
        return Outcome(held == total, "; ".join(parts),
                       f"N = {res['n_datasets']} datasets",
                       sorted(res.get("datasets") or results.datasets))
