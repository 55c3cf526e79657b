"""A measure read jointly with the share of features kept (``joint:``).

Spolaôr et al. (2013, Figs. 2-5) draw each method as a point: the measure
on the x-axis, the share of features kept (``1 - feature_reduction/100``) on
the y-axis, both in [0, 1]; "nearer to the ... bottom corner" is better.
A ``winner`` or ``better`` claim with ``joint: feature_reduction`` compares
these points, by ``joint_score``:

- ``corner``: the Euclidean distance to the figure's best corner, ``(0, 0)``
  for a loss, ``(1, 0)`` for a gain; lower is better. Its fold noise: each
  point's s.d.s propagated to the distance (first order), two points compared
  with the unpaired standard error (:func:`corner_gap`);
- ``pareto`` (the default): a point dominates another when it is at least as
  good on both axes and better on one; no interval.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mlfsbench.io import BASELINE
from mlfsbench.report.claims import noise

#: ``joint_score`` values.
SCORES = ("corner", "pareto")
#: What a Pareto comparison's verdict says in the ``robust`` column.
PARETO_ROBUST = "no spread (Pareto dominance has no interval)"
#: Two values closer than this are equal (a tie counts for every tied method).
TIE = 1e-12


@dataclass(frozen=True)
class Point:
    """One method in a joint figure: the measure ``x`` and the share of
    features kept ``y`` (means over folds), their s.d.s over folds, the
    folds ``n``, and the distance ``d`` to the best corner with its
    propagated s.d. ``sd_d``."""

    x: float
    y: float
    sd_x: float
    sd_y: float
    n: int
    d: float
    sd_d: float


def corner(x: float, y: float, sd_x: float, sd_y: float,
           greater: bool) -> tuple[float, float]:
    """The distance of ``(x, y)`` to the best corner (``x* = 1`` for a gain,
    0 for a loss; ``y* = 0``) and its s.d. propagated from ``sd_x`` and
    ``sd_y``: ``sqrt(((x - x*)/d)^2 sd_x^2 + (y/d)^2 sd_y^2)``.

    >>> d, sd = corner(0.3, 0.4, 0.05, 0.1, greater=False)
    >>> round(d, 6), round(sd, 6)
    (0.5, 0.08544)
    """
    dx = x - (1.0 if greater else 0.0)
    d = math.hypot(dx, y)
    if d == 0:
        return 0.0, 0.0
    return d, math.sqrt((dx / d) ** 2 * sd_x ** 2 + (y / d) ** 2 * sd_y ** 2)


def points(results, metric: str, dataset: str, methods: Sequence[str],
           n_features, greater: bool, joint: str = "feature_reduction"
           ) -> dict[str, Point]:
    """Each method's point at ``n_features`` (an integer K or ``selected``;
    ``all-features`` keeps every feature: y = 1)."""
    if joint != "feature_reduction":
        raise ValueError(f"unknown joint quantity {joint!r}")
    if str(n_features) in ("mean", "best", "mean-rank", "every"):
        raise ValueError(f"a joint claim is read at one subset per method, not at "
                         f"n_features {n_features!r}")
    out = {}
    for m in methods:
        x, sd_x, n = results.cell(metric, dataset, m, n_features)
        if results.method(m) == BASELINE:
            y, sd_y = 1.0, 0.0
        else:
            fr, sd_fr, _ = results.cell(joint, dataset, m, n_features)
            y, sd_y = 1.0 - fr / 100.0, sd_fr / 100.0
        d, sd_d = corner(x, y, sd_x, sd_y, greater)
        out[m] = Point(x, y, sd_x, sd_y, n, d, sd_d)
    return out


def dominates(a: Point, b: Point, greater: bool) -> bool:
    """Whether ``a`` is at least as good as ``b`` on the measure and on the
    share kept (smaller is better), and better on one of them.

    >>> p = lambda x, y: Point(x, y, 0, 0, 1, 0, 0)
    >>> dominates(p(.8, .2), p(.7, .2), True), dominates(p(.8, .3), p(.7, .2), True)
    (True, False)
    """
    ax, bx = (a.x, b.x) if greater else (-a.x, -b.x)
    no_worse = ax >= bx - TIE and a.y <= b.y + TIE
    return no_worse and (ax > bx + TIE or a.y < b.y - TIE)


def winners(pts: Mapping[str, Point], greater: bool, how: str) -> list[str]:
    """The best methods: the nearest to the corner (ties within
    :data:`TIE`), or the undominated ones."""
    if how == "corner":
        best = min(p.d for p in pts.values())
        return [m for m, p in pts.items() if p.d <= best + TIE]
    if how == "pareto":
        return [m for m, p in pts.items()
                if not any(dominates(o, p, greater) for n, o in pts.items() if n != m)]
    raise ValueError(f"unknown joint_score {how!r}; known: {', '.join(SCORES)}")


def beats(a: Point, b: Point, greater: bool, how: str) -> bool:
    """``a`` better than ``b``: strictly nearer to the corner, or dominating."""
    if how == "corner":
        return a.d < b.d - TIE
    return dominates(a, b, greater)


def corner_gap(a: Point, b: Point) -> noise.Gap:
    """``d(a) - d(b)`` with the unpaired interval of the two propagated s.d.s."""
    g = noise.unpaired_gap((a.d, a.sd_d, a.n), (b.d, b.sd_d, b.n))
    return dataclasses.replace(
        g, kind="corner distance's propagated s.d., unpaired s.e. x t")


def words(pts: Mapping[str, Point], how: str) -> str:
    """Each point as ``method (x, y[, d])``."""
    tail = (lambda p: f", d {p.d:.4f})") if how == "corner" else (lambda p: ")")
    return ", ".join(f"{m} ({p.x:.4f}, {p.y:.4f}{tail(p)}" for m, p in pts.items())


def describe(q: Mapping) -> str:
    """The joint reading in words (for the ``how`` column)."""
    how = q.get("joint_score", "pareto")
    return (", with the share of features kept: "
            + ("distance to the figure's best corner" if how == "corner"
               else "Pareto dominance"))
