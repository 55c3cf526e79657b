"""``earliest_best``: some curves reach their best at fewer features than
others."""

from __future__ import annotations

from mlfsbench.report.claims._base import (
    Outcome,
    Rule,
    claim_datasets,
    metrics_of,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better
from mlfsbench.report.claims.rules._curves import allowance, curve, reach_k, spearman

ORDERS = ("chain", "first", "spearman")


class EarliestBest(Rule):
    """Among ``methods`` (in the order listed), the K at which each curve
    *reaches its best* (the first K within ``best_tolerance`` of the curve's
    best value: ``0``, default, the best itself; ``sd`` one s.d. over folds
    of the best K's cell; a number, that amount) is ordered as ``order``
    says, on each (dataset, metric) cell; the share of cells is at least
    ``min_fraction`` (default 1):

    - ``chain`` (default): non-decreasing along the list (``strict``:
      increasing);
    - ``first``: the first method's K is at most every other's
      (``strict``: smaller);
    - ``spearman``: the Spearman correlation between the position in the
      list and the K is positive (ties allowed; "a negative correlation with
      the number of granules" lists the methods from most to fewest).

    No noise label: the verdict is decided by a K of the grid, not a mean,
    and the one-s.d. ``best_tolerance`` is itself the allowance for the
    folds' spread (a curve that comes within it earlier counts as there).
    """

    name = "earliest_best"
    evidence = "curves"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["methods"],
                                          "properties": {"methods": {"minItems": 2}}},
                             "best_tolerance": {"oneOf": [
                                 {"type": "number", "minimum": 0}, {"const": "sd"}]}}}

    def describe(self, claim):
        q = claim["quantity"]
        order = q.get("order", "chain")
        strict = " (strictly)" if q.get("strict") else ""
        along = ", ".join(q["methods"])
        words = {"chain": f"K of the best non-decreasing along {along}",
                 "first": f"{q['methods'][0]}'s K of the best at most every other's",
                 "spearman": "Spearman(position in the list, K of the best) > 0"}[order]
        text = f"earliest_best: {words}{strict}, best within {tol_words(claim)}"
        if "min_fraction" in claim:
            text += f", in at least {float(claim['min_fraction']):.3g} of the cells"
        return text

    def check(self, claim, results):
        q = claim["quantity"]
        order = q.get("order", "chain")
        if order not in ORDERS:
            raise ValueError(f"claim {claim['id']}: unknown order {order!r}")
        strict = bool(q.get("strict"))
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        held, total, parts = 0, 0, []
        for metric in metrics:
            greater = greater_is_better(metric)
            for d in datasets:
                ks = []
                for m in q["methods"]:
                    c = curve(results, metric, d, m, q)
                    tol = allowance(claim.get("best_tolerance", 0), results, metric, d,
                                    m, c)
                    ks.append(reach_k(c, greater, tol))
                ok = ordered(ks, order, strict)
                total += 1
                held += ok
                label = "/".join(([metric] if len(metrics) > 1 else [])
                                 + ([d] if len(datasets) > 1 else []))
                parts.append(f"{label + ': ' if label else ''}"
                             f"{', '.join(str(k) for k in ks)}"
                             f"{'' if ok else ' (fails)'}")
        need = float(claim.get("min_fraction", 1.0))
        ours = (f"holds in {held} of {total} (K of the best of "
                f"{', '.join(q['methods'])}: {'; '.join(parts)})")
        return Outcome(share_ok(held, total, need), ours, note, datasets)


def ordered(ks, order: str, strict: bool) -> bool:
    """Whether the K of the best ``ks`` (in the methods' order) are ordered.

    >>> ordered([10, 10, 30], "chain", False), ordered([10, 10, 30], "chain", True)
    (True, False)
    >>> ordered([10, 30, 20], "first", True), ordered([10, 30, 20], "spearman", False)
    (True, True)
    """
    if order == "chain":
        pairs = zip(ks, ks[1:], strict=False)
        return all(a < b if strict else a <= b for a, b in pairs)
    if order == "first":
        return all(ks[0] < k if strict else ks[0] <= k for k in ks[1:])
    rho = spearman(range(len(ks)), ks)
    return bool(rho > 0)


def tol_words(claim) -> str:
    spec = claim.get("best_tolerance", 0)
    if spec in (0, None):
        return "0 (the best itself)"
    if spec == "sd":
        return "one s.d. over folds of the best cell"
    return f"{float(spec):g}"
