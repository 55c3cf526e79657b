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

On one machine (no ``--max-threads``, ``--executor`` or ``--profile`` among
the arguments) the run adds ``--max-threads 1``: every job runs its batch's
folds in turn in one process, and Snakemake runs as many jobs at once as
``--cores``, so one job's start-up, data loading and writing overlap another
job's computing, and no core waits for a batch's last fold. The whole
reproduction on 2 cores took 29 min 39 s so, against 36 min 21 s with each
job's folds in parallel (docs/cluster.md), with the same results (a job's
thread count does not change them). Give ``--max-threads N`` to run up to
``N`` folds of a job at once (when fewer jobs than cores are ready).

A config file given with ``--configfile`` that is empty is an error naming
it (Snakemake's own message does not). When Snakemake is killed by a signal
the run says so and exits with ``128 + signal``, as a shell would; so does
a run interrupted by SIGINT (Ctrl-C: 130) or SIGTERM, once Snakemake has
cleaned up. A stale lock that Snakemake cannot remove because the config is
wrong ends with Snakemake's own message about the config.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger(__name__)


# What a workflow directory holds besides its outputs (see copy_workflow).
WORKFLOW_FILES = ("Snakefile", "rules", "scripts", "config", "envs", "report")


def copy_workflow(repo: str | os.PathLike, dest: str | os.PathLike) -> Path:
    """Copy the workflow (``WORKFLOW_FILES`` of ``repo``) into a new ``dest``.

    Tests and benchmarks run the workflow in such a copy, so that their
    outputs never mix with the repository's own ``results/``.
    """
    repo, dest = Path(repo), Path(dest)
    dest.mkdir(parents=True)
    for name in WORKFLOW_FILES:
        src = repo / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        else:
            shutil.copy2(src, dest / name)
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


def run(args: Sequence[str], workdir: str | os.PathLike = ".") -> int:
    """Run Snakemake in ``workdir`` with ``args``; return its exit code."""
    workdir = Path(workdir).resolve()
    if not (workdir / "Snakefile").exists():
        raise FileNotFoundError(f"{workdir}: no Snakefile here")
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
        # The runner forwards SIGINT to Snakemake, which must then act on it
        # even when this process was started with SIGINT ignored (in the
        # background of a script: `mlfsbench run ... &`), a disposition its
        # children would otherwise inherit.
        child = subprocess.Popen([*cmd, "--rerun-incomplete", *job_thread_args(args),
                                  *args], cwd=workdir,
                                 preexec_fn=_default_sigint)
        forward = (signal.SIGINT, signal.SIGTERM)
        received: list[int] = []

        def pass_on(signum, _frame):
            received.append(signum)
            child.send_signal(signum)

        previous = {s: signal.signal(s, pass_on) for s in forward}
        try:
            code = child.wait()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
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
        return code
    finally:
        lock_fh.close()
