"""Challenge pages: a method of one's own against a study's methods.

An experiment's entries flagged ``challenger: true`` are *challengers*, every
other method the study's statistics compare a *paper method*; the numbers
(ranks, tests, W/T/L, the paper's best, the tie rule) are
:mod:`mlfsbench.report.challenge_stats`'s, the tables of a page
:mod:`mlfsbench.report.challenge_tables`'s.

:func:`write_challenge` writes one experiment's page
(``challenge/index.html``, with the Bayesian comparisons that
:func:`write_bayesian` wrote to ``challenge/pairwise.tsv``) and rows
(``challenge.tsv``), :func:`challenge_cd`
the CD diagram of one metric with the challengers highlighted,
:func:`write_challenges` the page across studies (a section per challenge,
:func:`challenge_id`, most recent first). The public names of the two other
modules are importable from here too.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from mlfsbench.io import format_table, read_table, write_text
from mlfsbench.report.cd_diagram import HIGHLIGHT_COLOUR
from mlfsbench.report.challenge_stats import (
    COLUMNS,
    PAIRWISE_COLUMNS,
    SUMMARY_COLUMNS,
    TIE_RULE,
    bayesian_rows,
    challenge,
    challenge_metric,
    challenge_rows,
    challenger_columns,
    pairwise,
    paper_best,
    summary_rows,
    tie_decimals,
    too_few_datasets,
    too_few_note,
    verdict_sentence,
    verdict_words,
    wins_ties_losses,
)
from mlfsbench.report.challenge_tables import (
    bayesian_table,
    challenger_list,
    challenger_names,
    datasets_text,
    number_text,
    pairwise_table,
    param_text,
    ranks_table,
    readable_labels,
    runtime_table,
)
from mlfsbench.report.compare import cd_alt, cd_figure
from mlfsbench.report.names import (
    challenge_id,
    display_name,
    metric_label,
)
from mlfsbench.report.paper_tables import paper_table, to_html
from mlfsbench.report.render import (
    TABLE_STYLE,
    message_figure,
    save_figure,
)

PathLike = str | os.PathLike


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
    return cd_figure(result, metric, png, labels, highlight=m["challengers"])




# -------------------------------------------------------------------- pages
STYLE = TABLE_STYLE + (
    "td.challenger,th.challenger{background:#fde0e0;font-weight:bold}"
    "tr.yes td.sig{background:#d8f0d8}"
    ".note{color:#444;font-size:90%}"
    f".mark{{color:{HIGHLIGHT_COLOUR};font-weight:bold}}"
    "figure{margin:4px 0}figcaption{font-size:85%;color:#444}"
    "img{max-width:100%;height:auto}")




def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width'>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body><h2>{html.escape(title)}</h2>{body}</body></html>\n")



def challenge_page(experiment: str, metrics: Sequence[Mapping[str, Any]],
                   challengers: Sequence[str], options: Mapping[str, Any], *,
                   summary: pd.DataFrame, runtime: pd.DataFrame | None = None,
                   cd_files: Mapping[str, str] | None = None,
                   labels: Mapping[str, str] | None = None,
                   order: Sequence[str] | None = None,
                   entries: Mapping[str, Mapping[str, Any]] | None = None,
                   paper_datasets: Sequence[str] | None = None,
                   summary_page: str | None = "../../summary.html",
                   curves: Mapping[str, str] | None = None,
                   bayesian: pd.DataFrame | None = None) -> str:
    """The challenge page of one experiment (HTML text); ``cd_files``:
    metric -> the CD diagram's path relative to the page; ``entries``: the
    challengers' config entries (their names and parameters);
    ``paper_datasets``: the study's datasets (the challenge may run some);
    ``summary_page``: the summary page relative to this one (its section
    ``#summary-<experiment>`` is linked); ``curves``: dataset -> its
    metric-versus-K figure relative to the page; ``bayesian``: the rows of
    the challenge's ``pairwise.tsv`` (:func:`bayesian_rows`), shown below
    each metric's rank tests."""
    e = html.escape
    shown = readable_labels(labels, entries)

    def name(method: str) -> str:
        return display_name(method, shown)

    decimals = tie_decimals(options)
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
    if bayesian is not None:
        links.append("<a href='pairwise.tsv'>the Bayesian comparisons "
                     "(pairwise.tsv)</a>")
    links += [f"<a href='{e(p)}'>curves, {e(d)}</a>"
              for d, p in (curves or {}).items()]
    parts = [f"<nav class='links'>{' · '.join(links)}</nav>",
             "<p>Challenger(s):</p>", challenger_list(challengers, name, entries),
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
             "." + (" Bayesian signed-rank test (Benavoli et al. 2017): over the "
                    "datasets, the probabilities that the challenger is better, that "
                    "the two are equivalent within the region of practical "
                    "equivalence (± the rope, in the metric's units; 0 on average "
                    "ranks) and that the paper method is better; Cliff's delta "
                    "(positive: the challenger better) with its magnitude (Romano et "
                    "al. 2006)." if bayesian is not None else "") + "</p>",
             "<h3>Rank per metric</h3>", ranks_table(metrics, name)]
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
            for c in m["rows"]:
                parts.append(pairwise_table(m, c, name))
                if bayesian is not None:
                    parts.append(bayesian_table(bayesian, metric, c, name))
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
    parts += ["<h3>Selection time</h3>", runtime_table(runtime, challengers, name)]
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
                    summary_page: PathLike | None = None,
                    pairwise_path: PathLike | None = None) -> pd.DataFrame:
    """The ``challenge`` rule: one experiment's page and rows. ``pairwise_path``:
    the challenge's ``pairwise.tsv`` (:func:`write_bayesian`), shown on the
    page; ``cd_files``,
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
    bayesian = None
    if pairwise_path is not None:
        bayesian = read_table(pairwise_path, dtype={"n_features": str})
        missing = [c for c in PAIRWISE_COLUMNS if c not in bayesian.columns]
        if missing:
            raise ValueError(f"{pairwise_path}: not a challenge's pairwise table "
                             f"(no column {', '.join(missing)})")
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
            os.sep, "/"), curves=curves, bayesian=bayesian))
    return rows


def write_bayesian(summary_path: PathLike, experiment: str,
                   challengers: Sequence[str], options: Mapping[str, Any],
                   metrics: Sequence[str], tsv_out: PathLike) -> pd.DataFrame:
    """The ``challenge_pairwise`` rule: each challenger against each paper
    method by the Bayesian signed-rank test and Cliff's delta
    (:func:`bayesian_rows`), per compared metric, as ``pairwise.tsv``."""
    summary = read_table(summary_path, dtype={"n_features": str})
    rows = bayesian_rows(experiment, challenge(summary, challengers, options,
                                               metrics))
    write_text(tsv_out, format_table(rows))
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
        for c, shown in challenger_names(frame).items():  # earlier challenges'
            labels.setdefault(c, shown)
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
            "challenger) is below the study's alpha. <a href='leaderboard.html'>"
            "The leaderboard</a>: every method's average rank in every study, in "
            "one sortable table.</p>",
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
                        f"({float(r['paper_best_rank']):.2f})", number_text(p),
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


__all__ = ["COLUMNS", "PAIRWISE_COLUMNS", "SUMMARY_COLUMNS", "bayesian_rows",
           "challenge", "challenge_cd",
           "challenge_id", "challenge_metric", "challenge_page", "challenge_rows",
           "challenger_columns", "datasets_text", "pairwise", "paper_best",
           "param_text", "readable_labels", "summary_rows", "too_few_datasets",
           "verdict_sentence", "verdict_words", "wins_ties_losses",
           "write_bayesian", "write_challenge", "write_challenges"]
