"""The report's first page: the verdicts per study, then each study's evidence.

``results/summary.html`` is written by the ``summary`` rule and shown by the
Snakemake report as its opening page (the workflow description includes it).
It opens on one table, a row per study: its verdict counts (reproduced, not
reproduced, depends on a reading when the verdict table says how robust it
is, not checkable here), the datasets it ran of the paper's and a link to its
section. Each section holds the paper's claims with their verdicts (from
``tables/claims.tsv``), each linked to its evidence on the page: the row of
the regenerated paper table (:mod:`mlfsbench.report.paper_tables`), the
critical-difference diagram or the headline figure (the first compared
metric against the number of features, mean over folds with a band of one
standard deviation when there are several folds); the figures are embedded
here once (not also as report items), each with the text alternative it
carries (:func:`~mlfsbench.report.render.figure_alt`).
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.io import write_text
from mlfsbench.report.claims import (
    COLUMNS,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    RULES,
)
from mlfsbench.report.names import display_name, method_key, metric_label
from mlfsbench.report.paper_tables import anchor, html_fragment
from mlfsbench.report.render import CURVE_COLOURS, figure_alt  # noqa: F401 (re-exported)
from mlfsbench.report.tally import tally

PathLike = str | os.PathLike

# The report's landing view puts the description beside the rule graph in a
# flex row, centres it in a screen-high box (a tall page would lose its top;
# a wide one its left edge) and narrows it to max-w-lg; the first rules stack
# the rule graph below the summary (off the first screen), keep the summary
# within the view's width (wide tables scroll in their own box) and undo the
# rest.
STYLE = """
div.h-screen:has(.mlfs-summary){align-items:flex-start;justify-content:flex-start}
div.grow:has(> div > .prose .mlfs-summary){flex-direction:column;min-width:0;
 width:100%}
div.py-2:has(> .prose .mlfs-summary){max-width:100%;min-width:0}
div.prose:has(.mlfs-summary){max-width:1200px}
.mlfs-summary{font-family:sans-serif;max-width:1200px}
.mlfs-summary h2{margin:.8em 0 .2em}
.mlfs-summary table{border-collapse:collapse;font-size:90%;margin:.4em 0}
.mlfs-summary td,.mlfs-summary th{padding:2px 6px;border-bottom:1px solid #ccc;
 text-align:left;vertical-align:top}
.mlfs-summary table.overview td.n,.mlfs-summary table.paper td{text-align:right}
.mlfs-summary table.paper caption{caption-side:top;text-align:left;
 font-size:85%;color:#444}
.mlfs-summary tr.reproduced,.mlfs-summary td.reproduced{background:#d8f0d8}
.mlfs-summary tr.not-reproduced,.mlfs-summary td.not-reproduced{background:#f6d5d5}
.mlfs-summary tr.not-checkable-here{background:#eeeeee}
.mlfs-summary td.depends{background:#fbeecb}
.mlfs-summary .scroll{max-width:100%;overflow-x:auto}
.mlfs-summary img{max-width:100%;height:auto;margin:2px}
.mlfs-summary figure{margin:4px 0}
.mlfs-summary figcaption{font-size:85%;color:#444}
.mlfs-summary .figs{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start}
.mlfs-summary :target{outline:3px solid #e0a000}
"""

DEPENDS = "depends on a reading"



def _img(path: PathLike, alt: str, cls: str = "") -> str:
    with open(path, "rb") as fh:
        data = base64.b64encode(fh.read()).decode("ascii")
    klass = f" class='{cls}'" if cls else ""
    return (f"<img{klass} alt='{html.escape(alt)}' "
            f"src='data:image/png;base64,{data}'>")


def cd_anchor(experiment: str, metric: str) -> str:
    return f"cd-{experiment}-{metric}"


def headline_anchor(experiment: str) -> str:
    return f"headline-{experiment}"


def _metrics(q: Mapping[str, Any]) -> list[str]:
    if q.get("metrics"):
        return [str(m) for m in q["metrics"]]
    return [str(q["metric"])] if q.get("metric") else []


def _claim_datasets(q: Mapping[str, Any]) -> list[str]:
    out = [str(d) for d in q.get("datasets") or []]
    return out + ([str(q["dataset"])] if q.get("dataset") else [])


def evidence(claim: Mapping[str, Any] | None, experiment: str,
             info: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Links (text, ``#anchor``) from a claim to what decides it on the page.

    The regenerated table's rows of its datasets (when the claim reads the
    table's K, ``all`` features, or the table's averaging), the CD diagram
    of its metric for rank and significance claims, the headline curves
    for a claim over the number of features of the headline metric.
    """
    if not claim:
        return []
    q = claim.get("quantity") or {}
    rule = claim.get("rule")
    kind = RULES[rule].evidence if rule in RULES else "table"
    tables = info.get("paper_tables") or {}
    cds = info.get("cd_by_metric") or {}
    table_k = str(info.get("table_k"))
    k = str(q.get("n_features", table_k))
    datasets = _claim_datasets(q)
    links: list[tuple[str, str]] = []
    for metric in _metrics(q):
        if kind == "cd" and metric in cds:
            links.append((f"CD diagram ({metric})",
                          "#" + cd_anchor(experiment, metric)))
        if metric in tables and (k == table_k or k == "all"):
            shown = [d for d in datasets if d in info.get("datasets", [])]
            if shown and len(shown) <= 3:
                links += [(f"table: {metric}, {d}", "#" + anchor(experiment, metric, d))
                          for d in shown]
            else:
                links.append((f"table: {metric}", "#" + anchor(experiment, metric)))
        if metric == info.get("headline_metric") and info.get("headline") and (
                kind == "curves" or rule in ("better", "winner")
                or k not in (table_k, "all")):
            links.append(("curves", "#" + headline_anchor(experiment)))
        if not links and metric in cds:
            links.append((f"CD diagram ({metric})",
                          "#" + cd_anchor(experiment, metric)))
    return list(dict.fromkeys(links))


def _paper_cell(row: Mapping[str, Any], claim: Mapping[str, Any] | None) -> str:
    """The paper's number, its tolerance labelled as one (not a bare ``±``
    that reads like the paper's s.d.)."""
    text = str(row.get("paper", ""))
    tol = (claim or {}).get("tolerance")
    if tol is not None:
        for suffix in (f" (± {tol})", f" (±{tol})"):
            if text.endswith(suffix):
                text = text[:-len(suffix)]
        if "tolerance" not in text:
            return (f"{html.escape(text)}<br><small>tolerance ± "
                    f"{html.escape(str(tol))}</small>")
    return html.escape(text)


def _ours_cell(row: Mapping[str, Any], extra: Sequence[str]) -> str:
    """Ours, with the spread columns a verdict table may carry (``ours_sd``,
    ``n``; any other extra column as ``name: value``)."""
    text = html.escape(str(row.get("ours", "")))
    sd, n = str(row.get("ours_sd") or ""), str(row.get("n") or "")
    if sd:
        text += f" ± {html.escape(sd)}"
    if n:
        text += f" (n = {html.escape(n)})"
    shown = [c for c in extra if c not in ("ours_sd", "n") and str(row.get(c) or "")]
    text += "".join(f"<br><small>{html.escape(c)}: {html.escape(str(row[c]))}"
                    "</small>" for c in shown)
    return text


def verdict_rows(table: pd.DataFrame, claims: Mapping[str, Mapping] | None = None,
                 experiment: str = "", info: Mapping[str, Any] | None = None) -> str:
    """The verdict table as HTML rows (claim, source, paper, ours, verdict,
    evidence: none for a claim not checkable here); each row's id is
    ``claim-<experiment>-<claim>``."""
    claims, info = claims or {}, info or {}
    known = set(COLUMNS) | {"robustness"}
    extra = [c for c in table.columns if c not in known]
    out = []
    for row in table.to_dict("records"):
        claim = claims.get(str(row["claim"]))
        verdict = str(row["verdict"])
        detail = str(row.get("note") or "")
        robust = str(row.get("robustness") or "")
        how = str(row.get("how") or "")
        shown = [] if verdict == NOT_CHECKABLE else evidence(claim, experiment, info)
        links = " ".join(f"<a href='{html.escape(h)}'>{html.escape(t)}</a>"
                         for t, h in shown)
        cells = [f"<b>{html.escape(str(row['claim']))}</b><br>"
                 f"{html.escape(str(row['statement']))}",
                 html.escape(str(row["source"])), _paper_cell(row, claim),
                 _ours_cell(row, extra),
                 f"<b>{html.escape(verdict)}</b>"
                 + (f"<br><small>checked: {html.escape(how)}</small>" if how else "")
                 + (f"<br><small>{html.escape(robust)}</small>" if robust else "")
                 + (f"<br><small>{html.escape(detail)}</small>" if detail else ""),
                 links]
        klass = verdict.replace(" ", "-")
        rid = html.escape(f"claim-{experiment}-{row['claim']}")
        out.append(f"<tr id='{rid}' class='{klass}'>"
                   + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return "".join(out)


def _verdicts(info: Mapping[str, Any]) -> pd.DataFrame | None:
    if info.get("claims") is None:
        return None
    return pd.read_csv(info["claims"], sep="\t", dtype=str, keep_default_na=False)


def experiment_section(name: str, info: Mapping[str, Any]) -> str:
    """One study's block of the summary page."""
    # Headings and links never read exactly as the experiment's name: the
    # report's menu has a category of that name.
    parts = [f"<h2 id='summary-{html.escape(name)}'>Study: {html.escape(name)}"
             "</h2>"]
    if info.get("paper"):
        parts.append(f"<p><i>{html.escape(info['paper'])}</i></p>")
    if info.get("description"):
        parts.append(f"<p>{html.escape(info['description'])}</p>")
    ran = ", ".join(info.get("datasets", []))
    parts.append(f"<p><b>Ran on:</b> {html.escape(ran)}.")
    unavailable = info.get("unavailable") or {}
    if unavailable:
        missing = "; ".join(f"{d} ({r})" for d, r in sorted(unavailable.items()))
        parts.append(f" <b>Could not run:</b> {html.escape(missing)}.")
    parts.append("</p>")
    table = _verdicts(info)
    if table is not None:
        counts = table["verdict"].value_counts()
        tally = ", ".join(f"{n} {v}" for v, n in counts.items())
        parts.append(f"<p><b>Verdicts:</b> {html.escape(tally)}.</p>")
        rows = verdict_rows(table, info.get("claim_specs"), name, info)
        parts.append("<div class='scroll'><table class='claims'><thead><tr>"
                     "<th>claim</th><th>source</th><th>paper</th><th>ours</th>"
                     "<th>verdict</th><th>evidence</th></tr>"
                     f"</thead><tbody>{rows}</tbody></table></div>")
    else:
        parts.append("<p>No claims file for this experiment.</p>")
    tables = info.get("paper_tables") or {}
    if tables:
        parts.append("<h3>The paper's tables, regenerated</h3>")
        for metric in sorted(tables):
            with open(tables[metric], encoding="utf-8") as fh:
                parts.append(html_fragment(fh.read()))
    figs = []
    for metric, path in sorted((info.get("cd_by_metric") or {}).items()):
        figs.append(f"<figure id='{html.escape(cd_anchor(name, metric))}'>"
                    + _img(path, figure_alt(path) or f"{name}: critical-"
                           f"difference diagram, {metric}", "cd")
                    + f"<figcaption>Critical differences: "
                      f"{html.escape(metric_label(metric))}</figcaption></figure>")
    if info.get("headline"):
        metric = info.get("headline_metric") or ""
        figs.append(f"<figure id='{html.escape(headline_anchor(name))}'>"
                    + _img(info["headline"], figure_alt(info["headline"])
                           or f"{name}: headline curves")
                    + "<figcaption>Curves against the number of features"
                    + (f": {html.escape(metric_label(metric))}" if metric else "")
                    + "</figcaption></figure>")
    if figs:
        parts.append("<div class='figs'>" + "".join(figs) + "</div>")
    if info.get("challenge"):
        parts.append(f"<p class='challenge'><b>Challengers:</b> "
                     f"{html.escape(', '.join(info.get('challengers') or []))}, "
                     f"<a href='{html.escape(info['challenge'])}'>their page against "
                     "this study's methods</a>.</p>")
    return "<section class='study'>" + "".join(parts) + "</section>"


def overview(experiments: Mapping[str, Mapping[str, Any]]) -> str:
    """The opening table: a row per study, its verdicts counted as a referee
    would sign them (:func:`~mlfsbench.report.tally.tally`: robust
    verdicts, those that depend on a reading, not checkable ones, weak claims
    apart, the reproduction rate over the robust verdicts; the counts add up
    to the claims), the datasets it ran of the paper's, a link to its
    section."""
    tables = {n: _verdicts(i) for n, i in experiments.items()}
    head = ["study", REPRODUCED, NOT_REPRODUCED, DEPENDS, NOT_CHECKABLE,
            "weak claims (reproduced / not / other)", "claims",
            "rate (robust, not weak)", "datasets run of the paper's"]
    classes = {"reproduced": "reproduced", "not reproduced": "not-reproduced",
               "depends": "depends", "not checkable": "not-checkable-here"}
    rows = []
    for name, info in experiments.items():
        t = tables[name]
        link = (f"<a href='#summary-{html.escape(name)}'>{html.escape(name)}</a>")
        cells = [f"<td>{link}</td>"]
        counts = tally(t) if t is not None else None
        for key, klass in classes.items():
            n = None if counts is None else counts[key]
            cells.append(f"<td class='n{' ' + klass if n else ''}'>"
                         f"{'' if n is None else n}</td>")
        if counts is None:
            cells += ["<td class='n'></td>"] * 3
        else:
            weak = (f"{counts['weak reproduced']} / {counts['weak not reproduced']}"
                    f" / {counts['weak other']}")
            rate = "" if counts["rate"] is None else f"{100 * counts['rate']:.0f} %"
            cells += [f"<td class='n'>{weak}</td>",
                      f"<td class='n'>{counts['claims']}</td>",
                      f"<td class='n'>{rate}</td>"]
        ran = len(info.get("datasets", []))
        paper = ran + len(info.get("unavailable") or {})
        cells.append(f"<td class='n'>{ran} of {paper}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ("<table class='overview'><thead><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def write_summary(experiments: Mapping[str, Mapping[str, Any]],
                  out: PathLike, code: str | None = None) -> None:
    """``results/summary.html``: the overview table of every study first,
    then every experiment's section, those with verdicts first (in config
    order), then the others; ``code``: the code's version (provenance).

    ``experiments`` maps a name to ``paper``, ``description``, ``datasets``,
    ``unavailable`` (dataset -> reason), ``claims`` (path of the verdict
    table or None), ``claim_specs`` (claim id -> its claims-file entry),
    ``cd_by_metric`` (metric -> PNG path), ``headline`` (PNG path or
    None), ``headline_metric``, ``paper_tables`` (metric -> HTML path)
    and ``table_k`` (the K of those tables); an experiment with challengers
    also ``challengers`` (their names) and ``challenge`` (its challenge
    page, relative to ``out``), and the page then links the page across
    studies (``challenges.html`` beside ``out``).
    """
    experiments = dict(sorted(experiments.items(),
                              key=lambda item: item[1].get("claims") is None))
    body = "".join(experiment_section(n, i) for n, i in experiments.items())
    code_line = (f"<p><small>Code: {html.escape(code)}</small></p>" if code
                 else "")
    if any(i.get("challenge") for i in experiments.values()):
        code_line += ("<p class='challenges'><a href='challenges.html'>Challengers "
                      "against the studies</a> (a page per study with "
                      "challengers, linked from its section).</p>")
    write_text(out, f"<div class='mlfs-summary'><style>{STYLE}</style>"
                    "<h2 id='summary-overview'>Verdicts per study</h2>"
                    f"{overview(experiments)}{code_line}{body}</div>\n")


def headline_plot(summary: pd.DataFrame, metric: str, png: PathLike,
                  labels: Mapping[str, str] | None = None,
                  title: str = "", dataset_params: Mapping | None = None,
                  table_k: int | str | None = None):
    """``metric`` against the number of features, one panel per dataset.

    One line per selector (and classifier), the mean over folds, in its
    colour, marker and line style (:func:`~mlfsbench.report.render.method_styles`
    over every method of ``summary``), with a band of +- one standard
    deviation when the means have a spread (none with one fold or split:
    the title then names no band); dashed black: all features, an arrow at
    the panel's edge when far off the curves' range
    (:func:`~mlfsbench.report.render.draw_baselines`). The methods are
    named by ``labels`` (identifier -> the tables' name) and listed in
    natural order (``p5`` before ``p10``); a method with per-dataset
    parameters (``dataset_params``: identifier -> dataset -> parameters)
    has them written under the title of each dataset's panel. The PNG
    carries its text alternative, :func:`headline_alt` at ``table_k`` (the
    paper tables' K). Returns the Figure.
    """
    from matplotlib.figure import Figure

    from mlfsbench.report.names import metric_label, params_note
    from mlfsbench.report.render import (
        band_words,
        draw_baselines,
        has_band,
        marker_every,
        method_styles,
        natural_key,
        save_figure,
    )

    style = method_styles(method_key(summary).unique()) if len(summary) else {}
    data = summary[summary["metric"] == metric].reset_index(drop=True)
    datasets = sorted(data["dataset"].unique()) or ["(no data)"]
    ncols = min(len(datasets), 4)
    nrows = int(np.ceil(len(datasets) / ncols))
    fig = Figure(figsize=(4 * ncols, 3 * nrows + 0.8), layout="constrained")
    axes = list(fig.subplots(nrows, ncols, squeeze=False).flat)
    keys = method_key(data)  # with the classifier when there are several
    several = data["classifier"].nunique() > 1
    bands = 0
    for ax, dataset in zip(axes, datasets, strict=False):
        d = data[data["dataset"] == dataset]
        dkeys = keys[d.index]
        for key in sorted(dkeys.unique(),
                          key=lambda m: natural_key(display_name(m, labels))):
            g = d[dkeys == key]
            num = g[g["n_features"].astype(str).str.isdigit()].copy()
            num["k"] = num["n_features"].astype(int)
            band = has_band(num)
            num = num.groupby("k")[["mean", "std"]].mean().sort_index()
            if not num.empty:
                k, m = num.index.to_numpy(), num["mean"].to_numpy()
                ax.plot(k, m, markersize=4, markevery=marker_every(len(k), style[key]),
                        label=display_name(key, labels), **style[key])
                if band:
                    s = num["std"].fillna(0).to_numpy()
                    ax.fill_between(k, m - s, m + s, color=style[key]["color"],
                                    alpha=0.15, linewidth=0)
                    bands += 1
        draw_baselines(ax, d, several, labels)
        note = params_note(dataset_params, dataset, labels)
        ax.set_title(dataset + (f"\n{note}" if note else ""),
                     fontsize="medium" if not note else "small")
        ax.set_xlabel("number of features")
        ax.set_ylabel(metric_label(metric))
    for ax in axes[len(datasets):]:
        ax.set_visible(False)
    legend: dict[str, Any] = {}
    for ax in axes[:len(datasets)]:  # every method once, whichever panel has it
        for handle, name in zip(*ax.get_legend_handles_labels(), strict=True):
            legend.setdefault(name, handle)
    # the methods in natural order of their names, the baselines after them
    legend = dict(sorted(legend.items(), key=lambda item: (
        item[0].startswith("all features"),
        () if item[0].startswith("all features") else natural_key(item[0]))))
    if legend:
        fig.legend(list(legend.values()), list(legend), loc="outside lower center",
                   ncol=min(len(legend), 5), frameon=False, fontsize="small")
    band = band_words(data) if bands else ""
    fig.suptitle(title or f"{metric_label(metric)}: mean over folds"
                          + (f", {band}" if band else "") + " (dashed: all features)")
    save_figure(fig, png, dpi=80,
                alt=headline_alt(summary, metric, table_k, labels))
    return fig


def headline_alt(summary: pd.DataFrame, metric: str,
                 table_k: int | str | None = None,
                 labels: Mapping[str, str] | None = None) -> str:
    """The headline figure's text alternative, from the table it draws:
    what it shows, then the best method of each dataset at ``table_k`` (the
    paper tables' K; the mean over the K of the grid when ``None`` or
    ``"mean"``), with its mean, and the all-features value.

    >>> s = pd.DataFrame({"dataset": ["d"] * 3, "split": "cv",
    ...     "selector": ["a", "b", "a"], "classifier": "c",
    ...     "n_features": ["5", "5", "all"], "metric": "hamming_loss",
    ...     "mean": [0.2, 0.1, 0.3], "std": 0.0, "folds": 3})
    >>> headline_alt(s, "hamming_loss", 5).split(". ")[1]
    'Best at K = 5: b on d (0.1; all features 0.3).'
    """
    from mlfsbench.evaluation.metrics import GREATER_IS_BETTER

    data = summary[summary["metric"] == metric]
    head = (f"{metric_label(metric)} against the number of features, one panel "
            "per dataset.")
    if data.empty:
        return head
    keys = method_key(data)
    k = data["n_features"].astype(str)
    mean_k = table_k is None or str(table_k) == "mean"
    at = k.str.isdigit() if mean_k else k == str(table_k)
    if not at.any():
        return head
    higher = GREATER_IS_BETTER.get(metric, False)
    parts = []
    for dataset in sorted(data["dataset"].unique()):
        mine = at & (data["dataset"] == dataset)
        if not mine.any():
            continue
        means = data[mine].groupby(keys[mine])["mean"].mean()
        best = means.idxmax() if higher else means.idxmin()
        text = f"{display_name(best, labels)} on {dataset} ({means[best]:.4g}"
        base = data[(data["dataset"] == dataset) & (k == "all")]["mean"]
        text += f"; all features {base.mean():.4g})" if not base.empty else ")"
        parts.append(text)
    where = "mean over the K of the grid" if mean_k else f"K = {table_k}"
    return f"{head} Best at {where}: " + "; ".join(parts) + "."


def challengers(experiment: Mapping[str, Any]) -> list[str]:
    """The method ids of an experiment's entries flagged ``challenger: true``
    (as :meth:`mlfsbench.workflow.plan.Plan.challengers`)."""
    from mlfsbench.workflow.config import method_id

    return [method_id(e) for kind in ("selectors", "classifiers")
            for e in experiment.get(kind) or [] if e.get("challenger")]


def summary_info(experiments: Mapping[str, Mapping[str, Any]],
                 files: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Collect each experiment's entries of :func:`write_summary` from the
    rule's input files (paths under ``results/<experiment>/``): the verdict
    table (``tables/robust_claims.tsv`` when an input, else
    ``tables/claims.tsv``), ``stats/<metric>_cd.png``,
    ``plots/headline.png`` and ``tables/paper/<metric>.html``."""
    import yaml

    out: dict[str, dict[str, Any]] = {}
    for name, x in experiments.items():
        prefix = os.path.join("results", name) + os.sep
        mine = [f for f in files if os.path.normpath(f).startswith(prefix)]
        verdicts = ([f for f in mine if f.endswith("robust_claims.tsv")]
                    or [f for f in mine if f.endswith("claims.tsv")])
        stats = x.get("stats") or {}
        metrics = list(stats.get("metrics") or [])
        info: dict[str, Any] = {
            "description": x.get("description", ""), "datasets": x["datasets"],
            "claims": verdicts[0] if verdicts else None,
            "cd_by_metric": {os.path.basename(f)[:-len("_cd.png")]: f
                             for f in mine if f.endswith("_cd.png")},
            "headline": next((f for f in mine if f.endswith("headline.png")), None),
            "headline_metric": metrics[0] if metrics else None,
            "paper_tables": {os.path.basename(f)[:-len(".html")]: f for f in mine
                             if os.sep + "paper" + os.sep in os.path.normpath(f)
                             and f.endswith(".html")},
            "table_k": stats.get("n_features"),
        }
        if x.get("claims"):
            with open(x["claims"], encoding="utf-8") as fh:
                data = yaml.safe_load(fh)
            info["paper"] = " ".join(str(data.get("paper", "")).split())
            named = set()
            specs = {}
            study = x.get("extends", name)  # a challenge's claims are its study's
            for c in data.get("claims", []):
                if c.get("experiment", data.get("experiment")) == study:
                    q = c.get("quantity") or {}
                    named |= set(q.get("datasets") or []) | (
                        {q["dataset"]} if "dataset" in q else set())
                    if "id" in c:
                        specs[str(c["id"])] = c
            info["claim_specs"] = specs
            info["unavailable"] = {d: r for d, r in
                                   (data.get("unavailable") or {}).items()
                                   if d in named}
        mine = challengers(x)
        if mine:  # its challenge page, beside this page's results/ folder
            from mlfsbench.workflow.config import method_labels

            shown = {**method_labels(x.get("selectors") or []),
                     **method_labels(x.get("classifiers") or [])}
            info["challengers"] = [shown.get(c, c) for c in mine]
            info["challenge"] = f"{name}/challenge/index.html"
        if x.get("unavailable"):  # datasets this run could not obtain
            info["unavailable"] = {**info.get("unavailable", {}),
                                   **x["unavailable"]}
        out[name] = info
    return out
