"""Config identifiers, feature grids and method checks."""

from pathlib import Path

import jsonschema
import pytest
import yaml

from mlfsbench.data import read_datasets_table
from mlfsbench.workflow.checks import check_control, check_experiment, check_methods
from mlfsbench.workflow.config import (
    CONFIG_SCHEMA,
    check_config,
    check_config_file,
    load_experiment_files,
    schema_problem,
)
from mlfsbench.workflow.grids import (
    check_grid_fits,
    feature_counts,
    prepared_feature_counts,
)
from mlfsbench.workflow.ids import entry_params, method_id

REPO = Path(__file__).resolve().parents[1]


def test_method_id_changes_with_parameters_only():
    a = method_id({"name": "mlknn", "params": {"k": 10}})
    b = method_id({"name": "mlknn", "params": {"k": 5}})
    assert a != b and a.startswith("mlknn-") and b.startswith("mlknn-")
    assert method_id({"name": "mlknn", "params": {"k": 10}}) == a
    assert method_id({"name": "mlknn", "params": {}}) == "mlknn"
    assert method_id({"name": "mlknn", "id": "mine", "params": {"k": 1}}) == "mine"
    d1 = method_id({"name": "mim-br", "discretize": {"strategy": "equal-width",
                                                     "bins": 5}})
    d2 = method_id({"name": "mim-br", "discretize": {"strategy": "equal-width",
                                                     "bins": 3}})
    assert d1 != d2


@pytest.mark.parametrize("bad", [[0], ["1..x"], ["5..2"], [True], ["al"]])
def test_feature_counts_rejects(bad):
    with pytest.raises(ValueError):
        feature_counts(bad)


def test_check_methods_names_the_problem():
    with pytest.raises(ValueError, match="unknown selector 'nope'"):
        check_methods({"selectors": [{"name": "nope"}], "classifiers": []})
    with pytest.raises(ValueError, match="no parameter.*kk"):
        check_methods({"selectors": [], "classifiers": [
            {"name": "mlknn", "params": {"kk": 1}}]})
    with pytest.raises(ValueError, match="share the id"):
        check_methods({"selectors": [], "classifiers": [
            {"name": "mlknn"}, {"name": "mlknn"}]})


# Claims files (*.claims.yaml) and printed tables (*.printed.yaml) have their
# own schemas: tests/test_claims.py, tests/test_printed.py.
SHIPPED = sorted(p.relative_to(REPO / "config").as_posix()
                 for p in (REPO / "config").rglob("*.yaml")
                 if "schemas" not in p.parts
                 and not p.name.endswith((".claims.yaml", ".printed.yaml")))


def load_schema():
    return yaml.safe_load(CONFIG_SCHEMA.read_text())


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_configs_are_valid(name, monkeypatch):
    monkeypatch.chdir(REPO)
    config = yaml.safe_load((REPO / "config" / name).read_text())
    if not {"experiments", "experiment_files", "league"} & set(config):
        pytest.skip(f"{name} is an experiment file, checked through config.yaml")
    load_experiment_files(config)
    if "league" in config:  # its experiments, one per protocol
        from mlfsbench.workflow.league import expand_league

        expand_league(config, name)
    jsonschema.Draft202012Validator(load_schema()).validate(config)
    table = {s.name: s for s in read_datasets_table(REPO / "config/datasets.tsv")}
    for exp_name, experiment in config["experiments"].items():
        check_experiment(exp_name, experiment, table)


def tiny():
    return yaml.safe_load((REPO / "config/tiny.yaml").read_text())


def test_schema_rejects_unknown_keys():
    validator = jsonschema.Draft202012Validator(load_schema())
    config = tiny()
    config["experiments"]["tiny"]["selectors"][0]["paramz"] = {}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(config)
    config = tiny()
    config["experiments"]["tiny"]["classifiers"][0]["discretize"] = {}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(config)
    validator.validate(tiny())


def test_check_experiment_names_the_problem():
    table = {s.name: s for s in read_datasets_table(REPO / "config/datasets.tsv")}
    experiment = tiny()["experiments"]["tiny"]
    experiment["classifiers"][0]["datasets"] = ["yeast"]
    with pytest.raises(ValueError, match="experiment 'x'.*yeast"):
        check_experiment("x", experiment, table)
    experiment = tiny()["experiments"]["tiny"]
    experiment["datasets"] = ["nope"]
    with pytest.raises(ValueError, match="'nope' is not in the datasets table"):
        check_experiment("x", experiment, table)


def test_experiment_files_merge_and_reject_duplicates(tmp_path):
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(tiny()))
    config = {"experiments": {}, "experiment_files": [str(tmp_path / "a.yaml")]}
    assert list(load_experiment_files(config)["experiments"]) == ["tiny"]
    config = {"experiments": tiny()["experiments"],
              "experiment_files": [str(tmp_path / "a.yaml")]}
    with pytest.raises(ValueError, match="'tiny' defined in the config and in"):
        load_experiment_files(config)


def test_dataset_params_are_checked_and_change_the_id():
    table = {s.name: s for s in read_datasets_table(REPO / "config/datasets.tsv")}
    experiment = tiny()["experiments"]["tiny"]
    entry = experiment["classifiers"][0]
    before = method_id(entry)
    entry["dataset_params"] = {"emotions": {"k": 7}}
    assert method_id(entry) != before
    check_experiment("x", experiment, table)
    entry["dataset_params"] = {"emotions": {"kk": 7}}
    with pytest.raises(ValueError, match="no parameter.*kk"):
        check_experiment("x", experiment, table)
    entry["dataset_params"] = {"yeast": {"k": 7}}
    with pytest.raises(ValueError, match="yeast"):
        check_experiment("x", experiment, table)


def test_registry_imports_only_the_kind_asked_for():
    """A classify job must not pay for importing every selector module."""
    import subprocess
    import sys

    code = (
        "import sys; from mlfsbench.estimators import registry; "
        "registry.get('classifier', 'mlknn'); "
        "print(any(m.startswith('mlfsbench.estimators.selectors.') and m != "
        "'mlfsbench.estimators.selectors._base' for m in sys.modules)); "
        "registry.get('selector', 'mim-br'); "
        "print('mlfsbench.estimators.selectors.mim' in sys.modules or "
        "any(m.startswith('mlfsbench.estimators.selectors.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["False", "True"]


# ------------------------------------------- issue 14: early config errors
def _table():
    return {s.name: s for s in read_datasets_table(REPO / "config/datasets.tsv")}


@pytest.mark.parametrize("value", [-3, 0, 2.5, True])
def test_bad_n_features_to_select_names_experiment_and_entry(value):
    experiment = tiny()["experiments"]["tiny"]
    experiment["selectors"][0]["params"] = {"n_features_to_select": value}
    ident = method_id(experiment["selectors"][0])
    with pytest.raises(ValueError) as info:
        check_experiment("x", experiment, _table())
    message = str(info.value)
    assert message.startswith(f"experiment 'x': selectors entry {ident!r}")
    assert f"n_features_to_select must be a positive integer or null, got {value!r}" \
        in message


def test_bad_n_features_to_select_per_dataset_names_the_dataset():
    experiment = tiny()["experiments"]["tiny"]
    dataset = experiment["datasets"][0]
    experiment["selectors"][0]["dataset_params"] = {
        dataset: {"n_features_to_select": -3}}
    with pytest.raises(ValueError, match=f"on dataset '{dataset}'.*got -3"):
        check_experiment("x", experiment, _table())


@pytest.mark.parametrize("k", [0, -3])
def test_classifier_k_must_be_positive(k):
    experiment = tiny()["experiments"]["tiny"]
    entry = experiment["classifiers"][0]
    assert entry["name"] == "mlknn"
    entry["params"]["k"] = k
    with pytest.raises(ValueError, match=(
            f"experiment 'x': classifiers entry '{method_id(entry)}': "
            f"k must be a positive integer, got {k}")):
        check_experiment("x", experiment, _table())


def test_unknown_stats_control_is_rejected():
    experiment = tiny()["experiments"]["tiny"]
    experiment["stats"] = {"control": "nope"}
    with pytest.raises(ValueError, match="stats.control 'nope' is not one of its "
                                         "methods"):
        check_experiment("x", experiment, _table())
    experiment["stats"] = {"control": method_id(experiment["selectors"][0])}
    check_experiment("x", experiment, _table())


def test_paper_controls_are_methods(monkeypatch):
    # lee2016 names its control; it must stay valid.
    monkeypatch.chdir(REPO)
    config = load_experiment_files(
        yaml.safe_load((REPO / "config/config.yaml").read_text()))
    controls = [x["stats"]["control"] for x in config["experiments"].values()
                if x.get("stats", {}).get("control")]
    assert controls
    for name, experiment in config["experiments"].items():
        check_control(name, experiment)


def test_empty_config_file_is_named():
    with pytest.raises(ValueError, match=r"^my\.yaml: empty config file"):
        check_config_file(None, "my.yaml")
    with pytest.raises(ValueError, match=r"^my\.yaml: empty config file"):
        check_config_file({}, "my.yaml")


@pytest.mark.parametrize("config", [{"experiments": {}},
                                    {"experiments": None, "experiment_files": []},
                                    {"datasets_table": "config/datasets.tsv"}])
def test_config_without_experiments_names_the_file(config):
    load_experiment_files(config)
    with pytest.raises(ValueError, match=r"^my\.yaml: no experiments"):
        check_config(config, "my.yaml")


def test_grid_that_fits_no_dataset_is_rejected_when_the_count_is_known(tmp_path):
    experiment = tiny()["experiments"]["tiny"]
    dataset = experiment["datasets"][0]
    experiment["n_features"] = [500, "600..700:50"]
    check_grid_fits("x", experiment, {})  # unknown count: later
    (tmp_path / f"{dataset}.stats.json").write_text('{"features": 72}')
    counts = prepared_feature_counts(experiment, root=str(tmp_path))
    assert counts == {dataset: 72}
    with pytest.raises(ValueError, match=f"experiment 'x': no feature count .* "
                                         f"fits dataset '{dataset}', which has 72"):
        check_grid_fits("x", experiment, counts)
    experiment["n_features"] = [500, "all"]
    check_grid_fits("x", experiment, counts)


def test_u6_a_prepared_dataset_without_features_stops_the_plan(tmp_path):
    """Issue 38 U6: a dataset with 0 features was prepared and failed at
    select ("Found array with 0 feature(s)", no dataset named). Once
    prepared (the run's data stage), the plan refuses it before any job."""
    experiment = tiny()["experiments"]["tiny"]
    dataset = experiment["datasets"][0]
    experiment["n_features"] = [1, "all"]
    (tmp_path / f"{dataset}.stats.json").write_text('{"features": 0}')
    counts = prepared_feature_counts(experiment, root=str(tmp_path))
    with pytest.raises(ValueError, match=rf"^experiment 'x': dataset '{dataset}' has "
                       r"no features \(every attribute of its files is a label\): "
                       r"there is nothing to select from$"):
        check_grid_fits("x", experiment, counts)


def test_integral_float_and_int_give_one_id_and_one_param():
    a = {"name": "mlknn", "params": {"k": 10, "s": 1.0}}
    b = {"name": "mlknn", "params": {"k": 10.0, "s": 1}}
    assert method_id(a) == method_id(b)
    assert entry_params(a, "d") == entry_params(b, "d") == {"k": 10, "s": 1.0}
    assert method_id({"name": "mlknn", "params": {"k": 10, "s": 0.5}}) != method_id(a)


def test_shipped_ids_did_not_change():
    # tiny.yaml's ML-kNN ({k: 10, s: 1.0}, no explicit id) keeps its id.
    assert method_id({"name": "mlknn", "params": {"k": 10, "s": 1.0}}) \
        == "mlknn-43d785ff"


def test_split_and_cache_ids_are_keyed_by_content():
    from mlfsbench.workflow.ids import cache_id, split_id

    # the same protocol under two names, with and without the default seed
    assert split_id({"type": "kfold", "k": 10}) == split_id(
        {"type": "kfold", "k": 10, "seed": 0, "stratify": True}) == "kfold-k10-seed0"
    assert split_id({"type": "kfold", "k": 10, "stratify": False}) != split_id(
        {"type": "kfold", "k": 10})
    # hold-out repeats are not part of the protocol (the fold batch is)
    assert split_id({"type": "holdout", "test_size": 0.2, "repeats": 10}) == \
        split_id({"type": "holdout", "test_size": 0.2, "repeats": 30})
    entry = {"name": "lee2016", "id": "lee", "discretize": {
        "strategy": "equal-width", "bins": 2},
        "dataset_params": {"yeast": {"n_labels": 3}, "enron": {"n_labels": 5}}}
    # an explicit id names the entry in the tables, not in the cache; a
    # parameter of another dataset does not change this dataset's id
    def sel(e, dataset):
        return cache_id(e, dataset, "selector")

    assert sel(entry, "yeast") == sel({**entry, "id": "other"}, "yeast")
    changed = {**entry, "dataset_params": {"yeast": {"n_labels": 3},
                                           "enron": {"n_labels": 6}}}
    assert sel(changed, "yeast") == sel(entry, "yeast")
    assert sel(changed, "enron") != sel(entry, "enron")


def test_classifier_input_codes_needs_a_discretization():
    table = {s.name: s for s in read_datasets_table(REPO / "config/datasets.tsv")}
    experiment = tiny()["experiments"]["tiny"]
    experiment["classifiers"][0]["input"] = "codes"
    check_experiment("x", experiment, table)  # mim-br: equal-width 5 bins
    assert method_id(experiment["classifiers"][0]) != method_id(
        tiny()["experiments"]["tiny"]["classifiers"][0])
    experiment["selectors"].append({"name": "rf-br",
                                    "discretize": {"strategy": "none"}})
    with pytest.raises(ValueError, match="input: codes.*rf-br.*no discretization"):
        check_experiment("x", experiment, table)
    lee = yaml.safe_load((REPO / "config/papers/lee2016.yaml").read_text())
    assert [c["input"] for c in lee["experiments"]["lee2016"]["classifiers"]] == [
        "codes"]


# ------------------------------------------------------------------ readings
def with_readings(readings: dict) -> dict:
    """config/tiny.yaml's experiment with ``readings`` (its classifier, named
    by its registry name ``mlknn``, has a hashed id)."""
    config = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
    config["experiments"]["tiny"]["readings"] = readings
    return config


def plan_problem(config: dict, monkeypatch) -> str:
    """The first problem the workflow finds in ``config``: the schema's, else
    the plan's (its checks and the readings' expansion)."""
    from mlfsbench.workflow.plan import make_plan

    monkeypatch.chdir(REPO)
    problem = schema_problem(config)
    if problem:
        return problem
    try:
        make_plan(config)
    except ValueError as exc:
        return str(exc)
    return ""


SCALE = {"about": "the paper is silent", "favoured": "raw", "options": {
    "raw": {"classifiers": {"mlknn": {"params": {"scale": False}}}},
    "scaled": {}}}


def test_readings_are_valid_and_expand(monkeypatch):
    assert plan_problem(with_readings({"mlknn-scale": SCALE}), monkeypatch) == ""


def test_w2_readings_whose_variants_share_a_name_are_refused(monkeypatch):
    """Issue 38 W2: reading ``a-b`` option ``c`` and reading ``a`` option
    ``b-c`` both ran as ``tiny~a-b-c``: one run stood for both."""
    readings = {"a-b": {"about": "", "favoured": "x", "options": {"x": {}, "c": {}}},
                "a": {"about": "", "favoured": "y", "probe": True,
                      "options": {"y": {}, "b-c": {}}}}
    assert plan_problem(with_readings(readings), monkeypatch) == (
        "experiment 'tiny': reading 'a-b' option 'c' and reading 'a' option "
        "'b-c' would both run as the variant 'tiny~a-b-c'; rename one of the "
        "readings or options")
    # a favoured option runs no variant: no clash
    readings["a"]["favoured"] = "b-c"
    readings["a"]["options"] = {"b-c": {}, "y": {}}
    assert plan_problem(with_readings(readings), monkeypatch) == ""


def test_w2_a_variant_named_like_a_configured_experiment_is_refused():
    from mlfsbench.workflow.readings import expand_readings

    # the schema keeps '~' out of experiment names; the expansion checks too
    x = {"n_features": [1], "readings": {"grid": {"about": "", "favoured": "a",
                                                  "options": {"a": {}, "b": {}}}}}
    with pytest.raises(ValueError, match=r"^experiment 'e': reading 'grid' option "
                       r"'b' runs as the variant 'e~grid-b', which is also the "
                       r"name of a configured experiment; rename one of them$"):
        expand_readings({"e": x, "e~grid-b": {"n_features": [2]}})


@pytest.mark.parametrize("change, message", [
    # favoured names no option
    ({"favoured": "rough"}, "experiment 'tiny': reading 'mlknn-scale' favours "
     "'rough', which is not one of its options (raw, scaled)"),
    # favoured missing
    ({"favoured": None}, "experiments.tiny.readings.mlknn-scale: 'favoured' is "
     "a required property"),
    # an override of an entry the experiment does not have
    ({"options": {"raw": {"classifiers": {"knn": {"params": {"scale": False}}}},
                  "scaled": {}}},
     "experiment 'tiny': reading 'mlknn-scale', option 'raw': classifiers has "
     "no entry 'knn' (its ids: mlknn-43d785ff, mlknn)"),
    # an unknown kind of override (a misspelt key)
    ({"options": {"raw": {"classifier": {"mlknn": {"params": {}}}}, "scaled": {}}},
     "experiments.tiny.readings.mlknn-scale.options.raw: Additional properties "
     "are not allowed ('classifier' was unexpected)"),
    # a parameter the classifier does not have: the variant's check names it
    ({"favoured": "scaled",
      "options": {"raw": {"classifiers": {"mlknn": {"params": {"scal": False}}}},
                  "scaled": {}}},
     "experiment 'tiny~mlknn-scale-raw': config classifiers: classifier "
     "'mlknn' has no parameter(s) scal"),
    # one option only
    ({"options": {"raw": {}}}, "experiments.tiny.readings.mlknn-scale.options: "
     "{'raw': {}} does not have enough properties"),
    # a per-dataset grid of a dataset the experiment does not run
    ({"options": {"raw": {"dataset_n_features": {"yeast": [1]}}, "scaled": {}}},
     "experiment 'tiny': reading 'mlknn-scale', option 'raw': dataset_n_features "
     "names dataset(s) yeast that the experiment does not list"),
    # a split the experiment does not have
    ({"options": {"raw": {"splits": {"cv5": {"stratify": False}}}, "scaled": {}}},
     "experiment 'tiny': reading 'mlknn-scale', option 'raw': splits has no "
     "split 'cv5' (the experiment's: "),
    # a split's key that an option may not change
    ({"options": {"raw": {"splits": {"cv": {"k": 5}}}, "scaled": {}}},
     "experiments.tiny.readings.mlknn-scale.options.raw.splits.cv: Additional "
     "properties are not allowed ('k' was unexpected)"),
    # a dataset subset with a dataset the experiment does not run
    ({"options": {"raw": {"datasets": ["emotions", "yeast"]}, "scaled": {}}},
     "experiment 'tiny': reading 'mlknn-scale', option 'raw': datasets "
     "names dataset(s) yeast that the experiment does not list"),
])
def test_readings_problems_are_named(change, message, monkeypatch):
    reading = {**SCALE, **change}
    if reading["favoured"] is None:
        del reading["favoured"]
    problem = plan_problem(with_readings({"mlknn-scale": reading}), monkeypatch)
    assert problem.startswith(message), problem


@pytest.mark.parametrize("probe, message", [
    (True, ""),
    (False, ""),
    # the schema: a boolean only
    ("yes", "experiments.tiny.readings.mlknn-scale.probe: 'yes' is not of type "
     "'boolean'"),
    (1, "experiments.tiny.readings.mlknn-scale.probe: 1 is not of type "
     "'boolean'"),
    (None, "experiments.tiny.readings.mlknn-scale.probe: None is not of type "
     "'boolean'"),
])
def test_a_reading_may_be_marked_a_probe(probe, message, monkeypatch):
    problem = plan_problem(with_readings({"mlknn-scale": {**SCALE, "probe": probe}}),
                           monkeypatch)
    assert problem.startswith(message) if message else problem == "", problem


def test_a_probe_flag_other_than_a_boolean_is_refused_without_the_schema():
    from mlfsbench.workflow.readings import check_readings

    x = {"datasets": ["d"], "classifiers": [{"name": "mlknn"}],
         "readings": {"grid": {"about": "", "favoured": "a", "probe": "true",
                               "options": {"a": {}, "b": {}}}}}
    with pytest.raises(ValueError, match=r"^experiment 'e': reading 'grid' has "
                       r"probe 'true'; probe is true \(a robustness probe\) or "
                       r"false \(a reading\)$"):
        check_readings("e", x)
    x["readings"]["grid"]["probe"] = True
    check_readings("e", x)  # accepted


def test_the_probe_flag_reaches_the_readings_spec(monkeypatch):
    from types import SimpleNamespace

    from mlfsbench.workflow.plan import make_plan

    monkeypatch.chdir(REPO)
    config = with_readings({"mlknn-scale": {**SCALE, "probe": True}})
    jsonschema.validate(config, yaml.safe_load(CONFIG_SCHEMA.read_text()))
    spec = make_plan(config).readings_spec(SimpleNamespace(experiment="tiny"))
    assert spec["readings"]["mlknn-scale"]["probe"] is True
    assert spec["variants"] == [["mlknn-scale", "scaled"]]
    # a reading without the flag has none in its spec (no default is filled)
    config = with_readings({"mlknn-scale": SCALE})
    spec = make_plan(config).readings_spec(SimpleNamespace(experiment="tiny"))
    assert "probe" not in spec["readings"]["mlknn-scale"]
    # Li 2017's union grid is a probe (Sec. 5.3 states the grids), its
    # scaling a reading
    li = yaml.safe_load((REPO / "config/papers/li2017.yaml").read_text())
    for name, x in li["experiments"].items():
        assert x["readings"]["grid"]["probe"] is True, name
        assert "probe" not in x["readings"]["mlknn-scale"], name


def test_an_option_may_run_on_a_subset_of_the_datasets():
    from mlfsbench.workflow.readings import apply_option, expand_readings

    x = {"datasets": ["a", "b", "c"], "n_features": [1],
         "dataset_n_features": {"b": [2]},
         "selectors": [{"id": "s", "name": "mim-br",
                        "dataset_params": {"a": {"x": 1}, "b": {"x": 2}}}],
         "readings": {"solver": {
        "about": "", "favoured": "fast", "options": {
            "fast": {}, "slow": {"datasets": ["c", "a"]}}}}}
    runs, _ = expand_readings({"e": x})
    assert runs["e"]["datasets"] == ["a", "b", "c"]
    slow = runs["e~solver-slow"]
    assert slow["datasets"] == ["a", "c"]  # in the experiment's order
    # what names a dropped dataset goes with it
    assert slow["selectors"][0]["dataset_params"] == {"a": {"x": 1}}
    assert slow["dataset_n_features"] == {}
    assert runs["e"]["selectors"][0]["dataset_params"] == {"a": {"x": 1},
                                                           "b": {"x": 2}}
    assert apply_option(x, {})["datasets"] == ["a", "b", "c"]


def test_a_split_reading_runs_its_folds_and_shares_the_favoured_ones(monkeypatch):
    """A reading of the split (random or stratified folds) changes the split
    protocol of its variant only; the other option's jobs are the favoured
    experiment's, not computed twice."""
    from mlfsbench.workflow.plan import make_plan

    monkeypatch.chdir(REPO)
    config = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
    x = config["experiments"]["tiny"]
    (name, spec), = x["splits"].items()
    x["splits"][name] = {**spec, "stratify": False}
    x["readings"] = {"split": {"about": "", "favoured": "random", "options": {
        "random": {}, "stratified": {"splits": {name: {"stratify": True}}}}}}
    jsonschema.validate(config, yaml.safe_load(CONFIG_SCHEMA.read_text()))
    plan = make_plan(config)
    ids = {e: {j.keys["split"] for j in plan.outputs(e, "select")}
           for e in ("tiny", "tiny~split-stratified")}
    assert len(ids["tiny"]) == len(ids["tiny~split-stratified"]) == 1
    assert ids["tiny"] != ids["tiny~split-stratified"]
    (random,), (stratified,) = ids["tiny"], ids["tiny~split-stratified"]
    assert plan.splits[random]["stratify"] is False
    assert plan.splits[stratified]["stratify"] is True
    # the stratified variant's jobs are those of the experiment run stratified
    del x["readings"]
    x["splits"][name]["stratify"] = True
    plain = make_plan(config)

    def keys(p, experiment):
        return {tuple(sorted(j.keys.items()))
                for j in p.outputs(experiment, "classify")}

    assert keys(plain, "tiny") == keys(plan, "tiny~split-stratified")
    assert keys(plain, "tiny").isdisjoint(keys(plan, "tiny"))


def test_dataset_n_features_replaces_the_grid_on_its_dataset(monkeypatch):
    from mlfsbench.workflow.plan import make_plan

    monkeypatch.chdir(REPO)
    config = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
    config["experiments"]["tiny"]["dataset_n_features"] = {"emotions": ["2..3", "all"]}
    plan = make_plan(config)
    grids = {tuple(plan.grid_of[j.keys["grid"]])
             for j in plan.outputs("tiny", "classify")}
    assert grids == {(2, 3), ("all",)}
    assert plan.grids["tiny"] == [2, 3, "all"]
    config["experiments"]["tiny"]["dataset_n_features"] = {"yeast": [1]}
    with pytest.raises(ValueError, match="dataset_n_features names dataset.*yeast"):
        make_plan(config)
    config["experiments"]["tiny"]["dataset_n_features"] = {"emotions": ["3..1"]}
    with pytest.raises(ValueError, match="invalid feature-count range '3..1'"):
        make_plan(config)
