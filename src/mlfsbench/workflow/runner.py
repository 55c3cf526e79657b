"""``mlfsbench run``: Snakemake with safe recovery after a killed run.

A run killed with ``kill -9`` leaves Snakemake's lock and its marks of
incomplete outputs behind. Before starting Snakemake this runner

1. takes an exclusive, kernel-held lock (``fcntl.flock``) on
   ``.snakemake/mlfsbench-run.lock``; the kernel drops it when its holder dies,
   so a failure here means another ``mlfsbench run`` is alive and we refuse;
2. looks for a live ``snakemake`` process working in the same directory (one
   started by hand); if there is one we refuse as well;
3. otherwise any Snakemake lock is stale: it is removed with
   ``snakemake --unlock``;
4. runs Snakemake with ``--rerun-incomplete``, so outputs of killed jobs are
   recomputed. Outputs are written atomically by every stage, so no
   half-written file can be mistaken for a complete one.
"""

from __future__ import annotations

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
WORKFLOW_FILES = ("Snakefile", "rules", "scripts", "config", "envs")


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


def _snakemake_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("snakemake")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("snakemake")
    return [found] if found else [sys.executable, "-m", "snakemake"]


def live_snakemake_pids(workdir: Path) -> list[int]:
    """PIDs of running Snakemake main processes whose cwd is ``workdir``."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    workdir = workdir.resolve()
    pids = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        names = [os.path.basename(a.decode(errors="replace")) for a in argv[:3]]
        is_snakemake = "snakemake" in names or (
            len(argv) > 2 and argv[1] == b"-m" and argv[2] == b"snakemake"
        )
        if is_snakemake and cwd == workdir:
            pids.append(int(entry.name))
    return sorted(pids)


def _has_stale_locks(workdir: Path) -> bool:
    locks = workdir / ".snakemake" / "locks"
    return locks.is_dir() and any(locks.iterdir())


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
        cmd = _snakemake_cmd()
        if _has_stale_locks(workdir):
            log.warning("removing a stale Snakemake lock left by a killed run")
            subprocess.run([*cmd, "--unlock", *args], cwd=workdir, check=True,
                           stdout=subprocess.DEVNULL)
        child = subprocess.Popen([*cmd, "--rerun-incomplete", *args], cwd=workdir)
        forward = (signal.SIGINT, signal.SIGTERM)
        previous = {s: signal.signal(s, lambda n, _f: child.send_signal(n))
                    for s in forward}
        try:
            return child.wait()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
    finally:
        lock_fh.close()
