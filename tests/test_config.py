"""Config identifiers, feature grids and method checks."""

from pathlib import Path

import jsonschema
import pytest
import yaml

from mlfsbench.data import read_datasets_table
from mlfsbench.workflow.config import (
    CONFIG_SCHEMA,
    check_experiment,
    check_methods,
    feature_counts,
    load_experiment_files,
    method_id,
)

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


SHIPPED = sorted(p.relative_to(REPO / "config").as_posix()
                 for p in (REPO / "config").rglob("*.yaml")
                 if "schemas" not in p.parts)


def load_schema():
    return yaml.safe_load(CONFIG_SCHEMA.read_text())


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_configs_are_valid(name, monkeypatch):
    monkeypatch.chdir(REPO)
    config = yaml.safe_load((REPO / "config" / name).read_text())
    if "experiments" not in config and "experiment_files" not in config:
        pytest.skip(f"{name} is an experiment file, checked through config.yaml")
    load_experiment_files(config)
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
