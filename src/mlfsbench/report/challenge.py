"""Challenge pages: a method of one's own against a study's methods.

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

The *paper's best* on a metric is the paper method (the all-features
baseline excepted) with the best average rank, the first in column order on
a tie. A challenger is *better than the paper's best* when its average rank
is lower, and *significantly* so when, in addition, its Holm-adjusted p
against that method is below the study's ``alpha``; the pages say "better
on average, not significant" otherwise (:func:`verdict_words`).

:func:`challenge` computes one experiment's numbers, :func:`write_challenge`
its page (``challenge/index.html``) and rows (``challenge.tsv``),
:func:`challenge_cd` the CD diagram of one metric with the challengers
highlighted, :func:`write_challenges` the page across studies (a section
per challenge, :func:`challenge_id`, most recent first).
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.evaluation.stats import control_z_tests, holm_adjust, round_table
from mlfsbench.io import BASELINE, format_table, read_table, write_text
from mlfsbench.report.cd_diagram import HIGHLIGHT_COLOUR, critical_difference_diagram
from mlfsbench.report.compare import cd_alt, cd_title, compare
from mlfsbench.report.names import (
    challenge_id,
    display_name,
    metric_label,
)
from mlfsbench.report.paper_tables import paper_table, to_html
from mlfsbench.report.render import (
    TABLE_STYLE,
    message_figure,
    natural_sorted,
    save_figure,
)

PathLike = str | os.PathLike

#: Columns of ``challenge.tsv``: a row per experiment, challenger, metric and
#: paper method (one row with a ``note`` when the metric has no test).
COLUMNS = ["experiment", "challenger", "metric", "n_features", "n_datasets",
           "n_methods", "alpha", "friedman_p", "iman_davenport_p",
           "challenger_rank", "place", "method", "method_rank", "paper_best",
           "z", "p", "p_holm", "significant", "wins", "ties", "losses", "note",
           "challenger_name"]
#: Columns of ``challenges.tsv``: a row per experiment, challenger and metric.
SUMMARY_COLUMNS = ["experiment", "challenger", "metric", "n_features",
                   "challenger_rank", "place", "n_methods", "paper_best",
                   "paper_best_rank", "p_holm", "alpha", "better", "significant",
                   "note"]

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


def wins_ties_losses(table: pd.DataFrame, challenger: str, method: str, *,
                     higher_is_better: bool, decimals: int | None
                     ) -> tuple[int, int, int]:
    """The challenger's wins, ties and losses against ``method`` over the
    table's datasets (rows); values rounded to ``decimals`` first
    (:func:`~mlfsbench.evaluation.stats.round_table`; ``None``: as given).

    >>> t = pd.DataFrame({"c": [0.1004, 0.2, 0.3], "m": [0.1, 0.3, 0.25]})
    >>> wins_ties_losses(t, "c", "m", higher_is_better=True, decimals=3)
    (1, 1, 1)
    """
    a = table[challenger].to_numpy(dtype=float)
    b = table[method].to_numpy(dtype=float)
    if decimals is not None:
        a, b = round_table(a, decimals), round_table(b, decimals)
    better = a > b if higher_is_better else a < b
    worse = a < b if higher_is_better else a > b
    return int(better.sum()), int((a == b).sum()), int(worse.sum())


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


def _decimals(options: Mapping[str, Any]) -> int | None:
    if options.get("n_features") == "mean-rank":
        return None
    return int(options["round"]) if options.get("round") is not None else 3


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
    rank, place, tests and W/T/L against the paper methods."""
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
    decimals = _decimals(options)
    ranks = result["average_ranks"]
    for c in mine:
        rows = pairwise(result, c, paper)
        wtl = [wins_ties_losses(table, c, m, higher_is_better=higher,
                                decimals=decimals) for m in paper]
        rows["wins"], rows["ties"], rows["losses"] = (list(x) for x in zip(*wtl,
                                                                           strict=True))
        best = paper_best(result, paper)
        rows["paper_best"] = rows["method"] == best
        rows["significant"] = rows["p_holm"] < result["alpha"]
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


# ----------------------------------------------------------------- figures
def challenge_cd(summary: pd.DataFrame, metric: str, challengers: Sequence[str],
                 options: Mapping[str, Any], png: PathLike,
                 labels: Mapping[str, str] | None = None,
                 entries: Mapping[str, Mapping[str, Any]] | None = None):
    """The CD diagram of one metric with every method of the experiment
    and the challengers highlighted (red): Bonferroni-Dunn against the
    (first) challenger, the control of the challenge's tests. Returns the
    Figure. ``entries``: the challengers' config entries
    (:func:`readable_labels`)."""
    labels = readable_labels(labels, entries)
    m = challenge_metric(summary, metric, challengers, options)
    result = m["result"]
    if "skipped" in result or not m["challengers"]:
        text = f"{metric}: {m.get('note', result.get('skipped'))}"
        fig = message_figure(text)
        save_figure(fig, png, alt=text)
        return fig
    control = result["bonferroni_dunn"]["control"]
    cd = result["bonferroni_dunn" if control else "nemenyi"]["cd"]
    ranks = {display_name(k, labels): r for k, r in result["average_ranks"].items()}
    shown = display_name(control, labels) if control else None
    longest = max(len(name) for name in ranks) + 7
    textspace = max(1.5, 0.085 * longest)
    fig = critical_difference_diagram(
        ranks, cd, control=shown, textspace=textspace, width=3.5 + 2 * textspace,
        title=cd_title(metric, result, shown, cd),
        highlight=[display_name(c, labels) for c in m["challengers"]],
        n_datasets=result["n_datasets"], alpha=result["alpha"])
    save_figure(fig, png, alt=cd_alt(metric, result, labels,
                                     highlight=m["challengers"]))
    return fig


# -------------------------------------------------------------------- pages
STYLE = TABLE_STYLE + (
    "td.challenger,th.challenger{background:#fde0e0;font-weight:bold}"
    "tr.yes td.sig{background:#d8f0d8}"
    ".note{color:#444;font-size:90%}"
    f".mark{{color:{HIGHLIGHT_COLOUR};font-weight:bold}}"
    "figure{margin:4px 0}figcaption{font-size:85%;color:#444}"
    "img{max-width:100%;height:auto}")


def _num(value, fmt: str = ".3g") -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return ""
    return format(value, fmt)


def _iman_davenport_p(test: dict) -> str:
    """The Iman-Davenport p-value; ``0 (F = ∞)`` when every dataset ranks
    the methods alike (``F_F`` is then infinite, stored as null or inf)."""
    F = test.get("F")
    if test["p_value"] == 0 and (F is None or F == float("inf")):
        return "0 (F = ∞)"
    return _num(test["p_value"])


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width'>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body><h2>{html.escape(title)}</h2>{body}</body></html>\n")


def _ranks_table(metrics: Sequence[Mapping[str, Any]], name) -> str:
    """A row per metric and challenger: its rank and place, the paper's best,
    the Holm p against the best, whether it is significant at alpha and the
    words of :func:`verdict_words`, Friedman and Iman-Davenport p; the note
    of :func:`too_few_datasets` below the table when it applies."""
    e = html.escape
    alphas = sorted({m["result"].get("alpha", 0.05) for m in metrics
                     if "note" not in m})
    alpha_text = " = " + ", ".join(str(a) for a in alphas) if alphas else ""
    head = ["metric", "challenger", "average rank", "place", "paper's best (rank)",
            "Holm p vs best", f"significant at α{alpha_text}",
            "challenger vs best", "Friedman p", "Iman-Davenport p", "N datasets"]
    rows, notes = [], []
    for m in metrics:
        metric = m["metric"]
        if "note" in m:
            for c in m["challengers"] or ["(none)"]:
                rows.append(f"<tr id='rank-{e(metric)}-{e(c)}' "
                            f"data-metric='{e(metric)}'><td>{e(metric_label(metric))}"
                            f"</td><td>{e(name(c))}</td><td colspan='{len(head) - 2}' "
                            f"class='note'>no test: {e(m['note'])}</td></tr>")
            continue
        res = m["result"]
        note = too_few_note(m.get("too_few"))
        if note and note not in notes:
            notes.append(note)
        for c, info in m["rows"].items():
            t = info["tests"]
            b = t[t["method"] == info["best"]].iloc[0]
            sig = bool(b["p_holm"] < res["alpha"])
            better = info["rank"] < b["method_rank"]
            cells = [e(metric_label(metric)), e(name(c)),
                     f"<span class='challenger-rank'>{info['rank']:.2f}</span>",
                     f"{info['place']} of {res['n_methods']}",
                     f"{e(name(info['best']))} ({b['method_rank']:.2f})",
                     _num(b["p_holm"]), "yes" if sig else "no",
                     e(verdict_words(info["rank"], b["method_rank"], b["p_holm"],
                                     res["alpha"])),
                     _num(res["friedman"]["p_value"]),
                     _iman_davenport_p(res["iman_davenport"]), str(res["n_datasets"])]
            rows.append(f"<tr id='rank-{e(metric)}-{e(c)}' data-metric='{e(metric)}' "
                        f"class='{'yes' if sig and better else ''}'>"
                        + "".join(f"<td{' class=sig' if i == 6 else ''}>{x}</td>"
                                  for i, x in enumerate(cells)) + "</tr>")
    return ("<div class='scroll'><table id='challenge-ranks'><thead><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>"
            + "".join(f"<p class='note too-few'>{e(n)}</p>" for n in notes))


def _tests_table(m: Mapping[str, Any], c: str, name) -> str:
    e = html.escape
    info = m["rows"][c]
    alpha = m["result"]["alpha"]
    head = ["paper method", "average rank", "z", "p", "Holm p",
            f"significant at α = {alpha}", "W/T/L"]
    rows = []
    for t in info["tests"].to_dict("records"):
        best = " (paper's best)" if t["paper_best"] else ""
        cells = [e(name(t["method"])) + best, f"{t['method_rank']:.2f}",
                 f"{t['z']:.3f}", _num(t["p"]), _num(t["p_holm"]),
                 "yes" if t["significant"] else "no",
                 f"{t['wins']}/{t['ties']}/{t['losses']}"]
        rows.append(f"<tr class='{'yes' if t['significant'] else ''}'>"
                    + "".join(f"<td{' class=sig' if i == 5 else ''}>{x}</td>"
                              for i, x in enumerate(cells)) + "</tr>")
    return (f"<div class='scroll'><table class='tests' id='tests-{e(m['metric'])}-"
            f"{e(c)}'><caption>{e(name(c))} (average rank {info['rank']:.2f}) "
            "against each paper method</caption><thead><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>")


def _runtime_table(runtime: pd.DataFrame | None, mine: Sequence[str],
                   name) -> str:
    """Mean seconds of each selector's fit per dataset, challengers marked."""
    if runtime is None or runtime.empty:
        return "<p class='note'>No selection times.</p>"
    e = html.escape
    wide = runtime.pivot_table(index="dataset", columns="selector", values="mean",
                               aggfunc="mean", sort=True)
    cols = natural_sorted(wide.columns)
    head = "".join(f"<th class='{'challenger' if c in mine else ''}'>{e(name(c))}"
                   "</th>" for c in cols)
    rows = []
    for d, r in wide.iterrows():
        rows.append(f"<tr><th>{e(str(d))}</th>" + "".join(
            f"<td class='{'challenger' if c in mine else ''}'>{_num(r[c], '.3g')}</td>"
            for c in cols) + "</tr>")
    return ("<div class='scroll'><table id='challenge-runtime'><caption>Seconds of "
            "each selector's fit per dataset (mean over folds)</caption><thead><tr>"
            f"<th>dataset</th>{head}</tr></thead><tbody>" + "".join(rows)
            + "</tbody></table></div>")


def readable_labels(labels: Mapping[str, str] | None,
                    entries: Mapping[str, Mapping[str, Any]] | None
                    ) -> dict[str, str]:
    """``labels`` with each challenger (``entries``: method id -> its config
    entry's ``name``, ``label``, ``params``) named by its label, else by its
    registry name when its id is the name and a hash of its parameters (the
    parameters told apart when two such challengers share a name).

    >>> readable_labels({"lrfs-a62c054b": "lrfs-a62c054b"},
    ...                 {"lrfs-a62c054b": {"name": "lrfs", "params": {"a": 1}}})
    {'lrfs-a62c054b': 'lrfs'}
    """
    out = dict(labels or {})
    named = {}
    for ident, entry in (entries or {}).items():
        if entry.get("label"):
            named[ident] = str(entry["label"])
        elif ident.startswith(f"{entry.get('name')}-") and len(
                ident) == len(str(entry.get("name"))) + 9:
            named[ident] = str(entry["name"])
        else:
            named[ident] = out.get(ident, ident)
    for ident, shown in named.items():
        twins = [i for i, s in named.items() if s == shown]
        params = (entries or {})[ident].get("params") or {}
        if len(twins) > 1 and params:
            shown = f"{shown} ({param_text(params)})"
        out[ident] = shown
    return out


def param_text(params: Mapping[str, Any] | None) -> str:
    """``name=value, ...`` in name order; "defaults" without any.

    >>> param_text({"beta": 2, "alpha": 0.1})
    'alpha=0.1, beta=2'
    """
    if not params:
        return "defaults"
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items()))


def _challenger_list(challengers: Sequence[str], name,
                     entries: Mapping[str, Mapping[str, Any]] | None) -> str:
    e = html.escape
    items = []
    for c in challengers:
        entry = (entries or {}).get(c) or {}
        what = ""
        if entry:
            what = (f" ({e(str(entry.get('name', c)))}; parameters: "
                    f"<span class='params'>{e(param_text(entry.get('params')))}"
                    "</span>)")
        ids = [i for i in entry.get("cache_ids") or [] if i != c]
        cache = f"cache id {', '.join(ids)}; id {c}" if ids else f"cache id {c}"
        items.append(f"<li><span class='mark'>{e(name(c))}</span>{what} "
                     f"<small class='cache-id'>{e(cache)}</small></li>")
    return "<ul class='challengers'>" + "".join(items) + "</ul>"


def datasets_text(run: Sequence[str], paper: Sequence[str] | None) -> str:
    """"datasets run: 2 of 8 (the paper's): a, b; not run here: ..."

    >>> datasets_text(["b", "a"], ["a", "b", "c"])
    "datasets run: 2 of 3 (the paper's): a, b; not run here: c"
    """
    paper = list(paper or sorted(run))
    ran = [d for d in paper if d in set(run)] + sorted(set(run) - set(paper))
    rest = [d for d in paper if d not in set(run)]
    text = f"datasets run: {len(ran)} of {len(paper)} (the paper's): {', '.join(ran)}"
    return text + (f"; not run here: {', '.join(rest)}" if rest else "")


def challenge_page(experiment: str, metrics: Sequence[Mapping[str, Any]],
                   challengers: Sequence[str], options: Mapping[str, Any], *,
                   summary: pd.DataFrame, runtime: pd.DataFrame | None = None,
                   cd_files: Mapping[str, str] | None = None,
                   labels: Mapping[str, str] | None = None,
                   order: Sequence[str] | None = None,
                   entries: Mapping[str, Mapping[str, Any]] | None = None,
                   paper_datasets: Sequence[str] | None = None,
                   summary_page: str | None = "../../summary.html",
                   curves: Mapping[str, str] | None = None) -> str:
    """The challenge page of one experiment (HTML text); ``cd_files``:
    metric -> the CD diagram's path relative to the page; ``entries``: the
    challengers' config entries (their names and parameters);
    ``paper_datasets``: the study's datasets (the challenge may run some);
    ``summary_page``: the summary page relative to this one (its section
    ``#summary-<experiment>`` is linked); ``curves``: dataset -> its
    metric-versus-K figure relative to the page."""
    e = html.escape
    shown = readable_labels(labels, entries)

    def name(method: str) -> str:
        return display_name(method, shown)

    decimals = _decimals(options)
    k = options.get("n_features", "mean")
    alpha = options.get("alpha", 0.05)
    point = {"mean": "the mean over the K of the grid",
             "mean-rank": "ranks averaged over the K of the grid",
             "selected": "each selector's own subset"}.get(k, f"K = {k}")
    run = sorted(str(d) for d in summary["dataset"].unique())
    links = []
    if summary_page:
        links.append(f"<a href='{e(summary_page)}#summary-{e(experiment)}'>the "
                     "study's section of the summary page</a>")
        links.append(f"<a href='{e(os.path.dirname(summary_page) or '.')}/"
                     "challenges.html'>every challenge</a>")
    links += ["<a href='#challenge-ranks'>ranks per metric</a>",
              *(f"<a href='#metric-{e(m['metric'])}'>{e(metric_label(m['metric']))}"
                "</a>" for m in metrics),
              *(f"<a href='{e(p)}'>CD diagram, {e(m)}</a>"
                for m, p in (cd_files or {}).items()),
              "<a href='#challenge-runtime'>selection time</a>",
              "<a href='challenge.tsv'>the rows (challenge.tsv)</a>"]
    links += [f"<a href='{e(p)}'>curves, {e(d)}</a>"
              for d, p in (curves or {}).items()]
    parts = [f"<nav class='links'>{' · '.join(links)}</nav>",
             "<p>Challenger(s):</p>", _challenger_list(challengers, name, entries),
             f"<p id='datasets'>Against the study's methods at its comparison point "
             f"({e(point)}), alpha = {alpha}; "
             f"<span class='datasets-run'>{e(datasets_text(run, paper_datasets))}"
             "</span>.</p>",
             "<p class='caption' id='how-to-read'>How to read: ranks over all "
             "methods; Demšar's rank z-test of the challenger (the control) "
             "against each paper method, Holm-corrected over those comparisons, "
             "and in the CD diagram Bonferroni–Dunn against the challenger. "
             "Challenger vs best: its average rank against the best-ranked paper "
             "method's (all features excepted), called significant only when "
             "that Holm p is below alpha. W/T/L: the challenger's wins/ties/"
             "losses against each paper method over the datasets; "
             f"{e(TIE_RULE.format(decimals=decimals if decimals is not None else 3))}"
             ".</p>", "<h3>Rank per metric</h3>", _ranks_table(metrics, name)]
    for m in metrics:
        metric = m["metric"]
        parts.append(f"<h3 id='metric-{e(metric)}'>{e(metric_label(metric))}</h3>")
        note = too_few_note(m.get("too_few"))
        path = (cd_files or {}).get(metric)
        if path:
            alt = cd_alt(metric, m["result"], shown,
                         highlight=m.get("challengers") or challengers)
            parts.append(f"<figure id='cd-{e(metric)}'><img alt='{e(alt)}' "
                         f"src='{e(path)}'><figcaption>Critical differences, "
                         "Bonferroni–Dunn against the challenger (in red)"
                         + (f"<br><span class='too-few'>{e(note)}</span>" if note
                            else "") + "</figcaption></figure>")
        elif note:
            parts.append(f"<p class='note too-few'>{e(note)}</p>")
        left_out = m["result"].get("datasets_without_all_methods")
        if left_out:
            parts.append("<p class='note'>Left out of the ranks (a method has no "
                         f"result there): {e(', '.join(map(str, left_out)))}.</p>")
        if "note" in m:
            parts.append(f"<p class='note'>No test: {e(m['note'])}</p>")
        else:
            parts += [_tests_table(m, c, name) for c in m["rows"]]
        try:
            table = paper_table(summary, metric, k, stats=m["result"],
                                labels={**shown, **{c: f"{name(c)} (challenger)"
                                                    for c in challengers}},
                                decimals=3 if decimals is None else decimals,
                                order=order)
        except ValueError as exc:
            parts.append(f"<p class='note'>No paper table: {e(str(exc))}</p>")
        else:
            table.wtl = False  # the tests tables' W/T/L, one convention
            parts.append(to_html(table, f"challenge-{experiment}"))
    parts += ["<h3>Selection time</h3>", _runtime_table(runtime, challengers, name)]
    return _page(f"Challenge: {experiment}", "".join(parts))


def write_challenge(summary_path: PathLike, runtime_path: PathLike | None,
                    experiment: str, challengers: Sequence[str],
                    options: Mapping[str, Any], metrics: Sequence[str],
                    html_out: PathLike, tsv_out: PathLike, *,
                    cd_files: Sequence[PathLike] = (),
                    labels: Mapping[str, str] | None = None,
                    order: Sequence[str] | None = None,
                    entries: Mapping[str, Mapping[str, Any]] | None = None,
                    paper_datasets: Sequence[str] | None = None,
                    summary_page: PathLike | None = None) -> pd.DataFrame:
    """The ``challenge`` rule: one experiment's page and rows. ``cd_files``,
    aligned with ``metrics``, are linked from the page (relative paths), as
    are ``summary_page`` (default ``results/summary.html``, two folders up
    from ``results/<experiment>/challenge/``) and each dataset's curves
    (``../plots/<dataset>.png``)."""
    summary = read_table(summary_path, dtype={"n_features": str})
    runtime = None
    if runtime_path is not None and os.path.exists(runtime_path):
        runtime = read_table(runtime_path)
    results = challenge(summary, challengers, options, metrics)
    rows = challenge_rows(experiment, results, options)
    shown = readable_labels(labels, entries)  # for the page across studies
    rows["challenger_name"] = [display_name(str(c), shown) for c in rows["challenger"]]
    write_text(tsv_out, format_table(rows))
    here = os.path.dirname(os.path.abspath(html_out))
    figures = {m: os.path.relpath(os.path.abspath(p), here)
               for m, p in zip(metrics, cd_files, strict=False)}
    if summary_page is None:
        summary_page = os.path.join(here, os.pardir, os.pardir, "summary.html")
    curves = {str(d): f"../plots/{d}.png"
              for d in sorted(summary["dataset"].astype(str).unique())}
    write_text(html_out, challenge_page(
        experiment, results, challengers, options, summary=summary,
        runtime=runtime, cd_files=figures, labels=labels, order=order,
        entries=entries, paper_datasets=paper_datasets,
        summary_page=os.path.relpath(os.path.abspath(summary_page), here).replace(
            os.sep, "/"), curves=curves))
    return rows


def write_challenges(experiments: Mapping[str, Sequence[str]],
                     tsv_paths: Mapping[str, PathLike], html_out: PathLike,
                     tsv_out: PathLike, *,
                     pages: Mapping[str, str] | None = None,
                     reasons: Mapping[str, str] | None = None,
                     labels: Mapping[str, str] | None = None,
                     history: Sequence[str] = ()) -> pd.DataFrame:
    """``results/challenges.html`` and ``.tsv``: every challenge, one section
    each (:func:`challenge_id`), most recent first. ``experiments``: the
    run's experiments (name -> its challenger ids, in config order), whose
    challenges come first, an experiment without a challenge's rows saying
    why (no challenger; ``reasons``: e.g. datasets it could not run);
    ``tsv_paths``: experiment -> its ``challenge.tsv``, the run's and those
    of earlier challenges; ``history``: the earlier challenges' ids, most
    recent first (the previous page's order: no file time decides it; one
    not listed follows in name order). Per challenge the sentence of
    :func:`verdict_sentence` per challenger and a row per study,
    challenger and metric; ``labels``: method id -> its readable name (the
    TSV keeps the ids)."""
    e = html.escape
    labels = dict(labels or {})

    def name(method: str) -> str:
        return display_name(method, labels)

    frames, ids = [], {}
    for exp, path in tsv_paths.items():
        frame = read_table(path, dtype={"n_features": str})
        if "challenger_name" in frame:  # earlier challenges' names
            for c, shown in zip(frame["challenger"], frame["challenger_name"],
                                strict=True):
                if pd.notna(c) and pd.notna(shown):
                    labels.setdefault(str(c), str(shown))
        mine = experiments.get(exp) or sorted(
            str(c) for c in frame["challenger"].dropna().unique())
        ids[exp] = challenge_id(exp, mine)
        frames.append(frame)
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=COLUMNS)
    cells = summary_rows(rows) if not rows.empty else pd.DataFrame(
        columns=SUMMARY_COLUMNS)
    cells["challenge"] = [ids.get(x, challenge_id(str(x), [])) for x in
                          cells["experiment"]]
    current = list(dict.fromkeys(challenge_id(x, c) for x, c in experiments.items()
                                 if c))
    known = set(ids.values()) - set(current)
    order = current + [c for c in dict.fromkeys(history) if c in known]
    order += sorted(known - set(order))
    cells["rank"] = cells["challenge"].map({c: i for i, c in enumerate(order)})
    cells = cells.sort_values("rank", kind="stable")[
        ["challenge", *SUMMARY_COLUMNS]].reset_index(drop=True)
    write_text(tsv_out, format_table(cells))
    head = ["study", "challenger", "metric", "K", "average rank", "place",
            "paper's best (rank)", "Holm p vs best", "challenger vs best", "note"]
    body = ["<p>Each challenge (a run of <code>mlfsbench challenge</code>, by its "
            "id), most recent first: each challenger against the methods of each "
            "study, on the study's datasets under its protocol and statistics. "
            "Challenger vs best: its average rank against the paper's best-"
            "ranked method's (all features excepted), called significant only "
            "when the Holm-corrected p (Demšar's rank z-test against the "
            "challenger) is below the study's alpha.</p>",
            "<nav class='links'>" + " · ".join(
                f"<a href='#challenge-{e(c)}'>{e(c)}</a>" for c in order)
            + "</nav>" if len(order) > 1 else ""]
    if not order:
        body.append("<p>No challenger has a test yet.</p>")
    sections = []
    for i, cid in enumerate(order):
        mine = cells[cells["challenge"] == cid]
        studies = list(dict.fromkeys(mine["experiment"]))
        if i == 0:  # the run's experiments without a challenge's rows
            studies += [x for x in experiments if x not in studies
                        and (not experiments[x] or x not in ids)]
        sentences = [f"<li class='verdict'><b>{e(name(str(c)))}</b>: "
                     f"{e(verdict_sentence(g))}.</li>"
                     for c, g in mine.groupby("challenger", sort=False)]
        trs = []
        for study in studies:
            link = e(study)
            if pages and study in pages:
                link = f"<a href='{e(pages[study])}'>{e(study)}</a>"
            own = mine[mine["experiment"] == study]
            if own.empty:
                why = (reasons or {}).get(study) or (
                    "no challenger in this experiment" if not experiments.get(study)
                    else "no result")
                trs.append(f"<tr id='study-{e(study)}'><td>{link}</td>"
                           f"<td colspan='{len(head) - 1}' class='note'>{e(why)}"
                           "</td></tr>")
                continue
            for r in own.to_dict("records"):
                if pd.isna(r.get("better")):
                    note = r.get("note")
                    cells_html = [link, e(name(str(r["challenger"]))),
                                  e(str(r["metric"])), e(str(r["n_features"])),
                                  "", "", "", "", "",
                                  "" if pd.isna(note) else e(str(note))]
                else:
                    p = float(r["p_holm"])
                    cells_html = [
                        link, e(name(str(r["challenger"]))), e(str(r["metric"])),
                        e(str(r["n_features"])), f"{float(r['challenger_rank']):.2f}",
                        f"{int(r['place'])} of {int(r['n_methods'])}",
                        f"{e(name(str(r['paper_best'])))} "
                        f"({float(r['paper_best_rank']):.2f})", _num(p),
                        e(verdict_words(float(r["challenger_rank"]),
                                        float(r["paper_best_rank"]), p,
                                        float(r["alpha"]))),
                        e((reasons or {}).get(study, ""))]
                trs.append(f"<tr id='study-{e(study)}' class='study'>"
                           + "".join(f"<td>{x}</td>" for x in cells_html) + "</tr>")
        sections.append(
            f"<section class='challenge' id='challenge-{e(cid)}'><h3>Challenge "
            f"{e(cid)}{' (this run)' if cid in current else ''}</h3>"
            + ("<ul>" + "".join(sentences) + "</ul>" if sentences else
               "<p>No challenger has a test yet.</p>")
            + "<div class='scroll'><table class='challenges'><thead><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(trs) + "</tbody></table></div></section>")
    body.append("<div id='challenges'>" + "".join(sections) + "</div>")
    write_text(html_out, _page("Challenges across studies", "".join(body)))
    return cells


__all__ = ["COLUMNS", "SUMMARY_COLUMNS", "challenge", "challenge_cd",
           "challenge_id", "challenge_metric", "challenge_page", "challenge_rows",
           "challenger_columns", "datasets_text", "pairwise", "paper_best",
           "param_text", "readable_labels", "summary_rows", "too_few_datasets",
           "verdict_sentence", "verdict_words", "wins_ties_losses",
           "write_challenge", "write_challenges"]
