"""The workflow on a real SLURM scheduler, through ``profiles/slurm``.

Needs a running cluster: ``.ci/scripts/start_slurm.sh DIR`` starts a
single-node one from Debian's packages, then ``MLFS_SLURM=1`` and
``SLURM_CONF=DIR/slurm.conf`` point this module at it (``.ci/run`` does all
of that). Without them the module skips, except under ``CI=true`` where it
fails: CI must exercise the scheduler.

One scenario, run once for the module (about three minutes on two cores):

1. the tiny experiment plus a second classifier whose ``k`` is larger than a
   fold's training part (a bad config value): SLURM runs everything, the two
   jobs of that classifier fail and are reported;
2. the value is fixed and the workflow rerun: only the failed jobs and what
   depends on them are submitted; everything else is reused.

Every Snakemake call is wrapped in ``timeout -s KILL`` and the run's jobs
still queued at the end are cancelled, so that a stuck scheduler cannot hang
the test suite.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mlfsbench.workflow.ids import cache_id
from mlfsbench.workflow.runner import copy_workflow

from . import test_workflow as wf  # its config and dry-run helpers

pytestmark = [pytest.mark.workflow, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BIN = Path(sys.executable).parent
PROFILES = [REPO / "profiles" / "slurm", HERE / "profiles" / "slurm-ci"]
RUN_LIMIT = 420  # seconds for one Snakemake run, enforced with SIGKILL
BAD = {"name": "mlknn", "id": "mlknn-wide", "params": {"k": 1000}}
FIXED = {**BAD, "params": {"k": 50}}
# Submission lines of snakemake-executor-plugin-slurm.
SUBMITTED = re.compile(
    r"has been submitted with SLURM jobid (\d+) \(log: (\S+)\)\.")


def _slurm_cmd(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["timeout", "-s", "KILL", "30", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def slurm() -> str:
    """Name of the idle node of the test cluster; skips or fails without one."""
    how = ("start one with `.ci/scripts/start_slurm.sh DIR` and set MLFS_SLURM=1 "
           "SLURM_CONF=DIR/slurm.conf (.ci/run does this)")
    if os.environ.get("MLFS_SLURM") != "1":
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no SLURM cluster was started: {how}")
        pytest.skip(f"no SLURM cluster (MLFS_SLURM is not 1): {how}")
    if shutil.which("sinfo") is None:
        pytest.fail(f"MLFS_SLURM=1 but sinfo is not installed: {how}")
    proc = _slurm_cmd("sinfo", "-h", "-N", "-o", "%N %t")
    nodes = dict(line.split() for line in proc.stdout.splitlines())
    up = [n for n, state in nodes.items() if state in ("idle", "mix", "alloc")]
    if proc.returncode != 0 or not up:
        pytest.fail(f"MLFS_SLURM=1 but the cluster is not usable "
                    f"(SLURM_CONF={os.environ.get('SLURM_CONF')}): "
                    f"{proc.stdout}{proc.stderr}")
    return up[0]


def _snakemake(workdir: Path, mirror: str, configfile: str):
    cmd = ["timeout", "-s", "KILL", str(RUN_LIMIT), str(BIN / "snakemake"),
           *(f"--profile={p}" for p in PROFILES),
           "--configfile", configfile, "--config", f"mirror={mirror}"]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=RUN_LIMIT + 30)
    assert proc.returncode != -9, f"killed after {RUN_LIMIT} s:\n{proc.stderr}"
    return proc


def _cancel_jobs_in(workdir: Path) -> None:
    """scancel the jobs of ``workdir`` that are still pending or running."""
    proc = _slurm_cmd("squeue", "-h", "-t", "PENDING,RUNNING", "-o", "%i %Z")
    ids = [line.split()[0] for line in proc.stdout.splitlines()
           if line.split()[1:] == [str(workdir)]]
    if ids:
        _slurm_cmd("scancel", *ids)


def submissions(proc) -> dict[str, Path]:
    """SLURM job id -> SLURM log file, from a run's output."""
    return {i: Path(p) for i, p in SUBMITTED.findall(proc.stdout + proc.stderr)}


def log_kind(log: Path) -> str:
    """The plugin's folder of a SLURM log: ``rule_<name>`` or ``group_<name>_...``."""
    return log.parts[log.parts.index("slurm_logs") + 1]


def job_states(ids) -> dict[str, str]:
    """SLURM's own record (kept MinJobAge=600 s after the end) of the jobs."""
    proc = _slurm_cmd("squeue", "-h", "-t", "all", "-o", "%i|%T",
                      "-j", ",".join(ids))
    assert proc.returncode == 0, proc.stderr
    return dict(line.split("|") for line in proc.stdout.split())


@pytest.fixture(scope="module")
def cluster_runs(slurm, mirror, tmp_path_factory):
    """The failing run, the jobs planned to fix it, and the fixed rerun."""
    workdir = copy_workflow(REPO, tmp_path_factory.mktemp("slurm") / "run")
    classifiers = wf.tiny_experiment()["classifiers"]
    bad = wf.write_config(workdir, "bad.yaml", classifiers=[*classifiers, BAD])
    fixed = wf.write_config(workdir, "fixed.yaml",
                            classifiers=[*classifiers, FIXED])
    try:
        failed = _snakemake(workdir, mirror, bad)
        kept = {p: p.stat().st_mtime_ns
                for p in (workdir / "results").rglob("*") if p.is_file()}
        plan = wf.planned(workdir, mirror, fixed)
        rerun = _snakemake(workdir, mirror, fixed)
    finally:
        _cancel_jobs_in(workdir)
    assert rerun.returncode == 0, rerun.stdout[-5000:] + rerun.stderr[-5000:]
    return {"workdir": workdir, "failed": failed, "kept": kept, "plan": plan,
            "rerun": rerun, "fixed": fixed}


def test_failing_job_is_reported_with_rule_wildcards_and_logs(cluster_runs):
    failed = cluster_runs["failed"]
    out = failed.stdout + failed.stderr
    assert failed.returncode != 0
    # The rule, its wildcards (in the job listing and the job's own SLURM
    # log, shown with the error) and the job's log paths are reported ...
    assert re.search(r"Error in (rule|group) classify", out), out[-3000:]
    # One job classifies both folds of the split (a batch); its keys are the
    # split protocol and the classifier's content id (k=1000).
    bad = cache_id(BAD, "emotions", "classifier")
    assert re.search(
        rf"wildcards: .*dataset=emotions, split=kfold-k2-seed0, "
        rf"batch=folds0-1, seed=0, selector=\S+, classifier={bad}", out)
    logs = re.findall(rf"log: (logs/classify/\S+/{bad}/\S+\.log)", out)
    assert logs, out[-3000:]
    # ... with the cause: the rule's log, shown by --show-failed-logs
    # (the rerun below rewrites that file).
    shown = out.split(f"Logfile {logs[0]}:", 1)
    assert len(shown) == 2, out[-3000:]
    assert "ValueError: k=1000 needs at least k + 1 = 1001" in shown[1]
    # The failing SLURM job is FAILED in SLURM and its log is named.
    jobs = submissions(failed)
    states = job_states(jobs)
    # (two jobs of the bad classifier: its grid's sizes, and "all" features)
    failed_ids = [i for i, s in states.items() if s == "FAILED"]
    assert len(failed_ids) == 2, states
    for i in failed_ids:
        assert str(jobs[i]) in out
        assert f"classifier={bad}" in jobs[i].read_text()
    assert {s for i, s in states.items() if i not in failed_ids} == {"COMPLETED"}


def test_rerun_resumes_with_only_the_failed_part(cluster_runs):
    plan = cluster_runs["plan"]
    rules = wf.rules_of(plan)
    # Nothing upstream of the failure is planned again ...
    assert not {"download", "prepare", "split", "discretize", "select"} & set(rules)
    # ... nor the classifier that worked; the fixed one runs on both folds
    # (one batch job).
    fold_jobs = [(r, w["batch"], w["classifier"]) for r, w in plan
                 if r == "classify"]
    assert fold_jobs == [
        ("classify", "folds0-1", cache_id(FIXED, "emotions", "classifier"))] * 2
    assert "aggregate" in rules
    # The rerun submitted no data preparation or selection job, and the files
    # the first run made were not rewritten.
    kinds = {log_kind(p) for p in submissions(cluster_runs["rerun"]).values()}
    assert kinds and not [k for k in kinds if k.startswith(
        ("group_data", "group_folds", "rule_select", "rule_prepare", "rule_download",
         "rule_split"))], kinds
    for path, mtime in cluster_runs["kept"].items():
        assert path.stat().st_mtime_ns == mtime, path


def test_outputs_were_made_by_slurm_jobs(cluster_runs, mirror):
    workdir = cluster_runs["workdir"]
    assert wf.planned(workdir, mirror, cluster_runs["fixed"]) == []
    for table in wf.TABLES:
        assert (workdir / "results" / table).stat().st_size > 0, table
    metrics = pd.read_csv(workdir / "results/tiny/tables/metrics.tsv", sep="\t",
                          dtype={"n_features": str})
    hl = metrics[(metrics["metric"] == "hamming_loss")
                 & (metrics["n_features"] == "all")]
    assert set(hl["classifier"].str.startswith("mlknn")) == {True}
    assert len(hl) == 4  # 2 folds x 2 classifiers
    assert hl["value"].between(0.1, 0.35).all()
    # Each job went through SLURM: one log per SLURM job id (kept by the CI
    # profile), SLURM records it as COMPLETED or FAILED, and every output of
    # every rule was written inside such a job.
    jobs = {**submissions(cluster_runs["failed"]),
            **submissions(cluster_runs["rerun"])}
    assert len(jobs) >= 6
    states = job_states(jobs)
    assert set(states) == set(jobs)
    assert set(states.values()) <= {"COMPLETED", "FAILED"}
    slurm_text = ""
    for job_id, log in jobs.items():
        assert log.name == f"{job_id}.log" and ".snakemake/slurm_logs" in str(log)
        slurm_text += log.read_text()
    done_in_slurm = set(re.findall(r"^localrule (\w+):", slurm_text, flags=re.M))
    # The rules Snakemake scheduled (its job listings) all ran in SLURM jobs.
    scheduled = set(re.findall(
        r"^\s*(?:local)?rule (\w+):", "".join(
            p.stdout + p.stderr
            for p in (cluster_runs["failed"], cluster_runs["rerun"])),
        flags=re.M))
    assert {"download", "select", "classify", "aggregate"} <= scheduled
    assert done_in_slurm == scheduled - {"all"}
    for table in wf.TABLES:
        assert f"results/{table}" in slurm_text, table
