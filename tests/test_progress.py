"""The progress display of ``mlfsbench run`` (mlfsbench.workflow.progress),
fed with Snakemake 9's output."""

from __future__ import annotations

import io

from mlfsbench.workflow.progress import MAX_LINE, Progress

DRY_RUN = """\
Building DAG of jobs...
[Wed Nov 25 16:22:58 2026]
rule prepare:
    input: data/raw/emotions/train.arff
    output: data/prepared/emotions.npz
    log: logs/prepare/emotions.log
    jobid: 3
    wildcards: dataset=emotions
[Wed Nov 25 16:22:58 2026]
rule aggregate:
    output: results/e1/tables/summary.tsv
    jobid: 4
    wildcards: experiment=e1
[Wed Nov 25 16:22:58 2026]
rule aggregate:
    output: results/e2/tables/summary.tsv
    jobid: 5
    wildcards: experiment=e2
[Wed Nov 25 16:22:58 2026]
localrule all:
    jobid: 0
    reason: Input files updated by another job
Job stats:
This was a dry-run (flag -n).
"""

RUN = """\
[Wed Nov 25 16:23:00 2026]
rule prepare:
    input: data/raw/emotions/train.arff
    output: data/prepared/emotions.npz
    log: logs/prepare/emotions.log
    jobid: 3
    wildcards: dataset=emotions
    resources: tmpdir=/tmp
[Wed Nov 25 16:23:04 2026]
Finished jobid: 3 (Rule: prepare)
1 of 4 steps (25%) done
[Wed Nov 25 16:23:04 2026]
rule aggregate:
    output: results/e1/tables/summary.tsv
    log: logs/e1/aggregate.log
    jobid: 4
    wildcards: experiment=e1
[Wed Nov 25 16:23:04 2026]
rule aggregate:
    output: results/e2/tables/summary.tsv
    log: logs/e2/aggregate.log
    jobid: 5
    wildcards: experiment=e2
[Wed Nov 25 16:23:05 2026]
Error in rule aggregate:
    message: None
    jobid: 5
    output: results/e2/tables/summary.tsv
    log: logs/e2/aggregate.log (check log file(s) for error details)
[Wed Nov 25 16:23:06 2026]
Finished jobid: 4 (Rule: aggregate)
2 of 4 steps (50%) done
Exiting because a job execution failed. Look above for error messages
"""

# the prepare job serves both experiments (the plan says so)
USERS = {("dataset", "emotions"): {"e1", "e2"}}


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 10.0
        return self.now


def _progress(tty):
    out = io.StringIO()
    progress = Progress(out, tty=tty, users=USERS, clock=Clock())
    progress.expect(DRY_RUN.splitlines(keepends=True))
    return progress, out


def test_totals_per_study_count_shared_jobs_in_each():
    progress, _ = _progress(tty=False)
    assert progress.total == {"e1": 2, "e2": 2}


def test_plain_mode_prints_one_line_per_event():
    progress, out = _progress(tty=False)
    for line in RUN.splitlines(keepends=True):
        progress.feed(line)
    progress.close()
    lines = out.getvalue().splitlines()
    assert [line.split("] ", 1)[1] for line in lines] == [
        "e1 0/2 e2 0/2: start prepare (emotions)",
        "e1 1/2 e2 1/2: done prepare (emotions)",
        "e1 1/2: start aggregate",
        "e2 1/2: start aggregate",
        "e2 1/2: FAILED aggregate",
        "e1 2/2: done aggregate",
    ]
    assert progress.done == {"e1": 2, "e2": 1}
    (failure,) = progress.failures
    assert (failure.rule, failure.wildcards, failure.log) == (
        "aggregate", {"experiment": "e2"}, "logs/e2/aggregate.log")


def test_terminal_mode_redraws_a_block_per_study():
    progress, out = _progress(tty=True)
    lines = RUN.splitlines(keepends=True)
    for line in lines[:18]:  # prepare done, e1's aggregate started
        progress.feed(line)
    block = progress.lines()
    # header: elapsed, jobs done of total and the time left at this pace
    assert block[0].startswith("mlfsbench run: ")
    assert ", 2 of 4 study jobs done, ~" in block[0] and block[0].endswith(" left")
    assert block[1].startswith("  e1: 1/2 jobs, ~")
    assert block[1].endswith("; running aggregate")
    assert block[2].startswith("  e2: 1/2 jobs, ~")
    assert "\x1b[" in out.getvalue()  # cursor moves: the block is redrawn


def test_no_line_is_longer_than_the_limit():
    out = io.StringIO()
    progress = Progress(out, tty=False)
    long_value = "x" * 5000
    for line in ["rule select:", f"    wildcards: dataset={long_value}",
                 "    jobid: 7", "[date]", "Finished jobid: 7 (Rule: select)"]:
        progress.feed(line + "\n")
    progress.say("y" * 1000)
    assert max(len(line) for line in out.getvalue().splitlines()) == MAX_LINE


SELECT = """\
[Wed Nov 25 16:23:00 2026]
rule select:
    output: results/shared/select/emotions/knnmi-forward-6fe2a549.json
    log: logs/shared/select/emotions-knnmi-forward-6fe2a549.log
    jobid: 7
    wildcards: dataset=emotions, seed=0, selector=knnmi-forward-6fe2a549
    resources: tmpdir=/tmp
[Wed Nov 25 16:23:04 2026]
Finished jobid: 7 (Rule: select)
"""


def test_a_method_s_cache_id_is_shown_as_the_config_s_id():
    """The plan's names replace a method's cache id; one it does not know
    stays as it is."""
    for names, shown in [({"knnmi-forward-6fe2a549": "mi-forward"}, "mi-forward"),
                         ({"other-1": "x"}, "knnmi-forward-6fe2a549"),
                         (None, "knnmi-forward-6fe2a549")]:
        out = io.StringIO()
        progress = Progress(out, tty=False, clock=Clock(), names=names)
        for line in SELECT.splitlines(keepends=True):
            progress.feed(line)
        progress.close()
        assert [line.split(": ", 1)[1] for line in out.getvalue().splitlines()] == [
            f"start select (emotions, 0, {shown})",
            f"done select (emotions, 0, {shown})"]


class Manual:
    """A clock that moves only when told."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_long_quiet_job_gets_a_still_running_line():
    from mlfsbench.workflow.progress import QUIET

    clock, out = Manual(), io.StringIO()
    progress = Progress(out, tty=False, users=USERS, clock=clock)
    progress.expect(DRY_RUN.splitlines(keepends=True))
    lines = RUN.splitlines(keepends=True)
    for line in lines[:11]:  # prepare started (t = 0), done at t = 5
        clock.now = 5.0 if "Finished" in line else clock.now
        progress.feed(line)
    for line in lines[11:18]:  # e1's aggregate starts at t = 10
        clock.now = 10.0
        progress.feed(line)
    before = out.getvalue()
    clock.now = 10.0 + QUIET - 1  # not quiet long enough
    progress.tick()
    assert out.getvalue() == before
    clock.now = 10.0 + QUIET + 50  # 170 s since the last line
    progress.tick()
    last = out.getvalue().splitlines()[-1]
    # the job running longest, for how long, and the whole run: 2 of its 4
    # study jobs done in 180 s, so about 180 s left at that pace
    assert last == ("[3m00s] still running: aggregate for 2m50s; all studies "
                    "2/4 jobs, ~3m00s left")
    progress.tick()  # a line was just written: no second one
    assert out.getvalue().splitlines()[-1] == last
    # nothing runs: nothing to say
    for line in lines[18:]:
        progress.feed(line)
    clock.now += 10 * QUIET
    n = len(out.getvalue().splitlines())
    progress.tick()
    assert len(out.getvalue().splitlines()) == n


def _prepare_block(i: int, dataset: str) -> str:
    return (f"[Wed Nov 25 16:23:00 2026]\nrule prepare:\n"
            f"    output: data/prepared/{dataset}.npz\n    jobid: {i}\n"
            f"    wildcards: dataset={dataset}\n    resources: tmpdir=/tmp\n")


def test_u6_jobs_done_never_exceed_the_total():
    """Issue 38 U6: the counter read ``17/1``. The totals come from a dry
    run; a job it did not list that runs anyway (here 17 prepare jobs of
    datasets the plan gives no study: "all studies") counted as done but
    never in the total. It is counted in the total when it starts."""
    out = io.StringIO()
    progress = Progress(out, tty=False, users=USERS, clock=Clock())
    progress.expect(["rule summary:\n", "    jobid: 1\n",
                     "    resources: tmpdir=/tmp\n"])
    assert progress.total == {"all studies": 1}
    for i in range(2, 19):
        for line in (_prepare_block(i, f"d{i}") + f"Finished jobid: {i}\n"
                     ).splitlines(keepends=True):
            progress.feed(line)
    lines = [line.split("] ", 1)[1] for line in out.getvalue().splitlines()]
    assert lines[:2] == ["all studies 0/2: start prepare (d2)",
                         "all studies 1/2: done prepare (d2)"]
    assert lines[-1] == "all studies 17/18: done prepare (d18)"
    for line in ["rule summary:\n", "    jobid: 1\n", "    resources: tmpdir=/tmp\n",
                 "Finished jobid: 1\n"]:
        progress.feed(line)
    assert progress.done == progress.total == {"all studies": 18}
    assert out.getvalue().splitlines()[-1].endswith("all studies 18/18: done summary")


def test_a_new_snakemake_command_forgets_the_last_one_s_running_jobs():
    """Job ids restart with each Snakemake command (the data stage, then the
    run): a job the data stage left running is not the run's job 3, nor
    shown running."""
    out = io.StringIO()
    progress = Progress(out, tty=True, users=USERS, clock=Clock())
    progress.start_stage(" (datasets)")
    for line in _prepare_block(3, "emotions").splitlines(keepends=True):
        progress.feed(line)  # never finished: its Snakemake stopped
    progress.start_stage("")
    progress.expect(DRY_RUN.splitlines(keepends=True))
    assert progress.running == {}
    progress.feed("Finished jobid: 3 (Rule: prepare)\n")  # not a job of this run
    assert progress.done == {} and progress.total == {"e1": 2, "e2": 2}
    assert not any("running" in line for line in progress.lines())
