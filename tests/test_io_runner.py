"""Atomic writes and the runner's detection of live runs."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import numpy as np
import pytest

from mlfsbench.workflow.io import atomic_path, save_npz, write_text
from mlfsbench.workflow.runner import RunRefused, live_snakemake_pids, run


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
    with pytest.raises(FileNotFoundError, match="no Snakefile"):
        run([], workdir=tmp_path)


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
