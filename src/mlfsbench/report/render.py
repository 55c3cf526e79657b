"""The report's file writers: standalone HTML tables and figures.

Every figure is saved through :func:`save_figure` (fixed metadata: the PNG
bytes do not depend on the date or the matplotlib version string) and
every HTML table through :func:`write_html_table`, atomically.
"""

from __future__ import annotations

import os

import pandas as pd

from mlfsbench.io import atomic_path, write_text

PathLike = str | os.PathLike


def write_html_table(table: pd.DataFrame, out: PathLike, title: str) -> None:
    """A small standalone HTML page holding ``table`` (for the HTML report)."""
    body = table.to_html(index=False, float_format=lambda v: f"{v:.4g}",
                         border=0, classes="mlfs-table")
    style = ("body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
             "td,th{padding:2px 8px;border-bottom:1px solid #ccc;text-align:right}")
    write_text(out, f"<!DOCTYPE html><html><head><meta charset='utf-8'>"
                    f"<title>{title}</title><style>{style}</style></head>"
                    f"<body><h3>{title}</h3>{body}</body></html>\n")


def message_figure(text: str):
    """A figure holding one line of text (e.g. why a diagram is skipped)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 1.2))
    fig.text(0.5, 0.5, text, ha="center", va="center", wrap=True)
    return fig


def save_figure(fig, path: PathLike) -> None:
    """Save a matplotlib Figure as PNG, 120 dpi, atomically."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=120, metadata={"Software": None})
