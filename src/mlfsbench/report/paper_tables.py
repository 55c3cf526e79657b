"""The papers' result tables, regenerated from an experiment's results and
set beside the paper's printed cells.

Papers of this field print one table per measure: a row per dataset, a
column per method, the mean ± standard deviation over the folds at a fixed
number of features K (or averaged over the K of a grid), the best of each
row in bold, marks for the methods that differ significantly from the
proposed one (the control) and its wins, ties and losses. :func:`paper_table`
builds that table from ``summary.tsv`` and the ``stats/<metric>.json`` of the
``stats`` rule (its K, its average ranks and its Bonferroni-Dunn test against
the control); :func:`write_paper_table` writes it as a tidy TSV (numbers, one
row per dataset and method), Markdown, LaTeX and an HTML page of the report.

Best and win/tie/loss compare the means rounded to the printed decimals, as
a reader of the printed table would (equal printed numbers tie).

**The paper's printed cells.** When the study's printed file
(``config/papers/<study>.printed.yaml``, :mod:`mlfsbench.evaluation.printed`)
holds a ``values`` table of the same metric at the same K (its
``n_features`` equal to the ``stats:`` K of the experiment) that prints at
least one of the experiment's selectors (:func:`match_printed`), the table
takes the paper's dataset and method names (the printed table's
``labels``), its row and column order (its ``values`` and ``methods``; our
methods it does not print follow, headed "(ours only)"), its decimals, and
each cell shows the paper's printed value beside ours: ``0.212 ± 0.005
(paper 0.208)``. A cell is marked † (*beyond tolerance*) when

    |ours − printed| > max(t(0.975, n − 1) · s.d. / √n,  0.5 · 10^−decimals)

with n the folds of our mean: the half-width of the 95 % t interval of our
mean, or half a unit of the last printed digit (the rounding of the printed
number), whichever is larger. It flags a gap that neither our fold-to-fold
noise nor the printed rounding explains; it is no test (the paper's own
spread is not known, and with many cells some are flagged by chance). With
n = 1 only the rounding counts. A printed table of the metric that does not
match (another K, average ranks rather than values) is named in the
caption. A table without a printed counterpart says so in its caption,
with what it is: at which K, or averaged over which grid.

**Standard deviations** print at the table's decimals; one that would
print as zero there (below half a unit of the last digit) prints to one
significant digit (``0.0003``; exactly 0 as ``0``), and a mean of a single
fold (n = 1) prints no ± at all.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from mlfsbench.evaluation.metrics import GREATER_IS_BETTER
from mlfsbench.evaluation.printed import PrintedStudy, PrintedTable, load_printed
from mlfsbench.io import BASELINE, format_table, read_table, without_methods, write_text
from mlfsbench.report.names import display_name, method_key, metric_label
from mlfsbench.report.render import html_page, natural_key

PathLike = str | os.PathLike

BEYOND = "†"
"""The mark of a cell beyond tolerance of the paper's printed value."""

LEVEL = 0.95
"""Confidence level of the interval of our mean in the tolerance."""

TSV_COLUMNS = ["dataset", "method", "dataset_label", "method_label", "in_paper",
               "mean", "sd", "n", "printed", "delta", "tolerance", "beyond",
               "best", "average_rank", "significant", "control"]
"""Columns of the tidy TSV (module docstring; :func:`to_tsv`)."""


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
    n: pd.DataFrame | None = None  # folds behind each mean
    grid: list[int] = field(default_factory=list)  # the integer K of the data
    printed: PrintedTable | None = None
    study: str | None = None  # the printed file's study
    notes: list[str] = field(default_factory=list)  # unmatched printed tables
    #: the W/T/L row (off where a page states its own, e.g. a challenge's)
    wtl: bool = True

    @property
    def greater(self) -> bool:
        return GREATER_IS_BETTER.get(self.metric, True)

    @property
    def methods(self) -> list[str]:
        return list(self.mean.columns)

    @property
    def datasets(self) -> list[str]:
        return list(self.mean.index)

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

    # ------------------------------------------------ the paper's printed cells
    def _printed_labels(self, kind: str) -> Mapping[str, str]:
        if self.printed is None:
            return {}
        return (self.printed.extra.get("labels") or {}).get(kind) or {}

    def in_paper(self, method: str) -> bool:
        """Whether the matched printed table has a column of ``method``."""
        return self.printed is not None and method in self.printed.methods

    def name(self, method: str) -> str:
        """The paper's name of a method (its printed label), else ours."""
        return self._printed_labels("methods").get(method) or display_name(
            method, self.labels)

    def dataset_name(self, dataset: str) -> str:
        return self._printed_labels("datasets").get(dataset, str(dataset))

    def printed_values(self) -> pd.DataFrame:
        """The printed values on our grid (nan where the paper prints none)."""
        out = pd.DataFrame(np.nan, index=self.mean.index, columns=self.mean.columns)
        if self.printed is not None:
            p = self.printed.values
            for d in out.index:
                for m in out.columns:
                    if d in p.index and m in p.columns:
                        out.at[d, m] = p.at[d, m]
        return out

    def printed_text(self, dataset: str, method: str) -> str | None:
        """A cell as the paper prints it: its text, ``-`` for a printed dash,
        None where the paper has no such cell (or it did not survive)."""
        p = self.printed
        if p is None or dataset not in p.printed.index or method not in p.methods:
            return None
        cell = p.printed.at[dataset, method]
        if cell is None or (isinstance(cell, float) and math.isnan(cell)):
            return "-" if p.complete else None
        return cell if isinstance(cell, str) else f"{float(cell):.{p.decimals}f}"

    def delta(self) -> pd.DataFrame:
        """Ours minus the printed value."""
        return self.mean - self.printed_values()

    def tolerance(self) -> pd.DataFrame:
        """max(t(0.975, n-1) s.d./sqrt(n), half a unit of the last printed
        digit) per cell (module docstring)."""
        half = 0.5 * 10.0 ** -self.decimals
        n = (self.n if self.n is not None
             else pd.DataFrame(np.nan, index=self.mean.index,
                               columns=self.mean.columns)).astype(float)
        nn = n.where(n > 1)
        q = pd.DataFrame(sps.t.ppf(0.5 + LEVEL / 2, nn - 1), index=n.index,
                         columns=n.columns)
        width = (q * self.std.astype(float) / np.sqrt(nn)).fillna(0.0)
        return width.clip(lower=half)

    def beyond(self) -> pd.DataFrame:
        """True where |ours - printed| exceeds :meth:`tolerance` (False where
        there is nothing to compare)."""
        d = self.delta()
        return (d.abs() > self.tolerance()) & d.notna()

    # ------------------------------------------------------------- captions
    def grid_text(self) -> str:
        g = sorted(self.grid)
        if not g:
            return "the grid"
        if g == list(range(g[0], g[-1] + 1)):
            return f"the grid {g[0]}..{g[-1]}"
        return f"the grid {g[0]}..{g[-1]} ({len(g)} values)"

    def k_text(self) -> str:
        if self.n_features == "mean":
            return f"mean over the K of {self.grid_text()}"
        if self.n_features == "mean-rank":
            return (f"mean over the K of {self.grid_text()} (the statistics "
                    "average the ranks over the K)")
        if self.n_features == "selected":
            return "the features each selector's own rule keeps (selected)"
        return f"K = {self.n_features}"

    def _folds_text(self) -> str:
        if self.n is None:
            return "the folds"
        n = sorted({int(v) for v in self.n.stack().dropna()})
        if len(n) == 1:
            return f"the {n[0]} folds" if n[0] > 1 else "one fold (no s.d.)"
        return f"the folds (n = {n[0]}..{n[-1]})"

    def caption(self) -> str:
        half = f"{0.5 * 10.0 ** -self.decimals:.{self.decimals + 1}f}"
        sd = (f"a s.d. that rounds to 0 at {self.decimals} decimals prints to "
              "one significant digit, none for a single fold")
        if self.printed is not None:
            parts = [f"{metric_label(self.metric)}, {self.k_text()}: ours, mean ± "
                     f"s.d. over {self._folds_text()}, and beside it, as '(paper x)', "
                     f"the value printed in {self.study} {self.printed.id}, at its "
                     f"{self.decimals} decimals, with the paper's names and column "
                     "order (methods it does not print follow, '(ours only)')",
                     f"{BEYOND} where |ours - paper| exceeds the larger of the "
                     f"{LEVEL:.0%} interval half-width of our mean (t quantile x "
                     f"s.d. / sqrt(n)) and half a unit of the last printed digit "
                     f"({half})", "the best of each row (ours) in bold", sd]
            unrun = [self.name(m) for m in self.printed.methods
                     if m not in self.methods]
            unrun += [self.dataset_name(d) for d in self.printed.datasets
                      if d not in self.datasets]
            if unrun:
                parts.append(f"the paper's {', '.join(unrun)}: not run here")
            if not self.printed.complete:
                parts.append("the paper's table survives only in part: a cell "
                             "without a printed value is ours alone")
        else:
            parts = [f"{metric_label(self.metric)}, {self.k_text()}: mean ± s.d. "
                     f"over {self._folds_text()}, the best of each row in bold", sd]
        if self.control is not None:
            parts.append(f"control {self.name(self.control)}; * differs from it "
                         f"(Bonferroni-Dunn, alpha = {self.alpha})"
                         + ("; W/T/L: the control's wins/ties/losses against the "
                            "column's method" if self.wtl else ""))
        text = "; ".join(parts) + "."
        if self.printed is None:
            text += (" No table the paper prints has this measure at this K for "
                     "these methods: the table is ours alone, and the claims are "
                     "checked as each states (e.g. at the best K), not on it.")
        if self.notes:
            text += " " + " ".join(self.notes)
        return text


def match_printed(study: PrintedStudy, metric: str, n_features,
                  methods: Sequence[str]) -> tuple[PrintedTable | None, list[str]]:
    """The printed table the regenerated table of ``metric`` at
    ``n_features`` (the ``stats:`` K) is compared with, and a note for each
    other printed table of the metric (why it is not).

    A table matches when it is of kind ``values``, of the metric, at the same
    K (``n_features``; an ``averaging`` table is not matched: its grid may
    not be ours) and prints at least one of ``methods`` (the table's column
    keys: ``selector|classifier`` with several classifiers, which a printed
    table does not name) other than the all-features baseline (an
    experiment on other methods, e.g. a sweep of one selector's parameter,
    is not the paper's table). The first match in
    the file's order wins.
    """
    found, notes = None, []
    ours = {m for m in methods if m.split("|")[0] != BASELINE}
    for t in study.tables.values():
        if t.metric != metric:
            continue
        at = (f"K = {t.n_features}" if t.n_features is not None
              else t.averaging or "no K")
        why = None
        if t.kind != "values":
            why = f"prints {t.kind} ({at}), not values"
        elif t.n_features is None or str(t.n_features) != str(n_features):
            why = f"is at {at}"
        elif not ours & set(t.methods):
            why = "prints none of this experiment's methods"
        if why is None and found is None:
            found = t
        elif why is not None:
            notes.append(f"The paper's {t.id} {why}: not compared here.")
    return found, notes


def with_our_ids(study: PrintedStudy, aliases: Mapping[str, str]) -> PrintedStudy:
    """The printed tables with their method columns (and method labels)
    renamed to our ids: ``aliases`` maps a name the printed file uses (an
    entry's registry name, label or id) to the id of the result tables."""
    if not aliases:
        return study

    def renamed(t: PrintedTable) -> PrintedTable:
        if t.kind == "friedman":
            return t
        to = {m: aliases.get(m, m) for m in t.methods}
        labels = dict(t.extra.get("labels") or {})
        if "methods" in labels:
            labels["methods"] = {to.get(m, m): v for m, v in labels["methods"].items()}
        return dataclasses.replace(
            t, values=t.values.rename(columns=to), printed=t.printed.rename(columns=to),
            sd=None if t.sd is None else t.sd.rename(columns=to),
            extra={**t.extra, **({"labels": labels} if labels else {})})

    return dataclasses.replace(
        study, tables={k: renamed(t) for k, t in study.tables.items()})


def _cells(summary: pd.DataFrame, metric: str, n_features):
    """Per dataset and method: mean, s.d. and folds at K (or averaged over
    the K: mean of the means and s.d., the fewest folds), and the grid."""
    data = summary[summary["metric"] == metric].copy()
    if data.empty:
        raise ValueError(f"no results for metric {metric!r}")
    data["n_features"] = data["n_features"].astype(str)
    data["method"] = method_key(data)
    if "folds" not in data:
        data["folds"] = np.nan
    grid = sorted({int(k) for k in data["n_features"] if k.isdigit()})
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
    rows["folds"] = rows["folds"].astype(float)
    cells = rows.groupby(["dataset", "method"], sort=True).agg(
        mean=("mean", "mean"), std=("std", "mean"), folds=("folds", "min"))
    return cells, grid


def paper_table(summary: pd.DataFrame, metric: str, n_features="mean", *,
                stats: Mapping[str, Any] | None = None,
                labels: Mapping[str, str] | None = None, decimals: int = 3,
                order: Sequence[str] | None = None,
                printed: PrintedStudy | None = None,
                aliases: Mapping[str, str] | None = None) -> PaperTable:
    """The paper-style table of one metric (module docstring).

    ``stats``: the ``stats`` rule's JSON of this metric (its control,
    Bonferroni-Dunn result and average ranks; none without it); ``order``:
    method identifiers in the order of the columns (the config's; the others
    follow in natural order, the all-features baseline last); ``printed``:
    the study's printed tables: a matching one (:func:`match_printed`) sets
    the names, order and decimals and is shown beside ours; ``aliases``: the
    names its methods may go by -> our ids (:func:`with_our_ids`).
    """
    if printed is not None:
        printed = with_our_ids(printed, aliases or {})
    cells, grid = _cells(summary, metric, n_features)
    mean = cells["mean"].unstack("method")
    std = cells["std"].unstack("method")
    folds = cells["folds"].unstack("method")
    known = list(mean.columns)
    match, notes = (match_printed(printed, metric, n_features, known)
                    if printed is not None else (None, []))
    paper = [m for m in (match.methods if match is not None else []) if m in known]
    first = [m for m in (order or []) if m in known and m not in paper]
    rest = sorted((m for m in known if m not in first and m not in paper),
                  key=lambda m: (m.split("|")[0] == BASELINE, natural_key(m)))
    columns = paper + first + rest
    rows = list(mean.index)
    if match is not None:
        rows = ([d for d in match.datasets if d in rows]
                + [d for d in rows if d not in match.datasets])
        decimals = match.decimals
    mean, std, folds = (f.loc[rows, columns] for f in (mean, std, folds))
    for f in (mean, std, folds):
        f.columns.name = None
    table = PaperTable(metric, n_features, mean, std, decimals=decimals,
                       labels=dict(labels or {}), n=folds, grid=grid,
                       printed=match, study=printed.study if printed else None,
                       notes=notes)
    if stats and "skipped" not in stats:
        bd = stats.get("bonferroni_dunn") or {}
        table.control = bd.get("control")
        table.significant = list(bd.get("significant") or [])
        table.alpha = stats.get("alpha")
        table.average_ranks = dict(stats.get("average_ranks") or {})
    return table


def _fmt(value: float, decimals: int) -> str:
    return "" if pd.isna(value) else f"{value:.{decimals}f}"


def format_sd(sd: float, n: float | None, decimals: int) -> str:
    """A standard deviation as the tables print it (module docstring): at
    ``decimals``; to one significant digit where that prints zero; nothing
    for one fold (or none known).

    >>> format_sd(0.0052, 10, 3), format_sd(0.00031, 10, 3), format_sd(0.0, 10, 3)
    ('0.005', '0.0003', '0')
    >>> format_sd(0.0, 1, 3), format_sd(float("nan"), 10, 3)
    ('', '')
    """
    if pd.isna(sd) or (n is not None and not pd.isna(n) and n <= 1):
        return ""
    text = f"{sd:.{decimals}f}"
    if float(text) != 0:
        return text
    if sd == 0:
        return "0"
    digits = max(decimals + 1, -math.floor(math.log10(abs(sd))))
    return f"{sd:.{digits}f}"


def _grid(table: PaperTable, bold, pm: str, mark: str = "*",
          beyond_mark: str = BEYOND):
    """Header and rows of strings; ``bold`` wraps a best cell (ours, not
    the printed value beside it)."""
    best = table.best()
    beyond = table.beyond()
    head = ["dataset"] + [
        table.name(m) + (" (control)" if m == table.control else "")
        + (" (ours only)" if table.printed is not None and not table.in_paper(m)
           else "")
        for m in table.methods]
    rows = []
    for d in table.datasets:
        row = [table.dataset_name(d)]
        for m in table.methods:
            mean, sd = table.mean.at[d, m], table.std.at[d, m]
            n = table.n.at[d, m] if table.n is not None else None
            text = _fmt(mean, table.decimals)
            sd_text = format_sd(sd, n, table.decimals)
            if text and sd_text:
                text += f"{pm}{sd_text}"
            if best.at[d, m] and text:
                text = bold(text)
            paper = table.printed_text(d, m)
            if paper is not None:
                text = (text + " " if text else "") + f"(paper {paper})"
                if beyond.at[d, m]:
                    text += beyond_mark
            row.append(text)
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


def tidy(table: PaperTable) -> pd.DataFrame:
    """The table as data, one row per dataset and method with a mean or a
    printed value (:data:`TSV_COLUMNS`): ids and the printed names, the
    unrounded mean, s.d. and folds n, the printed value, ours minus it, the
    tolerance and whether the gap is beyond it (1/0, empty without a printed
    value), best of the row (1/0), the method's average rank, whether the
    Bonferroni-Dunn test finds it different from the control (1/0, empty
    without a control) and whether it is the control."""
    printed, delta = table.printed_values(), table.delta()
    tol, beyond, best = table.tolerance(), table.beyond(), table.best()
    rows = []
    for d in table.datasets:
        for m in table.methods:
            mean = table.mean.at[d, m]
            p = printed.at[d, m]
            if pd.isna(mean) and pd.isna(p):
                continue
            has = not pd.isna(p)
            rows.append({
                "dataset": d, "method": m, "dataset_label": table.dataset_name(d),
                "method_label": table.name(m),
                "in_paper": (int(table.in_paper(m)) if table.printed is not None
                             else np.nan),
                "mean": mean, "sd": table.std.at[d, m],
                "n": table.n.at[d, m] if table.n is not None else np.nan,
                "printed": p, "delta": delta.at[d, m] if has else np.nan,
                "tolerance": tol.at[d, m] if has else np.nan,
                "beyond": int(beyond.at[d, m]) if has else np.nan,
                "best": int(best.at[d, m]),
                "average_rank": table.average_ranks.get(m, np.nan),
                "significant": (int(m in table.significant)
                                if table.control is not None else np.nan),
                "control": int(m == table.control)})
    return pd.DataFrame(rows, columns=TSV_COLUMNS)


def to_tsv(table: PaperTable) -> str:
    """:func:`tidy` as tab-separated text: numbers, no markup."""
    return format_table(tidy(table))


def to_markdown(table: PaperTable) -> str:
    """A Markdown (GFM) table, the best cells in bold."""
    head, rows = _grid(table, lambda t: f"**{t}**", " ± ", r"\*")
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join([":---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join([table.caption(), "", *lines]) + "\n"


def _tex(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"),
                 ("_", r"\_"), ("#", r"\#"), ("$", r"\$"), (BEYOND, r"$^\dagger$")):
        text = text.replace(a, b)
    return text


def to_latex(table: PaperTable) -> str:
    """A LaTeX ``tabular`` (booktabs rules), the best cells in bold."""
    head, rows = _grid(table, lambda t: f"\\textbf{{{t}}}", " $\\pm$ ", "$^*$",
                       "$^\\dagger$")
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


def anchor(experiment: str, metric: str, dataset: str | None = None,
           method: str | None = None) -> str:
    """HTML id of a paper table, of its row of ``dataset`` or of that row's
    cell of ``method`` (a method id; ``|`` joins a selector and classifier).

    >>> anchor("lee2016", "hamming_loss", "yeast")
    'pt-lee2016-hamming_loss-yeast'
    >>> anchor("lee2016", "hamming_loss", "yeast", "br-or")
    'pt-lee2016-hamming_loss-yeast--br-or'
    """
    out = "-".join(["pt", experiment, metric] + ([dataset] if dataset else []))
    return out + (f"--{method}" if dataset and method else "")


def to_html(table: PaperTable, experiment: str) -> str:
    """The table as an HTML fragment (``table.paper``), rows and their cells
    with ids (:func:`anchor`), best cells in ``<b>``; wide tables scroll in
    their box."""
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
        ids = ([f" id='{e(anchor(experiment, table.metric, datasets[i], m))}'"
                for m in table.methods] if i < len(datasets)
               else [""] * (len(row) - 1))
        cells = "".join(
            f"<td{cid}>" + e(c).replace("\x00", "<b>").replace("\x01", "</b>")
            + "</td>" for cid, c in zip(ids, row[1:], strict=True))
        out.append(f"<tr{rid}><th>{e(row[0])}</th>{cells}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def write_paper_table(summary_path: PathLike, stats_path: PathLike | None,
                      metric: str, experiment: str, outs: Mapping[str, PathLike],
                      *, n_features="mean", labels: Mapping[str, str] | None = None,
                      order: Sequence[str] | None = None,
                      decimals: int | None = None,
                      exclude: Sequence[str] = (),
                      printed: PathLike | None = None,
                      aliases: Mapping[str, str] | None = None) -> PaperTable:
    """The ``paper_table`` rule: one metric's table written to ``outs``
    (keys ``tsv``, ``md``, ``tex``, ``html``); ``exclude``: method ids left
    out (a challenge experiment's challengers: the paper's table);
    ``printed``: the study's printed file, if it has one (module docstring);
    ``aliases``: our selectors' names -> ids (:func:`with_our_ids`)."""
    summary = without_methods(
        read_table(summary_path, dtype={"n_features": str, "dataset": str}),
        exclude)  # a dataset named NA or None keeps its rows
    stats = None
    if stats_path is not None:
        with open(stats_path, encoding="utf-8") as fh:
            stats = json.load(fh)
    study = load_printed(printed) if printed else None
    table = paper_table(summary, metric, n_features, stats=stats, labels=labels,
                        order=order, decimals=3 if decimals is None else decimals,
                        printed=study, aliases=aliases)
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


__all__ = ["BEYOND", "LEVEL", "TSV_COLUMNS", "PaperTable", "anchor", "format_sd",
           "html_fragment", "match_printed", "paper_table", "tidy", "to_html",
           "to_latex", "to_markdown", "to_tsv", "with_our_ids",
           "write_paper_table"]
