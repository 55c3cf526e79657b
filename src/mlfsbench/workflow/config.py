"""Experiment configuration: loading a config and validating it.

The JSON schema in ``mlfsbench/workflow/schemas/config.schema.yaml`` (package data,
:data:`CONFIG_SCHEMA`) checks the shape of a config (and fills defaults):
:func:`check_config` reports its violations one at a time, with their place.
:func:`load_experiment_files` merges the experiment files a config lists and
resolves the experiments that extend a study (:mod:`~mlfsbench.workflow.studies`).
What a schema cannot check (registered names, parameters, datasets) is
:mod:`~mlfsbench.workflow.checks`'s; method identifiers are
:mod:`~mlfsbench.workflow.ids`'s.
"""

from __future__ import annotations

import os
from importlib.resources import files
from typing import Any

import yaml

from mlfsbench.estimators import registry
from mlfsbench.workflow.studies import resolve_extends
from mlfsbench.yamlfile import load_yaml_file

CONFIG_SCHEMA = files("mlfsbench.workflow") / "schemas" / "config.schema.yaml"
"""The JSON schema of an experiment config (package data)."""


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
            data = load_yaml_file(path) or {}
        except OSError as exc:
            raise ValueError(f"experiment file {path}: {exc.strerror}") from None
        except yaml.YAMLError as exc:
            raise ValueError(f"experiment file {path}: invalid YAML ({exc})") from None
        if not isinstance(data, dict):
            raise ValueError(f"experiment file {path}: no 'experiments' mapping")
        if not isinstance(data.get("experiments"), dict):
            raise ValueError(f"experiment file {path}: no 'experiments' mapping")
        for name, experiment in data["experiments"].items():
            if name in origin:
                raise ValueError(
                    f"experiment {name!r} defined in {origin[name]} and in {path}"
                )
            origin[name] = path
            experiments[name] = experiment
    resolve_extends(config)
    return config


#: An experiment's lists of methods -> their registry kind.
_METHOD_KINDS = {"selectors": "selector", "classifiers": "classifier",
                 "transformations": "transformation"}


def add_registered(config: dict[str, Any], source: str) -> None:
    """Expand each experiment's ``all_registered`` in place: every registered
    method of a kind it names (``selectors``, ``classifiers``,
    ``transformations``) that no experiment of the config lists (as written)
    and its ``except`` does not name joins the experiment's list as
    ``{name: ...}`` (its defaults), in name order; the key is dropped, the
    entries say what runs. ``config/smoke.yaml`` runs every method so: a new
    selector module joins it without an edit. An ``except`` name that is
    not registered is an error naming the experiment (``source``: the
    config, for messages)."""
    experiments = config.get("experiments") or {}
    listed = {key: {e["name"] for x in experiments.values()
                    for e in x.get(key) or []} for key in _METHOD_KINDS}
    for name, x in experiments.items():
        for key, spec in (x.pop("all_registered", None) or {}).items():
            kind = _METHOD_KINDS[key]
            skip = list((spec or {}).get("except") or [])
            for method in skip:
                try:
                    registry.get(kind, method)
                except KeyError as exc:
                    raise ValueError(
                        f"{source}: experiment {name!r}: all_registered.{key}."
                        f"except: {exc.args[0]}") from None
            x.setdefault(key, []).extend(
                {"name": method} for method in registry.names(kind)
                if method not in listed[key] and method not in skip)


#: Experiment names that the workflow's own folders take (``results/shared/``
#: holds the cache shared by every experiment).
RESERVED_EXPERIMENTS = ("shared",)


def check_config(config: dict[str, Any], source: str) -> None:
    """A config must define at least one experiment, none with a reserved
    name, and match the schema; ``source`` names it.

    Schema violations are reported one at a time with their place in the
    config and a specific message (:func:`schema_problem`), before
    Snakemake's own validation (which reports a ``oneOf`` as "is not valid
    under any of the given schemas").
    """
    if not config.get("experiments"):
        raise ValueError(
            f"{source}: no experiments (define 'experiments' or list "
            f"'experiment_files' that define some)"
        )
    for name in RESERVED_EXPERIMENTS:
        if name in config["experiments"]:
            raise ValueError(
                f"{source}: experiment {name!r} would write into results/{name}/, "
                f"the cache of every experiment's results; rename it"
            )
    problem = schema_problem(config)
    if problem:
        raise ValueError(f"{_defined_in(config, problem, source)}: {problem}")


def _defined_in(config: dict[str, Any], problem: str, source: str) -> str:
    """The experiment file that defines the experiment a schema problem is
    in (``experiments.<name>...``), else ``source``."""
    for path in config.get("experiment_files") or []:
        try:
            names = (load_yaml_file(path) or {}).get("experiments") or {}
        except (OSError, ValueError, AttributeError, yaml.YAMLError):
            continue
        if any(problem.startswith(f"experiments.{name}.") for name in names):
            return path
    return source


def schema_problem(config: dict[str, Any]) -> str | None:
    """The first violation of :data:`CONFIG_SCHEMA` in ``config`` as
    ``"place: message"``, or ``None``.

    A ``oneOf`` (the split types, feature counts) is explained by the branch
    the value meant: a split's ``type`` picks its branch, so ``k: 1`` reads
    "1 is less than the minimum of 2"; a method name that is not a registry
    name says which registered name it resembles.

    >>> schema_problem({"experiments": {"e": {"datasets": ["d"],
    ...     "splits": {"cv": {"type": "kfold", "k": 1}},
    ...     "selectors": [{"name": "mim-br"}], "classifiers": [{"name": "mlknn"}],
    ...     "n_features": [1]}}})
    'experiments.e.splits.cv.k: 1 is less than the minimum of 2'
    """
    import jsonschema

    schema = yaml.safe_load(CONFIG_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config),
                    key=lambda e: [str(p) for p in e.absolute_path])
    if not errors:
        return None
    return _explain(errors[0])


def _place(error: Any) -> str:
    return ".".join(str(p) for p in error.absolute_path) or "top level"


def _explain(error: Any) -> str:
    """``"place: message"`` for one schema error (see :func:`schema_problem`)."""
    path = list(error.absolute_path)
    if (error.validator == "pattern" and len(path) >= 3 and path[-1] == "name"
            and path[-3] in _METHOD_KINDS and isinstance(error.instance, str)):
        try:
            registry.get(_METHOD_KINDS[path[-3]], error.instance)
        except KeyError as exc:
            return f"{_place(error)}: {exc.args[0]}"
    if error.validator != "oneOf" or not error.context:
        return f"{_place(error)}: {error.message}"
    branches = error.validator_value
    instance = error.instance
    consts = [b.get("properties", {}).get("type", {}).get("const") for b in branches]
    if isinstance(instance, dict) and all(consts):
        if instance.get("type") not in consts:
            return (f"{_place(error)}.type: {instance.get('type')!r} is not one of "
                    f"{', '.join(consts)}")
        chosen = consts.index(instance["type"])
        sub = sorted((e for e in error.context if e.relative_schema_path[0] == chosen),
                     key=lambda e: [str(p) for p in e.absolute_path])
        if sub:
            return _explain(sub[0])
    reasons = "; ".join(dict.fromkeys(e.message for e in error.context))
    return f"{_place(error)}: {instance!r} matches no allowed form ({reasons})"


def config_source(workflow: Any) -> str:
    """The config file(s) of a Snakemake run, for messages."""
    files = [str(f) for f in getattr(workflow, "configfiles", []) or []]
    return " + ".join(files) or "the config"


def check_config_file(config: Any, source: str) -> None:
    """The loaded config must be a mapping with content (an empty file is not),
    and no file of ``source`` (:func:`config_source`) may repeat a key in a
    mapping: Snakemake's loader keeps the last one silently, so each file is
    read again strictly (:mod:`mlfsbench.yamlfile`)."""
    if not isinstance(config, dict) or not config:
        raise ValueError(f"{source}: empty config file (no experiments)")
    for path in source.split(" + "):
        if os.path.isfile(path):
            try:
                load_yaml_file(path)
            except yaml.YAMLError as exc:
                raise ValueError(f"{path}: invalid YAML ({exc})") from None
