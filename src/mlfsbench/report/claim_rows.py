"""A study's claims on the summary page: one row per claim, linked to what
decides it, with how it was checked and, under readings, its verdict per
option.

Each row (``<tr id='claim-<experiment>-<claim>'>``) holds

- the claim: its id as a permalink to the row, the statement and, folded
  under "how checked", the paper's sentence (``quote:``), our formalisation
  (``reading:``), the rule's words (the verdict table's ``how`` column) and
  the tolerance;
- the paper's value, what the paper's own printed table gives (``printed``),
  ours (the mean over folds with its s.d. as the verdict table prints it),
  the margin and the noise label (``robust``);
- the verdict, its robustness over the readings and, for a claim judged
  under readings, a grid of reading x option: the verdict and the deciding
  number (``ours``) of each option, the favoured one marked, each reading
  with its one-line legend (the config's ``about:`` and ``evidence:``);
- the evidence links (:func:`evidence`): the regenerated table's rows, the
  critical-difference diagram, the curves of the judged datasets, the
  runtime table, or the row's own "how checked" for a claim whose evidence
  is its draws (artificial problems).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from mlfsbench.report.claims import COLUMNS, NOT_CHECKABLE, RULES, metrics_of
from mlfsbench.report.paper_tables import anchor
from mlfsbench.report.tally import robust_word

#: Columns of a verdict table shown in their own place (not as extras).
SHOWN = set(COLUMNS) | {"robustness", "favoured"}


def esc(value: Any) -> str:
    return html.escape(str(value))


def cd_anchor(experiment: str, metric: str) -> str:
    return f"cd-{experiment}-{metric}"


def headline_anchor(experiment: str) -> str:
    return f"headline-{experiment}"


def curves_anchor(experiment: str, dataset: str) -> str:
    return f"curves-{experiment}-{dataset}"


def runtime_anchor(experiment: str) -> str:
    return f"runtime-{experiment}"


def claim_anchor(experiment: str, claim: str) -> str:
    return f"claim-{experiment}-{claim}"


def how_anchor(experiment: str, claim: str) -> str:
    return f"how-{experiment}-{claim}"


def claim_metrics(q: Mapping[str, Any]) -> list[str]:
    """The metrics a claim's quantity names (its ``metric``, a name or a
    list: :func:`~mlfsbench.report.claims.metrics_of`), none without one.

    >>> claim_metrics({"metric": ["accuracy", "coverage"]}), claim_metrics({})
    (['accuracy', 'coverage'], [])
    """
    return [str(m) for m in metrics_of(q) if m]


def claim_datasets(q: Mapping[str, Any]) -> list[str]:
    """The datasets a claim's quantity names (``datasets`` and ``dataset``)."""
    out = [str(d) for d in q.get("datasets") or []]
    return out + ([str(q["dataset"])] if q.get("dataset") else [])


def evidence(claim: Mapping[str, Any] | None, experiment: str,
             info: Mapping[str, Any], judged: Sequence[str] = ()
             ) -> list[tuple[str, str]]:
    """Links ``(text, #anchor)`` from a claim to what decides it on the page.

    By the rule's evidence kind (:attr:`~mlfsbench.report.claims.Rule.evidence`):
    ``cd`` the critical-difference diagram of each metric; ``curves`` the
    per-dataset curves of the judged datasets (``judged``: the verdict
    table's ``datasets``; else those the claim names; else every dataset
    run) or, without them, the headline curves; ``table`` the regenerated
    table's rows of the claim's datasets when the claim reads the table's K
    or all features, the curves otherwise; ``none`` the runtime table (a
    claim on times) or the claim's own "how checked" (a claim on
    artificial draws). A claim left without a link gets the CD diagram or
    table of its metric, else its "how checked".
    """
    if not claim:
        return []
    q = claim.get("quantity") or {}
    rule = str(claim.get("rule", ""))
    kind = RULES[rule].evidence if rule in RULES else "table"
    tables = info.get("paper_tables") or {}
    cds = info.get("cd_by_metric") or {}
    curves = info.get("curves") or {}
    table_k = str(info.get("table_k"))
    k = str(q.get("n_features", table_k))
    run = list(info.get("datasets") or [])
    named = [d for d in (list(judged) or claim_datasets(q)) if d in run] or run
    metrics = claim_metrics(q)
    links: list[tuple[str, str]] = []

    def curve_links() -> list[tuple[str, str]]:
        shown = [(f"curves: {d}", "#" + curves_anchor(experiment, d))
                 for d in named if d in curves]
        if not shown and info.get("headline") and (
                not metrics or info.get("headline_metric") in metrics):
            shown = [("curves", "#" + headline_anchor(experiment))]
        return shown

    if kind == "cd":
        links += [(f"CD diagram ({m})", "#" + cd_anchor(experiment, m))
                  for m in metrics if m in cds]
    elif kind == "curves":
        links += curve_links()
    elif kind == "table":
        at_table = k == table_k or k == "all"
        for m in metrics:
            if m in tables and at_table:
                if len(named) <= 3:
                    links += [(f"table: {m}, {d}", "#" + _cell(experiment, m, d, q,
                                                                info))
                              for d in named]
                else:
                    links.append((f"table: {m}", "#" + anchor(experiment, m)))
        if not at_table or not links:
            links += curve_links()
    elif rule == "fastest" and info.get("runtime"):
        links.append(("runtime table", "#" + runtime_anchor(experiment)))
    if not links:
        links += [(f"CD diagram ({m})", "#" + cd_anchor(experiment, m))
                  for m in metrics if m in cds]
        links += [(f"table: {m}", "#" + anchor(experiment, m))
                  for m in metrics if m in tables and not links]
    if not links and claim.get("id"):
        links.append(("how checked", "#" + how_anchor(experiment, str(claim["id"]))))
    return list(dict.fromkeys(links))


def _cell(experiment: str, metric: str, dataset: str, q: Mapping[str, Any],
          info: Mapping[str, Any]) -> str:
    """The id of the table cell of a claim's one method (``method``, with its
    ``classifier`` when the table's columns name one) in ``dataset``'s row,
    when the regenerated table has it (``info["table_ids"]``); else the
    row's id."""
    ids = info.get("table_ids") or set()
    method = q.get("method")
    if method:
        for column in ([f"{method}|{q['classifier']}"] if q.get("classifier")
                       else []) + [str(method)]:
            cell = anchor(experiment, metric, dataset, column)
            if cell in ids:
                return cell
    return anchor(experiment, metric, dataset)


def paper_cell(row: Mapping[str, Any], claim: Mapping[str, Any] | None) -> str:
    """The paper's number, its tolerance labelled as one (not a bare ``±``
    that reads like the paper's s.d.), and what the paper's printed table
    gives on the datasets run here."""
    text = str(row.get("paper", ""))
    tol = (claim or {}).get("tolerance")
    out = esc(text)
    if tol is not None:
        for suffix in (f" (± {tol})", f" (±{tol})"):
            if text.endswith(suffix):
                text = text[:-len(suffix)]
        if "tolerance" not in text:
            out = f"{esc(text)}<br><small>tolerance ± {esc(tol)}</small>"
    printed = str(row.get("printed") or "")
    if printed:
        out += f"<br><small>printed table: {esc(printed)}</small>"
    return out


def ours_cell(row: Mapping[str, Any], extra: Sequence[str] = ()) -> str:
    """Ours as the verdict table words it (a value claim's text already
    carries its s.d. and n), the margin to the tolerance, the noise label,
    and any column a verdict table adds (``name: value``)."""
    text = esc(row.get("ours", ""))
    sd, n = str(row.get("ours_sd") or ""), str(row.get("n") or "")
    if sd and "s.d." not in text and "±" not in text:
        text += f" ± {esc(sd)} s.d." + (f", n = {esc(n)}" if n else "")
    margin, robust = str(row.get("margin") or ""), str(row.get("robust") or "")
    if margin:
        text += f"<br><small>margin to the tolerance: {esc(margin)}</small>"
    if robust:
        text += f"<br><small>{esc(robust)}</small>"
    text += "".join(f"<br><small>{esc(c)}: {esc(row[c])}</small>"
                    for c in extra if str(row.get(c) or ""))
    return text


def how_block(row: Mapping[str, Any], claim: Mapping[str, Any] | None,
              experiment: str, table_k: Any = None) -> str:
    """The folded "how checked" of a claim: the paper's sentence, our
    formalisation, the rule's words, the tolerance and K."""
    claim = claim or {}
    parts = []
    quote = " ".join(str(claim.get("quote") or "").split())
    if quote:
        parts.append(f"<p><b>The paper:</b> {esc(quote)}</p>")
    reading = " ".join(str(claim.get("reading") or "").split())
    if reading:
        parts.append(f"<p><b>Our reading:</b> {esc(reading)}</p>")
    rule = claim.get("rule")
    how = str(row.get("how") or "")
    words = [f"rule <code>{esc(rule)}</code>"] if rule else []
    if how:
        words.append(esc(how))
    if claim.get("tolerance") is not None:
        words.append(f"tolerance ± {esc(claim['tolerance'])}")
    k = (claim.get("quantity") or {}).get("n_features")
    if k is not None:
        words.append(f"K: {esc(k)}")
    elif table_k is not None and rule in ("value", "winner", "better", "similar"):
        words.append(f"K: {esc(table_k)} (the study's)")
    if row.get("datasets"):
        words.append(f"judged on {esc(str(row['datasets']).replace(',', ', '))}")
    if words:
        parts.append(f"<p><b>Checked:</b> {'; '.join(words)}.</p>")
    if not parts:
        return ""
    hid = esc(how_anchor(experiment, str(row["claim"])))
    return (f"<details class='how' id='{hid}'><summary>how checked</summary>"
            + "".join(parts) + "</details>")


def reading_anchor(experiment: str, reading: str) -> str:
    return f"reading-{experiment}-{reading}"


def readings_grid(claim: str, readings: pd.DataFrame | None,
                  legend: Mapping[str, Mapping[str, Any]] | None = None,
                  experiment: str = "") -> str:
    """A claim's verdict under each option of each reading (``readings.tsv``
    rows): a row per option, the favoured first and marked, with its verdict
    and deciding number (``ours``); each reading's name links to its legend
    (:func:`reading_legend`), an option's ``about`` is its tooltip."""
    if readings is None or readings.empty:
        return ""
    rows = readings[readings["claim"].astype(str) == str(claim)]
    if rows.empty:
        return ""
    legend = legend or {}
    body = []
    for reading, g in rows.groupby("reading", sort=False):
        g = g.assign(_f=g["favoured"].astype(str) != "yes").sort_values(
            "_f", kind="stable")
        options = (legend.get(str(reading)) or {}).get("options") or {}
        name = esc(reading)
        if str(reading) in legend:
            name = (f"<a href='#{esc(reading_anchor(experiment, str(reading)))}'>"
                    f"{name}</a>")
        for i, r in enumerate(g.to_dict("records")):
            verdict = str(r.get("verdict", ""))
            mark = " (favoured)" if str(r.get("favoured")) == "yes" else ""
            probe = " (probe)" if str(r.get("probe")) == "yes" else ""
            about = " ".join(str((options.get(str(r["option"])) or {}).get("about")
                                 or "").split())
            title = f" title='{esc(about)}'" if about else ""
            first = f"<th rowspan='{len(g)}'>{name}</th>" if i == 0 else ""
            body.append(
                f"<tr class='{esc(verdict.replace(' ', '-'))}'>{first}"
                f"<td{title}>{esc(r['option'])}{mark}{probe}</td>"
                f"<td>{esc(verdict)}</td><td>{esc(r.get('ours', ''))}</td></tr>")
    return ("<details class='readings'><summary>verdict per reading</summary>"
            "<table class='grid'><thead><tr><th>reading</th><th>option</th>"
            "<th>verdict</th><th>ours</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></details>")


def reading_legend(experiment: str,
                   legend: Mapping[str, Mapping[str, Any]] | None) -> str:
    """A study's readings, once: each one's question (``about``), its
    options (the favoured first) and why the favoured one is favoured
    (``evidence``), each with an id the claims' grids link to."""
    if not legend:
        return ""
    items = []
    for name, spec in legend.items():
        about = " ".join(str(spec.get("about") or "").split())
        why = " ".join(str(spec.get("evidence") or "").split())
        favoured = str(spec.get("favoured") or "")
        options = spec.get("options") or {}
        order = sorted(options, key=lambda o: o != favoured)
        opts = "".join(
            f"<li><code>{esc(o)}</code>{' (favoured)' if o == favoured else ''}"
            + (": " + esc(" ".join(str(options[o].get("about") or "").split()))
               if (options[o] or {}).get("about") else "") + "</li>"
            for o in order)
        items.append(
            f"<div class='legend' id='{esc(reading_anchor(experiment, name))}'>"
            f"<p><b>{esc(name)}</b>: {esc(about)}</p><ul>{opts}</ul>"
            + (f"<p><i>Favoured because:</i> {esc(why)}</p>" if why else "")
            + "</div>")
    return ("<details class='reading-legend'><summary>the readings of this study "
            "(the choices the paper leaves open)</summary>" + "".join(items)
            + "</details>")


def verdict_rows(table: pd.DataFrame, claims: Mapping[str, Mapping] | None = None,
                 experiment: str = "", info: Mapping[str, Any] | None = None) -> str:
    """The verdict table as HTML rows (claim, paper, ours, verdict,
    evidence: none for a claim not checkable here); each row's id is
    :func:`claim_anchor`, its claim id a link to it."""
    claims, info = claims or {}, info or {}
    extra = [c for c in table.columns
             if c not in SHOWN and not c.startswith("verdict:")]
    readings = info.get("readings_table")
    legend = info.get("reading_legend") or {}
    out = []
    for row in table.to_dict("records"):
        cid = str(row["claim"])
        claim = claims.get(cid)
        verdict = str(row["verdict"])
        judged = [d for d in str(row.get("datasets") or "").split(",") if d]
        shown = ([] if verdict == NOT_CHECKABLE
                 else evidence(claim, experiment, info, judged))
        links = "<br>".join(f"<a href='{esc(h)}'>{esc(t)}</a>" for t, h in shown)
        rid = esc(claim_anchor(experiment, cid))
        robust = str(row.get("robustness") or "")
        note = str(row.get("note") or "")
        first = (f"<a class='permalink' href='#{rid}'><b>{esc(cid)}</b></a> "
                 f"<small>({esc(row.get('source', ''))})</small><br>"
                 f"{esc(row.get('statement', ''))}"
                 + how_block(row, claim, experiment, info.get("table_k")))
        last = (f"<b>{esc(verdict)}</b>"
                + (f"<br><small>{esc(robust)}</small>" if robust else "")
                + (f"<br><small>{esc(note)}</small>" if note else "")
                + readings_grid(cid, readings, legend, experiment))
        cells = {"claim": first, "paper": paper_cell(row, claim),
                 "ours": ours_cell(row, extra), "verdict": last, "evidence": links}
        klass = verdict.replace(" ", "-")
        out.append(f"<tr id='{rid}' class='{klass}' data-verdict='{esc(verdict)}'"
                   f" data-robust='{esc(robust_word(row))}'>"
                   + "".join(f"<td class='{k}'>{c}</td>" for k, c in cells.items())
                   + "</tr>")
    return "".join(out)

