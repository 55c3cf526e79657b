"""YAML files read strictly: a key repeated in one mapping is an error.

PyYAML keeps the last of two equal keys without a word, so an experiment (or
a ``selectors:`` list) given twice silently loses the first. Every YAML file
the user writes (configs, experiment files, claims files) is read here.
Merge keys (``<<: *anchor``) may still be overridden by an explicit key.

>>> load_yaml_text("a: 1\\nb: {c: 2}\\n", "x.yaml")
{'a': 1, 'b': {'c': 2}}
>>> try:
...     load_yaml_text("a: 1\\nb: 2\\na: 3\\n", "x.yaml")
... except DuplicateKeyError as exc:
...     print(exc)
x.yaml: line 3: key 'a' repeats line 1 (YAML would keep only the last)
"""

from __future__ import annotations

import os
from typing import Any

import yaml

_MERGE_TAG = "tag:yaml.org,2002:merge"


class DuplicateKeyError(ValueError):
    """A mapping of a YAML file repeats a key; the message names both lines."""


class _StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that records the file name and rejects repeated keys."""

    source = "<yaml>"


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode,
                       deep: bool = False) -> dict:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if key_node.tag == _MERGE_TAG:
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            first = seen.get(key)
        except TypeError:  # an unhashable key: PyYAML reports it
            continue
        line = key_node.start_mark.line + 1
        if first is not None:
            raise DuplicateKeyError(
                f"{loader.source}: line {line}: key {key!r} repeats line {first} "
                f"(YAML would keep only the last)"
            )
        seen[key] = line
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                              _construct_mapping)


def load_yaml_text(text: str, source: str) -> Any:
    """Parse YAML ``text`` (from ``source``, named in errors) strictly.

    Raises
    ------
    DuplicateKeyError
        If a mapping repeats a key.
    yaml.YAMLError
        If the text is not YAML.
    """
    loader = _StrictLoader(text)
    loader.source = source
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def load_yaml_file(path: str | os.PathLike) -> Any:
    """Read and parse a YAML file strictly (see :func:`load_yaml_text`)."""
    with open(path, encoding="utf-8") as fh:
        return load_yaml_text(fh.read(), str(path))
