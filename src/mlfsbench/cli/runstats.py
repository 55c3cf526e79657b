"""``mlfsbench runstats``: a run's wall time, CPU time and peak memory per
stage, from its benchmark files."""

from __future__ import annotations

import os


def add_parser(sub) -> None:
    p = sub.add_parser(
        "runstats", help="wall time, CPU time and peak memory of a run per "
        "stage, summed from its benchmarks/ files")
    p.add_argument("--workdir", default=".",
                   help="the workflow directory (default: the current one)")
    p.add_argument("--by", choices=["rule", "experiment", "both", "method",
                                    "method-dataset"], default="both",
                   help="group the jobs by rule, by experiment or by both "
                        "(default: %(default)s; a shared job's time is divided "
                        "equally among the experiments that use it), or by rule "
                        "and method (the selector of a select job, the "
                        "classifier of a classify job), with the dataset too")
    p.add_argument("--configfile", metavar="FILE",
                   help="the run's config, whose plan says which experiments use "
                        "each shared job (default: config/config.yaml if present; "
                        "without one shared jobs stay under '-')")
    p.add_argument("--tsv", action="store_true", help="print TSV")
    p.set_defaults(func=run)


def run(args) -> int:
    from mlfsbench.workflow.runstats import (
        format_summary,
        plan_of_config,
        read_benchmarks,
        shared_users,
        split_shared,
        summarize,
        with_total,
    )

    jobs = read_benchmarks(args.workdir)
    if jobs.empty:
        raise ValueError(f"{args.workdir}/benchmarks: no benchmark files")
    by = {"rule": ["rule"], "experiment": ["experiment"],
          "both": ["experiment", "rule"], "method": ["rule", "method"],
          "method-dataset": ["rule", "method", "dataset"]}[args.by]
    grouped = jobs
    if args.by in ("experiment", "both"):
        configfile = args.configfile or "config/config.yaml"
        if args.configfile or os.path.exists(os.path.join(args.workdir, configfile)):
            users = shared_users(plan_of_config(configfile, args.workdir))
            grouped = split_shared(jobs, users)
    table = with_total(summarize(grouped, by=by), jobs)
    if args.tsv:
        print(table.to_csv(sep="\t", float_format="%.2f"), end="")
    else:
        print(format_summary(table))
    return 0
