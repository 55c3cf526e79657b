"""``mlfsbench challenge``: a method of yours against the studies, run as
``mlfsbench run`` runs them."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import yaml

from mlfsbench.cli._common import parse_params, passthrough
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

#: The first line of a config this command writes.
HEADER = header("challenge")

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
    add_challenger_options(
        p, selector="the challenger",
        ident="the method's name in the tables and the experiments' names "
              "(<study>+<ID>)")
    p.add_argument("--discretize", metavar="STRATEGY",
                   choices=["equal-width", "equal-frequency"],
                   help="equal-width or equal-frequency: the codes of a selector "
                        "that reads discretized codes in the studies whose "
                        "selectors read the raw features (doquire2013, "
                        "spolaor2013); elsewhere it takes the study's "
                        "discretization")
    p.add_argument("--bins", type=int, metavar="N",
                   help="bins of --discretize (2 to 255; default: 5)")
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
    p.add_argument("--configfile", default="config/config.yaml", metavar="FILE",
                   help="the config whose studies are challenged (default: "
                        "%(default)s, the five papers; config/tiny.yaml: the "
                        "test study)")
    add_run_options(p, dry_run="write the config and show the jobs that would run",
                    output="config/challenges/<id>.yaml")
    p.set_defaults(func=run, snakemake_args_of=passthrough)


def discretization(strategy: str | None, bins: int | None) -> dict[str, Any] | None:
    """The ``discretize`` entry of ``--discretize`` and ``--bins`` (None when
    neither is given).

    >>> discretization("equal-frequency", None), discretization(None, None)
    ({'strategy': 'equal-frequency', 'bins': 5}, None)
    >>> discretization(None, 1)
    Traceback (most recent call last):
    ...
    ValueError: --bins 1: a discretization has 2 to 255 bins
    """
    if strategy is None and bins is None:
        return None
    if bins is not None and not 2 <= bins <= 255:
        raise ValueError(f"--bins {bins}: a discretization has 2 to 255 bins")
    return {"strategy": strategy or "equal-width", "bins": 5 if bins is None else bins}


def run(args) -> int:
    """Write the config that sets the method against the studies, then run
    it as ``mlfsbench run`` does."""
    import logging

    from mlfsbench.io import write_text
    from mlfsbench.workflow import runner
    from mlfsbench.workflow.studies import (
        challenge_config,
        reads_codes,
        resolve_extends,
    )

    workdir = os.path.abspath(args.workdir)
    if args.id is not None:
        check_id(args.id)
    selectors = []
    if args.selector:
        selectors.append(challenger("selector", args.selector,
                                    parse_params(args.param), args.id))
    disc = discretization(args.discretize, args.bins)
    if disc and not selectors:
        raise ValueError("--discretize and --bins give the codes of a selector: "
                         "give --selector")
    if disc and not reads_codes(selectors[0]):
        raise ValueError(f"--discretize: selector {args.selector!r} reads the raw "
                         "features (its input_kind is not 'discrete'), not "
                         "discretized codes")
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
                                         classifiers, datasets or None, disc)
        # the experiments as the workflow will read them: an error of theirs
        # (a challenger named like a study's method) is said before writing
        resolve_extends(json.loads(json.dumps(config)))
        reads = files_read(args.configfile, config)
    finally:
        os.chdir(cwd)
    name = check_id(next(iter(config["experiments"])).split("+", 1)[1],
                    "the challenger's id")
    out = args.output or f"config/challenges/{name}.yaml"
    target = check_output(out, workdir, reads, args.allow_outside)
    text = (f"{HEADER}; run again with\n# "
            f"`mlfsbench run --configfile {out}`.\n# Each experiment extends a "
            "study (docs/challenge.md); its results go to\n# results/<experiment>/.\n"
            + yaml.safe_dump(config, sort_keys=False))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    write_text(target, text)
    for note in notes:
        print(f"mlfsbench: {note}: left out", file=sys.stderr)
    print(f"mlfsbench: wrote {out}: {', '.join(config['experiments'])}",
          file=sys.stderr)
    logging.basicConfig(level=logging.INFO, format="mlfsbench: %(message)s")
    return runner.run(snakemake_run_args(out, args), workdir=workdir)
