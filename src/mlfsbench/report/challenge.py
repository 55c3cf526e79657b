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
  :func:`~mlfsbench.evaluation.stats.holm_adjust`);
- wins, ties and losses per dataset against each paper method. **Tie rule:**
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
against that method is below the study's ``alpha``.

:func:`challenge` computes one experiment's numbers, :func:`write_challenge`
its page (``challenge/index.html``) and rows (``challenge.tsv``),
:func:`challenge_cd` the CD diagram of one metric with the challengers
highlighted, :func:`write_challenges` the page across studies.
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
from mlfsbench.report.names import display_name, metric_label
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
           "z", "p", "p_holm", "significant", "wins", "ties", "losses", "note"]
#: Columns of ``challenges.tsv``: a row per experiment, challenger and metric.
SUMMARY_COLUMNS = ["experiment", "challenger", "metric", "n_features",
                   "challenger_rank", "place", "n_methods", "paper_best",
                   "paper_best_rank", "p_holm", "better", "significant", "note"]

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


def challenge_metric(summary: pd.DataFrame, metric: str,
                     challengers: Sequence[str],
                     options: Mapping[str, Any]) -> dict[str, Any]:
    """One metric of one experiment: the comparison of all methods
    (:func:`mlfsbench.report.compare.compare` under the study's ``options``:
    ``n_features``, ``alpha``, ``control``) and, per challenger column, its
    rank, place, tests and W/T/L against the paper methods."""
    result = compare(summary, metric, n_features=options.get("n_features", "mean"),
                     control=options.get("control"),
                     alpha=options.get("alpha", 0.05))
    table = pd.DataFrame(result["table"])
    mine = challenger_columns(list(table.columns), challengers)
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
                   better=better,
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
                 labels: Mapping[str, str] | None = None):
    """The CD diagram of one metric with every method of the experiment
    and the challengers highlighted (red), under the study's test (Nemenyi,
    or Bonferroni-Dunn against its ``control``) as the ``stats`` rule draws
    it. Returns the Figure."""
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
    Friedman and Iman-Davenport p, the Holm p against the best."""
    e = html.escape
    head = ["metric", "challenger", "average rank", "place", "paper's best (rank)",
            "Holm p vs best", "better than best", "Friedman p", "Iman-Davenport p",
            "N datasets"]
    rows = []
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
        for c, info in m["rows"].items():
            t = info["tests"]
            b = t[t["method"] == info["best"]].iloc[0]
            better = info["rank"] < b["method_rank"]
            sig = better and b["p_holm"] < res["alpha"]
            verdict = ("yes, significantly" if sig else "yes") if better else "no"
            cells = [e(metric_label(metric)), e(name(c)),
                     f"<span class='challenger-rank'>{info['rank']:.2f}</span>",
                     f"{info['place']} of {res['n_methods']}",
                     f"{e(name(info['best']))} ({b['method_rank']:.2f})",
                     _num(b["p_holm"]), verdict,
                     _num(res["friedman"]["p_value"]),
                     _iman_davenport_p(res["iman_davenport"]), str(res["n_datasets"])]
            rows.append(f"<tr id='rank-{e(metric)}-{e(c)}' data-metric='{e(metric)}' "
                        f"class='{'yes' if sig else ''}'>"
                        + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
    return ("<div class='scroll'><table id='challenge-ranks'><thead><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>")


def _tests_table(m: Mapping[str, Any], c: str, name) -> str:
    e = html.escape
    info = m["rows"][c]
    head = ["paper method", "average rank", "z", "p", "Holm p", "significant",
            "W/T/L"]
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


def challenge_page(experiment: str, metrics: Sequence[Mapping[str, Any]],
                   challengers: Sequence[str], options: Mapping[str, Any], *,
                   summary: pd.DataFrame, runtime: pd.DataFrame | None = None,
                   cd_files: Mapping[str, str] | None = None,
                   labels: Mapping[str, str] | None = None,
                   order: Sequence[str] | None = None) -> str:
    """The challenge page of one experiment (HTML text); ``cd_files``:
    metric -> the CD diagram's path relative to the page."""
    e = html.escape
    shown = dict(labels or {})

    def name(method: str) -> str:
        return display_name(method, shown)

    decimals = _decimals(options)
    k = options.get("n_features", "mean")
    point = {"mean": "the mean over the K of the grid",
             "mean-rank": "ranks averaged over the K of the grid",
             "selected": "each selector's own subset"}.get(k, f"K = {k}")
    parts = [f"<p>Challenger(s): <span class='mark'>"
             f"{e(', '.join(shown.get(c, c) for c in challengers))}</span>, "
             f"against the study's methods on its datasets, at its comparison "
             f"point ({e(point)}), alpha = {options.get('alpha', 0.05)}. "
             "Ranks over all methods; pairwise: Demšar's rank z-test of the "
             "challenger against each paper method, Holm-corrected over those "
             "comparisons; better than the paper's best: a lower average rank "
             "than the best-ranked paper method (all features excepted), "
             "significantly when its Holm p is below alpha. W/T/L: the "
             f"challenger's wins/ties/losses over the datasets; "
             f"{e(TIE_RULE.format(decimals=decimals if decimals is not None else 3))}"
             ".</p>", "<h3>Rank per metric</h3>", _ranks_table(metrics, name)]
    for m in metrics:
        metric = m["metric"]
        parts.append(f"<h3 id='metric-{e(metric)}'>{e(metric_label(metric))}</h3>")
        path = (cd_files or {}).get(metric)
        if path:
            alt = cd_alt(metric, m["result"], shown,
                         highlight=m.get("challengers") or challengers)
            parts.append(f"<figure id='cd-{e(metric)}'><img alt='{e(alt)}' "
                         f"src='{e(path)}'><figcaption>Critical differences, the "
                         "challenger in red</figcaption></figure>")
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
            parts.append(to_html(table, f"challenge-{experiment}"))
    parts += ["<h3>Selection time</h3>", _runtime_table(runtime, challengers, name)]
    return _page(f"Challenge: {experiment}", "".join(parts))


def write_challenge(summary_path: PathLike, runtime_path: PathLike | None,
                    experiment: str, challengers: Sequence[str],
                    options: Mapping[str, Any], metrics: Sequence[str],
                    html_out: PathLike, tsv_out: PathLike, *,
                    cd_files: Sequence[PathLike] = (),
                    labels: Mapping[str, str] | None = None,
                    order: Sequence[str] | None = None) -> pd.DataFrame:
    """The ``challenge`` rule: one experiment's page and rows. ``cd_files``,
    aligned with ``metrics``, are linked from the page (relative paths)."""
    summary = read_table(summary_path, dtype={"n_features": str})
    runtime = None
    if runtime_path is not None and os.path.exists(runtime_path):
        runtime = read_table(runtime_path)
    results = challenge(summary, challengers, options, metrics)
    rows = challenge_rows(experiment, results, options)
    write_text(tsv_out, format_table(rows))
    here = os.path.dirname(os.path.abspath(html_out))
    figures = {m: os.path.relpath(os.path.abspath(p), here)
               for m, p in zip(metrics, cd_files, strict=False)}
    write_text(html_out, challenge_page(
        experiment, results, challengers, options, summary=summary,
        runtime=runtime, cd_files=figures, labels=labels, order=order))
    return rows


def write_challenges(experiments: Mapping[str, Sequence[str]],
                     tsv_paths: Mapping[str, PathLike], html_out: PathLike,
                     tsv_out: PathLike, *,
                     pages: Mapping[str, str] | None = None,
                     reasons: Mapping[str, str] | None = None,
                     labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """``results/challenges.html`` and ``.tsv``: every experiment of the run
    (``experiments``: name -> its challenger ids, in config order) with a row
    per challenger and metric from its ``challenge.tsv`` (``tsv_paths``), or
    the reason it has none (no challenger; ``reasons``: e.g. datasets it could
    not run), and the sentence of :func:`verdict_sentence` per challenger;
    ``labels``: method id -> its readable name (the TSV keeps the ids)."""
    e = html.escape

    def name(method: str) -> str:
        return display_name(method, labels)

    frames = [read_table(p, dtype={"n_features": str}) for p in tsv_paths.values()]
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=COLUMNS)
    cells = summary_rows(rows) if not rows.empty else pd.DataFrame(
        columns=SUMMARY_COLUMNS)
    write_text(tsv_out, format_table(cells))
    sentences = []
    for c, g in cells.groupby("challenger", sort=False):
        sentences.append(f"<li class='verdict'><b>{e(name(str(c)))}</b>: "
                         f"{e(verdict_sentence(g))}.</li>")
    body = ["<p>Each challenger against the methods of each study, on the "
            "study's datasets under its protocol and statistics. Better: a lower "
            "average rank than the paper's best-ranked method (all features "
            "excepted); significantly: and a Holm-corrected p below the study's "
            "alpha against that method (Demšar's rank z-test).</p>",
            "<ul>" + "".join(sentences) + "</ul>" if sentences else
            "<p>No challenger has a test yet.</p>"]
    head = ["study", "challenger", "metric", "K", "average rank", "place",
            "paper's best (rank)", "Holm p vs best", "better", "note"]
    trs = []
    for study, challengers in experiments.items():
        mine = cells[cells["experiment"] == study]
        link = e(study)
        if pages and study in pages:
            link = f"<a href='{e(pages[study])}'>{e(study)}</a>"
        if mine.empty:
            why = (reasons or {}).get(study) or (
                "no challenger in this experiment" if not challengers
                else "no result")
            trs.append(f"<tr id='study-{e(study)}'><td>{link}</td>"
                       f"<td colspan='{len(head) - 1}' class='note'>{e(why)}</td></tr>")
            continue
        for r in mine.to_dict("records"):
            if pd.isna(r.get("better")):
                note = r.get("note")
                cells_html = [link, e(name(str(r["challenger"]))),
                              e(str(r["metric"])),
                              e(str(r["n_features"])), "", "", "", "", "",
                              "" if pd.isna(note) else e(str(note))]
            else:
                sig = str(r["significant"]) in ("True", "true")
                better = str(r["better"]) in ("True", "true")
                cells_html = [
                    link, e(name(str(r["challenger"]))), e(str(r["metric"])),
                    e(str(r["n_features"])), f"{float(r['challenger_rank']):.2f}",
                    f"{int(r['place'])} of {int(r['n_methods'])}",
                    f"{e(name(str(r['paper_best'])))} "
                    f"({float(r['paper_best_rank']):.2f})",
                    _num(float(r["p_holm"])),
                    ("yes, significantly" if sig else "yes") if better else "no",
                    e((reasons or {}).get(study, ""))]
            trs.append(f"<tr id='study-{e(study)}' class='study'>"
                       + "".join(f"<td>{x}</td>" for x in cells_html) + "</tr>")
    body.append("<div class='scroll'><table id='challenges'><thead><tr>"
                + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
                + "".join(trs) + "</tbody></table></div>")
    write_text(html_out, _page("Challenges across studies", "".join(body)))
    return cells


__all__ = ["COLUMNS", "SUMMARY_COLUMNS", "challenge", "challenge_cd",
           "challenge_metric", "challenge_page", "challenge_rows",
           "challenger_columns", "pairwise", "paper_best", "summary_rows",
           "verdict_sentence", "wins_ties_losses", "write_challenge",
           "write_challenges"]
