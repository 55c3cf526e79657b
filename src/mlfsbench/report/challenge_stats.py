"""The numbers of a challenge: a method of one's own against a study's methods.

An experiment's entries flagged ``challenger: true`` (selectors or
classifiers) are *challengers*; every other method the study's statistics
compare (the all-features baseline too, when the study's comparison has it)
is a *paper method*. For each metric the study compares, at the study's own
comparison point (its ``stats`` options: ``n_features`` a K of the grid,
``"mean"`` over the grid, ``"mean-rank"`` or ``"selected"``, as the ``stats``
rule uses them, :func:`mlfsbench.report.compare.compare`):

- the average ranks of all methods, challengers and paper methods together,
  with the Friedman and Iman-Davenport p-values (Demšar 2006, Sec. 3.2.2):
  the ``stats`` rule's main ranks, of the unrounded means;
- each challenger against each paper method by the rank statistic
  ``z = (R_c - R_j) / sqrt(k (k + 1) / (6 N))`` with a two-sided normal
  p-value, Holm's step-down correction over the challenger's comparisons with
  the paper methods (Demšar 2006, Sec. 3.2.2;
  :func:`mlfsbench.evaluation.stats.control_z_tests`,
  :func:`~mlfsbench.evaluation.stats.holm_adjust`): the challenger is the
  control, of the CD diagram too (Bonferroni-Dunn against the first
  challenger), whatever the study's own control; when N is too small for
  any difference to be significant, :func:`too_few_datasets` says so;
- the challenger's wins, ties and losses per dataset against each paper
  method (the one W/T/L convention of the pages). **Tie rule:**
  the means over the folds are equal once rounded half away from zero to the
  printed precision (the study's ``stats.round``, else 3 decimals: the
  regenerated paper tables print 3), as a reader of the printed table would
  see them; with ``"mean-rank"`` the compared values are ranks averaged over
  the K, which tie when equal. Printed precision rather than fold noise: it
  is the rule of the papers' own W/T/L rows and of
  :mod:`mlfsbench.report.paper_tables`, and it needs no per-fold results the
  tables do not keep.

Beside the ranks, each challenger against each paper method by the
Bayesian signed-rank test over the datasets and Cliff's delta
(:func:`bayesian_rows`, the ``challenge_pairwise`` rule's
``challenge/pairwise.tsv``; :func:`mlfsbench.evaluation.pairwise.pairwise_against`):
the columns of the study's ``tables/pairwise.tsv``, the challenger first, on
the table the ranks compare, with the study's rope
(:func:`mlfsbench.report.compare.rope_of`).

The *paper's best* on a metric is the paper method (the all-features
baseline excepted) with the best average rank, the first in column order on
a tie. A challenger is *better than the paper's best* when its average rank
is lower, and *significantly* so when, in addition, its Holm-adjusted p
against that method is below the study's ``alpha``; the pages say "better
on average, not significant" otherwise (:func:`verdict_words`).

:func:`challenge` computes one experiment's numbers, :func:`challenge_rows`
its rows of ``challenge.tsv`` and :func:`summary_rows` those of
``challenges.tsv``; the pages that show them are
:mod:`mlfsbench.report.challenge`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.evaluation.pairwise import pairwise_against
from mlfsbench.evaluation.stats import (
    control_z_tests,
    holm_adjust,
    wins_ties_losses,
)
from mlfsbench.io import BASELINE
from mlfsbench.report.compare import against_control, compare, rope_of, tie_decimals

#: Columns of ``challenge.tsv``: a row per experiment, challenger, metric and
#: paper method (one row with a ``note`` when the metric has no test).
COLUMNS = ["experiment", "challenger", "metric", "n_features", "n_datasets",
           "n_methods", "alpha", "friedman_p", "iman_davenport_p",
           "challenger_rank", "place", "method", "method_rank", "paper_best",
           "z", "p", "p_holm", "significant", "wins", "ties", "losses", "note",
           "challenger_name", "control", "method_wins", "method_ties",
           "method_losses"]
#: Columns of ``challenges.tsv``: a row per experiment, challenger and metric.
SUMMARY_COLUMNS = ["experiment", "challenger", "metric", "n_features",
                   "challenger_rank", "place", "n_methods", "paper_best",
                   "paper_best_rank", "p_holm", "alpha", "better", "significant",
                   "note"]
#: Columns of a challenge's ``pairwise.tsv``: those of the study's
#: ``tables/pairwise.tsv`` (``first`` the challenger, ``second`` a paper
#: method; ``p_first``: the challenger better), its experiment, and a note
#: when the metric has no test.
PAIRWISE_COLUMNS = ["experiment", "metric", "n_features", "first", "second",
                    "p_first", "p_rope", "p_second", "rope", "cliffs_delta",
                    "magnitude", "n_datasets", "note"]

TIE_RULE = ("a tie is an equal mean over the folds once rounded to the printed "
            "precision ({decimals} decimals, half away from zero); with ranks "
            "averaged over the K, an equal average rank")


def challenger_columns(methods: Sequence[str], challengers: Sequence[str]
                       ) -> list[str]:
    """The compared methods that are challengers: a method is a selector
    id, or ``selector|classifier`` when the experiment has several
    classifiers; either part may be a challenger's id.

    >>> challenger_columns(["a|c", "b|c", "a|d", "all-features|c"], ["d"])
    ['a|d']
    """
    mine = set(challengers)
    return [m for m in methods if mine & set(m.split("|"))]


def _is_baseline(method: str) -> bool:
    return method.split("|")[0].startswith(BASELINE)


def pairwise(result: Mapping[str, Any], challenger: str,
             paper: Sequence[str]) -> pd.DataFrame:
    """The challenger against each paper method by average rank (module
    docstring): ``method``, ``method_rank``, ``z``, ``p``, ``p_holm`` (Holm
    over these comparisons), in the order of ``paper``.

    ``result`` is a comparison of :func:`mlfsbench.report.compare.compare`
    (its ``methods``, ``average_ranks`` and ``n_datasets``).
    """
    methods = list(result["methods"])
    ranks = [result["average_ranks"][m] for m in methods]
    z, p = control_z_tests(ranks, result["n_datasets"], methods.index(challenger))
    idx = [methods.index(m) for m in paper]
    return pd.DataFrame({"method": list(paper),
                         "method_rank": [ranks[i] for i in idx],
                         "z": z[idx], "p": p[idx], "p_holm": holm_adjust(p[idx])})


def paper_best(result: Mapping[str, Any], paper: Sequence[str]) -> str | None:
    """The paper method with the best average rank, the all-features
    baseline excepted (the first in ``paper``'s order on a tie)."""
    ranks = result["average_ranks"]
    candidates = [m for m in paper if not _is_baseline(m)] or list(paper)
    if not candidates:
        return None
    return min(candidates, key=lambda m: (ranks[m], candidates.index(m)))


def too_few_datasets(n_methods: int, n_datasets: int, alpha: float
                     ) -> dict[str, float] | None:
    """Whether ``n_datasets`` are too few for any difference to be
    significant at ``alpha`` among ``n_methods``: the largest possible rank
    gap is ``k - 1`` (one method first on every dataset, the other last), so
    the smallest possible Holm p of a challenger's ``k - 1`` comparisons is
    ``min(1, (k - 1) 2 (1 - Phi((k - 1) / sqrt(k (k + 1) / (6 N)))))``, and
    the Bonferroni-Dunn CD then exceeds ``k - 1``. Returns that p, the CD
    and ``k - 1`` when no difference can be significant, else None.

    >>> too_few_datasets(4, 2, 0.05)["p_min"].round(3)
    np.float64(0.06)
    >>> too_few_datasets(4, 10, 0.05) is None
    True
    """
    from scipy.stats import norm

    from mlfsbench.evaluation.stats import critical_difference

    k, n = int(n_methods), int(n_datasets)
    if k < 2 or n < 1:
        return None
    gap = k - 1
    z = gap / np.sqrt(k * (k + 1) / (6.0 * n))
    p_min = min(1.0, gap * 2.0 * float(norm.sf(z)))
    if p_min < alpha:
        return None
    return {"p_min": np.float64(p_min), "gap": gap, "alpha": alpha,
            "n_datasets": n, "n_methods": k,
            "cd": critical_difference(k, n, alpha, test="bonferroni-dunn")}


def too_few_note(info: Mapping[str, Any] | None) -> str:
    """The sentence of :func:`too_few_datasets` (empty when None)."""
    if not info:
        return ""
    return (f"With N = {info['n_datasets']} datasets and k = {info['n_methods']} "
            f"methods no difference can be significant at α = {info['alpha']}: "
            f"even the largest possible rank gap, k − 1 = {info['gap']} (one "
            "method first on every dataset, the other last), gives a Holm p of "
            f"{info['p_min']:.3g}, and the Bonferroni–Dunn CD ({info['cd']:.3f}) "
            f"exceeds k − 1 = {info['gap']}.")


def verdict_words(rank: float, best_rank: float, p_holm: float,
                  alpha: float) -> str:
    """The challenger against the paper's best in words that never
    contradict the test.

    >>> verdict_words(1.5, 2.0, 1.0, 0.05)
    'better on average, not significant'
    >>> verdict_words(1.0, 3.0, 0.01, 0.05)
    'significantly better'
    >>> verdict_words(3.0, 2.0, 0.5, 0.05)
    'worse on average, not significant'
    """
    sig = p_holm < alpha
    if rank < best_rank:
        return "significantly better" if sig else "better on average, not significant"
    if rank > best_rank:
        return "significantly worse" if sig else "worse on average, not significant"
    return "equal average rank"


def challenge_metric(summary: pd.DataFrame, metric: str,
                     challengers: Sequence[str],
                     options: Mapping[str, Any]) -> dict[str, Any]:
    """One metric of one experiment: the comparison of all methods
    (:func:`mlfsbench.report.compare.compare` under the study's ``options``:
    ``n_features``, ``alpha``, ``control``) and, per challenger column, its
    rank, place, tests and W/T/L against the paper methods; with the
    study's ``control`` among the paper methods, each paper method's W/T/L
    against it too (``method_wins`` ... of ``challenge.tsv``, by the same
    tie rule: the leaderboard's counts)."""
    k = options.get("n_features", "mean")
    alpha = options.get("alpha", 0.05)
    result = compare(summary, metric, n_features=k, control=options.get("control"),
                     alpha=alpha)
    table = pd.DataFrame(result["table"])
    mine = challenger_columns(list(table.columns), challengers)
    if mine and "skipped" not in result:
        # the challenger is the control of the challenge's test and diagram
        result = compare(summary, metric, n_features=k, control=mine[0],
                         alpha=alpha)
    paper = [m for m in table.columns if m not in mine]
    out: dict[str, Any] = {"metric": metric, "result": result,
                           "challengers": mine, "paper": paper, "rows": {}}
    if not mine:
        out["note"] = "no result of the challenger on this metric"
        return out
    if "skipped" in result:
        out["note"] = result["skipped"]
        return out
    if not paper:
        out["note"] = "no paper method to compare with"
        return out
    out["too_few"] = too_few_datasets(result["n_methods"], result["n_datasets"],
                                      result["alpha"])
    higher = bool(result["higher_is_better"])
    decimals = tie_decimals(options)
    ranks = result["average_ranks"]
    control = options.get("control")
    study = (against_control(table, control, higher=higher, decimals=decimals)
             if isinstance(control, str) and control in paper else None)
    for c in mine:
        rows = pairwise(result, c, paper)
        wtl = [wins_ties_losses(table, c, m, higher_is_better=higher,
                                decimals=decimals) for m in paper]
        rows["wins"], rows["ties"], rows["losses"] = (list(x) for x in zip(*wtl,
                                                                           strict=True))
        best = paper_best(result, paper)
        rows["paper_best"] = rows["method"] == best
        rows["significant"] = rows["p_holm"] < result["alpha"]
        if study is not None:
            # the paper methods against the study's proposed method (the
            # challenger's own: its row against the control)
            rows["control"] = control
            for what in ("wins", "ties", "losses"):
                rows[f"method_{what}"] = [study[what].get(m) for m in paper]
        place = 1 + sum(r < ranks[c] for m, r in ranks.items() if m != c)
        out["rows"][c] = {"rank": ranks[c], "place": place, "best": best,
                          "tests": rows}
    return out


def challenge(summary: pd.DataFrame, challengers: Sequence[str],
              options: Mapping[str, Any], metrics: Sequence[str]
              ) -> list[dict[str, Any]]:
    """:func:`challenge_metric` of every compared metric, in order."""
    return [challenge_metric(summary, m, challengers, options) for m in metrics]


def challenge_rows(experiment: str, metrics: Sequence[Mapping[str, Any]],
                   options: Mapping[str, Any]) -> pd.DataFrame:
    """The rows of ``challenge.tsv`` (:data:`COLUMNS`) of one experiment."""
    rows = []
    for m in metrics:
        res = m["result"]
        base = {"experiment": experiment, "metric": m["metric"],
                "n_features": str(options.get("n_features", "mean")),
                "alpha": res.get("alpha", options.get("alpha", 0.05))}
        if "note" in m:
            for c in m["challengers"] or ["(none)"]:
                rows.append({**base, "challenger": c, "note": m["note"]})
            continue
        base.update(n_datasets=res["n_datasets"], n_methods=res["n_methods"],
                    friedman_p=res["friedman"]["p_value"],
                    iman_davenport_p=res["iman_davenport"]["p_value"])
        for c, info in m["rows"].items():
            for t in info["tests"].to_dict("records"):
                rows.append({**base, "challenger": c, "challenger_rank": info["rank"],
                             "place": info["place"], **t})
    return pd.DataFrame(rows, columns=COLUMNS)


def bayesian_rows(experiment: str, metrics: Sequence[Mapping[str, Any]]
                  ) -> pd.DataFrame:
    """The rows of a challenge's ``pairwise.tsv`` (:data:`PAIRWISE_COLUMNS`):
    per metric of :func:`challenge`, each challenger against each paper
    method, in the paper's column order, on the datasets its ranks compare;
    a metric without a test gets one row per challenger with its note."""
    rows = []
    for m in metrics:
        res = m["result"]
        base = {"experiment": experiment, "metric": m["metric"],
                "n_features": str(res.get("n_features", "mean"))}
        if "note" in m:
            for c in m["challengers"] or ["(none)"]:
                rows.append({**base, "first": c, "note": m["note"]})
            continue
        table = pd.DataFrame(res["table"])
        for c in m["rows"]:
            names = [c, *m["paper"]]
            for pair in pairwise_against(table[names].to_numpy(dtype=float), names,
                                         c, higher_is_better=res["higher_is_better"],
                                         rope=rope_of(res["n_features"])):
                rows.append({**base, "first": c, "second": pair["pair"][1],
                             **{k: pair[k] for k in PAIRWISE_COLUMNS if k in pair},
                             "n_datasets": res["n_datasets"]})
    return pd.DataFrame(rows, columns=PAIRWISE_COLUMNS)


def summary_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per experiment, challenger and metric (:data:`SUMMARY_COLUMNS`)
    from ``challenge.tsv`` rows: the challenger's rank and place, the paper's
    best and its rank, the Holm p against it, ``better`` (lower average rank)
    and ``significant`` (better and Holm p < alpha)."""
    out = []
    for (e, c, metric), g in rows.groupby(["experiment", "challenger", "metric"],
                                          sort=False):
        first = g.iloc[0]
        row = {"experiment": e, "challenger": c, "metric": metric,
               "n_features": first["n_features"]}
        best = g[g["paper_best"].astype(str).isin(["True", "true", "1"])]
        if best.empty:
            row["note"] = first["note"] if pd.notna(first["note"]) else "no test"
            out.append(row)
            continue
        b = best.iloc[0]
        better = float(first["challenger_rank"]) < float(b["method_rank"])
        row.update(challenger_rank=first["challenger_rank"], place=first["place"],
                   n_methods=first["n_methods"], paper_best=b["method"],
                   paper_best_rank=b["method_rank"], p_holm=b["p_holm"],
                   alpha=b["alpha"], better=better,
                   significant=better and float(b["p_holm"]) < float(b["alpha"]))
        out.append(row)
    return pd.DataFrame(out, columns=SUMMARY_COLUMNS)


def verdict_sentence(cells: pd.DataFrame) -> str:
    """"better than the paper's best in N of M study × metric cells,
    significantly in K" over the cells that have a test.

    >>> cells = pd.DataFrame({"better": [True, False, True, None],
    ...                       "significant": [True, False, False, None]})
    >>> verdict_sentence(cells)
    "better than the paper's best in 2 of 3 study × metric cells, significantly in 1"
    """
    tested = cells[cells["better"].notna()]
    n = int(tested["better"].astype(bool).sum())
    k = int(tested["significant"].astype(bool).sum())
    return (f"better than the paper's best in {n} of {len(tested)} study × metric "
            f"cells, significantly in {k}")

