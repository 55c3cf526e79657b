"""The headline figure of a study: its first compared metric against the
number of features, one panel per dataset (``plots/headline.png``, shown on
the summary page), and its text alternative."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.report.names import display_name, method_key, metric_label

PathLike = str | os.PathLike
#: Characters of the title per panel (4 inches at the title's size).
TITLE_CHARS = 42


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
    band_text = band_words(data) if bands else ""
    # folded to the panels' width: one dataset's panel is narrower than the
    # title, which would run off both edges of the picture
    fig.suptitle(textwrap.fill(title or f"{metric_label(metric)}: mean over folds"
                               + (f", {band_text}" if band_text else "")
                               + " (dashed: all features)",
                               TITLE_CHARS * ncols))
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
