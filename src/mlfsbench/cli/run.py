"""``mlfsbench run``: the Snakemake workflow with safe recovery, ending with
each study's verdict counts."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from mlfsbench.cli._common import passthrough, plain_table

EPILOG = """\
Every other argument goes to Snakemake unchanged (put them after '--' if they
could be taken for this command's own), for example:
  mlfsbench run --cores 2 --configfile config/quick.yaml
  mlfsbench run --cores all -- --dry-run
  mlfsbench run --cores 2 -- --keep-going --forcerun stats
The run first obtains and prepares every dataset (a dataset that fails is
left out of the studies, which are built from the rest; the exit status is
then 1), shows its progress (per study: jobs done of total, the running job,
time left) and keeps Snakemake's whole log in logs/run-<time>.log; it ends,
after a success, with the verdict counts of each study (the robust tally of
'mlfsbench claims') and its claims.tsv's path, then with the summary page's
path and one line per failure.
On one machine every job runs on one thread (Snakemake's --max-threads 1)
unless you give --max-threads N, a --profile or an --executor. A stale lock
of a killed run is removed when no other run is alive here; outputs of
killed jobs are recomputed. Jobs rerun when their parameters (code versions
included), inputs or software change, not their file times
(--rerun-triggers params input software-env unless you give your own), so a
cache copied from another checkout is reused: docs/cache.md.
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "run", help="run the workflow in the current directory (resumes after a "
        "kill); further arguments go to Snakemake, e.g. --cores all",
        description="Run the Snakemake workflow of the current directory "
        "with safe recovery\nafter a killed run.", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False)  # Snakemake's --config is not our --configfile
    p.add_argument("--cores", metavar="N",
                   help="cores Snakemake may use: a number or 'all' (passed to "
                        "Snakemake; default: Snakemake's)")
    p.add_argument("--configfile", metavar="FILE",
                   help="the experiment config (passed to Snakemake; default: "
                        "config/config.yaml)")
    p.add_argument("--workdir", default=".", metavar="DIR",
                   help="the workflow directory to run in (default: the current "
                        "one; Snakemake's --directory works too)")
    p.add_argument("--report", metavar="FILE",
                   help="after the run, write Snakemake's HTML report to FILE "
                        "(relative to the workflow directory)")
    p.set_defaults(func=run, snakemake_args_of=snakemake_args)


def snakemake_args(args: argparse.Namespace, extra: list[str]) -> list[str]:
    """Snakemake's arguments: this command's ``--cores`` and ``--configfile``,
    then every argument it did not know."""
    own = []
    if args.cores is not None:
        own += ["--cores", args.cores]
    if args.configfile is not None:
        own += ["--configfile", args.configfile]
    return own + passthrough(args, extra)


def run(args) -> int:
    import logging

    from mlfsbench.workflow import runner

    logging.basicConfig(level=logging.INFO, format="mlfsbench: %(message)s")
    extra = {"report": args.report} if args.report else {}
    return runner.run(args.snakemake_args, workdir=args.workdir,
                      epilogue=run_verdicts, **extra)


def run_verdicts(results: str | os.PathLike,
                 studies: Sequence[str] | None = None) -> list[str]:
    """The lines a successful run ends with: the robust tally of each study
    with a verdict table (:func:`mlfsbench.report.verdict_tables.run_tally`),
    each with the path of its ``claims.tsv``; none when no study has one."""
    from mlfsbench.report.verdict_tables import RUN_TALLY, run_tally

    rows = run_tally(results, studies)
    if not rows:
        return []
    table = plain_table(["study", *RUN_TALLY, "verdicts"], rows, last_left=True)
    return ["verdicts (robust: the same under every reading; mlfsbench claims "
            "results/ for each claim):",
            *(line.rstrip() for line in table.splitlines())]
