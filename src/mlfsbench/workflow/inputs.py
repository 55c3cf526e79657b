"""The rules' input functions: what a job needs, from its wildcards.

:class:`JobInputs` is mixed into :class:`~mlfsbench.workflow.plan.Plan`:
its methods read the plan's experiments, configured entries (by dataset and
cache id), splits, grids and all-features points, and ``rules/common.smk``
hands them to the rules. Each takes a job's wildcards (any object with
their names as attributes): the method's registry name and parameters, a
batch's folds and threads, a raw file's checksum, the discretization a job
reads, an experiment's labels and statistics options, the digests of the
files no rule makes and the version of the code a rule's script reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mlfsbench.data.download import GIT_BLOB
from mlfsbench.data.rawfiles import file_sha256, raw_files
from mlfsbench.workflow.ids import (
    canonical,
    classifier_input,
    content_digest,
    discretization_id,
    entry_params,
    input_kind,
    method_aliases,
    method_id,
    method_labels,
)
from mlfsbench.workflow.jobs import WILDCARD, batch_folds
from mlfsbench.workflow.report_params import artificial_runs, claims_setting
from mlfsbench.workflow.studies import is_challenger, printed_path

if TYPE_CHECKING:
    from mlfsbench.data.table import DatasetSpec


#: Where the workflow keeps a run on the artificial problems (by its key).
ARTIFICIAL = "results/shared/artificial/{key}.npz"


class JobInputs:
    """The input functions of the rules (mixed into the plan; see the
    module's docstring)."""

    if TYPE_CHECKING:  # what the plan this is mixed into provides
        config: dict[str, Any]
        table: dict[str, DatasetSpec]
        grids: dict[str, list[int | str]]
        splits: dict[str, dict[str, Any]]
        entries: dict[str, dict[tuple[str, str], dict[str, Any]]]
        grid_of: dict[str, list[int | str]]
        full_point: dict[tuple[str, str], str]
        readings: dict[str, dict[str, Any]]
        variants: dict[str, list[tuple[str, str, str]]]

        @property
        def experiments(self) -> dict[str, dict[str, Any]]: ...
        def study_of(self, experiment: str) -> str: ...
        def stats_metrics(self, experiment: str) -> list[str]: ...
        def challengers(self, experiment: str) -> list[str]: ...

    # ------------------------------------------------------- input functions
    # Functions of a job's wildcards (any object with their names as
    # attributes), which rules/common.smk hands to the rules.
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

    def entry(self, kind: str, wildcards) -> dict[str, Any]:
        """The configured entry of a job's method of ``kind``."""
        key = getattr(wildcards, WILDCARD[kind])
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

    def artificial_of(self, experiment: str) -> dict[str, dict[str, Any]]:
        """The runs on the artificial problems an experiment's claims ask
        for (run key -> spec, :func:`~mlfsbench.workflow.report_params.
        artificial_runs`); none without a claims file."""
        cache = self.__dict__.setdefault("_artificial", {})
        if experiment not in cache:
            path = self.experiments[experiment].get("claims")
            claims = None
            if path:
                import yaml

                with open(path, encoding="utf-8") as fh:
                    claims = yaml.safe_load(fh)
            cache[experiment] = artificial_runs(
                claims, claims_setting(self.experiments[experiment]))
        return cache[experiment]

    def artificial_files(self, wildcards) -> list[str]:
        """The files of the artificial runs an experiment's claims read."""
        return [ARTIFICIAL.format(key=k)
                for k in sorted(self.artificial_of(wildcards.experiment))]

    def artificial_spec(self, wildcards) -> dict[str, Any]:
        """The spec of the artificial run ``wildcards.key`` (the first
        experiment asking for it: every one asks for the same run)."""
        for experiment in self.experiments:
            runs = self.artificial_of(experiment)
            if wildcards.key in runs:
                return canonical(runs[wildcards.key])
        raise ValueError(f"no claim of this config asks for the artificial run "
                         f"{wildcards.key!r}")

    def provenance_config(self, wildcards) -> dict[str, Any]:
        """What the experiment's provenance records: its own config and the
        settings shared by all experiments."""
        shared = {k: v for k, v in self.config.items() if k not in ("experiments",)}
        name = wildcards.experiment
        return canonical({**shared, "experiments": {name: self.experiments[name]}})

    # ---------------------------------------------------------- code versions
    def code_version(self, script: str, kind: str | None = None):
        """The input function of a rule's ``code`` param: the version of the
        code ``script`` reaches (:func:`~mlfsbench.workflow.versions.rule_version`),
        plus, for a ``kind`` of method (``selector``, ``classifier``,
        ``transformation``), the job's estimator module, and for
        ``artificial`` the selector its run fits."""
        from mlfsbench.workflow.versions import estimator_module, rule_version

        def version(wildcards) -> str:
            if kind is None:
                return rule_version(script)
            if kind == "artificial":
                method = self.artificial_spec(wildcards)["method"]
                return rule_version(script, estimator_module("selector", method))
            name = self.entry(kind, wildcards)["name"]
            return rule_version(script, estimator_module(kind, name))

        return version

    def claims_digest(self, wildcards) -> dict[str, str]:
        """The sha256 of the claims file and the printed tables a claims job
        reads (no rule makes them; runs are not triggered by file times)."""
        files = [self.claims_file(wildcards), *self.printed_file(wildcards)]
        return content_digest(files)

    def printed_digest(self, wildcards) -> dict[str, str]:
        """The sha256 of the printed tables a paper table sets beside ours
        (the paper_table rule's parameter: an edit of the file reruns it,
        as :meth:`claims_digest` does the claims)."""
        return content_digest(self.printed_file(wildcards))
