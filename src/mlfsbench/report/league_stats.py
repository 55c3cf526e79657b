"""The numbers of the league: every method under every protocol.

A *protocol* is a study's way of comparing methods (its datasets, splits,
classifier, feature grid and comparison point); the league runs every
method under each (:mod:`mlfsbench.workflow.league`). Here, from each
protocol's results table (``summary.tsv``) and what the plan hands over
(plain data: the methods' names in the league, the study's own methods, the
comparison point):

- per protocol and metric, the comparison of all its methods
  (:func:`mlfsbench.report.compare.compare` at the study's comparison point,
  Nemenyi: every method against every other, no control), whose average
  ranks make the rows of :func:`rank_rows` (with each method's place and its
  *relative rank* ``(R - 1) / (k - 1)``: 0 first, 1 last, comparable across
  protocols with different numbers of methods);
- across protocols, :func:`kendall_rows`: Kendall's tau-b between two
  protocols' average ranks of the methods both ranked
  (:func:`scipy.stats.kendalltau`), with its two-sided p-value;
- :func:`versus_best`: each method against the protocol's best-ranked method
  (the all-features baseline excepted), by the Bayesian signed-rank test
  and Cliff's delta that the comparison holds for every pair
  (:mod:`mlfsbench.evaluation.pairwise`), oriented so that ``p_best`` and a
  positive delta favour the best;
- :func:`orderings`: for each pair of the papers' own methods (the studies'
  entries and the all-features baseline) ranked under at least two
  protocols, whether one has the better average rank under every protocol
  that ranks both (the ordering *holds*) or the order changes with the
  protocol.

A method is named across protocols by its name in the league (the registry
name of the study's first entry of that method, or of the selector the
league added); an entry only one protocol has (a study's further setting of
a method) keeps its own id and is compared within that protocol only.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.io import BASELINE
from mlfsbench.report.challenge_stats import paper_best
from mlfsbench.report.compare import compare

#: Columns of ``ranks.tsv``: a row per protocol, metric and method.
RANK_COLUMNS = ["metric", "protocol", "method", "method_id", "role",
                "average_rank", "place", "n_methods", "relative_rank",
                "n_datasets", "n_features"]
#: Columns of ``kendall.tsv``: a row per metric and pair of protocols.
KENDALL_COLUMNS = ["metric", "protocol_a", "protocol_b", "n_methods", "tau",
                   "p_value"]
#: Columns of ``versus_best.tsv``: a row per protocol, metric and method.
VERSUS_COLUMNS = ["metric", "protocol", "best", "method", "p_best", "p_rope",
                  "p_method", "rope", "cliffs_delta", "magnitude", "n_datasets"]
#: Columns of ``orderings.tsv``: a row per metric and pair of paper methods.
ORDER_COLUMNS = ["metric", "better", "worse", "n_protocols", "better_in",
                 "holds", "protocols"]

#: The roles of a method under a protocol (the ``role`` column).
ROLES = ("study", "league", "challenger", "baseline")


def protocol_comparison(summary: pd.DataFrame, metric: str,
                        options: Mapping[str, Any]) -> dict[str, Any]:
    """Every method against every other on one metric, at the protocol's
    comparison point (``options``: ``n_features``, ``alpha``): the result of
    :func:`mlfsbench.report.compare.compare` without a control (Nemenyi)."""
    return compare(summary, metric, n_features=options.get("n_features", "mean"),
                   alpha=options.get("alpha", 0.05))


def role(method_id: str, study: Sequence[str], challengers: Sequence[str]) -> str:
    """A method's role under a protocol (:data:`ROLES`).

    >>> role("all-features", [], []), role("x", ["x"], []), role("y", [], ["y"])
    ('baseline', 'study', 'challenger')
    """
    if method_id.startswith(BASELINE):
        return "baseline"
    if method_id in challengers:
        return "challenger"
    return "study" if method_id in study else "league"


def rank_rows(protocol: str, metric: str, result: Mapping[str, Any],
              names: Mapping[str, str], study: Sequence[str] = (),
              challengers: Sequence[str] = ()) -> pd.DataFrame:
    """The rows of ``ranks.tsv`` (:data:`RANK_COLUMNS`) of one protocol and
    metric: each method's league name (``names``: id -> name; the
    baseline's id stays), average rank, place (1 + the number of methods
    ranked strictly better) and relative rank ``(R - 1) / (k - 1)``; none
    when the comparison was skipped.

    >>> r = {"average_ranks": {"a-1": 1.5, "b": 1.5, "all-features": 3.0},
    ...      "n_datasets": 4, "n_features": 50}
    >>> rank_rows("p", "m", r, {"a-1": "a"}, study=["a-1"])[
    ...     ["method", "role", "place", "relative_rank"]].to_dict("list")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'method': ['a', 'b', 'all-features'], 'role': ['study', 'league', 'baseline'],
     'place': [1, 1, 3], 'relative_rank': [0.25, 0.25, 1.0]}
    """
    if "skipped" in result:
        return pd.DataFrame(columns=RANK_COLUMNS)
    ranks = {m: float(r) for m, r in result["average_ranks"].items()}
    k = len(ranks)
    rows = []
    for m, r in ranks.items():
        rows.append({"metric": metric, "protocol": protocol,
                     "method": names.get(m, m), "method_id": m,
                     "role": role(m, study, challengers), "average_rank": r,
                     "place": 1 + sum(other < r for other in ranks.values()),
                     "n_methods": k,
                     "relative_rank": (r - 1.0) / (k - 1) if k > 1 else 0.0,
                     "n_datasets": int(result["n_datasets"]),
                     "n_features": str(result.get("n_features"))})
    return pd.DataFrame(rows, columns=RANK_COLUMNS)


def kendall(first: Mapping[str, float], second: Mapping[str, float]
            ) -> tuple[int, float, float]:
    """Kendall's tau-b between two rankings of methods (name -> average
    rank, lower better) over the methods both have: ``(n, tau, p)``; tau
    and p are NaN with fewer than two common methods (or when one ranking
    ties them all).

    Two rankings of four methods that swap one adjacent pair: of the 6
    pairs, 5 are concordant and 1 discordant, tau = (5 - 1) / 6.

    >>> n, tau, p = kendall({"a": 1, "b": 2, "c": 3, "d": 4},
    ...                     {"a": 1, "b": 3, "c": 2, "d": 4, "e": 5})
    >>> n, round(tau, 4)
    (4, 0.6667)
    """
    from scipy.stats import kendalltau

    common = [m for m in first if m in second]
    if len(common) < 2:
        return len(common), float("nan"), float("nan")
    a = np.array([float(first[m]) for m in common])
    b = np.array([float(second[m]) for m in common])
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return len(common), float("nan"), float("nan")
    res = kendalltau(a, b)
    return len(common), float(res.statistic), float(res.pvalue)


def ranking(ranks: pd.DataFrame, metric: str, protocol: str) -> dict[str, float]:
    """One protocol's average ranks on one metric, by league name."""
    rows = ranks[(ranks["metric"] == metric) & (ranks["protocol"] == protocol)]
    return dict(zip(rows["method"], rows["average_rank"].astype(float), strict=True))


def kendall_rows(ranks: pd.DataFrame, metric: str,
                 protocols: Sequence[str]) -> pd.DataFrame:
    """The rows of ``kendall.tsv`` (:data:`KENDALL_COLUMNS`) of one metric:
    every pair of ``protocols`` that ranked it, in their order."""
    rows = []
    ranked = [p for p in protocols if not ranks[(ranks["metric"] == metric)
                                                & (ranks["protocol"] == p)].empty]
    for a, b in itertools.combinations(ranked, 2):
        n, tau, p = kendall(ranking(ranks, metric, a), ranking(ranks, metric, b))
        rows.append({"metric": metric, "protocol_a": a, "protocol_b": b,
                     "n_methods": n, "tau": tau, "p_value": p})
    return pd.DataFrame(rows, columns=KENDALL_COLUMNS)


def kendall_matrix(rows: pd.DataFrame, protocols: Sequence[str]) -> pd.DataFrame:
    """One metric's tau as a symmetric protocols x protocols table (1 on the
    diagonal, NaN where the pair has no tau)."""
    out = pd.DataFrame(np.nan, index=list(protocols), columns=list(protocols))
    for p in protocols:
        out.loc[p, p] = 1.0
    for row in rows.itertuples():
        out.loc[row.protocol_a, row.protocol_b] = row.tau
        out.loc[row.protocol_b, row.protocol_a] = row.tau
    return out


def best_method(result: Mapping[str, Any]) -> str | None:
    """The best-ranked method of a comparison, the all-features baseline
    excepted (the first in column order on a tie); None when skipped."""
    if "skipped" in result:
        return None
    return paper_best(result, list(result["average_ranks"]))


def versus_best(protocol: str, metric: str, result: Mapping[str, Any],
                names: Mapping[str, str]) -> pd.DataFrame:
    """The rows of ``versus_best.tsv`` (:data:`VERSUS_COLUMNS`): each
    method against the protocol's best (:func:`best_method`), the Bayesian
    signed-rank probabilities and Cliff's delta of the comparison's
    ``pairwise`` entries, turned so that the best comes first (``p_best``:
    the best better; a positive delta: the best better).

    >>> r = {"average_ranks": {"a": 2.0, "b": 1.0}, "n_datasets": 3,
    ...      "pairwise": [{"pair": ["a", "b"], "p_first": 0.1, "p_rope": 0.2,
    ...                    "p_second": 0.7, "rope": 0.01,
    ...                    "cliffs_delta": -0.5, "magnitude": "large"}]}
    >>> versus_best("p", "m", r, {})[["best", "method", "p_best", "p_method",
    ...                               "cliffs_delta"]].to_dict("records")
    [{'best': 'b', 'method': 'a', 'p_best': 0.7, 'p_method': 0.1, 'cliffs_delta': 0.5}]
    """
    best = best_method(result)
    rows: list[dict[str, Any]] = []
    if best is None:
        return rows
    for pair in result.get("pairwise", []):
        first, second = pair["pair"]
        if best not in (first, second):
            continue
        flip = second == best
        other = first if flip else second
        delta = -float(pair["cliffs_delta"]) if flip else float(pair["cliffs_delta"])
        rows.append({"metric": metric, "protocol": protocol,
                     "best": names.get(best, best), "method": names.get(other, other),
                     "p_best": pair["p_second" if flip else "p_first"],
                     "p_rope": pair["p_rope"],
                     "p_method": pair["p_first" if flip else "p_second"],
                     "rope": pair["rope"], "cliffs_delta": delta + 0.0,
                     "magnitude": pair["magnitude"],
                     "n_datasets": int(result["n_datasets"])})
    return pd.DataFrame(rows, columns=VERSUS_COLUMNS)


def orderings(ranks: pd.DataFrame, metric: str, paper: Sequence[str],
              protocols: Sequence[str]) -> pd.DataFrame:
    """The rows of ``orderings.tsv`` (:data:`ORDER_COLUMNS`) of one metric:
    each pair of ``paper`` methods (league names) that at least two of
    ``protocols`` rank; ``better`` is the method with the lower average rank
    under more of them (the first in ``paper``'s order on a draw),
    ``better_in`` under how many of the ``n_protocols`` that rank both, and
    ``holds`` whether that is every one of them (a tie of average ranks
    counts against). ``protocols``: the ones ranking both, ``;``-separated.

    >>> ranks = pd.DataFrame({"metric": "m", "protocol": ["p", "p", "q", "q",
    ...     "r", "r"], "method": ["a", "b", "a", "b", "a", "c"],
    ...     "average_rank": [1.0, 2.0, 1.5, 2.5, 2.0, 1.0]})
    >>> orderings(ranks, "m", ["a", "b", "c"], ["p", "q", "r"])[
    ...     ["better", "worse", "better_in", "n_protocols", "holds"]].to_dict("records")
    [{'better': 'a', 'worse': 'b', 'better_in': 2, 'n_protocols': 2, 'holds': True}]
    """
    by_protocol = {p: ranking(ranks, metric, p) for p in protocols}
    rows = []
    for a, b in itertools.combinations(list(dict.fromkeys(paper)), 2):
        both = [p for p in protocols if a in by_protocol[p] and b in by_protocol[p]]
        if len(both) < 2:
            continue
        a_wins = sum(by_protocol[p][a] < by_protocol[p][b] for p in both)
        b_wins = sum(by_protocol[p][b] < by_protocol[p][a] for p in both)
        better, worse, wins = (a, b, a_wins) if a_wins >= b_wins else (b, a, b_wins)
        rows.append({"metric": metric, "better": better, "worse": worse,
                     "n_protocols": len(both), "better_in": int(wins),
                     "holds": bool(wins == len(both)), "protocols": ";".join(both)})
    return pd.DataFrame(rows, columns=ORDER_COLUMNS)


def common_metrics(metrics: Mapping[str, Sequence[str]]) -> list[str]:
    """The metrics every protocol compares (protocol -> its metrics), in the
    first protocol's order: the ones whose rankings can be set side by side.

    >>> common_metrics({"p": ["accuracy", "hamming_loss", "ranking_loss"],
    ...                 "q": ["ranking_loss", "hamming_loss"]})
    ['hamming_loss', 'ranking_loss']
    """
    lists = list(metrics.values())
    if not lists:
        return []
    return [m for m in lists[0] if all(m in other for other in lists[1:])]
