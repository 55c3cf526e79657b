"""Demšar's critical-difference diagram (Demšar 2006, Figs. 1 and 2).

The figure of the ``stats`` rule: the average ranks, the critical difference
and the groups of methods not significantly different
(:func:`mlfsbench.evaluation.stats.cliques`) come from the statistics layer;
this module only draws them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.evaluation.stats import cliques
from mlfsbench.report.render import HIGHLIGHT_COLOUR

# HIGHLIGHT_COLOUR (mlfsbench.report.render): the highlighted methods' lines
# and names (``highlight=``), a red no other element of the diagram uses


def too_few_datasets(n_methods: int, cd: float | None, n_datasets: int | None,
                     alpha: float | None = None) -> str:
    """The note of a CD diagram whose datasets are too few for the test to
    declare any difference (``""`` otherwise): the CD exceeds ``k - 1``, the
    widest possible gap between two average ranks. Names the fewest N that
    could show one, scaling the CD by ``sqrt(N / N')`` (``CD = q_alpha
    sqrt(k (k + 1) / (6 N))``; :func:`mlfsbench.evaluation.stats.min_datasets`
    from the test).

    >>> note = too_few_datasets(13, 12.901, 2, 0.05)
    >>> note.split(" (")[0]
    'N = 2 datasets: no difference can be significant at α = 0.05'
    >>> note.split(" (")[1]
    'CD 12.9 > 12, the widest rank gap; N ≥ 3 needed)'
    >>> too_few_datasets(6, 2.384, 10, 0.05)
    ''
    """
    if cd is None or n_datasets is None or cd <= n_methods - 1:
        return ""
    widest = n_methods - 1
    needed = int(n_datasets)
    while cd * math.sqrt(n_datasets / needed) >= widest:
        needed += 1
    level = f" at α = {alpha:g}" if alpha is not None else ""
    return (f"N = {n_datasets} dataset{'s' if n_datasets != 1 else ''}: no "
            f"difference can be significant{level} (CD {cd:.3g} > {widest}, the "
            f"widest rank gap; N ≥ {needed} needed)")


def critical_difference_diagram(avg_ranks, cd: float | None = None,
                                names: Sequence[str] | None = None, *,
                                control: str | int | None = None,
                                reverse: bool = True, width: float = 6.0,
                                textspace: float = 1.5, title: str | None = None,
                                highlight: str | Sequence[str] | None = None,
                                n_datasets: int | None = None,
                                alpha: float | None = None):
    """Demšar's critical-difference diagram as a matplotlib Figure (Agg).

    An axis of average ranks (1 to ``k``) at the top, the CD drawn as a
    labelled interval above it; each method hangs from its average rank by an
    elbow line to its name, the better half on the side of rank 1, the other
    half on the opposite side (Demšar 2006, Fig. 1). Without a ``control``,
    thick bars join the groups of methods not significantly different
    (:func:`cliques`, for a Nemenyi CD). With a ``control`` (a Bonferroni-Dunn
    CD, Demšar's Fig. 2) one thick bar spans ``R_control +- cd``: methods
    outside it differ significantly from the control.

    Parameters
    ----------
    avg_ranks : array-like, pandas Series or mapping of name to rank
    cd : float, optional
        Critical difference; no CD interval or bars when ``None``.
    names : sequence of str, optional
        Method names (taken from a Series index or mapping keys otherwise).
    control : str or int, optional
        The control method (name or index).
    reverse : bool, default=True
        Rank 1 on the right (Demšar's and Lee & Kim's figures); ``False``
        puts it on the left.
    width : float, default=6.0
        Figure width in inches; the height follows from the number of methods
        and bars (see ``fig.get_size_inches()``).
    textspace : float, default=1.5
        Inches reserved on each side for the names.
    title : str, optional
    highlight : str or sequence of str, optional
        Methods (names) drawn in
        :data:`~mlfsbench.report.render.HIGHLIGHT_COLOUR`: a thicker line
        with a dot on the axis and the name in bold (e.g. a method
        challenging a study's). Without it the figure is exactly the one
        drawn before the option existed.
    n_datasets : int, optional
        The number of datasets N the ranks average over. When the CD exceeds
        ``k - 1``, the widest gap two average ranks can have, no difference
        can be significant with so few datasets: the figure then says so in
        a note of two lines under the diagram (``N = 2 datasets: no difference can be
        significant at α = 0.05 ...``, with the fewest N that could show
        one, :func:`too_few_datasets`). The CD interval never runs off the
        axis: a CD wider than it ends in an arrow at the axis' end, its value
        written above.
    alpha : float, optional
        The test's level, named in that note.

    Returns
    -------
    matplotlib.figure.Figure
        Not attached to pyplot; save it with ``fig.savefig(path)``.

    Examples
    --------
    >>> fig = critical_difference_diagram({"a": 1.2, "b": 2.0, "c": 2.8}, 1.0)
    >>> fig.get_size_inches()[0]
    np.float64(6.0)
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if isinstance(avg_ranks, pd.Series):
        labels = [str(x) for x in avg_ranks.index] if names is None else list(names)
        R = avg_ranks.to_numpy(dtype=np.float64)
    elif isinstance(avg_ranks, Mapping):
        labels = [str(x) for x in avg_ranks] if names is None else list(names)
        R = np.asarray(list(avg_ranks.values()), dtype=np.float64)
    else:
        R = np.asarray(avg_ranks, dtype=np.float64).ravel()
        labels = [f"m{j}" for j in range(R.size)] if names is None else list(names)
    k = R.size
    if k < 2 or len(labels) != k:
        raise ValueError(f"need >= 2 average ranks and one name each, got {k} ranks "
                         f"and {len(labels)} names")
    if not np.isfinite(R).all():
        raise ValueError("average ranks must be finite")
    if cd is not None and not (math.isfinite(cd) and cd > 0):
        raise ValueError(f"cd must be a positive number, got {cd!r}")
    if width <= 2 * textspace + 0.5:
        raise ValueError(f"width {width} leaves no room for the axis with "
                         f"textspace {textspace}")
    c = None
    if control is not None:
        c = labels.index(control) if isinstance(control, str) else int(control)
        if not 0 <= c < k:
            raise ValueError(f"control {control!r} is not one of {labels}")

    marked = set()
    if highlight is not None:
        wanted = [highlight] if isinstance(highlight, str) else list(highlight)
        unknown = [h for h in wanted if h not in labels]
        if unknown:
            raise ValueError(f"highlight {unknown} not among the methods {labels}")
        marked = {labels.index(h) for h in wanted}

    lo, hi = 1, max(k, int(math.ceil(R.max())))
    span = width - 2 * textspace

    def x_of(rank):
        frac = (np.asarray(rank, dtype=float) - lo) / (hi - lo)
        return width - textspace - frac * span if reverse else textspace + frac * span

    groups = cliques(R, cd) if (cd is not None and c is None) else []
    n_bars = len(groups) if c is None else (1 if cd is not None else 0)
    order = np.argsort(R, kind="stable")
    n_best = int(math.ceil(k / 2))
    best, rest = order[:n_best], order[n_best:]

    line_step, bar_step = 0.22, 0.12
    y_axis = 0.75 if cd is not None else 0.45
    y_bars = y_axis + 0.15
    y_first = y_bars + bar_step * n_bars + 0.15
    height = y_first + line_step * max(len(best), len(rest)) + 0.15
    note = too_few_datasets(k, cd, n_datasets, alpha)
    if note:  # two lines under the diagram
        height += 0.5
    if title:  # 0.3 inch for its first line, 0.2 for each further one
        shift = 0.3 + 0.2 * title.count("\n")
        y_axis += shift
        y_bars += shift
        y_first += shift
        height += shift

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    line: dict[str, Any] = {"color": "black", "linewidth": 0.9}
    if title:
        ax.text(width / 2, 0.08, title, ha="center", va="top", fontsize=10,
                linespacing=1.3)

    # the rank axis with ticks every 0.5 and numbers on the integers
    ax.plot([x_of(lo), x_of(hi)], [y_axis, y_axis], **line)
    for t in np.arange(lo, hi + 0.25, 0.5):
        tick = 0.1 if float(t).is_integer() else 0.05
        ax.plot([x_of(t), x_of(t)], [y_axis, y_axis - tick], **line)
        if float(t).is_integer():
            ax.text(x_of(t), y_axis - 0.14, f"{int(t)}", ha="center", va="bottom",
                    fontsize=9)

    # the CD interval above the axis, starting at the side of rank 1
    if cd is not None and lo + cd <= hi:
        y_cd = y_axis - 0.5
        a, b = x_of(lo), x_of(lo + cd)
        ax.plot([a, b], [y_cd, y_cd], color="black", linewidth=1.5)
        for xx in (a, b):
            ax.plot([xx, xx], [y_cd - 0.05, y_cd + 0.05], color="black",
                    linewidth=1.5)
        ax.text((a + b) / 2, y_cd - 0.07, f"CD = {cd:.3g}", ha="center",
                va="bottom", fontsize=9)
    elif cd is not None:  # wider than the axis: cut at its end, an arrow on
        y_cd = y_axis - 0.5
        a, b = float(x_of(lo)), float(x_of(hi))
        ax.plot([a, a], [y_cd - 0.05, y_cd + 0.05], color="black", linewidth=1.5)
        ax.annotate("", xy=(b + (-0.15 if reverse else 0.15), y_cd),
                    xytext=(a, y_cd),
                    arrowprops={"arrowstyle": "-|>", "color": "black",
                                "linewidth": 1.5, "shrinkA": 0, "shrinkB": 0})
        ax.text((a + b) / 2, y_cd - 0.07,
                f"CD = {cd:.3g} (wider than the axis, {hi - lo} ranks)",
                ha="center", va="bottom", fontsize=9)
    if note:
        ax.text(width / 2, height - 0.08, note.replace(" (", "\n(", 1),
                ha="center", va="bottom", fontsize=9, color="#8b0000",
                style="italic", linespacing=1.3)

    # methods: elbow lines to their names
    # the better half in rank order, the other half worst first: no crossings
    for side, members in (("best", best), ("rest", rest[::-1])):
        to_right = (side == "best") == reverse
        for j, m in enumerate(members):
            y = y_first + line_step * j
            xr = float(x_of(R[m]))
            end = width - textspace + 0.1 if to_right else textspace - 0.1
            label = f"{labels[m]} ({R[m]:.2f})"
            if m in marked:
                ax.plot([xr, xr, end], [y_axis, y, y], color=HIGHLIGHT_COLOUR,
                        linewidth=2.0)
                ax.plot([xr], [y_axis], marker="o", markersize=5,
                        color=HIGHLIGHT_COLOUR)
                ax.text(end + (0.05 if to_right else -0.05), y, label,
                        ha="left" if to_right else "right", va="center",
                        fontsize=9, fontweight="bold", color=HIGHLIGHT_COLOUR)
                continue
            ax.plot([xr, xr, end], [y_axis, y, y], **line)
            ax.text(end + (0.05 if to_right else -0.05), y, label,
                    ha="left" if to_right else "right", va="center", fontsize=9,
                    fontweight="bold" if m == c else "normal")

    # bars joining methods not significantly different
    bar: dict[str, Any] = {"color": "black", "linewidth": 3.0,
                           "solid_capstyle": "round"}
    for g, group in enumerate(groups):
        y = y_bars + bar_step * g
        xs = x_of(R[group])
        ax.plot([xs.min() - 0.03, xs.max() + 0.03], [y, y], **bar)
    if c is not None and cd is not None:
        xs = x_of([max(lo, R[c] - cd), min(hi, R[c] + cd)])
        ax.plot([xs.min(), xs.max()], [y_bars, y_bars], **bar)
    return fig

