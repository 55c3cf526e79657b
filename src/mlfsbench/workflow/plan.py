"""The experiment plan: every job the workflow schedules, from the config.

:func:`make_plan` takes a validated config (the schema's defaults filled)
and the datasets table and returns a :class:`Plan`: the split protocols by
id, the configured methods by (dataset, cache id), the feature-count grids
by id, each experiment's jobs (:class:`Job`: its cache keys and the names
its tables give them) and the shared all-features point. The Snakefile's
input functions (``rules/common.smk``) only read it, so the expansion is
tested without Snakemake (``tests/test_plan.py``). The batches and the job
record are :mod:`~mlfsbench.workflow.jobs`'s, the input functions
:mod:`~mlfsbench.workflow.inputs`'s and what the challenge rules read
:mod:`~mlfsbench.workflow.challenges`'s (both mixed into :class:`Plan`).

The cache is shared: from the split on, outputs are keyed by content
(dataset, split protocol, fold batch, seed, method cache id), not by
experiment, so two experiments asking for the same thing compute it once.
Each experiment's tables are built from the shared results; its jobs map the
cache keys back to its own names (its split names and method ids).

The "all" point of a grid runs once per dataset, split, classifier and
input (raw features or one discretization's codes), not once per selector:
its rows join every selector's table (:func:`~mlfsbench.workflow.grids.
split_full_point`).

An experiment's ``readings`` (the choices its paper leaves open) expand into
the experiment under their favoured options and one variant per other option
(:func:`~mlfsbench.workflow.readings.expand_readings`); a variant's jobs are
the experiment's where the option changes nothing, so only what it changes
runs again.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mlfsbench.data import read_datasets_table
from mlfsbench.data.rawfiles import raw_files, verify_raw_files
from mlfsbench.data.split import n_folds
from mlfsbench.data.table import DatasetSpec
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER, METRICS
from mlfsbench.workflow.challenges import (
    ChallengeInputs,
    challenge_history,
    earlier_challenges,
)
from mlfsbench.workflow.checks import check_experiment
from mlfsbench.workflow.config import (
    add_registered,
    check_config,
    check_config_file,
    load_experiment_files,
    schema_problem,
)
from mlfsbench.workflow.grids import (
    all_features_id,
    check_grid_fits,
    dataset_feature_counts,
    experiment_feature_counts,
    grid_id,
    prepared_feature_counts,
    split_full_point,
)
from mlfsbench.workflow.ids import (
    applies_to,
    cache_id,
    classifier_input,
    discretization_id,
    entry_on_data,
    method_id,
    protocol,
    split_id,
)
from mlfsbench.workflow.inputs import JobInputs
from mlfsbench.workflow.jobs import (
    FULL_GRID,
    KINDS,
    Job,
    batch_folds,
    cache_keys,
    fold_batches,
)
from mlfsbench.workflow.league import expand_league, is_league, league_spec
from mlfsbench.workflow.prepared import dataset_facts
from mlfsbench.workflow.readings import check_readings, expand_readings
from mlfsbench.workflow.resources import prepared_mb, request_mb


@dataclass
class Plan(JobInputs, ChallengeInputs):
    """Every job of a config (see the module's docstring)."""

    config: dict[str, Any]
    #: dataset name -> its row of the datasets table
    table: dict[str, DatasetSpec]
    #: experiment -> its feature-count grid (``n_features`` expanded)
    grids: dict[str, list[int | str]]
    #: split protocol id -> spec (defaults filled, hold-out repeats left to
    #: the batches)
    splits: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: kind -> (dataset, cache id) -> configured entry
    entries: dict[str, dict[tuple[str, str], dict[str, Any]]] = field(
        default_factory=lambda: {kind: {} for kind in KINDS})
    #: grid id -> expanded grid
    grid_of: dict[str, list[int | str]] = field(
        default_factory=lambda: {FULL_GRID: ["all"]})
    #: experiment -> its jobs, in table order
    jobs: dict[str, list[Job]] = field(default_factory=dict)
    #: (dataset, all-features selector key) -> its input's discretization id
    full_point: dict[tuple[str, str], str] = field(default_factory=dict)
    #: experiment -> its declared readings (experiments that have some)
    readings: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: experiment -> its variants as ``(variant, reading, option)``
    variants: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    #: dataset -> the data facts its statistics file records (prepared
    #: datasets only; :func:`~mlfsbench.workflow.prepared.dataset_facts`)
    facts: dict[str, dict[str, bool]] = field(default_factory=dict)

    def robust(self, experiment: str) -> bool:
        """Whether an experiment's verdicts are judged under readings: its
        own (variants) or its claims file's scoring readings."""
        x = self.experiments.get(experiment, {})
        return experiment in self.readings or scoring_readings(x.get("claims"))

    @property
    def experiments(self) -> dict[str, dict[str, Any]]:
        return self.config["experiments"]

    @property
    def main_experiments(self) -> dict[str, dict[str, Any]]:
        """The experiments as configured (under their favoured readings),
        without the variants of their other readings and without the
        league's (:attr:`league_experiments`: their page is the league's)."""
        variants = {v for vs in self.variants.values() for v, _, _ in vs}
        return {e: x for e, x in self.experiments.items()
                if e not in variants and not is_league(x)}

    @property
    def league_experiments(self) -> dict[str, dict[str, Any]]:
        """The experiments of the config's league, one per protocol
        (:mod:`~mlfsbench.workflow.league`)."""
        return {e: x for e, x in self.experiments.items() if is_league(x)}

    def league(self) -> dict[str, Any]:
        """What the league page reads (:func:`~mlfsbench.workflow.league.
        league_spec`); no protocols when the config has no league."""
        return league_spec(self.league_experiments, self.config.get("league"))

    def study_of(self, experiment: str) -> str:
        """The configured experiment a variant belongs to, the study a
        challenge experiment extends (itself otherwise): the name its claims
        are filed under."""
        for name, variants in self.variants.items():
            if any(v == experiment for v, _, _ in variants):
                return name
        return self.experiments[experiment].get("extends") or experiment

    @property
    def datasets(self) -> list[str]:
        """Every dataset of every experiment, sorted."""
        return sorted({d for x in self.experiments.values() for d in x["datasets"]})

    @property
    def fold_batch(self) -> int:
        return self.config.get("fold_batch") or 0

    @property
    def keep_predictions(self) -> bool:
        return bool(self.config.get("keep_predictions"))

    # ------------------------------------------------------------- building
    def _add_entry(self, kind: str, dataset: str, entry: dict[str, Any]) -> str:
        entry = entry_on_data(entry, dataset, kind, self.facts.get(dataset))
        cid = cache_id(entry, dataset, kind)
        self.entries[kind][(dataset, cid)] = entry
        return cid

    def _add_experiment(self, name: str, x: dict[str, Any]) -> None:
        jobs = self.jobs[name] = []
        for d in x["datasets"]:
            grid, full = split_full_point(dataset_feature_counts(x, d))
            gid = grid_id(grid)
            self.grid_of[gid] = grid
            for s, spec in x["splits"].items():
                sid = split_id(spec)
                self.splits[sid] = protocol(spec)
                for b in fold_batches(n_folds(spec), self.fold_batch):
                    base = dict(dataset=d, split=sid, batch=b, seed=x["seed"])
                    jobs.extend(self._batch_jobs(x, d, s, base, grid, gid, full))

    def _batch_jobs(self, x, d, s, base, grid, gid, full) -> Iterator[Job]:
        """The jobs of one experiment on one batch of folds of dataset ``d``,
        split ``s``: transformations, then each selector's selection and
        classifications (its grid, then the shared all-features point)."""
        for t in x.get("transformations", []):
            if applies_to(t, d):
                tid = self._add_entry("transformation", d, t)
                yield Job("transform", dict(base, transform=tid),
                          dict(split=s, transformation=method_id(t)))
        for sel in x["selectors"]:
            if not applies_to(sel, d):
                continue
            selid = self._add_entry("selector", d, sel)
            labels = dict(split=s, selector=method_id(sel))
            yield Job("select", dict(base, selector=selid), labels)
            for c in x["classifiers"]:
                if not applies_to(c, d):
                    continue
                cid = self._add_entry("classifier", d, c)
                clabels = dict(labels, classifier=method_id(c))
                if grid:
                    keys = dict(base, selector=selid, classifier=cid, grid=gid)
                    yield Job("classify", keys, clabels)
                if full:
                    disc = "none"
                    if classifier_input(c) == "codes":
                        disc = discretization_id(sel.get("discretize"))
                    fid = all_features_id(disc)
                    self.full_point[(d, fid)] = disc
                    keys = dict(base, selector=fid, classifier=cid, grid=FULL_GRID)
                    yield Job("classify", keys, clabels)

    # -------------------------------------------------------------- queries
    def outputs(self, experiment: str, kind: str) -> list[Job]:
        """One experiment's jobs of one kind, in table order."""
        return [job for job in self.jobs[experiment] if job.kind == kind]

    def cached_results(self, patterns: Mapping[str, str]) -> list[str]:
        """Every experiment's per-fold results (variants' too) as paths of
        ``patterns`` (kind -> the rule's output pattern, for ``select``,
        ``classify``, ``transform`` and the transformations' ``labels``),
        without repeats, in plan order. They are targets themselves, so a
        deleted one is computed again (with what depends on it), not only when
        a table that reads it reruns (issue 29, S7)."""
        out: dict[str, None] = {}
        for e in self.experiments:
            for kind in ("select", "classify", "transform", "labels"):
                jobs = self.outputs(e, "transform" if kind == "labels" else kind)
                out.update(dict.fromkeys(patterns[kind].format(**j.keys) for j in jobs))
        return list(out)

    def ids(self, kind: str) -> list[str]:
        """Every cache id of a method kind (all-features keys among the
        selectors)."""
        out = [cid for _, cid in self.entries[kind]]
        if kind == "selector":
            out += [fid for _, fid in self.full_point]
        return out

    def raw_files(self) -> list[tuple[str, str]]:
        """``(path, checksum)`` of every raw file of the plan's datasets."""
        return [(f"data/raw/{d}/{f}", checksum)
                for d in self.datasets
                for f, (_, checksum) in raw_files(self.table[d]).items()]

    def verify_raw_files(self, record: str | os.PathLike) -> None:
        """Raw files already downloaded must still be the table's (size +
        mtime, else sha256), before any job reads them
        (:func:`~mlfsbench.data.rawfiles.verify_raw_files`)."""
        verify_raw_files(self.raw_files(), record)

    def stats_metrics(self, experiment: str) -> list[str]:
        """The metrics an experiment compares (all by default)."""
        return self.experiments[experiment]["stats"].get("metrics") or list(METRICS)


def read_config(config: Any, source: str) -> None:
    """Check a config as loaded (``source`` names it in messages), read its
    ``experiment_files`` into it, add its league's experiments
    (:func:`~mlfsbench.workflow.league.expand_league`) and the registered
    methods its experiments ask for (:func:`~mlfsbench.workflow.config.add_registered`),
    in place; the schema's check comes next (it fills the defaults)."""
    check_config_file(config, source)
    load_experiment_files(config)
    if config.get("league") is not None:  # its shape first: it is read now
        problem = schema_problem({"league": config["league"]})
        if problem:
            raise ValueError(f"{source}: {problem}")
        expand_league(config, source)
    check_config(config, source)
    add_registered(config, source)


def check_experiments(config: dict[str, Any], table: dict[str, DatasetSpec]) -> None:
    """Checks of each experiment against the datasets table: names, feature
    grids that fit, known stats metrics; raise ValueError."""
    for name, experiment in config["experiments"].items():
        check_experiment(name, experiment, table)
        check_grid_fits(name, experiment, prepared_feature_counts(experiment))
        for metric in experiment.get("stats", {}).get("metrics", []):
            if metric not in GREATER_IS_BETTER:
                raise ValueError(
                    f"experiment {name!r}: unknown stats metric {metric!r} "
                    f"(known: {', '.join(sorted(GREATER_IS_BETTER))})")


def exclude_unavailable(config: dict[str, Any]) -> dict[str, str]:
    """Drop the datasets of the config's ``unavailable`` file (dataset -> the
    one-line reason it could not be obtained) from every experiment, in
    place; each experiment that had one records it under ``unavailable``
    (its claims and the summary page say why). An experiment left with no
    dataset is dropped. Returns the file's mapping (empty without one)."""
    import json

    source = config.get("unavailable") or ""
    if not source:
        return {}
    try:
        with open(source, encoding="utf-8") as fh:
            reasons = json.load(fh)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{source}: cannot read the unavailable datasets "
                         f"({exc})") from None
    if not isinstance(reasons, dict):
        raise ValueError(f"{source}: expected a mapping of dataset -> reason")
    experiments = config["experiments"]
    for name in list(experiments):
        x = experiments[name]
        gone = {d: str(reasons[d]) for d in x["datasets"] if d in reasons}
        if not gone:
            continue
        x["datasets"] = [d for d in x["datasets"] if d not in reasons]
        x["unavailable"] = {**x.get("unavailable", {}), **gone}
        if not x["datasets"]:
            del experiments[name]
    return reasons


def scoring_readings(claims_file: str | None) -> bool:
    """Whether a claims file declares scoring readings (its top-level
    ``readings:``; the claims stage judges them, no job of their own)."""
    if not claims_file or not os.path.exists(claims_file):
        return False
    from mlfsbench.yamlfile import load_yaml_file

    return bool((load_yaml_file(claims_file) or {}).get("readings"))


def make_plan(config: dict[str, Any],
              table: dict[str, DatasetSpec] | None = None,
              facts: dict[str, dict[str, bool]] | None = None) -> Plan:
    """The plan of a validated config (its schema defaults filled).

    ``table`` (dataset name -> row) is read from the config's
    ``datasets_table`` when not given. An experiment with ``readings`` runs
    under their favoured options and has one variant per other option
    (:func:`~mlfsbench.workflow.readings.expand_readings`): the plan's
    ``experiments`` hold both, ``main_experiments`` the configured ones. The
    experiments are checked against the table first (:func:`check_experiments`).
    ``facts`` (dataset -> data facts) are read from the prepared datasets'
    statistics when not given (:func:`~mlfsbench.workflow.prepared.
    dataset_facts`): a method whose parameter has no effect on a dataset
    shares its job with the same method without it
    (:func:`~mlfsbench.workflow.ids.entry_on_data`).
    """
    if table is None:
        table = {s.name: s for s in read_datasets_table(config["datasets_table"])}
    for name, x in config["experiments"].items():
        check_readings(name, x)
    exclude_unavailable(config)  # datasets this run could not obtain
    experiments, variants = expand_readings(config["experiments"])
    readings = {e: x["readings"] for e, x in config["experiments"].items()
                if x.get("readings")}
    config = {**config, "experiments": experiments}
    check_experiments(config, table)
    if facts is None:
        facts = dataset_facts(sorted({d for x in experiments.values()
                                      for d in x["datasets"]}))
    plan = Plan(config, table,
                {e: experiment_feature_counts(x) for e, x in experiments.items()},
                readings=readings, variants=variants, facts=facts)
    for name, x in experiments.items():
        plan._add_experiment(name, x)
    return plan


def mem_mb_of(rule: str):
    """The ``mem_mb`` callable of a rule's jobs on a dataset: its measured
    peak grown with the prepared dataset's arrays, the attempt and the job's
    parallel folds (:mod:`mlfsbench.workflow.resources`)."""

    def mem_mb(wildcards, attempt: int, threads: int = 1) -> int:
        size = prepared_mb(f"data/prepared/{wildcards.dataset}.npz")
        return request_mb(rule, size, attempt=attempt, threads=threads)

    return mem_mb


def alternatives(names) -> str:
    """A wildcard constraint matching exactly ``names`` (``none`` if empty).

    >>> print(alternatives(["b.1", "a"]))
    a|b\\.1
    """
    return "|".join(re.escape(n) for n in sorted(set(names))) or "none"


#: What the plan's importers read from here (the jobs, the challenges and the
#: input functions have their own modules).
__all__ = ["FULL_GRID", "KINDS", "Job", "Plan", "alternatives", "batch_folds",
           "cache_keys", "challenge_history", "check_experiments",
           "earlier_challenges", "exclude_unavailable", "fold_batches",
           "make_plan", "mem_mb_of", "read_config", "scoring_readings"]
