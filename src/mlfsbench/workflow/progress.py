"""What ``mlfsbench run`` shows while Snakemake works: progress, not its log.

Snakemake's own output (thousands of lines, some of many thousand
characters) goes whole to the run's log file; :class:`Progress` reads it
line by line and shows

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
dry run's job list (:meth:`Progress.expect`); a job the dry run did not list
(it lists what Snakemake plans then: a job it runs anyway counts when it
starts) raises its studies' totals, so that no count of jobs done exceeds
its total (a run once showed ``17/1``). No line printed is longer than
:data:`MAX_LINE` characters.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TextIO

#: The longest line ``mlfsbench run`` prints.
MAX_LINE = 300

_RULE = re.compile(r"^(?:local)?(?:rule|checkpoint) (\S+):$")
_JOBID = re.compile(r"^\s+jobid: (\d+)$")
_WILDCARDS = re.compile(r"^\s+wildcards: (.*)$")
_LOG = re.compile(r"^\s+log: (.*)$")
_FINISHED = re.compile(r"^Finished job(?:id:)? (\d+)")
_ERROR = re.compile(r"^Error in rule (\S+):$")
SHARED = "all studies"


def clip(line: str, width: int = MAX_LINE) -> str:
    """``line`` cut to ``width`` characters (an ellipsis marks the cut).

    >>> clip("abcdef", 4)
    'abc…'
    """
    return line if len(line) <= width else line[:width - 1] + "…"


def parse_wildcards(text: str) -> dict[str, str]:
    """Snakemake's ``wildcards: a=1, b=x`` line as a mapping.

    >>> parse_wildcards("dataset=emotions, file=whole.arff")
    {'dataset': 'emotions', 'file': 'whole.arff'}
    """
    out = {}
    for part in text.split(", "):
        key, sep, value = part.partition("=")
        if sep:
            out[key.strip()] = value.strip()
    return out


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


class _Blocks:
    """Snakemake's job blocks (``rule X:`` or ``Error in rule X:``, then
    indented fields), parsed; a block ends at its ``resources:`` field (the
    last Snakemake prints) or at the next unindented line."""

    def __init__(self) -> None:
        self.current: _Job | None = None
        self.error = False

    def _close(self) -> tuple[str, _Job, str] | None:
        job, self.current = self.current, None
        if job is None or job.jobid is None:
            return None
        return ("error" if self.error else "job", job, job.jobid)

    def flush(self) -> tuple[str, _Job, str] | None:
        """The event of the block still open at the end of the output."""
        return self._close()

    def feed(self, line: str) -> tuple[str, _Job, str] | None:
        """``("job" or "error", job, jobid)`` when a block ends, else None."""
        indented = line.startswith((" ", "\t"))
        event = None if indented else self._close()
        if m := (_RULE.match(line) or _ERROR.match(line)):
            self.error = line.startswith("Error in rule")
            self.current = _Job(m.group(1))
            return event
        job = self.current
        if job is None or not indented:
            return event
        if m := _WILDCARDS.match(line):
            job.wildcards = parse_wildcards(m.group(1))
        elif m := _LOG.match(line):
            job.log = m.group(1).split(" (check")[0].strip()
        elif m := _JOBID.match(line):
            job.jobid = m.group(1)
        elif line.lstrip().startswith("resources:"):
            # the last field of a job's block: shown now, not when the next
            # line comes (which may be when a job finishes)
            return self._close()
        return event


class Progress:
    """Follows Snakemake's output; shows progress on ``out`` (module docstring).

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
        self._blocks = _Blocks()
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

    def expect(self, dry_run_lines) -> None:
        """Count each study's jobs from a dry run's output."""
        blocks = _Blocks()
        events = [blocks.feed(line.rstrip("\n")) for line in dry_run_lines]
        counted = self._counted if self._counted is not None else set()
        for event in [*events, blocks.flush()]:
            if event and event[0] == "job" and event[1].rule != "all":
                counted.add(event[1].key())
                for study in self.studies_of(event[1]):
                    self.total[study] = self.total.get(study, 0) + 1
        self._counted = counted

    # ------------------------------------------------------------- events
    def feed(self, line: str) -> None:
        """One line of Snakemake's output."""
        with self._lock:
            self._feed(line)

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

    def _feed(self, line: str) -> None:
        line = line.rstrip("\n")
        self._handle(self._blocks.feed(line))
        if m := _FINISHED.match(line):
            job = self.running.pop(m.group(1), None)
            if job is not None and job.log:
                self.finished_logs.append(job.log)
            if job is not None and job.rule != "all":
                for study in self.studies_of(job):
                    self.done[study] = self.done.get(study, 0) + 1
                    if self.total.get(study):  # known: never below done
                        self.total[study] = max(self.total[study],
                                                self.done[study])
                self._event("done", job)

    def close(self) -> None:
        """The end of a Snakemake command's output."""
        self._handle(self._blocks.flush())

    def _handle(self, event) -> None:
        if event is None:
            return
        kind, job, jobid = event
        if kind == "job":
            job.started = self.clock()
            self.running[jobid] = job
            if job.rule != "all":
                if self._counted is not None and job.key() not in self._counted:
                    # not in the dry run's list: counted now
                    self._counted.add(job.key())
                    for study in self.studies_of(job):
                        self.total[study] = self.total.get(study, 0) + 1
                self._event("start", job)
            return
        started = self.running.pop(jobid, None) or job
        self.failures.append(Failure(job.rule, started.wildcards,
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
