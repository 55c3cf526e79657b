# Config validation, wildcard constraints and the input functions of the rules.
import os
import re

from snakemake.utils import validate

from mlfsbench.workflow.config import (
    CONFIG_SCHEMA,
    all_features_id,
    applies_to,
    cache_id,
    canonical,
    check_config,
    check_config_file,
    check_experiment,
    check_grid_fits,
    config_source,
    classifier_input,
    discretization_id,
    entry_params,
    feature_counts,
    grid_id,
    input_kind,
    load_experiment_files,
    method_id,
    method_labels,
    prepared_feature_counts,
    protocol,
    split_full_point,
    split_id,
)
from mlfsbench.data import read_datasets_table
from mlfsbench.data.download import GIT_BLOB
from mlfsbench.data.rawfiles import (
    RAW_FILE_ROLES,
    file_sha256,
    raw_files,
    verify_raw_files,
)
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER, METRICS
from mlfsbench.data.split import n_folds
from mlfsbench.workflow.stages import batch_folds, fold_batches
from mlfsbench.workflow.versions import (
    claims_estimators,
    estimator_module,
    rule_version,
)

CONFIG_SOURCE = config_source(workflow)
check_config_file(config, CONFIG_SOURCE)
load_experiment_files(config)
check_config(config, CONFIG_SOURCE)
validate(config, str(CONFIG_SCHEMA))

TABLE = {spec.name: spec for spec in read_datasets_table(config["datasets_table"])}
EXPERIMENTS = config["experiments"]
for _name, _experiment in EXPERIMENTS.items():
    check_experiment(_name, _experiment, TABLE)
    check_grid_fits(_name, _experiment, prepared_feature_counts(_experiment))
    for _metric in _experiment.get("stats", {}).get("metrics", []):
        if _metric not in GREATER_IS_BETTER:
            raise ValueError(
                f"experiment {_name!r}: unknown stats metric {_metric!r} "
                f"(known: {', '.join(sorted(GREATER_IS_BETTER))})"
            )

GRIDS = {e: feature_counts(x["n_features"]) for e, x in EXPERIMENTS.items()}
DATASETS = sorted({d for x in EXPERIMENTS.values() for d in x["datasets"]})
RAW_FILES = RAW_FILE_ROLES
# Raw files already downloaded must still be the table's (size + mtime, else
# sha256), before any job reads them.
verify_raw_files(
    (
        (f"data/raw/{d}/{f}", checksum)
        for d in DATASETS
        for f, (_, checksum) in raw_files(TABLE[d]).items()
    ),
    ".snakemake/mlfsbench-raw-verified.json",
)
FOLD_BATCH = config.get("fold_batch") or 0
KEEP_PREDICTIONS = bool(config.get("keep_predictions"))


# The shared cache: from the split on, outputs are keyed by content (dataset,
# split protocol, fold batch, seed, method cache id), not by experiment, so two
# experiments asking for the same thing compute it once. Each experiment's
# tables are built from the shared results; these lookups map cache keys back
# to config entries and give every experiment its jobs, with the names its
# tables use (its split names and method ids).
SPLITS = {}  # split protocol id -> spec
ENTRIES = {"selector": {}, "classifier": {}, "transformation": {}}
GRID_OF = {}  # grid id -> expanded grid
JOBS = {}  # experiment -> list of (kind, keys, table labels)
FULL_POINT = {}  # (dataset, all-features selector key) -> its input's disc id
FULL_GRID = grid_id(["all"])  # the grid of the all-features jobs
GRID_OF[FULL_GRID] = ["all"]


def _add_entry(kind, dataset, entry):
    cid = cache_id(entry, dataset, kind)
    ENTRIES[kind][(dataset, cid)] = entry
    return cid


for _e, _x in EXPERIMENTS.items():
    # The "all" point runs once per dataset, split, classifier and input, not
    # once per selector: its rows join every selector's table.
    _grid, _full = split_full_point(GRIDS[_e])
    _gid = grid_id(_grid)
    GRID_OF[_gid] = _grid
    _jobs = JOBS[_e] = []
    for _d in _x["datasets"]:
        for _s, _spec in _x["splits"].items():
            _sid = split_id(_spec)
            # defaults filled, hold-out repeats left to the batches
            SPLITS[_sid] = protocol(_spec)
            for _b in fold_batches(n_folds(_spec), FOLD_BATCH):
                _base = dict(dataset=_d, split=_sid, batch=_b, seed=_x["seed"])
                for _t in _x.get("transformations", []):
                    if applies_to(_t, _d):
                        _tid = _add_entry("transformation", _d, _t)
                        _jobs.append(
                            (
                                "transform",
                                dict(_base, transform=_tid),
                                dict(split=_s, transformation=method_id(_t)),
                            )
                        )
                for _sel in _x["selectors"]:
                    if not applies_to(_sel, _d):
                        continue
                    _selid = _add_entry("selector", _d, _sel)
                    _labels = dict(split=_s, selector=method_id(_sel))
                    _jobs.append(("select", dict(_base, selector=_selid), _labels))
                    for _c in _x["classifiers"]:
                        if not applies_to(_c, _d):
                            continue
                        _cid = _add_entry("classifier", _d, _c)
                        _clabels = dict(_labels, classifier=method_id(_c))
                        if _grid:
                            _keys = dict(
                                _base, selector=_selid, classifier=_cid, grid=_gid
                            )
                            _jobs.append(("classify", _keys, _clabels))
                        if _full:
                            _disc = "none"
                            if classifier_input(_c) == "codes":
                                _disc = discretization_id(_sel.get("discretize"))
                            _fid = all_features_id(_disc)
                            FULL_POINT[(_d, _fid)] = _disc
                            _keys = dict(
                                _base,
                                selector=_fid,
                                classifier=_cid,
                                grid=FULL_GRID,
                            )
                            _jobs.append(("classify", _keys, _clabels))


def _alternatives(names):
    return "|".join(re.escape(n) for n in sorted(set(names))) or "none"


def _ids(kind):
    return _alternatives(cid for _, cid in ENTRIES[kind])


wildcard_constraints:
    experiment=_alternatives(EXPERIMENTS),
    dataset=_alternatives(TABLE),
    split=_alternatives(SPLITS),
    batch=r"folds\d+-\d+",
    seed=r"\d+",
    selector=_alternatives(
        [cid for _, cid in ENTRIES["selector"]] + [f for _, f in FULL_POINT]
    ),
    classifier=_ids("classifier"),
    transform=_ids("transformation"),
    grid=_alternatives(GRID_OF),
    disc=r"(equal-width|equal-frequency)-\d+",
    metric=_alternatives(GREATER_IS_BETTER),
    file=_alternatives(RAW_FILES),


# ----------------------------------------------------------- code versions
# Every rule's params carry the version of the code its output depends on:
# its script and the package code the script reaches, derived from the imports
# (mlfsbench.workflow.versions.rule_version). A select, transform or classify
# job adds its estimator's module, a claims job the selectors its artificial
# claims run: editing a selector's module reruns exactly that selector's jobs
# and what reads them.
def code(script, kind=None):
    path = os.path.join(workflow.basedir, "scripts", script)

    def version(wildcards):
        if kind is None:
            return rule_version(path)
        if kind == "claims":
            return rule_version(path, *claims_estimators(claims_file(wildcards)))
        key = "transform" if kind == "transformation" else kind
        entry = ENTRIES[kind][(wildcards.dataset, getattr(wildcards, key))]
        return rule_version(path, estimator_module(kind, entry["name"]))

    return version


# ------------------------------------------------------------------ download
def _raw_entry(wildcards):
    role = RAW_FILES[wildcards.file]
    url, sha256 = TABLE[wildcards.dataset].files()[role]
    return url, sha256


def raw_checksum(wildcards):
    """The table's checksum of the file: a sha256, or ``git-blob:<id>``."""
    return _raw_entry(wildcards)[1]


def raw_sha256(wildcards):
    """The sha256 ``ensure`` checks the downloaded file against: the table's;
    for a file the table knows only by its git blob id, which the download
    job verified before the file took its name, the sha256 of that file."""
    checksum = raw_checksum(wildcards)
    if not checksum.lower().startswith(GIT_BLOB):
        return checksum
    return file_sha256(
        rules.download.output.raw.format(dataset=wildcards.dataset, file=wildcards.file)
    )


# ------------------------------------------------------------------- prepare
def raw_inputs(wildcards):
    """The dataset's ARFF file(s) (whole, or train then test) or R data file
    (whole.rda), and its XML."""
    names = raw_files(TABLE[wildcards.dataset])
    files = [
        f for f in ("whole.arff", "whole.rda", "train.arff", "test.arff") if f in names
    ]
    raw = rules.download.output.raw
    out = {"arff": [raw.format(dataset=wildcards.dataset, file=f) for f in files]}
    if "labels.xml" in names:
        out["xml"] = raw.format(dataset=wildcards.dataset, file="labels.xml")
    return out


def dataset_targets(wildcards):
    """Number of real-valued targets (multi-target data) or None."""
    return TABLE[wildcards.dataset].targets


# --------------------------------------------------------------------- split
def split_spec(wildcards):
    return SPLITS[wildcards.split]


def folds(wildcards):
    return batch_folds(wildcards.batch)


def batch_threads(wildcards):
    """Threads of a batch job: one per fold (Snakemake caps it at --cores)."""
    return len(batch_folds(wildcards.batch))


# ---------------------------------------------------------------- selection
def selector_entry(wildcards):
    return ENTRIES["selector"][(wildcards.dataset, wildcards.selector)]


def selector_name(wildcards):
    return selector_entry(wildcards)["name"]


def selector_params(wildcards):
    return canonical(entry_params(selector_entry(wildcards), wildcards.dataset))


def selector_threads(wildcards):
    """Threads of a selection job: its folds, or the selector's ``n_jobs``."""
    params = entry_params(selector_entry(wildcards), wildcards.dataset)
    return max(int(params.get("n_jobs") or 1), batch_threads(wildcards))


def disc_params(wildcards):
    strategy, bins = wildcards.disc.rsplit("-", 1)
    return {"strategy": strategy, "bins": int(bins)}


def _disc_file(wildcards, entry):
    disc = discretization_id(entry.get("discretize"))
    return rules.discretize.output.disc.format(
        dataset=wildcards.dataset,
        split=wildcards.split,
        batch=wildcards.batch,
        disc=disc,
    )


def _common_inputs(wildcards):
    return {
        "data": rules.prepare.output.data.format(dataset=wildcards.dataset),
        "split": rules.split.output.split.format(
            dataset=wildcards.dataset, split=wildcards.split, batch=wildcards.batch
        ),
    }


def select_inputs(wildcards):
    out = _common_inputs(wildcards)
    entry = selector_entry(wildcards)
    disc = discretization_id(entry.get("discretize"))
    kind = input_kind({**entry, "params": entry_params(entry, wildcards.dataset)})
    if disc != "none" and kind == "discrete":
        out["disc"] = _disc_file(wildcards, entry)
    return out


def cache_keys(wildcards):
    """The keys a batch job writes into its records (cache ids)."""
    given = dict(wildcards.items())
    out = {"dataset": given["dataset"], "split": given["split"]}
    for key, name in _KEYS:
        if key in given:
            out[name] = given[key]
    return out


_KEYS = (("selector", "selector"), ("classifier", "classifier"))
_KEYS += (("transform", "transformation"),)


# ------------------------------------------------------------ transformation
def transform_entry(wildcards):
    return ENTRIES["transformation"][(wildcards.dataset, wildcards.transform)]


def transform_name(wildcards):
    return transform_entry(wildcards)["name"]


def transform_params(wildcards):
    return canonical(entry_params(transform_entry(wildcards), wildcards.dataset))


# ------------------------------------------------------------ classification
def classifier_entry(wildcards):
    return ENTRIES["classifier"][(wildcards.dataset, wildcards.classifier)]


def classifier_name(wildcards):
    return classifier_entry(wildcards)["name"]


def classifier_params(wildcards):
    return canonical(entry_params(classifier_entry(wildcards), wildcards.dataset))


def classify_inputs(wildcards):
    """Data, split, the selection (none for the all-features job) and, for a
    classifier that reads codes, the discretization's codes."""
    out = _common_inputs(wildcards)
    full = FULL_POINT.get((wildcards.dataset, wildcards.selector))
    if full is None:
        out["selection"] = rules.select.output.selection.format(**wildcards)
        if classifier_input(classifier_entry(wildcards)) == "codes":
            out["codes"] = _disc_file(wildcards, selector_entry(wildcards))
    elif full != "none":
        out["codes"] = rules.discretize.output.disc.format(
            dataset=wildcards.dataset,
            split=wildcards.split,
            batch=wildcards.batch,
            disc=full,
        )
    return out


def grid(wildcards):
    if "grid" in wildcards.keys():
        return GRID_OF[wildcards.grid]
    return GRIDS[wildcards.experiment]


def labels(wildcards):
    """Readable names of the experiment's selectors and classifiers, by id."""
    x = EXPERIMENTS[wildcards.experiment]
    return {**method_labels(x["selectors"]), **method_labels(x["classifiers"])}


def method_order(wildcards):
    """The experiment's selector ids in config order (table columns)."""
    return [method_id(e) for e in EXPERIMENTS[wildcards.experiment]["selectors"]]


def dataset_params(wildcards):
    """Parameters the experiment's selectors set per dataset, by id (figures)."""
    x = EXPERIMENTS[wildcards.experiment]
    return canonical(
        {
            method_id(e): e["dataset_params"]
            for e in x["selectors"]
            if e.get("dataset_params")
        }
    )


# -------------------------------------------------------------- resources
def dataset_mb(wildcards, attempt, threads=1):
    """Memory request grown with the prepared dataset's size, the job's
    parallel folds and the attempt."""
    path = f"data/prepared/{wildcards.dataset}.npz"
    size = os.path.getsize(path) / 2**20 if os.path.exists(path) else 50
    return int(min(1000 + 40 * size, 16000) * attempt * max(1, threads))


# ------------------------------------------------------------------ targets
def _outputs(experiment, kind):
    """(output files, table labels) of one experiment's jobs of one kind."""
    pattern = {
        "select": rules.select.output.selection,
        "classify": rules.classify.output.metrics,
        "transform": rules.transform.output.summary,
    }[kind]
    jobs = [(keys, labels) for k, keys, labels in JOBS[experiment] if k == kind]
    return [pattern.format(**keys) for keys, _ in jobs], [l for _, l in jobs]


def experiment_files(kind):
    def files(wildcards):
        return _outputs(wildcards.experiment, kind)[0]

    return files


def experiment_labels(kind):
    def labels(wildcards):
        return _outputs(wildcards.experiment, kind)[1]

    return labels


def experiment_datasets(wildcards):
    return EXPERIMENTS[wildcards.experiment]["datasets"]


def stats_metrics(experiment):
    return EXPERIMENTS[experiment]["stats"].get("metrics") or list(METRICS)


def stats_options(wildcards):
    opts = EXPERIMENTS[wildcards.experiment]["stats"]
    out = {"n_features": opts["n_features"], "alpha": opts["alpha"]}
    if opts.get("control"):
        out["control"] = opts["control"]
    if opts.get("round") is not None:
        out["round"] = opts["round"]
    return canonical(out)


def experiment_stats_files(wildcards):
    return [
        rules.stats.output.json.format(experiment=wildcards.experiment, metric=m)
        for m in stats_metrics(wildcards.experiment)
    ]


# -------------------------------------------------------------------- claims
def claims_file(wildcards):
    """The claims file of an experiment (its ``claims:`` entry)."""
    return EXPERIMENTS[wildcards.experiment]["claims"]


def experiment_config(wildcards):
    """An experiment's config, for the claims stage's method names."""
    return canonical(EXPERIMENTS[wildcards.experiment])


def claims_targets():
    """The verdict table of every experiment that has a claims file."""
    return [
        rules.claims.output.table.format(experiment=e)
        for e, x in EXPERIMENTS.items()
        if x.get("claims")
    ]


def headline_metric(wildcards):
    """The metric of an experiment's headline figure: its first compared one."""
    return stats_metrics(wildcards.experiment)[0]


def summary_inputs():
    """What the summary page shows: verdicts, CD diagrams, headline figures."""
    out = claims_targets()
    for e in EXPERIMENTS:
        out.append(rules.headline.output.png.format(experiment=e))
        out += [
            rules.stats.output.cd.format(experiment=e, metric=m)
            for m in stats_metrics(e)
        ]
        out += [
            rules.paper_table.output.html.format(experiment=e, metric=m)
            for m in stats_metrics(e)
        ]
    return out


def stats_files(wildcards):
    return [
        rules.prepare.output.stats.format(dataset=d)
        for d in EXPERIMENTS[wildcards.experiment]["datasets"]
    ]


def provenance_config(wildcards):
    """What the experiment's provenance records: its own config and the
    settings shared by all experiments."""
    shared = {k: v for k, v in config.items() if k not in ("experiments",)}
    return canonical(
        {
            **shared,
            "experiments": {wildcards.experiment: EXPERIMENTS[wildcards.experiment]},
        }
    )


def all_targets():
    out = claims_targets()
    out.append(rules.summary.output.html)
    for e, x in EXPERIMENTS.items():
        out += [
            rules.datasets_report.output.table.format(experiment=e),
            rules.provenance.output.text.format(experiment=e),
            rules.aggregate.output.metrics.format(experiment=e),
            rules.aggregate.output.summary.format(experiment=e),
            rules.ranks.output.table.format(experiment=e),
            rules.runtime.output.table.format(experiment=e),
            rules.stability.output.png.format(experiment=e),
        ]
        out += [
            rules.stats.output.cd.format(experiment=e, metric=m)
            for m in stats_metrics(e)
        ]
        out += [
            rules.paper_table.output.html.format(experiment=e, metric=m)
            for m in stats_metrics(e)
        ]
        if x.get("transformations"):
            out.append(rules.transformations_table.output.table.format(experiment=e))
        out += [
            getattr(rules.plot.output, ext).format(experiment=e, dataset=d)
            for d in x["datasets"]
            for ext in ("png", "pdf")
        ]
    return out
