"""The progress display of ``mlfsbench run`` (mlfsbench.workflow.progress),
fed with the job events of Snakemake 9's logger plugin
(mlfsbench.workflow.events)."""

from __future__ import annotations

import io

from mlfsbench.workflow.progress import MAX_LINE, Progress


def info(jobid, rule, log=None, **wildcards):
    """A ``job_info`` event as the logger plugin writes it."""
    return {"event": "job_info", "jobid": jobid, "rule": rule,
            "wildcards": wildcards, "log": [log] if log else []}


def finished(jobid):
    return {"event": "job_finished", "jobid": jobid}


def error(jobid, rule, log=None):
    return {"event": "job_error", "jobid": jobid, "rule": rule,
            "log": [log] if log else []}


DRY_RUN = [info(3, "prepare", "logs/prepare/emotions.log", dataset="emotions"),
           info(4, "aggregate", experiment="e1"),
           info(5, "aggregate", experiment="e2"),
           info(0, "all")]

RUN = [info(3, "prepare", "logs/prepare/emotions.log", dataset="emotions"),
       finished(3),
       info(4, "aggregate", "logs/e1/aggregate.log", experiment="e1"),
       info(5, "aggregate", "logs/e2/aggregate.log", experiment="e2"),
       error(5, "aggregate", "logs/e2/aggregate.log"),
       finished(4)]

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
    progress.expect(DRY_RUN)
    return progress, out


def test_totals_per_study_count_shared_jobs_in_each():
    progress, _ = _progress(tty=False)
    assert progress.total == {"e1": 2, "e2": 2}


def test_plain_mode_prints_one_line_per_event():
    progress, out = _progress(tty=False)
    for event in RUN:
        progress.feed(event)
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
    for event in RUN[:3]:  # prepare done, e1's aggregate started
        progress.feed(event)
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
    for event in [info(7, "select", dataset=long_value), finished(7)]:
        progress.feed(event)
    progress.say("y" * 1000)
    assert max(len(line) for line in out.getvalue().splitlines()) == MAX_LINE


SELECT = [info(7, "select",
                "logs/shared/select/emotions-knnmi-forward-6fe2a549.log",
                dataset="emotions", seed="0", selector="knnmi-forward-6fe2a549"),
          finished(7)]


def test_a_method_s_cache_id_is_shown_as_the_config_s_id():
    """The plan's names replace a method's cache id; one it does not know
    stays as it is."""
    for names, shown in [({"knnmi-forward-6fe2a549": "mi-forward"}, "mi-forward"),
                         ({"other-1": "x"}, "knnmi-forward-6fe2a549"),
                         (None, "knnmi-forward-6fe2a549")]:
        out = io.StringIO()
        progress = Progress(out, tty=False, clock=Clock(), names=names)
        for event in SELECT:
            progress.feed(event)
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
    progress.expect(DRY_RUN)
    progress.feed(RUN[0])  # prepare started (t = 0), done at t = 5
    clock.now = 5.0
    progress.feed(RUN[1])
    clock.now = 10.0  # e1's aggregate starts at t = 10
    progress.feed(RUN[2])
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
    for event in RUN[3:]:
        progress.feed(event)
    clock.now += 10 * QUIET
    n = len(out.getvalue().splitlines())
    progress.tick()
    assert len(out.getvalue().splitlines()) == n


def test_u6_jobs_done_never_exceed_the_total():
    """Issue 38 U6: the counter read ``17/1``. The totals come from a dry
    run; a job it did not list that runs anyway (here 17 prepare jobs of
    datasets the plan gives no study: "all studies") counted as done but
    never in the total. It is counted in the total when it starts."""
    out = io.StringIO()
    progress = Progress(out, tty=False, users=USERS, clock=Clock())
    progress.expect([info(1, "summary")])
    assert progress.total == {"all studies": 1}
    for i in range(2, 19):
        progress.feed(info(i, "prepare", dataset=f"d{i}"))
        progress.feed(finished(i))
    lines = [line.split("] ", 1)[1] for line in out.getvalue().splitlines()]
    assert lines[:2] == ["all studies 0/2: start prepare (d2)",
                         "all studies 1/2: done prepare (d2)"]
    assert lines[-1] == "all studies 17/18: done prepare (d18)"
    for event in [info(1, "summary"), finished(1)]:
        progress.feed(event)
    assert progress.done == progress.total == {"all studies": 18}
    assert out.getvalue().splitlines()[-1].endswith("all studies 18/18: done summary")


def test_a_new_snakemake_command_forgets_the_last_one_s_running_jobs():
    """Job ids restart with each Snakemake command (the data stage, then the
    run): a job the data stage left running is not the run's job 3, nor
    shown running."""
    out = io.StringIO()
    progress = Progress(out, tty=True, users=USERS, clock=Clock())
    progress.start_stage(" (datasets)")
    progress.feed(info(3, "prepare", dataset="emotions"))  # never finished: its
    # Snakemake stopped
    progress.start_stage("")
    progress.expect(DRY_RUN)
    assert progress.running == {}
    progress.feed(finished(3))  # not a job of this run
    assert progress.done == {} and progress.total == {"e1": 2, "e2": 2}
    assert not any("running" in line for line in progress.lines())
