"""Workflow scale: parallel speed-up and the size of the full reproduction's DAG.

1. The whole ``config/quick.yaml`` experiment, from the raw files to the
   plots, with ``--cores 1`` (the baseline) and ``--cores 2``, each in a fresh
   copy of the workflow against a ``file://`` mirror of the Mulan files:
   wall time, speed-up, and seconds per stage summed from the rules'
   ``benchmarks/`` files.
2. The DAG of the full reproduction (``config/config.yaml``): the time of
   ``snakemake -n`` (parsing, validation, DAG construction and scheduling
   bookkeeping, nothing executed), the number of jobs, and the number of
   SLURM submissions once ``profiles/slurm`` groups the tiny jobs.

Usage::

    .venv/bin/python bench/bench_workflow.py [--shared PATH] [--skip-run]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pandas as pd

from mlfsbench.workflow import runner
from mlfsbench.workflow.runstats import read_benchmarks

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def snakemake(workdir: Path, *args: str, limit: float = 3600):
    cmd = [str(BIN / "snakemake"), *args]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=limit)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}"
                         f"\n{proc.stderr[-3000:]}")
    return proc, seconds


def stage_seconds(workdir: Path) -> pd.Series:
    """Seconds per rule: the ``s`` column of its benchmark files, summed."""
    jobs = read_benchmarks(workdir)
    return jobs.groupby("rule")["s"].sum().sort_values(ascending=False)


def dry_run_counts(stdout: str) -> tuple[Counter, int]:
    """Jobs per rule (Snakemake's job stats) and the number of cluster jobs.

    With ``profiles/slurm`` each group job is one submission, every other job
    except the target rule ``all`` (which runs nothing) is one too.
    """
    table = stdout.split("Job stats:", 1)[1]
    jobs = Counter({m[1]: int(m[2]) for m in re.finditer(
        r"^(\w+)\s+(\d+)$", table.split("\n\n", 1)[0], flags=re.M)
        if m[1] != "total"})
    groups = len(re.findall(r"Group job \w+ \(jobs", stdout))
    single = len(re.findall(r"^(?:local)?rule (?!all:)\w+:", stdout, flags=re.M))
    return jobs, groups + single


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path(os.environ.get(
        "MLFS_SHARED_DATASETS", REPO.parent / "shared" / "datasets")))
    parser.add_argument("--skip-run", action="store_true",
                        help="only the dry-run part (no quick.yaml runs)")
    args = parser.parse_args(argv)
    if not (args.shared / "MANIFEST.tsv").is_file():
        raise SystemExit(f"no Mulan mirror at {args.shared}")
    mirror = f"mirror={args.shared.resolve().as_uri()}/"

    with tempfile.TemporaryDirectory(prefix="bench-workflow-") as tmp:
        tmp = Path(tmp)
        if not args.skip_run:
            walls = {}
            for cores in (1, 2):
                workdir = runner.copy_workflow(REPO, tmp / f"quick-{cores}")
                _, walls[cores] = snakemake(
                    workdir, "--cores", str(cores), "--configfile",
                    "config/quick.yaml", "--config", mirror)
                stages = stage_seconds(workdir)
                print(f"config/quick.yaml --cores {cores}: {walls[cores]:.1f} s wall, "
                      f"{stages.sum():.1f} s in jobs")
                for stage, seconds in stages.items():
                    print(f"  stage {stage:<16} {seconds:8.1f} s")
            print(f"speedup cores=2 vs cores=1 (config/quick.yaml): "
                  f"{walls[1] / walls[2]:.2f}x")

        workdir = runner.copy_workflow(REPO, tmp / "full")
        proc, seconds = snakemake(workdir, "-n", "--profile",
                                  str(REPO / "profiles" / "slurm"), "--config",
                                  mirror, limit=1800)
        jobs, submissions = dry_run_counts(proc.stdout)
        total = sum(jobs.values())
        print(f"config/config.yaml DAG: {total} jobs, {submissions} SLURM "
              f"submissions with profiles/slurm groups; snakemake -n took "
              f"{seconds:.1f} s ({1000 * seconds / total:.1f} ms per job)")
        print("  jobs per rule: " + ", ".join(
            f"{rule}={n}" for rule, n in jobs.most_common()))
        print(f"speedup grouped vs one job per rule (SLURM submissions): "
              f"{(total - jobs.get('all', 0)) / submissions:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
