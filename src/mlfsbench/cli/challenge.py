"""``mlfsbench challenge``: a method of yours against the studies, run as
``mlfsbench run`` runs them."""

from __future__ import annotations

import argparse
import json
import os
import re
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
    p.add_argument("--discretize", metavar="STRATEGY",
                   choices=["equal-width", "equal-frequency"],
                   help="equal-width or equal-frequency: the codes of a selector "
                        "that reads discretized codes in the studies whose "
                        "selectors read the raw features (doquire2013, "
                        "spolaor2013); elsewhere it takes the study's "
                        "discretization")
    p.add_argument("--bins", type=int, metavar="N",
                   help="bins of --discretize (2 to 255; default: 5)")
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
                        "config/challenges/<id>.yaml); never a file the "
                        "command reads, nor one it did not write")
    p.add_argument("--allow-outside", action="store_true",
                   help="let --output name a file outside the workflow "
                        "directory")
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


#: A challenger's id: it names the experiments (``<study>+<id>``), their
#: results folders and the default config file.
PLAIN_ID = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$")
def header(command: str = "challenge") -> str:
    """The start of the first line of a config ``mlfsbench <command>``
    writes (how it knows its own files)."""
    return f"# Written by `mlfsbench {command}`"


#: The first line of a config this command writes.
HEADER = header("challenge")


def check_id(ident: str, what: str = "--id") -> str:
    """``ident`` if it is a plain name: letters, digits, ``-``, ``_`` and
    ``.`` (not first), no path separator, no ``..``; else a ValueError
    naming it.

    >>> check_id("variance-rank_2.1")
    'variance-rank_2.1'
    >>> check_id("../rc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --id '../rc': not a plain name (letters, digits, ...)
    """
    if not PLAIN_ID.match(ident) or ".." in ident:
        raise ValueError(f"{what} {ident!r}: not a plain name (letters, digits, "
                         "'-', '_' and '.' not first; no path separator or '..')")
    return ident


def files_read(configfile: str, config: dict[str, Any]) -> list[str]:
    """The files the challenge of ``configfile`` reads (relative to the
    current directory, the workflow's): the config, its experiment and study
    files and every existing file they or ``config`` (the generated config)
    name (the datasets table, claims, printed tables, ...), and the study
    files an ``extends`` looks in."""
    from mlfsbench.yamlfile import load_yaml_file

    found: list[str] = []

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    def visit(value) -> None:
        for text in strings(value):
            if text in found or "\n" in text or not os.path.isfile(text):
                continue
            found.append(text)
            if text.endswith((".yaml", ".yml")):
                try:
                    visit(load_yaml_file(text))
                except Exception:  # noqa: BLE001 (named, not read)
                    pass

    visit([configfile, config])
    for name in config.get("experiments") or {}:
        study = name.split("+", 1)[0]
        visit([f"config/papers/{study}.yaml", f"config/{study}.yaml"])
    return found


def check_output(out: str, workdir: str, reads: list[str],
                 allow_outside: bool = False, command: str = "challenge") -> str:
    """The absolute path of ``out`` (relative to ``workdir``) if the
    generated config may be written there: not a file the command reads
    (``reads``, relative to ``workdir``), not outside ``workdir`` unless
    ``allow_outside``, not a directory, and not an existing file that
    ``mlfsbench <command>`` did not write (:func:`header`); else a
    ValueError naming it."""
    target = os.path.realpath(os.path.join(workdir, out))
    for name in reads:
        if os.path.realpath(os.path.join(workdir, name)) == target:
            raise ValueError(f"--output {out}: that is {name}, which the "
                             f"{command} reads; name another file")
    root = os.path.realpath(workdir)
    if not allow_outside and os.path.commonpath([root, target]) != root:
        raise ValueError(f"--output {out}: outside the workflow directory "
                         f"({root}); give --allow-outside to write there")
    if os.path.isdir(target):
        raise ValueError(f"--output {out}: a directory; name a file")
    if os.path.exists(target):
        try:
            with open(target, encoding="utf-8", errors="replace") as fh:
                ours = fh.readline().startswith(header(command))
        except OSError:
            ours = False
        if not ours:
            raise ValueError(f"--output {out}: an existing file that "
                             f"'mlfsbench {command}' did not write; name another "
                             "file (or remove it)")
    return target


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
    snakemake_args = ["--configfile", out]
    if args.cores is not None:
        snakemake_args += ["--cores", args.cores]
    if args.dry_run:
        snakemake_args.append("--dry-run")
    return runner.run(snakemake_args + list(args.snakemake_args), workdir=workdir)
