"""Feature-count grids: their expansion, identifiers and fit to the data.

>>> feature_counts([1, "3..5", "10..20:5", "all"])
[1, 3, 4, 5, 10, 15, 20, 'all']
>>> feature_counts(["selected", "all"])
['all', 'selected']
"""

from __future__ import annotations

import re
from typing import Any

from mlfsbench.io import BASELINE
from mlfsbench.workflow.ids import short_hash
from mlfsbench.workflow.prepared import prepared_stats

_RANGE = re.compile(r"^(\d+)\.\.(\d+)(?::(\d+))?$")


def feature_counts(grid: list[int | str]) -> list[int | str]:
    """Expand a feature-count grid (ints, ``"a..b"``, ``"a..b:step"``, ``"all"``).

    Duplicates are removed; integers come first in increasing order, then
    ``"all"``, then ``"selected"`` (the selector's own subset, e.g. the
    features above its threshold).
    """
    values: set[int] = set()
    has_all = has_selected = False
    for item in grid:
        if isinstance(item, bool):
            raise ValueError(f"invalid feature count {item!r}")
        if isinstance(item, int):
            if item < 1:
                raise ValueError(f"feature count must be >= 1, got {item}")
            values.add(item)
        elif item == "all":
            has_all = True
        elif item == "selected":
            has_selected = True
        elif isinstance(item, str) and (m := _RANGE.match(item)):
            start, stop, step = int(m[1]), int(m[2]), int(m[3] or 1)
            if start < 1 or stop < start or step < 1:
                raise ValueError(f"invalid feature-count range {item!r}")
            values.update(range(start, stop + 1, step))
        else:
            raise ValueError(
                f"invalid feature count {item!r}: use an integer, 'a..b', "
                "'a..b:step', 'all' or 'selected'"
            )
    return (sorted(values) + (["all"] if has_all else [])
            + (["selected"] if has_selected else []))


def split_full_point(grid: list[int | str]) -> tuple[list[int | str], bool]:
    """The grid without its ``"all"`` point, and whether it had one.

    Classification on every feature does not depend on the selector, so the
    workflow runs that point once per dataset, split, classifier and input
    (raw features or one discretization's codes), in a job of its own, and
    each selector's table gets its rows (``all_features_id``).

    >>> split_full_point([1, 5, "all", "selected"])
    ([1, 5, 'selected'], True)
    """
    return [k for k in grid if k != "all"], "all" in grid


def all_features_id(disc: str) -> str:
    """The selector key of the shared all-features job on input ``disc``
    (``"none"``: the raw features, else a :func:`discretization_id`).

    >>> all_features_id("none"), all_features_id("equal-width-2")
    ('all-features', 'all-features-equal-width-2')
    """
    return BASELINE if disc == "none" else f"{BASELINE}-{disc}"


def grid_id(grid: list[int | str]) -> str:
    """Identifier of an expanded feature-count grid.

    >>> grid_id([1, 5, "all"]) == grid_id([1, 5, "all"]) != grid_id([1, "all"])
    True
    """
    return f"grid-{short_hash(list(grid))}"


def dataset_feature_counts(experiment: dict[str, Any], dataset: str) -> list[int | str]:
    """The expanded feature-count grid of one dataset: its
    ``dataset_n_features`` entry, else the experiment's ``n_features``.

    >>> dataset_feature_counts({"n_features": [1, "all"],
    ...                         "dataset_n_features": {"d": ["2..3"]}}, "d")
    [2, 3]
    """
    grids = experiment.get("dataset_n_features") or {}
    return feature_counts(grids.get(dataset, experiment["n_features"]))


def experiment_feature_counts(experiment: dict[str, Any]) -> list[int | str]:
    """The union of an experiment's per-dataset grids (its tables' grid).

    >>> experiment_feature_counts({"datasets": ["a", "b"], "n_features": [1, "all"],
    ...                            "dataset_n_features": {"b": ["2..3", "all"]}})
    [1, 2, 3, 'all']
    """
    union: list[int | str] = []
    for dataset in experiment["datasets"]:
        union += dataset_feature_counts(experiment, dataset)
    return feature_counts(union)


def prepared_feature_counts(experiment: dict[str, Any],
                            root: str = "data/prepared") -> dict[str, int]:
    """Feature counts of the experiment's datasets already prepared under
    ``root`` (from their ``.stats.json``); others are unknown yet."""
    out = {}
    for dataset in experiment["datasets"]:
        try:
            out[dataset] = int((prepared_stats(dataset, root) or {})["features"])
        except (ValueError, KeyError, TypeError):
            continue
    return out


def check_grid_fits(name: str, experiment: dict[str, Any],
                    n_features: dict[str, int]) -> None:
    """Every dataset of the experiment has a grid point that fits it.

    ``n_features`` maps the datasets whose feature count is known (a prepared
    dataset's statistics) to that count; a grid of integers only, all above
    it, would fail at classify time, and a dataset without features at
    select time, whatever the grid.

    >>> try:
    ...     check_grid_fits("e", {"datasets": ["d"], "n_features": ["all"]}, {"d": 0})
    ... except ValueError as exc:
    ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
    experiment 'e': dataset 'd' has no features (every attribute of its files
    is a label): there is nothing to select from
    """
    for dataset in experiment["datasets"]:
        if n_features.get(dataset) == 0:
            raise ValueError(
                f"experiment {name!r}: dataset {dataset!r} has no features (every "
                "attribute of its files is a label): there is nothing to select "
                "from")
        grid = dataset_feature_counts(experiment, dataset)
        sizes = [k for k in grid if isinstance(k, int)]
        if len(sizes) < len(grid):  # "all" or "selected" always fit
            continue
        d = n_features.get(dataset)
        if d is not None and min(sizes) > d:
            given = (experiment.get("dataset_n_features") or {}).get(
                dataset, experiment["n_features"])
            raise ValueError(
                f"experiment {name!r}: no feature count of n_features "
                f"{given} fits dataset {dataset!r}, which has "
                f"{d} features"
            )
