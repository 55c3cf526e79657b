"""End-to-end runs of the Snakemake workflow on config/tiny.yaml.

The workflow is copied into a temporary directory and run with
``mlfsbench run`` against a ``file://`` mirror of the Mulan files (the same
download code as for the public URLs). The runs show that the DAG is cached,
incremental and resumable; see the issue's "Resumable, cached, incremental".
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mlfsbench.workflow.ids import cache_id
from mlfsbench.workflow.runner import copy_workflow, rerun_trigger_args

from .conftest import jobs_of

pytestmark = [pytest.mark.workflow, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TIMEOUT = 1800  # generous: CI machines may be slow and busy


def tiny_experiment() -> dict:
    return yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())[
        "experiments"]["tiny"]


def write_config(workdir: Path, name: str, **changes) -> str:
    """A copy of config/tiny.yaml with keys of its experiment changed."""
    config = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
    config["experiments"]["tiny"].update(changes)
    (workdir / "config" / name).write_text(yaml.safe_dump(config))
    return f"config/{name}"


def run(workdir: Path, mirror: str, configfile="config/tiny.yaml", *extra,
        check=True) -> subprocess.CompletedProcess:
    cmd = [str(BIN / "mlfsbench"), "run", "--cores", "2", "--configfile",
           configfile, "--config", f"mirror={mirror}", *extra]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=TIMEOUT)
    if check and proc.returncode != 0:
        raise AssertionError(f"{cmd} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


def planned(workdir: Path, mirror: str, configfile="config/tiny.yaml", env=None):
    """Jobs a run would execute: list of (rule, wildcards dict). Planned with
    the rerun triggers of ``mlfsbench run`` (content, not file times)."""
    cmd = [str(BIN / "snakemake"), "--dry-run", "--cores", "1", "--configfile",
           configfile, "--config", f"mirror={mirror}", *rerun_trigger_args([])]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=TIMEOUT, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # Why each job is planned, shown by pytest when the test fails.
    print("\n".join(line for line in proc.stdout.splitlines()
                    if re.match(r"\s*(?:(?:local)?rule \w+:|reason:|wildcards:)",
                                line))[:20000])
    return jobs_of(proc.stdout)


def rules_of(jobs) -> Counter:
    return Counter(rule for rule, _ in jobs)


TABLES = ("tiny/tables/metrics.tsv", "tiny/tables/summary.tsv",
          "tiny/tables/ranks.tsv", "tiny/tables/stability.tsv",
          "tiny/tables/datasets.tsv")
# The tiny experiment's cache folder: dataset, split protocol, fold batch, seed.
BATCH = "results/shared/emotions/kfold-k2-seed0/folds0-1/seed0"


@pytest.fixture(scope="module")
def completed(tmp_path_factory, mirror):
    """A workflow directory after one complete run of the tiny config."""
    workdir = copy_workflow(REPO, tmp_path_factory.mktemp("wf") / "run")
    run(workdir, mirror)
    return workdir


def test_complete_run_outputs(completed):
    table = pd.read_csv(completed / "results/tiny/tables/metrics.tsv", sep="\t",
                        dtype={"n_features": str})
    # 1 dataset x 2 folds x 1 selector x 1 classifier x 4 feature counts
    assert sorted(table["n_features"].unique()) == ["1", "20", "5", "all"]
    assert sorted(table["fold"].unique()) == [0, 1]
    per_metric = table.groupby("metric").size()
    assert (per_metric == 8).all()
    hl = table[table["metric"] == "hamming_loss"].set_index(["fold", "n_features"])
    assert hl["value"].between(0.05, 0.45).all()
    # With all 72 features ML-kNN on emotions has a Hamming loss near 0.2.
    assert 0.15 < hl.xs("all", level="n_features")["value"].mean() < 0.3
    stats = pd.read_csv(completed / "results/tiny/tables/datasets.tsv", sep="\t")
    assert len(stats) == 1
    row = stats.iloc[0]
    assert (row["dataset"], row["instances"], row["features"], row["labels"]) == (
        "emotions", 593, 72, 6)
    for ext in ("png", "pdf"):
        assert (completed / f"results/tiny/plots/emotions.{ext}").stat().st_size > 1000
    # One selection job for both folds; its records carry their keys and
    # each fold its own derived seed.
    selections = list((completed / BATCH / "select").glob("*.json"))
    assert [p.name.startswith("mim-br-") for p in selections] == [True]
    import json

    from mlfsbench.workflow.seeds import derive_seed

    batch = json.loads(selections[0].read_text())
    selector = selections[0].stem
    assert [(r["dataset"], r["split"], r["fold"], r["selector"], r["seed"])
            for r in batch["records"]] == [
        ("emotions", "kfold-k2-seed0", f, selector,
         derive_seed(0, "emotions", "kfold-k2-seed0", f, selector)) for f in (0, 1)]
    assert batch["records"][0]["seed"] != batch["records"][1]["seed"]
    # One classify job for both folds: its metrics table has the keys too.
    (table_path,) = (completed / BATCH / "metrics" / selector).rglob("*.tsv")
    fold_table = pd.read_csv(table_path, sep="\t", dtype={"n_features": str})
    assert set(fold_table["split"]) == {"kfold-k2-seed0"}
    assert sorted(fold_table["fold"].unique()) == [0, 1]
    # ... for the grid's sizes; "all" is one job of its own, whatever the
    # selector, whose rows the experiment's table gives to mim-br.
    assert sorted(fold_table["n_features"].unique()) == ["1", "20", "5"]
    (full_path,) = (completed / BATCH / "metrics" / "all-features").rglob("*.tsv")
    full = pd.read_csv(full_path, sep="\t", dtype={"n_features": str})
    assert set(full["n_features"]) == {"all"} and set(full["fold"]) == {0, 1}
    assert set(full["selector"]) == {"all-features"}
    ours = table[table["n_features"] == "all"].set_index(["fold", "metric"])
    assert set(ours.index) == set(zip(full["fold"], full["metric"], strict=True))
    assert (ours.loc[list(zip(full["fold"], full["metric"], strict=True)),
                     "value"].to_numpy() == full["value"].to_numpy()).all()
    assert set(ours["selector"]) == set(table["selector"]) != {"all-features"}
    assert not list((completed / BATCH).rglob("*.npz"))  # no predictions kept
    # The leaderboard, linked from the summary page: tiny's one dataset
    # gives no rank test, so no method has a rank and the page says so.
    board = (completed / "results/leaderboard.html").read_text()
    assert "No experiment has a rank test yet." in board
    assert (completed / "results/leaderboard.tsv").read_text().split("\n")[0] == (
        "method\tchallenger\tmean_rank\tstudies")
    assert "href='leaderboard.html'" in (completed / "results/summary.html"
                                         ).read_text()
    # The experiment's own provenance: its config, no other experiment's.
    provenance = (completed / "results/tiny/provenance.txt").read_text()
    assert "  tiny:" in provenance and "mim-br" in provenance
    # One dataset: no test is defined, the comparison says why.
    ranks = pd.read_csv(completed / "results/tiny/tables/ranks.tsv", sep="\t")
    assert ranks["metric"].tolist() == ["hamming_loss", "ranking_loss"]
    assert (ranks["note"] == "needs at least 2 datasets, this run has 1").all()
    stab = pd.read_csv(completed / "results/tiny/tables/stability.tsv", sep="\t")
    assert stab["n_features"].tolist() == [1, 5, 20]
    assert stab["stability"].between(-1, 1).all()
    runtime = pd.read_csv(completed / "results/tiny/tables/runtime.tsv", sep="\t")
    assert runtime["folds"].tolist() == [2]
    # The report's opening page; tiny has no claims file, the page says so.
    page = (completed / "results/summary.html").read_text()
    assert "<h2 id='summary-tiny'>Study: tiny</h2>" in page
    assert "No claims file for this experiment." in page
    assert (completed / "results/tiny/plots/headline.png").stat().st_size > 1000
    # One dataset: the paper table has its row, no control marks.
    paper = (completed / "results/tiny/tables/paper/hamming_loss.md").read_text()
    assert "| emotions | " in paper and "W/T/L" not in paper
    assert provenance.splitlines()[1].startswith("code: ")
    assert list((completed / "logs").rglob("*.log"))
    assert list((completed / "benchmarks").rglob("*.tsv"))


def test_second_run_has_nothing_to_do(completed, mirror):
    assert planned(completed, mirror) == []


def test_raw_downloads_are_protected(completed):
    for raw in (completed / "data/raw/emotions").iterdir():
        assert raw.stat().st_mode & 0o222 == 0, raw


def test_adding_a_classifier_schedules_only_its_jobs(completed, mirror):
    classifiers = tiny_experiment()["classifiers"] + [
        {"name": "mlknn", "params": {"k": 5}}]
    cfg = write_config(completed, "more.yaml", classifiers=classifiers)
    jobs = planned(completed, mirror, cfg)
    # (stability's plot names the methods, classifiers included; headline and
    # summary are the report's first page)
    # (its grid's sizes, and "all" features)
    assert rules_of(jobs) == Counter(
        classify=2, aggregate=1, plot=1, stats=1, ranks=1, leaderboard=1, provenance=1,
        stability=1, headline=1, paper_table=1, summary=1, all=1)
    assert [w["classifier"] for r, w in jobs if r == "classify"] == [
        cache_id(classifiers[-1], "emotions", "classifier")] * 2


def test_adding_a_dataset_schedules_only_its_jobs(completed, mirror):
    cfg = write_config(completed, "more_data.yaml", datasets=["emotions", "genbase"])
    jobs = planned(completed, mirror, cfg)
    # Plots are redrawn from the new summary; every computing job is genbase's.
    per_dataset = {w["dataset"] for r, w in jobs if "dataset" in w and r != "plot"}
    assert per_dataset == {"genbase"}
    assert rules_of(jobs)["plot"] == 2
    assert rules_of(jobs)["download"] == 3
    assert rules_of(jobs)["select"] == 1  # both folds in one job


def test_changing_a_parameter_reruns_that_method_only(completed, mirror):
    selectors = tiny_experiment()["selectors"] + [
        {"name": "mim-br", "id": "mim-ef", "discretize": {
            "strategy": "equal-frequency", "bins": 3}}]
    cfg = write_config(completed, "two_selectors.yaml", selectors=selectors)
    run(completed, mirror, cfg)
    # Both selectors read the raw features with ML-kNN: one "all" job serves
    # both, and each selector's rows at "all" are its rows.
    assert len(list((completed / BATCH / "metrics" / "all-features").rglob(
        "*.tsv"))) == 1
    table = pd.read_csv(completed / "results/tiny/tables/metrics.tsv", sep="\t",
                        dtype={"n_features": str})
    full = table[table["n_features"] == "all"]
    per_selector = full.groupby("selector")["value"].apply(list)
    assert len(per_selector) == 2 and "mim-ef" in per_selector.index
    assert per_selector.iloc[0] == per_selector.iloc[1]
    # Change the second selector's discretization only.
    selectors[1]["discretize"]["bins"] = 4
    cfg = write_config(completed, "two_selectors.yaml", selectors=selectors)
    jobs = planned(completed, mirror, cfg)
    assert rules_of(jobs) == Counter(
        discretize=1, select=1, classify=1, aggregate=1, plot=1,
        stats=1, ranks=1, leaderboard=1, runtime=1, stability=1, provenance=1,
        headline=1, paper_table=1, summary=1, all=1)
    assert {w["selector"] for r, w in jobs if r == "select"} == {
        cache_id(selectors[1], "emotions", "selector")}
    # Back to the tiny config: the first selector's results were kept.
    run(completed, mirror)
    assert planned(completed, mirror) == []


def _wait_for(predicate, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def _check_complete(path: Path) -> None:
    import json

    import numpy as np

    if path.suffix == ".npz":
        with np.load(path) as z:
            for key in z.files:
                z[key]
    elif path.suffix == ".json":
        json.loads(path.read_text())
    elif path.suffix == ".tsv":
        assert pd.read_csv(path, sep="\t").shape[0] > 0, path


def test_kill_9_then_rerun_matches_uninterrupted(tmp_path, completed, mirror):
    workdir = copy_workflow(REPO, tmp_path / "killed")
    cmd = [str(BIN / "mlfsbench"), "run", "--cores", "2", "--configfile",
           "config/tiny.yaml", "--config", f"mirror={mirror}"]
    proc = subprocess.Popen(cmd, cwd=workdir, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        # Kill once some fold-level work exists but before the end.
        started = _wait_for(lambda: list(workdir.glob("results/shared/emotions/*/*")))
        assert started, "workflow did not start"
        # While it runs, a second run on the same directory is refused.
        second = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                                timeout=TIMEOUT)
        assert second.returncode != 0
        assert "refus" in second.stderr or "active" in second.stderr
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert not (workdir / "results/tiny/tables/metrics.tsv").exists()
    assert list((workdir / ".snakemake/locks").iterdir()), "expected a stale lock"
    # No half-written output: every file under a final name is complete.
    for path in (workdir / "results").rglob("*"):
        if path.is_file() and ".tmp" not in path.name:
            _check_complete(path)
    run(workdir, mirror)
    for table in TABLES:
        a = (completed / "results" / table).read_bytes()
        b = (workdir / "results" / table).read_bytes()
        assert a == b, table


@pytest.mark.parametrize("name, expected, most", [
    # The five studies: one select job per dataset x split protocol x
    # selector (all folds of a split in one job), one classify job per
    # selection and classifier; 7 777 jobs when every fold was a job.
    # "all" features is one more classify job per dataset x split protocol x
    # classifier x classifier input, shared by the selectors.
    # With the studies' readings (issue 26): 705 -> 914 jobs (each variant's
    # classifications, aggregate, stats and claims; doquire2013's extended
    # grid 3 selections). Sechidis 2019's multi-target and sensitivity
    # experiments add 20 select and 20 classify jobs, doquire2013-pruning 22
    # and 22 (11 fixed p on emotions and yeast), lee2016-labels 32 and 32 (8
    # settings of |Y| on 4 datasets): 1 106 jobs in the dry run. Doquire's chi2
    # and Lee's solver readings: 3 select, 16 classify, 2 claims, 1 readings
    # more: 1 138 jobs. Issue 34: Doquire's grid to all features (favoured)
    # with the 1..50 grid as a variant, the criterion reading in Sechidis'
    # multi-target and sensitivity experiments, raw ML-kNN favoured there:
    # 1 260 jobs; FIMF's promising labels in Li and Sechidis, the
    # multi-target kNN regression's scaling: 1 331; Doquire's ML-kNN k and
    # scaling: 1 428; a readings job for every study with scoring readings: 1 430;
    # Lee 2016's glmfit favoured on all 8 datasets: 1 471. Li 2017's split
    # reading and the split probes of Lee 2016 (genbase, yeast) and Spolaor
    # 2013: +80 select, +96 classify, 4 variants with their claims: 1 706.
    # Doquire's artificial-problem runs as jobs of their own (10, each once
    # for the 9 Doquire experiments' claims): 1 717. One stats job per
    # experiment instead of one per compared metric (35, was 150): 1 602.
    # One paper-tables job per experiment (10, was 45): 1 567. Lee 2016's
    # solver reading in lee2016-labels too (glmfit favoured, L-BFGS a
    # variant: 32 classify jobs and its aggregate, runtime, stats and claims
    # jobs): 1 603.
    ("config.yaml", {"download": 38, "prepare": 18, "select": 400,
                     "classify": 794, "claims": 36, "readings": 10,
                     "artificial": 10, "stats": 36, "paper_table": 10}, 1606),
    # quick: one paper table per compared metric (17) since issue 27; the
    # leaderboard since issue 39 (one job in every run: 64, the full 1 707);
    # one stats and one paper-tables job (32)
    ("quick.yaml", {"download": 6, "prepare": 2, "select": 2, "classify": 4,
                    "stats": 1, "paper_table": 1}, 32),
])
def test_shipped_configs_dry_run(tmp_path, mirror, name, expected, most):
    workdir = copy_workflow(REPO, tmp_path / "dry")
    counts = rules_of(planned(workdir, mirror, f"config/{name}"))
    assert {rule: counts[rule] for rule in expected} == expected
    assert sum(counts.values()) <= most


def test_fold_batch_cuts_jobs_smaller(completed, mirror):
    """``fold_batch=1``: one job per fold (new outputs, the old ones stay)."""
    proc = subprocess.run(
        [str(BIN / "snakemake"), "--dry-run", "--cores", "1", "--configfile",
         "config/tiny.yaml", "--config", f"mirror={mirror}", "fold_batch=1"],
        cwd=completed, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    batches = sorted(set(re.findall(r"batch=(folds\d+-\d+)", proc.stdout)))
    assert batches == ["folds0-0", "folds1-1"]
    assert re.search(r"^select\s+2$", proc.stdout, flags=re.M)


def test_experiments_share_the_cache(completed, mirror):
    """A second experiment asking for the same split protocol and methods
    (under other names) computes nothing but its own tables."""
    config = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
    other = copy.deepcopy(config["experiments"]["tiny"])
    other["splits"] = {"two-fold": {"type": "kfold", "k": 2}}  # seed 0 implied
    other["selectors"][0]["id"] = "mim"
    config["experiments"]["tiny-again"] = other
    (completed / "config" / "both.yaml").write_text(yaml.safe_dump(config))
    jobs = planned(completed, mirror, "config/both.yaml")
    assert not {"split", "discretize", "select", "classify"} & set(rules_of(jobs))
    # tiny's own tables stay (the summary page, of all experiments, is redrawn)
    assert not [r for r, w in jobs if w.get("experiment") == "tiny" and r in (
        "aggregate", "stats", "ranks", "runtime", "stability", "plot")]
    run(completed, mirror, "config/both.yaml")
    mine = pd.read_csv(completed / "results/tiny-again/tables/metrics.tsv", sep="\t")
    theirs = pd.read_csv(completed / "results/tiny/tables/metrics.tsv", sep="\t")
    assert set(mine["split"]) == {"two-fold"} and set(mine["selector"]) == {"mim"}
    assert mine["value"].tolist() == theirs["value"].tolist()
    # Each experiment's datasets table and provenance describe its own run.
    assert "tiny-again:" in (completed / "results/tiny-again/provenance.txt"
                             ).read_text()
    assert "tiny-again" not in (completed / "results/tiny/provenance.txt").read_text()
    # back to the tiny config (the summary page is of all experiments of a run)
    run(completed, mirror)
    assert planned(completed, mirror) == []


def test_more_repeats_add_only_the_new_folds(completed, mirror):
    """Hold-out repeat i does not depend on the number of repeats: with
    batches of one fold, 2 -> 3 repeats schedules the third fold's jobs only."""
    config = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
    config["fold_batch"] = 1
    tiny = config["experiments"]["tiny"]
    tiny["splits"] = {"ho": {"type": "holdout", "test_size": 0.5, "repeats": 2}}
    (completed / "config" / "ho.yaml").write_text(yaml.safe_dump(config))
    run(completed, mirror, "config/ho.yaml")
    tiny["splits"]["ho"]["repeats"] = 3
    (completed / "config" / "ho.yaml").write_text(yaml.safe_dump(config))
    jobs = planned(completed, mirror, "config/ho.yaml")
    fold_jobs = [(r, w["batch"]) for r, w in jobs if "batch" in w]
    assert sorted(fold_jobs) == [(r, "folds2-2") for r in (
        "classify", "classify", "discretize", "select", "split")]
    run(completed, mirror, "config/ho.yaml")
    table = pd.read_csv(completed / "results/tiny/tables/metrics.tsv", sep="\t")
    assert sorted(table["fold"].unique()) == [0, 1, 2]
    # the first two folds' selections are those of the 2-repeat run, and the
    # third fold is the third repeat of a 3-repeat split
    from mlfsbench.data import Dataset
    from mlfsbench.data.split import make_splits
    from mlfsbench.workflow.folds import load_fold

    Y = Dataset.load(completed / "data/prepared/emotions.npz").Y
    pairs = make_splits({"type": "holdout", "test_size": 0.5, "repeats": 3}, Y)
    base = completed / "results/shared/emotions/holdout-t0.5-seed0"
    for fold in range(3):
        _, test = load_fold(base / f"folds{fold}-{fold}" / "folds.npz", fold)
        assert test.tolist() == pairs[fold][1].tolist()
    # back to the tiny config: its results are still there
    run(completed, mirror)
    assert planned(completed, mirror) == []


def _edited_package(workdir: Path, module: str,
                    edit: str = "\nassert True\n") -> dict[str, str]:
    """A copy of the package with one module edited (``edit`` appended: by
    default a statement that defines no name, which counts with every
    definition of its module), and the environment that makes Snakemake's
    jobs import it."""
    src = workdir / "edited-src"
    if src.exists():
        shutil.rmtree(src)
    shutil.copytree(REPO / "src", src)
    path = src / "mlfsbench" / module
    path.write_text(path.read_text() + edit)
    return {**os.environ, "PYTHONPATH": str(src)}


def test_documentation_edits_rerun_nothing(completed, mirror):
    """A comment and a reworded docstring leave the code, and the results, as
    they were (the versions hash the syntax tree without docstrings)."""
    path = REPO / "src" / "mlfsbench" / "evaluation" / "metrics.py"
    text = path.read_text()
    assert '"""Multi-label evaluation measures.' in text
    reworded = text.replace('"""Multi-label evaluation measures.',
                            '"""Multi-label evaluation measures (reworded).', 1)
    env = _edited_package(completed, "evaluation/metrics.py",
                          "\n# a comment\n")
    (completed / "edited-src/mlfsbench/evaluation/metrics.py").write_text(
        reworded + "\n# a comment\n")
    assert planned(completed, mirror, env=env) == []


@pytest.mark.parametrize("module, expected", [
    # tiny runs mim-br and ML-kNN: a JMI edit concerns none of its jobs
    ("estimators/selectors/jmi.py", Counter()),
    ("estimators/selectors/mim.py", Counter(
        select=1, classify=1, aggregate=1, plot=1, stats=1, ranks=1, leaderboard=1,
        runtime=1, stability=1, headline=1, summary=1, all=1, paper_table=1)),
    ("evaluation/metrics.py", Counter(
        classify=2, aggregate=1, plot=1, stats=1, ranks=1, leaderboard=1, headline=1,
        summary=1, all=1, paper_table=1)),
    # the CD diagram is drawn by the stats jobs; ranks, the paper tables and
    # the summary page read their files
    ("report/cd_diagram.py", Counter(stats=1, ranks=1, leaderboard=1, summary=1, all=1,
                                     paper_table=1)),
    # tiny has no claims file: of its jobs only the summary page, which links
    # claims to their evidence through the claims module, reaches it
    ("report/claims/_base.py", Counter(summary=1, all=1)),
])
def test_code_edits_rerun_the_jobs_that_depend_on_them(completed, mirror, module,
                                                       expected):
    env = _edited_package(completed, module)
    jobs = planned(completed, mirror, env=env)
    assert rules_of(jobs) == expected


TINY_CLAIMS = {
    "study": "tiny", "paper": "none (a check of the claims stage)",
    "experiment": "tiny",
    "claims": [{
        "id": "mlknn-emotions-hamming",
        "statement": "ML-kNN on all features of emotions: Hamming loss about 0.2.",
        "source": "none", "reading": "A check of the stage.", "rule": "value",
        "quantity": {"metric": "hamming_loss", "dataset": "emotions",
                     "method": "all-features", "n_features": "all"},
        "paper": 0.2, "tolerance": 0.1}],
}


def test_claim_rule_edits_rerun_that_studys_claims_only(tmp_path, completed,
                                                        mirror):
    """Editing the claims module reruns the claims jobs and the summary page
    that reads them, nothing upstream; the CD diagram the stats jobs and
    their readers."""
    workdir = tmp_path / "claims"
    shutil.copytree(completed, workdir, symlinks=True)
    (workdir / "config" / "tiny.claims.yaml").write_text(yaml.safe_dump(TINY_CLAIMS))
    configfile = write_config(workdir, "tiny-claims.yaml",
                              claims="config/tiny.claims.yaml")
    run(workdir, mirror, configfile)
    verdicts = pd.read_csv(workdir / "results/tiny/tables/claims.tsv", sep="\t")
    assert verdicts["verdict"].tolist() == ["reproduced"]
    assert planned(workdir, mirror, configfile) == []
    env = _edited_package(workdir, "report/claims/rules/value.py")
    assert rules_of(planned(workdir, mirror, configfile, env=env)) == Counter(
        claims=1, summary=1, all=1)
    env = _edited_package(workdir, "report/cd_diagram.py")
    assert rules_of(planned(workdir, mirror, configfile, env=env)) == Counter(
        stats=1, ranks=1, leaderboard=1, claims=1, summary=1, all=1, paper_table=1)


@pytest.mark.parametrize("correct", [True, False])
def test_download_rule_verifies_a_git_blob_id(tmp_path, shared_datasets, mirror,
                                              correct):
    """A table row that knows a file by its git blob id (as corel16k001's
    training file): the download job verifies the id, ``ensure`` passes."""
    from mlfsbench.data.download import git_blob_id

    workdir = copy_workflow(REPO, tmp_path / "blob")
    table = workdir / "config" / "datasets.tsv"
    lines = table.read_text().splitlines()
    blob = git_blob_id(shared_datasets / "multi-label/emotions/emotions-train.arff")
    if not correct:
        blob = blob[::-1]
    for i, line in enumerate(lines):
        cells = line.split("\t")
        if cells[0] == "emotions":
            cells[4] = "git-blob:" + blob  # train_sha256
            lines[i] = "\t".join(cells)
    table.write_text("\n".join(lines) + "\n")
    target = "data/raw/emotions/train.arff"
    cmd = [str(BIN / "snakemake"), "--cores", "1", "--configfile",
           "config/tiny.yaml", "--config", f"mirror={mirror}", "--", target]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=TIMEOUT)
    log = (workdir / "logs/download/emotions/train.arff.log").read_text()
    if correct:
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert (workdir / target).read_bytes() == (
            shared_datasets / "multi-label/emotions/emotions-train.arff").read_bytes()
        assert "git blob id ok" in log
    else:
        assert proc.returncode != 0
        assert not (workdir / target).exists()
        assert f"expected git blob id {blob}" in log


def test_every_registered_method_runs_through_the_dag(tmp_path, mirror):
    """config/smoke.yaml runs every selector and classifier of the registry
    (its all_registered entries; tests/test_plan.py checks the plan)."""
    from mlfsbench.estimators import registry
    from mlfsbench.workflow.runstats import plan_of_config

    smoke = plan_of_config(REPO / "config" / "smoke.yaml", REPO).experiments
    workdir = copy_workflow(REPO, tmp_path / "smoke")
    run(workdir, mirror, "config/smoke.yaml")
    check_html_report(workdir, mirror)
    table = pd.read_csv(workdir / "results/smoke-selectors/tables/metrics.tsv",
                        sep="\t", dtype={"n_features": str})
    ids = {sel.split("-")[0] for sel in table["selector"].unique()}
    assert len(table["selector"].unique()) == len(
        smoke["smoke-selectors"]["selectors"])
    assert {"mim", "ig", "rf", "knnmi", "granular", "group"} <= ids
    hl = table[table["metric"] == "hamming_loss"]
    assert hl["value"].between(0.05, 0.5).all()
    # Threshold selectors keep a subset of their own: fewer than 72 features.
    fr = table[(table["metric"] == "feature_reduction")
               & (table["n_features"] == "selected")
               & table["selector"].str.startswith("ig-br")]
    assert (fr["value"] > 0).all()
    clf = pd.read_csv(workdir / "results/smoke-classifiers/tables/metrics.tsv",
                      sep="\t", dtype={"n_features": str})
    assert {c.split("-")[0] for c in clf["classifier"].unique()} >= {
        "brknn", "br", "mlknn"}
    assert len(clf["classifier"].unique()) == len(
        smoke["smoke-classifiers"]["classifiers"])
    regression = pd.read_csv(workdir / "results/smoke-regression/tables/metrics.tsv",
                             sep="\t", dtype={"n_features": str})
    rr = regression[regression["metric"] == "rrmse"].set_index("n_features")["value"]
    # kNN regression beats predicting the training mean (RRMSE 1) on atp1d.
    assert 0.2 < rr["all"] < 0.9 and 0.2 < rr["5"] < 1.0
    claims = pd.read_csv(workdir / "results/smoke-classifiers/tables/claims.tsv",
                         sep="\t", keep_default_na=False)
    assert claims["verdict"].tolist() == ["reproduced", "not reproduced",
                                          "not checkable here", "reproduced",
                                          "not reproduced"]
    assert claims["ours"].tolist()[3:] == ["holds in 3 of 3 draws",
                                           "holds in 1 of 3 draws"]
    # the two artificial claims read one run, computed by one job
    assert len(list((workdir / "results/shared/artificial").glob("*.npz"))) == 1
    assert len(list((workdir / "benchmarks/shared/artificial").glob("*.tsv"))) == 1
    assert claims["ours"][0].startswith("0.198")  # ML-kNN, yeast, all features
    # every pair of the compared methods on 2 datasets, per compared metric:
    # the three probabilities sum to 1, Cliff's delta within [-1, 1]
    pairs = pd.read_csv(workdir / "results/smoke-classifiers/tables/pairwise.tsv",
                        sep="\t")
    for metric, rows in pairs.groupby("metric"):
        k = len(json.loads((workdir / "results/smoke-classifiers/stats"
                            / f"{metric}.json").read_text())["methods"])
        assert len(rows) == k * (k - 1) // 2 and k >= 2
    assert (pairs[["p_first", "p_rope", "p_second"]].sum(axis=1) - 1).abs().max() < 1e-9
    assert pairs["cliffs_delta"].abs().max() <= 1 and (pairs["n_datasets"] == 2).all()
    assert set(pairs["magnitude"]) <= {"negligible", "small", "medium", "large"}
    tt = pd.read_csv(workdir / "results/smoke-classifiers/tables/transformations.tsv",
                     sep="\t")
    names = {t.rsplit("-", 1)[0] if t[-9:-8] == "-" else t
             for t in tt["transformation"].unique()}
    assert names == set(registry.names("transformation"))


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        if path := shutil.which(name):
            return path
    return None


def _sheets(pdf: bytes) -> int:
    """The number of pages of a PDF (its page objects)."""
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


def check_html_report(workdir: Path, mirror: str) -> None:
    """``snakemake --report`` opened in headless Chromium as a reader would."""
    proc = subprocess.run(
        [str(BIN / "snakemake"), "--report", "report.html", "--configfile",
         "config/smoke.yaml", "--config", f"mirror={mirror}"],
        cwd=workdir, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    report = workdir / "report.html"
    assert report.stat().st_size > 100_000
    # The summary page is the workflow description of the report.
    text = report.read_text(encoding="utf-8")
    assert "mlfs-summary" in text and "mlknn-yeast-hamming" in text
    chromium = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must check the report in Chromium: chromium or "
                        "playwright is missing (.ci/run installs them)")
        return
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("console",
                    lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(report.as_uri())
            # The opening page answers first: the table of every study, then
            # the verdicts; the rule graph is below them, off the first screen.
            overview = page.locator("table.overview").first
            overview.wait_for(state="visible")
            assert "smoke-classifiers" in overview.inner_text()
            assert overview.bounding_box()["y"] < 900
            assert page.locator("div#rulegraph").bounding_box()["y"] > 900
            table = page.locator("table.claims").first
            text = table.inner_text()
            assert "mlknn-yeast-hamming" in text and "not reproduced" in text
            assert "0.198" in text
            # A CD diagram on the page, shown at its own (readable) size.
            cd = page.locator("img.cd").first
            cd.wait_for(state="attached")
            natural, shown = cd.evaluate("e => [e.naturalWidth, e.width]")
            assert natural >= 300 and shown == natural
            # The experiment's datasets table, rendered in the page.
            page.get_by_text("smoke-classifiers", exact=True).first.click()
            page.get_by_text("datasets", exact=True).first.click()
            page.locator("tr", has_text="datasets.html").locator(
                "[iconname=eye]").click()
            frame = next(f for f in page.frames if "datasets.html" in f.url)
            text = frame.inner_text("body")
            assert "emotions" in text and "593" in text and "yeast" in text
            # A regenerated paper table: a bold best in every dataset's row.
            page.goto(report.as_uri())
            page.get_by_text("smoke-classifiers", exact=True).first.click()
            page.get_by_text("paper tables", exact=True).first.click()
            page.locator("tr", has_text="hamming_loss").first.locator(
                "[iconname=eye]").click()
            page.wait_for_timeout(500)
            frame = next(f for f in page.frames if "hamming_loss.html" in f.url)
            rows = frame.locator("table.paper tbody tr[id]")
            assert rows.count() >= 1
            for i in range(rows.count()):
                assert rows.nth(i).locator("b").count() >= 1
            shot = page.screenshot()
            assert len(shot) > 10_000
            # Printed, the report runs over several sheets (on screen its
            # view is a fixed-height scroller).
            page.goto(report.as_uri())
            page.locator("table.overview").first.wait_for(state="visible")
            assert _sheets(page.pdf(format="A4")) > 1
            # The standalone summary page: every checkable claim's evidence
            # link lands on its target, on the first screen.
            page.goto((workdir / "results" / "summary.html").as_uri())
            rows = page.locator("table.claims > tbody > tr")
            walked = 0
            for i in range(rows.count()):
                row = rows.nth(i)
                links = row.locator("td.evidence a").all()
                checkable = row.get_attribute("data-verdict") != "not checkable here"
                assert bool(links) == checkable, row.get_attribute("id")
                for link in links:
                    target = link.get_attribute("href")[1:]
                    link.click()
                    element = page.locator(f"[id='{target}']")
                    element.wait_for(state="visible")
                    assert 0 <= element.bounding_box()["y"] < 900, target
                    walked += 1
            assert walked >= 2
            assert _sheets(page.pdf(format="A4")) > 1
        finally:
            browser.close()
    assert errors == [], errors


READINGS_CLAIMS = """\
study: tiny
paper: a check of the readings stage (not a paper)
experiment: tiny
claims:
  - id: hamming-all
    statement: ML-kNN on all features of emotions has Hamming loss about 0.21.
    source: none (a check of the stage)
    reading: near the scaled value on the given split (.209); raw gives .29.
    rule: value
    quantity: {metric: hamming_loss, dataset: emotions, method: all-features,
               classifier: mlknn, n_features: all}
    paper: 0.21
    tolerance: 0.03
"""


def readings_config(workdir: Path) -> str:
    """config/tiny.yaml with a claims file and two readings: the classifier's
    scaling (raw favoured) and the grid (one more grid point)."""
    (workdir / "config" / "tiny.claims.yaml").write_text(READINGS_CLAIMS)
    return write_config(
        workdir, "readings.yaml", claims="config/tiny.claims.yaml",
        readings={
            "mlknn-scale": {"about": "silent", "favoured": "raw", "options": {
                "raw": {"classifiers": {"mlknn": {"params": {"scale": False}}}},
                "scaled": {}}},
            "grid": {"about": "silent", "favoured": "paper", "options": {
                "paper": {}, "wide": {"n_features": [1, 5, 10, 20, "all"]}}},
        })


def test_readings_dry_run_schedules_each_variants_claims_and_the_combine(
        tmp_path, mirror):
    workdir = copy_workflow(REPO, tmp_path / "dry")
    jobs = planned(workdir, mirror, readings_config(workdir))
    counts = rules_of(jobs)
    # one selection; classify: raw grid + raw all (favoured), scaled grid +
    # scaled all, the wide grid (its all point is the favoured one's)
    assert {r: counts[r] for r in ("select", "classify", "claims", "readings",
                                   "aggregate", "stats", "plot")} == {
        "select": 1, "classify": 5, "claims": 3, "readings": 1, "aggregate": 3,
        "stats": 3, "plot": 1}
    assert sorted(w["experiment"] for r, w in jobs if r == "claims") == [
        "tiny", "tiny~grid-wide", "tiny~mlknn-scale-scaled"]
    assert [w for r, w in jobs if r == "readings"] == [{"experiment": "tiny"}]


def test_readings_run_judges_each_claim_under_every_reading(tmp_path, completed,
                                                            mirror):
    """The readings config run after tiny: only the variants' jobs are new;
    the claim (Hamming loss near the scaled value) holds under the scaled
    reading only, and the claims command says so."""
    workdir = tmp_path / "readings"
    shutil.copytree(completed, workdir, symlinks=True)
    configfile = readings_config(workdir)
    new = rules_of(planned(workdir, mirror, configfile))
    # scaled is tiny as run: only raw (grid + all) and the wide grid classify
    assert {r: new[r] for r in ("select", "classify", "claims", "readings")} == {
        "select": 0, "classify": 3, "claims": 3, "readings": 1}
    run(workdir, mirror, configfile)
    robust = pd.read_csv(workdir / "results/tiny/tables/robust_claims.tsv", sep="\t")
    row = robust.iloc[0]
    assert (row["verdict"], row["verdict:mlknn-scale=scaled"],
            row["verdict:grid=wide"]) == ("not reproduced", "reproduced",
                                          "not reproduced")
    assert row["robustness"] == "depends on mlknn-scale: reproduced with scaled"
    assert row["favoured"] == "grid=paper, mlknn-scale=raw"
    long = pd.read_csv(workdir / "results/tiny/tables/readings.tsv", sep="\t")
    assert len(long) == 4
    out = subprocess.run([str(BIN / "mlfsbench"), "claims", "results/tiny"],
                         cwd=workdir, capture_output=True, text=True).stdout
    assert "robustness: depends on mlknn-scale: reproduced with scaled" in out
    assert planned(workdir, mirror, configfile) == []
