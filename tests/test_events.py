"""Snakemake's job events through the logger plugin ``mlfsbench``
(mlfsbench.workflow.events), as ``mlfsbench run`` starts Snakemake: through
its launcher, on a small workflow with a job that fails."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from mlfsbench.workflow.events import EventTail, logger_args
from mlfsbench.workflow.progress import Progress

SNAKEFILE = """\
rule all:
    input: expand("out/{x}.txt", x=["a", "b", "c"])

rule make:
    output: "out/{x}.txt"
    log: "logs/{x}.log"
    shell: "if [ {wildcards.x} = c ]; then exit 3; fi; echo {wildcards.x} > {output}"
"""


def _snakemake(work, events, *args):
    """Snakemake through mlfsbench's launcher, one job at a time (the order
    of its jobs fixed), its output returned."""
    cmd = [sys.executable, "-m", "mlfsbench.workflow.snakemake_main", "--cores",
           "1", *args, *logger_args(events)]
    return subprocess.run(cmd, cwd=work, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """The dry run's events, the run's events and the run's text output."""
    work = tmp_path_factory.mktemp("events")
    (work / "Snakefile").write_text(SNAKEFILE)
    dry = _snakemake(work, work / "dry.jsonl", "--dry-run")
    assert dry.returncode == 0, dry.stdout + dry.stderr
    run = _snakemake(work, work / "run.jsonl", "--keep-going")
    assert run.returncode == 1, run.stdout + run.stderr
    read = [[json.loads(line) for line in (work / f).read_text().splitlines()]
            for f in ("dry.jsonl", "run.jsonl")]
    return read[0], read[1], run.stdout + run.stderr


def test_a_dry_run_names_each_job_it_would_run(ran):
    dry, _, _ = ran
    assert {e["event"] for e in dry} == {"job_info"}
    assert sorted((e["rule"], tuple(e["wildcards"].items()), tuple(e["log"]))
                  for e in dry) == [
        ("all", (), ()),
        ("make", (("x", "a"),), ("logs/a.log",)),
        ("make", (("x", "b"),), ("logs/b.log",)),
        ("make", (("x", "c"),), ("logs/c.log",)),
    ]


def test_a_run_tells_each_job_s_start_and_end(ran):
    _, events, text = ran
    jobs = {e["jobid"]: e["wildcards"]["x"] for e in events
            if e["event"] == "job_info"}
    assert sorted(jobs.values()) == ["a", "b", "c"]  # ("all" never ran)
    ends = {jobs[e["jobid"]]: e["event"] for e in events
            if e["event"] != "job_info"}
    assert ends == {"a": "job_finished", "b": "job_finished", "c": "job_error"}
    (error,) = [e for e in events if e["event"] == "job_error"]
    # the log without Snakemake's remark "(check log file(s) for error details)"
    assert (error["rule"], error["log"]) == ("make", ["logs/c.log"])
    # each job's end comes after its start
    order = [(e["event"], e["jobid"]) for e in events]
    for jobid in jobs:
        assert order.index(("job_info", jobid)) < min(
            i for i, (kind, j) in enumerate(order) if j == jobid and kind != "job_info")
    # Snakemake's own text log is still written, whole
    assert "Error in rule make" in text and "Finished jobid" in text


def test_progress_from_the_events(ran):
    dry, events, _ = ran
    out = io.StringIO()
    progress = Progress(out, tty=False)
    progress.expect(dry)
    assert progress.total == {"all studies": 3}
    for event in events:
        progress.feed(event)
    lines = sorted(line.split(": ", 1)[1] for line in out.getvalue().splitlines())
    assert lines == ["FAILED make (c)", "done make (a)", "done make (b)",
                     "start make (a)", "start make (b)", "start make (c)"]
    (failure,) = progress.failures
    assert (failure.rule, failure.wildcards, failure.log) == (
        "make", {"x": "c"}, "logs/c.log")
    assert progress.done == {"all studies": 2}
    assert sorted(progress.finished_logs) == ["logs/a.log", "logs/b.log"]


def test_the_tail_reads_only_whole_new_lines(tmp_path):
    path = tmp_path / "events.jsonl"
    tail = EventTail(path)
    assert tail.read() == []  # not written yet
    path.write_text('{"event": "job_finished", "jobid": 1}\n{"event": "job_fi')
    assert tail.read() == [{"event": "job_finished", "jobid": 1}]
    assert tail.read() == []  # the half-written line waits
    with open(path, "a") as fh:
        fh.write('nished", "jobid": 2}\nnot json\n[1, 2]\n')
    # the line completed; a line that is not an event object is skipped
    assert tail.read() == [{"event": "job_finished", "jobid": 2}]
    later = EventTail(path)
    later.skip()  # an earlier command's events
    with open(path, "a") as fh:
        fh.write('{"event": "job_finished", "jobid": 3}\n')
    assert later.read() == [{"event": "job_finished", "jobid": 3}]


def test_the_plugin_refuses_to_run_without_its_file(tmp_path):
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    done = subprocess.run(
        [sys.executable, "-m", "mlfsbench.workflow.snakemake_main", "--cores", "1",
         "--dry-run", "--logger", "mlfsbench"], cwd=tmp_path, capture_output=True,
        text=True, timeout=300)
    assert done.returncode != 0
    assert "--logger-mlfsbench-path" in done.stdout + done.stderr
