"""Runtimes and stability of an experiment's selectors (tables and figure).

Functions of the selection records of every fold that the ``runtime`` and
``stability`` rules call; the stability measure lives in
:mod:`mlfsbench.evaluation.stability`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.evaluation.stability import stability, top_k_matrix
from mlfsbench.io import format_table, read_selections, warn_unrecorded, write_text
from mlfsbench.report.names import display_name
from mlfsbench.report.render import save_figure, write_html_table

PathLike = str | os.PathLike


def _selections(paths: Sequence[PathLike],
                labels: Sequence[dict[str, Any]] | None = None) -> pd.DataFrame:
    """Selection records with their dataset/split/fold/selector keys.

    The records carry their keys; ``labels``, aligned with ``paths``,
    renames the split and selector to an experiment's names. Each file is
    checked against its recorded checksum first
    (:func:`~mlfsbench.io.read_selections`).
    """
    if labels is not None and len(labels) != len(paths):
        raise ValueError(f"{len(paths)} selection files but {len(labels)} labels")
    rows = []
    unrecorded: list = []
    for i, path in enumerate(paths):
        names = {} if labels is None else labels[i]
        for rec in read_selections(path, unrecorded):
            rows.append({"dataset": rec["dataset"],
                         "split": names.get("split", rec["split"]),
                         "fold": int(rec["fold"]),
                         "selector": names.get("selector", rec["selector"]),
                         "seconds": float(rec["seconds"]),
                         "ranking": rec["ranking"],
                         "fitted": rec.get("fitted") or {},
                         # one score per feature (the ranking may be a
                         # prefix); a record without scores: a full ranking
                         "n_total": len(rec.get("scores") or rec["ranking"])})
    warn_unrecorded(unrecorded)
    if not rows:
        raise ValueError("no selection records")
    return pd.DataFrame(rows)


def runtime_table(paths: Sequence[PathLike], out: PathLike, *,
                  labels: Sequence[dict[str, Any]] | None = None,
                  html_out: PathLike | None = None) -> pd.DataFrame:
    """Seconds of each selector's ``fit`` per dataset (mean, std, folds).

    The time is measured around ``fit`` alone (reading files and starting
    Python are excluded; the rule's ``benchmark:`` file has the job's total);
    ``html_out``: the same table as a page of the report.
    """
    sel = _selections(paths, labels)
    table = (sel.groupby(["dataset", "selector"], sort=True)["seconds"]
             .agg(mean="mean", std="std", folds="count").reset_index())
    write_text(out, format_table(table))
    if html_out is not None:
        write_html_table(table, html_out, "Selection time (seconds of fit)")
    return table


def fitted_table(paths: Sequence[PathLike], out: PathLike, *,
                 labels: Sequence[dict[str, Any]] | None = None) -> pd.DataFrame:
    """What each selector learnt on each fold, as far as it is one number
    (its ``record_attributes`` such as Doquire's automatic pruning parameter
    ``p_``): one row per dataset, split, fold, selector and attribute, its
    ``value``. Lists and absent values are left out; an experiment whose
    selectors record nothing gets the header only.

    >>> import tempfile, json, os
    >>> d = tempfile.mkdtemp()
    >>> rec = {"dataset": "d", "split": "s", "fold": 0, "selector": "m",
    ...        "seconds": 1.0, "ranking": [0], "fitted": {"p_": 8, "grid_": [5]}}
    >>> with open(os.path.join(d, "a.json"), "w") as fh:
    ...     json.dump({"records": [rec]}, fh)
    >>> t = fitted_table([os.path.join(d, "a.json")], os.path.join(d, "f.tsv"))
    >>> t[["selector", "attribute", "value"]].to_dict("records")
    [{'selector': 'm', 'attribute': 'p_', 'value': 8.0}]
    """
    sel = _selections(paths, labels)
    columns = ["dataset", "split", "fold", "selector", "attribute", "value"]
    rows = [{"dataset": r.dataset, "split": r.split, "fold": r.fold,
             "selector": r.selector, "attribute": name, "value": float(value)}
            for r in sel.itertuples() for name, value in sorted(r.fitted.items())
            if isinstance(value, int | float) and not isinstance(value, bool)]
    table = pd.DataFrame(rows, columns=columns).sort_values(
        columns[:5], kind="mergesort").reset_index(drop=True)
    write_text(out, format_table(table))
    return table


def stability_table(paths: Sequence[PathLike], grid: Sequence[int | str],
                    out: PathLike, *,
                    labels: Sequence[dict[str, Any]] | None = None) -> pd.DataFrame:
    """Nogueira et al. (2018) stability of the top-K subsets across folds.

    One row per dataset, split, selector and integer K of the grid (``all``,
    ``selected`` and K not below the number of features are skipped: every
    fold selects the same set there, or the size varies; so is a K deeper
    than a fold's ranking, a prefix of the features, which has no top K).
    """
    sel = _selections(paths, labels)
    rows = []
    for (dataset, split, selector), g in sel.groupby(["dataset", "split",
                                                      "selector"], sort=True):
        g = g.sort_values("fold")
        rankings = [np.asarray(r, dtype=np.intp) for r in g["ranking"]]
        n = int(g["n_total"].max())
        depth = min(len(r) for r in rankings)
        for k in grid:
            if k in ("all", "selected") or not int(k) < n or int(k) > depth \
                    or len(g) < 2:
                continue
            top = np.array([r[:int(k)] for r in rankings])
            res = stability(top_k_matrix(top, int(k), n))
            rows.append({"dataset": dataset, "split": split, "selector": selector,
                         "n_features": int(k), "stability": res.stability,
                         "ci_low": res.ci_low, "ci_high": res.ci_high,
                         "folds": len(g)})
    table = pd.DataFrame(rows, columns=["dataset", "split", "selector", "n_features",
                                        "stability", "ci_low", "ci_high", "folds"])
    write_text(out, format_table(table))
    return table


def stability_plot(table: pd.DataFrame, png: PathLike,
                   labels: dict[str, str] | None = None):
    """Stability against K, one panel per dataset (four to a row), one line
    per selector (named by ``labels``, identifier -> readable name) in the
    same colour, marker and line style in every panel (those of the
    study's other curve figures, :func:`~mlfsbench.report.render.method_styles`,
    when it has one split and one classifier), and one legend for the figure
    in natural order (returned)."""
    from matplotlib.figure import Figure

    from mlfsbench.report.render import marker_every, method_styles, natural_key

    datasets = sorted(table["dataset"].unique()) or ["(no data)"]
    ncols = min(len(datasets), 4)
    nrows = int(np.ceil(len(datasets) / ncols))
    fig = Figure(figsize=(4 * ncols, 3 * nrows + 0.8), layout="constrained")
    axes = list(fig.subplots(nrows, ncols, squeeze=False).flat)
    table = table.reset_index(drop=True)
    several = table["split"].nunique() > 1
    key = table["selector"].astype(str) + (
        " (" + table["split"].astype(str) + ")" if several else "")
    style = method_styles(key)
    legend: dict[str, Any] = {}
    for ax, dataset in zip(axes, datasets, strict=False):
        mine = table["dataset"] == dataset
        curves = {}
        for method in key[mine].unique():
            g = table[mine & (key == method)]
            sel, split = g["selector"].iloc[0], g["split"].iloc[0]
            curves[f"{display_name(sel, labels)} ({split})"] = (method, g)
        for name in sorted(curves, key=natural_key):  # natural order of names
            method, g = curves[name]
            (line,) = ax.plot(g["n_features"], g["stability"], markersize=4,
                              markevery=marker_every(len(g), style[method]), label=name,
                              **style[method])
            legend.setdefault(name, line)
        ax.set_title(dataset)
        ax.set_xlabel("number of features")
        ax.set_ylabel("stability (Nogueira et al. 2018)")
    for ax in axes[len(datasets):]:
        ax.set_visible(False)
    legend = dict(sorted(legend.items(), key=lambda item: natural_key(item[0])))
    if legend:
        fig.legend(list(legend.values()), list(legend), loc="outside lower center",
                   ncol=min(len(legend), 5), frameon=False, fontsize="small")
    save_figure(fig, png, dpi=80)
    return fig
