"""Atomic writes and the runner's detection of live runs."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time

import numpy as np
import pytest

from mlfsbench.io import atomic_path, save_npz, write_text
from mlfsbench.workflow.runner import (
    RunRefused,
    live_job_processes,
    live_snakemake_pids,
    run,
)


def test_atomic_path_leaves_nothing_on_error(tmp_path):
    target = tmp_path / "out.txt"
    write_text(target, "old")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize(("umask", "file_mode", "dir_mode"),
                         [(0o022, 0o644, 0o755), (0o027, 0o640, 0o750)])
def test_atomic_outputs_follow_the_umask(tmp_path, umask, file_mode, dir_mode):
    old = os.umask(umask)
    try:
        write_text(tmp_path / "new" / "out.txt", "x")
        save_npz(tmp_path / "new" / "arrays.npz", a=np.arange(3))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new" / "out.txt").stat().st_mode) == file_mode
    assert stat.S_IMODE((tmp_path / "new" / "arrays.npz").stat().st_mode) == file_mode
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == dir_mode


def test_live_snakemake_detected_by_cwd(tmp_path):
    fake = tmp_path / "snakemake"
    fake.write_text("#!/bin/sh\nsleep 30\n")
    fake.chmod(0o755)
    proc = subprocess.Popen([str(fake)], cwd=tmp_path)
    try:
        # Right after fork the child still shows the parent's command line:
        # wait (at most 10 s) until it has exec'd the fake snakemake.
        deadline = time.monotonic() + 10
        while (proc.pid not in live_snakemake_pids(tmp_path)
               and time.monotonic() < deadline):
            time.sleep(0.05)
        assert proc.pid in live_snakemake_pids(tmp_path)
        assert proc.pid not in live_snakemake_pids(tmp_path / "..")
        (tmp_path / "Snakefile").write_text("")
        with pytest.raises(RunRefused, match=str(proc.pid)):
            run(["--cores", "1"], workdir=tmp_path)
    finally:
        proc.kill()
        proc.wait()


def test_run_requires_a_snakefile(tmp_path):
    with pytest.raises(FileNotFoundError) as caught:
        run([], workdir=tmp_path)
    assert str(caught.value) == (f"{tmp_path.resolve()}: no workflow here (no "
                                 "Snakefile); 'mlfsbench init' writes one")


def test_run_refused_while_another_run_holds_the_lock(tmp_path):
    (tmp_path / "Snakefile").write_text("")
    (tmp_path / ".snakemake").mkdir()
    holder = subprocess.Popen([
        sys.executable, "-c",
        "import fcntl,sys,time; f=open(sys.argv[1],'a+'); "
        "fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(30)",
        str(tmp_path / ".snakemake" / "mlfsbench-run.lock")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(RunRefused, match="another 'mlfsbench run'"):
            run(["--cores", "1"], workdir=tmp_path)
    finally:
        holder.kill()
        holder.wait()
    assert os.path.exists(tmp_path / ".snakemake" / "mlfsbench-run.lock")


def _spawn_in(workdir, *argv):
    """A process with cwd ``workdir`` whose command line is ``argv``; waits
    until it has exec'd (right after fork it shows the parent's)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)",
                             *argv], cwd=workdir)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if argv[0] in open(f"/proc/{proc.pid}/cmdline").read():
                break
        except OSError:
            pass
        time.sleep(0.05)
    return proc


def test_orphaned_job_of_a_killed_run_is_named_and_refused(tmp_path):
    # After kill -9 of snakemake its jobs live on (issue 14.5).
    (tmp_path / "Snakefile").write_text("")
    job = _spawn_in(tmp_path, ".snakemake/scripts/tmpab12.select.py")
    other = _spawn_in(tmp_path, "my-own-tool")  # not a job: ignored
    try:
        assert [pid for pid, _ in live_job_processes(tmp_path)] == [job.pid]
        with pytest.raises(RunRefused) as info:
            run(["--cores", "1"], workdir=tmp_path)
        message = str(info.value)
        assert f"pid {job.pid}: " in message
        assert "tmpab12.select.py" in message
        assert f"kill {job.pid}" in message
        assert str(other.pid) not in message
    finally:
        for p in (job, other):
            p.kill()
            p.wait()
    assert live_job_processes(tmp_path) == []


def _fake_python_snakemake(tmp_path, monkeypatch, body: str):
    """``mlfsbench run``'s Snakemake replaced by a Python script that runs
    ``body`` (unless asked to unlock); returns the working directory ``w``
    with an empty Snakefile. The script takes the job-event logger's options
    out of its ``sys.argv`` (checking them) and names its file ``EVENTS``."""
    exe = tmp_path / "fake.py"
    exe.write_text("import json, os, signal, sys\n"
                   "EVENTS = None\n"
                   "if '--logger' in sys.argv:\n"
                   "    i = sys.argv.index('--logger')\n"
                   "    assert sys.argv[i + 1:i + 3] == ['mlfsbench', "
                   "'--logger-mlfsbench-path'], sys.argv\n"
                   "    EVENTS = sys.argv[i + 3]\n"
                   "    del sys.argv[i:i + 4]\n"
                   "if '--unlock' not in sys.argv:\n"
                   + "".join(f"    {line}\n" for line in body.splitlines()))
    monkeypatch.setattr("mlfsbench.workflow.runner._snakemake_cmd",
                        lambda: [sys.executable, str(exe)])
    work = tmp_path / "w"
    work.mkdir()
    (work / "Snakefile").write_text("")
    return work


def _argv_recorder(tmp_path, monkeypatch):
    """A fake Snakemake that writes its arguments to the returned file."""
    seen = tmp_path / "argv.json"
    work = _fake_python_snakemake(tmp_path, monkeypatch,
                                  f"json.dump(sys.argv[1:], open({str(seen)!r}, 'w'))")
    return work, seen


def test_killed_snakemake_exits_with_128_plus_signal(tmp_path, monkeypatch, caplog):
    work = _fake_python_snakemake(tmp_path, monkeypatch,
                                  "os.kill(os.getpid(), signal.SIGKILL)")
    assert run(["--cores", "1"], workdir=work) == 128 + 9
    assert "snakemake was killed by SIGKILL" in caplog.text


def test_empty_config_file_is_named(tmp_path):
    (tmp_path / "Snakefile").write_text("")
    (tmp_path / "empty.yaml").write_text("# nothing\n")
    with pytest.raises(ValueError, match=r"^empty\.yaml: empty config file"):
        run(["--cores", "1", "--configfile", "empty.yaml"], workdir=tmp_path)
    with pytest.raises(ValueError, match=r"^nope\.yaml: cannot read"):
        run(["--configfile=nope.yaml"], workdir=tmp_path)


def test_snakemake_acts_on_sigint_when_the_runner_ignores_it(tmp_path, monkeypatch):
    # started in the background of a script, the runner has SIGINT ignored;
    # Snakemake, to which it forwards SIGINT, must not inherit that
    import signal

    report = tmp_path / "sigint.txt"
    work = _fake_python_snakemake(
        tmp_path, monkeypatch,
        f"open({str(report)!r}, 'w').write(signal.getsignal(signal.SIGINT).__name__)")
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert run(["--cores", "1"], workdir=work) == 0
    finally:
        signal.signal(signal.SIGINT, previous)
    assert report.read_text() == "default_int_handler"


@pytest.mark.parametrize(("args", "added"), [
    (["--cores", "2"], ["--max-threads", "1"]),
    (["--cores", "2", "--max-threads", "2"], []),
    (["--cores", "2", "--max-threads=2"], []),
    (["--profile", "profiles/slurm"], []),
    (["--executor", "slurm", "-j", "50"], []),
    (["--cores", "4", "--set-threads", "classify=2"], []),
])
def test_one_thread_per_job_on_one_machine(tmp_path, monkeypatch, args, added):
    """Jobs run one fold at a time, as many jobs as cores, unless the
    arguments set a job's threads or run on a cluster."""
    import json

    work, seen = _argv_recorder(tmp_path, monkeypatch)
    assert run(args, workdir=work) == 0
    assert json.loads(seen.read_text()) == [*TRIGGERS, "--rerun-incomplete",
                                            *added, *args]


TRIGGERS = ["--rerun-triggers", "params", "input", "software-env"]


@pytest.mark.parametrize(("args", "triggers"), [
    (["--cores", "2"], TRIGGERS),
    (["--cores", "2", "--rerun-triggers", "mtime", "code"], []),
    (["--rerun-triggers=params", "--cores", "2"], []),
])
def test_runs_rerun_on_content_not_file_times(tmp_path, monkeypatch, args, triggers):
    """Snakemake's ``code`` trigger (an output older than its rule's script)
    and ``mtime`` are left out unless the arguments choose the triggers: a
    cache copied into a fresh clone is reused (docs/cache.md)."""
    import json

    work, seen = _argv_recorder(tmp_path, monkeypatch)
    for extra in ([], ["--dry-run"]):  # a run and an inspection
        assert run([*args, *extra], workdir=work) == 0
        assert json.loads(seen.read_text())[:len(triggers) + 1] == [
            *triggers, "--rerun-incomplete"]


@pytest.mark.parametrize("name", ["NA", "nan", "null", "None", "N/A"])
def test_dataset_named_like_a_missing_value_keeps_its_name_in_tables(tmp_path, name):
    import pandas as pd

    from mlfsbench.io import METRIC_COLUMNS, format_table, read_table
    from mlfsbench.report.aggregate import summarize, write_tables

    rows = [[d, "cv", f, "mim", "mlknn", "5", "hamming_loss", v]
            for d, f, v in [(name, 0, 0.1), (name, 1, 0.3), ("yeast", 0, 0.2),
                            ("yeast", 1, float("nan"))]]
    src = tmp_path / "m.tsv"
    src.write_text(format_table(pd.DataFrame(rows, columns=METRIC_COLUMNS)))
    table = write_tables([src], tmp_path / "metrics.tsv", tmp_path / "summary.tsv")
    assert table["dataset"].tolist() == [name, name, "yeast", "yeast"]
    summary = read_table(tmp_path / "summary.tsv", dtype={"n_features": str})
    assert summary["dataset"].tolist() == [name, "yeast"]
    assert summary["mean"].tolist() == pytest.approx([0.2, 0.2])
    # an empty cell is still a missing value
    assert read_table(tmp_path / "metrics.tsv")["value"].isna().tolist() == [
        False, False, False, True]
    assert summarize(table)["folds"].tolist() == [2, 1]


def test_run_passes_config_to_snakemake_not_as_a_configfile(tmp_path, monkeypatch):
    # argparse took Snakemake's --config for an abbreviated --configfile
    from mlfsbench import cli

    seen = {}
    monkeypatch.setattr("mlfsbench.workflow.runner.run",
                        lambda args, workdir, **_: seen.update(args=args) or 0)
    assert cli.main(["run", "--cores", "2", "--configfile", "c.yaml", "--config",
                     "mirror=x"]) == 0
    assert seen["args"] == ["--cores", "2", "--configfile", "c.yaml", "--config",
                            "mirror=x"]


def test_run_from_another_directory_with_directory_or_snakefile(tmp_path, monkeypatch):
    # today's runner looked for a Snakefile in the current directory only
    seen = tmp_path / "cwd.txt"
    work = _fake_python_snakemake(
        tmp_path, monkeypatch,
        f"open({str(seen)!r}, 'w').write(os.getcwd() + ' ' + ' '.join(sys.argv[1:]))")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert run(["--directory", "../w", "--cores", "1"]) == 0
    triggers = " ".join(TRIGGERS)
    assert seen.read_text() == (f"{work} {triggers} --rerun-incomplete --max-threads 1 "
                                "--cores 1")
    assert run(["--snakefile", "../w/Snakefile", "--cores", "1"]) == 0
    assert seen.read_text() == (f"{elsewhere} {triggers} --rerun-incomplete "
                                "--max-threads 1 "
                                f"--snakefile {work / 'Snakefile'} --cores 1")
    with pytest.raises(FileNotFoundError, match="no workflow here"):
        run(["--cores", "1"])


def test_warnings_of_finished_jobs_are_listed_at_the_end(tmp_path, monkeypatch):
    # a job's warnings went to its own log only: `mlfsbench run` showed none
    import io
    import json
    import logging
    import warnings

    from mlfsbench.workflow.logutil import log_to

    events = "".join(
        json.dumps({"event": "job_info", "jobid": i, "rule": "select",
                    "wildcards": {}, "log": [f"logs/select/{name}.log"]}) + "\n"
        + json.dumps({"event": "job_finished", "jobid": i}) + "\n"
        for i, name in enumerate("abc", start=1))
    work = _fake_python_snakemake(tmp_path, monkeypatch,
                                  f"open(EVENTS, 'a').write({events!r})")
    (work / "results").mkdir()
    (work / "results" / "summary.html").write_text("")
    with log_to(work / "logs" / "select" / "a.log"):
        logging.getLogger("mlfsbench.io").warning("2 cached result(s) have no "
                                                  "recorded checksum")
        logging.getLogger("mlfsbench.io").warning("second")
    with log_to(work / "logs" / "select" / "b.log"):
        warnings.warn("data/raw/x.arff: dropping identifier attribute 'id'",
                      UserWarning, stacklevel=1)
    with log_to(work / "logs" / "select" / "c.log"):
        logging.getLogger("mlfsbench").info("fine")
    out = io.StringIO()
    monkeypatch.chdir(work)
    assert run(["--cores", "1"], out=out) == 0
    shown = [line for line in out.getvalue().splitlines()
             if line.startswith("warning:")]
    assert shown == [
        "warning: 2 cached result(s) have no recorded checksum (+1 more) "
        "(log: logs/select/a.log)",
        "warning: UserWarning: data/raw/x.arff: dropping identifier attribute "
        "'id' (log: logs/select/b.log)",
    ]
    assert out.getvalue().splitlines()[-1] == "summary: results/summary.html"
    # the events came through the file the runner named, beside its log
    (events_file,) = (work / "logs").glob("run-*.events.jsonl")
    assert events_file.read_text() == events


# What Snakemake prints when it stops outside any job (from real runs: a
# schema error, an unknown selector, a checksum the raw file does not have).
WORKFLOW_ERRORS = {
    "schema": ('ValueError in file "/w/rules/common.smk", line 16:\n'
               "config/bad.yaml: experiments.tiny.seed: 'abc' is not of type "
               "'integer'\n"
               '  File "/w/rules/common.smk", line 16, in <module>\n'
               '  File "/w/src/mlfsbench/workflow/config.py", line 87, in '
               "check_config\n",
               "ValueError: config/bad.yaml: experiments.tiny.seed: 'abc' is not "
               "of type 'integer'"),
    "selector": ('ValueError in file "/w/rules/common.smk", line 18:\n'
                 "experiment 'tiny': config selectors: unknown selector "
                 "'mim-brr'; did you mean 'mim-br'? registered: ami, fimf, mim-br\n"
                 '  File "/w/rules/common.smk", line 18, in <module>\n',
                 "ValueError: experiment 'tiny': config selectors: unknown "
                 "selector 'mim-brr'; did you mean 'mim-br'? registered: ami, "
                 "fimf, mim-br"),
    "checksum": ('RawFileChanged in file "/w/rules/common.smk", line 19:\n'
                 "data/raw/emotions/train.arff: content changed since it was "
                 "downloaded: sha256 " + "b" * 64 + ", the datasets table "
                 "expects " + "c" * 64 + "; delete the file (rm -f "
                 "data/raw/emotions/train.arff) to download it again\n"
                 '  File "/w/rules/common.smk", line 19, in <module>\n',
                 "RawFileChanged: data/raw/emotions/train.arff: content changed "
                 "since it was downloaded: sha256 " + "b" * 64),
}


@pytest.mark.parametrize("kind", sorted(WORKFLOW_ERRORS))
def test_a_workflow_error_is_shown_not_a_stale_summary(tmp_path, monkeypatch, kind):
    # the console said only "snakemake exited with status 1 (see logs/...)",
    # then named an earlier run's summary page
    import io

    from mlfsbench.workflow.progress import MAX_LINE

    printed, expected = WORKFLOW_ERRORS[kind]
    work = _fake_python_snakemake(tmp_path, monkeypatch,
                                  f"sys.stdout.write({printed!r})\nsys.exit(1)")
    (work / "results").mkdir()
    (work / "results" / "summary.html").write_text("an earlier run's")
    out = io.StringIO()
    monkeypatch.chdir(work)
    assert run(["--cores", "1"], out=out) == 1
    lines = out.getvalue().splitlines()
    assert not any(line.startswith("summary:") for line in lines), lines
    assert lines[-1].startswith("FAILED: snakemake exited with status 1: "
                                + expected), lines[-1]
    assert re.search(r" \(see logs/run-\w+\.log\)$", lines[-1]), lines[-1]
    assert max(map(len, lines)) <= MAX_LINE


def test_a_failed_run_names_the_summary_page_it_wrote(tmp_path, monkeypatch):
    import io

    work = _fake_python_snakemake(
        tmp_path, monkeypatch,
        "os.makedirs('results', exist_ok=True)\n"
        "open('results/summary.html', 'w').write('new')\n"
        "sys.stdout.write('WorkflowError:\\nsomething broke after the summary\\n')\n"
        "sys.exit(1)")
    out = io.StringIO()
    monkeypatch.chdir(work)
    assert run(["--cores", "1"], out=out) == 1
    lines = out.getvalue().splitlines()
    assert lines[-2] == "summary: results/summary.html"
    assert "WorkflowError: something broke after the summary (see" in lines[-1]


def test_snakemake_error_of_a_traceback_is_its_last_exception(tmp_path):
    from mlfsbench.workflow.runner import snakemake_error

    log = tmp_path / "run.log"
    log.write_text("$ python -m snakemake --cores 1 x\nTraceback (most recent "
                   "call last):\n\n  File \"a.py\", line 1, in f\n    g()\n\n"
                   "ValueError: not enough values to unpack\n\n\nDuring handling "
                   "of the above exception, another exception occurred:\n\n"
                   "Traceback (most recent call last):\n  File \"b.py\", line 2\n"
                   "ValueError: Invalid config definition: 'x'\n")
    assert snakemake_error(log) == "ValueError: Invalid config definition: 'x'"
    log.write_text("WorkflowError:\nTarget rules may not contain wildcards.\n")
    assert snakemake_error(log) == ("WorkflowError: Target rules may not contain "
                                    "wildcards.")
    log.write_text("InputFunctionException in rule select in file x.smk, line 3:\n"
                   "Error:\n  KeyError: 'yeast'\nWildcards:\n")
    assert snakemake_error(log) == "InputFunctionException: KeyError: 'yeast'"
    log.write_text("Error in rule select:\n    jobid: 3\n")
    assert snakemake_error(log) == "Error in rule select"
    log.write_text("Building DAG of jobs...\nnothing wrong here\n")
    assert snakemake_error(log) == ""
    assert snakemake_error(tmp_path / "missing.log") == ""


@pytest.mark.parametrize("targets", [["results/tiny/tables/claims.tsv"],
                                     ["--", "all", "summary"]])
def test_a_run_with_targets_prepares_the_datasets_then_makes_the_targets(
        tmp_path, monkeypatch, targets):
    # `mlfsbench run -- --keep-going results/x.tsv` failed before any job:
    # the data stage appended its targets after the user's ("unrecognized
    # arguments: data/prepared/...")
    import json
    from types import SimpleNamespace

    calls = tmp_path / "calls.jsonl"
    work = _fake_python_snakemake(
        tmp_path, monkeypatch,
        f"open({str(calls)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
        "for a in sys.argv[1:]:\n"
        "    if a.endswith('.npz'):\n"
        "        os.makedirs(os.path.dirname(a), exist_ok=True)\n"
        "        open(a, 'w').close()")
    monkeypatch.setattr("mlfsbench.workflow.runner._plan", lambda args, workdir:
                        SimpleNamespace(jobs={}, datasets=["emotions", "yeast"],
                                        main_experiments=["tiny"], facts={}))
    assert run(["--cores", "1", "--keep-going", *targets], workdir=work) == 0
    data, dry, main = [json.loads(line) for line in calls.read_text().splitlines()]
    options = [*TRIGGERS, "--rerun-incomplete", "--max-threads", "1", "--cores",
               "1", "--keep-going"]
    assert data == [*options, "--keep-going", "data/prepared/emotions.npz",
                    "data/prepared/yeast.npz"]
    assert dry == [*options, *targets, "--dry-run"]
    assert main == [*options, *targets]


@pytest.mark.parametrize("job_failed", [False, True])
def test_a_workflow_error_in_the_data_stage_is_not_a_dataset_failure(
        tmp_path, monkeypatch, job_failed):
    # a raw file edited by hand stopped Snakemake before any job: every
    # dataset was said "not obtained" and written to unavailable.json
    import io
    import json
    from types import SimpleNamespace

    printed, expected = WORKFLOW_ERRORS["checksum"]
    if job_failed:  # a download that failed: the dataset is left out
        printed = ("Error in rule download:\n    jobid: 3\n    log: "
                   "logs/download/emotions/train.log\n    wildcards: "
                   "dataset=emotions, file=train.arff\n\n")
    events = "".join(json.dumps(e) + "\n" for e in [
        {"event": "job_info", "jobid": 3, "rule": "download",
         "wildcards": {"dataset": "emotions", "file": "train.arff"},
         "log": ["logs/download/emotions/train.log"]},
        {"event": "job_error", "jobid": 3, "rule": "download",
         "log": ["logs/download/emotions/train.log"]}] if job_failed)
    work = _fake_python_snakemake(
        tmp_path, monkeypatch, f"open(EVENTS, 'a').write({events!r})\n"
        f"sys.stdout.write({printed!r})\nsys.exit(1)")
    monkeypatch.setattr("mlfsbench.workflow.runner._plan", lambda args, workdir:
                        SimpleNamespace(jobs={}, datasets=["emotions"],
                                        main_experiments=["tiny"]))
    out = io.StringIO()
    monkeypatch.chdir(work)
    assert run(["--cores", "1"], out=out) == 1
    lines = out.getvalue().splitlines()
    unavailable = work / "results" / "unavailable.json"
    if job_failed:
        assert lines[-1].startswith("FAILED dataset emotions: "), lines
        assert unavailable.exists()
    else:
        assert lines[-1].startswith("FAILED: snakemake exited with status 1: "
                                    + expected), lines
        assert not any(line.startswith("FAILED dataset") for line in lines)
        assert not unavailable.exists()
