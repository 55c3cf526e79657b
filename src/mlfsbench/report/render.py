"""The report's file writers: standalone HTML tables and figures.

Every figure is saved through :func:`save_figure` (fixed metadata: the PNG
bytes do not depend on the date or the matplotlib version string) and
every HTML table through :func:`write_html_table`, atomically.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping

import pandas as pd

from mlfsbench.io import atomic_path, write_text

PathLike = str | os.PathLike


#: Colours of the methods' curves (headline and per-dataset figures), in
#: method order:
#: matplotlib's default cycle without its grey (C7 reads as the grey
#: all-features lines of :func:`mlfsbench.report.render.draw_baselines`),
#: then tab20's light tones but its grey: 18 colours before one repeats.
#: Up to 7 methods get the cycle's first colours, as before.
CURVE_COLOURS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C8", "C9",
                 "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5",
                 "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5")


#: Style of the report's standalone tables: they fit the page (a wide table
#: scrolls inside its box, long headers wrap) instead of running off it.
TABLE_STYLE = ("body{font-family:sans-serif;margin:1em}"
               ".scroll{max-width:100%;overflow-x:auto}"
               "table{border-collapse:collapse;font-size:90%}"
               "td,th{padding:2px 6px;border-bottom:1px solid #ccc;text-align:right}"
               "th{max-width:9em;white-space:normal;overflow-wrap:anywhere;"
               "vertical-align:bottom}")


def html_page(title: str, body: str) -> str:
    """A standalone HTML page (for the HTML report) holding ``body``."""
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width'>"
            f"<title>{html.escape(title)}</title><style>{TABLE_STYLE}</style>"
            f"</head><body><h3>{html.escape(title)}</h3>{body}</body></html>\n")


def write_html_table(table: pd.DataFrame, out: PathLike, title: str) -> None:
    """A small standalone HTML page holding ``table`` (for the HTML report)."""
    body = table.to_html(index=False, float_format=lambda v: f"{v:.4g}",
                         border=0, classes="mlfs-table")
    write_text(out, html_page(title, f"<div class='scroll'>{body}</div>"))


#: The all-features baseline's style in every curve figure: one neutral line
#: per classifier, not a line in some selector's colour.
BASELINE_STYLE = {"color": "black", "linestyle": "--", "linewidth": 1.0}


def draw_baselines(ax, data: pd.DataFrame, several: bool,
                   labels: Mapping[str, str] | None = None) -> None:
    """The all-features line(s) of one panel: the mean of the ``all`` rows,
    one per classifier (the selectors' identical runs averaged), in
    :data:`BASELINE_STYLE`, labelled ``all features`` (with the classifier
    when ``several``); the greys of a second or third classifier differ."""
    base = data[data["n_features"].astype(str) == "all"]
    for i, (clf, g) in enumerate(base.groupby("classifier", sort=True)):
        style = dict(BASELINE_STYLE, color=("black", "dimgrey", "darkgrey")[i % 3])
        ax.axhline(float(g["mean"].mean()), label="all features"
                   + (f" / {(labels or {}).get(clf, clf)}" if several else ""),
                   **style)


def message_figure(text: str):
    """A figure holding one line of text (e.g. why a diagram is skipped)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 1.2))
    fig.text(0.5, 0.5, text, ha="center", va="center", wrap=True)
    return fig


def save_figure(fig, path: PathLike, dpi: int = 100) -> None:
    """Save a matplotlib Figure as a compressed PNG, atomically.

    Rendered at ``dpi`` with fixed metadata, then reduced to a palette of at
    most 256 colours (no dithering: lines and text stay crisp) and
    optimized: a third to a fifth of the RGBA file's size, identical bytes
    run after run. The palette is Pillow's fast octree: on a ten-panel
    figure of eight methods (1 280 x 800 pixels) 137 kB against 164 kB for
    median cut, the methods' colours and their blends kept alike to the eye;
    a CD diagram 4.1 against 5.2 kB.
    """
    from io import BytesIO

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    FigureCanvasAgg(fig)
    buffer = BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    buffer.seek(0)
    with Image.open(buffer) as image:
        small = image.convert("RGB").quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    with atomic_path(path) as tmp:
        small.save(tmp, format="PNG", optimize=True)
