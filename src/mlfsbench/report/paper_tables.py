"""The papers' result tables, regenerated from an experiment's results.

Papers of this field print one table per measure: a row per dataset, a
column per method, the mean ± standard deviation over the folds at a fixed
number of features K (or averaged over the K of a grid), the best of each
row in bold, marks for the methods that differ significantly from the
proposed one (the control) and its wins, ties and losses. :func:`paper_table`
builds that table from ``summary.tsv`` and the ``stats/<metric>.json`` of the
``stats`` rule (its K, its average ranks and its Bonferroni-Dunn test against
the control); :func:`write_paper_table` writes it as TSV, Markdown, LaTeX and
an HTML page of the report.

Best and win/tie/loss compare the means rounded to the printed decimals, as
a reader of the printed table would (equal printed numbers tie).
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from mlfsbench.evaluation.metrics import GREATER_IS_BETTER
from mlfsbench.io import BASELINE, without_methods, write_text
from mlfsbench.report.names import display_name, method_key, metric_label
from mlfsbench.report.render import html_page

PathLike = str | os.PathLike


@dataclass
class PaperTable:
    """One measure's dataset × method table (see the module docstring)."""

    metric: str
    n_features: Any
    mean: pd.DataFrame  # dataset x method
    std: pd.DataFrame
    decimals: int = 3
    control: str | None = None
    significant: list[str] = field(default_factory=list)
    average_ranks: dict[str, float] = field(default_factory=dict)
    alpha: float | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    #: the W/T/L row (off where a page states its own, e.g. a challenge's)
    wtl: bool = True

    @property
    def greater(self) -> bool:
        return GREATER_IS_BETTER.get(self.metric, True)

    @property
    def methods(self) -> list[str]:
        return list(self.mean.columns)

    def rounded(self) -> pd.DataFrame:
        return self.mean.round(self.decimals)

    def best(self) -> pd.DataFrame:
        """True where a cell is its row's best (after rounding; ties all)."""
        r = self.rounded()
        top = r.max(axis=1) if self.greater else r.min(axis=1)
        return r.eq(top, axis=0) & r.notna()

    def wins_ties_losses(self) -> dict[str, tuple[int, int, int]]:
        """The control's wins, ties and losses against each other method
        over the datasets both have."""
        if self.control is None or self.control not in self.mean:
            return {}
        r = self.rounded()
        c = r[self.control]
        out = {}
        for m in self.methods:
            if m == self.control:
                continue
            both = c.notna() & r[m].notna()
            a, b = c[both], r[m][both]
            better = a > b if self.greater else a < b
            worse = a < b if self.greater else a > b
            out[m] = (int(better.sum()), int((a == b).sum()), int(worse.sum()))
        return out

    def name(self, method: str) -> str:
        return display_name(method, self.labels)

    def k_text(self) -> str:
        return {"mean": "mean over the K of the grid",
                "mean-rank": "mean over the K of the grid (ranks averaged over "
                             "the K)"}.get(self.n_features, f"K = {self.n_features}")

    def caption(self) -> str:
        parts = [f"{metric_label(self.metric)}, {self.k_text()}: mean ± s.d. over "
                 "the folds, the best of each row in bold"]
        if self.control is not None:
            parts.append(f"control {self.name(self.control)}; * differs from it "
                         f"(Bonferroni-Dunn, alpha = {self.alpha})"
                         + ("; W/T/L: the control's wins/ties/losses against the "
                            "column's method" if self.wtl else ""))
        return "; ".join(parts) + "."


def _cells(summary: pd.DataFrame, metric: str, n_features) -> pd.DataFrame:
    """Per dataset and method: mean and s.d. at K (or averaged over the K)."""
    data = summary[summary["metric"] == metric].copy()
    if data.empty:
        raise ValueError(f"no results for metric {metric!r}")
    data["n_features"] = data["n_features"].astype(str)
    data["method"] = method_key(data)
    base = data[data["n_features"] == "all"].copy()
    base["method"] = method_key(base, BASELINE)
    if n_features in ("mean", "mean-rank"):
        sized = data[data["n_features"].str.isdigit()]
    else:
        sized = data[data["n_features"] == str(n_features)]
        if sized.empty:
            raise ValueError(f"metric {metric!r}: no results at {n_features} "
                             "features")
    rows = pd.concat([sized, base])
    rows["std"] = rows["std"].astype(float)
    return rows.groupby(["dataset", "method"], sort=True)[["mean", "std"]].mean()


def paper_table(summary: pd.DataFrame, metric: str, n_features="mean", *,
                stats: Mapping[str, Any] | None = None,
                labels: Mapping[str, str] | None = None, decimals: int = 3,
                order: Sequence[str] | None = None) -> PaperTable:
    """The paper-style table of one metric (module docstring).

    ``stats``: the ``stats`` rule's JSON of this metric (its control,
    Bonferroni-Dunn result and average ranks; none without it); ``order``:
    method identifiers in the order of the columns (the config's; the others
    follow sorted, the all-features baseline last).
    """
    cells = _cells(summary, metric, n_features)
    mean = cells["mean"].unstack("method")
    std = cells["std"].unstack("method")
    known = list(mean.columns)
    first = [m for m in (order or []) if m in known]
    rest = sorted((m for m in known if m not in first),
                  key=lambda m: (m.split("|")[0] == BASELINE, m))
    columns = first + rest
    mean, std = mean[columns], std[columns]
    mean.columns.name = std.columns.name = None
    table = PaperTable(metric, n_features, mean, std, decimals=decimals,
                       labels=dict(labels or {}))
    if stats and "skipped" not in stats:
        bd = stats.get("bonferroni_dunn") or {}
        table.control = bd.get("control")
        table.significant = list(bd.get("significant") or [])
        table.alpha = stats.get("alpha")
        table.average_ranks = dict(stats.get("average_ranks") or {})
    return table


def _fmt(value: float, decimals: int) -> str:
    return "" if pd.isna(value) else f"{value:.{decimals}f}"


def _grid(table: PaperTable, bold, pm: str, mark: str = "*"):
    """Header and rows of strings; ``bold`` wraps a best cell."""
    best = table.best()
    head = ["dataset"] + [table.name(m) + (" (control)" if m == table.control
                                           else "")
                          for m in table.methods]
    rows = []
    for d in table.mean.index:
        row = [str(d)]
        for m in table.methods:
            mean, sd = table.mean.at[d, m], table.std.at[d, m]
            text = _fmt(mean, table.decimals)
            if text and not pd.isna(sd):
                text += f"{pm}{_fmt(sd, table.decimals)}"
            row.append(bold(text) if best.at[d, m] and text else text)
        rows.append(row)
    if table.average_ranks:
        rows.append(["average rank"] + [
            (f"{table.average_ranks[m]:.2f}" + (mark if m in table.significant
                                                else ""))
            if m in table.average_ranks else "" for m in table.methods])
    wtl = table.wins_ties_losses() if table.wtl else {}
    if wtl:
        rows.append(["W/T/L"] + ["/".join(map(str, wtl[m])) if m in wtl else ""
                                 for m in table.methods])
    return head, rows


def to_tsv(table: PaperTable) -> str:
    """The printed grid, tab-separated: ``mean ± sd`` cells, a best cell
    between ``**`` (Markdown's bold), the average-rank and W/T/L rows last."""
    head, rows = _grid(table, lambda t: f"**{t}**", " ± ")
    return "\n".join("\t".join(r) for r in [head, *rows]) + "\n"


def to_markdown(table: PaperTable) -> str:
    """A Markdown (GFM) table, the best cells in bold."""
    head, rows = _grid(table, lambda t: f"**{t}**", " ± ", r"\*")
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join([":---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join([table.caption(), "", *lines]) + "\n"


def _tex(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"),
                 ("_", r"\_"), ("#", r"\#"), ("$", r"\$")):
        text = text.replace(a, b)
    return text


def to_latex(table: PaperTable) -> str:
    """A LaTeX ``tabular`` (booktabs rules), the best cells in bold."""
    head, rows = _grid(table, lambda t: f"\\textbf{{{t}}}", " $\\pm$ ", "$^*$")
    head = [_tex(h) for h in head]
    rows = [[_tex(r[0]), *r[1:]] for r in rows]
    n_data = len(table.mean.index)
    lines = [f"% {table.caption()}",
             "\\begin{tabular}{l" + "r" * (len(head) - 1) + "}", "\\toprule",
             " & ".join(head) + " \\\\", "\\midrule"]
    for i, r in enumerate(rows):
        if i == n_data:
            lines.append("\\midrule")
        lines.append(" & ".join(r) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def anchor(experiment: str, metric: str, dataset: str | None = None) -> str:
    """HTML id of a paper table (or of its row of ``dataset``).

    >>> anchor("lee2016", "hamming_loss", "yeast")
    'pt-lee2016-hamming_loss-yeast'
    """
    return "-".join(["pt", experiment, metric] + ([dataset] if dataset else []))


def to_html(table: PaperTable, experiment: str) -> str:
    """The table as an HTML fragment (``table.paper``), rows with ids
    (:func:`anchor`), best cells in ``<b>``; wide tables scroll in their box."""
    e = html.escape
    head, rows = _grid(table, lambda t: f"\x00{t}\x01", " ± ")
    out = [f"<div class='scroll'><table class='paper' id='"
           f"{e(anchor(experiment, table.metric))}'><caption>{e(table.caption())}"
           "</caption><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head)
           + "</tr></thead><tbody>"]
    datasets = list(table.mean.index)
    for i, row in enumerate(rows):
        rid = (f" id='{e(anchor(experiment, table.metric, datasets[i]))}'"
               if i < len(datasets) else " class='foot'")
        cells = "".join(
            "<td>" + e(c).replace("\x00", "<b>").replace("\x01", "</b>") + "</td>"
            for c in row[1:])
        out.append(f"<tr{rid}><th>{e(row[0])}</th>{cells}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def write_paper_table(summary_path: PathLike, stats_path: PathLike | None,
                      metric: str, experiment: str, outs: Mapping[str, PathLike],
                      *, n_features="mean", labels: Mapping[str, str] | None = None,
                      order: Sequence[str] | None = None,
                      decimals: int | None = None,
                      exclude: Sequence[str] = ()) -> PaperTable:
    """The ``paper_table`` rule: one metric's table written to ``outs``
    (keys ``tsv``, ``md``, ``tex``, ``html``); ``exclude``: method ids left
    out (a challenge experiment's challengers: the paper's table)."""
    summary = without_methods(
        pd.read_csv(summary_path, sep="\t", dtype={"n_features": str}), exclude)
    stats = None
    if stats_path is not None:
        with open(stats_path, encoding="utf-8") as fh:
            stats = json.load(fh)
    table = paper_table(summary, metric, n_features, stats=stats, labels=labels,
                        order=order, decimals=3 if decimals is None else decimals)
    writers = {"tsv": to_tsv, "md": to_markdown, "tex": to_latex}
    for key, writer in writers.items():
        if key in outs:
            write_text(outs[key], writer(table))
    if "html" in outs:
        title = f"{experiment}: {metric_label(table.metric, False)}, {table.k_text()}"
        write_text(outs["html"], html_page(title, to_html(table, experiment)))
    return table


def html_fragment(page: str) -> str:
    """The table of a page written by :func:`write_paper_table` (for the
    summary page)."""
    start = page.index("<div class='scroll'><table class='paper'")
    return page[start:page.rindex("</table></div>") + len("</table></div>")]


__all__ = ["PaperTable", "anchor", "html_fragment", "paper_table", "to_html",
           "to_latex", "to_markdown", "to_tsv", "write_paper_table"]
