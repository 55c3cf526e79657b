"""Aggregation of per-fold metric tables into result tables and plots.

The cached per-fold files are checked against the checksums recorded when
they were written (:func:`mlfsbench.io.read_checked`) before any table is
built: an edited value stops the stage, naming the file.

Snakemake deletes a job's outputs before it runs and again when it fails,
so a failing ``aggregate`` job took an experiment's earlier ``metrics.tsv``
and ``summary.tsv`` with it. Each successful one therefore also keeps its
tables under ``tables/last-good/`` (:func:`keep_last_good`: hard links, no
second copy on disk), which no rule owns: after a failure they are the
tables of the last aggregate that succeeded, until the next one does.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from collections.abc import Sequence, Set
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.io import (
    METRIC_COLUMNS,
    atomic_path,
    format_table,
    read_checked,
    read_table,
    warn_unrecorded,
    write_text,
)
from mlfsbench.report.render import write_html_table

PathLike = str | os.PathLike


def _k_order(values: pd.Series) -> pd.Series:
    """Sort key of the ``n_features`` column: numbers, then ``all``, ``selected``."""
    special = {"all": 1e18, "selected": 2e18}
    return values.map(lambda v: special.get(str(v)) or float(v))


def _read_labelled(path: PathLike, labels: dict[str, Any] | None,
                   unrecorded: list | None = None) -> pd.DataFrame:
    """A metrics table of the shared cache, checked against its recorded
    checksum (:func:`~mlfsbench.io.read_checked`; without one, appended to
    ``unrecorded``), its key columns replaced by the names one experiment
    gives them (``labels``: e.g. ``split``, ``selector``, ``classifier``)."""
    frame = read_table(io.BytesIO(read_checked(path, unrecorded)),
                       dtype={"n_features": str})
    for column, value in (labels or {}).items():
        frame[column] = value
    return frame


def collect(paths: Sequence[PathLike],
            labels: Sequence[dict[str, Any]] | None = None) -> pd.DataFrame:
    """Concatenate metric tables into one deterministically sorted table.

    Every table carries its keys (dataset, split, fold, selector,
    classifier); ``labels``, aligned with ``paths``, renames them to an
    experiment's names (its split names and method ids).
    """
    if labels is not None and len(labels) != len(paths):
        raise ValueError(f"{len(paths)} tables but {len(labels)} labels")
    unrecorded: list = []
    frames = [_read_labelled(p, None if labels is None else labels[i], unrecorded)
              for i, p in enumerate(paths)]
    warn_unrecorded(unrecorded)
    if not frames:
        raise ValueError("no metric tables to aggregate")
    table = pd.concat(frames, ignore_index=True)
    missing = set(METRIC_COLUMNS) - set(table.columns)
    if missing:
        raise ValueError(f"metric tables lack column(s) {sorted(missing)}")
    table = table[METRIC_COLUMNS]
    keys = ["dataset", "split", "selector", "classifier", "metric", "n_features",
            "fold"]
    table = table.sort_values(
        keys, key=lambda c: _k_order(c) if c.name == "n_features" else c,
        kind="mergesort",
    )
    return table.reset_index(drop=True)


def summarize(table: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation and fold count of each metric over the folds."""
    keys = ["dataset", "split", "selector", "classifier", "n_features", "metric"]
    grouped = table.groupby(keys, sort=False)["value"]
    out = grouped.agg(mean="mean", std="std", folds="count").reset_index()
    return out


def write_tables(paths: Sequence[PathLike], metrics_out: PathLike,
                 summary_out: PathLike, *,
                 labels: Sequence[dict[str, Any]] | None = None,
                 summary_html_out: PathLike | None = None) -> pd.DataFrame:
    """Write the tidy table of every fold and its per-configuration summary
    (and the summary as an HTML page, :func:`summary_html`)."""
    table = collect(paths, labels)
    write_text(metrics_out, format_table(table))
    summary = summarize(table)
    write_text(summary_out, format_table(summary))
    if summary_html_out is not None:
        summary_html(summary, summary_html_out, "Mean ± s.d. over the folds")
    keep_last_good([metrics_out, summary_out])
    return table


#: The folder, beside an experiment's tables, of the last tables an
#: ``aggregate`` job wrote successfully (the module docstring).
LAST_GOOD = "last-good"


def last_good(path: PathLike) -> str:
    """Where :func:`keep_last_good` keeps ``path``.

    >>> last_good("results/x/tables/metrics.tsv")
    'results/x/tables/last-good/metrics.tsv'
    """
    path = os.fspath(path)
    return os.path.join(os.path.dirname(path), LAST_GOOD, os.path.basename(path))


def keep_last_good(paths: Sequence[PathLike]) -> None:
    """Keep each of ``paths`` (just written) at :func:`last_good` too: a hard
    link (a copy where the file system has none), replacing the one kept
    before at once, so that a job that fails later, and whose outputs
    Snakemake deletes, leaves these behind."""
    for path in paths:
        dest = last_good(path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with atomic_path(dest) as tmp:
            tmp.unlink()  # made empty: the link takes its name
            try:
                os.link(path, tmp)
            except OSError:
                shutil.copyfile(path, tmp)


def summary_html(summary: pd.DataFrame, out: PathLike, title: str) -> None:
    """The summary as a page of the report: a row per dataset, split,
    selector, classifier and number of features, a column per metric
    (``mean ± sd``, four significant digits) -- a seventeenth of the long
    table's rows, shown in the page instead of downloaded."""
    from mlfsbench.evaluation.metrics import is_variant
    from mlfsbench.report.names import metric_label

    # the scoring variants stay in the TSV tables (the claims read them)
    summary = summary[~summary["metric"].map(is_variant)]
    cells = summary.assign(cell=[
        f"{m:.4g}" + ("" if pd.isna(sd) else f" ± {sd:.2g}")
        for m, sd in zip(summary["mean"], summary["std"], strict=True)])
    keys = ["dataset", "split", "selector", "classifier", "n_features"]
    wide = cells.pivot_table(index=keys, columns="metric", values="cell",
                             aggfunc="first", sort=False)
    wide = wide[sorted(wide.columns)]
    wide.columns = [metric_label(c) for c in wide.columns]
    write_html_table(wide.reset_index(), out, title)


def datasets_table(stats_paths: Sequence[PathLike], out: PathLike,
                   html_out: PathLike | None = None) -> pd.DataFrame:
    """One row of statistics per prepared dataset (the ``datasets`` report)."""
    rows = []
    for p in stats_paths:
        with open(p, encoding="utf-8") as fh:
            rows.append(json.load(fh))
    table = pd.DataFrame(rows).sort_values("dataset", kind="mergesort")
    columns = ["dataset", "instances", "features", "labels", "cardinality",
               "density", "distinct_labelsets"]
    table = table[columns + [c for c in table.columns if c not in columns]]
    write_text(out, format_table(table.reset_index(drop=True)))
    if html_out is not None:
        write_html_table(table, html_out, "Datasets")
    return table


def plot_dataset(summary: pd.DataFrame, dataset: str, png: PathLike,
                 pdf: PathLike, labels: dict[str, str] | None = None,
                 dataset_params: dict | None = None,
                 metrics: Sequence[str] | None = None,
                 challengers: Sequence[str] = ()):
    """One panel per metric: mean over folds against the number of features.

    Each (split, selector, classifier) is a line in its colour, marker and
    line style (:func:`mlfsbench.report.render.method_styles` over every
    method of ``summary``: as in the study's headline figure), listed in
    natural order, with a band of +- one standard deviation over the folds
    when there are two folds or more (none with one: the title then names
    no band); the ``all``-features baseline one dashed black line (per
    classifier, an arrow at the panel's edge when far off the curves,
    :func:`mlfsbench.report.render.draw_baselines`), the selector's own
    subset (``selected``) a thin horizontal line of its colour. ``labels`` maps
    selector and classifier identifiers to the names shown (default: the
    identifiers); a selector with parameters of its own on this dataset
    (``dataset_params``, identifier -> dataset -> parameters) shows them in
    its legend entry.

    ``metrics``: the metrics the study compares (its ``stats.metrics``), in
    that order: the PNG, the report's figure, shows those alone, the PDF
    every metric but the scoring variants (a study that compares all of them
    gets the same panels in both). ``challengers``: the ids of a challenge's
    methods (selectors or classifiers): their lines are drawn in the CD
    diagrams' red (:data:`~mlfsbench.report.render.HIGHLIGHT_COLOUR`,
    which the other lines then skip), thicker, with diamonds, on top, and
    named "(challenger)" in the legend; without any the figure is as
    before. Ten panels of fifty K values for eight
    methods made a 100-170 kB PNG; the report holds one per experiment and
    dataset. Returns the PNG's Figure.
    """
    from mlfsbench.evaluation.metrics import is_variant
    from mlfsbench.report.render import method_styles, save_figure

    data = summary[summary["dataset"] == dataset]
    if data.empty:
        raise ValueError(f"no results for dataset {dataset!r}")
    every = sorted(m for m in data["metric"].unique() if not is_variant(m))
    shown = [m for m in (metrics or ()) if m in every] or every
    keys = _curve_key(summary)
    mine = set(challengers)
    styles = method_styles(keys, highlight={
        k for k, sel, clf in zip(keys, summary["selector"], summary["classifier"],
                                 strict=True) if mine & {sel, clf}})
    fig = _dataset_figure(data, dataset, shown, labels, dataset_params,
                          every_metric=shown == every, styles=styles,
                          challengers=mine)
    save_figure(fig, png, dpi=80)
    if shown != every:
        whole = _dataset_figure(data, dataset, every, labels, dataset_params,
                                every_metric=True, styles=styles,
                                challengers=mine)
    else:
        whole = fig
    with atomic_path(pdf) as tmp:
        # Fixed metadata keeps the file identical across runs.
        whole.savefig(tmp, format="pdf", metadata={
            "Creator": None, "Producer": None, "CreationDate": None})
    return fig


def _curve_key(summary: pd.DataFrame) -> pd.Series:
    """The method a row's curve draws, the key of its style: the selector
    (with the classifier when there are several, as in the headline figure),
    with the split in brackets when there are several."""
    from mlfsbench.report.names import method_key

    keys = method_key(summary)
    if summary["split"].nunique() > 1:
        keys = keys + " (" + summary["split"].astype(str) + ")"
    return keys


def _dataset_figure(data: pd.DataFrame, dataset: str, metrics: Sequence[str],
                    labels: dict[str, str] | None, dataset_params: dict | None,
                    every_metric: bool, styles: dict | None = None,
                    challengers: Set[str] = frozenset()):
    """The Figure of :func:`plot_dataset` for ``metrics`` (in that order);
    ``challengers``: the ids (selectors or classifiers) whose curves the
    legend names "(challenger)"."""
    from matplotlib.figure import Figure

    from mlfsbench.report.names import metric_label
    from mlfsbench.report.render import (
        band_words,
        draw_baselines,
        has_band,
        marker_every,
        method_styles,
        natural_key,
    )

    data = data.reset_index(drop=True)  # one row per label (concatenated tables)
    names = dict(labels or {})
    ncols = min(4, len(metrics))
    nrows = int(np.ceil(len(metrics) / ncols))
    fig = Figure(figsize=(4 * max(ncols, 2), 3 * nrows + 1.0), layout="constrained")
    axes = list(fig.subplots(nrows, ncols, squeeze=False).flat)
    keys = _curve_key(data)
    styles = styles or method_styles(keys)
    # in natural order of the names shown (the legend's order)
    groups = sorted(data.groupby(["split", "selector", "classifier"], sort=True),
                    key=lambda item: natural_key(
                        f"{names.get(item[0][1], item[0][1])} / "
                        f"{names.get(item[0][2], item[0][2])} ({item[0][0]})"))
    several = data["classifier"].nunique() > 1
    bands = []
    for ax, metric in zip(axes, metrics, strict=False):
        for (split, sel, clf), g in groups:
            style = styles[keys[g.index[0]]]
            g = g[g["metric"] == metric]
            numeric = g[~g["n_features"].isin(["all", "selected"])]
            ks = numeric["n_features"].astype(int).to_numpy()
            order = np.argsort(ks, kind="mergesort")
            mean = numeric["mean"].to_numpy()[order]
            own = ((dataset_params or {}).get(sel) or {}).get(dataset) or {}
            extra = ", ".join(f"{k}={v}" for k, v in sorted(own.items()))
            name = (f"{names.get(sel, sel)}{f' [{extra}]' if extra else ''} / "
                    f"{names.get(clf, clf)} ({split})")
            mine = bool(challengers & {sel, clf})
            ax.plot(ks[order], mean, markersize=4,
                    label=f"{name} (challenger)" if mine else name,
                    markevery=marker_every(len(ks), style), **style)
            if has_band(numeric):
                std = numeric["std"].fillna(0).to_numpy()[order]
                ax.fill_between(ks[order], mean - std, mean + std,
                                color=style["color"], alpha=0.15, linewidth=0)
                bands.append(numeric)
            line = g[g["n_features"] == "selected"]
            if not line.empty:
                ax.axhline(float(line["mean"].iloc[0]), color=style["color"],
                           linestyle=(0, (1, 3)), linewidth=0.8)
        draw_baselines(ax, data[data["metric"] == metric], several, names)
        ax.set_title(metric_label(metric), fontsize="medium")
        ax.set_xlabel("number of features")
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    handles, shown = axes[0].get_legend_handles_labels()
    # as many legend columns as panels (at least 2): a narrow figure of two
    # panels cut a 4-column legend of long names at both edges
    fig.legend(handles, shown, loc="outside lower center",
               ncol=min(len(shown), max(2, ncols)), frameon=False)
    which = ("" if every_metric else
             "the metrics the study compares (every metric in the PDF); ")
    band = band_words(pd.concat(bands)) if bands else ""
    fig.suptitle(f"{dataset}: {which}mean over folds{', ' + band if band else ''} "
                 "(dashed: all features; sparse dots: the selector's own subset)",
                 wrap=True)
    return fig


def transformations_table(paths: Sequence[PathLike], out: PathLike, *,
                          labels: Sequence[dict[str, Any]] | None = None,
                          ) -> pd.DataFrame:
    """One row per fold, transformation and output array of the label stage.

    Each summary file holds records with their keys (dataset, split, fold,
    transformation); ``labels``, aligned with ``paths``, renames the split
    and transformation to an experiment's names.
    """
    rows = []
    unrecorded: list = []
    for i, path in enumerate(paths):
        data = json.loads(read_checked(path, unrecorded))
        names = {} if labels is None else labels[i]
        for summary in data.get("records", [data]):
            for key, info in summary.items():
                if not isinstance(info, dict) or "shape" not in info:
                    continue
                rows.append({
                    "dataset": summary["dataset"],
                    "split": names.get("split", summary["split"]),
                    "fold": int(summary["fold"]),
                    "transformation": names.get("transformation",
                                                summary["transformation"]),
                    "array": key, "shape": "x".join(map(str, info["shape"])),
                    "classes": info.get("classes"),
                    "discarded": info.get("discarded")})
    warn_unrecorded(unrecorded)
    table = pd.DataFrame(rows, columns=["dataset", "split", "fold", "transformation",
                                        "array", "shape", "classes", "discarded"])
    table = table.sort_values(["dataset", "split", "transformation", "array", "fold"],
                              kind="mergesort")
    write_text(out, format_table(table.reset_index(drop=True)))
    return table
