"""``mlfsbench challenge``: a method of yours against the studies, run as
``mlfsbench run`` runs them."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import yaml

from mlfsbench.cli._common import parse_params, passthrough
from mlfsbench.estimators import registry

EPILOG = """\
Each study runs with the method added, under its own protocol, discretization,
classifier, feature grid and statistics; the paper's methods reuse the study's
cached jobs (results/shared/), so only the method's jobs, the tables, the
statistics and the report run when the study ran before. The claims stay the
paper's (judged without the method). Results: results/<study>+<id>/, the
challenge pages results/<study>+<id>/challenge/ and results/challenges.html.
For example:
  mlfsbench challenge --selector variance-rank --studies lee2016 \\
      --datasets yeast,genbase --cores 2
  mlfsbench challenge --selector mim-br --param n_features_to_select=20 -n
  mlfsbench challenge --classifier brknn-a --studies tiny
Further arguments go to Snakemake (after '--'). docs/challenge.md.
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "challenge", help="set a method against the studies: their protocols, "
        "statistics and cached results, the method's jobs only",
        description="Run the studies with a selector (or classifier) of yours "
        "added beside the\npaper's methods.", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    p.add_argument("--selector", metavar="NAME",
                   help="the challenger: a registered selector (built in or a "
                        "plugin's), as 'mlfsbench methods' lists them")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the selector (repeat for several; the "
                        "value is read as YAML)")
    p.add_argument("--id", metavar="ID",
                   help="the method's name in the tables and the experiments' "
                        "names (<study>+<ID>; default: the registry name, with a "
                        "hash of the parameters when some are given)")
    p.add_argument("--classifier", action="append", metavar="NAME",
                   help="a challenger classifier, trained on every selector's "
                        "features (repeat for several)")
    p.add_argument("--classifier-param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the challenger classifier(s)")
    p.add_argument("--studies", default="all", metavar="A,B|all",
                   help="the studies to challenge (default: all of the config "
                        "file's: each experiment named like its file)")
    p.add_argument("--datasets", action="append", metavar="A,B",
                   help="only these of each study's datasets (a study with none "
                        "of them is left out)")
    p.add_argument("-n", "--dry-run", action="store_true",
                   help="write the config and show the jobs that would run")
    p.add_argument("--cores", metavar="N",
                   help="cores Snakemake may use: a number or 'all'")
    p.add_argument("--configfile", default="config/config.yaml", metavar="FILE",
                   help="the config whose studies are challenged (default: "
                        "%(default)s, the five papers; config/tiny.yaml: the "
                        "test study)")
    p.add_argument("--output", metavar="FILE",
                   help="where to write the generated config (default: "
                        "config/challenges/<id>.yaml)")
    p.add_argument("--workdir", default=".", metavar="DIR",
                   help="the workflow directory (default: the current one)")
    p.set_defaults(func=run, snakemake_args_of=passthrough)


def challenger(kind: str, name: str, params: dict[str, Any],
               ident: str | None = None) -> dict[str, Any]:
    """A challenger's config entry; an unknown name or a bad parameter is an
    error naming it (with the registered names it resembles)."""
    from mlfsbench.workflow.checks import check_params

    cls = registry.get(kind, name)  # KeyError: "did you mean ...?"
    unknown = sorted(set(params) - set(registry.parameters(cls)))
    if unknown:
        raise ValueError(f"{kind} {name!r} has no parameter(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted(registry.parameters(cls)))}")
    problem = check_params(kind, name, params)
    if problem:
        raise ValueError(f"{kind} {name!r}: {problem}")
    entry: dict[str, Any] = {"name": name}
    if ident:
        entry["id"] = ident
    if params:
        entry["params"] = params
    return entry


def run(args) -> int:
    """Write the config that sets the method against the studies, then run
    it as ``mlfsbench run`` does."""
    import logging

    from mlfsbench.io import write_text
    from mlfsbench.workflow import runner
    from mlfsbench.workflow.studies import challenge_config

    workdir = os.path.abspath(args.workdir)
    selectors = []
    if args.selector:
        selectors.append(challenger("selector", args.selector,
                                    parse_params(args.param), args.id))
    classifiers = [challenger("classifier", name, parse_params(args.classifier_param),
                              None if selectors else args.id)
                   for name in args.classifier or []]
    if not selectors and args.param:
        raise ValueError("--param sets the selector's parameters: give --selector "
                         "(--classifier-param sets the classifiers')")
    studies = None
    if args.studies and args.studies != "all":
        studies = [s for s in args.studies.split(",") if s]
    datasets = [d for item in args.datasets or [] for d in item.split(",") if d]
    cwd = os.getcwd()
    try:
        os.chdir(workdir)  # the config's paths are relative to the workflow
        config, notes = challenge_config(args.configfile, studies, selectors,
                                         classifiers, datasets or None)
    finally:
        os.chdir(cwd)
    name = next(iter(config["experiments"])).split("+", 1)[1]
    out = args.output or f"config/challenges/{name}.yaml"
    text = ("# Written by `mlfsbench challenge`; run again with\n# "
            f"`mlfsbench run --configfile {out}`.\n# Each experiment extends a "
            "study (docs/challenge.md); its results go to\n# results/<experiment>/.\n"
            + yaml.safe_dump(config, sort_keys=False))
    os.makedirs(os.path.dirname(os.path.join(workdir, out)) or ".", exist_ok=True)
    write_text(os.path.join(workdir, out), text)
    for note in notes:
        print(f"mlfsbench: {note}: left out", file=sys.stderr)
    print(f"mlfsbench: wrote {out}: {', '.join(config['experiments'])}",
          file=sys.stderr)
    logging.basicConfig(level=logging.INFO, format="mlfsbench: %(message)s")
    snakemake_args = ["--configfile", out]
    if args.cores is not None:
        snakemake_args += ["--cores", args.cores]
    if args.dry_run:
        snakemake_args.append("--dry-run")
    return runner.run(snakemake_args + list(args.snakemake_args), workdir=workdir)
