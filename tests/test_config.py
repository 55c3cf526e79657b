"""Config identifiers, feature grids and method checks."""

from pathlib import Path

import jsonschema
import pytest
import yaml

from mlfsbench.config import check_methods, feature_counts, method_id

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


@pytest.mark.parametrize("name", ["config.yaml", "quick.yaml", "tiny.yaml"])
def test_shipped_configs_are_valid(name):
    schema = yaml.safe_load((REPO / "config/schemas/config.schema.yaml").read_text())
    config = yaml.safe_load((REPO / "config" / name).read_text())
    jsonschema.validate(config, schema)
    check_methods(config)
    assert feature_counts(config["n_features"])


def test_schema_rejects_unknown_keys():
    schema = yaml.safe_load((REPO / "config/schemas/config.schema.yaml").read_text())
    config = yaml.safe_load((REPO / "config/tiny.yaml").read_text())
    config["selectors"][0]["paramz"] = {}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(config, schema)
