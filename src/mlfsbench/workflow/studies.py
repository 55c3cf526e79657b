"""Studies and their challengers: experiments that ``extends`` a study, the
challenge configs of ``mlfsbench challenge``, and a study's files."""

from __future__ import annotations

import json
import os
from typing import Any

import yaml

from mlfsbench.estimators import registry
from mlfsbench.names import CHALLENGE_MARK
from mlfsbench.workflow.ids import canonical, discretization_id, input_kind, method_id
from mlfsbench.workflow.readings import apply_option, under_options
from mlfsbench.yamlfile import load_yaml_file

# ----------------------------------------------------------- challenge mode
# An experiment may say ``extends: <study>`` and list only what it adds (its
# selectors and classifiers, the challengers, and optionally a subset of the
# study's datasets): it runs the study's protocol, discretization, classifier,
# grid, statistics and claims with the challengers beside the paper's methods.

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
    out = favoured(study)
    subset = addition.get("datasets")
    if subset:
        unknown = [d for d in subset if d not in out["datasets"]]
        if unknown:
            raise ValueError(
                f"{where}: dataset(s) {', '.join(unknown)} are not the study's "
                f"(its datasets: {', '.join(out['datasets'])})")
        out = apply_option(out, {"datasets": list(subset)})
    shared = shared_discretization(out)
    # the names the tables give the study's methods: their ids and labels
    own = {key: {n: e for e in out.get(key) or []
                 for n in (method_id(e), e.get("label") or e.get("id") or e["name"])}
           for key in ("selectors", "classifiers")}
    for key in ("selectors", "classifiers"):
        for entry in addition.get(key) or []:
            entry = {**entry, "challenger": True}
            if key == "selectors" and shared and "discretize" not in entry:
                # named as written (the discretization is the study's)
                entry = {"id": method_id(entry), **entry, "discretize": shared}
                check_input_kind(entry, where)
            for ident in dict.fromkeys(
                    [method_id(entry), entry.get("id"), entry.get("label")]):
                same = own[key].get(ident) if ident else None
                if same is not None and _method(same) != _method(entry):
                    # the tables would show two methods under one name
                    raise ValueError(
                        f"{where}: its {key[:-1]} {ident!r} ({entry.get('name')}) "
                        f"takes the name of the study's {key[:-1]} {ident!r} "
                        f"({same.get('name')}), another method; give it another "
                        f"id")
            out.setdefault(key, []).append(entry)
    added = [method_id(e) for key in ("selectors", "classifiers")
             for e in addition.get(key) or []]
    out["description"] = addition.get("description") or " ".join(
        [out.get("description") or study_name, f"Challenged by {', '.join(added)}."])
    out["extends"] = study_name
    return out


def favoured(study: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``study`` under its favoured readings, without readings."""
    chosen = {r: spec["favoured"] for r, spec in (study.get("readings") or {}).items()}
    copied = json.loads(json.dumps(study))
    if chosen:
        return under_options(copied, chosen)
    return {k: v for k, v in copied.items() if k != "readings"}


def shared_discretization(experiment: dict[str, Any]) -> dict[str, Any] | None:
    """The ``discretize`` entry all of an experiment's selectors share (as
    written; ``None`` when they differ or give none).

    >>> shared_discretization({"selectors": [
    ...     {"name": "a", "discretize": {"strategy": "none"}},
    ...     {"name": "b", "discretize": {"strategy": "none"}}]})
    {'strategy': 'none'}
    """
    discs = [canonical(s.get("discretize")) for s in experiment.get("selectors") or []]
    return discs[0] if discs and all(d == discs[0] for d in discs) else None


def reads_raw(experiment: dict[str, Any]) -> bool:
    """Whether every selector of an experiment reads the raw features (their
    shared discretization is ``strategy: none``)."""
    shared = shared_discretization(experiment)
    return shared is not None and discretization_id(shared) == "none"


def reads_codes(entry: dict[str, Any]) -> bool:
    """Whether a selector entry reads discretized codes (its ``input_kind``
    is ``"discrete"``); False for a name or parameters the method checks
    refuse (they say why)."""
    try:
        return input_kind(entry) == "discrete"
    except (KeyError, TypeError, ValueError):
        return False


def check_input_kind(entry: dict[str, Any], where: str) -> None:
    """A challenger selector that reads discretized codes must not take a
    study's "no discretization" (its selectors read the raw features): it
    would fail at its first select job ("X must hold integer codes"). A
    ValueError says so before anything runs, with the ways out.

    >>> check_input_kind({"name": "mim-br", "discretize": {"strategy": "none"}},
    ...                  "experiment 's+m'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: experiment 's+m': selector 'mim-br' reads discretized codes ...
    """
    if discretization_id(entry.get("discretize")) == "none" and reads_codes(entry):
        raise ValueError(
            f"{where}: selector {entry['name']!r} reads discretized codes (its "
            f"input_kind is 'discrete'), but the study's selectors read the raw "
            f"features (discretize: {{strategy: none}}), so it would get raw "
            f"features; give it a discretization (mlfsbench challenge "
            f"--discretize equal-width --bins 5, or discretize: in its entry), "
            f"or make it read the raw features (input_kind = 'continuous')")


def own_subset(entry: dict[str, Any]) -> bool | None:
    """Whether a selector entry's support (the grid point ``"selected"``) is
    a subset it chooses: a size (``n_features_to_select``) or a threshold
    set, or support logic of its own (``None``: not known, trusted); False
    when it is every feature (a :class:`BaseMultiLabelSelector` with neither).

    >>> own_subset({"name": "mim-br"}), own_subset(
    ...     {"name": "mim-br", "params": {"n_features_to_select": 5}})
    (False, True)
    >>> own_subset({"name": "ig-br", "params": {"threshold": 0.01}})
    True
    """
    from mlfsbench.estimators.selectors import BaseMultiLabelSelector

    try:
        selector = registry.create("selector", entry["name"], entry.get("params"))
    except (KeyError, TypeError, ValueError):  # named by the method checks
        return None
    if getattr(selector, "n_features_to_select", None) is not None:
        return True
    if "threshold" in registry.parameters(type(selector)):
        return getattr(selector, "threshold", None) is not None
    if isinstance(selector, BaseMultiLabelSelector) and type(selector).\
            _get_support_mask is BaseMultiLabelSelector._get_support_mask:
        return False
    return None


def compares_selected(experiment: dict[str, Any]) -> bool:
    """Whether an experiment's grid has the point ``"selected"`` (each
    method's own subset, e.g. Spolaor et al. 2013's threshold) on some
    dataset."""
    grids = [experiment.get("n_features") or []]
    grids += list((experiment.get("dataset_n_features") or {}).values())
    return any("selected" in grid for grid in grids)


def _method(entry: dict[str, Any]) -> Any:
    """What a selector or classifier entry computes: the entry without its
    id and challenger flag, no parameters the same as empty ones."""
    out = {k: v for k, v in entry.items() if k not in ("id", "challenger")}
    if not out.get("params"):
        out.pop("params", None)
    return canonical(out)


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
                     datasets: list[str] | None = None,
                     discretize: dict[str, Any] | None = None,
                     ) -> tuple[dict[str, Any], list[str]]:
    """The config that challenges ``studies`` of ``configfile`` (default its
    studies, :func:`study_names`) with ``selectors`` and ``classifiers``: one
    experiment per study, :func:`challenge_name` of the study and the first
    challenger's id, that ``extends`` the study (its datasets cut to
    ``datasets`` where given, its selectors fitted to it by
    :func:`fit_challengers`, with ``discretize``), and the file's data
    settings (:data:`SHARED_SETTINGS`). Also returns a note per study left
    out: none of ``datasets`` among its own, or what stops the challengers
    (:func:`fit_challengers`) when ``studies`` are not named (when they are,
    that is an error)."""
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
    if datasets:
        check_datasets(datasets, found)
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
            x["selectors"], problem = fit_challengers(name, study, selectors,
                                                      discretize)
            if problem and studies:
                raise ValueError(problem)
            if problem:
                notes.append(problem)
                continue
        if classifiers:
            x["classifiers"] = [dict(e) for e in classifiers]
        experiment = challenge_name(name, ident)
        if experiment in names:
            # its results would go to the same results/<experiment>/
            raise ValueError(
                f"the challenge of {name!r} by {ident!r} would be experiment "
                f"{experiment!r}, which {configfile} already has (experiment "
                f"{experiment!r}); give the challenger another id (--id)")
        experiments[experiment] = x
    if not experiments:
        raise ValueError("no study to challenge: " + "; ".join(notes))
    config["experiments"] = experiments
    return config, notes


def fit_challengers(name: str, study: dict[str, Any],
                    selectors: list[dict[str, Any]],
                    discretize: dict[str, Any] | None = None,
                    ) -> tuple[list[dict[str, Any]], str | None]:
    """The challenger selector entries for ``study`` (its favoured
    readings), and what stops them from challenging it, or ``None``:

    - a selector that reads discretized codes (:func:`reads_codes`) against a
      study whose selectors read the raw features (:func:`reads_raw`) gets
      ``discretize`` (named as written: the ``id`` it has without it); with
      no ``discretize``, that is the problem;
    - a study that compares each method's own subset (grid point
      ``"selected"``, :func:`compares_selected`) against a selector whose
      subset is every feature (:func:`own_subset`): its numbers there would
      be those of all features.
    """
    entries = [dict(e) for e in selectors]
    problems = []
    study = favoured(study)
    coded = [e for e in entries if "discretize" not in e and reads_codes(e)]
    if coded and reads_raw(study):
        if discretize:
            entries = [{"id": method_id(e), **e, "discretize": dict(discretize)}
                       if e in coded else e for e in entries]
        else:
            problems.append(
                f"{', '.join(repr(method_id(e)) for e in coded)} reads "
                f"discretized codes, but the study's selectors read the raw "
                f"features (discretize: {{strategy: none}}); give it a "
                f"discretization (--discretize equal-width --bins 5)")
    whole = [method_id(e) for e in entries if own_subset(e) is False]
    if whole and compares_selected(study):
        problems.append(
            f"the study compares the features each method selects itself (grid "
            f"point 'selected', e.g. by a threshold), but "
            f"{', '.join(map(repr, whole))} has no threshold or size, so its "
            f"'selected' would be every feature (the numbers of all features); "
            f"give it one (--param n_features_to_select=K, or a threshold "
            f"parameter of its own)")
    return entries, f"{name}: {'; '.join(problems)}" if problems else None


def check_datasets(datasets: list[str], studies: dict[str, Any]) -> None:
    """Each of ``datasets`` must be a dataset of one of ``studies`` (name ->
    experiment); else a ValueError names the unknown ones (with the names
    they resemble) and the studies' datasets.

    >>> check_datasets(["yeast", "genbsae"], {"s": {"datasets": ["yeast",
    ...                                                          "genbase"]}})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: dataset 'genbsae' (did you mean 'genbase'?) is not a dataset ...
    """
    from mlfsbench.estimators.registry import similar_names

    known = sorted({d for x in studies.values() for d in x.get("datasets") or []})
    unknown = [d for d in dict.fromkeys(datasets) if d not in known]
    if not unknown:
        return
    named = []
    for d in unknown:
        close = similar_names(d, known)
        hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
        named.append(f"{d!r}{hint}")
    raise ValueError(
        f"dataset{'s' if len(unknown) > 1 else ''} {', '.join(named)} "
        f"{'are' if len(unknown) > 1 else 'is'} not a dataset of the studies "
        f"challenged ({', '.join(studies)}); their datasets: "
        f"{', '.join(known) or 'none'}")


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


def printed_path(claims_path: str | os.PathLike) -> str | None:
    """The study's printed tables beside its claims file
    (``<study>.claims.yaml`` -> ``<study>.printed.yaml``), or None."""
    path = os.fspath(claims_path)
    if not path.endswith(".claims.yaml"):
        return None
    sibling = path[: -len(".claims.yaml")] + ".printed.yaml"
    return sibling if os.path.exists(sibling) else None
