"""What the plan learns from the prepared datasets: their statistics file.

The prepare stage writes ``data/prepared/<dataset>.stats.json`` beside each
prepared dataset (:func:`~mlfsbench.data.dataset_statistics`). A plan built
after the data stage reads it: the feature counts check the grids
(:func:`~mlfsbench.workflow.grids.check_grid_fits`) and the data facts
(:data:`~mlfsbench.estimators.registry.DATA_FACTS`, e.g. features all 0 or
1) let two methods that differ only in a parameter without effect on that
dataset share one job (:func:`~mlfsbench.workflow.ids.entry_on_data`). A
dataset not prepared yet has no statistics: its jobs are planned without the
facts, which is never wrong, only sometimes more work (``mlfsbench run``
prepares every dataset before it plans the run).
"""

from __future__ import annotations

import json
from typing import Any

from mlfsbench.estimators.registry import DATA_FACTS

ROOT = "data/prepared"


def prepared_stats(dataset: str, root: str = ROOT) -> dict[str, Any] | None:
    """The statistics file of a prepared dataset (None if there is none or
    it cannot be read)."""
    try:
        with open(f"{root}/{dataset}.stats.json", encoding="utf-8") as fh:
            stats = json.load(fh)
    except (OSError, ValueError):
        return None
    return stats if isinstance(stats, dict) else None


def dataset_facts(datasets, root: str = ROOT) -> dict[str, dict[str, bool]]:
    """The data facts recorded for each prepared dataset of ``datasets``
    (only facts recorded as true or false; a dataset without any is left
    out)."""
    out = {}
    for dataset in datasets:
        stats = prepared_stats(dataset, root) or {}
        facts = {f: stats[f] for f in DATA_FACTS if isinstance(stats.get(f), bool)}
        if facts:
            out[dataset] = facts
    return out
