"""``fitted``: what a selector learnt on each dataset (a fitted number such
as Doquire & Verleysen's automatic pruning parameter ``p_``)."""

from __future__ import annotations

from mlfsbench.report.claims._base import NotCheckable, Outcome, Rule, claim_datasets


def _number(value: float) -> str:
    return f"{value:g}"


class Fitted(Rule):
    """The ``attribute`` that ``method`` learnt (``tables/fitted.tsv``, its
    mean over folds) on each dataset: equal to the paper's value of that
    dataset within ``tolerance`` (``paper: {dataset: value}``), or, with
    ``between: [low, high]``, strictly inside that range on every dataset."""

    name = "fitted"
    evidence = "none"
    schema = {
        "required": ["quantity", "paper"],
        "properties": {
            "quantity": {
                "required": ["method", "attribute"],
                "properties": {
                    "attribute": {"type": "string"},
                    "between": {"type": "array", "items": {"type": "number"},
                                "minItems": 2, "maxItems": 2},
                },
            },
        },
    }

    def describe(self, claim):
        q = claim["quantity"]
        if "between" in q:
            low, high = q["between"]
            return (f"{q['method']}'s {q['attribute']} strictly between "
                    f"{_number(low)} and {_number(high)} on every dataset")
        return (f"{q['method']}'s {q['attribute']} within "
                f"{_number(claim.get('tolerance', 0))} of the paper's on every "
                "dataset")

    def check(self, claim, results):
        q = claim["quantity"]
        paper = claim["paper"]
        between = q.get("between")
        if between is None and not isinstance(paper, dict):
            raise ValueError(f"claim {claim['id']!r}: a fitted claim without "
                             "'between' gives the paper's value per dataset "
                             "(paper: {dataset: value})")
        datasets, note = claim_datasets(claim, results)
        table = results.fitted
        me = results.method(q["method"])
        tolerance = float(claim.get("tolerance", 0))
        held, parts = 0, []
        for d in datasets:
            rows = table[(table["dataset"] == d) & (table["selector"] == me)
                         & (table["attribute"] == q["attribute"])]
            if rows.empty:
                raise NotCheckable(f"{q['method']} recorded no {q['attribute']} "
                                   f"on {d}")
            values = rows.sort_values("fold")["value"].tolist()
            ours = sum(values) / len(values)
            folds = (f" (folds: {', '.join(map(_number, values))})"
                     if len(values) > 1 else "")
            if between is not None:
                ok = between[0] < ours < between[1]
                parts.append(f"{d}: {_number(ours)}{folds}")
            else:
                if d not in paper:
                    raise NotCheckable(f"the paper gives no {q['attribute']} "
                                       f"for {d}")
                ok = abs(ours - float(paper[d])) <= tolerance
                parts.append(f"{d}: {_number(ours)}{folds} (paper "
                             f"{_number(float(paper[d]))})")
            held += ok
        return Outcome(held == len(datasets), "; ".join(parts), note, datasets)
