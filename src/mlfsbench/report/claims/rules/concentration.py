"""``concentration``: where the degraded cells lie."""

from __future__ import annotations

from mlfsbench.report.claims._base import NotCheckable, Outcome, Rule
from mlfsbench.report.claims.rules.degradation import TEST_WORDS, degraded_cells


class Concentration(Rule):
    """Of the degraded cells (:class:`~.degradation.Degradation`, the same
    test), the share lying in ``within`` (its ``datasets`` and/or
    ``metrics``) is at least ``min_fraction`` (default 0.5): where a paper
    says the degradations concentrate. A dataset of ``within`` that the run
    lacks makes the claim not checkable."""

    name = "concentration"
    evidence = "curves"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["methods", "within"]}}}

    def describe(self, claim):
        test = (claim.get("_settings") or {}).get("degradation_test", "sd")
        return (f"share of the degraded cells in {claim['quantity']['within']} at "
                f"least {float(claim.get('min_fraction', 0.5)):.3g}; degraded: "
                f"{TEST_WORDS[test]}")

    def check(self, claim, results):
        cells, note, _ = degraded_cells(claim, results)
        if not cells:
            raise NotCheckable("no cell at the selected subset")
        within = claim["quantity"]["within"]
        absent = [d for d in within.get("datasets", []) if d not in results.datasets]
        if absent:
            gone = claim.get("_unavailable", {})
            reasons = "; ".join(f"{d}: {gone.get(d, 'not run in this experiment')}"
                                for d in absent)
            raise NotCheckable(f"the claim names a dataset not run here ({reasons})")
        inside = [c for c in cells if c[3]
                  and c[1] in within.get("datasets", [c[1]])
                  and c[0] in within.get("metrics", [c[0]])]
        degraded = sum(c[3] for c in cells)
        judged = sorted({c[1] for c in cells})
        if degraded == 0:
            return Outcome(False, f"no degraded cell of {len(cells)}", note, judged)
        share = len(inside) / degraded
        ours = (f"{len(inside)} of the {degraded} degraded cells ({100 * share:.0f} %; "
                f"{len(cells)} cells)")
        return Outcome(share >= float(claim.get("min_fraction", 0.5)) - 1e-12, ours,
                       note, judged)
