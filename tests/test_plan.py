"""The experiment plan (mlfsbench.workflow.plan) without Snakemake: job counts
of every shipped config, the shared all-features point, dataset
restrictions, fold batches and the input functions."""

from __future__ import annotations

import copy
import importlib
import sys
from collections import Counter
from types import SimpleNamespace

import pytest
import yaml

from mlfsbench.data.split import n_folds
from mlfsbench.workflow.grids import (
    all_features_id,
    dataset_feature_counts,
    grid_id,
    split_full_point,
)
from mlfsbench.workflow.ids import (
    applies_to,
    cache_id,
    classifier_input,
    discretization_id,
    input_kind,
    method_id,
    split_id,
)
from mlfsbench.workflow.plan import (
    FULL_GRID,
    batch_folds,
    cache_keys,
    fold_batches,
)

from .conftest import REPO_ROOT, plan_of


def load(name: str) -> dict:
    with open(REPO_ROOT / "config" / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(autouse=True)
def _repo_root(monkeypatch):
    # configs name their datasets table and experiment files from the root
    monkeypatch.chdir(REPO_ROOT)


def job_counts(plan) -> dict[str, int]:
    """Distinct jobs of each rule the plan's targets need, as a dry run
    schedules them (shared jobs once)."""
    jobs = {job.kind: set() for x in plan.jobs.values() for job in x}
    for x in plan.jobs.values():
        for job in x:
            jobs[job.kind].add(tuple(sorted(job.keys.items())))
    counts = {kind: len(keys) for kind, keys in jobs.items()}
    splits, discs = set(), set()
    for kind, keys in jobs.items():
        for key in keys:
            w = SimpleNamespace(**dict(key))
            splits.add((w.dataset, w.split, w.batch))
            disc = {"select": plan.select_codes, "classify": plan.classify_codes,
                    "transform": lambda w: None}[kind](w)
            if disc is not None:
                discs.add((w.dataset, w.split, w.batch, disc))
    counts.update(split=len(splits), discretize=len(discs))
    counts.update(dataset=len(plan.datasets))
    return {k: v for k, v in counts.items() if v}


def independent_counts(config: dict) -> dict[str, int]:
    """The same counts from the config's arithmetic, without the plan:
    selections per (dataset, protocol, batch, selector), classifications per
    selector and classifier on the grid without "all", plus one shared
    all-features job per (dataset, protocol, batch, classifier, input)."""
    select, classify, transform = set(), set(), set()
    for x in config["experiments"].values():
        for d in x["datasets"]:
            grid, full = split_full_point(dataset_feature_counts(x, d))
            for spec in x["splits"].values():
                for b in fold_batches(n_folds(spec), config.get("fold_batch")):
                    base = (d, split_id(spec), b, x["seed"])
                    transform.update(
                        (*base, cache_id(t, d, "transformation"))
                        for t in x.get("transformations", []) if applies_to(t, d))
                    for s in x["selectors"]:
                        if not applies_to(s, d):
                            continue
                        sid = cache_id(s, d, "selector")
                        select.add((*base, sid))
                        for c in x["classifiers"]:
                            if not applies_to(c, d):
                                continue
                            cid = cache_id(c, d, "classifier")
                            if grid:
                                classify.add((*base, sid, cid, grid_id(grid)))
                            if full:
                                disc = (discretization_id(s.get("discretize"))
                                        if classifier_input(c) == "codes" else "none")
                                classify.add((*base, all_features_id(disc), cid))
    out = {"select": len(select), "classify": len(classify),
           "transform": len(transform)}
    return {k: v for k, v in out.items() if v}


# Jobs of each rule in a dry run of the workflow before the plan module
# existed (commit 8312c2e: `snakemake -n --configfile <config>` on a checkout
# without data/ or results/, its "Job stats" table; every experiment of
# config.yaml is one of the five paper configs, none shares a job). Lee 2016
# and Sechidis 2019 then gained languagelog (and Lee slashdot): the dry run
# of that commit's workflow on the new configs gave the counts below
# (config.yaml 705 jobs: 38 downloads, 18 prepare). Experiments added since
# (Sechidis 2019's multi-target methods and sensitivity: +20 select, +20
# classify, +5 discretize; Doquire 2013's p sweep: +22 select, +22 classify;
# Lee 2016's |Y| sweep and lowest-entropy labels: +32 select, +32 classify)
# are counted here by hand and checked against the independent count below.
# Spolaôr 2013's random folds (Mulan's) no longer shared Li 2017's stratified
# folds on their four common datasets (+4 splits), until Li 2017's favoured
# folds became random too (its `split` reading): they share them again.
DRY_RUN = {
    "config.yaml": dict(dataset=18, split=34, discretize=25, select=284,
                        classify=322),
    "quick.yaml": dict(dataset=2, split=2, discretize=2, select=2, classify=4),
    "tiny.yaml": dict(dataset=1, split=1, discretize=1, select=1, classify=2),
    # the entries smoke.yaml lists; smoke_counts adds those of the registered
    # methods its all_registered runs besides
    "smoke.yaml": dict(dataset=3, split=3, discretize=3, select=34, classify=51,
                       transform=14),
    "papers/doquire2013.yaml": dict(dataset=3, split=3, select=31, classify=34),
    "papers/lee2016.yaml": dict(dataset=8, split=8, discretize=8, select=80,
                                classify=88),
    "papers/li2017.yaml": dict(dataset=4, split=4, discretize=4, select=28,
                               classify=32),
    "papers/sechidis2019.yaml": dict(dataset=13, split=13, discretize=13,
                                     select=105, classify=118),
    "papers/spolaor2013.yaml": dict(dataset=10, split=10, select=40, classify=50),
}


# The same with the readings the studies declare (issue 26): each experiment
# under its favoured options plus one variant per other option. config.yaml:
# 705 -> 914 jobs in the dry run (select 210 -> 213: doquire2013's extended
# grid searches 100 steps; classify 248 -> 397; and per variant aggregate,
# runtime, stats and claims, per study one readings job).
WITH_READINGS = {
    # (+20 select and classify of Sechidis 2019's multi-target and
    # sensitivity experiments, which declared no readings then, +22 of
    # doquire2013-pruning and +32 of lee2016-labels, which declare none;
    # issue 34: +18 select, +34 classify, the Doquire 2013 and Sechidis 2019
    # rows below; the FIMF labels reading: +12 select and classify, its
    # selections shared by li2017 and li2017-compare; the multi-target
    # part's kNN regression on raw features, favoured: +20 classify;
    # Doquire's ML-kNN k and scaling: +72 classify; Lee's glmfit favoured on
    # all 8 datasets: +41 classify; Li 2017's stratified folds, the variant
    # of its `split` reading: +4 splits and discretizations, +28 select, +32
    # classify; the `split` probes' stratified folds: Lee 2016 on genbase and
    # yeast, +2 splits and discretizations, +12 select, +14 classify;
    # Spolaor 2013 on its 10 datasets, +6 splits (4 are Li 2017's
    # stratified folds), +40 select, +50 classify; lee2016-labels' own
    # solver reading, glmfit favoured: +32 classify)
    "config.yaml": dict(DRY_RUN["config.yaml"], split=46, discretize=31,
                        select=400, classify=794),
    # grid: favoured full (K to every feature, the forward search to the
    # last feature): 3 selections and 3 x 3 classifications of their own;
    # k50 is the entries as written (shared with doquire2013-pruning's
    # mi-forward); extended (K = 1..100): 3 selections, 3 x 3
    # classifications; chi2: liu-setiono: 3 selections and their
    # classifications; ML-kNN's k and scaling, in doquire2013 and
    # doquire2013-pruning: 2 x (12 + 24) classifications, no selection
    "papers/doquire2013.yaml": dict(DRY_RUN["papers/doquire2013.yaml"],
                                    select=40, classify=127),
    # solver: irls-glmfit favoured on all 8 datasets (all features not on
    # bibtex and delicious), lbfgs the variant: 142 classify (101 when
    # glmfit ran as the variant on genbase and yeast only); the `split`
    # probe's stratified hold-outs on genbase and yeast: 2 splits and
    # discretizations, 6 x 2 selections, 7 x 2 classifications;
    # lee2016-labels' solver reading: its 32 classifications under each
    # solver
    "papers/lee2016.yaml": dict(DRY_RUN["papers/lee2016.yaml"], split=10,
                                discretize=10, select=92, classify=188),
    # favoured raw + per-figure grids (32), scaled (32), union grid (28);
    # FIMF with every label: 4 selections and their classifications; the
    # stratified folds (the `split` reading): 4 splits and discretizations,
    # 28 selections and 32 classifications of their own
    "papers/li2017.yaml": dict(DRY_RUN["papers/li2017.yaml"], split=8,
                               discretize=8, select=60, classify=128),
    # criterion: the favoured released-code makes group-jmi-rand the
    # group-jmi-rand-released entry (90 classify), paper adds its 8; the
    # other scaling 9 selectors x 8 datasets + 8 all-features. The
    # multi-target part's criterion: 5 selections and classifications; the
    # sensitivity part's criterion (10 selections) and scaling: 3 x 10
    # classifications (released/raw, paper/raw, released/scaled) where 10
    # (paper/scaled) ran before; FIMF with every label (8 + 8); the
    # multi-target kNN regression on raw features (5 x 4)
    "papers/sechidis2019.yaml": dict(DRY_RUN["papers/sechidis2019.yaml"],
                                     select=128, classify=251),
    # the `split` probe's stratified folds: 10 splits, 4 x 10 selections,
    # 5 x 10 classifications
    "papers/spolaor2013.yaml": dict(DRY_RUN["papers/spolaor2013.yaml"], split=20,
                                    select=80, classify=100),
}


def smoke_counts() -> dict[str, int]:
    """The jobs of config/smoke.yaml: DRY_RUN's, of the entries it lists, and
    those of every registered method its ``all_registered`` adds (each a
    registry name no experiment lists nor ``except`` names): a selector's
    selection and its classification on emotions (the all-features point is
    shared), a classifier's grid and all-features classifications on the two
    datasets of smoke-classifiers. A new method's module changes no count
    here."""
    from mlfsbench.estimators import registry

    raw = load("smoke.yaml")["experiments"]

    def added(kind: str, key: str, experiment: str) -> list[str]:
        listed = {e["name"] for x in raw.values() for e in x.get(key, [])}
        skip = set(raw[experiment]["all_registered"][key].get("except", []))
        return [n for n in registry.names(kind) if n not in listed | skip]

    selectors = len(added("selector", "selectors", "smoke-selectors"))
    classifiers = len(added("classifier", "classifiers", "smoke-classifiers"))
    listed = DRY_RUN["smoke.yaml"]
    return dict(listed, select=listed["select"] + selectors,
                classify=listed["classify"] + selectors + 2 * 2 * classifiers)


@pytest.mark.parametrize("name", sorted(DRY_RUN))
def test_job_counts_of_shipped_configs(name):
    config = load(name)
    shipped = smoke_counts() if name == "smoke.yaml" else DRY_RUN[name]
    for readings, expected in ((False, {}), (True, WITH_READINGS)):
        plan = plan_of(config, readings)
        counts = job_counts(plan)
        assert counts == expected.get(name, shipped)
        assert {k: counts[k] for k in ("select", "classify", "transform")
                if k in counts} == independent_counts(plan.config)


def smoke_names(plan, key: str) -> set[str]:
    return {e["name"] for x in plan.experiments.values() for e in x[key]}


def test_the_smoke_plan_runs_every_registered_method():
    from mlfsbench.estimators import registry

    plan = plan_of(load("smoke.yaml"))
    # knnmi-backward is quadratic in the number of features (its unit tests
    # cover it)
    assert set(registry.names("selector")) - smoke_names(plan, "selectors") == {
        "knnmi-backward"}
    assert set(registry.names("classifier")) <= smoke_names(plan, "classifiers")
    # every registered method is listed today: all_registered adds none
    listed = load("smoke.yaml")["experiments"]["smoke-selectors"]["selectors"]
    assert len(plan.experiments["smoke-selectors"]["selectors"]) == len(listed)
    assert "all_registered" not in plan.experiments["smoke-selectors"]


# A selector of its own module, as a newcomer writes it (docs/adding-a-selector.md).
NEW_SELECTOR = """\
import numpy as np

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors import BaseMultiLabelSelector


@register("selector", "column-range")
class ColumnRange(BaseMultiLabelSelector):
    input_kind = "continuous"

    def _fit(self, X, Y):
        X = np.asarray(X.todense() if hasattr(X, "todense") else X)
        return X.max(axis=0) - X.min(axis=0)
"""


def test_a_new_selector_module_joins_the_smoke_plan(tmp_path, monkeypatch,
                                                    own_registry):
    (tmp_path / "column_range.py").write_text(NEW_SELECTOR)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "column_range", raising=False)
    importlib.import_module("column_range")
    assert "column-range" in own_registry.names("selector")

    plan = plan_of(load("smoke.yaml"))
    entries = plan.experiments["smoke-selectors"]["selectors"]
    listed = load("smoke.yaml")["experiments"]["smoke-selectors"]["selectors"]
    assert len(entries) == len(listed) + 1
    assert entries[-1] == {"name": "column-range", "params": {},
                           "discretize": {"strategy": "equal-width", "bins": 5}}
    key = ("emotions", cache_id(entries[-1], "emotions", "selector"))
    assert key[1].startswith("column-range-")
    assert plan.entries["selector"][key] is entries[-1]
    # one selection and its classification on emotions more, nothing else:
    # the count the shipped-config test expects for it, without an edit
    listed = DRY_RUN["smoke.yaml"]
    assert job_counts(plan) == dict(listed, select=listed["select"] + 1,
                                    classify=listed["classify"] + 1)
    assert job_counts(plan) == smoke_counts()
    monkeypatch.delitem(sys.modules, "column_range")


def test_all_registered_leaves_out_what_the_config_lists_and_names_bad_names():
    from mlfsbench.estimators import registry

    config = load("tiny.yaml")
    config["experiments"]["tiny"]["all_registered"] = {
        "classifiers": {"except": ["knn-reg"]}}
    plan = plan_of(config)
    names = [e["name"] for e in plan.experiments["tiny"]["classifiers"]]
    assert names[0] == "mlknn"  # the entry as written keeps its parameters
    assert sorted(names) == sorted(set(registry.names("classifier")) - {"knn-reg"})
    assert names[1:] == sorted(names[1:])
    config["experiments"]["tiny"]["all_registered"] = {
        "selectors": {"except": ["knnmi-backwards"]}}
    with pytest.raises(ValueError, match=(
            r"^test: experiment 'tiny': all_registered\.selectors\.except: "
            r"unknown selector 'knnmi-backwards'; did you mean 'knnmi-backward'\?")):
        plan_of(config)


def keys_of(plan, experiment: str, kind: str) -> set:
    return {tuple(sorted(j.keys.items())) for j in plan.outputs(experiment, kind)}


def test_a_variant_shares_every_job_it_does_not_change():
    plan = plan_of(load("papers/li2017.yaml"))
    assert plan.variants["li2017"] == [
        ("li2017~mlknn-scale-scaled", "mlknn-scale", "scaled"),
        ("li2017~grid-union", "grid", "union"),
        ("li2017~fimf-labels-all", "fimf-labels", "all"),
        ("li2017~split-stratified", "split", "stratified")]
    assert set(plan.main_experiments) == {"li2017", "li2017-compare"}
    assert plan.study_of("li2017-compare~grid-union") == "li2017-compare"
    main = {k: keys_of(plan, "li2017", k) for k in ("select", "classify")}
    # scaling changes the classifier only: no selection of its own, the
    # classifications of every selector (28) and the all-features point (4)
    scaled = {k: keys_of(plan, "li2017~mlknn-scale-scaled", k) - main[k]
              for k in main}
    assert (len(scaled["select"]), len(scaled["classify"])) == (0, 32)
    # the grid changes the grid only: the all-features point is shared
    union = {k: keys_of(plan, "li2017~grid-union", k) - main[k] for k in main}
    assert (len(union["select"]), len(union["classify"])) == (0, 28)
    assert {dict(k)["grid"] for k in union["classify"]} == {
        grid_id(split_full_point(dataset_feature_counts(
            plan.experiments["li2017~grid-union"], "enron"))[0])}
    # the stratified folds change every job: 28 selections, 32
    # classifications of their own, on folds no other experiment shares
    strat = {k: keys_of(plan, "li2017~split-stratified", k) - main[k] for k in main}
    assert (len(strat["select"]), len(strat["classify"])) == (28, 32)
    assert {dict(k)["split"] for k in strat["select"]}.isdisjoint(
        {dict(k)["split"] for k in main["select"]})
    # the compare experiment's variants add nothing to li2017's
    both = set()
    for e in plan.experiments:
        if e.startswith("li2017~") or e == "li2017":
            both |= keys_of(plan, e, "classify")
    for e in ("li2017-compare", "li2017-compare~mlknn-scale-scaled",
              "li2017-compare~grid-union", "li2017-compare~fimf-labels-all",
              "li2017-compare~split-stratified"):
        assert keys_of(plan, e, "classify") <= both


def test_favoured_options_run_under_the_experiments_name():
    plan = plan_of(load("papers/li2017.yaml"))
    main = plan.experiments["li2017"]
    scaled = plan.experiments["li2017~mlknn-scale-scaled"]
    assert main["classifiers"][0]["params"] == {"k": 10, "s": 1.0, "scale": False}
    # the scaled option is the entry as written: today's cache id
    assert cache_id(scaled["classifiers"][0], "enron", "classifier") \
        == "mlknn-43d785ff"
    assert main["dataset_n_features"]["emotions"] == ["1..72", "all"]
    assert dataset_feature_counts(main, "medical")[:2] == [10, 20]
    assert dataset_feature_counts(plan.experiments["li2017~grid-union"],
                                  "medical")[:2] == [1, 2]
    assert "readings" not in main
    assert plan.readings["li2017"]["grid"]["favoured"] == "paper-figure"
    # the union grid is a probe (Sec. 5.3 states the grids): the flag reaches
    # the readings job's spec
    spec = plan.readings_spec(SimpleNamespace(experiment="li2017"))
    assert spec["readings"]["grid"]["probe"] is True
    assert "probe" not in spec["readings"]["mlknn-scale"]
    assert spec["variants"] == [["mlknn-scale", "scaled"], ["grid", "union"],
                                ["fimf-labels", "all"], ["split", "stratified"]]
    # the favoured folds are random (the paper names no stratification)
    (split,) = main["splits"].values()
    assert split["stratify"] is False
    (split,) = plan.experiments["li2017~split-stratified"]["splits"].values()
    assert split["stratify"] is True
    # the union of the per-dataset grids is the experiment's (tables, stability)
    assert plan.grids["li2017"][:3] == [1, 2, 3] and 300 in plan.grids["li2017"]


def test_config_yaml_is_the_five_studies():
    # the shared cache: the whole reproduction's jobs are its experiments'
    whole = job_counts(plan_of(load("config.yaml")))
    parts = Counter()
    for name in DRY_RUN:
        if name.startswith("papers/"):
            parts.update(job_counts(plan_of(load(name))))
    assert {k: parts[k] for k in ("select", "classify")} == {
        "select": whole["select"], "classify": whole["classify"]}


def two_datasets(**extra) -> dict:
    """Two datasets, three selectors (one restricted to emotions; ig-br reads
    raw features but has codes for the classifier), two classifiers (one
    reading the selector's codes), 5-fold CV."""
    return {
        "datasets_table": "config/datasets.tsv",
        **extra,
        "experiments": {"x": {
            "datasets": ["emotions", "scene"],
            "splits": {"cv": {"type": "kfold", "k": 5, "seed": 1}},
            "selectors": [
                {"name": "mim-br", "discretize": {"strategy": "equal-width",
                                                  "bins": 3}},
                {"name": "ig-br", "discretize": {"strategy": "equal-width",
                                                 "bins": 3}},
                {"name": "chi2-lp", "datasets": ["emotions"]},
            ],
            "classifiers": [{"name": "mlknn"},
                            {"name": "mlknn", "id": "codes", "input": "codes"}],
            "n_features": [2, 4, "all"],
            "seed": 7,
        }},
    }


def names(plan, experiment="x") -> dict[str, str]:
    """Method id -> registry name of an experiment's selectors."""
    return {method_id(e): e["name"]
            for e in plan.experiments[experiment]["selectors"]}


def test_the_all_features_point_is_shared_by_every_selector():
    plan = plan_of(two_datasets())
    name = names(plan)
    jobs = plan.outputs("x", "classify")
    full = [j for j in jobs if j.keys["grid"] == FULL_GRID]
    grid = [j for j in jobs if j.keys["grid"] != FULL_GRID]
    # per dataset: selectors x classifiers grid jobs (3 on emotions, 2 on scene)
    assert len(grid) == (3 + 2) * 2
    # the all-features rows join every selector's table ...
    assert len(full) == len(grid)
    assert Counter(name[j.labels["selector"]] for j in full) == Counter(
        {"mim-br": 4, "ig-br": 4, "chi2-lp": 2})
    # ... from one job per dataset, classifier and input: raw features for
    # mlknn; for the "codes" classifier the codes of each selector's
    # discretization, equal-width-3 shared by mim-br and ig-br
    distinct = {tuple(sorted(j.keys.items())) for j in full}
    keys = {(dict(k)["dataset"], dict(k)["selector"], dict(k)["classifier"])
            for k in distinct}
    assert len(distinct) == len(keys) == 5
    mlknn, codes = "mlknn", cache_id({"name": "mlknn", "input": "codes"}, "d",
                                     "classifier")
    chi2 = discretization_id({"strategy": "equal-width", "bins": 5})  # default
    assert keys == {
        (d, sel, c)
        for d in ("emotions", "scene")
        for sel, c in [("all-features", mlknn),
                       ("all-features-equal-width-3", codes)]
    } | {("emotions", f"all-features-{chi2}", codes)}
    assert plan.full_point == {
        ("emotions", "all-features"): "none",
        ("scene", "all-features"): "none",
        ("emotions", "all-features-equal-width-3"): "equal-width-3",
        ("scene", "all-features-equal-width-3"): "equal-width-3",
        ("emotions", f"all-features-{chi2}"): chi2,
    }
    assert plan.grid_of[FULL_GRID] == ["all"]
    assert plan.grid_of[jobs[0].keys["grid"]] == [2, 4]
    w = SimpleNamespace(**dict(next(iter(distinct))))
    assert plan.is_full_point(w)


def test_dataset_restrictions():
    plan = plan_of(two_datasets())
    select = plan.outputs("x", "select")
    name = names(plan)
    assert sorted((j.keys["dataset"], name[j.labels["selector"]])
                  for j in select) == [
        ("emotions", "chi2-lp"), ("emotions", "ig-br"), ("emotions", "mim-br"),
        ("scene", "ig-br"), ("scene", "mim-br")]
    # a classifier restricted to one dataset, too
    config = two_datasets()
    config["experiments"]["x"]["classifiers"][1]["datasets"] = ["scene"]
    classify = plan_of(config).outputs("x", "classify")
    assert Counter(j.keys["dataset"] for j in classify
                   if j.labels["classifier"] == "codes") == {"scene": 4}
    assert {(d, cid) for d, cid in plan.entries["selector"]
            if cid.startswith("chi2-lp")} == {
        ("emotions", cache_id(plan.experiments["x"]["selectors"][2], "emotions",
                              "selector"))}


def test_fold_batches_split_every_job():
    plan = plan_of(two_datasets(fold_batch=2))
    batches = [j.keys["batch"] for j in plan.outputs("x", "select")]
    assert Counter(batches) == {"folds0-1": 5, "folds2-3": 5, "folds4-4": 5}
    assert all(j.keys["seed"] == 7 for j in plan.jobs["x"])
    w = SimpleNamespace(batch="folds2-3")
    assert plan.folds(w) == [2, 3] and plan.batch_threads(w) == 2
    assert fold_batches(30) == ["folds0-29"]
    assert fold_batches(30, 10) == ["folds0-9", "folds10-19", "folds20-29"]
    assert fold_batches(5, 2) == ["folds0-1", "folds2-3", "folds4-4"]
    assert batch_folds("folds10-19") == list(range(10, 20))
    assert [f for b in fold_batches(7, 3) for f in batch_folds(b)] == list(range(7))


def test_jobs_keep_table_order_and_labels():
    plan = plan_of(two_datasets())
    jobs = plan.jobs["x"]
    name = names(plan)
    # per dataset and batch: each selector's selection, then its grid and
    # all-features classifications, classifier by classifier
    assert [(j.kind, name[j.labels["selector"]], j.keys["selector"][:3] == "all")
            for j in jobs[:5]] == [
        ("select", "mim-br", False), ("classify", "mim-br", False),
        ("classify", "mim-br", True), ("classify", "mim-br", False),
        ("classify", "mim-br", True)]
    mim = jobs[0].labels["selector"]
    assert jobs[0].labels == {"split": "cv", "selector": mim}
    assert jobs[1].labels == jobs[2].labels == {"split": "cv", "selector": mim,
                                                "classifier": "mlknn"}
    assert jobs[3].labels["classifier"] == "codes"
    sid = split_id({"type": "kfold", "k": 5, "seed": 1})
    assert set(plan.splits) == {sid}
    assert plan.splits[sid] == {"type": "kfold", "k": 5, "seed": 1,
                                "stratify": True}


def test_input_functions():
    plan = plan_of(two_datasets())
    sel = cache_id({"name": "mim-br", "discretize": {"strategy": "equal-width",
                                                     "bins": 3}},
                   "emotions", "selector")
    ig = cache_id({"name": "ig-br", "discretize": {"strategy": "equal-width",
                                                   "bins": 3}},
                  "emotions", "selector")
    codes = cache_id({"name": "mlknn", "input": "codes"}, "d", "classifier")
    base = dict(dataset="emotions", split="s", batch="folds0-4")
    w = SimpleNamespace(**base, selector=sel, classifier=codes)
    assert plan.selector_name(w) == "mim-br" and plan.selector_params(w) == {}
    assert plan.classifier_name(w) == "mlknn"
    # mim-br reads its codes; ig-br (continuous input) the raw features, but
    # the codes classifier after it reads its discretization's codes
    assert input_kind({"name": "ig-br"}) == "continuous"
    assert plan.select_codes(w) == "equal-width-3"
    w_ig = SimpleNamespace(**base, selector=ig, classifier=codes)
    assert plan.select_codes(w_ig) is None
    assert plan.classify_codes(w_ig) == "equal-width-3"
    # a codes classifier reads its selector's codes; the raw one none
    assert plan.classify_codes(w) == "equal-width-3"
    assert not plan.is_full_point(w)
    raw = SimpleNamespace(**base, selector=sel, classifier="mlknn")
    assert plan.classify_codes(raw) is None
    full = SimpleNamespace(**base, selector="all-features-equal-width-3",
                           classifier=codes)
    assert plan.is_full_point(full) and plan.classify_codes(full) == "equal-width-3"
    assert plan.disc_params(SimpleNamespace(disc="equal-frequency-10")) == {
        "strategy": "equal-frequency", "bins": 10}
    raw = "data/raw/{dataset}/{file}"
    assert plan.raw_inputs(SimpleNamespace(dataset="emotions"), raw) == {
        "arff": ["data/raw/emotions/train.arff", "data/raw/emotions/test.arff"],
        "xml": "data/raw/emotions/labels.xml"}
    # a table sha256 is what the download's ensure() checks
    w_raw = SimpleNamespace(dataset="emotions", file="train.arff")
    assert plan.raw_sha256(w_raw, raw) == plan.raw_checksum(w_raw)
    assert cache_keys({**base, "seed": "0", "selector": sel, "classifier": codes,
                       "grid": "g"}) == {"dataset": "emotions", "split": "s",
                                         "selector": sel, "classifier": codes}
    assert cache_keys({**base, "seed": "0", "transform": "br"}) == {
        "dataset": "emotions", "split": "s", "transformation": "br"}
    # readable names: two classifiers named mlknn, one with an id
    assert plan.labels(SimpleNamespace(experiment="x")) == {
        **{mid: n for mid, n in names(plan).items()},
        "mlknn": "mlknn #1", "codes": "codes"}


def test_unknown_stats_metric_fails():
    config = two_datasets()
    config["experiments"]["x"]["stats"] = {"metrics": ["accuracyy"]}
    with pytest.raises(ValueError, match="unknown stats metric 'accuracyy'"):
        plan_of(config)


def test_raw_files_of_the_plan():
    plan = plan_of(load("tiny.yaml"))
    files = plan.raw_files()
    assert sorted(path for path, _ in files) == [
        "data/raw/emotions/labels.xml", "data/raw/emotions/test.arff",
        "data/raw/emotions/train.arff"]
    assert all(len(checksum) >= 40 for _, checksum in files)


def test_an_option_swaps_a_selector_and_keeps_its_name_in_the_tables():
    config = two_datasets()
    config["experiments"]["x"]["readings"] = {"relevance": {
        "about": "the paper names no estimator", "favoured": "mi",
        "options": {"mi": {}, "gain": {"selectors": {"chi2-lp": {"name": "mim-br"}}}}}}
    plan = plan_of(config)
    assert list(plan.experiments) == ["x", "x~relevance-gain"]
    main = {j.labels["selector"]: j.keys["selector"]
            for j in plan.outputs("x", "select") if j.keys["dataset"] == "emotions"}
    swapped = {j.labels["selector"]: j.keys["selector"]
               for j in plan.outputs("x~relevance-gain", "select")
               if j.keys["dataset"] == "emotions"}
    # the entry keeps its table name (its id as written) and runs the other
    # selector, with its own discretization (the default: equal-width 5)
    assert set(swapped) == set(main)
    chi2 = next(k for k in main if k.startswith("chi2-lp"))
    assert main[chi2].startswith("chi2-lp") and swapped[chi2].startswith("mim-br-")
    assert swapped[chi2] not in main.values()
    assert {k: v for k, v in swapped.items() if k != chi2} == {
        k: v for k, v in main.items() if k != chi2}
    assert plan.study_of("x~relevance-gain") == "x" and plan.study_of("x") == "x"


def test_raw_sha256_of_a_git_blob_is_the_downloaded_files(tmp_path):
    """A ``git-blob:`` row is verified by the download; ensure() then checks
    the file's own sha256, read from the downloaded file."""
    import hashlib

    plan = plan_of(load("tiny.yaml"))
    spec = plan.table["emotions"]
    plan.table["emotions"] = spec.__class__(**{
        **spec.__dict__, "train_sha256": "git-blob:" + "0" * 40})
    (tmp_path / "emotions").mkdir()
    (tmp_path / "emotions" / "train.arff").write_bytes(b"@relation r\n")
    w = SimpleNamespace(dataset="emotions", file="train.arff")
    assert plan.raw_sha256(w, str(tmp_path / "{dataset}" / "{file}")) == \
        hashlib.sha256(b"@relation r\n").hexdigest()


def test_cached_results_are_every_experiments_per_fold_files():
    config = two_datasets()
    config["experiments"]["x"]["transformations"] = [{"name": "br"}]
    plan = plan_of(config)
    patterns = {"select": "s/{dataset}/{selector}",
                "classify": "c/{dataset}/{classifier}",
                "transform": "t/{dataset}/{transform}",
                "labels": "l/{dataset}/{transform}"}
    files = plan.cached_results(patterns)
    assert len(files) == len(set(files))
    expected = [patterns[k].format(**j.keys) for k in ("select", "classify")
                for j in plan.outputs("x", k)]
    expected += [patterns[k].format(**j.keys) for k in ("transform", "labels")
                 for j in plan.outputs("x", "transform")]
    assert files == list(dict.fromkeys(expected))
    assert [f[0] for f in files] == sorted((f[0] for f in files), key="sctl".index)
    assert {f.split("/")[1] for f in files} == {"emotions", "scene"}
    assert any(f.startswith("l/") for f in files)


def test_challenge_helpers():
    config = two_datasets()
    x = config["experiments"]["x"]
    x["selectors"].append({"name": "mim-br", "id": "mine", "challenger": True,
                           "discretize": {"strategy": "equal-width", "bins": 3}})
    config["experiments"]["y"] = copy.deepcopy(config["experiments"]["x"])
    config["experiments"]["y"]["selectors"].pop()
    plan = plan_of(config)
    # what exclude_unavailable records for a dataset the run could not get
    plan.experiments["x"]["unavailable"] = {"yeast": "download failed"}
    assert plan.challenger_map() == {"x": ["mine"], "y": []}
    assert plan.challenged == ["x"]
    w = SimpleNamespace(experiment="x")
    assert plan.challenger_ids(w) == ["mine"]
    assert plan.compared_metrics(w) == plan.stats_metrics("x")
    assert plan.unavailable_reasons() == {"x": "could not run: yeast (download failed)"}
    labels = plan.challenge_labels()
    assert labels["mine"] == "mine" and "mlknn" in labels


def test_code_version_adds_the_jobs_estimator_module():
    from mlfsbench.workflow.versions import estimator_module, rule_version

    plan = plan_of(two_datasets())
    script = REPO_ROOT / "scripts" / "select.py"
    sel = next(k for d, k in plan.entries["selector"] if d == "emotions")
    w = SimpleNamespace(dataset="emotions", selector=sel)
    name = plan.entry("selector", w)["name"]
    assert plan.code_version(script)(w) == rule_version(script)
    assert plan.code_version(script, "selector")(w) == rule_version(
        script, estimator_module("selector", name))
    assert plan.code_version(script, "selector")(w) != rule_version(script)


def test_the_paper_tables_read_the_printed_file_beside_the_claims_file():
    lee = plan_of(load("papers/lee2016.yaml"), readings=False)
    w = SimpleNamespace(experiment="lee2016")
    assert lee.printed_file(w) == ["config/papers/lee2016.printed.yaml"]
    digest = lee.printed_digest(w)
    assert list(digest) == ["config/papers/lee2016.printed.yaml"]
    assert len(digest["config/papers/lee2016.printed.yaml"]) == 64
    # an experiment without a claims file has no printed tables either
    plain = plan_of(two_datasets())
    assert plain.printed_file(SimpleNamespace(experiment="x")) == []
    assert plain.printed_digest(SimpleNamespace(experiment="x")) == {}


def test_method_aliases_map_registry_names_to_ids():
    plan = plan_of(load("papers/spolaor2013.yaml"), readings=False)
    aliases = plan.method_aliases(SimpleNamespace(experiment="spolaor2013"))
    assert aliases["ig-br"] == aliases["ig-br-72bc78c7"] == "ig-br-72bc78c7"
