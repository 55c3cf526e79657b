"""The league end to end (issue 40): ``mlfsbench league`` on
config/league.tiny.yaml (two small protocols on emotions and yeast, run as
experiments of their own, and the league over them), then a challenger
joining it: only the challenger's jobs are planned."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from mlfsbench.workflow.runner import copy_workflow

from .conftest import jobs_of

pytestmark = [pytest.mark.workflow, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TIMEOUT = 1800


def league(workdir: Path, mirror: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MLFS_MIRROR": mirror}
    return subprocess.run([str(BIN / "mlfsbench"), "league", "--configfile",
                           "config/league.tiny.yaml", *args], cwd=workdir,
                          capture_output=True, text=True, timeout=TIMEOUT, env=env)


def test_the_tiny_league_runs_shares_and_takes_a_challenger(tmp_path, mirror):
    workdir = copy_workflow(REPO, tmp_path / "run")
    proc = league(workdir, mirror, "--cores", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "league: results/league/league.html" in proc.stdout.splitlines()
    here = workdir / "results" / "league"
    # every selection ran once: the studies' 6 are the league's
    selections = list((workdir / "results" / "shared").rglob("select/*.json"))
    assert len(selections) == 20
    ranks = pd.read_csv(here / "ranks.tsv", sep="\t")
    # under tiny-cv (the mean over K = 1, 5, 10) 5 selectors and all
    # features, under tiny-ho (ranks averaged over K) the 5 selectors
    assert ranks.groupby(["protocol", "metric"]).size().to_dict() == {
        ("tiny-cv", "hamming_loss"): 6, ("tiny-cv", "ranking_loss"): 6,
        ("tiny-ho", "hamming_loss"): 5, ("tiny-ho", "macro_f1"): 5,
        ("tiny-ho", "ranking_loss"): 5}
    assert set(ranks["method"]) == {"mim-br", "ig-br", "fimf", "cmim", "rfs",
                                    "all-features"}
    assert ranks.groupby(["protocol", "metric"])["average_rank"].sum().round(6) \
        .tolist() == [21.0, 21.0, 15.0, 15.0, 15.0]  # k (k + 1) / 2
    kendall = pd.read_csv(here / "kendall.tsv", sep="\t")
    assert kendall[["metric", "protocol_a", "protocol_b", "n_methods"]] \
        .values.tolist() == [["hamming_loss", "tiny-cv", "tiny-ho", 5],
                             ["ranking_loss", "tiny-cv", "tiny-ho", 5]]
    assert kendall["tau"].between(-1, 1).all()
    methods = pd.read_csv(here / "methods.tsv", sep="\t", keep_default_na=False)
    assert methods[methods["status"] == "skipped"][["protocol", "method"]] \
        .values.tolist() == [["tiny-cv", "mrmr"], ["tiny-ho", "mrmr"]]
    text = (here / "league.html").read_text()
    for protocol in ("tiny-cv", "tiny-ho"):
        assert f"id='protocol-{protocol}'" in text
    assert len(list((here / "figures").glob("cd-*.png"))) == 5
    assert "left out of the test league (a reason the page states)" in text
    # the summary page links it
    assert "league/league.html" in (workdir / "results" / "summary.html").read_text()
    # a challenger joins: only its selections and classifications are new
    proc = league(workdir, mirror, "--selector", "mfs", "-n")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    jobs = jobs_of(proc.stdout)
    batch = [(rule, w) for rule, w in jobs if rule in ("select", "classify")]
    assert Counter(rule for rule, _ in batch) == {"select": 4, "classify": 4}
    assert {w["selector"].split("-")[0] for _, w in batch} == {"mfs"}
    assert Counter(rule for rule, _ in jobs)["league"] == 1
    assert (workdir / "config" / "challenges" / "league+mfs.yaml").read_text() \
        .startswith("# Written by `mlfsbench league`")
