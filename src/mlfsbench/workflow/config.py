"""Experiment configuration: method identifiers and checks beyond the schema.

The JSON schema in ``mlfsbench/workflow/schemas/config.schema.yaml`` (package data,
:data:`CONFIG_SCHEMA`) checks the shape of a
config (and fills defaults). This module adds what a schema cannot: that every
method name is registered and accepts the given parameters, and it derives the
*identifier* of each configured method, which keys its output paths.

An identifier is the registry name when the entry has no parameters, else the
name plus a short hash of the canonical JSON of its parameters (and, for
selectors, of its discretization). Changing one parameter therefore changes one
identifier, so only that method's jobs rerun. An entry may set ``id`` itself.

>>> method_id({"name": "mim-br", "params": {}})
'mim-br'
>>> method_id({"name": "mlknn", "params": {"k": 10, "s": 1}})
'mlknn-c288c5ba'
>>> method_id({"name": "mlknn", "params": {"s": 1, "k": 10}})
'mlknn-c288c5ba'
>>> feature_counts([1, "3..5", "10..20:5", "all"])
[1, 3, 4, 5, 10, 15, 20, 'all']
>>> feature_counts(["selected", "all"])
['all', 'selected']
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib.resources import files
from typing import Any

import yaml

from mlfsbench.estimators import registry

CONFIG_SCHEMA = files("mlfsbench.workflow") / "schemas" / "config.schema.yaml"
"""The JSON schema of an experiment config (package data)."""

_RANGE = re.compile(r"^(\d+)\.\.(\d+)(?::(\d+))?$")


def canonical_json(obj: Any) -> str:
    """Compact JSON with sorted keys (the hashing input)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def canonical(obj: Any) -> Any:
    """A copy of ``obj`` with every mapping's keys sorted.

    Rule parameters pass through this, so reordering keys in a YAML file does
    not look like a parameter change to Snakemake.

    >>> canonical({"b": 1, "a": {"d": 2, "c": 3}})
    {'a': {'c': 3, 'd': 2}, 'b': 1}
    """
    return json.loads(canonical_json(obj))


def method_id(entry: dict[str, Any]) -> str:
    """Identifier of a configured selector or classifier entry."""
    if entry.get("id"):
        return str(entry["id"])
    key = {k: entry[k] for k in ("params", "dataset_params", "discretize")
           if entry.get(k)}
    if not key:
        return entry["name"]
    digest = hashlib.sha1(canonical_json(key).encode()).hexdigest()[:8]
    return f"{entry['name']}-{digest}"


def discretization_id(spec: dict[str, Any] | None) -> str:
    """Path component of a discretization, e.g. ``equal-width-5``; ``none``."""
    if not spec or spec.get("strategy", "none") == "none":
        return "none"
    return f"{spec['strategy']}-{int(spec['bins'])}"


def input_kind(entry: dict[str, Any]) -> str:
    """``"discrete"`` or ``"continuous"``: what the configured selector reads.

    Asked of an instance, since it may depend on a parameter (e.g. a selector
    that discretizes by itself with one setting and not with another).
    """
    selector = registry.create("selector", entry["name"], entry.get("params"))
    return getattr(selector, "input_kind", "discrete")


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


def load_experiment_files(config: dict[str, Any]) -> dict[str, Any]:
    """Merge the ``experiments`` of every ``experiment_files`` entry into ``config``.

    An experiment name defined twice (inline and in a file, or in two files)
    is an error naming both places. Returns ``config`` (modified in place).
    """
    experiments = config.setdefault("experiments", {}) or {}
    config["experiments"] = experiments
    origin = {name: "the config" for name in experiments}
    for path in config.get("experiment_files") or []:
        try:
            with open(path, encoding="utf-8") as fh:
                data = yaml.safe_load(fh) or {}
        except OSError as exc:
            raise ValueError(f"experiment file {path}: {exc.strerror}") from None
        if not isinstance(data.get("experiments"), dict):
            raise ValueError(f"experiment file {path}: no 'experiments' mapping")
        for name, experiment in data["experiments"].items():
            if name in origin:
                raise ValueError(
                    f"experiment {name!r} defined in {origin[name]} and in {path}"
                )
            origin[name] = path
            experiments[name] = experiment
    return config


def check_experiment(name: str, experiment: dict[str, Any],
                     table: dict[str, Any]) -> None:
    """Check one experiment against the registry and the datasets table.

    ``table`` maps dataset names to :class:`~mlfsbench.data.DatasetSpec`.
    Raises ValueError naming the experiment and the problem.
    """
    where = f"experiment {name!r}"
    for dataset in experiment["datasets"]:
        if dataset not in table:
            raise ValueError(
                f"{where}: dataset {dataset!r} is not in the datasets table "
                f"(known: {', '.join(sorted(table))})"
            )
        for split, spec in experiment["splits"].items():
            if spec["type"] == "given" and table[dataset].test_url is None:
                raise ValueError(
                    f"{where}: split {split!r} uses the given train/test files, "
                    f"but dataset {dataset!r} has no train_url/test_url"
                )
    for key in ("selectors", "classifiers", "transformations"):
        for entry in experiment.get(key, []):
            named = set(entry.get("datasets") or [])
            named |= set(entry.get("dataset_params") or {})
            extra = named - set(experiment["datasets"])
            if extra:
                raise ValueError(
                    f"{where}: {key} entry {method_id(entry)!r} names dataset(s) "
                    f"{', '.join(sorted(extra))} that the experiment does not list"
                )
    try:
        check_methods(experiment)
        feature_counts(experiment["n_features"])
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def entry_params(entry: dict[str, Any], dataset: str) -> dict[str, Any]:
    """Parameters of an entry on one dataset: ``params`` updated by
    ``dataset_params[dataset]`` (e.g. a label count chosen per dataset).

    >>> entry_params({"params": {"a": 1, "b": 2},
    ...               "dataset_params": {"d": {"b": 3}}}, "d")
    {'a': 1, 'b': 3}
    """
    params = dict(entry.get("params") or {})
    params.update((entry.get("dataset_params") or {}).get(dataset) or {})
    return params


def applies_to(entry: dict[str, Any], dataset: str) -> bool:
    """Whether a selector/classifier entry runs on ``dataset``."""
    only = entry.get("datasets")
    return not only or dataset in only


def check_methods(config: dict[str, Any]) -> None:
    """Check registry names, parameters and unique identifiers; raise ValueError."""
    for kind, key in (("selector", "selectors"), ("classifier", "classifiers"),
                      ("transformation", "transformations")):
        seen: dict[str, str] = {}
        for entry in config.get(key, []):
            name = entry["name"]
            try:
                cls = registry.get(kind, name)
            except KeyError as exc:
                raise ValueError(f"config {key}: {exc.args[0]}") from None
            allowed = registry.parameters(cls)
            given = set(entry.get("params") or {})
            for values in (entry.get("dataset_params") or {}).values():
                given |= set(values or {})
            unknown = sorted(given - set(allowed))
            if unknown:
                raise ValueError(
                    f"config {key}: {kind} {name!r} has no parameter(s) "
                    f"{', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}"
                )
            ident = method_id(entry)
            if ident in seen:
                raise ValueError(f"config {key}: two entries share the id {ident!r}")
            seen[ident] = name
