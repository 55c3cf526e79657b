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

Numbers are normalised before hashing (:func:`normalize_params`), so ``s: 1``
and ``s: 1.0`` name the same method:

>>> method_id({"name": "mlknn", "params": {"k": 10, "s": 1.0}})
'mlknn-43d785ff'
>>> method_id({"name": "mlknn", "params": {"s": 1, "k": 10.0}})
'mlknn-43d785ff'
>>> feature_counts([1, "3..5", "10..20:5", "all"])
[1, 3, 4, 5, 10, 15, 20, 'all']
>>> feature_counts(["selected", "all"])
['all', 'selected']
"""

from __future__ import annotations

import hashlib
import json
import numbers
import os
import re
from importlib.resources import files
from typing import Any

import yaml

from mlfsbench.estimators import registry
from mlfsbench.io import BASELINE
from mlfsbench.yamlfile import load_yaml_file

CONFIG_SCHEMA = files("mlfsbench.workflow") / "schemas" / "config.schema.yaml"
"""The JSON schema of an experiment config (package data)."""

_RANGE = re.compile(r"^(\d+)\.\.(\d+)(?::(\d+))?$")


def canonical_json(obj: Any) -> str:
    """Compact JSON with sorted keys (the hashing input)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def short_hash(obj: Any) -> str:
    """Eight hex digits of the sha1 of ``obj``'s canonical JSON: the suffix of
    method, cache and grid identifiers."""
    return hashlib.sha1(canonical_json(obj).encode()).hexdigest()[:8]


def canonical(obj: Any) -> Any:
    """A copy of ``obj`` with every mapping's keys sorted.

    Rule parameters pass through this, so reordering keys in a YAML file does
    not look like a parameter change to Snakemake.

    >>> canonical({"b": 1, "a": {"d": 2, "c": 3}})
    {'a': {'c': 3, 'd': 2}, 'b': 1}
    """
    return json.loads(canonical_json(obj))


def _entry_class(name: str) -> type | None:
    """The registered class of ``name`` (selector, classifier or transformation
    in that order); ``None`` when no kind has it (check_methods reports it)."""
    for kind in ("selector", "classifier", "transformation"):
        if name in registry.names(kind):
            return registry.get(kind, name)
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _int_and_float_differ(cls: type | None, key: str) -> bool:
    """Whether parameter ``key`` of ``cls`` gives an int and a float different
    meanings: its scikit-learn ``_parameter_constraints`` accept both an
    integer interval and a real one (lee2016's ``n_labels``: 1 is one label,
    1.0 every label)."""
    kinds = set()
    for constraint in getattr(cls, "_parameter_constraints", {}).get(key, []):
        kind = getattr(constraint, "type", constraint)
        if not isinstance(kind, type) or kind is bool:
            continue
        if issubclass(kind, numbers.Integral):
            kinds.add("int")
        elif issubclass(kind, numbers.Real):
            kinds.add("float")
    return kinds == {"int", "float"}


def normalize_params(name: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """``params`` of estimator ``name`` with one spelling per number.

    A number whose int and float meanings differ (:func:`_int_and_float_differ`,
    e.g. a count or a fraction) keeps its type. Otherwise a number whose
    parameter defaults to a float becomes a float (``s: 1`` is ``s: 1.0``,
    ML-kNN's default) and any other integral float an int (``k: 10.0`` is
    ``k: 10``). Identifiers and rule parameters see only the normalised
    values, so such an edit neither renames a method nor reruns its jobs.
    The direction follows the defaults so that the identifiers of the shipped
    configs (``mlknn`` with ``s: 1.0``) did not change.

    >>> normalize_params("mlknn", {"k": 10.0, "s": 1})
    {'k': 10, 's': 1.0}
    >>> normalize_params("lee2016", {"n_labels": 1.0})
    {'n_labels': 1.0}
    """
    if not params:
        return dict(params or {})
    cls = _entry_class(name)
    defaults = registry.parameters(cls) if cls is not None else {}
    out = {}
    for key, value in params.items():
        if not _is_number(value) or _int_and_float_differ(cls, key):
            out[key] = value
        elif isinstance(value, float) and not value.is_integer():
            out[key] = value
        elif isinstance(defaults.get(key), float):
            out[key] = float(value)
        elif isinstance(value, float) and value.is_integer():
            out[key] = int(value)
        else:
            out[key] = value
    return out


def _normalized_key(entry: dict[str, Any]) -> dict[str, Any]:
    """The hashed part of an entry, numbers normalised."""
    name = entry["name"]
    key = {}
    if entry.get("params"):
        key["params"] = normalize_params(name, entry["params"])
    if entry.get("dataset_params"):
        key["dataset_params"] = {d: normalize_params(name, p)
                                 for d, p in entry["dataset_params"].items()}
    if entry.get("discretize"):
        key["discretize"] = entry["discretize"]
    return key


def method_id(entry: dict[str, Any]) -> str:
    """Identifier of a configured selector or classifier entry."""
    if entry.get("id"):
        return str(entry["id"])
    key = _normalized_key(entry)
    if classifier_input(entry) != "raw":
        key["input"] = classifier_input(entry)
    if not key:
        return entry["name"]
    return f"{entry['name']}-{short_hash(key)}"


def method_names(entries: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Every name of each configured entry, by identifier: the one function
    that names methods.

    First the readable label (figures, tables): the entry's ``label``, else
    its own ``id`` (the key of the result tables), else its registry name;
    when several entries share a registry name and have neither, the name
    numbered in config order, never a hash. Then the other names a claims
    file may use: the registry name (when only one entry has it), the
    ``label`` and the identifier.

    >>> method_names([{"name": "mim-br", "params": {"a": 1}},
    ...               {"id": "g1", "name": "gm"},
    ...               {"name": "gm", "params": {"b": 2}},
    ...               {"name": "pmu", "label": "PMU"}],
    ...              )  # doctest: +NORMALIZE_WHITESPACE
    {'mim-br-58fdaf8c': ['mim-br', 'mim-br-58fdaf8c'], 'g1': ['g1'],
     'gm-95b2f6f1': ['gm #2', 'gm-95b2f6f1'], 'pmu': ['PMU', 'pmu']}
    """
    names = [e["name"] for e in entries]
    out: dict[str, list[str]] = {}
    seen: dict[str, int] = {}
    for e in entries:
        name, ident = e["name"], method_id(e)
        seen[name] = seen.get(name, 0) + 1
        unique = names.count(name) == 1
        if e.get("label"):
            label = str(e["label"])
        elif e.get("id"):  # the tables' key: figures and tables agree
            label = str(e["id"])
        elif unique:
            label = name
        else:
            label = f"{name} #{seen[name]}"
        aliases = [name] if unique else []
        aliases += [str(e["label"])] if e.get("label") else []
        out[ident] = list(dict.fromkeys([label, *aliases, ident]))
    return out


def method_labels(entries: list[dict[str, Any]]) -> dict[str, str]:
    """Readable name of each configured entry, by identifier (for figures):
    the first of its :func:`method_names`.

    >>> method_labels([{"name": "mim-br", "params": {"a": 1}},
    ...                {"id": "g1", "name": "gm"}, {"id": "g2", "name": "gm"},
    ...                {"name": "pmu", "label": "PMU"}])
    {'mim-br-58fdaf8c': 'mim-br', 'g1': 'g1', 'g2': 'g2', 'pmu': 'PMU'}
    """
    return {ident: names[0] for ident, names in method_names(entries).items()}


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


# ----------------------------------------------------------- challenge mode
# An experiment may say ``extends: <study>`` and list only what it adds (its
# selectors and classifiers, the challengers, and optionally a subset of the
# study's datasets): it runs the study's protocol, discretization, classifier,
# grid, statistics and claims with the challengers beside the paper's methods.

#: Joins a study and its challenger in a challenge experiment's name:
#: ``lee2016+variance-rank``.
CHALLENGE_MARK = "+"
#: What an experiment that extends a study may set itself.
EXTENDS_KEYS = ("extends", "description", "selectors", "classifiers", "datasets")
#: Where a study is looked for when the config names no ``study_files``.
DEFAULT_STUDY_FILES = ("config/config.yaml",)


def challenge_name(study: str, ident: str) -> str:
    """Name of the experiment that challenges ``study`` with method ``ident``:
    its results go to ``results/<study>+<ident>/``, not over the study's.

    >>> challenge_name("lee2016", "variance-rank")
    'lee2016+variance-rank'
    """
    return f"{study}{CHALLENGE_MARK}{ident}"


def is_challenger(entry: dict[str, Any]) -> bool:
    """Whether a selector or classifier entry is flagged ``challenger: true``."""
    return bool(entry.get("challenger"))


def challenger_ids(experiment: dict[str, Any]) -> list[str]:
    """The method ids of an experiment's challengers, selectors then
    classifiers, as the tables' selector/classifier columns name them.

    >>> challenger_ids({"selectors": [{"name": "mim-br"},
    ...                               {"name": "fimf", "challenger": True}],
    ...                 "classifiers": [{"id": "c", "name": "mlknn"}]})
    ['fimf']
    """
    return [method_id(e) for key in ("selectors", "classifiers")
            for e in experiment.get(key) or [] if is_challenger(e)]


def _file_experiments(path: str) -> dict[str, Any]:
    """The experiments of a config or experiment file, with those of the
    experiment files it lists (not resolved: raw, as written)."""
    try:
        data = load_yaml_file(path) or {}
    except OSError:
        return {}
    except yaml.YAMLError as exc:
        raise ValueError(f"study file {path}: invalid YAML ({exc})") from None
    if not isinstance(data, dict):
        return {}
    out = dict(data.get("experiments") or {})
    for sub in data.get("experiment_files") or []:
        for name, x in _file_experiments(sub).items():
            out.setdefault(name, x)
    return out


def find_study(name: str, config: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The experiment ``name`` that an ``extends:`` names, and where it was
    found: an experiment of the config itself that extends nothing, else one
    of the config's ``study_files`` (default :data:`DEFAULT_STUDY_FILES`, with
    their experiment files), else ``config/papers/<name>.yaml`` or
    ``config/<name>.yaml``; a copy. Raises ValueError listing what is known."""
    own = config.get("experiments") or {}
    if isinstance(own.get(name), dict) and "extends" not in own[name]:
        return json.loads(json.dumps(own[name])), "the config"
    files = list(config.get("study_files") or DEFAULT_STUDY_FILES)
    files += [f"config/papers/{name}.yaml", f"config/{name}.yaml"]
    known: list[str] = [n for n, x in own.items()
                        if isinstance(x, dict) and "extends" not in x]
    for path in files:
        experiments = _file_experiments(path)
        if isinstance(experiments.get(name), dict):
            return json.loads(json.dumps(experiments[name])), path
        known += list(experiments)
    known = list(dict.fromkeys(known))
    raise ValueError(f"no study {name!r} to extend (known: "
                     f"{', '.join(known) or 'none'}; searched the config and "
                     f"{', '.join(files)})")


def extend_study(name: str, study_name: str, study: dict[str, Any],
                 addition: dict[str, Any]) -> dict[str, Any]:
    """Experiment ``name``: ``study`` under its favoured readings (no
    variants), its datasets cut to ``addition["datasets"]`` if given, with
    ``addition``'s selectors and classifiers appended and flagged
    ``challenger``. A challenger selector without a ``discretize`` takes the
    study's when all the study's selectors share one (so that a classifier
    reading their codes reads the challenger's the same way), and keeps the
    id it has as written (``id``: the tables name it so).

    >>> study = {"datasets": ["a", "b"], "selectors": [
    ...     {"id": "s", "name": "mim-br", "discretize": {"strategy": "equal-width",
    ...                                              "bins": 2}}],
    ...     "classifiers": [{"name": "mlknn"}], "n_features": [1]}
    >>> x = extend_study("st+v", "st", study, {"extends": "st", "datasets": ["b"],
    ...                  "selectors": [{"name": "fimf"}]})
    >>> x["datasets"], x["extends"]
    (['b'], 'st')
    >>> x["selectors"][1]  # doctest: +NORMALIZE_WHITESPACE
    {'id': 'fimf', 'name': 'fimf', 'challenger': True,
     'discretize': {'bins': 2, 'strategy': 'equal-width'}}
    """
    where = f"experiment {name!r} (extends {study_name!r})"
    extra = sorted(set(addition) - set(EXTENDS_KEYS))
    if extra:
        raise ValueError(
            f"{where}: sets {', '.join(extra)}; an experiment that extends a "
            f"study adds only {', '.join(EXTENDS_KEYS[1:])} (the rest is the "
            f"study's)")
    if not (addition.get("selectors") or addition.get("classifiers")):
        raise ValueError(f"{where}: adds no selector or classifier")
    favoured = {r: spec["favoured"]
                for r, spec in (study.get("readings") or {}).items()}
    out = _under(json.loads(json.dumps(study)), favoured) if favoured else \
        {k: v for k, v in json.loads(json.dumps(study)).items() if k != "readings"}
    subset = addition.get("datasets")
    if subset:
        unknown = [d for d in subset if d not in out["datasets"]]
        if unknown:
            raise ValueError(
                f"{where}: dataset(s) {', '.join(unknown)} are not the study's "
                f"(its datasets: {', '.join(out['datasets'])})")
        out = apply_option(out, {"datasets": list(subset)})
    discs = [canonical(s.get("discretize")) for s in out.get("selectors") or []]
    shared = discs[0] if discs and all(d == discs[0] for d in discs) else None
    for key in ("selectors", "classifiers"):
        for entry in addition.get(key) or []:
            entry = {**entry, "challenger": True}
            if key == "selectors" and shared and "discretize" not in entry:
                # named as written (the discretization is the study's)
                entry = {"id": method_id(entry), **entry, "discretize": shared}
            out.setdefault(key, []).append(entry)
    added = [method_id(e) for key in ("selectors", "classifiers")
             for e in addition.get(key) or []]
    out["description"] = addition.get("description") or " ".join(
        [out.get("description") or study_name, f"Challenged by {', '.join(added)}."])
    out["extends"] = study_name
    return out


#: Top-level settings a challenge config takes from the config of its studies
#: (the data and its preparation: the studies' cached jobs are then the same).
SHARED_SETTINGS = ("datasets_table", "mirror", "prepare", "fold_batch",
                   "keep_predictions")


def study_names(configfile: str) -> tuple[list[str], list[str]]:
    """The experiments of a config file (through its experiment files), and
    its *studies*: those named like the file that defines them
    (``config/papers/lee2016.yaml``'s ``lee2016``, ``config/tiny.yaml``'s
    ``tiny``), or every experiment when none is."""
    data = load_yaml_file(configfile) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{configfile}: not a config (no mapping)")
    names, studies = [], []
    sources = [(configfile, data.get("experiments") or {})]
    for path in data.get("experiment_files") or []:
        sources.append((path, _file_experiments(path)))
    for path, experiments in sources:
        stem = os.path.basename(path).split(".")[0]
        for name in experiments:
            names.append(name)
            if name == stem:
                studies.append(name)
    return names, studies or names


def challenge_config(configfile: str, studies: list[str] | None,
                     selectors: list[dict[str, Any]],
                     classifiers: list[dict[str, Any]],
                     datasets: list[str] | None = None
                     ) -> tuple[dict[str, Any], list[str]]:
    """The config that challenges ``studies`` of ``configfile`` (default its
    studies, :func:`study_names`) with ``selectors`` and ``classifiers``: one
    experiment per study, :func:`challenge_name` of the study and the first
    challenger's id, that ``extends`` the study (its datasets cut to
    ``datasets`` where given), and the file's data settings
    (:data:`SHARED_SETTINGS`). Also returns a note per study left out
    (no dataset of ``datasets``)."""
    if not selectors and not classifiers:
        raise ValueError("name a selector or a classifier to challenge the studies")
    data = load_yaml_file(configfile) or {}
    names, default = study_names(configfile)
    base = {"study_files": [configfile]}
    found = {}
    for name in studies or default:
        try:
            found[name], _ = find_study(name, base)
        except ValueError:
            raise ValueError(
                f"no study {name!r} in {configfile} (its experiments: "
                f"{', '.join(names) or 'none'})") from None
    ident = method_id((selectors or classifiers)[0])
    config: dict[str, Any] = {k: data[k] for k in SHARED_SETTINGS if k in data}
    config["study_files"] = [configfile]
    experiments: dict[str, Any] = {}
    notes = []
    for name, study in found.items():
        x: dict[str, Any] = {"extends": name}
        if datasets:
            keep = [d for d in study.get("datasets", []) if d in datasets]
            if not keep:
                notes.append(f"{name}: none of {', '.join(datasets)} among its "
                             f"datasets ({', '.join(study.get('datasets', []))})")
                continue
            x["datasets"] = keep
        if selectors:
            x["selectors"] = [dict(e) for e in selectors]
        if classifiers:
            x["classifiers"] = [dict(e) for e in classifiers]
        experiments[challenge_name(name, ident)] = x
    if not experiments:
        raise ValueError("no study to challenge: " + "; ".join(notes))
    config["experiments"] = experiments
    return config, notes


def resolve_extends(config: dict[str, Any]) -> dict[str, Any]:
    """Replace every experiment that ``extends`` a study by the study with
    its additions (:func:`extend_study`); in place, returns ``config``."""
    experiments = config.get("experiments") or {}
    for name, x in list(experiments.items()):
        if not isinstance(x, dict) or "extends" not in x:
            continue
        study_name = x["extends"]
        if not isinstance(study_name, str):
            raise ValueError(f"experiment {name!r}: extends must name a study, "
                             f"got {study_name!r}")
        study, _ = find_study(study_name, config)
        experiments[name] = extend_study(name, study_name, study, x)
    return config


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


_METHOD_KINDS = {"selectors": "selector", "classifiers": "classifier",
                 "transformations": "transformation"}


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


def prepared_feature_counts(experiment: dict[str, Any],
                            root: str = "data/prepared") -> dict[str, int]:
    """Feature counts of the experiment's datasets already prepared under
    ``root`` (from their ``.stats.json``); others are unknown yet."""
    out = {}
    for dataset in experiment["datasets"]:
        try:
            with open(f"{root}/{dataset}.stats.json", encoding="utf-8") as fh:
                out[dataset] = int(json.load(fh)["features"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


def check_grid_fits(name: str, experiment: dict[str, Any],
                    n_features: dict[str, int]) -> None:
    """Every dataset of the experiment has a grid point that fits it.

    ``n_features`` maps the datasets whose feature count is known (a prepared
    dataset's statistics) to that count; a grid of integers only, all above
    it, would fail at classify time.
    """
    for dataset in experiment["datasets"]:
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


def entry_params(entry: dict[str, Any], dataset: str) -> dict[str, Any]:
    """Parameters of an entry on one dataset: ``params`` updated by
    ``dataset_params[dataset]`` (e.g. a label count chosen per dataset).

    Numbers are normalised (:func:`normalize_params`).

    >>> entry_params({"name": "mlknn", "params": {"k": 10, "s": 1},
    ...               "dataset_params": {"d": {"k": 7}}}, "d")
    {'k': 7, 's': 1.0}
    """
    params = dict(entry.get("params") or {})
    params.update((entry.get("dataset_params") or {}).get(dataset) or {})
    return normalize_params(entry["name"], params) if "name" in entry else params


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


# ------------------------------------------------------------- cache keys
# Outputs from the split on are shared by all experiments: they are keyed by
# what they are (a split protocol, a method's content), not by the experiment
# or the name an experiment gives them.
def split_id(spec: dict[str, Any]) -> str:
    """Identifier of a split protocol (its type, sizes, seed, stratification).

    Defaults are those of :func:`mlfsbench.data.split.make_splits` (seed 0,
    stratified), so ``{type: kfold, k: 2}`` and ``{type: kfold, k: 2, seed: 0}``
    are the same split. The number of hold-out repeats is not part of it:
    repeat ``i`` does not depend on how many there are
    (:func:`mlfsbench.data.split.holdout_splits`), so 10 and 30 repeats share
    their first 10 folds, and the fold batch says which repeats a job covers.

    >>> split_id({"type": "kfold", "k": 2})
    'kfold-k2-seed0'
    >>> split_id({"type": "holdout", "test_size": 0.5, "repeats": 30, "seed": 3,
    ...           "stratify": False})
    'holdout-t0.5-seed3-unstratified'
    >>> split_id({"type": "given"})
    'given'
    """
    kind = spec["type"]
    if kind == "given":
        return "given"
    if kind == "kfold":
        out = f"kfold-k{int(spec['k'])}"
    elif kind == "holdout":
        out = f"holdout-t{float(spec['test_size'])!r}"
    else:
        raise ValueError(f"unknown split type {kind!r}")
    out += f"-seed{int(spec.get('seed', 0))}"
    if not spec.get("stratify", True):
        out += "-unstratified"
    return out


def protocol(spec: dict[str, Any]) -> dict[str, Any]:
    """The split protocol of a spec, defaults filled in and without hold-out
    repeats (see :func:`split_id`): what the split job computes from.

    >>> protocol({"type": "holdout", "test_size": 0.5, "repeats": 3})
    {'seed': 0, 'stratify': True, 'test_size': 0.5, 'type': 'holdout'}
    """
    if spec["type"] == "given":
        return {"type": "given"}
    out = {"seed": 0, "stratify": True, **spec}
    out.pop("repeats", None)
    return canonical(out)


def classifier_input(entry: dict[str, Any]) -> str:
    """What a classifier entry reads: ``raw`` features or the selector's
    discretization ``codes``."""
    return entry.get("input") or "raw"


def cache_id(entry: dict[str, Any], dataset: str, kind: str) -> str:
    """Content identifier of a configured method on one dataset.

    The registry name plus a hash of its parameters on that dataset, and of
    its discretization (selectors) or input (classifiers reading codes). An
    explicit ``id:`` names the method in the experiment's tables only, so
    two experiments (or two names) of the same method share its results.

    >>> cache_id({"name": "mlknn"}, "d", "classifier")
    'mlknn'
    >>> a = cache_id({"name": "mlknn", "params": {"k": 5}}, "d", "classifier")
    >>> b = cache_id({"name": "mlknn", "id": "x", "dataset_params": {"d": {"k": 5}}},
    ...              "d", "classifier")
    >>> a == b != cache_id({"name": "mlknn", "params": {"k": 5}, "input": "codes"},
    ...                    "d", "classifier")
    True
    """
    key: dict[str, Any] = {}
    params = normalize_params(entry["name"], entry_params(entry, dataset))
    if params:
        key["params"] = params
    if kind == "selector":
        key["discretize"] = discretization_id(entry.get("discretize"))
    if kind == "classifier" and classifier_input(entry) != "raw":
        key["input"] = classifier_input(entry)
    if not key:
        return entry["name"]
    return f"{entry['name']}-{short_hash(key)}"


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

#: Separates an experiment's name from a variant's reading and option:
#: ``li2017~mlknn-scale-scaled``.
VARIANT_MARK = "~"
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
    results stay under the same name in the tables); ``n_features`` and
    ``dataset_n_features`` replaced (the latter per dataset); ``datasets``
    restricts the run to those of the experiment's datasets.

    >>> x = {"classifiers": [{"id": "c", "name": "mlknn", "params": {"k": 10}}],
    ...      "n_features": [1, 2], "readings": {}}
    >>> y = apply_option(x, {"classifiers": {"c": {"params": {"scale": False}}},
    ...                      "dataset_n_features": {"d": [1]}})
    >>> y["classifiers"]
    [{'id': 'c', 'name': 'mlknn', 'params': {'k': 10, 'scale': False}}]
    >>> y["n_features"], y["dataset_n_features"], "readings" in y
    ([1, 2], {'d': [1]}, False)
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
        runs[name] = _under(experiment, favoured)
        if not readings:
            continue
        variants[name] = []
        for r, spec in readings.items():
            for option in spec["options"]:
                if option == spec["favoured"]:
                    continue
                vname = variant_name(name, r, option)
                runs[vname] = _under(experiment, {**favoured, r: option})
                variants[name].append((vname, r, option))
    return runs, variants


def _under(experiment: dict[str, Any], chosen: dict[str, str]) -> dict[str, Any]:
    """``experiment`` under one option of each of its readings (``chosen``)."""
    out = {k: v for k, v in experiment.items() if k != "readings"}
    for reading, option in chosen.items():
        out = apply_option(out, experiment["readings"][reading]["options"][option])
    return out


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


def content_digest(paths: list[str]) -> dict[str, str]:
    """The sha256 of each file, by path: the rule parameter of inputs that no
    rule makes (a claims or printed-tables file). The workflow reruns on
    parameters, inputs and software, not on file times (docs/cache.md), so
    an edit of such a file reruns its readers through this parameter."""
    out = {}
    for path in paths:
        try:
            with open(path, "rb") as fh:
                out[str(path)] = hashlib.sha256(fh.read()).hexdigest()
        except OSError:  # Snakemake names the missing input
            out[str(path)] = "missing"
    return out


def printed_path(claims_path: str | os.PathLike) -> str | None:
    """The study's printed tables beside its claims file
    (``<study>.claims.yaml`` -> ``<study>.printed.yaml``), or None."""
    path = os.fspath(claims_path)
    if not path.endswith(".claims.yaml"):
        return None
    sibling = path[: -len(".claims.yaml")] + ".printed.yaml"
    return sibling if os.path.exists(sibling) else None
