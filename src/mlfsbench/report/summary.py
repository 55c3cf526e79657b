"""The report's first page: each study's verdicts, datasets, CD diagrams, curves.

``results/summary.html`` is written by the ``summary`` rule and shown by the
Snakemake report as its opening page (the workflow description includes it):
for each experiment, the paper's claims with their verdicts (from
``tables/claims.tsv``), the datasets it ran on and those of the paper it could
not run (from the claims file's ``unavailable``), its critical-difference
diagrams and a headline figure (the first compared metric against the number
of features, mean over folds with a band of one standard deviation).
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
from mlfsbench.report.names import display_name, method_key

PathLike = str | os.PathLike

# The report's landing view centres its content vertically in a screen-high
# flex box (a tall page would lose its top) and narrows the description to
# max-w-lg; the first two rules undo both for the summary.
STYLE = """
div.h-screen:has(.mlfs-summary){align-items:flex-start}
div.prose:has(.mlfs-summary){max-width:min(1200px,calc(100vw - 2rem))}
.mlfs-summary{font-family:sans-serif;max-width:1200px}
.mlfs-summary h2{margin:.8em 0 .2em}
.mlfs-summary table.claims{border-collapse:collapse;font-size:90%;margin:.4em 0}
.mlfs-summary table.claims td,.mlfs-summary table.claims th{padding:2px 6px;
 border-bottom:1px solid #ccc;text-align:left;vertical-align:top}
.mlfs-summary tr.reproduced{background:#d8f0d8}
.mlfs-summary tr.not-reproduced{background:#f6d5d5}
.mlfs-summary tr.not-checkable-here{background:#eeeeee}
.mlfs-summary img{max-width:100%;height:auto;margin:2px}
.mlfs-summary .figs{display:flex;flex-wrap:wrap;gap:4px;align-items:flex-start}
.mlfs-summary .cd{max-width:48%}
"""


def _img(path: PathLike, alt: str, cls: str = "") -> str:
    with open(path, "rb") as fh:
        data = base64.b64encode(fh.read()).decode("ascii")
    klass = f" class='{cls}'" if cls else ""
    return (f"<img{klass} alt='{html.escape(alt)}' "
            f"src='data:image/png;base64,{data}'>")


def verdict_rows(table: pd.DataFrame) -> str:
    """The verdict table as HTML rows (claim, source, paper, ours, verdict)."""
    out = []
    for row in table.to_dict("records"):
        verdict = str(row["verdict"])
        detail = str(row.get("note") or "")
        cells = [f"<b>{html.escape(str(row['claim']))}</b><br>"
                 f"{html.escape(str(row['statement']))}",
                 html.escape(str(row["source"])), html.escape(str(row["paper"])),
                 html.escape(str(row["ours"])),
                 f"<b>{html.escape(verdict)}</b>"
                 + (f"<br><small>{html.escape(detail)}</small>" if detail else "")]
        klass = verdict.replace(" ", "-")
        out.append(f"<tr class='{klass}'>" + "".join(f"<td>{c}</td>" for c in cells)
                   + "</tr>")
    return "".join(out)


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
    claims = info.get("claims")
    if claims is not None:
        table = pd.read_csv(claims, sep="\t", dtype=str, keep_default_na=False)
        counts = table["verdict"].value_counts()
        tally = ", ".join(f"{n} {v}" for v, n in counts.items())
        parts.append(f"<p><b>Verdicts:</b> {html.escape(tally)}.</p>")
        parts.append("<table class='claims'><thead><tr><th>claim</th><th>source"
                     "</th><th>paper</th><th>ours</th><th>verdict</th></tr>"
                     f"</thead><tbody>{verdict_rows(table)}</tbody></table>")
    else:
        parts.append("<p>No claims file for this experiment.</p>")
    figs = [_img(p, f"{name}: critical-difference diagram", "cd")
            for p in info.get("cd", [])]
    if info.get("headline"):
        figs.append(_img(info["headline"], f"{name}: headline curves"))
    if figs:
        parts.append("<div class='figs'>" + "".join(figs) + "</div>")
    return "<section class='study'>" + "".join(parts) + "</section>"


def write_summary(experiments: Mapping[str, Mapping[str, Any]],
                  out: PathLike) -> None:
    """``results/summary.html``: every experiment's section, those with
    verdicts first (in config order), then the others.

    ``experiments`` maps a name to ``paper``, ``description``, ``datasets``,
    ``unavailable`` (dataset -> reason), ``claims`` (path of claims.tsv or
    None), ``cd`` (PNG paths) and ``headline`` (PNG path or None).
    """
    experiments = dict(sorted(experiments.items(),
                              key=lambda item: item[1].get("claims") is None))
    toc = " · ".join(f"<a href='#summary-{html.escape(n)}'>&darr; {html.escape(n)}"
                     "</a>" for n in experiments)
    body = "".join(experiment_section(n, i) for n, i in experiments.items())
    write_text(out, f"<div class='mlfs-summary'><style>{STYLE}</style>"
                    f"<p>{toc}</p>{body}</div>\n")


def headline_plot(summary: pd.DataFrame, metric: str, png: PathLike,
                  labels: Mapping[str, str] | None = None,
                  title: str = "", dataset_params: Mapping | None = None):
    """``metric`` against the number of features, one panel per dataset.

    One line per selector (and classifier), the mean over folds with a band
    of +- one standard deviation; dashed black: all features. The methods
    are named by ``labels`` (identifier -> the tables' name); a method with
    per-dataset parameters (``dataset_params``: identifier -> dataset ->
    parameters) has them written in the panel of each dataset. Returns the
    Figure.
    """
    from matplotlib.figure import Figure

    from mlfsbench.report.names import metric_label, params_note
    from mlfsbench.report.render import draw_baselines, save_figure

    data = summary[summary["metric"] == metric]
    datasets = sorted(data["dataset"].unique()) or ["(no data)"]
    ncols = min(len(datasets), 4)
    nrows = int(np.ceil(len(datasets) / ncols))
    fig = Figure(figsize=(4 * ncols, 3 * nrows + 0.8), layout="constrained")
    axes = list(fig.subplots(nrows, ncols, squeeze=False).flat)
    keys = method_key(data)  # with the classifier when there are several
    several = data["classifier"].nunique() > 1
    methods = sorted(keys.unique())
    colour = {m: f"C{i % 10}" for i, m in enumerate(methods)}
    for ax, dataset in zip(axes, datasets, strict=False):
        d = data[data["dataset"] == dataset]
        for _, g in d.groupby(["selector", "classifier"], sort=True):
            key = keys[g.index[0]]
            num = g[g["n_features"].astype(str).str.isdigit()].copy()
            num["k"] = num["n_features"].astype(int)
            num = num.groupby("k")[["mean", "std"]].mean().sort_index()
            if not num.empty:
                k, m = num.index.to_numpy(), num["mean"].to_numpy()
                s = num["std"].fillna(0).to_numpy()
                ax.plot(k, m, color=colour[key], marker=".",
                        label=display_name(key, labels))
                ax.fill_between(k, m - s, m + s, color=colour[key], alpha=0.15,
                                linewidth=0)
        draw_baselines(ax, d, several, labels)
        note = params_note(dataset_params, dataset, labels)
        if note:
            ax.text(0.99, 0.98, note, transform=ax.transAxes, ha="right",
                    va="top", fontsize="x-small", color="dimgrey")
        ax.set_title(dataset)
        ax.set_xlabel("number of features")
        ax.set_ylabel(metric_label(metric))
    for ax in axes[len(datasets):]:
        ax.set_visible(False)
    legend: dict[str, Any] = {}
    for ax in axes[:len(datasets)]:  # every method once, whichever panel has it
        for handle, name in zip(*ax.get_legend_handles_labels(), strict=True):
            legend.setdefault(name, handle)
    if legend:
        fig.legend(list(legend.values()), list(legend), loc="outside lower center",
                   ncol=min(len(legend), 5), frameon=False, fontsize="small")
    fig.suptitle(title or f"{metric_label(metric)}: mean over folds, band +- 1 "
                          "s.d. (dashed: all features)")
    save_figure(fig, png, dpi=80)
    return fig


def summary_info(experiments: Mapping[str, Mapping[str, Any]],
                 files: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Collect each experiment's entries of :func:`write_summary` from the
    rule's input files (paths under ``results/<experiment>/``)."""
    import yaml

    out: dict[str, dict[str, Any]] = {}
    for name, x in experiments.items():
        prefix = os.path.join("results", name) + os.sep
        mine = [f for f in files if os.path.normpath(f).startswith(prefix)]
        info: dict[str, Any] = {
            "description": x.get("description", ""), "datasets": x["datasets"],
            "claims": next((f for f in mine if f.endswith("claims.tsv")), None),
            "cd": sorted(f for f in mine if f.endswith("_cd.png")),
            "headline": next((f for f in mine if f.endswith("headline.png")), None),
        }
        if x.get("claims"):
            with open(x["claims"], encoding="utf-8") as fh:
                data = yaml.safe_load(fh)
            info["paper"] = " ".join(str(data.get("paper", "")).split())
            named = set()
            for c in data.get("claims", []):
                if c.get("experiment", data.get("experiment")) == name:
                    q = c.get("quantity") or {}
                    named |= set(q.get("datasets") or []) | (
                        {q["dataset"]} if "dataset" in q else set())
            info["unavailable"] = {d: r for d, r in
                                   (data.get("unavailable") or {}).items()
                                   if d in named}
        out[name] = info
    return out
