"""Experiment configuration: method identifiers and checks beyond the schema.

The JSON schema in ``config/schemas/config.schema.yaml`` checks the shape of a
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
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from mlfsbench import registry

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
    key = {k: entry[k] for k in ("params", "discretize") if entry.get(k)}
    if not key:
        return entry["name"]
    digest = hashlib.sha1(canonical_json(key).encode()).hexdigest()[:8]
    return f"{entry['name']}-{digest}"


def discretization_id(spec: dict[str, Any] | None) -> str:
    """Path component of a discretization, e.g. ``equal-width-5``; ``none``."""
    if not spec or spec.get("strategy", "none") == "none":
        return "none"
    return f"{spec['strategy']}-{int(spec['bins'])}"


def feature_counts(grid: list[int | str]) -> list[int | str]:
    """Expand a feature-count grid (ints, ``"a..b"``, ``"a..b:step"``, ``"all"``).

    Duplicates are removed; integers come first in increasing order, then
    ``"all"``.
    """
    values: set[int] = set()
    has_all = False
    for item in grid:
        if isinstance(item, bool):
            raise ValueError(f"invalid feature count {item!r}")
        if isinstance(item, int):
            if item < 1:
                raise ValueError(f"feature count must be >= 1, got {item}")
            values.add(item)
        elif item == "all":
            has_all = True
        elif isinstance(item, str) and (m := _RANGE.match(item)):
            start, stop, step = int(m[1]), int(m[2]), int(m[3] or 1)
            if start < 1 or stop < start or step < 1:
                raise ValueError(f"invalid feature-count range {item!r}")
            values.update(range(start, stop + 1, step))
        else:
            raise ValueError(
                f"invalid feature count {item!r}: use an integer, 'a..b', "
                "'a..b:step' or 'all'"
            )
    return sorted(values) + (["all"] if has_all else [])


def check_methods(config: dict[str, Any]) -> None:
    """Check registry names, parameters and unique identifiers; raise ValueError."""
    for kind, key in (("selector", "selectors"), ("classifier", "classifiers")):
        seen: dict[str, str] = {}
        for entry in config.get(key, []):
            name = entry["name"]
            try:
                cls = registry.get(kind, name)
            except KeyError as exc:
                raise ValueError(f"config {key}: {exc.args[0]}") from None
            allowed = registry.parameters(cls)
            unknown = sorted(set(entry.get("params") or {}) - set(allowed))
            if unknown:
                raise ValueError(
                    f"config {key}: {kind} {name!r} has no parameter(s) "
                    f"{', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}"
                )
            ident = method_id(entry)
            if ident in seen:
                raise ValueError(f"config {key}: two entries share the id {ident!r}")
            seen[ident] = name
