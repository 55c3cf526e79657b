"""The league (issue 40): every registered selector under each study's
protocol, sharing the jobs the studies run.

A config's ``league:`` (``config/league.yaml``) names studies, the league's
*protocols*. Reading the config (:func:`expand_league`) adds one experiment
per protocol, :func:`league_experiment_name` (``league-lee2016``): the study
under its favoured readings (its datasets, splits, classifier, feature grid
and statistics options; no claims, no variants) with

- the study's own selectors as configured: the same entries, so the same
  cache ids and the same jobs as the study's (the cache is keyed by content,
  :mod:`~mlfsbench.workflow.ids`); the first entry of each registry name
  stands for that method in the comparisons across protocols (its label is
  the registry name), a further entry of the same name (Li 2017's four
  granule settings) is that protocol's alone, under its own id;
- every other registered selector (``only`` restricts them, ``skip`` leaves
  methods out with a reason), named by its registry name and fitted to the
  protocol (:func:`fit_to_protocol`);
- the league's ``challengers`` (``mlfsbench league --selector``), flagged
  ``challenger: true``, fitted the same way where they give no value of
  their own.

A method that cannot run under a protocol is left out of it with the reason
(:func:`protocol_problem`), which the league page states; so is a method
``skip`` names. Each league experiment records what the league page needs
under its own ``league`` key (:func:`league_spec` reads them back).
:func:`new_jobs` counts a plan's jobs that another plan (the default
reproduction) does not have: what the league costs beyond the studies.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mlfsbench.estimators import registry
from mlfsbench.workflow.grids import dataset_feature_counts
from mlfsbench.workflow.ids import (
    canonical,
    classifier_input,
    discretization_id,
    method_id,
    method_labels,
)
from mlfsbench.workflow.readings import apply_option
from mlfsbench.workflow.studies import (
    DEFAULT_STUDY_FILES,
    compares_selected,
    favoured,
    find_study,
    own_subset,
    reads_codes,
    reads_raw,
    shared_discretization,
)

#: The league's name when the config gives none: its page is
#: ``results/<name>/league.html``, its experiments ``<name>-<protocol>``.
DEFAULT_NAME = "league"
#: Codes of a selector that reads them, under a protocol whose selectors read
#: the raw features (the discretize stage's default).
DEFAULT_DISCRETIZE = {"strategy": "equal-width", "bins": 5}
#: What each league experiment records under its ``league`` key.
SPEC_KEYS = ("name", "protocol", "study", "skipped")


def league_experiment_name(league: str, protocol: str) -> str:
    """The experiment of ``protocol`` in league ``league``.

    >>> league_experiment_name("league", "lee2016")
    'league-lee2016'
    """
    return f"{league}-{protocol}"


def grid_depth(experiment: Mapping[str, Any], dataset: str) -> int | None:
    """The deepest integer point of an experiment's grid on ``dataset``
    (None when the grid has none: ``[selected, all]``).

    >>> grid_depth({"n_features": ["1..9", 300, "all"]}, "d")
    300
    >>> grid_depth({"n_features": ["selected", "all"]}, "d") is None
    True
    """
    sizes = [k for k in dataset_feature_counts(dict(experiment), dataset)
             if isinstance(k, int)]
    return max(sizes) if sizes else None


def _depth_params(experiment: Mapping[str, Any]) -> tuple[dict, dict]:
    """``n_features_to_select`` at the grid's depth: ``(params,
    dataset_params)``, one value for all datasets when they share it."""
    depths = {d: grid_depth(experiment, d) for d in experiment["datasets"]}
    if any(v is None for v in depths.values()):
        return {}, {}
    values = set(depths.values())
    if len(values) == 1:
        return {"n_features_to_select": values.pop()}, {}
    return {}, {d: {"n_features_to_select": v} for d, v in depths.items()}


def reads_codes_classifier(experiment: Mapping[str, Any]) -> bool:
    """Whether a classifier of the experiment reads the selectors' codes
    (``input: codes``, Lee 2016's BR-LR): then every selector needs a
    discretization."""
    return any(classifier_input(c) == "codes" for c in experiment["classifiers"])


def fit_to_protocol(entry: dict[str, Any], protocol: Mapping[str, Any],
                    params: Mapping[str, Any] | None = None,
                    discretize: Mapping[str, Any] | None = None,
                    depth: bool = True) -> dict[str, Any]:
    """A selector entry fitted to a protocol (the study under its favoured
    readings), values the entry gives itself kept:

    - ``params``: the protocol's settings (e.g. ``transformation: ppt``) for
      a selector that has such a parameter;
    - ``n_features_to_select`` (``depth``): the deepest integer point of
      the protocol's grid on each dataset, so that a greedy search stops
      where the grid stops (every selector ranks no deeper than its features);
    - its discretization: a selector that reads codes takes the protocol's
      selectors' shared one, or ``discretize`` (default
      :data:`DEFAULT_DISCRETIZE`) where they read the raw features; one that
      reads the raw features takes none, or the shared one when the
      protocol's classifier reads the codes.

    >>> lee = {"datasets": ["d"], "n_features": [1, "5..50:5", "all"],
    ...        "classifiers": [{"name": "br-lr", "input": "codes"}],
    ...        "selectors": [{"name": "mim-br", "discretize": {
    ...            "strategy": "equal-width", "bins": 2}}]}
    >>> fit_to_protocol({"id": "cmim", "name": "cmim"}, lee,
    ...     {"transformation": "br", "k": 3})  # doctest: +NORMALIZE_WHITESPACE
    {'id': 'cmim', 'name': 'cmim', 'params': {'transformation': 'br',
     'n_features_to_select': 50},
     'discretize': {'bins': 2, 'strategy': 'equal-width'}}
    """
    out = json.loads(json.dumps(entry))
    cls = registry.get("selector", out["name"])
    allowed = registry.parameters(cls)
    given = dict(out.get("params") or {})
    fitted = {k: v for k, v in (params or {}).items() if k in allowed}
    extra: dict[str, Any] = {}
    if depth and "n_features_to_select" in allowed \
            and "n_features_to_select" not in given:
        fitted_depth, per_dataset = _depth_params(protocol)
        fitted.update(fitted_depth)
        extra = per_dataset
    merged = {**fitted, **given}
    if merged:
        out["params"] = merged
    if extra and not out.get("dataset_params"):
        out["dataset_params"] = extra
    if "discretize" not in out:
        shared = shared_discretization(dict(protocol))
        if reads_codes(out):
            if reads_raw(dict(protocol)):
                out["discretize"] = dict(discretize or DEFAULT_DISCRETIZE)
            elif shared is not None:
                out["discretize"] = shared
        elif reads_codes_classifier(protocol):
            out["discretize"] = shared or dict(discretize or DEFAULT_DISCRETIZE)
        else:
            out["discretize"] = {"strategy": "none"}
    return out


def protocol_problem(entry: dict[str, Any], protocol: Mapping[str, Any]) -> str | None:
    """Why a (fitted) selector entry cannot run under a protocol, or None: a
    protocol that compares each method's own subset (grid point
    ``"selected"``, Spolaôr 2013's threshold) against a selector whose subset
    is every feature (no threshold or size: :func:`~mlfsbench.workflow.
    studies.own_subset`), whose numbers there would be those of all
    features; a selector that reads codes where it would get raw features.

    >>> spolaor = {"datasets": ["d"], "n_features": ["selected", "all"],
    ...            "selectors": [{"name": "ig-br"}]}
    >>> print(protocol_problem({"name": "mim-br"}, spolaor))  # doctest: +ELLIPSIS
    the protocol compares the features each method selects itself ...
    """
    if compares_selected(dict(protocol)) and own_subset(entry) is False:
        return ("the protocol compares the features each method selects itself "
                "(grid point 'selected': a threshold on its scores), and this "
                "method has no threshold or size, so its 'selected' would be "
                "every feature (the numbers of all features)")
    given = entry.get("discretize")  # absent: the schema's default, codes
    if given is not None and discretization_id(given) == "none" \
            and reads_codes(entry):
        return ("it reads discretized codes and the protocol gives it the raw "
                "features (discretize: none)")
    return None


def league_experiment(league: Mapping[str, Any], protocol: str,
                      study: dict[str, Any]) -> dict[str, Any] | str:
    """The experiment of one protocol (module docstring), or why the
    protocol is left out (none of the league's ``datasets`` among its
    own)."""
    x = favoured(study)
    x.pop("claims", None)
    datasets = league.get("datasets")
    if datasets:
        keep = [d for d in x["datasets"] if d in datasets]
        if not keep:
            return (f"none of {', '.join(datasets)} among its datasets "
                    f"({', '.join(x['datasets'])})")
        x = apply_option(x, {"datasets": keep})
    own = x["selectors"]
    names = [e["name"] for e in own]
    for i, entry in enumerate(own):
        if names.index(entry["name"]) == i:  # the method's entry across protocols
            entry.setdefault("id", method_id(entry))
            entry["label"] = entry["name"]
    skip = dict(league.get("skip") or {})
    only = league.get("only")
    params = (league.get("params") or {}).get(protocol) or {}
    disc = league.get("discretize")
    skipped: dict[str, str] = {}
    added = []
    for name in registry.names("selector"):
        if name in names or (only is not None and name not in only):
            continue
        if name in skip:
            skipped[name] = str(skip[name])
            continue
        entry = fit_to_protocol({"id": name, "name": name}, x, params, disc)
        problem = protocol_problem(entry, x)
        if problem:
            skipped[name] = problem
            continue
        added.append(entry)
    for given in league.get("challengers") or []:
        entry = fit_to_protocol({**given, "id": method_id(given), "challenger": True},
                                x, params, disc, depth=False)
        problem = protocol_problem(entry, x)
        if problem:
            skipped[method_id(given)] = problem
            continue
        added.append(entry)
    taken = {method_id(e) for e in own}
    for entry in added:
        if entry["id"] in taken:
            raise ValueError(
                f"league {league.get('name', DEFAULT_NAME)!r}, protocol "
                f"{protocol!r}: selector {entry['id']!r} takes the id of the "
                f"study's selector {entry['id']!r}, another method; give it "
                f"another id")
    x["selectors"] = own + added
    x["description"] = (f"The league under {protocol}'s protocol: "
                        f"{x.get('description') or protocol}")
    x["league"] = {"name": league.get("name") or DEFAULT_NAME,
                   "protocol": protocol,
                   "study": [method_id(e) for e in own],
                   "skipped": skipped}
    return x


def expand_league(config: dict[str, Any], source: str) -> None:
    """Add the experiments of the config's ``league`` (module docstring), in
    place; its protocols are looked up as an ``extends:`` is
    (:func:`~mlfsbench.workflow.studies.find_study`) in the league's
    ``study_files``. A protocol left out (none of the league's datasets) is
    recorded in ``league.left_out`` with why. A ValueError names ``source``
    and the problem: an unknown protocol, a ``skip`` or ``only`` name that is
    not a registered selector, an experiment name taken."""
    league = config.get("league")
    if not league:
        return
    if not isinstance(league, dict) or not isinstance(league.get("protocols"), list):
        raise ValueError(f"{source}: league: give 'protocols', a list of studies")
    for key in ("skip", "only"):
        for name in league.get(key) or []:
            try:
                registry.get("selector", name)
            except KeyError as exc:
                raise ValueError(f"{source}: league.{key}: {exc.args[0]}") from None
    where = {"study_files": list(league.get("study_files") or DEFAULT_STUDY_FILES)}
    experiments = config.setdefault("experiments", {})
    if experiments is None:
        experiments = config["experiments"] = {}
    name = league.get("name") or DEFAULT_NAME
    left_out = {}
    for protocol in league["protocols"]:
        try:
            study, _ = find_study(protocol, where)
        except ValueError as exc:
            raise ValueError(f"{source}: league protocol {protocol!r}: {exc}") from None
        x = league_experiment(league, protocol, study)
        if isinstance(x, str):
            left_out[protocol] = x
            continue
        experiment = league_experiment_name(name, protocol)
        if experiment in experiments:
            raise ValueError(f"{source}: league {name!r}: experiment "
                             f"{experiment!r} is defined twice (the config has "
                             f"one of that name)")
        experiments[experiment] = x
    if left_out:
        league["left_out"] = left_out


def is_league(experiment: Mapping[str, Any]) -> bool:
    """Whether an experiment is a league's (it has a ``league`` record)."""
    return bool(experiment.get("league"))


def league_spec(experiments: Mapping[str, Mapping[str, Any]],
                league: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What the league page reads of the plan's league experiments (plain
    data; the report imports nothing of the workflow): the league's ``name``;
    per protocol (in config order) its ``experiment``, ``datasets``,
    ``options`` (the study's comparison point and alpha: ``n_features``,
    ``alpha``; the league compares every method with every other, Nemenyi,
    so no control), ``metrics``, ``names`` (method id -> the method's name
    in the league), ``study`` (the ids of the study's own entries),
    ``challengers`` (ids), ``entries`` (id -> registry name and parameters)
    and ``skipped`` (method -> reason); ``left_out`` (protocol -> why it did
    not run) from the config's ``league``; ``order``: the protocols in
    config order.
    """
    from mlfsbench.evaluation.metrics import METRICS
    from mlfsbench.workflow.studies import challenger_ids

    protocols: dict[str, Any] = {}
    name = None
    for experiment, x in experiments.items():
        if not is_league(x):
            continue
        rec = x["league"]
        name = rec["name"]
        stats = x.get("stats") or {}
        entries = {method_id(e): {"name": e["name"],
                                  "params": dict(e.get("params") or {}),
                                  **({"dataset_params": e["dataset_params"]}
                                     if e.get("dataset_params") else {}),
                                  "discretize": discretization_id(e.get("discretize"))}
                   for e in x["selectors"]}
        protocols[rec["protocol"]] = {
            "experiment": experiment,
            "datasets": list(x["datasets"]),
            "unavailable": dict(x.get("unavailable") or {}),
            "options": {"n_features": stats.get("n_features", "mean"),
                        "alpha": stats.get("alpha", 0.05)},
            "metrics": list(stats.get("metrics") or METRICS),
            "names": method_labels(x["selectors"]),
            "study": list(rec["study"]),
            "challengers": challenger_ids(dict(x)),
            "entries": entries,
            "skipped": dict(rec.get("skipped") or {}),
        }
    out = canonical({"name": name or (league or {}).get("name") or DEFAULT_NAME,
                     "protocols": protocols,
                     "left_out": dict((league or {}).get("left_out") or {})})
    out["order"] = list(protocols)  # the config's order (canonical sorts keys)
    return out


def job_keys(plan, experiments=None) -> dict[str, set[tuple]]:
    """The cache keys of a plan's batch jobs by kind (``select``,
    ``classify``, ``transform``): a job is the same job in two plans when
    its keys are (dataset, split, fold batch, seed, method cache ids,
    grid)."""
    out: dict[str, set[tuple]] = {}
    for e in experiments if experiments is not None else plan.experiments:
        for job in plan.jobs[e]:
            out.setdefault(job.kind, set()).add(tuple(sorted(job.keys.items())))
    return out


def new_jobs(plan, base) -> dict[str, dict[str, dict[str, int]]]:
    """Per league experiment of ``plan`` and job kind: its ``jobs``, how many
    of them ``base`` (another config's plan: the default reproduction's)
    has too (``shared``), how many are ``new`` and, of these, how many no
    earlier league experiment already counted (``added``: the sum over the
    experiments is what the league adds to ``base``)."""
    have = job_keys(base)
    seen: dict[str, set[tuple]] = {}
    out: dict[str, dict[str, dict[str, int]]] = {}
    for e, x in plan.experiments.items():
        if not is_league(x):
            continue
        mine = job_keys(plan, [e])
        rows = {}
        for kind in ("select", "classify", "transform"):
            keys = mine.get(kind, set())
            if not keys:
                continue
            new = keys - have.get(kind, set())
            added = new - seen.setdefault(kind, set())
            seen[kind] |= new
            rows[kind] = {"jobs": len(keys), "shared": len(keys) - len(new),
                          "new": len(new), "added": len(added)}
        out[e] = rows
    return out


def league_config(configfile: str, protocols: list[str] | None = None,
                  datasets: list[str] | None = None,
                  challengers: list[dict[str, Any]] | None = None,
                  ) -> dict[str, Any]:
    """The config of ``configfile`` (a league config) with its league cut
    to ``protocols`` and ``datasets`` and joined by ``challengers`` (selector
    entries): what ``mlfsbench league`` writes and runs. With challengers
    the league is named ``<name>+<first challenger's id>`` (its page and
    experiments apart from the league's own). A ValueError names a protocol
    the league does not have, or a dataset none of its protocols has (with
    the names it resembles)."""
    from mlfsbench.workflow.studies import challenge_name, check_datasets
    from mlfsbench.yamlfile import load_yaml_file

    config = load_yaml_file(configfile) or {}
    league = config.get("league") if isinstance(config, dict) else None
    if not isinstance(league, dict) or not league.get("protocols"):
        raise ValueError(f"{configfile}: no league (a 'league:' with its "
                         f"'protocols'); config/league.yaml is the project's")
    league = dict(league)
    known = list(league["protocols"])
    if protocols:
        unknown = [p for p in protocols if p not in known]
        if unknown:
            raise ValueError(f"--protocols: {', '.join(unknown)} not among the "
                             f"league's protocols ({', '.join(known)})")
        league["protocols"] = [p for p in known if p in protocols]
    if datasets:
        where = {"study_files": list(league.get("study_files")
                                     or DEFAULT_STUDY_FILES)}
        check_datasets(datasets, {p: find_study(p, where)[0]
                                  for p in league["protocols"]})
        league["datasets"] = list(dict.fromkeys(datasets))
    if challengers:
        league["challengers"] = [*league.get("challengers", []), *challengers]
        league["name"] = challenge_name(league.get("name") or DEFAULT_NAME,
                                        method_id(challengers[0]))
    return {**config, "league": league}
