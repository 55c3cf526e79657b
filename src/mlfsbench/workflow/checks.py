"""Checks of an experiment beyond the schema: registered method names and
their parameters, unique identifiers, datasets, the statistics' control."""

from __future__ import annotations

import os
from typing import Any

import yaml

from mlfsbench.estimators import registry
from mlfsbench.io import BASELINE
from mlfsbench.workflow.grids import dataset_feature_counts
from mlfsbench.workflow.ids import (
    applies_to,
    classifier_input,
    discretization_id,
    entry_params,
    method_id,
)
from mlfsbench.workflow.studies import is_challenger
from mlfsbench.yamlfile import load_yaml_file


def check_experiment(name: str, experiment: dict[str, Any],
                     table: dict[str, Any]) -> None:
    """Check one experiment against the registry and the datasets table.

    ``table`` maps dataset names to :class:`~mlfsbench.data.DatasetSpec`.
    Raises ValueError naming the experiment and the problem.
    """
    where = f"experiment {name!r}"
    claims = experiment.get("claims")
    if claims and os.path.isfile(claims):
        try:
            load_yaml_file(claims)
        except yaml.YAMLError as exc:
            raise ValueError(f"{where}: claims file {claims}: invalid YAML "
                             f"({exc})") from None
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
    for entry in experiment["classifiers"]:
        if classifier_input(entry) != "codes":
            continue
        for sel in experiment["selectors"]:
            if discretization_id(sel.get("discretize")) == "none":
                raise ValueError(
                    f"{where}: classifier {method_id(entry)!r} reads the "
                    f"selectors' codes (input: codes), but selector "
                    f"{method_id(sel)!r} has no discretization")
    extra = set(experiment.get("dataset_n_features") or {})
    extra -= set(experiment["datasets"])
    if extra:
        raise ValueError(f"{where}: dataset_n_features names dataset(s) "
                         f"{', '.join(sorted(extra))} that the experiment does "
                         f"not list")
    try:
        check_methods(experiment)
        for dataset in experiment["datasets"]:
            dataset_feature_counts(experiment, dataset)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    for key, kind in (("selectors", "selector"), ("classifiers", "classifier"),
                      ("transformations", "transformation")):
        for entry in experiment.get(key, []):
            for dataset in experiment["datasets"]:
                if not applies_to(entry, dataset):
                    continue
                problem = check_params(kind, entry["name"],
                                       entry_params(entry, dataset))
                if problem:
                    on = (f" on dataset {dataset!r}"
                          if dataset in (entry.get("dataset_params") or {}) else "")
                    raise ValueError(
                        f"{where}: {key} entry {method_id(entry)!r}{on}: {problem}"
                    )
    check_control(name, experiment)


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def check_params(kind: str, name: str, params: dict[str, Any]) -> str | None:
    """What is wrong with the parameters of one estimator, or ``None``.

    Checked before any job runs: ``n_features_to_select`` is a positive
    integer or ``None`` (``-3`` would otherwise mean "all but 3"), a
    classifier's ``k`` is a positive integer, and an estimator with
    scikit-learn ``_parameter_constraints`` validates its parameters.

    >>> check_params("selector", "mim-br", {"n_features_to_select": -3})
    'n_features_to_select must be a positive integer or null, got -3'
    >>> check_params("classifier", "mlknn", {"k": 0})
    'k must be a positive integer, got 0'
    >>> check_params("classifier", "mlknn", {"k": 10}) is None
    True
    """
    value = params.get("n_features_to_select")
    if "n_features_to_select" in params and value is not None \
            and not _positive_int(value):
        return f"n_features_to_select must be a positive integer or null, got {value!r}"
    if kind == "classifier" and "k" in params and not _positive_int(params["k"]):
        return f"k must be a positive integer, got {params['k']!r}"
    try:
        estimator = registry.create(kind, name, params)
        if hasattr(estimator, "_parameter_constraints"):
            estimator._validate_params()
    except (TypeError, ValueError) as exc:
        return str(exc)
    return None


def check_control(name: str, experiment: dict[str, Any]) -> None:
    """``stats.control`` must be one of the experiment's compared methods.

    The methods are the selector ids (joined with ``|classifier`` when there
    are several classifiers) and ``all-features``, challengers left out (the
    statistics compare the paper's methods); an unknown control used to
    turn Bonferroni-Dunn into Nemenyi silently.
    """
    control = (experiment.get("stats") or {}).get("control")
    if control is None:
        return
    # the statistics compare the paper's methods: challengers stay out
    selectors = [method_id(e) for e in experiment["selectors"]
                 if not is_challenger(e)] + [BASELINE]
    classifiers = [method_id(e) for e in experiment["classifiers"]
                   if not is_challenger(e)]
    if len(classifiers) > 1:
        methods = [f"{s}|{c}" for s in selectors for c in classifiers]
    else:
        methods = selectors
    if control not in methods:
        raise ValueError(
            f"experiment {name!r}: stats.control {control!r} is not one of its "
            f"methods ({', '.join(methods)})"
        )


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
