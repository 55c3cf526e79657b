"""Failure cases of the workflow on real runs (issue 14): raw files edited
after download, a dataset's URL changed, output modes, early config errors.

Each test runs Snakemake in a copy of the workflow against a ``file://``
mirror of the Mulan files; only the download stage runs where that suffices.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mlfsbench.workflow.runner import copy_workflow

pytestmark = pytest.mark.workflow

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RAW = ["data/raw/emotions/train.arff", "data/raw/emotions/test.arff",
       "data/raw/emotions/labels.xml"]


def snakemake(workdir, mirror, *args, configfile="config/tiny.yaml"):
    cmd = [str(BIN / "snakemake"), *args, "--cores", "1", "--configfile",
           configfile, "--config", f"mirror={mirror}"]
    return subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture
def downloaded(tmp_path, mirror):
    """A workflow copy with emotions' raw files downloaded (umask 022)."""
    workdir = copy_workflow(REPO, tmp_path / "wf")
    old = os.umask(0o022)
    try:
        proc = snakemake(workdir, mirror, *RAW)
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    return workdir


def _planned_rules(proc) -> list[str]:
    return [line.split()[1].rstrip(":") for line in proc.stdout.splitlines()
            if line.startswith(("rule ", "localrule "))]


def test_raw_downloads_are_readable_by_others(downloaded):
    # protected() removes write bits; the atomic writer used to leave 0400.
    for name in RAW:
        assert stat.S_IMODE((downloaded / name).stat().st_mode) == 0o444, name


def test_new_url_same_sha256_downloads_nothing(downloaded, mirror):
    table = (downloaded / "config/datasets.tsv").read_text()
    moved = table.replace("/multi-label/emotions/emotions-train.arff",
                          "/moved/emotions-train.arff")
    assert moved != table
    (downloaded / "config/moved.tsv").write_text(moved)
    config = yaml.safe_load((downloaded / "config/tiny.yaml").read_text())
    config["datasets_table"] = "config/moved.tsv"
    (downloaded / "config/moved.yaml").write_text(yaml.safe_dump(config))
    proc = snakemake(downloaded, mirror, "--dry-run", *RAW,
                     configfile="config/moved.yaml")
    assert proc.returncode == 0, proc.stderr
    assert _planned_rules(proc) == []


def test_edited_raw_file_stops_the_run_naming_it(downloaded, mirror):
    raw = downloaded / RAW[0]
    raw.chmod(0o644)
    with open(raw, "a") as fh:
        fh.write("% edited\n")
    proc = snakemake(downloaded, mirror, "--dry-run")
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert f"{RAW[0]}: content changed since it was downloaded" in out
    assert "rm -f" in out


def test_bad_config_entries_fail_before_any_job(tmp_path, mirror):
    workdir = copy_workflow(REPO, tmp_path / "wf")
    config = yaml.safe_load((workdir / "config/tiny.yaml").read_text())
    config["experiments"]["tiny"]["classifiers"][0]["params"]["k"] = 0
    (workdir / "config/bad.yaml").write_text(yaml.safe_dump(config))
    proc = snakemake(workdir, mirror, configfile="config/bad.yaml")
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "experiment 'tiny': classifiers entry" in out
    assert "k must be a positive integer, got 0" in out
    assert not (workdir / "data").exists()  # nothing was downloaded


def test_snakemake_killed_under_mlfsbench_run(tmp_path, mirror):
    # kill -9 of Snakemake alone (e.g. the OOM killer): the runner says so,
    # ends the jobs it left behind and exits 128 + 9; the next run completes.
    import signal
    import time

    from mlfsbench.workflow.runner import live_job_processes, live_snakemake_pids

    workdir = copy_workflow(REPO, tmp_path / "wf")
    cmd = [str(BIN / "mlfsbench"), "run", "--cores", "2", "--configfile",
           "config/tiny.yaml", "--config", f"mirror={mirror}"]
    proc = subprocess.Popen(cmd, cwd=workdir, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not live_job_processes(workdir) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live_job_processes(workdir), "no job started"
        for pid in live_snakemake_pids(workdir):
            os.kill(pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + 9, err
    assert "snakemake was killed by SIGKILL" in err
    deadline = time.monotonic() + 30
    while live_job_processes(workdir) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert live_job_processes(workdir) == []
    done = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stderr
    assert (workdir / "results/tiny/tables/metrics.tsv").exists()
