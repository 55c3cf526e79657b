"""The verdict words, the verdict table's columns and the rule base class.

A claim rule is one class (:class:`Rule`): its ``name`` (what a claims file
writes as ``rule:``), the JSON-schema fragment a claim of that rule must
meet (``schema``), the kind of evidence on the report page that decides it
(``evidence``), its check on our results (:meth:`Rule.check`) and, where the
paper prints the numbers the claim is about, its check on the paper's own
printed tables (:meth:`Rule.printed`). :mod:`mlfsbench.report.claims.rules`
lists the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_CHECKABLE = "not checkable here"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, NOT_CHECKABLE)
WITHIN_NOISE = "within fold noise"
BEYOND_NOISE = "beyond fold noise"
NO_SPREAD = "no spread (n = 1)"

COLUMNS = ["claim", "statement", "source", "paper", "printed", "ours", "ours_sd", "n",
           "margin", "robust", "verdict", "note", "datasets", "how", "rule",
           "tolerance", "paper_value", "ours_value", "reading"]
"""The verdict table's columns, in order: the claim (``claim``, ``statement``,
``source``); ``paper``, the paper's value or outcome (a value claim's
tolerance labelled as such); ``printed``, what the paper's own printed table
gives on the datasets run here (blank without ``printed:``); ``ours``, our
result (a value: the mean over folds with its s.d.); ``ours_sd`` and ``n``,
the s.d. over folds and the number of folds of a value claim's cell;
``margin``, how far a value claim's result is inside (+) or outside (-) its
tolerance; ``robust``, ``within fold noise`` when the comparison that decided
the verdict is within its 95 % interval over folds
(:mod:`mlfsbench.report.claims.noise`), ``beyond fold noise`` otherwise,
``no spread (n = 1)`` on one split, or ``weak claim: <why>`` for a claim
whose outcome is nearly guaranteed; ``verdict``; ``note``; ``datasets``, the
datasets the verdict was judged on (comma-separated: a reading judged on
other datasets did not judge the same claim); ``how``, the rule and its
settings in words; ``rule``, the claim's rule and ``tolerance``, its
tolerance (blank without one), as the claims file gives them after the
favoured readings' overrides; ``paper_value``, the paper's number when the
claim's ``paper`` is one number (blank otherwise) and ``ours_value``, our
number where the rule reduces our result to one (a value claim's mean over
folds; blank otherwise); ``reading``, how the claims file formalises the
paper's sentence (its ``reading:``). The last five are newer: older tables
lack them."""


class NotCheckable(Exception):
    """A claim that this run cannot check; the message is the reason."""


@dataclass
class Outcome:
    """What a rule found: the verdict (``ok``), our result in words
    (``ours``), a note, the datasets judged and any extra columns
    (``robust``, ``margin``, ``ours_sd``, ``n``)."""

    ok: bool
    ours: str
    note: str = ""
    datasets: Sequence[str] = ()
    extra: dict[str, str] = field(default_factory=dict)


class Rule:
    """A kind of claim. Subclasses set ``name`` and implement :meth:`check`.

    ``schema`` is a JSON-schema fragment that every claim of the rule must
    meet (checked when the claims file is loaded, the error naming the file
    and the claim); ``evidence`` names what decides the claim on the report
    page: ``table`` (the regenerated paper table's rows), ``cd`` (the
    critical-difference diagram of its metric), ``curves`` (the curves
    against the number of features) or ``none``; ``needs_datasets`` the
    fewest datasets it compares.
    """

    name: ClassVar[str] = ""
    evidence: ClassVar[str] = "table"
    schema: ClassVar[dict[str, Any]] = {}
    #: The fewest datasets the rule compares (a rank test over the datasets:
    #: 2); on fewer, its claims are not checkable here (:func:`enough_datasets`).
    needs_datasets: ClassVar[int] = 1

    def check(self, claim: Mapping[str, Any], results) -> Outcome:
        raise NotImplementedError

    def printed(self, claim: Mapping[str, Any], datasets: Sequence[str],
                tables: Mapping[str, Any]) -> tuple[bool, str, str]:
        """The claim computed from the paper's own printed tables
        (metric -> :class:`~mlfsbench.evaluation.printed.PrintedTable`) on
        ``datasets``: ``(holds, text, the part of the text that fails)``
        (:func:`printed_outcome`). The default: this rule has no
        printed check."""
        raise ValueError(f"claim {claim['id']}: no printed check for a "
                         f"{self.name} claim")

    def describe(self, claim: Mapping[str, Any]) -> str:
        """How the claim is checked, in words (the ``how`` column)."""
        q = claim.get("quantity") or {}
        k = q.get("n_features")
        parts = [self.name]
        if k is not None:
            parts.append(f"at {k_words(k)}")
        if "min_fraction" in claim:
            parts.append(f"in at least {float(claim['min_fraction']):.3g} of the cells")
        if "max_fraction" in claim:
            parts.append(f"in at most {float(claim['max_fraction']):.3g} of them")
        return ", ".join(parts)


def scope_words(claim: Mapping[str, Any]) -> str:
    """The tail of a rule's ``how`` words: the claim's K range and share.

    >>> scope_words({"quantity": {"k_range": [10, 60]}, "min_fraction": 0.5})
    ', K from 10 to 60, in at least 0.5 of the cells'
    """
    q = claim.get("quantity") or {}
    text = ""
    if q.get("k_range"):
        text += f", K from {q['k_range'][0]} to {q['k_range'][1]}"
    if "min_fraction" in claim:
        text += f", in at least {float(claim['min_fraction']):.3g} of the cells"
    return text


def k_words(k: Any) -> str:
    """A claim's ``n_features`` in words.

    >>> k_words("best"), k_words(50)
    ('the best K (chosen on the other folds)', 'K = 50')
    """
    return {"all": "all features", "selected": "the selected subset",
            "mean": "the mean over K", "best": "the best K (chosen on the other folds)",
            "mean-rank": "the rank averaged over K",
            "every": "every K"}.get(str(k), f"K = {k}")


def metrics_of(q: Mapping[str, Any]) -> list[str]:
    """The metric(s) of a claim's quantity, as a list."""
    m: Any = q.get("metric")
    return list(m) if isinstance(m, list) else [m]


def fmt(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def better(a: float, b: float, greater: bool) -> bool:
    return a > b if greater else a < b


def share_ok(held: int, total: int, need: float, most: float = 1.0) -> bool:
    """Whether ``held`` of ``total`` is a share in ``need``..``most`` (a
    claim's ``min_fraction`` and ``max_fraction``: "in half of the
    experiments" bounds it on both sides).

    >>> share_ok(10, 20, 0.3, 0.7), share_ok(15, 20, 0.3, 0.7), share_ok(0, 0, 0)
    (True, False, False)
    """
    if total <= 0:
        return False
    share = held / total
    return need - 1e-12 <= share <= most + 1e-12


def fraction_bounds(claim: Mapping[str, Any]) -> tuple[float, float]:
    """A claim's ``(min_fraction, max_fraction)``, defaults 1 and 1."""
    return float(claim.get("min_fraction", 1.0)), float(claim.get("max_fraction", 1.0))


def claim_methods(q: Mapping[str, Any]) -> list[str]:
    """Every method a claim's quantity names."""
    if "methods" in q:
        return list(q["methods"])
    if "best" in q:
        return [q["best"]]
    if "method" in q:
        return [q["method"]] + list(q.get("others", []))
    return list(q.get("better", [])) + list(q.get("worse", []))


def claim_datasets(claim: Mapping[str, Any], results) -> tuple[list[str], str]:
    """The claim's datasets that this run has, and a note on the others;
    NotCheckable when it has none of them."""
    q = claim.get("quantity", {})
    wanted = q.get("datasets") or ([q["dataset"]] if "dataset" in q else None)
    if wanted is None:
        return results.datasets, ""
    have = [d for d in wanted if d in results.datasets]
    missing = [d for d in wanted if d not in results.datasets]
    unavailable = claim.get("_unavailable", {})
    if not have:
        reasons = "; ".join(f"{d}: {unavailable.get(d, 'not run in this experiment')}"
                            for d in missing)
        raise NotCheckable(f"no dataset of the claim is run here ({reasons})")
    note = ""
    if missing:
        note = (f"on {len(have)} of the paper's {len(wanted)} datasets "
                f"(without {', '.join(missing)})")
    return have, note


def enough_datasets(rule: Rule, datasets: Sequence[str]) -> None:
    """NotCheckable when ``datasets`` (a claim's datasets run here) are
    fewer than ``rule`` compares.

    >>> class Ranks(Rule):
    ...     needs_datasets = 2
    >>> try:
    ...     enough_datasets(Ranks(), ["yeast"])
    ... except NotCheckable as exc:
    ...     print(exc)
    needs at least 2 datasets, this run has 1
    """
    if len(datasets) < rule.needs_datasets:
        raise NotCheckable(f"needs at least {rule.needs_datasets} datasets, this run "
                           f"has {len(datasets)}")


def join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def printed_table(claim: Mapping[str, Any], tables: Mapping[str, Any], metric: str):
    """The claim's printed table holding ``metric`` (ValueError otherwise)."""
    if metric not in tables:
        raise ValueError(f"claim {claim['id']}: none of its printed tables "
                         f"{[t.id for t in tables.values()]} holds {metric}")
    return tables[metric]


def printed_outcome(parts: Sequence[tuple[bool, str]]) -> tuple[bool, str, str]:
    """``(all hold, every part's text, the failing parts' text)`` of a
    printed check made of parts (one per metric)."""
    return (all(ok for ok, _ in parts), "; ".join(t for _, t in parts),
            "; ".join(t for ok, t in parts if not ok))
