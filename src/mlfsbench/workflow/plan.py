"""The experiment plan: every job the workflow schedules, from the config.

:func:`make_plan` takes a validated config (the schema's defaults filled)
and the datasets table and returns a :class:`Plan`: the split protocols by
id, the configured methods by (dataset, cache id), the feature-count grids
by id, each experiment's jobs (:class:`Job`: its cache keys and the names
its tables give them) and the shared all-features point. The Snakefile's
input functions (``rules/common.smk``) only read it, so the expansion is
tested without Snakemake (``tests/test_plan.py``).

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
from mlfsbench.data.download import GIT_BLOB
from mlfsbench.data.rawfiles import file_sha256, raw_files, verify_raw_files
from mlfsbench.data.split import n_folds
from mlfsbench.data.table import DatasetSpec
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER, METRICS
from mlfsbench.workflow.checks import check_experiment
from mlfsbench.workflow.config import (
    check_config,
    check_config_file,
    load_experiment_files,
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
    canonical,
    classifier_input,
    content_digest,
    discretization_id,
    entry_params,
    input_kind,
    method_aliases,
    method_id,
    method_labels,
    protocol,
    split_id,
)
from mlfsbench.workflow.readings import check_readings, expand_readings
from mlfsbench.workflow.report_params import challenger_labels, claims_setting
from mlfsbench.workflow.resources import prepared_mb, request_mb
from mlfsbench.workflow.studies import challenger_ids, is_challenger, printed_path

#: The kinds of configured methods, as the plan's ``entries`` key them.
KINDS = ("selector", "classifier", "transformation")
#: The grid of the all-features jobs.
FULL_GRID = grid_id(["all"])
#: Wildcard of each method kind in the output paths.
_WILDCARD = {"selector": "selector", "classifier": "classifier",
             "transformation": "transform"}


# --------------------------------------------------------------------- batches
# The workflow's jobs cover a batch of folds of one split (all folds by
# default, ``fold_batch`` folds each when set).
def batch_folds(batch: str) -> list[int]:
    """Folds of a batch identifier: ``folds0-4`` -> ``[0, 1, 2, 3, 4]``.

    >>> batch_folds("folds3-5")
    [3, 4, 5]
    """
    first, _, last = batch.removeprefix("folds").partition("-")
    return list(range(int(first), int(last) + 1))


def fold_batches(n: int, size: int | None = None) -> list[str]:
    """Batch identifiers covering folds ``0..n-1``, ``size`` folds each
    (all in one when ``size`` is None or 0).

    >>> fold_batches(5), fold_batches(5, 2)
    (['folds0-4'], ['folds0-1', 'folds2-3', 'folds4-4'])
    """
    size = size or n
    return [f"folds{i}-{min(i + size, n) - 1}" for i in range(0, n, size)]


# ------------------------------------------------------------------------ jobs
@dataclass(frozen=True)
class Job:
    """One batch job an experiment's tables read.

    ``kind`` is ``"select"``, ``"classify"`` or ``"transform"``; ``keys``
    are its cache keys, the wildcards of its output path (``dataset``,
    ``split`` protocol id, ``batch``, ``seed`` and the method ids: ``selector``,
    ``classifier`` and ``grid``, or ``transform``); ``labels`` the
    experiment's names for them (``split`` name and method ids), which its
    tables use.
    """

    kind: str
    keys: Mapping[str, Any]
    labels: Mapping[str, str]


@dataclass
class Plan:
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
        without the variants of their other readings."""
        variants = {v for vs in self.variants.values() for v, _, _ in vs}
        return {e: x for e, x in self.experiments.items() if e not in variants}

    def study_of(self, experiment: str) -> str:
        """The configured experiment a variant belongs to, the study a
        challenge experiment extends (itself otherwise): the name its claims
        are filed under."""
        for name, variants in self.variants.items():
            if any(v == experiment for v, _, _ in variants):
                return name
        return self.experiments[experiment].get("extends") or experiment

    @staticmethod
    def batch_keys(wildcards) -> dict[str, str]:
        """The dataset, split and batch of a batch job (its split's keys)."""
        return {k: getattr(wildcards, k) for k in ("dataset", "split", "batch")}

    def method_order(self, wildcards) -> list[str]:
        """The experiment's selector ids in config order (the paper table's
        columns: the paper's methods, challengers left out)."""
        return [method_id(e) for e in self.experiments[wildcards.experiment]
                ["selectors"] if not is_challenger(e)]

    def dataset_params(self, wildcards) -> dict[str, Any]:
        """Parameters the experiment's selectors set per dataset, by id (the
        figures name them, e.g. each dataset's granule count)."""
        x = self.experiments[wildcards.experiment]
        return canonical({method_id(e): e["dataset_params"] for e in x["selectors"]
                          if e.get("dataset_params")})

    def study(self, wildcards) -> str:
        """:meth:`study_of` a job's experiment (the claims rule's param)."""
        return self.study_of(wildcards.experiment)

    def readings_spec(self, wildcards) -> dict[str, Any]:
        """An experiment's readings and its variants' ``[reading, option]``, in
        declaration order (the readings rule's param)."""
        e = wildcards.experiment
        return canonical({"readings": self.readings.get(e, {}),
                          "variants": [[r, o] for _, r, o in self.variants.get(e, [])]})

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

    # ------------------------------------------------------- input functions
    # Functions of a job's wildcards (any object with their names as
    # attributes), which rules/common.smk hands to the rules.
    def entry(self, kind: str, wildcards) -> dict[str, Any]:
        """The configured entry of a job's method of ``kind``."""
        key = getattr(wildcards, _WILDCARD[kind])
        return self.entries[kind][(wildcards.dataset, key)]

    def raw_checksum(self, wildcards) -> str:
        """The table's checksum of a raw file: a sha256, or ``git-blob:<id>``."""
        return raw_files(self.table[wildcards.dataset])[wildcards.file][1]

    def raw_inputs(self, wildcards, pattern: str) -> dict[str, Any]:
        """The prepare job's raw files, as paths of ``pattern`` (the download
        rule's ``{dataset}``/``{file}`` output): ``arff`` the data file(s)
        (whole, or train then test, or the R data file ``whole.rda``) and
        ``xml`` the label file where there is one."""
        names = raw_files(self.table[wildcards.dataset])

        def path(f: str) -> str:
            return pattern.format(dataset=wildcards.dataset, file=f)

        out: dict[str, Any] = {"arff": [
            path(f) for f in ("whole.arff", "whole.rda", "train.arff", "test.arff")
            if f in names]}
        if "labels.xml" in names:
            out["xml"] = path("labels.xml")
        return out

    def raw_sha256(self, wildcards, pattern: str) -> str:
        """The sha256 the download's ``ensure`` checks: the table's, or, for a
        ``git-blob:`` checksum (verified by the download itself), the
        downloaded file's own (``pattern`` as in :meth:`raw_inputs`)."""
        checksum = self.raw_checksum(wildcards)
        if not checksum.lower().startswith(GIT_BLOB):
            return checksum
        return file_sha256(pattern.format(dataset=wildcards.dataset,
                                          file=wildcards.file))

    def dataset_targets(self, wildcards) -> int | None:
        """Number of real-valued targets (multi-target data) or None."""
        return self.table[wildcards.dataset].targets

    def split_spec(self, wildcards) -> dict[str, Any]:
        return self.splits[wildcards.split]

    def folds(self, wildcards) -> list[int]:
        return batch_folds(wildcards.batch)

    def batch_threads(self, wildcards) -> int:
        """Threads of a batch job: one per fold (Snakemake caps it at --cores)."""
        return len(batch_folds(wildcards.batch))

    def _params(self, kind: str, wildcards) -> dict[str, Any]:
        return entry_params(self.entry(kind, wildcards), wildcards.dataset)

    def selector_name(self, wildcards) -> str:
        return self.entry("selector", wildcards)["name"]

    def selector_params(self, wildcards) -> dict[str, Any]:
        return canonical(self._params("selector", wildcards))

    def selector_threads(self, wildcards) -> int:
        """Threads of a selection job: its folds, or the selector's ``n_jobs``."""
        params = self._params("selector", wildcards)
        return max(int(params.get("n_jobs") or 1), self.batch_threads(wildcards))

    def transform_name(self, wildcards) -> str:
        return self.entry("transformation", wildcards)["name"]

    def transform_params(self, wildcards) -> dict[str, Any]:
        return canonical(self._params("transformation", wildcards))

    def classifier_name(self, wildcards) -> str:
        return self.entry("classifier", wildcards)["name"]

    def classifier_params(self, wildcards) -> dict[str, Any]:
        return canonical(self._params("classifier", wildcards))

    @staticmethod
    def disc_params(wildcards) -> dict[str, Any]:
        strategy, bins = wildcards.disc.rsplit("-", 1)
        return {"strategy": strategy, "bins": int(bins)}

    def select_codes(self, wildcards) -> str | None:
        """The discretization id whose codes a selection job reads, if any."""
        entry = self.entry("selector", wildcards)
        disc = discretization_id(entry.get("discretize"))
        kind = input_kind({**entry, "params": entry_params(entry, wildcards.dataset)})
        return disc if disc != "none" and kind == "discrete" else None

    def is_full_point(self, wildcards) -> bool:
        """Whether a classification job is the shared all-features one."""
        return (wildcards.dataset, wildcards.selector) in self.full_point

    def classify_codes(self, wildcards) -> str | None:
        """The discretization id whose codes a classification job reads
        (a classifier with ``input: codes``), if any."""
        full = self.full_point.get((wildcards.dataset, wildcards.selector))
        if full is None:
            if classifier_input(self.entry("classifier", wildcards)) != "codes":
                return None
            selector = self.entry("selector", wildcards)
            return discretization_id(selector.get("discretize"))
        return None if full == "none" else full

    def grid(self, wildcards) -> list[int | str]:
        """A classification job's grid, or an experiment's."""
        if "grid" in wildcards.keys():
            return self.grid_of[wildcards.grid]
        return self.grids[wildcards.experiment]

    def labels(self, wildcards) -> dict[str, str]:
        """Readable names of the experiment's selectors and classifiers, by id."""
        x = self.experiments[wildcards.experiment]
        return {**method_labels(x["selectors"]), **method_labels(x["classifiers"])}

    def method_aliases(self, wildcards) -> dict[str, str]:
        """Every name of the experiment's selectors (label, registry name when
        one entry has it, id) -> its id: how a printed table's method names
        (``ig-br``) find our columns (``ig-br-72bc78c7``)."""
        return method_aliases(self.experiments[wildcards.experiment]["selectors"])

    def experiment_datasets(self, wildcards) -> list[str]:
        return self.experiments[wildcards.experiment]["datasets"]

    def stats_options(self, wildcards) -> dict[str, Any]:
        opts = self.experiments[wildcards.experiment]["stats"]
        out = {"n_features": opts["n_features"], "alpha": opts["alpha"]}
        if opts.get("control"):
            out["control"] = opts["control"]
        if opts.get("round") is not None:
            out["round"] = opts["round"]
        exclude = self.challengers(wildcards.experiment)
        if exclude:  # the paper's methods only (absent otherwise: no rerun)
            out["exclude"] = exclude
        return canonical(out)

    def headline_metric(self, wildcards) -> str:
        """The metric of an experiment's headline figure: its first compared one."""
        return self.stats_metrics(wildcards.experiment)[0]

    def claims_file(self, wildcards) -> str:
        """The claims file of an experiment (its ``claims:`` entry)."""
        return self.experiments[wildcards.experiment]["claims"]


    def printed_file(self, wildcards) -> list[str]:
        """The study's printed tables beside its claims file, if it has them
        (the claims stage computes claims from the paper's own numbers too;
        the paper tables set the printed cells beside ours); none for an
        experiment without a claims file."""
        claims = self.experiments[wildcards.experiment].get("claims")
        path = printed_path(claims) if claims else None
        return [path] if path else []

    def claims_setting(self, wildcards) -> dict[str, Any]:
        """What the claims stage reads of an experiment: its datasets, its
        methods' names and parameters, its challengers
        (:func:`~mlfsbench.workflow.report_params.claims_setting`)."""
        return claims_setting(self.experiments[wildcards.experiment])

    def challenger_labels(self) -> dict[str, list[str]]:
        """Main experiment -> the readable names of its challengers, for the
        experiments that have some (the summary page links their challenge
        pages)."""
        out = {e: challenger_labels(self.experiments[e]) for e in self.main_experiments}
        return {e: labels for e, labels in out.items() if labels}

    def provenance_config(self, wildcards) -> dict[str, Any]:
        """What the experiment's provenance records: its own config and the
        settings shared by all experiments."""
        shared = {k: v for k, v in self.config.items() if k not in ("experiments",)}
        name = wildcards.experiment
        return canonical({**shared, "experiments": {name: self.experiments[name]}})

    def challengers(self, experiment: str) -> list[str]:
        """The method ids (as in the tables' selector and classifier columns)
        of the experiment's entries flagged ``challenger: true``, selectors
        then classifiers; the statistics, paper tables and claims leave them
        out (:func:`~mlfsbench.workflow.studies.challenger_ids`)."""
        return challenger_ids(self.experiments[experiment])

    # ---------------------------------------------------------- code versions
    def code_version(self, script: str | os.PathLike, kind: str | None = None):
        """The input function of a rule's ``code`` param: the version of the
        code ``script`` reaches (:func:`~mlfsbench.workflow.versions.rule_version`),
        plus, for a ``kind`` of method (``selector``, ``classifier``,
        ``transformation``), the job's estimator module, and for ``claims``
        the selectors the study's artificial claims run."""
        from mlfsbench.workflow.versions import (
            claims_estimators,
            estimator_module,
            rule_version,
        )

        def version(wildcards) -> str:
            if kind is None:
                return rule_version(script)
            if kind == "claims":
                claims = self.claims_file(wildcards)
                return rule_version(script, *claims_estimators(claims))
            name = self.entry(kind, wildcards)["name"]
            return rule_version(script, estimator_module(kind, name))

        return version

    def claims_digest(self, wildcards) -> str:
        """The sha256 of the claims file and the printed tables a claims job
        reads (no rule makes them; runs are not triggered by file times)."""
        files = [self.claims_file(wildcards), *self.printed_file(wildcards)]
        return content_digest(files)

    def printed_digest(self, wildcards) -> dict[str, str]:
        """The sha256 of the printed tables a paper table sets beside ours
        (the paper_table rule's parameter: an edit of the file reruns it,
        as :meth:`claims_digest` does the claims)."""
        return content_digest(self.printed_file(wildcards))

    # ----------------------------------------------------------- challenges
    # What rules/challenge.smk reads: its jobs run only for the (main)
    # experiments that have challengers.
    def challenger_map(self) -> dict[str, list[str]]:
        """Main experiment -> its challengers' method ids (maybe none)."""
        return {e: self.challengers(e) for e in self.main_experiments}

    @property
    def challenged(self) -> list[str]:
        """The main experiments that have challengers, in config order."""
        return [e for e, ids in self.challenger_map().items() if ids]

    def challenger_ids(self, wildcards) -> list[str]:
        return self.challengers(wildcards.experiment)

    def compared_metrics(self, wildcards) -> list[str]:
        return self.stats_metrics(wildcards.experiment)

    def challenger_entries(self, wildcards) -> dict[str, dict[str, Any]]:
        """:meth:`challenger_entries_of` a job's experiment."""
        return self.challenger_entries_of(wildcards.experiment)

    def challenger_entries_of(self, experiment: str) -> dict[str, dict[str, Any]]:
        """The experiment's challengers by method id: their registry
        ``name``, ``label`` (if any), ``params`` (as configured) and
        ``cache_ids`` (of their jobs' results, over the datasets), for the
        challenge pages to name them by name and parameters, not by hash."""
        x = self.experiments[experiment]
        out = {}
        for key, kind in (("selectors", "selector"), ("classifiers", "classifier")):
            for entry in x.get(key) or []:
                if not is_challenger(entry):
                    continue
                info: dict[str, Any] = {"name": entry["name"],
                                        "params": dict(entry.get("params") or {})}
                if entry.get("label"):
                    info["label"] = entry["label"]
                info["cache_ids"] = sorted({cache_id(entry, d, kind)
                                            for d in x["datasets"]})
                out[method_id(entry)] = info
        return canonical(out)

    def paper_datasets(self, wildcards) -> list[str]:
        """:meth:`paper_datasets_of` a job's experiment."""
        return self.paper_datasets_of(wildcards.experiment)

    def paper_datasets_of(self, experiment: str) -> list[str]:
        """The datasets of the study an experiment ``extends`` (all the
        paper's, those the challenge cut away or could not get included);
        an experiment extending none: its own and those it could not get."""
        from mlfsbench.workflow.studies import find_study

        x = self.experiments[experiment]
        own = list(x["datasets"]) + sorted(x.get("unavailable") or {})
        if not x.get("extends"):
            return own
        try:
            study, _ = find_study(x["extends"], self.config)
        except ValueError:
            return own
        return list(study.get("datasets") or own)

    def challenges_entries(self) -> dict[str, dict[str, Any]]:
        """:meth:`challenger_entries_of` every challenged experiment, merged."""
        out: dict[str, dict[str, Any]] = {}
        for e in self.challenged:
            out.update(self.challenger_entries_of(e))
        return out

    def unavailable_reasons(self) -> dict[str, str]:
        """Challenged experiment -> why it lacks datasets (those the run could
        not get), for the page across studies; experiments lacking none are
        left out."""
        out = {}
        for e in self.challenged:
            gone = self.experiments[e].get("unavailable") or {}
            if gone:
                out[e] = "could not run: " + "; ".join(
                    f"{d} ({r})" for d, r in sorted(gone.items()))
        return out

    def challenge_labels(self) -> dict[str, str]:
        """Readable names of the challenged experiments' methods, by id."""
        out: dict[str, str] = {}
        for e in self.challenged:
            x = self.experiments[e]
            out.update(method_labels(x["selectors"]))
            out.update(method_labels(x["classifiers"]))
        return out


def earlier_challenges(results: str, experiments: Mapping[str, Any]
                       ) -> dict[str, str]:
    """The ``challenge.tsv`` of earlier challenges under ``results``
    (``<results>/<experiment>/challenge/challenge.tsv`` of an experiment not
    in ``experiments``), by experiment, in name order: the page across
    studies keeps them beside the run's. No rule makes them in a run of
    other experiments (the experiment wildcard names the config's), so they
    are read as found."""
    found = {}
    if not os.path.isdir(results):
        return found
    for experiment in sorted(os.listdir(results)):
        path = os.path.join(results, experiment, "challenge", "challenge.tsv")
        if experiment not in experiments and os.path.isfile(path):
            found[experiment] = path.replace(os.sep, "/")
    return found


def challenge_history(path: str, current: list[str]) -> list[str]:
    """The challenges' ids in the order of the page across studies as last
    written (``challenges.tsv``'s ``challenge`` column, most recent first),
    without ``current`` (this run's, which go first): the page's order
    comes from its own previous content, not from file times."""
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as fh:
        head = fh.readline().rstrip("\n").split("\t")
        if "challenge" not in head:
            return []
        col = head.index("challenge")
        ids = [line.rstrip("\n").split("\t")[col] for line in fh
               if line.strip() and len(line.split("\t")) > col]
    return [c for c in dict.fromkeys(ids) if c and c not in set(current)]


def cache_keys(wildcards) -> dict[str, str]:
    """The keys a batch job writes into its records (cache ids), from its
    wildcards (a mapping, or Snakemake's wildcards: anything with ``items``)."""
    given = dict(wildcards.items())
    out = {"dataset": given["dataset"], "split": given["split"]}
    for kind in KINDS:
        if _WILDCARD[kind] in given:
            out[kind] = given[_WILDCARD[kind]]
    return out


def read_config(config: Any, source: str) -> None:
    """Check a config as loaded (``source`` names it in messages) and read its
    ``experiment_files`` into it, in place; the schema's check comes next."""
    check_config_file(config, source)
    load_experiment_files(config)
    check_config(config, source)


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
              table: dict[str, DatasetSpec] | None = None) -> Plan:
    """The plan of a validated config (its schema defaults filled).

    ``table`` (dataset name -> row) is read from the config's
    ``datasets_table`` when not given. An experiment with ``readings`` runs
    under their favoured options and has one variant per other option
    (:func:`~mlfsbench.workflow.readings.expand_readings`): the plan's
    ``experiments`` hold both, ``main_experiments`` the configured ones. The
    experiments are checked against the table first (:func:`check_experiments`).
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
    plan = Plan(config, table,
                {e: experiment_feature_counts(x) for e, x in experiments.items()},
                readings=readings, variants=variants)
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
