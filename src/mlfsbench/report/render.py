"""The report's file writers: standalone HTML tables and figures.

Every figure is saved through :func:`save_figure` (fixed metadata: the PNG
bytes do not depend on the date or the matplotlib version string) and
every HTML table through :func:`write_html_table`, atomically.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.io import atomic_path, write_text

PathLike = str | os.PathLike


#: Colour of a highlighted method (a challenge's challengers): its curves
#: and its name and line in a critical-difference diagram; red, which no other
#: element of those figures uses.
HIGHLIGHT_COLOUR = "#d62728"


#: Colours of the methods' curves (headline and per-dataset figures), in
#: method order:
#: matplotlib's default cycle without its grey (C7 reads as the grey
#: all-features lines of :func:`mlfsbench.report.render.draw_baselines`),
#: then tab20's light tones but its grey: 18 colours before one repeats.
#: Up to 7 methods get the cycle's first colours, as before.
CURVE_COLOURS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C8", "C9",
                 "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5",
                 "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5")


#: Markers and line styles of the methods' curves, with :data:`CURVE_COLOURS`
#: (:func:`method_styles`): a method is told apart by its marker and line
#: style in grey-scale print or by a colour-blind reader, not by its colour
#: alone. No curve is dashed: ``--`` is the all-features baseline's.
CURVE_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
CURVE_LINESTYLES = ("-", "-.", ":")


def natural_key(text) -> tuple:
    """Sort key reading the digits of a name as numbers (``p5`` before
    ``p10``), the rest as text.

    >>> sorted(["p10", "p5", "p20"], key=natural_key)
    ['p5', 'p10', 'p20']
    """
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", str(text)) if part)


def natural_sorted(items: Iterable) -> list:
    """``items`` in :func:`natural_key` order, the order of every legend
    and method list the report shows."""
    return sorted(items, key=natural_key)


def method_styles(methods: Iterable[str],
                  highlight: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
    """The look of each method's curve: ``color``, ``marker`` and
    ``linestyle`` (keyword arguments of ``Axes.plot``).

    ``highlight`` (a challenge's challengers): drawn in
    :data:`HIGHLIGHT_COLOUR`, thicker, with
    diamonds, on top of the others, which then take no red.

    Assigned once over the methods in :func:`natural_sorted` order: the
    i-th takes colour ``i mod 18``, marker ``i mod 10`` and line style
    ``i mod 3`` of :data:`CURVE_COLOURS`, :data:`CURVE_MARKERS` and
    :data:`CURVE_LINESTYLES`, so up to 30 methods differ by marker and line
    style together (grey-scale) and up to 90 by the three. A figure passes
    every method of its study (e.g. of the whole result table, not of one
    panel): a method then looks the same in every figure of the study.

    >>> style = method_styles(["p10", "p5"])
    >>> style["p5"]["marker"], style["p10"]["marker"]
    ('o', 's')
    """
    from matplotlib.colors import to_hex

    mine = set(highlight)
    colours = [c for c in CURVE_COLOURS
               if not mine or to_hex(c) != HIGHLIGHT_COLOUR]
    out: dict[str, dict[str, Any]] = {}
    others = [m for m in natural_sorted(set(methods)) if m not in mine]
    for i, method in enumerate(others):
        out[method] = {"color": colours[i % len(colours)],
                       "marker": CURVE_MARKERS[i % len(CURVE_MARKERS)],
                       "linestyle": CURVE_LINESTYLES[i % len(CURVE_LINESTYLES)]}
    for method in natural_sorted(mine & set(methods)):
        out[method] = {"color": HIGHLIGHT_COLOUR, "marker": "D", "linestyle": "-",
                       "linewidth": 2.6, "zorder": 5}
    return out


def marker_every(n_points: int, style: Mapping[str, str] | None = None):
    """Which points of a curve of ``n_points`` show its marker (``markevery``):
    about ten a curve (fifty K values marked each overprint one another),
    starting at an offset of the method's marker (:func:`method_styles`) so
    that the methods' markers do not all sit on the same K.

    >>> marker_every(50, {"marker": "s"}), marker_every(6)
    ((1, 5), (0, 1))
    """
    step = max(1, n_points // 10)
    marker = (style or {}).get("marker")
    offset = CURVE_MARKERS.index(marker) if marker in CURVE_MARKERS else 0
    return (offset % step, step)


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


#: An all-features value further than this many times the selectors' y
#: range from that range is off scale (:func:`draw_baselines`): drawn as a
#: labelled arrow at the panel's edge, the y axis kept on the selectors.
FAR_BASELINE = 1.0


def draw_baselines(ax, data: pd.DataFrame, several: bool,
                   labels: Mapping[str, str] | None = None) -> dict[str, float]:
    """The all-features line(s) of one panel: the mean of the ``all`` rows,
    one per classifier (the selectors' identical runs averaged), in
    :data:`BASELINE_STYLE`, labelled ``all features`` (with the classifier
    when ``several``); the greys of a second or third classifier differ.

    Called once the selectors' curves are drawn: a value further from their
    y range than :data:`FAR_BASELINE` times that range (e.g. Lee 2016's
    corel5k, whose all-features Hamming loss would flatten every curve into
    one line) is not drawn as a line; the y axis keeps the curves' range
    and an arrow at its top or bottom edge reads ``all features: <value>``.
    Returns those off-scale values by their label.
    """
    base = data[data["n_features"].astype(str) == "all"]
    lo, hi = (float(v) for v in ax.dataLim.intervaly)
    span = hi - lo if np.isfinite([lo, hi]).all() and hi > lo else None
    drawn, off = [], {}
    for i, (clf, g) in enumerate(base.groupby("classifier", sort=True)):
        style = dict(BASELINE_STYLE, color=("black", "dimgrey", "darkgrey")[i % 3])
        label = "all features" + (
            f" / {(labels or {}).get(clf, clf)}" if several else "")
        value = float(g["mean"].mean())
        if span is not None and not (lo - FAR_BASELINE * span <= value
                                     <= hi + FAR_BASELINE * span):
            off[label] = value
            ax.plot([], [], label=label, **style)  # its legend entry
            above = value > hi
            at = len([v for v in off.values() if (v > hi) == above]) - 1
            ax.annotate(f"{label}: {value:.4g} (off scale)",
                        xy=(0.97, 1.0 if above else 0.0), xycoords="axes fraction",
                        xytext=(0.97, 0.9 - 0.08 * at if above else 0.1 + 0.08 * at),
                        textcoords="axes fraction", ha="right", va="center",
                        fontsize="x-small", color=style["color"],
                        arrowprops={"arrowstyle": "->", "color": style["color"]})
            continue
        drawn.append(value)
        ax.axhline(value, label=label, **style)
    if off:
        low, high = min([lo, *drawn]), max([hi, *drawn])
        pad = 0.08 * (high - low)
        ax.set_ylim(low - pad, high + pad)
    return off


def band_words(summary: pd.DataFrame) -> str:
    """What the band around a curve is, for a title: ``band ± 1 s.d. over
    3 folds`` (or ``2-5 folds``), or ``""`` when no mean has a spread (one
    fold or split each: no band is drawn, :func:`has_band`)."""
    counts = _fold_counts(summary)
    if counts is None or counts.empty or counts.max() < 2:
        return ""
    n = counts[counts >= 2]
    folds = f"{n.min()}" if n.min() == n.max() else f"{n.min()}-{n.max()}"
    return f"band ± 1 s.d. over {folds} folds"


def _fold_counts(summary: pd.DataFrame):
    if "folds" in summary:
        return pd.to_numeric(summary["folds"], errors="coerce").dropna().astype(int)
    if "std" in summary:  # no counts: a spread means two folds or more
        return summary["std"].notna().astype(int) * 2
    return None


def has_band(rows: pd.DataFrame) -> bool:
    """Whether a curve's rows have a spread to draw: a standard deviation
    over two folds or more (one fold has none; its s.d. is missing)."""
    if "std" not in rows or rows["std"].isna().all():
        return False
    counts = _fold_counts(rows)
    return counts is None or counts.empty or counts.max() >= 2


def message_figure(text: str):
    """A figure holding one line of text (e.g. why a diagram is skipped)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 1.2))
    fig.text(0.5, 0.5, text, ha="center", va="center", wrap=True)
    return fig


def save_figure(fig, path: PathLike, dpi: int = 100, alt: str | None = None) -> None:
    """Save a matplotlib Figure as a compressed PNG, atomically.

    ``alt``: the figure's text alternative (what it shows and its result),
    kept in the PNG as its ``Description`` text chunk: the page that embeds
    the figure reads it back (:func:`figure_alt`) and needs no other file.

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
        if alt:
            from PIL.PngImagePlugin import PngInfo

            info = PngInfo()
            info.add_itxt("Description", alt)
            small.save(tmp, format="PNG", optimize=True, pnginfo=info)
        else:
            small.save(tmp, format="PNG", optimize=True)


def figure_alt(path: PathLike) -> str | None:
    """The text alternative :func:`save_figure` kept in a PNG (None without)."""
    from PIL import Image

    with Image.open(path) as image:
        text = getattr(image, "text", {}).get("Description")
    return str(text) if text else None
