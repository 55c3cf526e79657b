"""Selectors run on the artificial problems of Doquire & Verleysen (2013).

The ``artificial`` rule of the claims (:mod:`mlfsbench.report.claims`) fits a
registered selector on fresh draws of a generated problem
(:mod:`mlfsbench.data.artificial`, which only generates the data) and checks
the rankings.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlfsbench.data.artificial import PROBLEMS
from mlfsbench.estimators import registry
from mlfsbench.estimators.discretizers.unsupervised import make_discretizer


def run_problem(problem: int, method: str, params: dict[str, Any] | None = None, *,
                repeats: int = 20, n: int = 1000,
                discretize: dict[str, Any] | None = None,
                ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Fit a registered selector on ``repeats`` draws (seeds 0, 1, ...).

    A selector that reads discrete codes gets them as the workflow's
    discretize stage makes them (``discretize``, default equal-width, 5
    bins). Returns each draw's ranking (feature indices, best first) and
    scores.
    """
    spec = {"strategy": "equal-width", "bins": 5, **(discretize or {})}

    make = PROBLEMS[int(problem)]
    rankings, scores = [], []
    for seed in range(repeats):
        X, Y = make(seed, n)
        sel = registry.create("selector", method, params, random_state=seed)
        if getattr(sel, "input_kind", "discrete") == "discrete":
            X = make_discretizer(spec["strategy"], int(spec["bins"])).fit_transform(X)
        sel.fit(X, Y)
        rankings.append(np.asarray(sel.ranking_))
        s = getattr(sel, "scores_", None)
        scores.append(None if s is None else np.asarray(s, dtype=float))
    return rankings, scores
