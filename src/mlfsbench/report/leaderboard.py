"""The leaderboard: every method's average rank in every study, one table.

A row per method (the papers' methods and every challenger run so far), a
column per experiment: the method's average rank there, from the tables the
statistics stages wrote, nothing computed again:

- an experiment without challengers: its ``tables/ranks.tsv`` (the ``ranks``
  rule; per compared metric, each method's average rank over the datasets
  and the number of datasets);
- an experiment with challengers (this run's or an earlier challenge's on
  disk): its ``challenge/challenge.tsv`` (the ``challenge`` rule), where the
  paper's methods and the challengers are ranked together; its
  ``ranks.tsv`` leaves the challengers out, so one column holds one ranking.

A method's rank in an experiment is the mean of its average ranks over the
experiment's compared metrics that have a rank test (a metric on too few
datasets has none); :func:`average_ranks_by_study` gives that table, a row per
experiment and method, for any page that ranks methods across studies.
A method that did not run in an experiment has no rank there (an empty
cell, never 0). Its *mean rank* is the mean over the studies it ran in, each
study counted once: the study of a challenge experiment ``lee2016+mine`` is
``lee2016``, and a paper method ranked in both the study and its challenges
counts the mean of those ranks for that study. Ranks among k methods lie in
1..k: a mean over studies of different k compares places, not scores.

Beside its rank, a method's wins, ties and losses (W/T/L) in an experiment
against the study's proposed method (its ``stats.control``): the number of
datasets on which its mean is better, equal or worse, summed over the
compared metrics that have a rank test (a comparison per dataset and
metric), as the statistics stages counted them (``ranks.tsv``'s ``wins:``,
``ties:``, ``losses:`` columns; ``challenge.tsv``'s ``wins`` ... of a
challenger's row against the control, ``method_wins`` ... of the paper
methods), by the one tie rule of the pages
(:func:`mlfsbench.report.compare.tie_decimals`). The control itself, and
every method of a study without a control, has none.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mlfsbench.io import format_table, read_table, write_text
from mlfsbench.names import CHALLENGE_MARK
from mlfsbench.report.challenge_tables import challenger_names
from mlfsbench.report.names import display_name
from mlfsbench.report.render import HIGHLIGHT_COLOUR, TABLE_STYLE, natural_key

PathLike = str | os.PathLike

#: Columns of :func:`average_ranks_by_study`.
RANK_COLUMNS = ["experiment", "study", "method", "challenger", "average_rank",
                "n_metrics", "n_datasets", "n_methods", "control", "wins", "ties",
                "losses"]
#: What a method's W/T/L counts, in :data:`RANK_COLUMNS` and the page.
WTL = ("wins", "ties", "losses")


def study_of(experiment: str) -> str:
    """The study an experiment's ranks count for: a challenge experiment's
    study is the one it extends (before the ``+``).

    >>> study_of("lee2016+mine"), study_of("lee2016")
    ('lee2016', 'lee2016')
    """
    return experiment.split(CHALLENGE_MARK, 1)[0]


def _need(table: pd.DataFrame, path: PathLike, columns: list[str], what: str):
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: not {what} (no column {', '.join(missing)})")


def _ranks_rows(experiment: str, path: PathLike) -> list[dict[str, Any]]:
    """Per metric with a test and method: its average rank (``ranks.tsv``)."""
    table = read_table(path, dtype={"n_features": str})
    _need(table, path, ["metric"], "a ranks table")
    ranked = [c for c in table.columns if c.startswith("rank:")]
    rows = []
    for r in table.to_dict("records"):
        methods = {c[len("rank:"):]: r[c] for c in ranked if pd.notna(r[c])}
        if not methods:  # no rank test on this metric (too few datasets)
            continue
        _need(table, path, ["n_datasets"], "a ranks table of this version")
        control = r.get("control")
        rows += [{"experiment": experiment, "metric": r["metric"], "method": m,
                  "challenger": False, "rank": float(v),
                  "n_datasets": int(r["n_datasets"]), "n_methods": len(methods),
                  "control": control if pd.notna(control) else None,
                  **{w: _count(r.get(f"{w}:{m}")) for w in WTL}}
                 for m, v in methods.items()]
    return rows


def _count(value) -> float:
    """A W/T/L count read from a table (NaN where there is none)."""
    return float("nan") if value is None or pd.isna(value) else float(value)


def _challenge_rows(experiment: str, path: PathLike) -> list[dict[str, Any]]:
    """Per metric with a test: the challengers' and the paper methods'
    average ranks, ranked together (``challenge.tsv``)."""
    table = read_table(path, dtype={"n_features": str})
    _need(table, path, ["challenger", "metric", "challenger_rank", "method",
                        "method_rank", "n_datasets", "n_methods"],
          "a challenge table")
    table = table[table["challenger_rank"].notna()]
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    nothing = dict.fromkeys(WTL, float("nan"))
    for r in table.to_dict("records"):
        control = r.get("control")
        control = control if control is not None and pd.notna(control) else None
        base = {"experiment": experiment, "metric": r["metric"],
                "n_datasets": int(r["n_datasets"]), "n_methods": int(r["n_methods"]),
                "control": control}
        mine = rows.setdefault((r["metric"], r["challenger"]), {
            **base, "method": r["challenger"], "challenger": True,
            "rank": float(r["challenger_rank"]), **nothing})
        if control is not None and r["method"] == control:
            # the challenger's row against the study's proposed method
            mine.update({w: _count(r.get(w)) for w in WTL})
        rows.setdefault((r["metric"], r["method"]), {
            **base, "method": r["method"], "challenger": False,
            "rank": float(r["method_rank"]),
            **{w: _count(r.get(f"method_{w}")) for w in WTL}})
    return list(rows.values())


def average_ranks_by_study(ranks: Mapping[str, PathLike],
                           challenges: Mapping[str, PathLike] | None = None
                           ) -> pd.DataFrame:
    """The average rank of every method in every experiment
    (:data:`RANK_COLUMNS`, a row per experiment and method, in the order
    given, methods in natural order): ``average_rank`` the mean over the
    experiment's metrics with a rank test (``n_metrics``), ``n_datasets``
    the most datasets one of them ranked on, ``n_methods`` the most methods
    ranked together; ``challenger`` whether the method is one of the
    experiment's challengers.

    ``ranks``: experiment -> its ``tables/ranks.tsv``; ``challenges``:
    experiment -> its ``challenge/challenge.tsv``, which stands for the
    experiment's ranks (the challengers ranked with the paper's methods): an
    experiment in both is read from its challenge table.
    """
    challenges = dict(challenges or {})
    rows: list[dict[str, Any]] = []
    for experiment, path in ranks.items():
        if experiment not in challenges:
            rows += _ranks_rows(experiment, path)
    for experiment, path in challenges.items():
        rows += _challenge_rows(experiment, path)
    long = pd.DataFrame(rows, columns=["experiment", "metric", "method",
                                       "challenger", "rank", "n_datasets",
                                       "n_methods", "control", *WTL])
    order = list(dict.fromkeys([*ranks, *challenges]))
    grouped = long.groupby(["experiment", "method"], sort=False)
    out = grouped.agg(
        challenger=("challenger", "any"), average_rank=("rank", "mean"),
        n_metrics=("metric", "nunique"), n_datasets=("n_datasets", "max"),
        n_methods=("n_methods", "max"),
        control=("control", "first")).reset_index()
    # summed over the metrics; none (NaN) where no metric counted any
    counts = grouped[list(WTL)].sum(min_count=1).reset_index(drop=True)
    for w in WTL:
        out[w] = counts[w].astype("Int64")
    out.insert(1, "study", [study_of(e) for e in out["experiment"]])
    out["challenger"] = out["challenger"].astype(bool)
    out = out.sort_values(
        ["experiment", "method"], kind="stable",
        key=lambda s: (s.map({e: i for i, e in enumerate(order)})
                       if s.name == "experiment" else s.map(natural_key))
    ).reset_index(drop=True)
    return out[RANK_COLUMNS]


def leaderboard(by_study: pd.DataFrame) -> pd.DataFrame:
    """The leaderboard's table from :func:`average_ranks_by_study`: a row per
    method (``method``, ``challenger``), per experiment ``rank:<experiment>``
    (empty where it did not run) and ``datasets:<experiment>``, and
    ``mean_rank`` over its studies (each study once: the mean of its
    experiments' ranks) with their number ``studies``; best mean rank first.
    An experiment with a control has ``wins:<experiment>``,
    ``ties:<experiment>`` and ``losses:<experiment>`` after its datasets
    (empty for the control and where the method did not run).
    """
    experiments = list(dict.fromkeys(by_study["experiment"]))
    ranks = by_study.pivot(index="method", columns="experiment",
                           values="average_rank").reindex(columns=experiments)
    datasets = by_study.pivot(index="method", columns="experiment",
                              values="n_datasets").reindex(columns=experiments)
    per_study = by_study.groupby(["method", "study"])["average_rank"].mean()
    table = pd.DataFrame({"method": ranks.index})
    table["challenger"] = [bool(by_study.loc[by_study["method"] == m,
                                             "challenger"].any())
                           for m in table["method"]]
    for e in experiments:
        table[f"rank:{e}"] = ranks[e].to_numpy()
        table[f"datasets:{e}"] = datasets[e].astype("Int64").to_numpy()
        mine = by_study[by_study["experiment"] == e].set_index("method")
        if mine["wins"].notna().any():
            for w in WTL:
                table[f"{w}:{e}"] = table["method"].map(mine[w]).astype("Int64")
    means = per_study.groupby(level="method").agg(["mean", "count"])
    table["mean_rank"] = table["method"].map(means["mean"])
    table["studies"] = table["method"].map(means["count"]).astype(int)
    return table.sort_values(
        ["mean_rank", "method"], kind="stable",
        key=lambda s: s if s.name == "mean_rank" else s.map(natural_key)
    ).reset_index(drop=True)


STYLE = TABLE_STYLE + (
    "th.sort{cursor:pointer}th.sort:after{content:' \\2195';color:#888}"
    "th[aria-sort=ascending]:after{content:' \\2191'}"
    "th[aria-sort=descending]:after{content:' \\2193'}"
    "td.name,th.name{text-align:left}"
    "tr.challenger td{background:#fde0e0;font-weight:bold}"
    f"tr.challenger td.name:before{{content:'\\25B6 ';color:{HIGHLIGHT_COLOUR}}}"
    ".note{color:#444;font-size:90%}small{color:#555;font-weight:normal}")

#: Sorts the table by a column on a click of its header (again: the other
#: way): numbers by value, names by text; an empty cell (a method that did
#: not run there) last either way. Inline: the page works offline.
SCRIPT = """
(function(){
var t=document.getElementById('leaderboard'),b=t.tBodies[0];
var hs=Array.from(t.tHead.rows[0].cells);
hs.forEach(function(h,i){h.addEventListener('click',function(){
 var asc=h.getAttribute('aria-sort')!=='ascending';
 hs.forEach(function(x){x.removeAttribute('aria-sort');});
 h.setAttribute('aria-sort',asc?'ascending':'descending');
 var num=h.dataset.type==='num';
 Array.from(b.rows).sort(function(x,y){
  var a=x.cells[i].dataset.value,c=y.cells[i].dataset.value;
  if(a===''||c===''){return (a==='')-(c==='');}
  var o=num?parseFloat(a)-parseFloat(c):a.localeCompare(c,undefined,{numeric:true});
  return asc?o:-o;
 }).forEach(function(r){b.appendChild(r);});});});
})();
"""


def _cell(value, text: str | None = None, cls: str = "", extra: str = "") -> str:
    """A cell sorted by ``value``, showing ``text`` (escaped) then ``extra``
    (HTML)."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return f"<td class='{cls}' data-value=''></td>"
    shown = html.escape(text if text is not None else str(value))
    return (f"<td class='{cls}' data-value='{html.escape(str(value))}'>{shown}"
            f"{extra}</td>")


def _wtl_text(row: Mapping[str, Any], experiment: str) -> str:
    """A rank cell's W/T/L line (HTML; "" without one, "control" for the
    study's proposed method where it ran).

    >>> _wtl_text({"rank:s": 1.5, "wins:s": 3, "ties:s": 0, "losses:s": 2}, "s")
    "<br><small class='wtl'>3/0/2</small>"
    """
    if f"wins:{experiment}" not in row or pd.isna(row[f"rank:{experiment}"]):
        return ""
    if pd.isna(row[f"wins:{experiment}"]):
        return "<br><small class='wtl'>control</small>"
    return ("<br><small class='wtl'>"
            + "/".join(str(int(row[f"{w}:{experiment}"])) for w in WTL)
            + "</small>")


def leaderboard_page(table: pd.DataFrame, by_study: pd.DataFrame, *,
                     labels: Mapping[str, str] | None = None,
                     pages: Mapping[str, str] | None = None) -> str:
    """The leaderboard's HTML page: :func:`leaderboard`'s table, each
    experiment's header linking its evidence (``pages``: experiment -> its
    ranks or challenge page, relative to this one) with its numbers of
    datasets and methods; challengers highlighted; sortable by a click on a
    column's header."""
    e = html.escape
    experiments = list(dict.fromkeys(by_study["experiment"]))
    names = {m: display_name(str(m), labels) for m in table["method"]}
    twins = {n for n in names.values() if list(names.values()).count(n) > 1}
    head = ["<th class='sort name' data-type='text'>method</th>"]
    for x in experiments:
        mine = by_study[by_study["experiment"] == x]
        link = e(x)
        if pages and x in pages:
            link = f"<a href='{e(pages[x])}'>{e(x)}</a>"
        versus = ""
        if f"wins:{x}" in table.columns:
            control = str(mine["control"].dropna().iloc[0])
            versus = f", W/T/L vs {e(display_name(control, labels))}"
        head.append(f"<th class='sort' data-type='num' id='col-{e(x)}'>{link}<br>"
                    f"<small>N = {int(mine['n_datasets'].max())}, k = "
                    f"{int(mine['n_methods'].max())}{versus}</small></th>")
    head += ["<th class='sort' data-type='num'>mean rank</th>",
             "<th class='sort' data-type='num'>studies</th>"]
    rows = []
    for r in table.to_dict("records"):
        m = str(r["method"])
        name = names[m] + (f" ({m})" if names[m] in twins and names[m] != m else "")
        cells = [f"<td class='name' data-value='{e(name)}' title='{e(m)}'>"
                 f"{e(name)}{' <small>(challenger)</small>' if r['challenger'] else ''}"
                 "</td>"]
        for x in experiments:
            v = r[f"rank:{x}"]
            cells.append(_cell(v, None if pd.isna(v) else f"{v:.2f}",
                               extra=_wtl_text(r, x)))
        cells.append(_cell(r["mean_rank"], f"{r['mean_rank']:.2f}"))
        cells.append(_cell(r["studies"]))
        rows.append(f"<tr id='method-{e(m)}' class='"
                    f"{'challenger' if r['challenger'] else ''}'>"
                    + "".join(cells) + "</tr>")
    body = (
        "<p class='note'>Every method's average rank in each experiment (lower "
        "is better): the mean over the experiment's compared metrics of its "
        "average rank over the datasets, as the study's statistics rank them "
        "(N: datasets, k: methods ranked together; an experiment with "
        "challengers ranks them with the paper's methods). An empty cell: the "
        "method did not run there. Below a rank, W/T/L: the datasets on which the "
        "method's mean beats, ties or loses to the study's proposed method (its "
        "control, named in the header), summed over the compared metrics; a tie "
        "is an equal mean at the study's printed precision (3 decimals if it "
        "declares none). Mean rank: over the studies it ran in, each "
        "study once (a challenge counts for the study it extends). Challengers "
        "are highlighted. Click a column's header to sort by it. "
        "<a href='leaderboard.tsv'>The table (leaderboard.tsv)</a> · "
        "<a href='summary.html'>the summary page</a> · "
        "<a href='challenges.html'>every challenge</a>.</p>")
    if table.empty:
        body += "<p class='note'>No experiment has a rank test yet.</p>"
    body += ("<div class='scroll'><table id='leaderboard'><thead><tr>"
             + "".join(head) + "</tr></thead><tbody>" + "".join(rows)
             + "</tbody></table></div>")
    title = "Leaderboard: every method across the studies"
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width'>"
            f"<title>{e(title)}</title><style>{STYLE}</style></head><body>"
            f"<h2>{e(title)}</h2>{body}<script>{SCRIPT}</script></body></html>\n")


def write_leaderboard(ranks: Mapping[str, PathLike],
                      challenges: Mapping[str, PathLike], html_out: PathLike,
                      tsv_out: PathLike, *,
                      labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The ``leaderboard`` rule: ``leaderboard.tsv`` (:func:`leaderboard`,
    method ids) and ``leaderboard.html`` beside it, each experiment linking
    its challenge page or its ranks table (``<experiment>/...`` relative to
    the page). ``labels``: method id -> readable name; a challenge table's
    ``challenger_name`` names its challengers too."""
    labels = dict(labels or {})
    for path in challenges.values():  # earlier challenges' names too
        for c, shown in challenger_names(read_table(path)).items():
            labels.setdefault(c, shown)
    by_study = average_ranks_by_study(ranks, challenges)
    table = leaderboard(by_study)
    write_text(tsv_out, format_table(table))
    pages = {x: f"{x}/tables/ranks.html" for x in ranks}
    pages.update({x: f"{x}/challenge/index.html" for x in challenges})
    write_text(html_out, leaderboard_page(table, by_study, labels=labels,
                                          pages=pages))
    return table
