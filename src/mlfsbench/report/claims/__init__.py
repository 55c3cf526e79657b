"""A paper's checkable claims, evaluated on the run's own results.

A *claims file* (``config/papers/<study>.claims.yaml``, schema
``mlfsbench/report/schemas/claims.schema.yaml``, package data) lists what a
paper states that its experiment can check: the paper's sentence
(``quote``) and where it is stated (``source``), how it is formalised
(``reading``), the quantity, the paper's value or ordering and a rule
(:mod:`.rules`: one class per rule). :func:`evaluate_claims` reads an
experiment's result tables (:class:`Results`) and gives each claim a
verdict:

``reproduced``
    the rule holds on our results;
``not reproduced``
    it does not (the ``ours`` column has our number beside the paper's);
``not checkable here``
    with the reason: a dataset that is not public, a method or metric the
    run does not have, a claim with no result table to read, or a claim
    that the paper's own printed numbers fail on the datasets run here
    (``printed:``).

Each row says how far its verdict stands from the noise of the folds
(:mod:`.noise`: the uncertainty of the comparison that decided it) and the
datasets it was judged on. A claims file may declare *scoring readings*
(:mod:`.evaluate`): alternative formalisations or scoring rules judged from
the same results.
"""

from mlfsbench.report.claims import noise  # noqa: F401  (re-exported)
from mlfsbench.report.claims._base import (
    BEYOND_NOISE,
    COLUMNS,
    NO_SPREAD,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    VERDICTS,
    WITHIN_NOISE,
    NotCheckable,
    Outcome,
    Rule,
    metrics_of,
)
from mlfsbench.report.claims.evaluate import (
    CLAIMS_SCHEMA,
    SCORING_COLUMNS,
    claims_for,
    evaluate_claim,
    evaluate_claims,
    load_claims,
    read_verdicts,
    results_for,
    scoring_variants,
    verdict_html,
    write_claims,
)
from mlfsbench.report.claims.results import Results
from mlfsbench.report.claims.rules import RULES, rule

__all__ = ["BEYOND_NOISE", "CLAIMS_SCHEMA", "COLUMNS", "NOT_CHECKABLE",
           "NOT_REPRODUCED", "NO_SPREAD", "REPRODUCED", "RULES", "SCORING_COLUMNS",
           "VERDICTS", "WITHIN_NOISE", "NotCheckable", "Outcome", "Results", "Rule",
           "claims_for", "evaluate_claim", "evaluate_claims", "load_claims",
           "metrics_of", "read_verdicts", "results_for", "rule", "scoring_variants",
           "verdict_html", "write_claims"]
