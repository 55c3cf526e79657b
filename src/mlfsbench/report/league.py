"""The league page: every method under every protocol (issue 40).

:func:`write_league` reads each protocol's results table (``summary.tsv`` of
its league experiment) and what the plan hands over (the spec of
:func:`mlfsbench.workflow.league.league_spec`: plain data, the report imports
nothing of the workflow), computes the numbers of
:mod:`mlfsbench.report.league_stats` and writes, into the league's folder
(``results/league/``):

- ``league.html``: per protocol, the CD diagram and the average ranks of
  every method on each of its metrics, each method against the protocol's
  best (Bayesian signed-rank test, Cliff's delta) and the methods left out
  with why; across protocols, for the metrics they all compare, Kendall's
  tau between the protocols' rankings, a figure of each method's rank under
  each protocol (:func:`rank_plot`) and the orderings of the papers' own
  methods that hold under every protocol that ranks both;
- ``ranks.tsv``, ``kendall.tsv``, ``versus_best.tsv``, ``orderings.tsv``
  and ``methods.tsv`` (what ran under each protocol, with its parameters,
  and what was left out, with why);
- the figures, under ``figures/``.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.io import BASELINE, format_table, read_table, write_text
from mlfsbench.report.compare import cd_alt, cd_figure
from mlfsbench.report.league_stats import (
    KENDALL_COLUMNS,
    ORDER_COLUMNS,
    RANK_COLUMNS,
    VERSUS_COLUMNS,
    best_method,
    common_metrics,
    kendall_matrix,
    kendall_rows,
    orderings,
    protocol_comparison,
    rank_rows,
    versus_best,
)
from mlfsbench.report.names import display_name, metric_label
from mlfsbench.report.render import (
    HIGHLIGHT_COLOUR,
    TABLE_STYLE,
    natural_key,
    save_figure,
)

PathLike = str | os.PathLike

TITLE = "The league: every method under every protocol"
#: Columns of ``methods.tsv``: a row per protocol and method, run or not.
METHOD_COLUMNS = ["protocol", "method", "method_id", "role", "status", "name",
                  "params", "dataset_params", "discretize", "reason"]
#: The comparison points of the studies, in words.
POINTS = {"mean": "the mean over the K of the grid",
          "mean-rank": "ranks averaged over the K of the grid",
          "selected": "each method's own subset"}

STYLE = TABLE_STYLE + (
    "h2{margin-top:1.6em;border-bottom:1px solid #999}"
    "td.method,th.method{text-align:left}"
    "tr.challenger td{background:#fde0e0;font-weight:bold}"
    "tr.study td.method{font-weight:bold}"
    "tr.baseline td{color:#555;font-style:italic}"
    "td.reason{text-align:left;max-width:50em}"
    "table.kendall td.low{background:#fde0e0}table.kendall td.high{background:#d8f0d8}"
    ".note{color:#444;font-size:90%}nav{margin:.5em 0}"
    f".mark{{color:{HIGHLIGHT_COLOUR};font-weight:bold}}"
    "figure{margin:6px 0}figcaption{font-size:85%;color:#444}"
    "img{max-width:100%;height:auto}")


def point_text(n_features) -> str:
    """The comparison point in words.

    >>> point_text(50), point_text("mean-rank")
    ('K = 50', 'ranks averaged over the K of the grid')
    """
    return POINTS.get(str(n_features), f"K = {n_features}")


def _number(value, fmt: str = ".3f") -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "–"
    return format(value, fmt)


# ------------------------------------------------------------------ figures
def rank_plot(ranks: pd.DataFrame, metric: str, protocols: Sequence[str],
              png: PathLike, paper: Sequence[str] = (),
              challengers: Sequence[str] = ()):
    """Each method's relative rank (0 first, 1 last) under each protocol
    that ranks ``metric``: a line per method across the protocols, the
    papers' own methods (``paper``, league names) in colour and named at
    their last point, the league's others thin and grey, a challenger in
    red, the all-features baseline dashed; a line joins the protocols that
    rank its method. Saved to ``png`` with its text
    alternative; returns the Figure."""
    from matplotlib.figure import Figure

    rows = ranks[ranks["metric"] == metric]
    shown = [p for p in protocols if (rows["protocol"] == p).any()]
    fig = Figure(figsize=(2.5 + 1.9 * max(len(shown), 2), 7.0))
    ax = fig.add_subplot(1, 1, 1)
    x = np.arange(len(shown))
    methods = sorted(rows["method"].unique(), key=natural_key)
    from matplotlib import colormaps

    palette = [colormaps["tab20"](i) for i in range(20)]
    colours = iter([palette[i % len(palette)] for i in range(len(methods))])
    for m in methods:
        y = np.array([float(rows[(rows["protocol"] == p) & (rows["method"] == m)]
                            ["relative_rank"].iloc[0])
                      if ((rows["protocol"] == p) & (rows["method"] == m)).any()
                      else np.nan for p in shown])
        style: dict[str, Any]
        if m in challengers:
            style = {"color": HIGHLIGHT_COLOUR, "linewidth": 2.5, "zorder": 4}
        elif m.startswith(BASELINE):
            style = {"color": "black", "linestyle": "--", "linewidth": 1.2,
                     "zorder": 3}
        elif m in paper:
            style = {"color": next(colours), "linewidth": 1.6, "zorder": 3}
        else:
            style = {"color": "#b0b0b0", "linewidth": 0.8, "zorder": 1}
        ranked = np.isfinite(y)  # joined across the protocols that skip it
        ax.plot(x[ranked], y[ranked], marker="o", markersize=3, **style)
        if (m in paper or m in challengers or m.startswith(BASELINE)) and ranked.any():
            i = np.flatnonzero(ranked)[-1]
            ax.annotate(m, (x[i], y[i]), xytext=(6, 0), textcoords="offset points",
                        va="center", fontsize=7, color=style["color"])
    ax.set_xticks(x, shown, rotation=20)
    ax.set_xlim(-0.3, len(shown) - 0.3)
    ax.set_ylim(1.04, -0.04)
    ax.set_ylabel("relative rank (0 = first, 1 = last)")
    ax.set_title(f"{metric_label(metric)}: each method's rank under each protocol",
                 fontsize=10)
    ax.grid(axis="y", color="#e0e0e0")
    fig.tight_layout()
    alt = (f"Relative ranks on {metric_label(metric)} under "
           f"{', '.join(shown)}: " + "; ".join(
               f"{p}: " + ", ".join(
                   f"{m} {r:.2f}" for m, r in sorted(
                       zip(rows[rows['protocol'] == p]['method'],
                           rows[rows['protocol'] == p]['relative_rank'].astype(float),
                           strict=True), key=lambda t: (t[1], natural_key(t[0])))
                   if m in paper or m in challengers)
               for p in shown) + ".")
    save_figure(fig, png, alt=alt)
    return fig


# ------------------------------------------------------------------- tables
def methods_rows(spec: Mapping[str, Any]) -> pd.DataFrame:
    """The rows of ``methods.tsv`` (:data:`METHOD_COLUMNS`): every method
    of every protocol with its registry name, parameters and discretization
    (``status`` ran), then those left out (``status`` skipped, with the
    reason)."""
    rows = []
    for p in spec["order"]:
        info = spec["protocols"][p]
        for ident, entry in info["entries"].items():
            method = info["names"].get(ident, ident)
            rows.append({"protocol": p, "method": method, "method_id": ident,
                         "role": ("challenger" if ident in info["challengers"] else
                                  "study" if ident in info["study"] else "league"),
                         "status": "ran", "name": entry["name"],
                         "params": _params(entry.get("params")),
                         "dataset_params": _params(entry.get("dataset_params")),
                         "discretize": entry.get("discretize", ""), "reason": ""})
        for method, reason in info["skipped"].items():
            rows.append({"protocol": p, "method": method, "method_id": "",
                         "role": "", "status": "skipped", "name": method,
                         "params": "", "dataset_params": "", "discretize": "",
                         "reason": reason})
    return pd.DataFrame(rows, columns=METHOD_COLUMNS)


def _params(params) -> str:
    if not params:
        return ""
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items()))


def _table(head: Sequence[str], rows: Sequence[str], cls: str, ident: str = "") -> str:
    e = html.escape
    attr = f" id='{e(ident)}'" if ident else ""
    heads = "".join(f"<th class='method'>{e(h)}</th>" if i == 0 else f"<th>{e(h)}</th>"
                    for i, h in enumerate(head))
    return (f"<div class='scroll'><table class='{cls}'{attr}><thead><tr>{heads}</tr>"
            f"</thead><tbody>{''.join(rows)}</tbody></table></div>")


def ranks_html(rows: pd.DataFrame, result: Mapping[str, Any], ident: str) -> str:
    """One protocol and metric: each method's place, role, average and
    relative rank, best first; the Friedman and Iman-Davenport p below."""
    e = html.escape
    body = []
    ordered = rows.sort_values(["average_rank", "method"], kind="mergesort")
    for r in ordered.itertuples():
        body.append(f"<tr class='{e(r.role)}'><td class='method'>{e(r.method)}</td>"
                    f"<td>{r.place}</td><td>{e(r.role)}</td>"
                    f"<td>{r.average_rank:.2f}</td><td>{r.relative_rank:.2f}</td></tr>")
    table = _table(["method", "place", "role", "average rank", "relative rank"],
                   body, "ranks", ident)
    fr, idv = result["friedman"], result["iman_davenport"]
    return (table + f"<p class='note'>Friedman χ² = {_number(fr['chi2'], '.2f')}, "
            f"p = {_number(fr['p_value'], '.3g')}; Iman–Davenport p = "
            f"{_number(idv['p_value'], '.3g')}; N = {result['n_datasets']} datasets, "
            f"k = {result['n_methods']} methods; Nemenyi CD = "
            f"{_number(result['nemenyi']['cd'], '.3f')} (α = {result['alpha']}).</p>")


def versus_html(rows: pd.DataFrame, ident: str) -> str:
    """Each method against the protocol's best: the Bayesian probabilities
    and Cliff's delta, the method with the best's highest probability of
    being worse first."""
    e = html.escape
    if rows.empty:
        return "<p class='note'>No pairwise comparison with the best.</p>"
    best = rows["best"].iloc[0]
    body = [f"<tr><td class='method'>{e(r.method)}</td><td>{_number(r.p_best)}</td>"
            f"<td>{_number(r.p_rope)}</td><td>{_number(r.p_method)}</td>"
            f"<td>{_number(r.cliffs_delta)}</td><td>{e(str(r.magnitude))}</td></tr>"
            for r in rows.sort_values(["p_best", "cliffs_delta"], ascending=False,
                                      kind="mergesort").itertuples()]
    rope = rows["rope"].iloc[0]
    return (f"<p>Each method against the best-ranked method (all features "
            f"excepted), <b>{e(best)}</b>: the Bayesian "
            f"signed-rank test's probabilities that {e(best)} is better, that the "
            f"two are equivalent within the rope ({_number(rope, 'g')}), and that "
            f"the method is better; Cliff's delta over the datasets (positive: "
            f"{e(best)} better) and its magnitude.</p>"
            + _table(["method", f"P({best} better)", "P(equivalent)",
                      "P(method better)", "Cliff's δ", "magnitude"], body, "versus",
                     ident))


def kendall_html(rows: pd.DataFrame, protocols: Sequence[str], ident: str) -> str:
    """The protocols x protocols table of Kendall's tau (the number of
    common methods and the p-value in each cell's title)."""
    e = html.escape
    paired = set(rows["protocol_a"]) | set(rows["protocol_b"])
    shown = [p for p in protocols if p in paired]
    matrix = kendall_matrix(rows, shown)
    info = {(r.protocol_a, r.protocol_b): r for r in rows.itertuples()}
    info.update({(b, a): r for (a, b), r in list(info.items())})
    body = []
    for p in shown:
        cells = []
        for q in shown:
            tau = matrix.loc[p, q]
            if p == q:
                cells.append("<td>1</td>")
                continue
            r = info.get((p, q))
            title = (f"{r.n_methods} common methods, p = {_number(r.p_value, '.3g')}"
                     if r is not None else "")
            cls = ""
            if np.isfinite(tau):
                cls = " class='low'" if tau < 0.3 else (
                    " class='high'" if tau >= 0.7 else "")
            cells.append(f"<td{cls} title='{e(title)}'>{_number(tau, '.2f')}"
                         f"<br><small>n = {r.n_methods if r is not None else 0}</small>"
                         "</td>")
        body.append(f"<tr><th class='method'>{e(p)}</th>{''.join(cells)}</tr>")
    return _table(["τ", *shown], body, "kendall", ident)


def orderings_html(rows: pd.DataFrame, ident: str) -> str:
    """The orderings of the papers' methods that hold under every protocol
    ranking both, and how many do not."""
    e = html.escape
    if rows.empty:
        return ("<p class='note'>No two of the papers' methods are ranked under "
                "two protocols.</p>")
    held = rows[rows["holds"]]
    body = [f"<tr><td class='method'>{e(r.better)}</td><td>{e(r.worse)}</td>"
            f"<td>{r.n_protocols}</td><td>{e(r.protocols.replace(';', ', '))}</td></tr>"
            for r in held.sort_values(["n_protocols", "better", "worse"],
                                      ascending=[False, True, True],
                                      kind="mergesort").itertuples()]
    text = (f"<p>Of {len(rows)} pairs of the papers' own methods ranked under at "
            f"least two protocols, <b>{len(held)}</b> keep their order under every "
            f"protocol that ranks both (a lower average rank each time); "
            f"{len(rows) - len(held)} change it with the protocol "
            "(<a href='orderings.tsv'>orderings.tsv</a> has every pair).</p>")
    if not body:
        return text
    return text + _table(["better", "worse", "protocols", "which"], body,
                         "orderings", ident)


# --------------------------------------------------------------------- page
def _protocol_summary(spec: Mapping[str, Any], results: Mapping[str, Any]) -> str:
    e = html.escape
    body = []
    for p in spec["order"]:
        info = spec["protocols"][p]
        tested = [r for r in results.get(p, {}).values() if "skipped" not in r]
        ranked = str(tested[0]["n_methods"]) if tested else "–"
        gone = info.get("unavailable") or {}
        datasets = ", ".join(info["datasets"]) + (
            f" (could not run: {', '.join(sorted(gone))})" if gone else "")
        body.append(f"<tr><td class='method'><a href='#protocol-{e(p)}'>{e(p)}</a></td>"
                    f"<td class='reason'>{e(datasets)}</td>"
                    f"<td>{e(point_text(info['options']['n_features']))}</td>"
                    f"<td>{ranked}</td><td>{len(info['skipped'])}</td></tr>")
    for p, why in (spec.get("left_out") or {}).items():
        body.append(f"<tr><td class='method'>{e(p)}</td><td class='reason' "
                    f"colspan='4'>not run: {e(why)}</td></tr>")
    return _table(["protocol", "datasets", "compared at", "methods ranked",
                   "left out"], body, "protocols")


def league_page(spec: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]],
                ranks: pd.DataFrame, kendall: pd.DataFrame, versus: pd.DataFrame,
                orders: pd.DataFrame, figures: Mapping[str, str],
                common: Sequence[str]) -> str:
    """The page's HTML. ``results``: protocol -> metric -> comparison;
    ``figures``: ``cd-<protocol>-<metric>`` and ``ranks-<metric>`` -> path
    relative to the page; ``common``: the metrics every protocol compares."""
    e = html.escape
    order = list(spec["order"])
    challengers = sorted({c for p in order
                          for c in spec["protocols"][p]["challengers"]})
    parts = [f"<h1>{e(TITLE)}</h1>",
             "<p>Each protocol is a study's way of comparing methods: its datasets, "
             "splits, classifier, feature-count grid and comparison point, under "
             "its favoured readings. Under each, every method of the project ran: "
             "the study's own as the paper configures them, and every other "
             "registered selector fitted to the protocol (its label "
             "transformation, its discretization, a search as deep as its grid; "
             "<a href='methods.tsv'>methods.tsv</a> gives each method's "
             "parameters). Methods are named across protocols by their "
             "registry name; a study's further setting of a method keeps its "
             "own id and is compared under that protocol only. The ranks "
             "compare every method with every other (Friedman, Nemenyi); "
             "rank 1 is the best.</p>", _protocol_summary(spec, results)]
    if challengers:
        parts.append("<p>Challenger(s), in red: "
                     + ", ".join(f"<span class='mark'>{e(c)}</span>"
                                 for c in challengers) + ".</p>")
    nav = ["<a href='#across'>across protocols</a>",
           *(f"<a href='#protocol-{e(p)}'>{e(p)}</a>" for p in order),
           "<a href='ranks.tsv'>ranks.tsv</a>", "<a href='kendall.tsv'>kendall.tsv</a>",
           "<a href='versus_best.tsv'>versus_best.tsv</a>"]
    parts.append(f"<nav class='contents'><b>Contents:</b> {' · '.join(nav)}</nav>")
    parts.append("<h2 id='across'>Across protocols</h2>")
    if not common:
        parts.append("<p class='note'>No metric is compared by every protocol: no "
                     "rankings to set side by side.</p>")
    for metric in common:
        label = metric_label(metric)
        parts.append(f"<h3 id='across-{e(metric)}'>{e(label)}</h3>")
        rows = kendall[kendall["metric"] == metric]
        parts.append("<p>Kendall's τ-b between two protocols' average ranks of "
                     "the methods both rank (n of them; 1: the same order, 0: "
                     "unrelated, −1: reversed; the two-sided p in each cell's "
                     "tooltip).</p>")
        parts.append(kendall_html(rows, order, f"kendall-{metric}"))
        path = figures.get(f"ranks-{metric}")
        if path:
            parts.append(f"<figure id='ranks-{e(metric)}'><img class='ranks' "
                         f"alt='{e(label)}: each method across protocols' "
                         f"src='{e(path)}'><figcaption>Each method's relative "
                         "rank, (R − 1)/(k − 1), under each protocol: the "
                         "papers' own methods in colour, named at their last "
                         "point; the league's others in grey.</figcaption>"
                         "</figure>")
        parts.append(f"<h4>Orderings of the papers' methods, {e(label)}</h4>")
        parts.append(orderings_html(orders[orders["metric"] == metric],
                                    f"orderings-{metric}"))
    for p in order:
        parts.append(_protocol_section(p, spec["protocols"][p], results.get(p, {}),
                                       ranks, versus, figures))
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width'>"
            f"<title>{e(TITLE)}</title><style>{STYLE}</style></head><body>"
            + "".join(parts) + "</body></html>\n")


def _protocol_section(p: str, info: Mapping[str, Any], results: Mapping[str, Any],
                      ranks: pd.DataFrame, versus: pd.DataFrame,
                      figures: Mapping[str, str]) -> str:
    e = html.escape
    labels = dict(info["names"])
    study = ", ".join(labels.get(i, i) for i in info["study"])
    parts = [f"<section id='protocol-{e(p)}'><h2>{e(p)}</h2>",
             f"<p>Datasets: {e(', '.join(info['datasets']))}. Compared at "
             f"{e(point_text(info['options']['n_features']))}, α = "
             f"{info['options']['alpha']}. The study's own methods: {e(study)}.</p>"]
    if info["skipped"]:
        body = [f"<tr><td class='method'>{e(m)}</td><td class='reason'>{e(r)}</td></tr>"
                for m, r in sorted(info["skipped"].items())]
        parts.append("<p>Left out of this protocol:</p>"
                     + _table(["method", "why"], body, "skipped", f"skipped-{p}"))
    for metric in info["metrics"]:
        result = results.get(metric)
        label = metric_label(metric)
        parts.append(f"<h3 id='metric-{e(p)}-{e(metric)}'>{e(p)}: {e(label)}</h3>")
        if result is None:
            continue
        path = figures.get(f"cd-{p}-{metric}")
        if path:
            alt = cd_alt(metric, result, labels, highlight=info["challengers"])
            parts.append(f"<figure id='cd-{e(p)}-{e(metric)}'><img class='cd' "
                         f"alt='{e(alt)}' src='{e(path)}'><figcaption>Critical "
                         f"differences under {e(p)} (Nemenyi); groups joined by a "
                         "bar do not differ significantly.</figcaption></figure>")
        if "skipped" in result:
            parts.append(f"<p class='note'>No rank test: {e(result['skipped'])}.</p>")
            continue
        left = result.get("datasets_without_all_methods")
        if left:
            parts.append("<p class='note'>Left out of the ranks (a method has no "
                         f"result there): {e(', '.join(map(str, left)))}.</p>")
        rows = ranks[(ranks["protocol"] == p) & (ranks["metric"] == metric)]
        parts.append(ranks_html(rows, result, f"ranks-{p}-{metric}"))
        parts.append(versus_html(versus[(versus["protocol"] == p)
                                        & (versus["metric"] == metric)],
                                 f"versus-{p}-{metric}"))
    parts.append("</section>")
    return "".join(parts)


# -------------------------------------------------------------------- write
def league_tables(spec: Mapping[str, Any],
                  summaries: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """The league's numbers from each protocol's results table: ``results``
    (protocol -> metric -> comparison), ``ranks``, ``kendall``, ``versus``,
    ``orderings`` (the TSVs' tables), ``common`` (the metrics every
    protocol that ran compares) and ``paper`` (the papers' own methods'
    league names, the all-features baseline included)."""
    order = [p for p in spec["order"] if p in summaries]
    results: dict[str, dict[str, Any]] = {}
    ranks, versus = [], []
    paper: list[str] = []
    for p in order:
        info = spec["protocols"][p]
        names = dict(info["names"])
        paper += [names.get(i, i) for i in info["study"]]
        results[p] = {}
        for metric in info["metrics"]:
            result = protocol_comparison(summaries[p], metric, info["options"])
            results[p][metric] = result
            ranks.append(rank_rows(p, metric, result, names, info["study"],
                                   info["challengers"]))
            versus.append(versus_best(p, metric, result, names))
    paper.append(BASELINE)
    rank_table = _concat(ranks, RANK_COLUMNS)
    common = common_metrics({p: spec["protocols"][p]["metrics"] for p in order})
    kendall = _concat([kendall_rows(rank_table, m, order) for m in common],
                      KENDALL_COLUMNS)
    orders = _concat([orderings(rank_table, m, list(dict.fromkeys(paper)), order)
                      for m in common], ORDER_COLUMNS)
    return {"results": results, "ranks": rank_table, "kendall": kendall,
            "versus": _concat(versus, VERSUS_COLUMNS), "orderings": orders,
            "common": common, "paper": list(dict.fromkeys(paper)), "order": order}


def _concat(frames: Sequence[pd.DataFrame], columns: Sequence[str]) -> pd.DataFrame:
    frames = [f for f in frames if not f.empty]
    if not frames:
        return pd.DataFrame(columns=list(columns))
    return pd.concat(frames, ignore_index=True)[list(columns)]


def write_league(spec: Mapping[str, Any], summaries: Mapping[str, PathLike],
                 html_out: PathLike, figures_dir: PathLike) -> dict[str, Any]:
    """The ``league`` rule: the page, its TSVs beside it (``ranks.tsv``,
    ``kendall.tsv``, ``versus_best.tsv``, ``orderings.tsv``,
    ``methods.tsv``) and its figures in ``figures_dir``. ``summaries``:
    protocol -> its league experiment's ``summary.tsv``. Returns
    :func:`league_tables`' numbers."""
    tables = {p: read_table(path, dtype={"n_features": str})
              for p, path in summaries.items()}
    out = league_tables(spec, tables)
    here = os.path.dirname(os.path.abspath(html_out))
    os.makedirs(figures_dir, exist_ok=True)
    figures: dict[str, str] = {}

    def rel(path: str) -> str:
        return os.path.relpath(os.path.abspath(path), here).replace(os.sep, "/")

    for p in out["order"]:
        info = spec["protocols"][p]
        for metric, result in out["results"][p].items():
            png = os.path.join(figures_dir, f"cd-{p}-{metric}.png")
            cd_figure(result, metric, png, dict(info["names"]),
                      highlight=info["challengers"])
            figures[f"cd-{p}-{metric}"] = rel(png)
    challengers = sorted({display_name(c, spec["protocols"][p]["names"])
                          for p in out["order"]
                          for c in spec["protocols"][p]["challengers"]})
    for metric in out["common"]:
        png = os.path.join(figures_dir, f"ranks-{metric}.png")
        rank_plot(out["ranks"], metric, out["order"], png, out["paper"], challengers)
        figures[f"ranks-{metric}"] = rel(png)
    for name, key in (("ranks.tsv", "ranks"), ("kendall.tsv", "kendall"),
                      ("versus_best.tsv", "versus"), ("orderings.tsv", "orderings")):
        write_text(os.path.join(here, name), format_table(out[key]))
    write_text(os.path.join(here, "methods.tsv"), format_table(methods_rows(spec)))
    write_text(html_out, league_page(spec, out["results"], out["ranks"],
                                     out["kendall"], out["versus"], out["orderings"],
                                     figures, out["common"]))
    out["best"] = {p: {m: best_method(r) for m, r in res.items()}
                   for p, res in out["results"].items()}
    return out
