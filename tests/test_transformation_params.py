"""The transformations' parameters are checked when the plan is made.

Every registered transformation declares scikit-learn
``_parameter_constraints`` for each of its parameters, so ``check_params``
(called on every configured entry before any job runs) refuses an invalid
value, naming the parameter, instead of the job failing when it runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mlfsbench.data import read_datasets_table
from mlfsbench.estimators import registry
from mlfsbench.workflow.checks import check_experiment, check_params

REPO = Path(__file__).resolve().parents[1]

NAMES = registry.names("transformation")

#: An invalid value of every parameter of every registered transformation: at
#: or past a bound where there is one. A new transformation (or parameter)
#: adds its line here; ``test_every_parameter_has_an_invalid_value`` says so.
INVALID = {
    ("ela", "empty"): "keep",
    ("entropy-labels", "n_labels"): -1,
    ("entropy-labels", "order"): "middle",
    ("granulation", "n_granules"): 0,
    ("granulation", "max_iter"): 0,
    ("granulation", "random_state"): "seed",
    ("label-groups", "pot"): (0.7, 0.2),
    ("label-groups", "noc"): 0,
    ("label-groups", "m"): 0,
    ("label-groups", "groups"): 3,
    ("label-groups", "metric"): "cosine",
    ("label-groups", "max_iter"): -1,
    ("label-groups", "random_state"): "seed",
    ("ppt", "p"): 0,
    ("ppt", "reassign"): "yes",
}

#: Further invalid values: the other side of a range, wrong types, booleans
#: for counts, malformed (low, high) ranges.
MORE_INVALID = [
    ("entropy-labels", "n_labels", 1.5),
    ("entropy-labels", "n_labels", True),
    ("granulation", "n_granules", 2.5),
    ("granulation", "n_granules", True),
    ("label-groups", "pot", 0.0),
    ("label-groups", "pot", 1.5),
    ("label-groups", "pot", (0.25, 0.5, 0.75)),
    ("label-groups", "noc", (3, 2)),
    ("label-groups", "noc", (0, 4)),
    ("label-groups", "noc", [4, 16, 32]),
    ("ppt", "p", -3),
]

#: Valid values other than the defaults (the shipped configs' among them).
VALID = [
    ("entropy-labels", {"n_labels": 3}),
    ("entropy-labels", {"n_labels": 0.5, "order": "lowest"}),
    ("granulation", {"n_granules": 2, "max_iter": 10, "random_state": 0}),
    ("label-groups", {"pot": 0.5, "noc": 4, "m": 3}),
    ("label-groups", {"pot": [0.25, 0.75], "noc": [4, 16]}),
    ("label-groups", {"groups": [[0, 1], [2]], "metric": "euclidean", "max_iter": 0}),
    ("ppt", {"p": 6, "reassign": True}),
    ("ela", {"empty": "label"}),
]


def _parameters(name: str) -> list[str]:
    return sorted(registry.parameters(registry.get("transformation", name)))


@pytest.mark.parametrize("name", NAMES)
def test_every_parameter_is_constrained(name):
    """Each parameter has its constraints (``br`` and ``lp`` have none)."""
    cls = registry.get("transformation", name)
    assert sorted(getattr(cls, "_parameter_constraints", {})) == _parameters(name)


@pytest.mark.parametrize("name", NAMES)
def test_defaults_pass(name):
    assert check_params("transformation", name, {}) is None


def test_every_parameter_has_an_invalid_value():
    expected = {(name, p) for name in NAMES for p in _parameters(name)}
    assert set(INVALID) == expected


@pytest.mark.parametrize(
    "name, param, value",
    [(n, p, v) for (n, p), v in INVALID.items()] + MORE_INVALID,
)
def test_an_invalid_value_is_refused_at_plan_time(name, param, value):
    problem = check_params("transformation", name, {param: value})
    assert problem is not None, (name, param, value)
    assert f"'{param}' parameter" in problem


@pytest.mark.parametrize("name, params", VALID)
def test_valid_values_pass(name, params):
    assert check_params("transformation", name, params) is None


def test_a_bad_transformation_parameter_stops_the_plan():
    """The smoke config's transformations with granulation's ``n_granules``
    set to 0: the experiment is refused, naming it, the entry and the
    parameter (before, the transform job failed when it ran)."""
    config = yaml.safe_load((REPO / "config/smoke.yaml").read_text())
    experiment = config["experiments"]["smoke-classifiers"]
    table = {s.name: s for s in read_datasets_table(REPO / "config/datasets.tsv")}
    check_experiment("smoke-classifiers", experiment, table)
    entry = next(e for e in experiment["transformations"]
                 if e["name"] == "granulation")
    entry["params"]["n_granules"] = 0
    with pytest.raises(ValueError, match=(
            r"experiment 'smoke-classifiers': transformations entry "
            r"'granulation.*': The 'n_granules' parameter of Granulation must be")):
        check_experiment("smoke-classifiers", experiment, table)
