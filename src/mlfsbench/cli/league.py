"""``mlfsbench league``: every method under every study's protocol, with a
method of yours if you like, run as ``mlfsbench run`` runs the studies."""

from __future__ import annotations

import argparse
import os
import sys

import yaml

from mlfsbench.cli._common import parse_params, passthrough, plain_table
from mlfsbench.cli._configs import (
    add_challenger_options,
    add_run_options,
    challenger,
    check_id,
    check_output,
    files_read,
    header,
    snakemake_run_args,
)

EPILOG = """\
The league (config/league.yaml) runs every registered selector under each
protocol: a study's datasets, splits, classifier, feature grid and comparison
point. The studies' own methods are their jobs (results/shared/), so after a
reproduction only the other methods run. Its page, results/league/league.html,
ranks the methods per protocol (CD diagrams, Friedman/Nemenyi) and compares
the rankings across protocols (Kendall's tau, each method's rank under each
protocol, the orderings of the papers' methods that hold under all).
With --selector your method joins every protocol (fitted as the league's
own: the protocol's codes and label transformation); results go to
results/league+<id>/. For example:
  mlfsbench league --cores 2
  mlfsbench league --jobs                     # what it adds to the studies
  mlfsbench league --datasets emotions,yeast,genbase --cores 2
  mlfsbench league --selector variance-rank --protocols lee2016,li2017 -n
Further arguments go to Snakemake (after '--'). docs/league.md.
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "league", help="every method under every study's protocol (the league "
        "page); a method of yours with --selector",
        description="Run the league: every registered selector under each "
        "study's protocol,\nsharing the studies' jobs.", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    p.add_argument("--configfile", default="config/league.yaml", metavar="FILE",
                   help="the league config (default: %(default)s)")
    add_challenger_options(
        p, selector="a challenger joining the league",
        ident="the challenger's name in the tables; the league is then "
              "league+<ID>")
    p.add_argument("--protocols", metavar="A,B",
                   help="only these of the league's protocols")
    p.add_argument("--datasets", action="append", metavar="A,B",
                   help="only these of each protocol's datasets (a protocol with "
                        "none of them is left out)")
    p.add_argument("--jobs", action="store_true",
                   help="plan only: print each protocol's select and classify "
                        "jobs, how many the studies (--base) run too and how "
                        "many are new")
    p.add_argument("--base", default="config/config.yaml", metavar="FILE",
                   help="with --jobs: the config the league is counted against "
                        "(default: %(default)s, the reproduction)")
    add_run_options(p, dry_run="write the config (if any) and show the jobs that "
                               "would run",
                    output="config/challenges/<league name>.yaml, when a "
                           "selector, protocols or datasets are given")
    p.set_defaults(func=run, snakemake_args_of=passthrough)


def _names(items: list[str] | None) -> list[str]:
    return [n for item in items or [] for n in item.split(",") if n]


def job_counts(configfile: str, base: str, workdir: str) -> list[list]:
    """The rows of ``--jobs``: per league experiment and kind, its jobs,
    those ``base``'s plan has too, those new (counted once over the
    league), then the totals (:func:`mlfsbench.workflow.league.new_jobs`)."""
    from mlfsbench.workflow.league import new_jobs
    from mlfsbench.workflow.runstats import plan_of_config

    league = plan_of_config(configfile, workdir)
    counts = new_jobs(league, plan_of_config(base, workdir))
    rows, total = [], {}
    for experiment, kinds in counts.items():
        for kind, c in kinds.items():
            rows.append([experiment, kind, *map(str, (c["jobs"], c["shared"],
                                                       c["added"]))])
            t = total.setdefault(kind, [0, 0, 0])
            for i, key in enumerate(("jobs", "shared", "added")):
                t[i] += c[key]
    rows += [["total", kind, *map(str, t)] for kind, t in total.items()]
    return rows


def run(args) -> int:
    """Write the league's config when the arguments change it, then run it
    as ``mlfsbench run`` does (``--jobs``: count its jobs instead)."""
    import logging

    from mlfsbench.io import write_text
    from mlfsbench.workflow import runner
    from mlfsbench.workflow.league import DEFAULT_NAME, league_config

    workdir = os.path.abspath(args.workdir)
    if args.id is not None:
        check_id(args.id)
    if args.param and not args.selector:
        raise ValueError("--param sets the challenger's parameters: give --selector")
    if args.id and not args.selector:
        raise ValueError("--id names the challenger: give --selector")
    challengers = ([challenger("selector", args.selector, parse_params(args.param),
                               args.id)] if args.selector else [])
    protocols, datasets = _names([args.protocols] if args.protocols else []), \
        _names(args.datasets)
    configfile = args.configfile
    if challengers or protocols or datasets:
        cwd = os.getcwd()
        try:
            os.chdir(workdir)  # the config's paths are relative to the workflow
            config = league_config(args.configfile, protocols or None,
                                   datasets or None, challengers)
            reads = files_read(args.configfile, config)
        finally:
            os.chdir(cwd)
        name = config["league"].get("name") or DEFAULT_NAME
        configfile = args.output or f"config/challenges/{name}.yaml"
        target = check_output(configfile, workdir, reads, args.allow_outside,
                              command="league")
        text = (f"{header('league')}; run again with\n# "
                f"`mlfsbench league --configfile {configfile}`.\n"
                + yaml.safe_dump(config, sort_keys=False))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        write_text(target, text)
        print(f"mlfsbench: wrote {configfile}: league {name!r}", file=sys.stderr)
    if args.jobs:
        rows = job_counts(configfile, args.base, workdir)
        print(plain_table(["experiment", "kind", "jobs", f"in {args.base}", "new"],
                          rows, left=2))
        return 0
    logging.basicConfig(level=logging.INFO, format="mlfsbench: %(message)s")
    name = league_name(os.path.join(workdir, configfile))
    return runner.run(snakemake_run_args(configfile, args), workdir=workdir,
                      epilogue=league_page_line(name))


def league_name(configfile: str) -> str:
    """The name of a config file's league (its results folder); the default
    when the file gives none or cannot be read (the run then says why)."""
    from mlfsbench.workflow.league import DEFAULT_NAME
    from mlfsbench.yamlfile import load_yaml_file

    try:
        league = (load_yaml_file(configfile) or {}).get("league") or {}
        return str(league.get("name") or DEFAULT_NAME)
    except (OSError, ValueError, AttributeError, yaml.YAMLError):
        return DEFAULT_NAME



def league_page_line(name: str):
    """The epilogue of a league run: after a success, the path of the
    league's page (when it was written)."""

    def lines(results: str | os.PathLike, studies=None) -> list[str]:
        page = os.path.join(results, name, "league.html")
        return [f"league: {os.path.relpath(page)}"] if os.path.isfile(page) else []

    return lines
