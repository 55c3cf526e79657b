"""``mlfsbench methods``: the registered estimators, their input, origin and
description (and parameters)."""

from __future__ import annotations

import re
from typing import Any

from mlfsbench.cli._common import plain_table, write_json
from mlfsbench.estimators import registry

_CITATION = re.compile(r"\(([^()]*\b(?:19|20)\d\d\b[^()]*)\)")


def add_parser(sub) -> None:
    p = sub.add_parser("methods", help="registered methods: kind, input, origin "
                       "and description")
    p.add_argument("--params", action="store_true",
                   help="also list each method's parameters and defaults")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def method_details(kind: str, name: str, entry: dict[str, Any]) -> dict[str, Any]:
    """What ``mlfsbench methods`` shows of a registered estimator beside its
    parameters: the input it reads (selectors: discrete codes or continuous
    features), the citation of its summary line, and its origin (built in, or
    the installed distribution of a plugin)."""
    cls = registry.get(kind, name)
    details = {"input": "-", "citation": "", "origin": "built-in"}
    if kind == "selector":
        try:
            details["input"] = str(registry.create(kind, name, {}).input_kind)
        except Exception:  # a plugin that needs parameters: unknown
            details["input"] = "?"
    elif kind == "classifier":
        details["input"] = "features"
    elif kind == "transformation":
        details["input"] = "labels"
    match = _CITATION.search(entry.get("summary", ""))
    if match:
        details["citation"] = match.group(1)
    top = cls.__module__.split(".")[0]
    if top != "mlfsbench":
        from importlib.metadata import packages_distributions

        dists = packages_distributions().get(top) or [top]
        details["origin"] = f"plugin: {dists[0]}"
    return details


def run(args) -> int:
    info = registry.describe()
    for kind, entries in info.items():
        for name, entry in entries.items():
            entry.update(method_details(kind, name, entry))
    if args.json:
        write_json(info)
        return 0
    rows = []
    for kind, entries in info.items():
        for name, entry in entries.items():
            rows.append([kind, name, entry["input"], entry["origin"],
                         entry["summary"]])
    print(plain_table(["kind", "name", "input", "origin", "description"], rows))
    if args.params:
        print()
        for kind, entries in info.items():
            for name, entry in entries.items():
                params = ", ".join(f"{k}={v!r}"
                                   for k, v in entry["parameters"].items())
                print(f"{kind}\t{name}\t{params}")
    return 0
