"""Every pair of methods beside the ranks: the Bayesian signed-rank test's
probabilities (:mod:`~mlfsbench.evaluation.bayesian`) and Cliff's delta with
its magnitude (:mod:`~mlfsbench.evaluation.effect_size`), over the datasets
of a datasets x methods table.

Ranks and their post-hoc tests say whether two methods differ; these say by
how much and how probably, with a region of practical equivalence (rope)
stated in the metric's units (Benavoli et al. 2017, JMLR 18(77)).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from mlfsbench.evaluation.bayesian import ROPE, signed_rank
from mlfsbench.evaluation.effect_size import cliffs_delta, magnitude


def pairwise(values, names: list[str], *, higher_is_better: bool,
             rope: float = ROPE, random_state: int = 0) -> list[dict[str, Any]]:
    """One entry per pair ``(names[i], names[j])``, ``i < j``: ``pair``,
    ``p_first``, ``p_rope``, ``p_second`` (the first method better,
    equivalent within ``rope``, the second better), ``rope``,
    ``cliffs_delta`` (positive: the first better) and ``magnitude``.

    ``values``: shape (n_datasets, n_methods), one mean per dataset. Every
    pair's draws start from the same seed, ``random_state``, so a pair's
    probabilities do not depend on which other methods are in the table.
    (7 of the 9 pairs of scores below favour ``a``, the loss's lower, 2 tie.)

    >>> out = pairwise([[0.2, 0.3], [0.1, 0.4], [0.3, 0.3]], ["a", "b"],
    ...                higher_is_better=False)
    >>> out[0]["pair"], out[0]["cliffs_delta"], out[0]["magnitude"]
    (['a', 'b'], 0.7777777777777778, 'large')
    """
    table = np.asarray(values, dtype=float)
    return [_pair(table[:, i], table[:, j], names[i], names[j],
                  higher_is_better=higher_is_better, rope=rope,
                  random_state=random_state)
            for i, j in itertools.combinations(range(table.shape[1]), 2)]


def pairwise_against(values, names: list[str], first: str, *,
                     higher_is_better: bool, rope: float = ROPE,
                     random_state: int = 0) -> list[dict[str, Any]]:
    """The entries of :func:`pairwise` of ``first`` against every other
    method of the table, in column order, ``first`` always the pair's first
    (``p_first``: ``first`` better; a challenger against a study's methods).
    Computed, not flipped from :func:`pairwise`'s column order: the test
    breaks an exact tie of the posterior's shares towards the first method.

    (A loss: c's 0.1, 0.2 against a's 0.2, 0.1 win one pair, tie two, lose one.)

    >>> out = pairwise_against([[0.2, 0.3, 0.1], [0.1, 0.4, 0.2]], ["a", "b", "c"],
    ...                        "c", higher_is_better=False)
    >>> [(e["pair"], e["cliffs_delta"]) for e in out]
    [(['c', 'a'], 0.0), (['c', 'b'], 1.0)]
    """
    table = np.asarray(values, dtype=float)
    if first not in names:
        raise ValueError(f"{first!r} is not a method of the table: {names}")
    i = names.index(first)
    return [_pair(table[:, i], table[:, j], first, names[j],
                  higher_is_better=higher_is_better, rope=rope,
                  random_state=random_state)
            for j in range(table.shape[1]) if j != i]


def _pair(a, b, first: str, second: str, *, higher_is_better: bool,
          rope: float, random_state: int) -> dict[str, Any]:
    test = signed_rank(a, b, rope=rope, higher_is_better=higher_is_better,
                       random_state=random_state)
    delta = cliffs_delta(a, b, higher_is_better=higher_is_better)
    return {"pair": [first, second], "p_first": test.p_first,
            "p_rope": test.p_rope, "p_second": test.p_second,
            "rope": test.rope, "cliffs_delta": delta,
            "magnitude": magnitude(delta)}
