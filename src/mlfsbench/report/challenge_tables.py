"""The challenger's tables on the challenge page of one experiment.

The ranks per metric (:func:`ranks_table`), the tests against each paper
method (:func:`pairwise_table`), the Bayesian signed-rank test and Cliff's
delta against each (:func:`bayesian_table`), the selection times
(:func:`runtime_table`), the list of challengers with their parameters and cache ids
(:func:`challenger_list`), and the names and sentences they are written with
(:func:`readable_labels`, :func:`param_text`, :func:`datasets_text`). The
numbers are :mod:`mlfsbench.report.challenge_stats`'s, the page
:mod:`mlfsbench.report.challenge`'s.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.report.challenge_stats import too_few_note, verdict_words
from mlfsbench.report.names import metric_label
from mlfsbench.report.render import natural_sorted


def number_text(value, fmt: str = ".3g") -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return ""
    return format(value, fmt)


def _iman_davenport_p(test: dict) -> str:
    """The Iman-Davenport p-value; ``0 (F = ∞)`` when every dataset ranks
    the methods alike (``F_F`` is then infinite, stored as null or inf)."""
    F = test.get("F")
    if test["p_value"] == 0 and (F is None or F == float("inf")):
        return "0 (F = ∞)"
    return number_text(test["p_value"])




def ranks_table(metrics: Sequence[Mapping[str, Any]], name) -> str:
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
                     number_text(b["p_holm"]), "yes" if sig else "no",
                     e(verdict_words(info["rank"], b["method_rank"], b["p_holm"],
                                     res["alpha"])),
                     number_text(res["friedman"]["p_value"]),
                     _iman_davenport_p(res["iman_davenport"]), str(res["n_datasets"])]
            rows.append(f"<tr id='rank-{e(metric)}-{e(c)}' data-metric='{e(metric)}' "
                        f"class='{'yes' if sig and better else ''}'>"
                        + "".join(f"<td{' class=sig' if i == 6 else ''}>{x}</td>"
                                  for i, x in enumerate(cells)) + "</tr>")
    return ("<div class='scroll'><table id='challenge-ranks'><thead><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>"
            + "".join(f"<p class='note too-few'>{e(n)}</p>" for n in notes))


def pairwise_table(m: Mapping[str, Any], c: str, name) -> str:
    e = html.escape
    info = m["rows"][c]
    alpha = m["result"]["alpha"]
    head = ["paper method", "average rank", "z", "p", "Holm p",
            f"significant at α = {alpha}", "W/T/L"]
    rows = []
    for t in info["tests"].to_dict("records"):
        best = " (paper's best)" if t["paper_best"] else ""
        cells = [e(name(t["method"])) + best, f"{t['method_rank']:.2f}",
                 f"{t['z']:.3f}", number_text(t["p"]), number_text(t["p_holm"]),
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


def bayesian_table(rows: pd.DataFrame, metric: str, c: str, name) -> str:
    """The challenger ``c`` against each paper method on ``metric``, from a
    challenge's ``pairwise.tsv``
    (:func:`~mlfsbench.report.challenge_stats.bayesian_rows`): the Bayesian
    signed-rank test's three probabilities and Cliff's delta with its
    magnitude, the columns of the study's ``pairwise.html``; empty
    when the file has no such rows."""
    e = html.escape
    mine = rows[(rows["metric"] == metric) & (rows["first"] == c)
                & rows["second"].notna()]
    if mine.empty:
        return ""
    rope = float(mine["rope"].iloc[0])
    head = ["paper method", "P(challenger better)",
            f"P(equivalent, within ±{rope:g})", "P(paper method better)",
            "Cliff's δ", "magnitude", "N datasets"]
    body = []
    for t in mine.to_dict("records"):
        cells = [e(name(str(t["second"]))), f"{float(t['p_first']):.3f}",
                 f"{float(t['p_rope']):.3f}", f"{float(t['p_second']):.3f}",
                 f"{float(t['cliffs_delta']):.3f}", e(str(t["magnitude"])),
                 str(int(t["n_datasets"]))]
        body.append("<tr>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
    return (f"<div class='scroll'><table class='bayesian' id='bayesian-{e(metric)}-"
            f"{e(c)}'><caption>{e(name(c))} against each paper method: Bayesian "
            "signed-rank test over the datasets and Cliff's delta (positive: the "
            "challenger better)</caption><thead><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(body) + "</tbody></table></div>")


def runtime_table(runtime: pd.DataFrame | None, mine: Sequence[str],
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
            f"<td class='{'challenger' if c in mine else ''}'>"
            f"{number_text(r[c], '.3g')}</td>"
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


def challenger_names(frame: pd.DataFrame) -> dict[str, str]:
    """A ``challenge.tsv``'s challengers by id -> the names its page gave
    them (its ``challenger_name`` column; none in an older table): how the
    pages across studies name an earlier challenge's challengers."""
    if "challenger_name" not in frame:
        return {}
    return {str(c): str(shown) for c, shown in zip(
        frame["challenger"], frame["challenger_name"], strict=True)
        if pd.notna(c) and pd.notna(shown)}


def param_text(params: Mapping[str, Any] | None) -> str:
    """``name=value, ...`` in name order; "defaults" without any.

    >>> param_text({"beta": 2, "alpha": 0.1})
    'alpha=0.1, beta=2'
    """
    if not params:
        return "defaults"
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items()))


def challenger_list(challengers: Sequence[str], name,
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


