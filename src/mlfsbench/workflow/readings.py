"""An experiment's readings: the choices its paper leaves open, and the
variants that run one non-favoured option each."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mlfsbench.names import VARIANT_MARK
from mlfsbench.workflow.ids import method_id

# ---------------------------------------------------------------- readings
# An experiment's ``readings`` name the choices its paper leaves open (or
# that the authors' code makes otherwise than the text): each reading has
# options that override parts of the experiment and the option the evidence
# favours. The experiment runs under the favoured options (its own name);
# each other option runs as a variant of its own, one reading changed at a
# time (:func:`expand_readings`). A reading marked ``probe: true`` is a
# robustness probe instead: not a choice the paper leaves open (its favoured
# option is what the paper states) but one that tests how far a verdict
# depends on a setting; it runs the same way, and keeps the flag in the
# readings' spec so that the report counts probes apart.

_OVERRIDE_KINDS = ("selectors", "classifiers", "transformations")


def variant_name(experiment: str, reading: str, option: str) -> str:
    """Name of the variant of ``experiment`` under one non-favoured option.

    >>> variant_name("li2017", "mlknn-scale", "scaled")
    'li2017~mlknn-scale-scaled'
    """
    return f"{experiment}{VARIANT_MARK}{reading}-{option}"


def _entry_names(entries: list[dict[str, Any]]) -> dict[str, int]:
    """The names an override may give an entry, to its position: its id, and
    its registry name when no other entry has it.

    >>> _entry_names([{"name": "mlknn", "params": {"k": 7}}, {"id": "a", "name": "x"},
    ...               {"id": "b", "name": "x"}])
    {'mlknn-b62dc272': 0, 'mlknn': 0, 'a': 1, 'b': 2}
    """
    names = [e["name"] for e in entries]
    out: dict[str, int] = {}
    for i, entry in enumerate(entries):
        out[method_id(entry)] = i
        if names.count(entry["name"]) == 1:
            out.setdefault(entry["name"], i)
    return out


def check_readings(name: str, experiment: dict[str, Any]) -> None:
    """An experiment's readings must favour one of their options, override
    only entries (by id, or registry name when one entry has it) and datasets
    the experiment has, and give ``probe`` (if at all) as true or false;
    raise ValueError.

    >>> x = {"datasets": ["d"], "selectors": [{"name": "mim-br"}],
    ...      "classifiers": [{"id": "c", "name": "mlknn"}], "n_features": [1],
    ...      "readings": {"scale": {"about": "", "favoured": "raw", "options": {
    ...          "scaled": {"classifiers": {"c": {"params": {"scale": True}}}},
    ...          "rough": {"classifiers": {"knn": {"params": {"scale": False}}}}}}}}
    >>> try:
    ...     check_readings("e", x)
    ... except ValueError as exc:
    ...     print(str(exc).split(": ", 1)[1])
    reading 'scale' favours 'raw', which is not one of its options (scaled, rough)
    """
    where = f"experiment {name!r}"
    for reading, spec in (experiment.get("readings") or {}).items():
        if not isinstance(spec.get("probe", False), bool):
            raise ValueError(
                f"{where}: reading {reading!r} has probe {spec['probe']!r}; "
                "probe is true (a robustness probe) or false (a reading)")
        options = spec["options"]
        if spec["favoured"] not in options:
            raise ValueError(
                f"{where}: reading {reading!r} favours {spec['favoured']!r}, which "
                f"is not one of its options ({', '.join(options)})")
        for option, override in options.items():
            at = f"{where}: reading {reading!r}, option {option!r}"
            for key in _OVERRIDE_KINDS:
                known = _entry_names(experiment.get(key) or [])
                for ident in (override.get(key) or {}):
                    if ident not in known:
                        raise ValueError(
                            f"{at}: {key} has no entry {ident!r} (its ids: "
                            f"{', '.join(known) or 'none'})")
            for split in (override.get("splits") or {}):
                if split not in (experiment.get("splits") or {}):
                    raise ValueError(
                        f"{at}: splits has no split {split!r} (the experiment's: "
                        f"{', '.join(experiment.get('splits') or {}) or 'none'})")
            for key in ("dataset_n_features", "datasets"):
                extra = set(override.get(key) or ()) - set(experiment["datasets"])
                if extra:
                    raise ValueError(
                        f"{at}: {key} names dataset(s) {', '.join(sorted(extra))} "
                        "that the experiment does not list")


def apply_option(experiment: dict[str, Any],
                 override: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``experiment`` (without its ``readings``) with one option's
    ``override`` applied: an entry's ``name`` replaced, its ``params`` and
    ``dataset_params`` updated key by key (an entry keeps its id, so its
    results stay under the same name in the tables); a split's ``stratify``
    or ``seed`` replaced (``splits``, by the split's name); ``n_features``
    and ``dataset_n_features`` replaced (the latter per dataset);
    ``datasets`` restricts the run to those of the experiment's datasets.

    >>> x = {"classifiers": [{"id": "c", "name": "mlknn", "params": {"k": 10}}],
    ...      "n_features": [1, 2], "readings": {}}
    >>> y = apply_option(x, {"classifiers": {"c": {"params": {"scale": False}}},
    ...                      "dataset_n_features": {"d": [1]}})
    >>> y["classifiers"]
    [{'id': 'c', 'name': 'mlknn', 'params': {'k': 10, 'scale': False}}]
    >>> y["n_features"], y["dataset_n_features"], "readings" in y
    ([1, 2], {'d': [1]}, False)
    >>> x["splits"] = {"cv": {"type": "kfold", "k": 10}}
    >>> apply_option(x, {"splits": {"cv": {"stratify": False}}})["splits"]
    {'cv': {'type': 'kfold', 'k': 10, 'stratify': False}}
    """
    out = json.loads(json.dumps({k: v for k, v in experiment.items()
                                 if k != "readings"}))
    for key in _OVERRIDE_KINDS:
        entries = out.get(key) or []
        index = _entry_names(entries)
        for ident, change in (override.get(key) or {}).items():
            entry = entries[index[ident]]
            entry["id"] = method_id(entry)
            if "name" in change:
                entry["name"] = change["name"]
            if "params" in change:
                entry["params"] = {**(entry.get("params") or {}), **change["params"]}
            for dataset, params in (change.get("dataset_params") or {}).items():
                given = entry.setdefault("dataset_params", {})
                given[dataset] = {**(given.get(dataset) or {}), **params}
    for split, change in (override.get("splits") or {}).items():
        out["splits"][split] = {**out["splits"][split], **change}
    if "n_features" in override:
        out["n_features"] = list(override["n_features"])
    if override.get("dataset_n_features"):
        out["dataset_n_features"] = {**(out.get("dataset_n_features") or {}),
                                     **override["dataset_n_features"]}
    if override.get("datasets"):  # a subset, in the experiment's order
        keep = [d for d in out["datasets"] if d in override["datasets"]]
        out["datasets"] = keep
        # what names the other datasets goes with them
        for key in _OVERRIDE_KINDS:
            for entry in out.get(key) or []:
                if entry.get("dataset_params"):
                    entry["dataset_params"] = {
                        d: p for d, p in entry["dataset_params"].items() if d in keep}
                if entry.get("datasets"):
                    entry["datasets"] = [d for d in entry["datasets"] if d in keep]
        if out.get("dataset_n_features"):
            out["dataset_n_features"] = {d: g for d, g in
                                         out["dataset_n_features"].items()
                                         if d in keep}
    return out


def expand_readings(experiments: dict[str, dict[str, Any]]
                    ) -> tuple[dict[str, dict[str, Any]],
                               dict[str, list[tuple[str, str, str]]]]:
    """Every experiment to run: each experiment under its readings' favoured
    options (its own name), then, for each reading, one variant per other
    option, the other readings at their favoured options
    (:func:`variant_name`); and, per experiment with readings, its variants
    as ``(variant, reading, option)``.

    One reading changes at a time, so the variants grow with the sum of the
    readings' options, not their product; a claim's verdict under each
    option of each reading is what its robustness is read from
    (:mod:`mlfsbench.report.readings`).

    >>> x = {"n_features": [1], "readings": {
    ...     "grid": {"about": "", "favoured": "paper", "options": {
    ...         "paper": {"n_features": [5]}, "wide": {"n_features": [9]}}}}}
    >>> runs, variants = expand_readings({"e": x})
    >>> {name: r["n_features"] for name, r in runs.items()}, variants
    ({'e': [5], 'e~grid-wide': [9]}, {'e': [('e~grid-wide', 'grid', 'wide')]})
    """
    runs: dict[str, dict[str, Any]] = {}
    variants: dict[str, list[tuple[str, str, str]]] = {}
    for name, experiment in experiments.items():
        readings = experiment.get("readings") or {}
        favoured = {r: spec["favoured"] for r, spec in readings.items()}
        runs[name] = under_options(experiment, favoured)
        if not readings:
            continue
        variants[name] = [(variant_name(name, r, option), r, option)
                          for r, spec in readings.items()
                          for option in spec["options"] if option != spec["favoured"]]
        check_variant_names(name, variants[name], experiments)
        for vname, r, option in variants[name]:
            runs[vname] = under_options(experiment, {**favoured, r: option})
    return runs, variants


def check_variant_names(experiment: str, variants: list[tuple[str, str, str]],
                        experiments: Mapping[str, Any]) -> None:
    """Each of an experiment's ``(variant, reading, option)`` must have a
    name of its own, and no configured experiment that name; raise
    ValueError naming both.

    A variant's name joins its reading and option with ``-``, as both join
    their words, so reading ``a-b`` option ``c`` and reading ``a`` option
    ``b-c`` would both run as ``e~a-b-c``: one run would stand for both, and
    the other be judged on its numbers. The names stay as they are (the
    results folders are named by them); such a pair is refused.

    >>> try:
    ...     check_variant_names("e", [("e~a-b-c", "a-b", "c"),
    ...                               ("e~a-b-c", "a", "b-c")], {})
    ... except ValueError as exc:
    ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
    experiment 'e': reading 'a-b' option 'c' and reading 'a' option 'b-c' would
    both run as the variant 'e~a-b-c'; rename one of the readings or options
    """
    seen: dict[str, tuple[str, str]] = {}
    for vname, reading, option in variants:
        if vname in seen:
            other = seen[vname]
            raise ValueError(
                f"experiment {experiment!r}: reading {other[0]!r} option "
                f"{other[1]!r} and reading {reading!r} option {option!r} would "
                f"both run as the variant {vname!r}; rename one of the readings "
                "or options")
        if vname in experiments:
            raise ValueError(
                f"experiment {experiment!r}: reading {reading!r} option "
                f"{option!r} runs as the variant {vname!r}, which is also the "
                "name of a configured experiment; rename one of them")
        seen[vname] = (reading, option)


def under_options(experiment: dict[str, Any], chosen: dict[str, str]) -> dict[str, Any]:
    """``experiment`` under one option of each of its readings (``chosen``)."""
    out = {k: v for k, v in experiment.items() if k != "readings"}
    for reading, option in chosen.items():
        out = apply_option(out, experiment["readings"][reading]["options"][option])
    return out
