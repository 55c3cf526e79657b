# Config validation, wildcard constraints and the input functions of the rules.
import os
import re

from snakemake.utils import validate

from mlfsbench.workflow.config import (
    CONFIG_SCHEMA,
    applies_to,
    canonical,
    check_config,
    check_config_file,
    check_experiment,
    check_grid_fits,
    config_source,
    discretization_id,
    entry_params,
    feature_counts,
    input_kind,
    load_experiment_files,
    method_id,
    method_labels,
    prepared_feature_counts,
)
from mlfsbench.data import read_datasets_table
from mlfsbench.data.download import GIT_BLOB
from mlfsbench.data.rawfiles import RAW_FILE_ROLES, file_sha256, verify_raw_files
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER, METRICS
from mlfsbench.data.split import n_folds

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

SELECTORS = {
    e: {method_id(s): s for s in x["selectors"]} for e, x in EXPERIMENTS.items()
}
CLASSIFIERS = {
    e: {method_id(c): c for c in x["classifiers"]} for e, x in EXPERIMENTS.items()
}
TRANSFORMS = {
    e: {method_id(t): t for t in x.get("transformations", [])}
    for e, x in EXPERIMENTS.items()
}
GRIDS = {e: feature_counts(x["n_features"]) for e, x in EXPERIMENTS.items()}
DATASETS = sorted({d for x in EXPERIMENTS.values() for d in x["datasets"]})
RAW_FILES = RAW_FILE_ROLES
# Raw files already downloaded must still be the table's (size + mtime, else
# sha256), before any job reads them.
verify_raw_files(
    (
        (f"data/raw/{d}/{f}", TABLE[d].files()[role][1])
        for d in DATASETS
        for f, role in RAW_FILES.items()
        if role in TABLE[d].files()
    ),
    ".snakemake/mlfsbench-raw-verified.json",
)


def _alternatives(names):
    return "|".join(re.escape(n) for n in sorted(set(names)))


wildcard_constraints:
    experiment=_alternatives(EXPERIMENTS),
    dataset=_alternatives(TABLE),
    split=_alternatives(s for x in EXPERIMENTS.values() for s in x["splits"]),
    fold=r"\d+",
    selector=_alternatives(s for x in SELECTORS.values() for s in x),
    classifier=_alternatives(c for x in CLASSIFIERS.values() for c in x),
    transform=_alternatives(t for x in TRANSFORMS.values() for t in x) or "none",
    disc=r"(equal-width|equal-frequency)-\d+",
    metric=_alternatives(GREATER_IS_BETTER),
    file=_alternatives(RAW_FILES),


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
    """The dataset's ARFF file(s) (whole, or train then test) and its XML."""
    roles = TABLE[wildcards.dataset].files()
    files = ["train.arff", "test.arff"] if "train" in roles else ["whole.arff"]
    raw = rules.download.output.raw
    out = {"arff": [raw.format(dataset=wildcards.dataset, file=f) for f in files]}
    if "xml" in roles:
        out["xml"] = raw.format(dataset=wildcards.dataset, file="labels.xml")
    return out


def dataset_targets(wildcards):
    """Number of real-valued targets (multi-target data) or None."""
    return TABLE[wildcards.dataset].targets


# --------------------------------------------------------------------- split
def split_spec(wildcards):
    return canonical(EXPERIMENTS[wildcards.experiment]["splits"][wildcards.split])


# ---------------------------------------------------------------- selection
def selector_entry(wildcards):
    return SELECTORS[wildcards.experiment][wildcards.selector]


def selector_name(wildcards):
    return selector_entry(wildcards)["name"]


def selector_params(wildcards):
    return canonical(entry_params(selector_entry(wildcards), wildcards.dataset))


def selector_threads(wildcards):
    """Threads of a selection job: the selector's ``n_jobs`` parameter, if any."""
    params = entry_params(selector_entry(wildcards), wildcards.dataset)
    return int(params.get("n_jobs") or 1)


def disc_params(wildcards):
    strategy, bins = wildcards.disc.rsplit("-", 1)
    return {"strategy": strategy, "bins": int(bins)}


def select_inputs(wildcards):
    out = {
        "data": rules.prepare.output.data.format(**wildcards),
        "split": rules.split.output.split.format(**wildcards),
    }
    entry = selector_entry(wildcards)
    disc = discretization_id(entry.get("discretize"))
    kind = input_kind({**entry, "params": entry_params(entry, wildcards.dataset)})
    if disc != "none" and kind == "discrete":
        out["disc"] = rules.discretize.output.disc.format(disc=disc, **wildcards)
    return out


# ------------------------------------------------------------ transformation
def transform_entry(wildcards):
    return TRANSFORMS[wildcards.experiment][wildcards.transform]


def transform_name(wildcards):
    return transform_entry(wildcards)["name"]


def transform_params(wildcards):
    return canonical(entry_params(transform_entry(wildcards), wildcards.dataset))


def experiment_transform_files(wildcards):
    """The summary of every label transformation of one experiment."""
    e = wildcards.experiment
    x = EXPERIMENTS[e]
    return [
        rules.transform.output.summary.format(
            experiment=e, dataset=d, split=s, fold=f, transform=t
        )
        for d in x["datasets"]
        for s, spec in x["splits"].items()
        for f in range(n_folds(spec))
        for t, t_entry in TRANSFORMS[e].items()
        if applies_to(t_entry, d)
    ]


# ------------------------------------------------------------ classification
def classifier_entry(wildcards):
    return CLASSIFIERS[wildcards.experiment][wildcards.classifier]


def classifier_name(wildcards):
    return classifier_entry(wildcards)["name"]


def classifier_params(wildcards):
    return canonical(entry_params(classifier_entry(wildcards), wildcards.dataset))


def grid(wildcards):
    return GRIDS[wildcards.experiment]


def labels(wildcards):
    """Readable names of the experiment's selectors and classifiers, by id."""
    x = EXPERIMENTS[wildcards.experiment]
    return {**method_labels(x["selectors"]), **method_labels(x["classifiers"])}


def seed(wildcards):
    return EXPERIMENTS[wildcards.experiment]["seed"]


# -------------------------------------------------------------- resources
def dataset_mb(wildcards, attempt):
    """Memory request grown with the prepared dataset's size and the attempt."""
    path = f"data/prepared/{wildcards.dataset}.npz"
    size = os.path.getsize(path) / 2**20 if os.path.exists(path) else 50
    return int(min(1000 + 40 * size, 16000) * attempt)


# ------------------------------------------------------------------ targets
def experiment_metric_files(wildcards):
    """Every per-fold metric table of one experiment."""
    e = wildcards.experiment
    x = EXPERIMENTS[e]
    return [
        rules.evaluate.output.metrics.format(
            experiment=e, dataset=d, split=s, fold=f, selector=sel, classifier=clf
        )
        for d in x["datasets"]
        for s, spec in x["splits"].items()
        for f in range(n_folds(spec))
        for sel, sel_entry in SELECTORS[e].items()
        if applies_to(sel_entry, d)
        for clf, clf_entry in CLASSIFIERS[e].items()
        if applies_to(clf_entry, d)
    ]


def experiment_selection_files(wildcards):
    """Every selection record of one experiment."""
    e = wildcards.experiment
    x = EXPERIMENTS[e]
    return [
        rules.select.output.selection.format(
            experiment=e, dataset=d, split=s, fold=f, selector=sel
        )
        for d in x["datasets"]
        for s, spec in x["splits"].items()
        for f in range(n_folds(spec))
        for sel, sel_entry in SELECTORS[e].items()
        if applies_to(sel_entry, d)
    ]


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
    return out


def stats_files():
    return [rules.prepare.output.stats.format(dataset=d) for d in DATASETS]


def all_targets():
    out = [rules.datasets_report.output.table, rules.provenance.output.text]
    out += claims_targets()
    out.append(rules.summary.output.html)
    for e, x in EXPERIMENTS.items():
        out += [
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
        if TRANSFORMS[e]:
            out.append(rules.transformations_table.output.table.format(experiment=e))
        out += [
            getattr(rules.plot.output, ext).format(experiment=e, dataset=d)
            for d in x["datasets"]
            for ext in ("png", "pdf")
        ]
    return out
