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
    out = []
    for i, j in itertools.combinations(range(table.shape[1]), 2):
        a, b = table[:, i], table[:, j]
        test = signed_rank(a, b, rope=rope, higher_is_better=higher_is_better,
                           random_state=random_state)
        delta = cliffs_delta(a, b, higher_is_better=higher_is_better)
        out.append({"pair": [names[i], names[j]], "p_first": test.p_first,
                    "p_rope": test.p_rope, "p_second": test.p_second,
                    "rope": test.rope, "cliffs_delta": delta,
                    "magnitude": magnitude(delta)})
    return out
