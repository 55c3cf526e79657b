"""``mlfsbench run`` as a person sees it, and a study that survives a dataset
it cannot get (issues #25 item 2, #27 item 5, #29 run from elsewhere).

Each test runs the tiny workflow in its own copy (slow: a minute or two).
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mlfsbench.workflow.progress import MAX_LINE
from mlfsbench.workflow.runner import copy_workflow

pytestmark = [pytest.mark.workflow, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
MLFSBENCH = str(Path(sys.executable).parent / "mlfsbench")
TIMEOUT = 1800


def _in_pty(cmd: list[str], cwd: Path) -> tuple[int, str]:
    """Run ``cmd`` with a pseudo-terminal as its stdout and stderr."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last writer has gone
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=TIMEOUT), b"".join(chunks).decode(errors="replace")


def _lines(text: str) -> list[str]:
    """The lines a terminal ends with (cursor moves and clears removed)."""
    text = re.sub(r"\x1b\[\d*[A-Za-z]", "\n", text.replace("\r\n", "\n"))
    return [line for line in text.split("\n") if line.strip()]


def test_run_in_a_terminal_shows_progress_from_another_directory(tmp_path, mirror):
    workdir = copy_workflow(REPO, tmp_path / "wf")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, out = _in_pty([MLFSBENCH, "run", "--workdir", str(workdir), "--cores",
                         "2", "--configfile", "config/tiny.yaml", "--config",
                         f"mirror={mirror}"], cwd=elsewhere)
    assert code == 0, out
    lines = _lines(out)
    # the display: redrawn in place, per study its jobs done of its total
    assert "\x1b[" in out
    assert any(re.match(r"mlfsbench run: .* elapsed, \d+ of \d+ study jobs done",
                        line) for line in lines), out
    done = [line for line in lines if re.match(r"  tiny: \d+/\d+ jobs", line)]
    assert done and re.match(r"  tiny: (\d+)/\1 jobs", done[-1]), done[-1:]
    assert any("running" in line and "left" in line for line in done), done
    assert max(len(line) for line in out.splitlines()) <= MAX_LINE
    assert lines[-1] == "summary: ../wf/results/summary.html", lines[-3:]
    # Snakemake's whole log is kept
    (log,) = (workdir / "logs").glob("run-*.log")
    assert "steps (100%) done" in log.read_text()
    assert (workdir / "results" / "tiny" / "tables" / "summary.tsv").exists()
    assert not (workdir / "results" / "unavailable.json").exists()


CLAIMS = """\
study: tiny
paper: Two datasets, one of which cannot be downloaded.
experiment: tiny
claims:
  - id: emotions-value
    statement: MIM's Hamming loss on emotions at K = 5 is about 0.25.
    source: Table 1
    reading: Table 1 (made up for this test).
    rule: value
    quantity: {metric: hamming_loss, dataset: emotions, method: mim-br, n_features: 5}
    paper: 0.25
    tolerance: 0.2
  - id: yeast-value
    statement: MIM's Hamming loss on yeast at K = 5 is about 0.2.
    source: Table 1
    reading: Table 1 (made up for this test).
    rule: value
    quantity: {metric: hamming_loss, dataset: yeast, method: mim-br, n_features: 5}
    paper: 0.2
    tolerance: 0.1
"""


def test_a_study_survives_a_dataset_it_cannot_get(tmp_path, mirror):
    workdir = copy_workflow(REPO, tmp_path / "wf")
    # yeast's training file points at a file the mirror does not have
    table = (workdir / "config" / "datasets.tsv").read_text()
    table = table.replace("yeast/yeast-train.arff", "yeast/missing-train.arff")
    (workdir / "config" / "broken.tsv").write_text(table)
    (workdir / "config" / "tiny.claims.yaml").write_text(CLAIMS)
    config = yaml.safe_load((workdir / "config" / "tiny.yaml").read_text())
    config["datasets_table"] = "config/broken.tsv"
    config["experiments"]["tiny"]["datasets"] = ["emotions", "yeast"]
    config["experiments"]["tiny"]["claims"] = "config/tiny.claims.yaml"
    (workdir / "config" / "two.yaml").write_text(yaml.safe_dump(config))
    proc = subprocess.run([MLFSBENCH, "run", "--cores", "2", "--configfile",
                           "config/two.yaml", "--config", f"mirror={mirror}"],
                          cwd=workdir, capture_output=True, text=True,
                          timeout=TIMEOUT)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= MAX_LINE
    # the last lines: the summary page, then the failed dataset and why
    assert lines[-2] == "summary: results/summary.html", lines[-4:]
    assert lines[-1].startswith("FAILED dataset yeast: "), lines[-1]
    assert "missing-train.arff" in lines[-1] or "No such file" in lines[-1]
    reason = json.loads((workdir / "results" / "unavailable.json").read_text())
    assert list(reason) == ["yeast"]
    assert lines[-1] == f"FAILED dataset yeast: {reason['yeast']}"
    # nothing of yeast is kept as if valid
    assert not (workdir / "data" / "prepared" / "yeast.npz").exists()
    assert not (workdir / "data" / "raw" / "yeast" / "train.arff").exists()
    # emotions' tables, claims and the summary page are built
    summary = pd.read_csv(workdir / "results" / "tiny" / "tables" / "summary.tsv",
                          sep="\t")
    assert summary["dataset"].unique().tolist() == ["emotions"]
    claims = pd.read_csv(workdir / "results" / "tiny" / "tables" / "claims.tsv",
                         sep="\t", keep_default_na=False).set_index("claim")
    assert claims.loc["emotions-value", "verdict"] == "reproduced"
    assert claims.loc["yeast-value", "verdict"] == "not checkable here"
    assert claims.loc["yeast-value", "note"] == (
        f"no dataset of the claim is run here (yeast: {reason['yeast']})")
    page = (workdir / "results" / "summary.html").read_text()
    assert "Could not run:</b> yeast (" in page
