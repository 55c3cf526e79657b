"""``degradation``: how often a selected subset is worse than all features."""

from __future__ import annotations

from mlfsbench.io import BASELINE
from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    claim_datasets,
    metrics_of,
)
from mlfsbench.report.claims.results import greater_is_better

#: The degradation tests (a scoring reading's ``settings: {degradation_test:
#: ...}``): ``sd`` worse than all features by more than the method's s.d.
#: over folds; ``overlap`` the intervals mean +- s.d. of the method and of
#: all features do not overlap; ``paired`` worse beyond the 95 % interval
#: of the paired fold differences (:func:`~.noise.paired_gap`).
TESTS = ("sd", "overlap", "paired")


def degraded_cells(claim, results):
    """``(metric, dataset, method, degraded)`` of every (method, metric,
    dataset) cell at ``selected`` (a method with an empty subset has no
    cell), degraded by the claim's test (:data:`TESTS`; default ``sd``)."""
    q = claim["quantity"]
    test = (claim.get("_settings") or {}).get("degradation_test", "sd")
    if test not in TESTS:
        raise ValueError(f"claim {claim['id']}: unknown degradation test {test!r}")
    datasets, note = claim_datasets(claim, results)
    s = results.summary
    cells = []
    for metric in metrics_of(q):
        greater = greater_is_better(metric)
        for d in datasets:
            rows = s[(s["dataset"] == d) & (s["metric"] == metric)]
            all_rows = rows[rows["n_features"] == "all"]
            base = all_rows["mean"].mean()
            base_sd = float(all_rows["std"].fillna(0).mean())
            for name in q["methods"]:
                at = rows[(rows["selector"] == results.method(name))
                          & (rows["n_features"] == "selected")]
                if at.empty:
                    continue  # an empty subset
                mean = float(at["mean"].iloc[0])
                sd = float(at["std"].fillna(0).iloc[0])
                gap = (base - mean) if greater else (mean - base)  # > 0: worse
                if test == "sd":
                    worse = gap > sd
                elif test == "overlap":
                    worse = gap > sd + base_sd
                else:
                    g = results.gap(metric, d, name, BASELINE, "selected")
                    worse = gap > 0 and g.has_spread and not g.within()
                cells.append((metric, d, name, bool(worse)))
    return cells, note, test


TEST_WORDS = {"sd": "worse than all features by more than the method's s.d. over folds",
              "overlap": "mean ± s.d. of the method and of all features apart",
              "paired": "worse beyond the 95 % interval of the paired fold differences"}


class Degradation(Rule):
    """The share of (method, metric, dataset) cells at ``selected`` that are
    degraded against the all-features baseline (the test:
    :data:`TESTS`) is at most ``tolerance``."""

    name = "degradation"
    evidence = "curves"
    schema = {"required": ["quantity", "tolerance"],
              "properties": {"quantity": {"required": ["methods"]}}}

    def describe(self, claim):
        test = (claim.get("_settings") or {}).get("degradation_test", "sd")
        return (f"share of degraded cells at the selected subset at most "
                f"{float(claim['tolerance']):.3g}; degraded: {TEST_WORDS[test]}")

    def check(self, claim, results):
        cells, note, _ = degraded_cells(claim, results)
        if not cells:
            raise NotCheckable("no cell at the selected subset")
        worse, total = sum(c[3] for c in cells), len(cells)
        share = worse / total
        ours = f"{worse} of {total} cells ({100 * share:.1f} %)"
        return Outcome(share <= float(claim["tolerance"]) + 1e-12, ours, note,
                       sorted({c[1] for c in cells}))



