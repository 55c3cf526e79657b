"""``artificial``: a selection on the generated problems of Doquire &
Verleysen (2013, Sec. 5.1)."""

from __future__ import annotations

import numpy as np

from mlfsbench.report.claims._base import (
    NotCheckable,
    Outcome,
    Rule,
    fraction_bounds,
    share_ok,
)

#: ``check`` -> what must hold of one draw's ranking (0-based features).
CHECKS = {
    "first": "the first selected feature is one of `features`",
    "first_set": "the first `k` features are `features` in any order",
    "top": "the first `k` features each come from a different group of `groups`",
    "consecutive": "`features` occupy consecutive positions",
    "zero_scores": "every score is 0",
    "position": "one of `features` is at position `k` (1-based)",
    "within_first": "every one of `features` is among the first `k`",
    "last_set": "`features` are the last ones of the ranking, in any order",
    "cover": "the shortest prefix of the ranking holding a feature of every "
             "group of `groups` has a length in `range`",
    "max_score": "every score is at most `threshold`",
}


def cover_length(ranking, groups) -> int:
    """The length of the shortest prefix of ``ranking`` that holds at least
    one feature of every group (``len(ranking) + 1`` when none does).

    >>> cover_length([7, 4, 0, 9, 1], [[0, 1], [9], [4]])
    4
    """
    pos = {int(f): i for i, f in enumerate(ranking)}
    never = len(ranking)
    return max(min((pos.get(int(f), never) for f in g), default=never)
               for g in groups) + 1


def holds(check: str, ranking, score, q) -> bool:
    """Whether ``check`` (:data:`CHECKS`) holds of one draw."""
    r = [int(f) for f in ranking]
    want = set(q.get("features", []))
    k = int(q.get("k", len(want)))
    if check == "first":
        return r[0] in want
    if check == "first_set":
        return set(r[:k]) == want
    if check == "top":
        groups = [set(g) for g in q["groups"]]
        hit = [next((i for i, g in enumerate(groups) if f in g), None) for f in r[:k]]
        return None not in hit and len(set(hit)) == k
    if check == "consecutive":
        pos = sorted(r.index(f) for f in want)
        return pos[-1] - pos[0] == len(pos) - 1
    if check == "zero_scores":
        return score is not None and bool(np.all(np.asarray(score) == 0))
    if check == "position":
        return r[k - 1] in want
    if check == "within_first":
        return want <= set(r[:k])
    if check == "last_set":
        return set(r[-len(want):]) == want
    if check == "cover":
        lo, hi = q["range"]
        return lo <= cover_length(r, q["groups"]) <= hi
    if check == "max_score":
        s = np.asarray(score, dtype=float) if score is not None else np.array([np.nan])
        return bool(np.all(np.isfinite(s)) and np.all(s <= float(q["threshold"])))
    raise ValueError(f"unknown artificial check {check!r}")


class Artificial(Rule):
    """The selection on a generated problem (:mod:`mlfsbench.data.artificial`,
    run by :mod:`mlfsbench.evaluation.artificial`) over ``repeats`` draws: the
    share of draws where ``check`` holds (:data:`CHECKS`) is at least
    ``min_fraction`` (default 1) and at most ``max_fraction`` (default 1).

    In the workflow the run was computed by its own job, once for every
    claim and reading that asks for it (``results.artificial``: run key ->
    file); elsewhere it is computed here."""

    name = "artificial"
    evidence = "none"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["problem", "method", "check"]}}}

    def describe(self, claim):
        q = claim["quantity"]
        need, most = fraction_bounds(claim)
        text = (f"{int(q.get('repeats', 20))} draws of problem {q['problem']}: "
                f"{CHECKS[q['check']]}, in at least {need:.3g} of them")
        return text + (f" and at most {most:.3g}" if most < 1 else "")

    def check(self, claim, results):
        from mlfsbench.evaluation import artificial

        q = claim["quantity"]
        entry = None
        if "entry" in q:  # the experiment's entry, under this run's readings
            ident = results.methods.get(q["entry"], q["entry"])  # a name or id
            if ident not in results.params:
                raise NotCheckable(f"no selector {q['entry']!r} in this experiment")
            entry = results.params[ident](None)
        spec = artificial.run_spec(q, entry)
        computed = getattr(results, "artificial", None)
        if computed is None:
            rankings, scores = artificial.run(spec)
        else:
            key = artificial.run_key(spec)
            if key not in computed:
                raise KeyError(f"claim {claim.get('id')!r}: the run {spec} (key "
                               f"{key}) was not computed by the workflow's "
                               "artificial jobs (its plan and the claims disagree)")
            rankings, scores = artificial.load_runs(computed[key], spec)
        held = sum(holds(q["check"], r, s, q)
                   for r, s in zip(rankings, scores, strict=True))
        need, most = fraction_bounds(claim)
        return Outcome(share_ok(held, len(rankings), need, most),
                       f"holds in {held} of {len(rankings)} draws", "", ())
