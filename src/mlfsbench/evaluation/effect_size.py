"""Cliff's delta, the effect size beside the ranks: how often one method's
score beats the other's, over the datasets.

Cliff (1993), "Dominance statistics: ordinal analyses to answer ordinal
questions", Psychological Bulletin 114(3):494-509:

    delta = (#{(i, j): x_i > y_j} - #{(i, j): x_i < y_j}) / (n m)

in [-1, 1], over every pair of a score of one method and a score of the
other; the magnitude words follow Romano, Kromrey, Coraggio & Skowronek
(2006): |delta| < 0.147 negligible, < 0.33 small, < 0.474 medium, else large
(as autorank reports it). Here delta is oriented so that a positive value
favours the first method whatever the metric (a loss is negated).
"""

from __future__ import annotations

import numpy as np

#: Upper bounds of |delta| for each magnitude word (Romano et al. 2006).
MAGNITUDES = ((0.147, "negligible"), (0.33, "small"), (0.474, "medium"))


def cliffs_delta(first, second, *, higher_is_better: bool = True) -> float:
    """Cliff's delta of ``first`` over ``second`` (positive: ``first`` better).

    >>> cliffs_delta([3, 4, 5], [1, 2, 3])  # 8 wins, 1 tie of 9 pairs
    0.8888888888888888
    >>> cliffs_delta([3, 4, 5], [1, 2, 3], higher_is_better=False)
    -0.8888888888888888
    >>> cliffs_delta([1, 2], [2, 1], higher_is_better=False)  # not -0.0
    0.0
    """
    a = np.asarray(first, dtype=float).ravel()
    b = np.asarray(second, dtype=float).ravel()
    if a.size == 0 or b.size == 0:
        raise ValueError("Cliff's delta needs at least one score of each method")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("Cliff's delta needs finite scores")
    sign = np.sign(a[:, None] - b[None, :])
    delta = float(sign.sum() / sign.size)
    # 0.0 - delta, not -delta: no equal pair of methods printed as -0.000
    return delta if higher_is_better else 0.0 - delta


def magnitude(delta: float) -> str:
    """The magnitude word of a Cliff's delta.

    >>> [magnitude(d) for d in (0.1, -0.2, 0.4, 0.474)]
    ['negligible', 'small', 'medium', 'large']
    """
    size = abs(delta)
    for bound, word in MAGNITUDES:
        if size < bound:
            return word
    return "large"
