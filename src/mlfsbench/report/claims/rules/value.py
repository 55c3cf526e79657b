"""``value``: one number of the paper, give or take a tolerance."""

from __future__ import annotations

import numpy as np

from mlfsbench.io import BASELINE
from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    BEYOND_NOISE,
    NO_SPREAD,
    WITHIN_NOISE,
    NotCheckable,
    Outcome,
    Rule,
    claim_datasets,
    claim_methods,
    fmt,
    join,
    k_words,
    metrics_of,
    printed_table,
)
from mlfsbench.report.claims.results import greater_is_better


def printed_decimals(claim) -> int:
    """The paper's printed precision for the claim's number: ``precision``
    when the claim gives it, else the printed table's decimals, else the
    decimals of the paper's number as written.

    >>> printed_decimals({"paper": 0.096})
    3
    """
    if claim.get("precision") is not None:
        return int(claim["precision"])
    if claim.get("_decimals") is not None:
        return int(claim["_decimals"])
    text = repr(float(claim["paper"]))
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


class Value(Rule):
    """``|ours - paper| <= tolerance`` (``side: no-worse``: ours no worse than
    the paper's by more than the tolerance, better by any amount).

    With ``ordering: <claim id>`` the value is also not reproduced while the
    method is worse than every other *method* of that companion claim on the
    same cell (the all-features baseline is no method of the row) by at least
    one unit of the paper's printed precision (:func:`printed_decimals`): a
    smaller gap is a tie as the paper prints it.

    The noise label is that of the comparison that decided the verdict
    (:mod:`~mlfsbench.report.claims.noise`): the tolerance's margin against
    the 95 % interval of our mean, or, when the ordering decided it, the gap
    to the nearest other method against the interval of the paired fold
    differences.
    """

    name = "value"
    schema = {"required": ["quantity", "paper", "tolerance"]}

    def describe(self, claim):
        q = claim["quantity"]
        side = ("no worse than the paper's by more than"
                if claim.get("side") == "no-worse" else "within ±")
        text = (f"value at {k_words(q.get('n_features', 'all'))}: ours {side} "
                f"{fmt(float(claim['tolerance']))}")
        if claim.get("ordering", "none") != "none":
            text += (f"; and not worse than every other method of "
                     f"{claim['ordering']} (ties below 1e-{printed_decimals(claim)})")
        return text

    def printed(self, claim, datasets, tables):
        (metric,) = metrics_of(claim["quantity"])
        t = printed_table(claim, tables, metric)
        cell = t.printed.at[datasets[0], claim["quantity"]["method"]]
        return True, f"{t.id} prints {cell}", ""

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        (metric,) = metrics_of(q)
        d, clf = datasets[0], q.get("classifier")
        name, k = q["method"], q.get("n_features", "all")
        value, sd, n = results.cell(metric, d, name, k, classifier=clf)
        paper, tol = float(claim["paper"]), float(claim["tolerance"])
        greater = greater_is_better(metric)
        diff = value - paper
        gain = diff if greater else -diff  # > 0: ours better than the paper
        one_sided = claim.get("side") == "no-worse"
        margin = tol + gain if one_sided else tol - abs(diff)
        ok = margin >= -1e-12
        notes = [note]
        if not ok:
            word = "better" if gain > 0 else "worse"
            notes.append(f"ours is {word} than the paper's by {abs(gain):.4f}, more "
                         f"than the tolerance {fmt(tol)}")
        elif one_sided and gain > tol:
            notes.append(f"ours is better than the paper's by {gain:.4f}")
        mean_noise = noise.summary_gap(value, sd, n)
        decided = (abs(margin), mean_noise, "its margin to the tolerance")
        companion = claim.get("_companion")
        if ok and companion is not None:
            fired = self._ordering(claim, results, companion, metric, d, k, clf,
                                   value, greater)
            if fired is not None:
                ok = False
                other, adv, unit, gap = fired
                notes.append(f"within the tolerance, but worse than every other "
                             f"method of {companion['id']} on this cell by at least "
                             f"the printed {unit:g} (nearest: {other}, better by "
                             f"{adv:.4f})")
                decided = (abs(adv - unit), gap, f"the gap to {other}")
        spread = f" ± {sd:.4f} s.d." if np.isfinite(sd) and n > 1 else ""
        ours = f"{value:.4f}{spread}, n = {n} (difference {diff:+.4f})"
        if n == 1 and k == "best":
            notes.append("the best of the curve's points on one split: biased "
                         "toward the curve, no folds to correct it")
        distance, gap, what = decided
        if not gap.has_spread:
            robust = NO_SPREAD if n <= 1 else "no spread"
        elif distance < gap.half:
            robust = WITHIN_NOISE
            notes.append(f"{WITHIN_NOISE}: decided by {what}, {distance:.4f}, inside "
                         f"the 95 % interval ({gap.words()})")
        else:
            robust = BEYOND_NOISE
        extra = {"ours_sd": f"{sd:.4f}" if np.isfinite(sd) and n > 1 else "",
                 "n": str(n), "margin": f"{margin:+.4f}", "robust": robust,
                 "ours_value": f"{value:.6g}"}
        return Outcome(ok, ours, join(*notes), datasets, extra)

    @staticmethod
    def _ordering(claim, results, companion, metric, d, k, clf, value, greater):
        """``(nearest other, its advantage, printed unit, paired gap)`` when
        every other method of the companion's row beats ours by at least one
        printed unit; None otherwise."""
        unit = 10.0 ** -printed_decimals(claim)
        name = claim["quantity"]["method"]
        advantage = {}
        for other in claim_methods(companion["quantity"]):
            if other == name or results.method(other) == BASELINE:
                continue
            try:  # a method this run lacks leaves the comparison
                v = results.scores(metric, d, [other], k, classifier=clf)[other]
            except NotCheckable:
                continue
            advantage[other] = (v - value) if greater else (value - v)
        if not advantage or min(advantage.values()) < unit - 1e-12:
            return None
        nearest = min(advantage, key=advantage.get)
        gap = results.gap(metric, d, nearest, name, k, classifier=clf)
        return nearest, advantage[nearest], unit, gap

