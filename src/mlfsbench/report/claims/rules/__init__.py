"""The claim rules, one class per module; :data:`RULES` maps each rule's
name (a claims file's ``rule:``) to its class.

A new rule is a :class:`~mlfsbench.report.claims._base.Rule` subclass in a
module of this package, listed in :data:`RULES` below (docs/claims.md).
"""

from mlfsbench.report.claims.rules.artificial import Artificial
from mlfsbench.report.claims.rules.average_rank import AverageRank
from mlfsbench.report.claims.rules.best_k import BestK
from mlfsbench.report.claims.rules.better import Better
from mlfsbench.report.claims.rules.concentration import Concentration
from mlfsbench.report.claims.rules.degradation import Degradation
from mlfsbench.report.claims.rules.earliest_best import EarliestBest
from mlfsbench.report.claims.rules.empty_subset import EmptySubset
from mlfsbench.report.claims.rules.fastest import Fastest
from mlfsbench.report.claims.rules.fitted import Fitted
from mlfsbench.report.claims.rules.friedman import Friedman
from mlfsbench.report.claims.rules.interior_best import InteriorBest
from mlfsbench.report.claims.rules.significance import Significance
from mlfsbench.report.claims.rules.similar import Similar
from mlfsbench.report.claims.rules.stable import Stable
from mlfsbench.report.claims.rules.trend import Trend
from mlfsbench.report.claims.rules.value import Value
from mlfsbench.report.claims.rules.winner import Winner

RULES = {cls.name: cls for cls in (
    Value, Winner, Better, Similar, AverageRank, Significance, Friedman,
    EmptySubset, Degradation, Concentration, Fastest, Artificial, Trend,
    EarliestBest, BestK, InteriorBest, Stable, Fitted)}
"""Rule name -> class."""


def rule(name: str):
    """An instance of the rule called ``name`` (ValueError when unknown)."""
    try:
        return RULES[name]()
    except KeyError:
        raise ValueError(f"unknown claim rule {name!r}; known: "
                         f"{', '.join(sorted(RULES))}") from None
