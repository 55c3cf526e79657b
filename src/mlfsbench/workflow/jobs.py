"""The jobs of a plan: batches of folds, the job record, a job's cache keys.

A batch job (a selection, classification or transformation) covers a batch
of folds of one split (:func:`fold_batches`); :class:`Job` is one such job
as an experiment's tables read it, and :func:`cache_keys` the keys a job
writes into its records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mlfsbench.workflow.grids import grid_id

#: The kinds of configured methods, as the plan's ``entries`` key them.
KINDS = ("selector", "classifier", "transformation")
#: The grid of the all-features jobs.
FULL_GRID = grid_id(["all"])
#: Wildcard of each method kind in the output paths.
WILDCARD = {"selector": "selector", "classifier": "classifier",
            "transformation": "transform"}


# --------------------------------------------------------------------- batches
# The workflow's jobs cover a batch of folds of one split (all folds by
# default, ``fold_batch`` folds each when set).
def batch_folds(batch: str) -> list[int]:
    """Folds of a batch identifier: ``folds0-4`` -> ``[0, 1, 2, 3, 4]``.

    >>> batch_folds("folds3-5")
    [3, 4, 5]
    """
    first, _, last = batch.removeprefix("folds").partition("-")
    return list(range(int(first), int(last) + 1))


def fold_batches(n: int, size: int | None = None) -> list[str]:
    """Batch identifiers covering folds ``0..n-1``, ``size`` folds each
    (all in one when ``size`` is None or 0).

    >>> fold_batches(5), fold_batches(5, 2)
    (['folds0-4'], ['folds0-1', 'folds2-3', 'folds4-4'])
    """
    size = size or n
    return [f"folds{i}-{min(i + size, n) - 1}" for i in range(0, n, size)]


# ------------------------------------------------------------------------ jobs
@dataclass(frozen=True)
class Job:
    """One batch job an experiment's tables read.

    ``kind`` is ``"select"``, ``"classify"`` or ``"transform"``; ``keys``
    are its cache keys, the wildcards of its output path (``dataset``,
    ``split`` protocol id, ``batch``, ``seed`` and the method ids: ``selector``,
    ``classifier`` and ``grid``, or ``transform``); ``labels`` the
    experiment's names for them (``split`` name and method ids), which its
    tables use.
    """

    kind: str
    keys: Mapping[str, Any]
    labels: Mapping[str, str]


def cache_keys(wildcards) -> dict[str, str]:
    """The keys a batch job writes into its records (cache ids), from its
    wildcards (a mapping, or Snakemake's wildcards: anything with ``items``)."""
    given = dict(wildcards.items())
    out = {"dataset": given["dataset"], "split": given["split"]}
    for kind in KINDS:
        if WILDCARD[kind] in given:
            out[kind] = given[WILDCARD[kind]]
    return out
