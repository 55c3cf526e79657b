"""What ``mlfsbench run`` shows while Snakemake works: progress, not its log.

Snakemake's own output (thousands of lines, some of many thousand
characters) goes whole to the run's log file. Its job events (a job starts,
finishes, fails) come structured, as JSON objects written by the logger
plugin of :mod:`mlfsbench.workflow.events`; :class:`Progress` reads them and
shows

- on a terminal, a block redrawn in place: per study, its jobs done of its
  total, the job running, the elapsed time and an estimate of the time left
  (elapsed / done x left);
- otherwise (a pipe, a file), one line per event: a job started, finished or
  failed, and, when a job runs long without an event (:meth:`Progress.tick`,
  called every :data:`TICK` seconds), a line saying what is still running
  and how much of the whole run is done with its time left.

A job belongs to the study (experiment) its wildcards name; a shared job
(download ... classify) to every study whose plan uses it
(:func:`mlfsbench.workflow.runstats.shared_users`); the others (the summary
page) to "all studies". The totals come from a
dry run's job events (:meth:`Progress.expect`); a job the dry run did not list
(it lists what Snakemake plans then: a job it runs anyway counts when it
starts) raises its studies' totals, so that no count of jobs done exceeds
its total (a run once showed ``17/1``). No line printed is longer than
:data:`MAX_LINE` characters.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from mlfsbench.workflow.events import JOB_ERROR, JOB_FINISHED, JOB_INFO

#: The longest line ``mlfsbench run`` prints.
MAX_LINE = 300

SHARED = "all studies"


def clip(line: str, width: int = MAX_LINE) -> str:
    """``line`` cut to ``width`` characters (an ellipsis marks the cut).

    >>> clip("abcdef", 4)
    'abc…'
    """
    return line if len(line) <= width else line[:width - 1] + "…"


def shared_key(rule: str, w: dict[str, str]) -> tuple[str, ...] | None:
    """The plan key of a shared job (as runstats keys its benchmark file)."""
    if "dataset" not in w:
        return None
    if rule in ("download", "prepare"):
        return ("dataset", w["dataset"])
    batch = (w["dataset"], w.get("split", ""), w.get("batch", ""))
    if rule in ("split", "discretize"):
        return ("batch", *batch)
    own = {"select": ("selector",), "transform": ("transform",),
           "classify": ("selector", "classifier", "grid")}.get(rule)
    if own is None:
        return None
    return (rule, *batch, f"seed{w.get('seed', '')}", *(w.get(o, "") for o in own))


def _duration(seconds: float) -> str:
    """``75`` -> ``1m15s``; ``3700`` -> ``1h01m``.

    >>> _duration(75), _duration(3700), _duration(9)
    ('1m15s', '1h01m', '9s')
    """
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


#: Seconds between two :meth:`Progress.tick` calls of the runner, and the
#: quiet time after which a pipe gets a "still running" line.
TICK = 30.0
QUIET = 120.0


@dataclass
class _Job:
    rule: str
    wildcards: dict[str, str] = field(default_factory=dict)
    log: str = ""
    jobid: str | None = None
    started: float | None = None

    def key(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """What names the job across Snakemake's commands (a dry run's job
        ids are not the run's): its rule and wildcards."""
        return (self.rule, tuple(sorted(self.wildcards.items())))

    def label(self, names: Mapping[str, str] | None = None) -> str:
        """``rule (wildcard values)``, a method's cache id shown as the
        config's id where ``names`` knows it."""
        names = names or {}
        shown = ", ".join(names.get(v, v) for k, v in self.wildcards.items()
                          if k != "experiment")
        return f"{self.rule} ({shown})" if shown else self.rule


@dataclass
class Failure:
    """A failed job: its rule, wildcards and log file."""

    rule: str
    wildcards: dict[str, str]
    log: str


def _job(event: Mapping[str, Any]) -> _Job:
    """The job a ``job_info`` or ``job_error`` event names."""
    logs = event.get("log") or []
    return _Job(str(event.get("rule", "")),
                {str(k): str(v) for k, v in (event.get("wildcards") or {}).items()},
                str(logs[0]) if logs else "", str(event.get("jobid")))


class Progress:
    """Follows Snakemake's job events; shows progress on ``out`` (module
    docstring).

    ``users`` maps a shared job's plan key to its studies; ``names`` a
    method's cache id (``knnmi-forward-6fe2a549``) to the config's id for it
    (``mi-forward``), shown in its place; ``tty`` chooses the redrawn block
    (True) or one line per event (False).
    """

    def __init__(self, out: TextIO, *, tty: bool,
                 users: dict[tuple[str, ...], set[str]] | None = None,
                 names: Mapping[str, str] | None = None,
                 width: int = MAX_LINE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.out, self.tty, self.users = out, tty, users or {}
        self.names = dict(names or {})
        self.width = min(width, MAX_LINE)
        self.clock = clock
        self.start = clock()
        self.total: dict[str, int] = {}
        self.done: dict[str, int] = {}
        self.running: dict[str, _Job] = {}
        #: the jobs the totals count (:meth:`expect`); None: no dry run
        #: for this command, its totals unknown
        self._counted: set[tuple] | None = None
        self.failures: list[Failure] = []
        #: the log files of the jobs that finished, in order
        self.finished_logs: list[str] = []
        self._drawn = 0
        self._last = clock()  # when a line was last written
        # feed (the reader thread) and tick (the runner's timer) share state
        self._lock = threading.RLock()
        #: shown in the header (" (datasets)" during the data stage)
        self.stage = ""

    def start_stage(self, stage: str) -> None:
        """A new Snakemake command: the jobs done so far count in the
        totals the next :meth:`expect` adds to; the job ids of the last
        command name nothing in the next (a job it left running is gone)."""
        with self._lock:
            self.stage = stage
            self.total = {s: max(n, self.total.get(s, 0))
                          for s, n in self.done.items()}
            self.running.clear()
            self._counted = None

    # ------------------------------------------------------------ studies
    def studies_of(self, job: _Job) -> list[str]:
        if "experiment" in job.wildcards:
            return [job.wildcards["experiment"]]
        key = shared_key(job.rule, job.wildcards)
        users = sorted(self.users.get(key, ())) if key else []
        return users or [SHARED]

    def expect(self, dry_run: Iterable[Mapping[str, Any]]) -> None:
        """Count each study's jobs from a dry run's job events."""
        with self._lock:
            counted = self._counted if self._counted is not None else set()
            for event in dry_run:
                job = _job(event)
                if event.get("event") != JOB_INFO or job.rule == "all":
                    continue
                if job.key() not in counted:
                    counted.add(job.key())
                    for study in self.studies_of(job):
                        self.total[study] = self.total.get(study, 0) + 1
            self._counted = counted

    # ------------------------------------------------------------- events
    def feed(self, event: Mapping[str, Any]) -> None:
        """One job event (:mod:`mlfsbench.workflow.events`)."""
        with self._lock:
            kind = event.get("event")
            if kind == JOB_INFO:
                self._started(_job(event))
            elif kind == JOB_FINISHED:
                self._finished(str(event.get("jobid")))
            elif kind == JOB_ERROR:
                self._failed(_job(event))

    def tick(self) -> None:
        """Time passed without an event: a terminal's block is redrawn (its
        elapsed time and estimates move); a pipe gets one line when nothing
        was written for :data:`QUIET` seconds while jobs run: the job running
        longest, for how long, and the whole run's jobs done with the time
        left."""
        with self._lock:
            jobs = [j for j in self.running.values() if j.rule != "all"]
            if self.tty:
                if jobs:
                    self.draw()
                return
            now = self.clock()
            if not jobs or now - self._last < QUIET:
                return
            first = min(jobs, key=lambda j: j.started if j.started is not None
                        else now)
            since = now - (first.started if first.started is not None else now)
            more = f" (+{len(jobs) - 1} more)" if len(jobs) > 1 else ""
            total, done = sum(self.total.values()), sum(self.done.values())
            whole = (f"; all studies {done}/{total} jobs{self._eta(done, total)}"
                     if total else "")
            self._write(f"[{_duration(now - self.start)}] still running: "
                        f"{first.label(self.names)} for {_duration(since)}{more}"
                        f"{whole}")

    def _finished(self, jobid: str) -> None:
        job = self.running.pop(jobid, None)
        if job is not None and job.log:
            self.finished_logs.append(job.log)
        if job is not None and job.rule != "all":
            for study in self.studies_of(job):
                self.done[study] = self.done.get(study, 0) + 1
                if self.total.get(study):  # known: never below done
                    self.total[study] = max(self.total[study], self.done[study])
            self._event("done", job)

    def _started(self, job: _Job) -> None:
        job.started = self.clock()
        self.running[str(job.jobid)] = job
        if job.rule == "all":
            return
        if self._counted is not None and job.key() not in self._counted:
            # not in the dry run's list: counted now
            self._counted.add(job.key())
            for study in self.studies_of(job):
                self.total[study] = self.total.get(study, 0) + 1
        self._event("start", job)

    def _failed(self, job: _Job) -> None:
        started = self.running.pop(str(job.jobid), None) or job
        self.failures.append(Failure(job.rule or started.rule, started.wildcards,
                                     job.log or started.log))
        self._event("FAILED", started)

    def _eta(self, done: int, total: int) -> str:
        elapsed = self.clock() - self.start
        if done <= 0 or total <= done:
            return ""
        return f", ~{_duration(elapsed / done * (total - done))} left"

    def _event(self, what: str, job: _Job) -> None:
        if self.tty:
            self.draw()
            return
        studies = self.studies_of(job)
        counts = " ".join(f"{s} {self.done.get(s, 0)}/{self.total.get(s) or '?'}"
                          for s in studies)
        elapsed = _duration(self.clock() - self.start)
        self._write(f"[{elapsed}] {counts}: {what} {job.label(self.names)}")

    def lines(self) -> list[str]:
        """The block a terminal shows: a header, then a line per study."""
        elapsed = self.clock() - self.start
        studies = sorted(set(self.total) | set(self.done))
        total = sum(self.total.values())
        done = sum(self.done.values())
        head = f"mlfsbench run{self.stage}: {_duration(elapsed)} elapsed"
        if total:
            head += f", {done} of {total} study jobs done{self._eta(done, total)}"
        out = [head]
        for study in studies:
            d, t = self.done.get(study, 0), self.total.get(study, 0)
            running = [j.label(self.names) for j in self.running.values()
                       if study in self.studies_of(j) and j.rule != "all"]
            line = f"  {study}: {d}/{t or '?'} jobs{self._eta(d, t)}"
            if running:
                line += f"; running {running[0]}"
                if len(running) > 1:
                    line += f" (+{len(running) - 1})"
            out.append(line)
        if self.failures:
            out.append(f"  failed jobs: {len(self.failures)}")
        return out

    def draw(self) -> None:
        """Redraw the block in place (terminal mode)."""
        lines = [clip(line, self.width) for line in self.lines()]
        if self._drawn:
            self.out.write(f"\x1b[{self._drawn}F\x1b[J")
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()
        self._drawn = len(lines)
        self._last = self.clock()

    def _write(self, line: str) -> None:
        self.out.write(clip(line, self.width) + "\n")
        self.out.flush()
        self._last = self.clock()

    def say(self, line: str) -> None:
        """A line outside the progress block (kept below a redrawn one)."""
        with self._lock:
            self._drawn = 0
            self._write(line)
