"""The ``mlfsbench`` command line.

Subcommands: ``describe`` (dataset statistics), ``select`` (rank features),
``evaluate`` (train/test a classifier, all metrics), ``methods`` (the
registry), ``stats`` (Friedman and post-hoc tests on a datasets x methods
table), ``claims`` (finished experiments' verdicts on their papers' claims),
``init`` (write the workflow into a folder), ``run`` (the Snakemake
workflow with safe recovery), ``challenge`` (a
method of yours against the studies), ``league`` (every method under
every study's protocol), ``runstats`` (a run's
time and memory per stage). Errors exit with status 1 and one line on
stderr; a closed output pipe (``mlfsbench claims results/ | head``) ends the
command quietly with status 0.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from mlfsbench import __version__
from mlfsbench.cli import (
    challenge,
    claims,
    describe,
    evaluate,
    init,
    league,
    methods,
    run,
    runstats,
    select,
    stats,
)
from mlfsbench.cli._common import call, plain

# Each command's module holds its parser beside its handler: add_parser(sub)
# adds the subcommand (its set_defaults name the handler, func, and, for a
# command that hands arguments on to Snakemake, snakemake_args_of), run(args)
# carries it out. This is the order of the help's list.
COMMANDS = (describe, select, evaluate, methods, stats, claims, runstats, init,
            run, challenge, league)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mlfsbench", description=plain(__doc__))
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    snakemake_args_of = getattr(args, "snakemake_args_of", None)
    if snakemake_args_of is not None:
        args.snakemake_args = snakemake_args_of(args, extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return call(args.func, args)
