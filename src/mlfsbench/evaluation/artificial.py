"""Selectors run on the artificial problems of Doquire & Verleysen (2013).

The ``artificial`` claims (:mod:`mlfsbench.report.claims.rules.artificial`)
check the rankings a registered selector gives on fresh draws of a generated
problem (:mod:`mlfsbench.data.artificial`, which only generates the data).
One such run is named by its :func:`run_spec` (problem, selector, its
parameters, draws, sample size, discretization) and keyed by its content
(:func:`run_key`): the workflow's ``artificial`` jobs compute each run once
(:func:`run_problem`, :func:`save_runs`) for every claim and every reading
that asks for it, and the claims read it (:func:`load_runs`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from mlfsbench.io import read_checked, save_npz

#: What a run is made of, and the defaults of an artificial claim's quantity.
DEFAULT_REPEATS, DEFAULT_N = 20, 1000
DEFAULT_DISCRETIZE = {"strategy": "equal-width", "bins": 5}


def run_spec(quantity: Mapping[str, Any],
             entry_params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The run an artificial claim's ``quantity`` asks for: its ``params``
    updated by those of the experiment's entry (``entry_params``, when the
    quantity names an ``entry``), with every default written out.

    >>> run_spec({"problem": 1, "method": "mim-br", "params": {"a": 1}},
    ...          {"b": 2})["params"]
    {'a': 1, 'b': 2}
    """
    params = {**dict(quantity.get("params") or {}), **dict(entry_params or {})}
    return {"problem": int(quantity["problem"]), "method": str(quantity["method"]),
            "params": params,
            "repeats": int(quantity.get("repeats", DEFAULT_REPEATS)),
            "n": int(quantity.get("n", DEFAULT_N)),
            "discretize": {**DEFAULT_DISCRETIZE, **dict(quantity.get("discretize")
                                                        or {})}}


def run_key(spec: Mapping[str, Any]) -> str:
    """A run's name by its content: 16 hex digits of the sha256 of its
    canonical JSON (keys sorted), the same for the same run whichever claim
    or reading asks for it.

    >>> a = run_key(run_spec({"problem": 1, "method": "m"}))
    >>> a == run_key(run_spec({"method": "m", "problem": 1, "repeats": 20}))
    True
    >>> a == run_key(run_spec({"problem": 2, "method": "m"}))
    False
    """
    text = json.dumps(dict(spec), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def run_problem(problem: int, method: str, params: dict[str, Any] | None = None, *,
                repeats: int = DEFAULT_REPEATS, n: int = DEFAULT_N,
                discretize: dict[str, Any] | None = None,
                ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Fit a registered selector on ``repeats`` draws (seeds 0, 1, ...).

    A selector that reads discrete codes gets them as the workflow's
    discretize stage makes them (``discretize``, default equal-width, 5
    bins). Returns each draw's ranking (feature indices, best first) and
    scores.
    """
    # (here, not at the top: the workflow's plan imports this module for
    # run_spec and run_key, and its rules load nothing of the estimators)
    from mlfsbench.data.artificial import PROBLEMS
    from mlfsbench.estimators import registry
    from mlfsbench.estimators.discretizers.unsupervised import make_discretizer

    spec = {**DEFAULT_DISCRETIZE, **(discretize or {})}

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


def run(spec: Mapping[str, Any]) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """:func:`run_problem` of a :func:`run_spec`."""
    return run_problem(spec["problem"], spec["method"], dict(spec["params"]),
                       repeats=spec["repeats"], n=spec["n"],
                       discretize=dict(spec["discretize"]))


def save_runs(path: str | os.PathLike, spec: Mapping[str, Any],
              rankings: list[np.ndarray], scores: list[np.ndarray | None]) -> None:
    """Write a run (with its spec and key, and the checksum beside it).

    A draw's ranking may be shorter than the features (a selector asked for
    fewer): rankings are stored padded with -1 beside their lengths; a
    draw without scores is a NaN row, marked in ``has_scores``.
    """
    width = max((len(r) for r in rankings), default=0)
    ranked = np.full((len(rankings), width), -1, dtype=np.int64)
    for i, r in enumerate(rankings):
        ranked[i, :len(r)] = r
    have = np.array([s is not None for s in scores], dtype=bool)
    n_scores = max((len(s) for s in scores if s is not None), default=0)
    scored = np.full((len(scores), n_scores), np.nan)
    for i, s in enumerate(scores):
        if s is not None:
            scored[i, :len(s)] = s
    save_npz(path, checksum=True, rankings=ranked, lengths=np.array(
        [len(r) for r in rankings], dtype=np.int64), scores=scored, has_scores=have,
        score_lengths=np.array([0 if s is None else len(s) for s in scores],
                               dtype=np.int64),
        spec=np.array(json.dumps(dict(spec), sort_keys=True)),
        key=np.array(run_key(spec)))


def load_runs(path: str | os.PathLike, spec: Mapping[str, Any] | None = None,
              ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """A run :func:`save_runs` wrote (checked against its checksum, and
    against ``spec`` when given: a file of another run is an error naming
    it)."""
    with np.load(io.BytesIO(read_checked(path))) as z:
        stored = json.loads(str(z["spec"]))
        if spec is not None and run_key(stored) != run_key(spec):
            raise ValueError(f"{os.fspath(path)}: holds the run {stored}, not "
                             f"{dict(spec)}")
        rankings = [np.asarray(r[:m]) for r, m in zip(z["rankings"], z["lengths"],
                                                       strict=True)]
        scores = [np.asarray(s[:m], dtype=float) if h else None
                  for s, h, m in zip(z["scores"], z["has_scores"], z["score_lengths"],
                                     strict=True)]
    return rankings, scores
