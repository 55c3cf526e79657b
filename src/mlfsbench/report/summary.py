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
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from mlfsbench.io import read_table, write_text
from mlfsbench.report.claim_rows import (
    cd_anchor,
    curves_anchor,
    headline_anchor,
    reading_legend,
    runtime_anchor,
    verdict_rows,
)
from mlfsbench.report.claims import NOT_CHECKABLE, NOT_REPRODUCED, REPRODUCED
from mlfsbench.report.names import metric_label
from mlfsbench.report.paper_tables import html_fragment
from mlfsbench.report.render import figure_alt
from mlfsbench.report.summary_assets import SCRIPT, STYLE
from mlfsbench.report.tally import robust_word, tally, total

PathLike = str | os.PathLike

DEPENDS = "depends on a reading"
TITLE = "mlfsbench: do the papers' claims hold?"


def _img(path: PathLike, alt: str, cls: str = "") -> str:
    with open(path, "rb") as fh:
        data = base64.b64encode(fh.read()).decode("ascii")
    klass = f" class='{cls}'" if cls else ""
    return (f"<img{klass} alt='{html.escape(alt)}' "
            f"src='data:image/png;base64,{data}'>")


def _verdicts(info: Mapping[str, Any]) -> pd.DataFrame | None:
    if info.get("claims") is None:
        return None
    return pd.read_csv(info["claims"], sep="\t", dtype=str, keep_default_na=False)


def _readings(info: Mapping[str, Any]) -> pd.DataFrame | None:
    path = info.get("readings")
    if not path or not os.path.exists(path):
        return None
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)


def _figure(fid: str, path: PathLike, alt: str, caption: str, cls: str = "") -> str:
    return (f"<figure id='{html.escape(fid)}'>" + _img(path, alt, cls)
            + f"<figcaption>{caption}</figcaption></figure>")


def _runtime(name: str, path: PathLike) -> str:
    """The runtime table of a study (``tables/runtime.tsv``): seconds per
    dataset and method, for claims on times."""
    table = read_table(path, dtype={"dataset": str, "selector": str})
    wide = table.pivot_table(index="dataset", columns="selector", values="mean")
    body = wide.to_html(border=0, float_format=lambda v: f"{v:.3g}",
                        classes="runtime", na_rep="")
    return (f"<div class='scroll' id='{html.escape(runtime_anchor(name))}'>"
            "<p><b>Run times</b>: seconds per selection (mean over the "
            f"folds, from the jobs' benchmarks)</p>{body}</div>")


def claims_table(name: str, info: Mapping[str, Any], table: pd.DataFrame) -> str:
    """A study's claims: its counts, a filter (standalone page) and the rows."""
    counts = table["verdict"].value_counts()
    words = ", ".join(f"{n} {v}" for v, n in counts.items())
    readings = _readings(info)
    info = {**info, "readings_table": readings}
    rows = verdict_rows(table, info.get("claim_specs"), name, info)
    heads = ["claim", "paper", "ours", "verdict", "evidence"]
    return (f"<p><b>Verdicts:</b> {html.escape(words)}.</p>"
            + reading_legend(name, info.get("reading_legend") if readings is not None
                             else None)
            + "<div class='scroll'><table class='claims'><thead><tr>"
            + "".join(f"<th class='sortable'>{h}</th>" for h in heads)
            + f"</tr></thead><tbody>{rows}</tbody></table></div>")


def _data_links(name: str, info: Mapping[str, Any]) -> str:
    """Links to a study's tables as files (relative to ``results/``, where
    the page is): its verdicts, their readings, its metrics' summary."""
    files = [("verdicts", info.get("claims")), ("per reading", info.get("readings")),
             ("mean and s.d. per dataset, method and K", info.get("summary_table"))]
    out = []
    for text, path in files:
        if path:
            rel = os.path.relpath(path, "results")
            out.append(f"<a href='{html.escape(rel)}'>{html.escape(text)}</a> "
                       f"(<code>{html.escape(os.path.basename(path))}</code>)")
    return ", ".join(out)


def experiment_section(name: str, info: Mapping[str, Any]) -> str:
    """One study's block of the summary page (folded: its heading opens
    and closes it)."""
    # Headings and links never read exactly as the experiment's name: the
    # report's menu has a category of that name.
    parts = []
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
    data = _data_links(name, info)
    if data:
        parts.append(f"<p class='data'><b>As data:</b> {data}.</p>")
    table = _verdicts(info)
    if table is not None:
        parts.append(claims_table(name, info, table))
    else:
        parts.append("<p>No claims file for this experiment.</p>")
    tables = info.get("paper_html") or {}
    if tables:
        parts.append("<h3>The paper's tables, regenerated</h3><div class='tables'>")
        for metric in sorted(tables):
            parts.append(html_fragment(tables[metric]))
        parts.append("</div>")
    if info.get("runtime"):
        parts.append(_runtime(name, info["runtime"]))
    figs = []
    skipped = info.get("cd_skipped") or {}
    for metric, why in sorted(skipped.items()):
        # no placeholder picture: the reason in words (the claims' links
        # to the diagram land here)
        parts.append(f"<p class='nocd' id='{html.escape(cd_anchor(name, metric))}'>"
                     "<b>Critical differences: "
                     f"{html.escape(metric_label(metric))}</b>: no diagram; "
                     f"the rank test {html.escape(why)}.</p>")
    for metric, path in sorted((info.get("cd_by_metric") or {}).items()):
        if metric in skipped:
            continue
        figs.append(_figure(cd_anchor(name, metric), path,
                            figure_alt(path)
                            or f"{name}: critical-difference diagram, {metric}",
                            "Critical differences: "
                            + html.escape(metric_label(metric)), "cd"))
    if info.get("headline"):
        metric = info.get("headline_metric") or ""
        figs.append(_figure(headline_anchor(name), info["headline"],
                            figure_alt(info["headline"])
                            or f"{name}: headline curves",
                            "Curves against the number of features"
                            + (f": {html.escape(metric_label(metric))}"
                               if metric else "")))
    if figs:
        parts.append("<div class='figs'>" + "".join(figs) + "</div>")
    curves = info.get("curves") or {}
    if curves:
        parts.append("<h3>Curves per dataset</h3><div class='figs'>" + "".join(
            _figure(curves_anchor(name, d), path,
                    figure_alt(path) or f"{name}: the compared metrics against "
                    f"the number of features on {d}",
                    f"{html.escape(d)}: the compared metrics against the number "
                    "of features")
            for d, path in curves.items()) + "</div>")
    if info.get("challenge"):
        parts.append(f"<p class='challenge'><b>Challengers:</b> "
                     f"{html.escape(', '.join(info.get('challengers') or []))}, "
                     f"<a href='{html.escape(info['challenge'])}'>their page against "
                     "this study's methods</a>.</p>")
    return (f"<section class='study'><details open><summary>"
            f"<h2 id='summary-{html.escape(name)}'>Study: {html.escape(name)}</h2>"
            "</summary>" + "".join(parts) + "</details></section>")


def main_reason(table: pd.DataFrame,
                claims: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """What the robust "not reproduced" verdicts of the claims that are not
    weak have most in common: the rule that decided most of them, and how
    many are beyond and within fold noise (of those with a noise label).

    >>> t = pd.DataFrame({"claim": ["a", "b", "c"], "verdict": ["not reproduced"] * 3,
    ...                   "robust": ["beyond fold noise", "within fold noise", ""]})
    >>> main_reason(t, {"a": {"rule": "value"}, "b": {"rule": "value"},
    ...                 "c": {"rule": "better"}})
    '2 of 3 value claims; 1 beyond fold noise; 1 within fold noise'
    """
    rows = [r for r in table.to_dict("records")
            if robust_word(r) == NOT_REPRODUCED
            and not str(r.get("robust") or "").startswith("weak claim")]
    if not rows:
        return ""
    rules = pd.Series([str((claims or {}).get(str(r["claim"]), {}).get("rule")
                           or "other") for r in rows])
    top, n = rules.value_counts().index[0], int(rules.value_counts().iloc[0])
    text = f"{n} of {len(rows)} {top} claims"
    for label in ("beyond fold noise", "within fold noise"):
        k = sum(str(r.get("robust") or "") == label for r in rows)
        text += f"; {k} {label}" if k else ""
    return text


def _tally_cells(counts: Mapping[str, Any] | None) -> list[str]:
    classes = {"reproduced": "reproduced", "not reproduced": "not-reproduced",
               "depends": "depends", "not checkable": "not-checkable-here"}
    cells = []
    for key, klass in classes.items():
        n = None if counts is None else counts[key]
        cells.append(f"<td class='n{' ' + klass if n else ''}'>"
                     f"{'' if n is None else n}</td>")
    if counts is None:
        return cells + ["<td class='n'></td>"] * 3
    weak = (f"{counts['weak reproduced']} / {counts['weak not reproduced']}"
            f" / {counts['weak other']}")
    rate = "" if counts["rate"] is None else f"{100 * counts['rate']:.0f} %"
    return cells + [f"<td class='n'>{weak}</td>",
                    f"<td class='n'>{counts['claims']}</td>",
                    f"<td class='n'>{rate}</td>"]


def overview(experiments: Mapping[str, Mapping[str, Any]]) -> str:
    """The opening table, per paper: its citation, then a row per study
    (experiment) with its verdicts counted as a referee would sign them
    (:func:`~mlfsbench.report.tally.tally`: robust verdicts, those that
    depend on a reading, not checkable ones, weak claims apart, the
    reproduction rate over the robust verdicts; the counts add up to the
    claims), the main reason for its robust non-reproductions
    (:func:`main_reason`), the datasets it ran of the paper's and a link to
    its section; a paper of several studies gets a total row, the table a
    total over every study."""
    head = ["study", REPRODUCED, NOT_REPRODUCED, DEPENDS, NOT_CHECKABLE,
            "weak claims (reproduced / not / other)", "claims",
            "rate (robust, not weak)", "main reason (robust, not weak, not "
            "reproduced)", "datasets run of the paper's"]
    papers: dict[str, list[str]] = {}
    for name, info in experiments.items():
        papers.setdefault(str(info.get("paper") or ""), []).append(name)
    bodies, every = [], []
    for paper, names in papers.items():
        rows = []
        if paper:
            rows.append(f"<tr><th class='paper' colspan='{len(head)}'>"
                        f"{html.escape(paper)}</th></tr>")
        counted = []
        for name in names:
            info = experiments[name]
            t = _verdicts(info)
            counts = tally(t) if t is not None else None
            if counts is not None:
                counted.append(counts)
            reason = "" if t is None else main_reason(t, info.get("claim_specs"))
            ran = len(info.get("datasets", []))
            of = (len(info["paper_datasets"]) if info.get("paper_datasets")
                  else ran + len(info.get("unavailable") or {}))
            link = f"<a href='#summary-{html.escape(name)}'>{html.escape(name)}</a>"
            rows.append(f"<tr><td>{link}</td>" + "".join(_tally_cells(counts))
                        + f"<td>{html.escape(reason)}</td>"
                        f"<td class='n'>{ran} of {of}</td></tr>")
        if len(counted) > 1:
            rows.append("<tr class='total'><td>paper total</td>"
                        + "".join(_tally_cells(total(counted)))
                        + "<td></td><td></td></tr>")
        every += counted
        bodies.append("<tbody>" + "".join(rows) + "</tbody>")
    foot = ""
    if len(every) > 1:
        foot = ("<tfoot><tr class='total'><td>all studies</td>"
                + "".join(_tally_cells(total(every)))
                + "<td></td><td></td></tr></tfoot>")
    return ("<table class='overview'><thead><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in head)
            + "</tr></thead>" + "".join(bodies) + foot + "</table>")


def summary_body(experiments: Mapping[str, Mapping[str, Any]],
                 code: str | None = None, standalone: bool = False,
                 leagues: Sequence[str] = ()) -> str:
    """The page's content (one ``div.mlfs-summary``): the overview, the
    contents and every study's section; ``standalone`` adds the page's
    heading and the claims' filter (the report has its own heading and runs
    no script of ours); ``leagues``: league pages to link (paths relative
    to the page, ``league/league.html``)."""
    experiments = dict(sorted(experiments.items(),
                              key=lambda item: item[1].get("claims") is None))
    body = "".join(experiment_section(n, i) for n, i in experiments.items())
    code_line = (f"<p><small>Code: {html.escape(code)}</small></p>" if code
                 else "")
    code_line += ("<p class='leaderboard'><a href='leaderboard.html'>Leaderboard"
                  "</a>: every method's average rank in every study, the "
                  "challengers' too, in one sortable table.</p>")
    if any(i.get("challenge") for i in experiments.values()):
        code_line += ("<p class='challenges'><a href='challenges.html'>Challengers "
                      "against the studies</a> (a page per study with "
                      "challengers, linked from its section).</p>")
    for page in leagues:
        code_line += (f"<p class='league'><a href='{html.escape(page)}'>The "
                      "league</a>: every method under every study's protocol, "
                      "and which orderings hold under all of them "
                      f"({html.escape(page.split('/')[0])}).</p>")
    contents = ("<nav class='contents'><b>Contents:</b> "
                + " · ".join(f"<a href='#summary-{html.escape(n)}'>{html.escape(n)}</a>"
                             for n in experiments) + "</nav>")
    top = f"<h1>{html.escape(TITLE)}</h1>" if standalone else ""
    filters = ""
    if standalone and any(i.get("claims") for i in experiments.values()):
        options = "".join(f"<option value='{v}'>{v}</option>" for v in
                          ("reproduced", "not reproduced", "depends",
                           "not checkable"))
        filters = ("<div class='filters'>Show claims: <select id='mlfs-verdict'>"
                   f"<option value=''>every verdict</option>{options}</select> "
                   "containing <input id='mlfs-text' type='search' "
                   "placeholder='text, e.g. yeast'> (click a column heading to "
                   "sort)</div>")
    return (f"<div class='mlfs-summary'><style>{STYLE}</style>{top}"
            "<h2 id='summary-overview'>Verdicts per study</h2>"
            f"{overview(experiments)}{code_line}{contents}{filters}{body}</div>")


def write_summary(experiments: Mapping[str, Mapping[str, Any]],
                  out: PathLike, code: str | None = None,
                  fragment: PathLike | None = None,
                  leagues: Sequence[str] = ()) -> None:
    """``results/summary.html``, a standalone page: the overview table of
    every study first, then every experiment's section, those with verdicts
    first (in config order), then the others; ``code``: the code's version
    (provenance). ``fragment``: where to write the same content without the
    page around it, for the Snakemake report's opening page.

    ``experiments`` maps a name to ``paper``, ``description``, ``datasets``,
    ``unavailable`` (dataset -> reason), ``claims`` (path of the verdict
    table or None), ``claim_specs`` (claim id -> its claims-file entry),
    ``readings`` (path of ``readings.tsv``) and ``reading_legend`` (reading
    -> its ``about``, ``evidence`` and options), ``cd_by_metric`` (metric ->
    PNG path), ``cd_skipped`` (metric -> why no rank test was made: said in
    words in place of its diagram), ``headline`` (PNG path or None),
    ``headline_metric``,
    ``curves`` (dataset -> PNG path of its curves), ``runtime`` (path of
    ``runtime.tsv``), ``paper_tables`` (metric -> HTML path),
    ``paper_html`` (metric -> that file's HTML, read once) and ``table_k``
    (the K of those tables); an experiment with challengers
    also ``challengers`` (their names) and ``challenge`` (its challenge
    page, relative to ``out``), and the page then links the page across
    studies (``challenges.html`` beside ``out``); the leaderboard
    (``leaderboard.html`` beside ``out``) is linked always. ``leagues``: the
    league pages to link (relative to ``out``).
    """
    page = ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width'>"
            f"<title>{html.escape(TITLE)}</title></head><body>"
            + summary_body(experiments, code, standalone=True, leagues=leagues)
            + f"<script>{SCRIPT}</script></body></html>\n")
    write_text(out, page)
    if fragment is not None:
        write_text(fragment, summary_body(experiments, code, leagues=leagues) + "\n")


def _ids(pages: Iterable[str]) -> set[str]:
    """The element ids of HTML texts (the paper tables' rows and cells)."""
    out: set[str] = set()
    for text in pages:
        out |= {html.unescape(i) for i in re.findall(r"\bid='([^']+)'", text)}
    return out


def _read_texts(paths: Mapping[str, str]) -> dict[str, str]:
    """Each file's text, by the same key."""
    out = {}
    for key, path in paths.items():
        with open(path, encoding="utf-8") as fh:
            out[key] = fh.read()
    return out


def _skipped_comparisons(paths) -> dict[str, str]:
    """Metric -> why no rank test compared the methods (the ``skipped`` of
    ``stats/<metric>.json``: one dataset, one method), for those skipped."""
    out = {}
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            result = json.load(fh)
        if "skipped" in result:
            out[os.path.basename(path)[:-len(".json")]] = str(result["skipped"])
    return out


def reading_specs(readings: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each declared reading's legend: its ``about``, ``evidence``,
    ``favoured`` and its options' ``about`` (an experiment's ``readings:``
    or a claims file's scoring readings)."""
    out = {}
    for name, spec in (readings or {}).items():
        spec = spec or {}
        out[str(name)] = {
            "about": spec.get("about", ""), "evidence": spec.get("evidence", ""),
            "favoured": spec.get("favoured", ""),
            "options": {str(o): {"about": (v or {}).get("about", "")}
                        for o, v in (spec.get("options") or {}).items()}}
    return out


def summary_info(experiments: Mapping[str, Mapping[str, Any]],
                 files: Sequence[str],
                 readings: Mapping[str, Mapping[str, Any]] | None = None,
                 challengers: Mapping[str, Sequence[str]] | None = None,
                 paper_datasets: Mapping[str, Sequence[str]] | None = None,
                 ) -> dict[str, dict[str, Any]]:
    """Collect each experiment's entries of :func:`write_summary` from the
    rule's input files (paths under ``results/<experiment>/``): the verdict
    table (``tables/robust_claims.tsv`` when an input, else
    ``tables/claims.tsv``), ``stats/<metric>_cd.png`` and ``.json``,
    ``plots/headline.png``, ``tables/paper/<metric>.html``, its readings'
    verdicts ``tables/readings.tsv``, the curves ``plots/<dataset>.png``
    and, for a study with a claim on times, ``tables/runtime.tsv``;
    ``readings``: experiment -> its declared readings (their legend);
    ``challengers``: experiment -> the readable names of its challengers
    (the workflow's ``Plan.challenger_labels``), for those that have some;
    ``paper_datasets``: experiment -> the datasets of the paper's study (a
    challenge run on some of them counts those it ran "of the paper's")."""
    import yaml

    out: dict[str, dict[str, Any]] = {}
    for name, x in experiments.items():
        prefix = os.path.join("results", name) + os.sep
        mine = [f for f in files if os.path.normpath(f).startswith(prefix)]
        verdicts = ([f for f in mine if f.endswith("robust_claims.tsv")]
                    or [f for f in mine if f.endswith("claims.tsv")])
        stats = x.get("stats") or {}
        metrics = list(stats.get("metrics") or [])
        tables = {os.path.basename(f)[:-len(".html")]: f for f in mine
                  if os.sep + "paper" + os.sep in os.path.normpath(f)
                  and f.endswith(".html")}
        pages = _read_texts(tables)  # the page shows them, the links find ids
        info: dict[str, Any] = {
            "description": x.get("description", ""), "datasets": x["datasets"],
            "claims": verdicts[0] if verdicts else None,
            "cd_by_metric": {os.path.basename(f)[:-len("_cd.png")]: f
                             for f in mine if f.endswith("_cd.png")},
            "cd_skipped": _skipped_comparisons(f for f in mine if os.path.basename(
                os.path.dirname(f)) == "stats" and f.endswith(".json")),
            "headline": next((f for f in mine if f.endswith("headline.png")), None),
            "headline_metric": metrics[0] if metrics else None,
            "paper_tables": tables,
            "paper_html": pages,
            "table_k": stats.get("n_features"),
            "readings": next((f for f in mine if f.endswith("readings.tsv")), None),
            "paper_datasets": list((paper_datasets or {}).get(name) or []),
            "summary_table": next((f for f in mine
                                   if os.path.normpath(f) == os.path.join(
                                       prefix + "tables", "summary.tsv")), None),
            "table_ids": _ids(pages.values()),
            "reading_legend": reading_specs((readings or {}).get(name) or {}),
            "curves": {d: f for d in x["datasets"] for f in mine
                       if os.path.normpath(f) == os.path.join(prefix + "plots",
                                                              f"{d}.png")},
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
            info["reading_legend"].update(reading_specs(data.get("readings") or {}))
            if any(c.get("rule") == "fastest" for c in specs.values()):
                info["runtime"] = next((f for f in mine
                                        if f.endswith(os.sep + "runtime.tsv")
                                        or f.endswith("/runtime.tsv")), None)
            info["unavailable"] = {d: r for d, r in
                                   (data.get("unavailable") or {}).items()
                                   if d in named}
        labels = list((challengers or {}).get(name) or [])
        if labels:  # its challenge page, beside this page's results/ folder
            info["challengers"] = labels
            info["challenge"] = f"{name}/challenge/index.html"
        if x.get("unavailable"):  # datasets this run could not obtain
            info["unavailable"] = {**info.get("unavailable", {}),
                                   **x["unavailable"]}
        out[name] = info
    return out
