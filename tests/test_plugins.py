"""Methods from another package, registered through entry points.

``tests/data/plugin`` is such a package: a selector, a classifier and a label
transformation declared in the groups ``mlfsbench.selectors``,
``mlfsbench.classifiers`` and ``mlfsbench.transformations``. The quick tests
put a hand-written distribution of it on ``sys.path``; the slow one installs
it with pip into a folder of its own (``--target``, so the test environment
is left as it was) and runs it through the command line and the tiny
workflow.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from mlfsbench.estimators import registry
from mlfsbench.workflow.runner import copy_workflow

from .conftest import REPO_ROOT, TEST_DATA

PLUGIN = TEST_DATA / "plugin"
MODULE = "mlfsbench_example_plugin"
BIN = Path(sys.executable).parent
ENTRY_POINTS = """\
[mlfsbench.selectors]
variance-rank = mlfsbench_example_plugin:VarianceRank

[mlfsbench.classifiers]
label-prior = mlfsbench_example_plugin:LabelPrior

[mlfsbench.transformations]
label-complement = mlfsbench_example_plugin:LabelComplement
"""


@pytest.fixture
def fresh_registry(monkeypatch, own_registry):
    """The built-ins registered, entry points not yet read; restored afterwards."""
    monkeypatch.setattr(registry, "_loaded", set())
    yield registry
    sys.modules.pop(MODULE, None)


def distribution(folder: Path, entry_points: str, *, module=True) -> Path:
    """A distribution as pip leaves it in ``folder``: module + dist-info."""
    folder.mkdir(parents=True, exist_ok=True)
    if module:
        shutil.copy(PLUGIN / f"{MODULE}.py", folder)
    info = folder / "mlfsbench_example_plugin-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: mlfsbench-example-plugin\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    return folder


def test_entry_points_add_methods_of_every_kind(tmp_path, monkeypatch,
                                                fresh_registry):
    monkeypatch.syspath_prepend(str(distribution(tmp_path / "site", ENTRY_POINTS)))
    assert "variance-rank" in registry.names("selector")
    assert "label-prior" in registry.names("classifier")
    assert "label-complement" in registry.names("transformation")
    assert "mim-br" in registry.names("selector")  # built-ins still there
    described = registry.describe()["selector"]["variance-rank"]
    assert described["class"] == f"{MODULE}.VarianceRank"
    assert described["parameters"] == {"n_features_to_select": None,
                                       "random_state": None}

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4)) * [1.0, 3.0, 0.1, 2.0]
    Y = rng.integers(0, 2, (30, 2))
    sel = registry.create("selector", "variance-rank", {"n_features_to_select": 2})
    assert sel.fit(X, Y).ranking_.tolist() == [1, 3, 0, 2]
    with pytest.raises(ValueError, match="n_features_to_select"):
        sel.set_params(n_features_to_select=-1).fit(X, Y)  # the base's contract
    clf = registry.create("classifier", "label-prior", {}, random_state=0).fit(X, Y)
    np.testing.assert_allclose(clf.predict_proba(X[:2]), [Y.mean(axis=0)] * 2)
    lc = registry.create("transformation", "label-complement").fit(Y)
    np.testing.assert_array_equal(lc.transform(Y), 1 - Y)


def test_a_broken_entry_point_is_named(tmp_path, monkeypatch, fresh_registry):
    broken = "[mlfsbench.selectors]\nghost = no_such_module:Ghost\n"
    monkeypatch.syspath_prepend(str(distribution(tmp_path / "site", broken,
                                                 module=False)))
    with pytest.raises(ImportError, match="entry point 'ghost'"):
        registry.names("selector")


def test_an_entry_point_cannot_take_a_built_in_name(tmp_path, monkeypatch,
                                                    fresh_registry):
    clash = f"[mlfsbench.selectors]\nmim-br = {MODULE}:VarianceRank\n"
    monkeypatch.syspath_prepend(str(distribution(tmp_path / "site", clash)))
    with pytest.raises(ValueError, match="'mim-br' is already registered"):
        registry.get("selector", "mim-br")


@pytest.mark.parametrize(("group", "target", "message"), [
    # issue 38 U4: such an entry point failed at the select job with "has no
    # parameter(s) random_state", naming neither the entry point nor the class
    ("selectors", "fractions:Fraction",
     "selector 'bad': Fraction is not a selector: it has no fit, no get_support "
     "and no random_state parameter; a selector is a scikit-learn estimator with "
     "fit, get_support and a random_state parameter (the fold's seed)"),
    ("selectors", "sklearn.feature_selection:VarianceThreshold",
     "selector 'bad': VarianceThreshold is not a selector: it has no "
     "random_state parameter"),
    ("classifiers", "sklearn.linear_model:LinearRegression",
     "classifier 'bad': LinearRegression is not a classifier: it has no "
     "predict_proba and no random_state parameter; a classifier is a "
     "scikit-learn estimator with fit, predict, predict_proba (or predict_path) "
     "and a random_state parameter"),
    ("transformations", "sklearn.preprocessing:StandardScaler", None),
    ("transformations", "fractions:Fraction",
     "transformation 'bad': Fraction is not a transformation: it has no fit and "
     "no transform"),
])
def test_an_entry_point_to_no_estimator_of_its_kind_is_named(
        group, target, message, tmp_path, monkeypatch, fresh_registry):
    ep = f"[mlfsbench.{group}]\nbad = {target}\n"
    monkeypatch.syspath_prepend(str(distribution(tmp_path / "site", ep)))
    kind = group[:-1]
    if message is None:  # a transformation needs no random_state
        assert registry.get(kind, "bad").__name__ == target.split(":")[1]
        return
    with pytest.raises(TypeError) as err:
        registry.names(kind)
    assert str(err.value).startswith(
        f"entry point 'bad' = '{target}' of group 'mlfsbench.{group}': {message}")


def test_a_config_naming_a_non_estimator_entry_point_fails_at_plan_time(
        tmp_path, monkeypatch, fresh_registry):
    from mlfsbench.workflow.checks import check_methods

    ep = "[mlfsbench.selectors]\nbad = fractions:Fraction\n"
    monkeypatch.syspath_prepend(str(distribution(tmp_path / "site", ep)))
    with pytest.raises(TypeError, match="entry point 'bad' = 'fractions:Fraction'"):
        check_methods({"selectors": [{"name": "bad"}]})


# ------------------------------------------------------------ installed by pip


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """The plugin pip-installed into a folder; the environment that sees it."""
    target = tmp_path_factory.mktemp("plugin-site")
    build = tmp_path_factory.mktemp("plugin-src")
    shutil.copytree(PLUGIN, build, dirs_exist_ok=True)  # builds write into it
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--no-build-isolation", "--no-index", "--target", str(target),
         str(build)],
        check=True, capture_output=True, text=True, timeout=600,
    )
    assert (target / f"{MODULE}.py").is_file()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(target), env.get("PYTHONPATH")) if p)
    return env


def mlfsbench(env, *args, cwd=None) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(BIN / "mlfsbench"), *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


@pytest.mark.slow
def test_installed_plugin_through_the_command_line(installed, shared_datasets):
    methods = json.loads(mlfsbench(installed, "methods", "--json").stdout)
    assert methods["selector"]["variance-rank"]["class"].startswith(MODULE)
    assert "label-prior" in methods["classifier"]
    assert "label-complement" in methods["transformation"]

    base = shared_datasets / "multi-label" / "emotions"
    arff, xml = base / "emotions.arff", base / "emotions.xml"
    out = json.loads(mlfsbench(installed, "select", str(arff), "--xml", str(xml),
                               "--method", "variance-rank", "--n-features", "3",
                               "--json").stdout)
    from mlfsbench.data import load_mulan

    X = load_mulan([arff], xml).dense_X()
    top = np.argsort(-X.var(axis=0), kind="mergesort")[:3]
    # the select stage's record: ranking (top 3), scores by feature index
    assert out["ranking"] == top.tolist()
    assert [out["scores"][i] for i in out["ranking"]] == pytest.approx(
        X.var(axis=0)[top].tolist(), rel=1e-12)
    assert len(out["features"]) == 3


@pytest.mark.slow
@pytest.mark.workflow
def test_installed_plugin_through_the_workflow(installed, mirror, tmp_path):
    workdir = copy_workflow(REPO_ROOT, tmp_path / "run")
    config = yaml.safe_load((REPO_ROOT / "config" / "tiny.yaml").read_text())
    experiment = config["experiments"]["tiny"]
    experiment["selectors"] = [{"name": "variance-rank", "id": "variance"}]
    experiment["classifiers"] = [{"name": "label-prior", "id": "prior"}]
    experiment["transformations"] = [{"name": "label-complement",
                                      "id": "complement"}]
    experiment["n_features"] = [1, 5]
    (workdir / "config" / "plugin.yaml").write_text(yaml.safe_dump(config))
    mlfsbench(installed, "run", "--cores", "2", "--configfile", "config/plugin.yaml",
              "--config", f"mirror={mirror}", cwd=workdir)

    from mlfsbench.data import Dataset
    from mlfsbench.io import read_selections
    from mlfsbench.workflow.folds import fold_data, load_fold

    results = workdir / "results" / "tiny"
    # the shared cache: emotions, the 2-fold split protocol, both folds, seed 0
    batch = workdir / "results/shared/emotions/kfold-k2-seed0/folds0-1"
    ds = Dataset.load(workdir / "data" / "prepared" / "emotions.npz")
    (selection,) = (batch / "seed0" / "select").glob("variance-rank*.json")
    records = {r["fold"]: r for r in read_selections(selection)}
    (labels,) = (batch / "seed0" / "labels").glob("label-complement*.npz")
    complement = np.load(labels)
    for fold in (0, 1):
        # the plugin's ranking: the fold's training features by variance
        train, test = load_fold(batch / "folds.npz", fold)
        X_train, _ = fold_data(ds, train, test)
        expected = np.argsort(-X_train.var(axis=0), kind="mergesort")
        assert records[fold]["ranking"] == expected.tolist()
        assert any(np.array_equal(complement[k], 1 - ds.Y[train])
                   for k in complement.files if k.startswith(f"{fold}/"))

    metrics = pd.read_csv(results / "tables" / "metrics.tsv", sep="\t",
                          dtype={"n_features": str})
    assert set(metrics["selector"]) == {"variance"}
    assert set(metrics["classifier"]) == {"prior"}
    by_k = metrics.pivot_table(index=["fold", "metric"], columns="n_features",
                               values="value")
    reduction = by_k.xs("feature_reduction", level="metric")
    np.testing.assert_allclose(reduction["1"], 100 - 100 / 72)  # emotions: 72
    np.testing.assert_allclose(reduction["5"], 100 - 500 / 72)
    # the label prior ignores the features: K = 1 and K = 5 predict the same
    quality = by_k.drop(index="feature_reduction", level="metric")
    np.testing.assert_array_equal(quality["1"], quality["5"])
    assert len(quality) > 10
