# Config validation, wildcard constraints and the input functions of the rules.
import os
import re

from snakemake.utils import validate

from mlfsbench.config import (
    canonical,
    check_methods,
    discretization_id,
    feature_counts,
    method_id,
)
from mlfsbench.data import read_datasets_table
from mlfsbench.split import n_folds

validate(config, "../config/schemas/config.schema.yaml")
check_methods(config)

TABLE = {spec.name: spec for spec in read_datasets_table(config["datasets_table"])}
DATASETS = list(config["datasets"])
SPLITS = config["splits"]
SELECTORS = {method_id(e): e for e in config["selectors"]}
CLASSIFIERS = {method_id(e): e for e in config["classifiers"]}
GRID = feature_counts(config["n_features"])
RAW_FILES = {"whole.arff": "arff", "train.arff": "train", "test.arff": "test"}
RAW_FILES["labels.xml"] = "xml"

for _name in DATASETS:
    if _name not in TABLE:
        raise ValueError(
            f"config datasets: {_name!r} is not a row of {config['datasets_table']} "
            f"(known: {', '.join(sorted(TABLE))})"
        )
    for _split, _spec in SPLITS.items():
        if _spec["type"] == "given" and TABLE[_name].test_url is None:
            raise ValueError(
                f"config splits: {_split!r} uses the given train/test files, but "
                f"dataset {_name!r} has no train_url/test_url"
            )


def _alternatives(names):
    return "|".join(re.escape(n) for n in sorted(names))


wildcard_constraints:
    dataset=_alternatives(TABLE),
    split=_alternatives(SPLITS),
    fold=r"\d+",
    selector=_alternatives(SELECTORS),
    classifier=_alternatives(CLASSIFIERS),
    disc=r"(equal-width|equal-frequency)-\d+",
    file=_alternatives(RAW_FILES),


# ------------------------------------------------------------------ download
def _raw_entry(wildcards):
    role = RAW_FILES[wildcards.file]
    url, sha256 = TABLE[wildcards.dataset].files()[role]
    return url, sha256


def raw_url(wildcards):
    return _raw_entry(wildcards)[0]


def raw_sha256(wildcards):
    return _raw_entry(wildcards)[1]


# ------------------------------------------------------------------- prepare
def raw_inputs(wildcards):
    """The dataset's ARFF file(s) (whole, or train then test) and its XML."""
    spec = TABLE[wildcards.dataset]
    roles = spec.files()
    files = ["train.arff", "test.arff"] if "train" in roles else ["whole.arff"]
    raw = rules.download.output.raw
    out = {"arff": [raw.format(dataset=wildcards.dataset, file=f) for f in files]}
    if "xml" in roles:
        out["xml"] = raw.format(dataset=wildcards.dataset, file="labels.xml")
    return out


# --------------------------------------------------------------------- split
def split_spec(wildcards):
    return canonical(SPLITS[wildcards.split])


# ---------------------------------------------------------------- selection
def selector_entry(wildcards):
    return SELECTORS[wildcards.selector]


def selector_name(wildcards):
    return selector_entry(wildcards)["name"]


def selector_params(wildcards):
    return canonical(selector_entry(wildcards).get("params") or {})


def selector_disc(wildcards):
    return discretization_id(selector_entry(wildcards).get("discretize"))


def disc_params(wildcards):
    strategy, bins = wildcards.disc.rsplit("-", 1)
    return {"strategy": strategy, "bins": int(bins)}


def select_inputs(wildcards):
    out = {
        "data": rules.prepare.output.data.format(**wildcards),
        "split": rules.split.output.split.format(**wildcards),
    }
    disc = selector_disc(wildcards)
    if disc != "none":
        out["disc"] = rules.discretize.output.disc.format(disc=disc, **wildcards)
    return out


# ------------------------------------------------------------ classification
def classifier_name(wildcards):
    return CLASSIFIERS[wildcards.classifier]["name"]


def classifier_params(wildcards):
    return canonical(CLASSIFIERS[wildcards.classifier].get("params") or {})


# -------------------------------------------------------------- resources
def dataset_mb(wildcards, attempt):
    """Memory request grown with the prepared dataset's size and the attempt."""
    path = f"data/prepared/{wildcards.dataset}.npz"
    size = os.path.getsize(path) / 2**20 if os.path.exists(path) else 50
    return int(min(1000 + 40 * size, 16000) * attempt)


# ------------------------------------------------------------------ targets
def metric_files():
    return [
        f"results/{d}/{s}/fold{f}/metrics/{sel}/{clf}.tsv"
        for d in DATASETS
        for s, spec in SPLITS.items()
        for f in range(n_folds(spec))
        for sel in SELECTORS
        for clf in CLASSIFIERS
    ]


def stats_files():
    return [f"data/prepared/{d}.stats.json" for d in DATASETS]


def all_targets():
    return [
        "results/tables/metrics.tsv",
        "results/tables/summary.tsv",
        "results/tables/datasets.tsv",
        *[f"results/plots/{d}.{ext}" for d in DATASETS for ext in ("png", "pdf")],
    ]
