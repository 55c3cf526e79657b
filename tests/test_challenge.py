"""Challenge mode (issue 28): a method of one's own against the studies.

Config (``challenger: true``, ``extends: <study>``), the plan's challengers,
claims judged on the paper's methods only, the ``mlfsbench challenge``
command, and the cache reused from a copy (the slow workflow tests at the
end)."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml

from mlfsbench import cli
from mlfsbench.evaluation.metrics import METRICS
from mlfsbench.workflow.checks import check_control
from mlfsbench.workflow.ids import method_id
from mlfsbench.workflow.plan import read_config
from mlfsbench.workflow.studies import challenge_config, challenger_ids, study_names

from .conftest import REPO_ROOT, jobs_of, plan_of


@pytest.fixture(autouse=True)
def _repo_root(monkeypatch):
    # configs name their datasets table and experiment files from the root
    monkeypatch.chdir(REPO_ROOT)


def study(name: str, paper: str | None = None) -> dict:
    path = REPO_ROOT / "config" / ("papers" if paper else "") / f"{paper or name}.yaml"
    return yaml.safe_load(path.read_text())["experiments"][name]


CHALLENGE = {"datasets_table": "config/datasets.tsv", "experiments": {
    "lee2016+x": {"extends": "lee2016", "datasets": ["yeast", "genbase"],
                  "selectors": [{"name": "mim-br", "id": "x"}]}}}


# ------------------------------------------------------------------- config
def test_extends_takes_the_study_under_its_favoured_readings_and_adds():
    plan = plan_of(CHALLENGE)
    assert list(plan.experiments) == ["lee2016+x"]  # no reading variants
    x = plan.experiments["lee2016+x"]
    lee = study("lee2016", "lee2016")
    assert x["extends"] == "lee2016" and "readings" not in x
    assert x["description"] == f"{lee['description']} Challenged by x."
    assert x["datasets"] == ["genbase", "yeast"]  # the study's order
    for key in ("splits", "n_features", "claims"):
        assert x[key] == lee[key]
    assert x["stats"] == {**lee["stats"], "alpha": 0.05}  # default filled
    ids = [method_id(e) for e in x["selectors"]]
    assert ids == [method_id(e) for e in lee["selectors"]] + ["x"]
    added = x["selectors"][-1]
    # the challenger reads the study's 2-bin codes, as BR-LR reads the others'
    assert added == {"id": "x", "name": "mim-br", "challenger": True, "params": {},
                     "discretize": {"strategy": "equal-width", "bins": 2}}
    # the per-dataset label counts of the other datasets went with them
    assert set(x["selectors"][0]["dataset_params"]) == {"genbase", "yeast"}
    assert plan.challengers("lee2016+x") == ["x"]
    assert plan.study_of("lee2016+x") == "lee2016"  # its claims are filed there
    # the paper methods' jobs are the study's own: the same cache keys
    own = plan_of({"datasets_table": "config/datasets.tsv",
                   "experiments": {"lee2016": lee}})
    keys = {tuple(sorted(j.keys.items())) for j in own.jobs["lee2016"]
            if j.keys["dataset"] in ("yeast", "genbase")}
    mine = {tuple(sorted(j.keys.items())) for j in plan.jobs["lee2016+x"]
            if j.labels.get("selector") != "x"}
    assert mine == keys


def test_stats_and_paper_tables_leave_the_challengers_out():
    plan = plan_of(CHALLENGE)
    w = SimpleNamespace(experiment="lee2016+x")
    assert plan.stats_options(w)["exclude"] == ["x"]
    assert "x" not in plan.method_order(w)
    # without challengers the options are as before (no job reruns)
    plain = plan_of({"datasets_table": "config/datasets.tsv", "experiments": {
        "tiny": study("tiny")}})
    assert "exclude" not in plain.stats_options(SimpleNamespace(experiment="tiny"))
    assert plain.challengers("tiny") == []


def test_a_challenger_classifier_does_not_change_the_control():
    x = copy.deepcopy(study("lee2016", "lee2016"))
    x["classifiers"].append({"name": "mlknn", "challenger": True})
    check_control("e", x)  # the paper's single classifier: plain selector ids
    x["classifiers"][-1]["challenger"] = False
    with pytest.raises(ValueError, match="stats.control 'lee2016' is not one"):
        check_control("e", x)
    assert challenger_ids({"selectors": [], "classifiers": x["classifiers"]}) == []


@pytest.mark.parametrize(("change", "message"), [
    ({"extends": "nope"}, "no study 'nope' to extend .*lee2016"),
    ({"n_features": [1]}, "sets n_features; an experiment that extends a study adds"),
    ({"datasets": ["emotions"]}, "emotions are not the study's"),
    ({"selectors": []}, "adds no selector or classifier"),
    # issue 38 W3: a challenger named like a paper's method shadowed it
    ({"selectors": [{"name": "fimf", "id": "mfs"}]},
     r"its selector 'mfs' \(fimf\) takes the name of the study's selector 'mfs' "
     r"\(mfs\), another method"),
])
def test_extends_errors_name_the_problem(change, message):
    config = copy.deepcopy(CHALLENGE)
    config["experiments"]["lee2016+x"].update(change)
    with pytest.raises(ValueError, match=message):
        read_config(config, "test")


def test_a_study_named_in_a_study_file(tmp_path):
    other = tmp_path / "mine.yaml"
    other.write_text(yaml.safe_dump({"experiments": {"mine": study("tiny")}}))
    config = {"datasets_table": "config/datasets.tsv", "study_files": [str(other)],
              "experiments": {"mine+f": {"extends": "mine",
                                         "classifiers": [{"name": "brknn-a"}]}}}
    plan = plan_of(config)
    assert plan.challengers("mine+f") == ["brknn-a"]
    # a challenger classifier classifies every selector's subsets
    assert Counter(j.labels.get("classifier") for j in plan.jobs["mine+f"]
                   if j.kind == "classify") == Counter(
        {"mlknn-43d785ff": 2, "brknn-a": 2})


def test_the_studies_of_a_config():
    names, studies = study_names("config/config.yaml")
    assert studies == ["doquire2013", "li2017", "spolaor2013", "sechidis2019",
                       "lee2016"]
    assert "lee2016-labels" in names
    assert study_names("config/tiny.yaml") == (["tiny"], ["tiny"])
    config, notes = challenge_config(
        "config/config.yaml", None, [{"name": "mim-br"}], [],
        datasets=["yeast", "genbase"])
    # MIM-BR reads codes: the studies whose selectors read raw features are
    # left out, said so (issue 38 U3; spolaor2013 compares each method's own
    # subset too, and MIM-BR without a size has none)
    assert list(config["experiments"]) == [f"{s}+mim-br" for s in studies
                                           if s not in ("doquire2013",
                                                        "spolaor2013")]
    assert [n.split(":")[0] for n in notes] == ["doquire2013", "spolaor2013"]
    assert "; the study compares the features each method selects" in notes[1]
    assert config["experiments"]["lee2016+mim-br"] == {
        "extends": "lee2016", "datasets": ["genbase", "yeast"],
        "selectors": [{"name": "mim-br"}]}
    assert config["study_files"] == ["config/config.yaml"]
    plan = plan_of(config)  # the generated config is valid
    assert plan.study_of("sechidis2019+mim-br") == "sechidis2019"
    # with a discretization and a size, every study
    entry = {"name": "mim-br", "params": {"n_features_to_select": 20}}
    codes = {"strategy": "equal-frequency", "bins": 3}
    config, notes = challenge_config("config/config.yaml", None, [entry], [],
                                     datasets=["yeast", "genbase"],
                                     discretize=codes)
    assert notes == [] and len(config["experiments"]) == 5
    ident = method_id(entry)
    assert config["experiments"][f"doquire2013+{ident}"]["selectors"] == [
        {"id": ident, **entry, "discretize": codes}]  # named as without it
    assert config["experiments"][f"lee2016+{ident}"]["selectors"] == [entry]
    plan = plan_of(config)
    assert plan.study_of(f"spolaor2013+{ident}") == "spolaor2013"
    # a study without any of the datasets is left out, with a note
    config, notes = challenge_config("config/config.yaml", ["lee2016", "li2017"],
                                     [{"name": "mim-br"}], [], datasets=["bibtex"])
    assert list(config["experiments"]) == ["lee2016+mim-br"]
    assert notes[0].startswith("li2017: none of bibtex among its datasets")


@pytest.mark.parametrize(("selector", "message"), [
    ({"name": "mim-br"},
     "doquire2013: 'mim-br' reads discretized codes, but the study's selectors "
     "read the raw features (discretize: {strategy: none}); give it a "
     "discretization (--discretize equal-width --bins 5)"),
    ({"name": "br-cc"}, None),  # reads the raw features: fine
    ({"name": "mim-br", "discretize": {"strategy": "equal-width", "bins": 2}},
     None),  # has a discretization of its own
])
def test_a_challenger_reading_codes_against_raw_features(selector, message):
    """Issue 38 U3: a discrete challenger of doquire2013 failed after 48 s
    with "X must hold integer codes", without a hint."""
    args = ("config/config.yaml", ["doquire2013"], [selector], [])
    if message is None:
        config, _ = challenge_config(*args)
        assert config["experiments"][f"doquire2013+{method_id(selector)}"][
            "selectors"] == [selector]
        return
    with pytest.raises(ValueError) as err:
        challenge_config(*args)
    assert str(err.value) == message


def test_a_hand_written_challenge_reading_codes_against_raw_features():
    config = {"datasets_table": "config/datasets.tsv", "experiments": {
        "doquire2013+m": {"extends": "doquire2013", "datasets": ["yeast"],
                          "selectors": [{"name": "mim-br", "id": "m"}]}}}
    with pytest.raises(ValueError, match=(
            r"^experiment 'doquire2013\+m' \(extends 'doquire2013'\): selector "
            r"'mim-br' reads discretized codes \(its input_kind is 'discrete'\), "
            r"but the study's selectors read the raw features")):
        plan_of(config)


@pytest.mark.parametrize(("params", "ok"), [
    ({}, False),
    ({"n_features_to_select": 20}, True),
])
def test_a_selected_study_against_a_method_without_a_threshold(params, ok):
    """Issue 38 U3: spolaor2013 compares the features a threshold selects; a
    challenger without one was compared at every feature (the baseline's
    numbers), without a word."""
    entry = {"name": "br-cc", **({"params": params} if params else {})}
    if ok:
        config, _ = challenge_config("config/config.yaml", ["spolaor2013"],
                                     [entry], [])
        assert list(config["experiments"]) == [f"spolaor2013+{method_id(entry)}"]
        return
    with pytest.raises(ValueError) as err:
        challenge_config("config/config.yaml", ["spolaor2013"], [entry], [])
    assert str(err.value) == (
        "spolaor2013: the study compares the features each method selects "
        "itself (grid point 'selected', e.g. by a threshold), but 'br-cc' has no "
        "threshold or size, so its 'selected' would be every feature (the numbers "
        "of all features); give it one (--param n_features_to_select=K, or a "
        "threshold parameter of its own)")
    # not named: left out, said so
    config, notes = challenge_config("config/config.yaml", None, [entry], [],
                                     datasets=["yeast"])
    assert "spolaor2013+br-cc" not in config["experiments"]
    assert [n for n in notes if n.startswith("spolaor2013: the study compares")]


# ------------------------------------------------------------ the example
def test_the_worked_examples_selector():
    """examples/variance_rank (docs/challenge.md): the selector ranks by
    training variance, dense and sparse alike, and keeps the contract."""
    import importlib.util

    import scipy.sparse as sp
    from sklearn.base import clone

    path = REPO_ROOT / "examples" / "variance_rank" / "variance_rank.py"
    spec = importlib.util.spec_from_file_location("variance_rank", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6)) * [1, 5, 0.1, 2, 0, 3]
    X[X < -1] = 0  # some zeros, for the sparse form
    Y = rng.integers(0, 2, size=(40, 3))
    raw = module.VarianceRank().fit(X, Y)
    assert raw.ranking_.tolist() == np.argsort(-X.var(axis=0), kind="stable").tolist()
    sparse = module.VarianceRank().fit(sp.csr_matrix(X), Y)
    assert np.allclose(sparse.scores_, raw.scores_)
    scaled = clone(module.VarianceRank(scale=True)).fit(X, Y)
    span = X.max(axis=0) - X.min(axis=0)
    expected = np.divide(X.var(axis=0), span**2, out=np.zeros(6), where=span > 0)
    assert np.allclose(scaled.scores_, expected) and scaled.scores_[4] == 0
    with pytest.raises(ValueError, match="scale"):
        module.VarianceRank(scale="yes").fit(X, Y)
    toml = (path.parent / "pyproject.toml").read_text()
    assert 'variance-rank = "variance_rank:VarianceRank"' in toml


# ---------------------------------------------------------------------- CLI
def test_challenge_command_writes_the_config_and_runs_it(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setattr("mlfsbench.workflow.runner.run",
                        lambda args, workdir, **_: seen.update(args=args,
                                                               workdir=workdir) or 0)
    shutil.copytree(REPO_ROOT / "config", tmp_path / "config")
    code = cli.main(["challenge", "--selector", "mim-br", "--param",
                     "n_features_to_select=20", "--id", "mine", "--studies",
                     "lee2016,tiny", "--datasets", "yeast,emotions", "-n",
                     "--cores", "2", "--workdir", str(tmp_path), "--",
                     "--keep-going"])
    assert code == 0
    assert seen["args"] == ["--configfile", "config/challenges/mine.yaml",
                            "--cores", "2", "--dry-run", "--keep-going"]
    config = yaml.safe_load((tmp_path / "config/challenges/mine.yaml").read_text())
    entry = {"name": "mim-br", "id": "mine", "params": {"n_features_to_select": 20}}
    assert config["experiments"] == {
        "lee2016+mine": {"extends": "lee2016", "datasets": ["yeast"],
                         "selectors": [entry]},
        "tiny+mine": {"extends": "tiny", "datasets": ["emotions"],
                      "selectors": [entry]}}


@pytest.mark.parametrize(("args", "message"), [
    (["--selector", "mimbr"], "unknown selector 'mimbr'; did you mean 'mim-br'?"),
    (["--classifier", "ml-knn"], "unknown classifier 'ml-knn'; did you mean 'mlknn'?"),
    (["--selector", "mim-br", "--param", "k=3"], "has no parameter(s) k"),
    (["--selector", "mim-br", "--studies", "nope"], "no study 'nope' in config"),
    (["--selector", "mim-br", "--studies", "doquire2013"],
     "doquire2013: 'mim-br' reads discretized codes, but the study's selectors "
     "read the raw features (discretize: {strategy: none}); give it a "
     "discretization (--discretize equal-width --bins 5)"),
    (["--selector", "br-cc", "--discretize", "equal-width"],
     "--discretize: selector 'br-cc' reads the raw features"),
    (["--classifier", "mlknn", "--bins", "3"],
     "--discretize and --bins give the codes of a selector: give --selector"),
    (["--selector", "mim-br", "--bins", "1"], "--bins 1: a discretization has 2 "
     "to 255 bins"),
    ([], "name a selector or a classifier"),
])
def test_challenge_command_errors(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("mlfsbench.workflow.runner.run", lambda *a, **k: 0)
    assert cli.main(["challenge", *args, "-n"]) == 1
    assert message in capsys.readouterr().err


def test_challenge_discretize_gives_codes_where_the_study_reads_raw_features(
        tmp_path, monkeypatch, capsys):
    code, work, seen = _challenge_in_copy(
        tmp_path, monkeypatch, "--configfile", "config/config.yaml", "--studies",
        "doquire2013,lee2016", "--datasets", "yeast", "--discretize",
        "equal-width", "--bins", "3", "--id", "m")
    assert code == 0 and seen, capsys.readouterr().err
    config = yaml.safe_load((work / "config/challenges/m.yaml").read_text())
    assert config["experiments"]["doquire2013+m"]["selectors"] == [
        {"id": "m", "name": "mim-br",
         "discretize": {"strategy": "equal-width", "bins": 3}}]
    assert config["experiments"]["lee2016+m"]["selectors"] == [
        {"name": "mim-br", "id": "m"}]  # the study's 2 bins


def _challenge_in_copy(tmp_path, monkeypatch, *args):
    """``mlfsbench challenge -n`` in a copy of the config folder (the run
    stood in for); returns the exit status, the copy and what was seen."""
    seen = {}
    monkeypatch.setattr("mlfsbench.workflow.runner.run",
                        lambda args, workdir, **_: seen.update(args=args) or 0)
    work = tmp_path / "wf"
    if not work.exists():
        # the configs a checkout's own challenges wrote are not the workflow's
        shutil.copytree(REPO_ROOT / "config", work / "config",
                        ignore=shutil.ignore_patterns("challenges"))
    code = cli.main(["challenge", "--selector", "mim-br", "--studies", "tiny",
                     "--configfile", "config/tiny.yaml", "-n", "--workdir",
                     str(work), *args])
    return code, work, seen


def _config_files(work):
    return {p: p.read_bytes() for p in (work / "config").rglob("*") if p.is_file()}


@pytest.mark.parametrize("ident", ["../rc", "a/b", "/abs", ".hidden", "a..b",
                                   "", "x+y", "a b"])
def test_challenge_id_must_be_a_plain_name(tmp_path, monkeypatch, capsys, ident):
    # issue 38 W3: --id ../rc wrote config/rc.yaml over the study's config,
    # even in a dry run
    before = _config_files(tmp_path / "wf") if (tmp_path / "wf").exists() else None
    code, work, seen = _challenge_in_copy(tmp_path, monkeypatch, "--id", ident)
    assert code == 1 and not seen
    assert f"--id {ident!r}: not a plain name" in capsys.readouterr().err
    if before is None:
        before = {p: (REPO_ROOT / p.relative_to(work)).read_bytes()
                  for p in (work / "config").rglob("*") if p.is_file()}
    assert _config_files(work) == before


@pytest.mark.parametrize(("output", "message"), [
    ("config/tiny.yaml", "that is config/tiny.yaml, which the challenge reads"),
    ("config/./tiny.yaml", "which the challenge reads"),
    ("config/datasets.tsv", "that is config/datasets.tsv, which the challenge reads"),
    ("../elsewhere.yaml", "outside the workflow directory"),
    ("config/quick.yaml", "an existing file that 'mlfsbench challenge' did not "
                          "write"),
    ("config", "a directory"),
])
def test_challenge_output_never_overwrites_what_it_reads(tmp_path, monkeypatch,
                                                          capsys, output, message):
    shutil.copytree(REPO_ROOT / "config", tmp_path / "wf" / "config")
    before = _config_files(tmp_path / "wf")
    code, work, seen = _challenge_in_copy(tmp_path, monkeypatch, "--output", output)
    assert code == 1 and not seen
    assert f"--output {output}: " in capsys.readouterr().err
    assert _config_files(work) == before
    assert not (tmp_path / "elsewhere.yaml").exists()


def test_challenge_output_outside_when_allowed_and_rewritten(tmp_path, monkeypatch):
    code, work, seen = _challenge_in_copy(tmp_path, monkeypatch, "--output",
                                          "../elsewhere.yaml", "--allow-outside")
    assert code == 0
    assert seen["args"][:2] == ["--configfile", "../elsewhere.yaml"]
    assert "tiny+mim-br" in yaml.safe_load((tmp_path / "elsewhere.yaml").read_text())[
        "experiments"]
    # a config the command wrote may be written again (the default's too)
    for extra in (["--output", "../elsewhere.yaml", "--allow-outside"], [], []):
        code, _, _ = _challenge_in_copy(tmp_path, monkeypatch, *extra)
        assert code == 0
    assert (work / "config" / "challenges" / "mim-br.yaml").exists()


def test_challenge_names_an_unknown_dataset(tmp_path, monkeypatch, capsys):
    # issue 38 W9: the unknown name was dropped, the challenge ran on yeast
    code, _, seen = _challenge_in_copy(tmp_path, monkeypatch, "--studies",
                                       "lee2016,tiny", "--configfile",
                                       "config/config.yaml", "--datasets",
                                       "yeast,genbsae,emotoins")
    err = capsys.readouterr().err
    assert code == 1 and not seen
    assert ("datasets 'genbsae' (did you mean 'genbase'?), 'emotoins' (did you "
            "mean 'emotions'?) are not a dataset of the studies challenged "
            "(lee2016, tiny); their datasets: ") in err
    assert "emotions, enron" in err or "emotions" in err.split("their datasets:")[1]


def test_a_challenge_may_not_take_an_experiments_name(tmp_path, monkeypatch, capsys):
    shutil.copytree(REPO_ROOT / "config", tmp_path / "wf" / "config")
    path = tmp_path / "wf" / "config" / "mine.yaml"
    config = yaml.safe_load((REPO_ROOT / "config" / "tiny.yaml").read_text())
    config["experiments"]["tiny+mine"] = dict(config["experiments"]["tiny"])
    path.write_text(yaml.safe_dump(config))
    code, _, seen = _challenge_in_copy(tmp_path, monkeypatch, "--configfile",
                                       "config/mine.yaml", "--id", "mine")
    assert code == 1 and not seen
    assert ("the challenge of 'tiny' by 'mine' would be experiment 'tiny+mine', "
            "which config/mine.yaml already has") in capsys.readouterr().err
    code, _, seen = _challenge_in_copy(tmp_path, monkeypatch, "--configfile",
                                       "config/mine.yaml", "--id", "other")
    assert code == 0 and seen


def test_a_challenger_may_not_take_a_study_methods_id(tmp_path, monkeypatch, capsys):
    code, work, seen = _challenge_in_copy(tmp_path, monkeypatch, "--id", "mim-br",
                                          "--selector", "fimf")
    assert code == 1 and not seen
    assert ("its selector 'mim-br' (fimf) takes the name of the study's selector "
            "'mim-br' (mim-br), another method") in capsys.readouterr().err
    assert not (work / "config" / "challenges").exists()


def test_challenge_help_names_the_options(capsys):
    with pytest.raises(SystemExit):
        cli.main(["challenge", "--help"])
    text = capsys.readouterr().out
    for option in ("--selector", "--param", "--id", "--classifier", "--studies",
                   "--datasets", "--dry-run", "--cores", "--configfile"):
        assert option in text


# ------------------------------------------------------- the papers' verdicts
def paper_tables(root: Path, experiment: dict, methods: list[str], seed: int = 0,
                 best: str | None = None) -> None:
    """Synthetic result tables of a study (every method, dataset, K and
    metric; ``best`` the best and fastest everywhere) as the aggregate and
    runtime rules write them."""
    from mlfsbench.io import format_table

    rng = np.random.default_rng(seed)
    grid = [str(k) for k in (1, *range(5, 51, 5))] + ["all"]
    rows, times = [], []
    for d in experiment["datasets"]:
        for m in methods:
            for k in grid:
                for metric in METRICS:
                    v = 0.001 if m == best else float(rng.uniform(0.1, 0.5))
                    rows.append((d, "ho80", m, "br-lr", k, metric, v,
                                 float(rng.uniform(0, 0.02)), 10))
            times.append((d, "ho80", m, 1e-4 if m == best else
                          float(rng.uniform(0.1, 5)), 0.01, 10))
    (root / "tables").mkdir(parents=True, exist_ok=True)
    (root / "tables" / "summary.tsv").write_text(format_table(pd.DataFrame(
        rows, columns=["dataset", "split", "selector", "classifier", "n_features",
                       "metric", "mean", "std", "folds"])))
    (root / "tables" / "runtime.tsv").write_text(format_table(pd.DataFrame(
        times, columns=["dataset", "split", "selector", "mean", "std", "folds"])))


def claims_bytes(root: Path, experiment: dict, exclude: list[str]) -> bytes:
    """The stats rule's JSON (``exclude`` as its options carry it) and the
    claims rule's table, by the functions the rules call."""
    from mlfsbench.report.claims import write_claims
    from mlfsbench.report.compare import write_comparison
    from mlfsbench.workflow.report_params import claims_setting
    from mlfsbench.workflow.studies import printed_path

    stats = experiment["stats"]
    for metric in stats["metrics"]:
        write_comparison(root / "tables" / "summary.tsv", metric,
                         root / "stats" / f"{metric}.json",
                         root / "stats" / f"{metric}_cd.png",
                         n_features=stats["n_features"],
                         control=stats.get("control"), exclude=exclude)
    out = root / "tables" / "claims.tsv"
    write_claims(experiment["claims"], "lee2016", claims_setting(experiment), root,
                 out, printed=printed_path(experiment["claims"]))
    return out.read_bytes()


def test_lee2016_claims_are_byte_identical_with_a_challenger(tmp_path):
    """Unit level, on one paper study (Lee & Kim 2016's claims file and
    experiment), with synthetic result tables, not a workflow run: the study's
    tables, and the same tables with a challenger's rows added (best and
    fastest everywhere), through the stats and claims functions the rules
    call with the options the plan gives them. The claims table is the same
    bytes; read without the exclusion, the challenger would move verdicts."""
    lee = study("lee2016", "lee2016")
    lee["stats"].setdefault("alpha", 0.05)
    methods = [method_id(e) for e in lee["selectors"]]
    alone = claims_bytes(_tables(tmp_path / "alone", lee, methods), lee, [])
    challenged = copy.deepcopy(lee)
    challenged["selectors"].append({"name": "mim-br", "id": "x",
                                    "challenger": True})
    challenged["extends"] = "lee2016"
    root = _tables(tmp_path / "with", lee, [*methods, "x"], best="x")
    assert claims_bytes(root, challenged, ["x"]) == alone
    verdicts = pd.read_csv(io_bytes(alone), sep="\t")
    assert len(verdicts) > 10 and "reproduced" in set(verdicts["verdict"])
    # the same tables judged with the challenger among the methods differ
    naive = copy.deepcopy(challenged)
    naive["selectors"][-1]["challenger"] = False
    assert claims_bytes(root, naive, []) != alone


def _tables(root: Path, experiment: dict, methods: list[str], best=None) -> Path:
    # the paper methods' rows draw the same numbers with or without "x"
    paper_tables(root, experiment, [m for m in methods if m != "x"])
    if "x" in methods:
        own = pd.read_csv(root / "tables" / "summary.tsv", sep="\t",
                          dtype={"n_features": str})
        rt = pd.read_csv(root / "tables" / "runtime.tsv", sep="\t")
        paper_tables(root / "x", experiment, ["x"], best=best)
        from mlfsbench.io import format_table

        for name, table in (("summary.tsv", own), ("runtime.tsv", rt)):
            extra = pd.read_csv(root / "x" / "tables" / name, sep="\t",
                                dtype={"n_features": str})
            (root / "tables" / name).write_text(format_table(
                pd.concat([table, extra], ignore_index=True)))
    return root


def io_bytes(data: bytes):
    import io

    return io.BytesIO(data)


# ------------------------------------------------------ workflow (slow) tests
BIN = Path(sys.executable).parent
TIMEOUT = 1800
PLUGIN = REPO_ROOT / "tests" / "data" / "plugin"
#: The tiny study's claims: one on a value, one on the fastest selector (a
#: challenger faster than MIM-BR would take it, were it not left out).
TINY_CLAIMS = {
    "study": "tiny", "paper": "none (a check of the claims stage)",
    "experiment": "tiny",
    "claims": [
        {"id": "mlknn-emotions-hamming",
         "statement": "ML-kNN on all features of emotions: Hamming loss about 0.2.",
         "source": "none", "reading": "A check of the stage.", "rule": "value",
         "quantity": {"metric": "hamming_loss", "dataset": "emotions",
                      "method": "all-features", "n_features": "all"},
         "paper": 0.2, "tolerance": 0.1},
        {"id": "mim-br-fastest", "statement": "MIM-BR is the fastest selector "
         "(a challenger is often faster: left out of the claims, it must not "
         "change the verdict).",
         "source": "none", "reading": "A check of the stage.", "rule": "fastest",
         "quantity": {"method": "mim-br", "datasets": ["emotions"]},
         "paper": "fastest on emotions"}],
}


def mlfsbench(workdir, *args, env=None, check=True) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(BIN / "mlfsbench"), *args], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    if check:
        assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-5000:]
    return proc


def write_tiny_claims(workdir: Path) -> str:
    config = yaml.safe_load((REPO_ROOT / "config" / "tiny.yaml").read_text())
    config["experiments"]["tiny"]["claims"] = "config/tiny.claims.yaml"
    (workdir / "config" / "tiny.claims.yaml").write_text(yaml.safe_dump(TINY_CLAIMS))
    (workdir / "config" / "tiny-claims.yaml").write_text(yaml.safe_dump(config))
    return "config/tiny-claims.yaml"


@pytest.fixture(scope="module")
def finished(tmp_path_factory, mirror) -> Path:
    """A workflow directory after a complete run of the tiny study with claims."""
    from mlfsbench.workflow.runner import copy_workflow

    workdir = copy_workflow(REPO_ROOT, tmp_path_factory.mktemp("wf") / "run")
    configfile = write_tiny_claims(workdir)
    mlfsbench(workdir, "run", "--cores", "2", "--configfile", configfile,
              "--config", f"mirror={mirror}")
    return workdir


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory) -> dict[str, str]:
    """The test plugin (its ``variance-rank`` selector) pip-installed into a
    folder on PYTHONPATH, as tests/test_plugins.py installs it."""
    target = tmp_path_factory.mktemp("plugin-site")
    build = tmp_path_factory.mktemp("plugin-src")
    shutil.copytree(PLUGIN, build, dirs_exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "--target", str(target),
                    str(build)], check=True, capture_output=True, timeout=600)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(target), env.get("PYTHONPATH")) if p)
    return env


def fresh_clone(finished: Path, dest: Path, *, records=True) -> Path:
    """A new copy of the workflow (its files newer than any result, as in a
    fresh clone) with the finished run's data/ and results/shared/ copied,
    times kept, and Snakemake's records (.snakemake/metadata/) if
    ``records``."""
    from mlfsbench.workflow.runner import copy_workflow

    clone = copy_workflow(REPO_ROOT, dest)
    for path in clone.rglob("*"):
        os.utime(path)  # a checkout's files are as new as the checkout
    for part in ("data", "results/shared") + ((".snakemake/metadata",)
                                              if records else ()):
        shutil.copytree(finished / part, clone / part, symlinks=True)
    write_tiny_claims(clone)
    return clone


@pytest.mark.slow
@pytest.mark.workflow
def test_a_challenge_from_a_copied_cache_runs_only_the_challengers_jobs(
        finished, plugin_env, mirror, tmp_path):
    """Issue 28's "Done when": in a fresh copy of the workflow whose
    results/shared/ (with data/ and Snakemake's records) came from a finished
    run, a challenge plans the plugin's select and classify jobs and the
    experiment's tables, statistics and report, no other select or classify
    job; run, its claims.tsv is the study's, byte for byte."""
    clone = fresh_clone(finished, tmp_path / "clone")
    # Snakemake's default triggers (code: an output older than its rule's
    # script) would plan every job of the copied cache again
    plain = subprocess.run(
        [str(BIN / "snakemake"), "--dry-run", "--cores", "1", "--configfile",
         "config/tiny-claims.yaml", "--config", f"mirror={mirror}"],
        cwd=clone, capture_output=True, text=True, timeout=TIMEOUT)
    assert plain.returncode == 0, plain.stderr[-3000:]
    assert Counter(r for r, _ in jobs_of(plain.stdout))["select"] == 1
    assert "Code has changed since last execution" in plain.stdout

    args = ["challenge", "--selector", "variance-rank", "--studies", "tiny",
            "--configfile", "config/tiny-claims.yaml", "--cores", "2",
            "--config", f"mirror={mirror}"]
    dry = mlfsbench(clone, *args, "--dry-run", env=plugin_env)
    jobs = jobs_of(dry.stdout)
    batch = [(r, w) for r, w in jobs if r in ("select", "classify")]
    assert batch and all(w["selector"].startswith("variance-rank-") for _, w in batch)
    assert Counter(r for r, _ in batch) == Counter(select=1, classify=1)
    others = Counter(r for r, _ in jobs) - Counter(r for r, _ in batch)
    assert set(others) <= {"aggregate", "stats", "ranks", "runtime", "stability",
                           "plot", "headline", "paper_table", "claims", "summary",
                           "datasets_report", "provenance", "all", "challenge",
                           "challenge_cd", "challenge_pairwise", "challenges",
                           "leaderboard"}
    assert others["stats"] == 1 and others["claims"] == 1
    assert all(w.get("experiment", "tiny+variance-rank") == "tiny+variance-rank"
               for _, w in jobs)

    mlfsbench(clone, *args, env=plugin_env)
    mine = clone / "results" / "tiny+variance-rank" / "tables"
    assert (mine / "claims.tsv").read_bytes() == (
        finished / "results" / "tiny" / "tables" / "claims.tsv").read_bytes()
    verdicts = pd.read_csv(mine / "claims.tsv", sep="\t")
    assert verdicts["verdict"].tolist() == ["reproduced", "reproduced"]
    # the challenger is in the tables the claims read (its runtime row too:
    # whether it is faster than MIM-BR depends on the machine's load)
    mim = "mim-br-68632db6"  # tiny's entry states its discretization
    runtime = pd.read_csv(mine / "runtime.tsv", sep="\t")
    assert set(runtime["selector"]) == {mim, "variance-rank"}
    summary = pd.read_csv(mine / "summary.tsv", sep="\t")
    assert set(summary["selector"]) == {mim, "variance-rank"}
    # its statistics are the paper's methods'
    stats = json.loads((mine.parent / "stats" / "hamming_loss.json").read_text())
    assert "variance-rank" not in json.dumps(stats)
    # a second challenge plans nothing
    again = mlfsbench(clone, *args, "--dry-run", env=plugin_env)
    assert jobs_of(again.stdout) == []
    page = (clone / "results" / "tiny+variance-rank" / "challenge" / "index.html"
            ).read_text()
    assert "href='../../summary.html#summary-tiny+variance-rank'" in page
    # another challenge (issue 35): the page across studies keeps the first
    other = [*args, "--id", "scaled", "--param", "random_state=1"]
    mlfsbench(clone, *other, env=plugin_env)
    across = pd.read_csv(clone / "results" / "challenges.tsv", sep="\t")
    assert list(dict.fromkeys(across["challenge"])) == ["scaled", "variance-rank"]
    html = (clone / "results" / "challenges.html").read_text()
    assert html.index("id='challenge-scaled'") < html.index(
        "id='challenge-variance-rank'")
    assert "(variance-rank; parameters: <span class='params'>random_state=1" in (
        clone / "results" / "tiny+scaled" / "challenge" / "index.html").read_text()
    assert jobs_of(mlfsbench(clone, *other, "--dry-run", env=plugin_env).stdout) == []


SHORT_RANK = """\
import numpy as np
from mlfsbench.estimators.selectors import BaseMultiLabelSelector


class ShortRank(BaseMultiLabelSelector):
    input_kind = "continuous"

    def _fit(self, X, Y):
        X = X.toarray() if hasattr(X, "toarray") else X
        scores = np.asarray(X, dtype=float).var(axis=0)
        return scores, np.argsort(-scores, kind="mergesort")[:3]
"""


@pytest.mark.slow
@pytest.mark.workflow
def test_a_challenger_ranking_too_few_features_gets_no_row(finished, mirror,
                                                           tmp_path):
    """Issue 38 W1: a plugin ranking 3 features against tiny's grid (K = 1, 5,
    20) had K = 5 and 20 fitted on 3 columns, tabulated as 5 and 20; now its
    classify job stops naming the dataset, the fold, the method, its depth
    and the K, and no table has a row of it."""
    clone = fresh_clone(finished, tmp_path / "clone")
    site = tmp_path / "site"
    info = site / "short_rank-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "short_rank.py").write_text(SHORT_RANK)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: short-rank\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[mlfsbench.selectors]\nshort-rank = short_rank:ShortRank\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site),
                                                    env.get("PYTHONPATH")) if p)
    proc = mlfsbench(clone, "challenge", "--selector", "short-rank", "--studies",
                     "tiny", "--configfile", "config/tiny-claims.yaml", "--cores",
                     "2", "--config", f"mirror={mirror}", env=env, check=False)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    (log,) = (clone / "logs" / "classify").rglob("short-rank*/*/*.log")
    text = log.read_text()
    assert re.search(
        r"data/prepared/emotions\.npz \(dataset emotions, fold [01]\): selector "
        r"'short-rank[-0-9a-f]*' ranks 3 features, but the grid asks for K = 20 "
        r"\(points 5, "
        r"20\); a selector must rank at least as deep as the largest K of the "
        r"grid", text), text[-3000:]
    assert not list((clone / "results" / "shared").rglob("metrics/short-rank*"))
    assert not (clone / "results" / "tiny+short-rank" / "tables" /
                "metrics.tsv").exists()


@pytest.mark.slow
@pytest.mark.workflow
def test_outputs_without_records_are_reused_unless_older_than_an_input(
        finished, mirror, tmp_path):
    """A cache copied without .snakemake/metadata/: an output without a
    record is taken as it is (its parameters and code version cannot be
    checked), unless one of its inputs is newer (no checksum to compare):
    then it and what reads it run again."""
    clone = fresh_clone(finished, tmp_path / "bare", records=False)
    run = ["run", "--cores", "1", "--configfile", "config/tiny-claims.yaml",
           "--config", f"mirror={mirror}", "--dry-run"]
    rules = Counter(r for r, _ in jobs_of(mlfsbench(clone, *run).stdout))
    assert rules["select"] == rules["classify"] == rules["split"] == 0
    assert rules["aggregate"] == 1  # results/tiny/ was not copied
    # the selection older than its split: rerun, with its classify job
    (selection,) = (clone / "results/shared").rglob("select/mim-br-*.json")
    split = selection.parents[2] / "folds.npz"
    old = split.stat().st_mtime - 60
    os.utime(selection, (old, old))
    rules = Counter(r for r, _ in jobs_of(mlfsbench(clone, *run).stdout))
    assert rules["select"] == 1 and rules["classify"] == 1 and rules["split"] == 0


@pytest.mark.slow
@pytest.mark.workflow
def test_an_edited_claims_file_reruns_its_claims_whatever_its_time(
        finished, mirror, tmp_path):
    """Inputs no rule makes carry their content digest in the params: an
    edit of the claims file reruns the claims (and the summary page) even
    with the file's old time; a touch without an edit reruns nothing."""
    workdir = tmp_path / "edit"
    shutil.copytree(finished, workdir, symlinks=True)
    run = ["run", "--cores", "1", "--configfile", "config/tiny-claims.yaml",
           "--config", f"mirror={mirror}", "--dry-run"]
    claims = workdir / "config" / "tiny.claims.yaml"
    os.utime(claims)  # newer than claims.tsv, the same bytes
    assert jobs_of(mlfsbench(workdir, *run).stdout) == []
    stamp = claims.stat()
    data = yaml.safe_load(claims.read_text())
    data["claims"][0]["tolerance"] = 0.01
    claims.write_text(yaml.safe_dump(data))
    old = (workdir / "results/tiny/tables/claims.tsv").stat().st_mtime - 60
    os.utime(claims, (old, old))  # as if edited before the last run
    rules = Counter(r for r, _ in jobs_of(mlfsbench(workdir, *run).stdout))
    assert rules == Counter(claims=1, summary=1, all=1), stamp
