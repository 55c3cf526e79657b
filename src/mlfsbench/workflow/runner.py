"""``mlfsbench run``: Snakemake with safe recovery after a killed run.

A run killed with ``kill -9`` leaves Snakemake's lock and its marks of
incomplete outputs behind. Before starting Snakemake this runner

1. takes an exclusive, kernel-held lock (``fcntl.flock``) on
   ``.snakemake/mlfsbench-run.lock``; the kernel drops it when its holder dies,
   so a failure here means another ``mlfsbench run`` is alive and we refuse;
2. looks for a live ``snakemake`` process working in the same directory (one
   started by hand), or a job of an earlier run that outlived its Snakemake
   (``kill -9`` of Snakemake leaves its jobs running: they would write their
   outputs after the new run had used or rewritten them); if there is one we
   refuse, naming each process, and the user ends them;
3. otherwise any Snakemake lock is stale: it is removed with
   ``snakemake --unlock``;
4. runs Snakemake with ``--rerun-incomplete``, so outputs of killed jobs are
   recomputed. Outputs are written atomically by every stage, so no
   half-written file can be mistaken for a complete one.

Jobs rerun when their content keys change, not their file times
(:data:`RERUN_TRIGGERS`, unless the arguments give ``--rerun-triggers``): a
cache copied from another checkout is reused (docs/cache.md).

On one machine (no ``--max-threads``, ``--executor`` or ``--profile`` among
the arguments) the run adds ``--max-threads 1``: every job runs its batch's
folds in turn in one process, and Snakemake runs as many jobs at once as
``--cores``, so one job's start-up, data loading and writing overlap another
job's computing, and no core waits for a batch's last fold. The whole
reproduction on 2 cores took 29 min 39 s so, against 36 min 21 s with each
job's folds in parallel (docs/journal/2026-11-25-full-reproduction.md), with
the same results (a job's
thread count does not change them). Give ``--max-threads N`` to run up to
``N`` folds of a job at once (when fewer jobs than cores are ready).

A config file given with ``--configfile`` that is empty is an error naming
it (Snakemake's own message does not). When Snakemake is killed by a signal
the run says so and exits with ``128 + signal``, as a shell would; so does
a run interrupted by SIGINT (Ctrl-C: 130), SIGTERM (143) or SIGHUP (129),
once Snakemake has cleaned up. Each stops the run as a terminal's Ctrl-C
does, whoever sends it: SIGINT to Snakemake and its jobs
(:func:`_passing_on`; on SIGTERM alone Snakemake would wait for its running
jobs to end). A stale lock that
Snakemake cannot remove because the config is wrong ends with Snakemake's
own message about the config.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from mlfsbench.workflow.bundle import workflow_files

log = logging.getLogger(__name__)


def copy_workflow(repo: str | os.PathLike, dest: str | os.PathLike, *,
                  exist_ok: bool = False) -> Path:
    """Copy the workflow's files (:func:`~mlfsbench.workflow.bundle.
    workflow_files`) of ``repo`` into ``dest``, a new folder unless
    ``exist_ok`` (then files already there are overwritten); return ``dest``.

    Tests and benchmarks run the workflow in such a copy, so that their
    outputs never mix with the repository's own ``results/``; ``mlfsbench
    init`` writes the installed package's workflow out with it.
    """
    repo, dest = Path(repo), Path(dest)
    files = workflow_files(repo)
    dest.mkdir(parents=True, exist_ok=exist_ok)
    for rel in files:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / rel, dest / rel)
    return dest


class RunRefused(RuntimeError):
    """Another workflow run is alive in the same directory."""


_LAUNCHER = "mlfsbench.workflow.snakemake_main"


def _snakemake_cmd() -> list[str]:
    """Snakemake's command line through :mod:`mlfsbench.workflow.snakemake_main`
    (the same arguments, with its scheduler's wake-ups fixed)."""
    return [sys.executable, "-m", _LAUNCHER]


def _ancestors() -> set[int]:
    """This process and its ancestors (never reported as another run)."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def _processes_in(workdir: Path):
    """``(pid, argv)`` of the processes whose cwd is ``workdir`` (not us)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return
    workdir = workdir.resolve()
    skip = _ancestors()
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) in skip:
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        if cwd == workdir:
            yield int(entry.name), [a.decode(errors="replace") for a in argv if a]


def _is_snakemake(argv: list[str]) -> bool:
    names = [os.path.basename(a) for a in argv[:3]]
    return "snakemake" in names or argv[1:3] in (["-m", "snakemake"],
                                                 ["-m", _LAUNCHER])


def _is_job(argv: list[str]) -> bool:
    """A job Snakemake started: every rule of this workflow is a ``script:``,
    run from its copy in ``.snakemake/scripts/`` (with a Python of
    ``.snakemake/conda/`` under ``--use-conda``)."""
    return any(".snakemake/scripts/" in a or ".snakemake/conda/" in a
               for a in argv)


def live_snakemake_pids(workdir: Path) -> list[int]:
    """PIDs of running Snakemake main processes whose cwd is ``workdir``."""
    return sorted(pid for pid, argv in _processes_in(workdir) if _is_snakemake(argv))


def live_job_processes(workdir: Path) -> list[tuple[int, str]]:
    """``(pid, command)`` of running jobs of a Snakemake run in ``workdir``.

    After ``kill -9`` of Snakemake its jobs keep running; a new run must not
    start the same jobs beside them.
    """
    return sorted((pid, " ".join(argv)[:120]) for pid, argv in _processes_in(workdir)
                  if _is_job(argv) and not _is_snakemake(argv))


def _configfiles(args: Sequence[str]) -> list[str]:
    """The files given to ``--configfile``/``--configfiles`` in ``args``."""
    files, taking = [], False
    for a in args:
        if a in ("--configfile", "--configfiles"):
            taking = True
        elif a.startswith(("--configfile=", "--configfiles=")):
            files.append(a.split("=", 1)[1])
            taking = False
        elif taking and not a.startswith("-"):
            files.append(a)
        else:
            taking = False
    return files


def check_configfiles(args: Sequence[str], workdir: Path) -> None:
    """Each ``--configfile`` must exist and hold a YAML mapping with no key
    repeated (:mod:`mlfsbench.yamlfile`); the error names the file
    (Snakemake's says only "Config file must be given as JSON or YAML with
    keys at top level", and keeps the last of two equal keys)."""
    import yaml

    from mlfsbench.yamlfile import load_yaml_text

    for name in _configfiles(args):
        path = workdir / name
        try:
            data = load_yaml_text(path.read_text(encoding="utf-8"), name)
        except OSError as exc:
            raise ValueError(f"{name}: cannot read the config file "
                             f"({exc.strerror})") from None
        except yaml.YAMLError as exc:
            raise ValueError(f"{name}: invalid YAML ({exc})") from None
        if data is None or data == {}:
            raise ValueError(f"{name}: empty config file (no experiments)")
        if not isinstance(data, dict):
            raise ValueError(f"{name}: the config file must be a mapping of keys")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (its children, theirs, ...), from
    ``/proc``; none where there is no ``/proc``."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    children: dict[int, list[int]] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in out:
                out.append(child)
                todo.append(child)
    return out


def _from_terminal(signum: int) -> bool:
    """Whether ``signum`` is most likely a terminal's Ctrl-C: SIGINT while
    this process's group is its terminal's foreground group (the terminal
    sent it to the whole group: Snakemake and its jobs have it too)."""
    if signum != signal.SIGINT:
        return False
    try:
        fd = os.open("/dev/tty", os.O_RDONLY)
    except OSError:  # no controlling terminal
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


#: The signals that stop a run (:func:`_passing_on`).
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def _passing_on(child: subprocess.Popen, received: list[int]):
    """While the block runs, SIGINT, SIGTERM or SIGHUP to this process stops
    Snakemake as a terminal's Ctrl-C does: SIGINT to Snakemake and to every
    process under it (its jobs and their workers). Snakemake alone would
    wait for its running jobs to end (after SIGINT, and after SIGTERM, its
    "graceful" stop) however long they run. A terminal's Ctrl-C has reached
    them all already (:func:`_from_terminal`): Snakemake alone gets it once
    more, as before. A SIGHUP this process ignores (``nohup``) stays
    ignored. Each signal is recorded in ``received``."""

    def pass_on(signum, _frame):
        received.append(signum)
        targets = [child.pid]
        if not _from_terminal(signum):
            targets += descendants(child.pid)
        for pid in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGINT)

    previous = {s: signal.signal(s, pass_on) for s in FORWARDED
                if s != signal.SIGHUP or signal.getsignal(s) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _has_stale_locks(workdir: Path) -> bool:
    locks = workdir / ".snakemake" / "locks"
    return locks.is_dir() and any(locks.iterdir())


def job_thread_args(args: Sequence[str]) -> list[str]:
    """``["--max-threads", "1"]`` unless ``args`` set the threads of a job or
    run elsewhere (``--max-threads``, ``--executor``/``-e``, ``--profile``,
    ``--set-threads``): the one-machine default (module docstring).

    >>> job_thread_args(["--cores", "2"])
    ['--max-threads', '1']
    >>> job_thread_args(["--cores", "2", "--max-threads=2"])
    []
    """
    own = ("--max-threads", "--executor", "-e", "--profile", "--set-threads",
           "--workflow-profile")
    for arg in args:
        if arg == "--":
            break
        if arg in own or arg.startswith(tuple(f"{o}=" for o in own)):
            return []
    return ["--max-threads", "1"]


#: What reruns a job (Snakemake's ``--rerun-triggers``): a change of its
#: parameters (code versions, method parameters, the content digests of files
#: no rule makes), of its set of inputs or of its software environment; not
#: ``code`` (outputs older than the rule's script: every job of a fresh clone
#: with a copied cache) and not ``mtime`` (docs/cache.md).
RERUN_TRIGGERS = ("params", "input", "software-env")


def rerun_trigger_args(args: Sequence[str]) -> list[str]:
    """``--rerun-triggers`` :data:`RERUN_TRIGGERS` unless ``args`` choose
    their own.

    >>> rerun_trigger_args(["--cores", "2"])
    ['--rerun-triggers', 'params', 'input', 'software-env']
    >>> rerun_trigger_args(["--rerun-triggers", "mtime"])
    []
    """
    for arg in args:
        if arg == "--":
            break
        if arg == "--rerun-triggers" or arg.startswith("--rerun-triggers="):
            return []
    return ["--rerun-triggers", *RERUN_TRIGGERS]


def without_targets(args: Sequence[str]) -> list[str]:
    """``args`` without the targets the user named (Snakemake's positional
    arguments, found by Snakemake's own parser) and a ``--`` left before
    none: the data stage asks for the prepared datasets alone. Appending its
    targets after the user's options would split the positional arguments
    in two, which Snakemake's parser refuses ("unrecognized arguments").

    >>> without_targets(["--cores", "2", "--keep-going", "results/e/tables/claims.tsv"])
    ['--cores', '2', '--keep-going']
    >>> without_targets(["--configfile", "c.yaml", "--", "all"])
    ['--configfile', 'c.yaml']
    """
    from snakemake.cli import get_argument_parser

    out = list(args)
    try:
        parsed, _ = get_argument_parser().parse_known_args(out)
    except SystemExit:  # Snakemake will say what is wrong with them
        return out
    for target in parsed.targets or ():
        # positional arguments come after the options whose values they are not
        del out[len(out) - 1 - out[::-1].index(target)]
    if out and out[-1] == "--":
        out.pop()
    return out


#: Arguments with which Snakemake only inspects or reports: passed through
#: as they are, its output shown whole.
INSPECT = ("-n", "--dry-run", "--dryrun", "--unlock", "--lint", "--list-rules",
           "--list", "-l", "--summary", "-S", "--detailed-summary", "-D", "--dag",
           "--rulegraph", "--filegraph", "--report", "--cleanup-metadata",
           "--list-changes", "--lc", "--delete-all-output", "--version", "-h",
           "--help", "--list-target-rules", "--lt")
UNAVAILABLE = "results/unavailable.json"


def _is_inspection(args: Sequence[str]) -> bool:
    return any(a.split("=", 1)[0] in INSPECT for a in args)


def _take_directory(args: Sequence[str], workdir: Path) -> tuple[list[str], Path,
                                                                 Path | None]:
    """``args`` without ``--directory``/``-d`` (the run's working directory,
    relative to ``workdir``), and ``--snakefile``/``-s`` made absolute."""
    out, snakefile = [], None
    it = iter(args)
    for a in it:
        name, eq, value = a.partition("=")
        if name in ("--directory", "-d", "--snakefile", "-s"):
            value = value if eq else next(it, "")
            if name in ("--directory", "-d"):
                workdir = workdir / value
                continue
            snakefile = (Path.cwd() / value).resolve()
            out += ["--snakefile", str(snakefile)]
            continue
        out.append(a)
    return out, workdir.resolve(), snakefile


def with_config(args: Sequence[str], item: str) -> list[str]:
    """``args`` with ``KEY=VALUE`` added to Snakemake's ``--config`` (to the
    user's own ``--config`` list if there is one: a second flag would
    replace it).

    >>> with_config(["--cores", "1"], "a=b")
    ['--cores', '1', '--config', 'a=b']
    >>> with_config(["--config", "x=1", "--cores", "1"], "a=b")
    ['--config', 'x=1', 'a=b', '--cores', '1']
    """
    args = list(args)
    if "--config" in args:
        i = args.index("--config") + 1
        while i < len(args) and not args[i].startswith("-"):
            i += 1
        return args[:i] + [item] + args[i:]
    return [*args, "--config", item]


def _last_error(paths: Sequence[Path]) -> str:
    """The last line naming an error in ``paths`` (the first that has one;
    else the last line of the first that has any), one line of at most
    :data:`REASON_CHARS`; a Python exception's module path is left out."""
    texts = []
    for path in paths:
        try:
            lines = [line.strip() for line in
                     path.read_text(encoding="utf-8", errors="replace").splitlines()
                     if line.strip()]
        except OSError:
            continue
        texts.append(lines)
        errors = [line for line in lines if re.search(r"Error|error:", line)]
        if errors:
            return _reason(errors[-1])
    return next((_reason(lines[-1]) for lines in texts if lines), "")


#: Snakemake's header of an error outside any job, its message on the
#: next line: ``ValueError in file "rules/common.smk", line 18:``,
#: ``MissingInputException in rule all in file ...:``.
_ERROR_HEADER = re.compile(r"^([A-Za-z_]\w*) in (?:file|rule|line)\b.*:$")
#: A line that names an exception and its message (a traceback's last).
_EXCEPTION_LINE = re.compile(
    r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Changed)\b:\s*\S")


def snakemake_error(path: Path) -> str:
    """The line of Snakemake's log ``path`` that names why it failed outside
    any job (a config or workflow error), as one line ``<exception>:
    <message>`` of at most :data:`REASON_CHARS`; "" if none is found.

    Snakemake prints such an error as a header naming the exception and
    where it was raised, the message on the next line (after ``Error:`` for
    an input function's), or as a traceback whose last exception line is
    the message. The runner's own command lines (``$ ...``) are skipped.
    """
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    lines = [line.rstrip() for line in text.splitlines()
             if line.strip() and not line.startswith("$ ")]

    def message_after(i: int) -> str:
        for line in lines[i + 1:i + 3]:
            line = line.strip()
            if line == "Error:":
                continue
            return "" if line.startswith(("File ", "Traceback ")) else line
        return ""

    in_traceback: list[str] = []
    for i, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last)"):
            in_traceback.append(line)
            continue
        if in_traceback:
            if line.startswith((" ", "During handling", "The above exception",
                                "Traceback")):
                continue
            if _EXCEPTION_LINE.match(line):
                in_traceback.append(line)  # the last one is the cause shown
                continue
            break
        m = _ERROR_HEADER.match(line)
        if m and m[1] == "Error":  # "Error in rule x:", a job's (unparsed)
            return _reason(line.rstrip(":"))
        if m and not line.startswith(" "):
            message = message_after(i)
            return _reason(f"{m[1]}: {message}" if message else line)
        m = re.match(r"^([A-Za-z_]\w*(?:Error|Exception)):$", line)
        if m:
            message = message_after(i)
            return _reason(f"{m[1]}: {message}" if message else line)
        if _EXCEPTION_LINE.match(line):
            return _reason(line)
    if len(in_traceback) > 1:
        return _reason(in_traceback[-1])
    return ""


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


#: A warning line of a job's log (:mod:`~mlfsbench.workflow.logutil`'s
#: format: time, level, logger, message).
_WARNING_LINE = re.compile(r"^\S+ \S+ WARNING [\w.]+: (.*)$")
#: The most job logs :func:`job_warnings` lists one by one.
SHOWN_WARNINGS = 10


def job_warnings(workdir: Path, logs: Sequence[str]) -> list[tuple[str, str, int]]:
    """``(log, first warning, number of warnings)`` for each of ``logs``
    (relative to ``workdir``; each once, in order) that has a warning line.

    A job's warnings (a cached result used without a recorded checksum, a
    grid point without features) go to its own log, which the progress
    display does not show; :func:`run` lists them at the end.
    """
    found = []
    for name in dict.fromkeys(logs):
        try:
            text = (workdir / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        # (a Python warning starts with the file and line that raised it)
        messages = [re.sub(r"^\S+\.py:\d+: ", "", m.group(1))
                    for line in text.splitlines()
                    if (m := _WARNING_LINE.match(line))]
        if messages:
            found.append((name, messages[0], len(messages)))
    return found


#: The longest reason kept for a failed dataset or job.
REASON_CHARS = 260


def _reason(line: str) -> str:
    """One line without a module path before the exception's name.

    >>> _reason("mlfsbench.data.download.DownloadError: x: cannot download y")
    'DownloadError: x: cannot download y'
    """
    line = re.sub(r"^(?:[A-Za-z_]\w*\.)+(\w+(?:Error|Exception)\b)", r"\1",
                  " ".join(line.split()))
    return line if len(line) <= REASON_CHARS else line[:REASON_CHARS - 1] + "…"


def dataset_failures(workdir: Path, datasets: Sequence[str],
                     run_log: str) -> dict[str, str]:
    """Dataset -> one-line reason, for each dataset whose prepared file is
    missing after the data stage; the reason is the last error line of its
    download's or preparation's log."""
    out = {}
    for d in datasets:
        if (workdir / "data" / "prepared" / f"{d}.npz").exists():
            continue
        logs = sorted((workdir / "logs" / "download" / d).glob("*.log"))
        logs.append(workdir / "logs" / "prepare" / f"{d}.log")
        out[d] = _last_error(logs) or f"not obtained (see {run_log})"
    return out


class _Follow:
    """Runs Snakemake commands with their output to the run's log file and
    their job events (:mod:`mlfsbench.workflow.events`, appended to
    ``events``) to a :class:`~mlfsbench.workflow.progress.Progress`; stops
    Snakemake on SIGINT and SIGTERM (:func:`_passing_on`)."""

    #: seconds between two reads of the events file
    POLL = 0.2

    def __init__(self, workdir: Path, log_fh, progress, events: Path) -> None:
        self.workdir, self.log_fh, self.progress = workdir, log_fh, progress
        self.events = events
        self.received: list[int] = []

    def __call__(self, cmd: list[str], feed=None) -> int:
        """Run ``cmd``; its job events go to the progress, or, given
        ``feed``, to ``feed`` as one list when it ends (a dry run's)."""
        from mlfsbench.workflow.events import EventTail, logger_args

        cmd = [*cmd, *logger_args(self.events)]
        self.log_fh.write(f"$ {' '.join(cmd)}\n")
        self.log_fh.flush()
        tail = EventTail(self.events)
        tail.skip()  # the events of the commands before
        child = subprocess.Popen(cmd, cwd=self.workdir, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True,
                                 errors="replace", preexec_fn=_default_sigint)
        with _passing_on(child, self.received):
            return self._follow(child, tail, feed)

    def _follow(self, child: subprocess.Popen, tail, feed) -> int:
        def read():
            for line in child.stdout:
                self.log_fh.write(line)

        # Read in a thread: jobs that outlive a killed Snakemake hold its
        # output pipe open, and the runner must end them, not wait for them.
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        from mlfsbench.workflow.progress import TICK

        stop = threading.Event()

        def watch():
            # the job events as they come; a long job sends none: the
            # progress hears the time pass
            last_tick = time.monotonic()
            while not stop.wait(self.POLL):
                for event in tail.read():
                    self.progress.feed(event)
                if time.monotonic() - last_tick >= TICK:
                    last_tick = time.monotonic()
                    self.progress.tick()

        watcher = threading.Thread(target=watch, daemon=True)
        if feed is None:
            watcher.start()
        try:
            code = child.wait()
            reader.join(timeout=None if code >= 0 else 5)
        finally:
            stop.set()
            if feed is None:
                watcher.join()
            self.log_fh.flush()
        if feed is None:
            for event in tail.read():  # those after the last poll
                self.progress.feed(event)
        else:
            feed(tail.read())
        return code


def _interrupted(code: int, received: list[int], workdir: Path) -> int | None:
    """The exit status of a run ended by a signal, or None."""
    if received and code > 0:
        # Snakemake cleaned up after the signal and exited 1; report
        # the interruption as a shell would (Ctrl-C: 130).
        log.error("interrupted by %s; the run is incomplete",
                  signal.Signals(received[0]).name)
        return 128 + received[0]
    if code < 0:
        name = signal.Signals(-code).name
        log.error("snakemake was killed by %s; the run is incomplete", name)
        for pid, job in live_job_processes(workdir):
            # Its jobs outlive it: end them, so that none writes an
            # output after the next run has used it.
            log.error("ending its orphaned job pid %d: %s", pid, job)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        return 128 - code
    return None


def _plan(args: Sequence[str], workdir: Path):
    """The plan of the run's config (None if it cannot be read here: the
    run then skips the data stage and Snakemake reports the problem)."""
    from mlfsbench.workflow.runstats import plan_of_config

    files = _configfiles(args)
    configfile = files[-1] if files else "config/config.yaml"
    if not (workdir / configfile).exists():
        return None
    try:
        return plan_of_config(configfile, workdir)
    except Exception as exc:  # noqa: BLE001 (Snakemake will say it better)
        log.debug("no plan: %s", exc)
        return None


def run(args: Sequence[str], workdir: str | os.PathLike = ".", *,
        report: str | None = None, out=None,
        epilogue: Callable[[Path, Sequence[str] | None], Sequence[str]] | None
        = None) -> int:
    """Run Snakemake in ``workdir`` with ``args``; return its exit code.

    ``--directory``/``-d`` among ``args`` is the working directory (relative
    to ``workdir``); ``--snakefile`` may name a Snakefile elsewhere. Unless
    the arguments only inspect the workflow (:data:`INSPECT`), the run

    1. obtains and prepares every dataset of the plan (``--keep-going``);
       each that fails is written with its reason to ``results/unavailable.
       json`` and dropped from the experiments (``--config unavailable=``);
       skipped when every dataset is prepared already;
    2. runs the rest, showing progress (:mod:`~mlfsbench.workflow.progress`)
       from Snakemake's job events (``logs/run-<UTC time>.events.jsonl``,
       :mod:`~mlfsbench.workflow.events`) and keeping Snakemake's whole
       output in ``logs/run-<UTC time>.log``;
    3. writes Snakemake's HTML ``report`` if asked;
    4. ends, after a successful run, with the lines of ``epilogue(results
       folder, the plan's experiments or None)`` (the command line's: the
       verdict counts per study and their tables' paths), then the path of
       the summary page and one line per failure. A run that fails names
       the summary page only if it wrote it; when Snakemake stops outside
       any job (a config or schema error, a changed raw file: no job failed,
       no dataset was left out) the last line gives its message
       (:func:`snakemake_error`) and the log's path.

    A dataset that could not be obtained makes the exit status 1 even when
    the rest succeeded.
    """
    args, workdir, snakefile = _take_directory(args, Path(workdir))
    if snakefile is None and not (workdir / "Snakefile").exists():
        raise FileNotFoundError(f"{workdir}: no workflow here (no Snakefile); "
                                "'mlfsbench init' writes one")
    if snakefile is not None and not snakefile.exists():
        raise FileNotFoundError(f"{snakefile}: no such Snakefile")
    out = sys.stdout if out is None else out
    state = workdir / ".snakemake"
    state.mkdir(exist_ok=True)
    lock_fh = open(state / "mlfsbench-run.lock", "a+")  # noqa: SIM115
    try:
        try:
            fcntl.flock(lock_fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunRefused(
                f"{workdir}: another 'mlfsbench run' is active here; "
                "wait for it or stop it first"
            ) from None
        pids = live_snakemake_pids(workdir)
        if pids:
            raise RunRefused(
                f"{workdir}: snakemake is running here (pid "
                f"{', '.join(map(str, pids))}); refusing to start a second run"
            )
        jobs = live_job_processes(workdir)
        if jobs:
            shown = "; ".join(f"pid {pid}: {cmd}" for pid, cmd in jobs)
            raise RunRefused(
                f"{workdir}: {len(jobs)} job(s) of an earlier run are still "
                f"running without their snakemake ({shown}); they would write "
                f"outputs that this run uses. End them (kill "
                f"{' '.join(str(pid) for pid, _ in jobs)}) and start again"
            )
        check_configfiles(args, workdir)
        cmd = _snakemake_cmd()
        if _has_stale_locks(workdir):
            log.warning("removing a stale Snakemake lock left by a killed run")
            unlock = subprocess.run([*cmd, "--unlock", *args], cwd=workdir,
                                    stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            if unlock.returncode != 0:
                # Snakemake reads the workflow to unlock it: a config error
                # fails here. Show its own message, not our command line.
                sys.stderr.write(unlock.stderr)
                log.error("snakemake could not remove the stale lock (its "
                          "error is above)")
                return unlock.returncode
        if _is_inspection(args):
            return _passthrough(cmd, args, workdir)
        return _run_followed(cmd, args, workdir, report, out, epilogue)
    finally:
        lock_fh.close()


def _passthrough(cmd: list[str], args: Sequence[str], workdir: Path) -> int:
    """Snakemake with its own output (an inspection: dry run, lint, ...)."""
    # The runner passes SIGINT on to Snakemake, which must then act on it
    # even when this process was started with SIGINT ignored (in the
    # background of a script: `mlfsbench run ... &`), a disposition its
    # children would otherwise inherit.
    # (the triggers take several values: a flag must follow them)
    child = subprocess.Popen([*cmd, *rerun_trigger_args(args), "--rerun-incomplete",
                              *job_thread_args(args), *args], cwd=workdir,
                             preexec_fn=_default_sigint)
    received: list[int] = []
    with _passing_on(child, received):
        code = child.wait()
    stopped = _interrupted(code, received, workdir)
    return code if stopped is None else stopped


def _run_followed(cmd: list[str], args: Sequence[str], workdir: Path,
                  report: str | None, out, epilogue=None) -> int:
    """Steps 1-4 of :func:`run`."""
    import time

    from mlfsbench.io import write_json
    from mlfsbench.workflow.progress import MAX_LINE, Progress, clip
    from mlfsbench.workflow.runstats import method_names, shared_users

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    log_path = workdir / "logs" / f"run-{stamp}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    shown_log = os.path.relpath(log_path)
    plan = _plan(args, workdir)
    tty = bool(getattr(out, "isatty", lambda: False)())
    width = shutil.get_terminal_size((300, 24)).columns - 1 if tty else 300
    progress = Progress(out, tty=tty, width=width,
                        users=shared_users(plan) if plan is not None else None,
                        names=method_names(plan) if plan is not None else None)
    options = [*rerun_trigger_args(args), "--rerun-incomplete",
               *job_thread_args(args)]
    base = [*cmd, *options, *args]
    unavailable: dict[str, str] = {}
    summary = workdir / "results" / "summary.html"
    summary_before = _mtime(summary)
    with open(log_path, "w", encoding="utf-8") as log_fh:
        follow = _Follow(workdir, log_fh, progress,
                         log_path.with_suffix(".events.jsonl"))
        progress.say(f"mlfsbench run: Snakemake's log is {shown_log}")
        code = 0
        prepared = plan is not None and all(
            (workdir / "data" / "prepared" / f"{d}.npz").exists()
            and d in plan.facts for d in plan.datasets)
        if prepared:
            # every dataset was obtained before, its statistics record the
            # data facts the plan reads: no data stage (its start-up costs
            # ~10 s); the dry run still gives the totals
            record = workdir / UNAVAILABLE
            if record.exists():
                record.unlink()
            follow([*base, "--dry-run"], feed=progress.expect)
        elif plan is not None:
            # 1. the datasets: a failure here leaves the others to run
            targets = [f"data/prepared/{d}.npz" for d in plan.datasets]
            progress.start_stage(" (datasets)")
            code = follow([*cmd, *options, *without_targets(args), "--keep-going",
                           *targets])
            stopped = _interrupted(code, follow.received, workdir)
            if stopped is not None:
                return stopped
            if code != 0 and not progress.failures:
                # no job failed: Snakemake stopped before any (the workflow
                # or its config is wrong, a raw file changed), not for a
                # dataset: no run; its message is said at the end
                pass
            else:
                unavailable = dataset_failures(workdir, plan.datasets, shown_log)
                record = workdir / UNAVAILABLE
                if unavailable:
                    write_json(record, unavailable)
                    base = with_config(base, f"unavailable={UNAVAILABLE}")
                elif record.exists():
                    record.unlink()
                progress.failures.clear()
                code = 0
                if len(unavailable) == len(plan.datasets):
                    code = 1
                else:
                    # the totals of each study, from a dry run
                    progress.start_stage("")
                    follow([*base, "--dry-run"], feed=progress.expect)
        if code == 0:
            # 2. the run
            code = follow(base)
            stopped = _interrupted(code, follow.received, workdir)
            if stopped is not None:
                return stopped
        if code == 0 and report:
            # 3. Snakemake's HTML report
            rargs = [a for a in base if a not in ("--rerun-incomplete",)]
            code = follow([*rargs, "--report", report], feed=lambda _lines: None)
    # 4. the jobs' warnings, where to look, and what failed (a successful
    # run's last line names the summary page)
    warned = job_warnings(workdir, progress.finished_logs)
    for name, first, count in warned[:SHOWN_WARNINGS]:
        more = f" (+{count - 1} more)" if count > 1 else ""
        progress.say(clip(f"warning: {_reason(first)}{more} (log: {name})"))
    if len(warned) > SHOWN_WARNINGS:
        progress.say(f"warning: {len(warned) - SHOWN_WARNINGS} more job logs have "
                     f"warnings (lines with WARNING under logs/)")
    if code == 0 and epilogue is not None:
        studies = list(plan.main_experiments) if plan is not None else None
        try:
            lines = list(epilogue(workdir / "results", studies))
        except Exception as exc:  # noqa: BLE001 (the run itself succeeded)
            lines = [clip(f"(no verdict counts: {exc})")]
        for line in lines:
            progress.say(line)
    if report and (workdir / report).exists():
        progress.say(f"report: {os.path.relpath(workdir / report)}")
    if summary.exists() and (code == 0 or _mtime(summary) != summary_before):
        # (a failed run names the page only if it wrote it: else it is an
        # earlier run's)
        progress.say(f"summary: {os.path.relpath(summary)}")
    for d, reason in sorted(unavailable.items()):
        progress.say(clip(f"FAILED dataset {d}: {reason}"))
    for f in progress.failures:
        where = ", ".join(f"{k}={v}" for k, v in f.wildcards.items())
        reason = _last_error([workdir / f.log]) if f.log else ""
        progress.say(clip(f"FAILED {f.rule} ({where}): {reason or 'failed'} "
                          f"(log: {f.log or shown_log})"))
    if code != 0 and not progress.failures and not unavailable:
        # no job failed: Snakemake stopped outside any (a config error, a
        # changed raw file, ...); its message is in its log
        head = f"FAILED: snakemake exited with status {code}"
        tail = f" (see {shown_log})"
        problem = snakemake_error(log_path)
        if problem:
            head += ": " + clip(problem, max(40, MAX_LINE - len(head) - 2 - len(tail)))
        progress.say(head + tail)
    if code == 0 and unavailable:
        code = 1
    return code
