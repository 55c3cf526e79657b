"""``mlfsbench init``: write the workflow (Snakefile, rules, scripts,
configs, report captions, profiles, environment files) into a folder, from
the installed package, so that ``mlfsbench run`` runs there."""

from __future__ import annotations

import argparse
import shlex
from collections import Counter
from pathlib import Path

EPILOG = """\
The files come from the installed package (a wheel carries the workflow; an
editable install of a checkout uses the checkout's). Then, in that folder:
  mlfsbench run --cores all --configfile config/quick.yaml
Edit config/*.yaml there to change what runs (docs/configuration.md); the
results go to results/ beside them.
"""

#: The most existing files a refusal names.
SHOWN = 3


def add_parser(sub) -> None:
    p = sub.add_parser(
        "init", help="write the workflow (Snakefile, rules, configs, ...) into "
        "a folder, for 'mlfsbench run'",
        description="Write the workflow of the installed mlfsbench into DIR.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", nargs="?", default=".", metavar="DIR",
                   help="the folder to write into, created if missing (default: "
                        "the current one)")
    p.add_argument("--force", action="store_true",
                   help="overwrite the workflow's files that DIR holds already "
                        "(other files there are left alone)")
    p.set_defaults(func=run)


def summary(files: list[str]) -> list[str]:
    """One line per top-level entry of ``files``: a file's name, or a
    folder's with its number of files.

    >>> summary(["Snakefile", "rules/a.smk", "rules/b.smk", "config/x.yaml"])
    ['Snakefile', 'config/ (1 file)', 'rules/ (2 files)']
    """
    tops = Counter(f.split("/", 1)[0] + ("/" if "/" in f else "") for f in files)
    return [top if not top.endswith("/") else
            f"{top} ({n} file{'s' * (n != 1)})" for top, n in sorted(tops.items())]


def run(args) -> int:
    from mlfsbench import __version__
    from mlfsbench.workflow.bundle import workflow_files, workflow_source
    from mlfsbench.workflow.runner import copy_workflow

    source, dest = workflow_source(), Path(args.dir)
    if dest.exists() and not dest.is_dir():
        raise ValueError(f"{args.dir}: not a folder")
    if dest.exists() and dest.resolve() == source.resolve():
        raise ValueError(f"{args.dir}: this is the folder the installed "
                         "workflow comes from; nothing to write")
    files = workflow_files(source)
    there = [f for f in files if (dest / f).exists() or (dest / f).is_symlink()]
    if there and not args.force:
        more = f" and {len(there) - SHOWN} more" if len(there) > SHOWN else ""
        verb, them = ("exists", "it") if len(there) == 1 else ("exist", "them")
        raise FileExistsError(
            f"{args.dir}: {', '.join(there[:SHOWN])}{more} {verb} already; give "
            f"--force to overwrite {them} with the installed workflow's")
    copy_workflow(source, dest, exist_ok=True)
    replaced = f", {len(there)} of them replaced" if there else ""
    print(f"wrote the workflow of mlfsbench {__version__} into {args.dir}: "
          f"{len(files)} files{replaced}")
    for line in summary(files):
        print(f"  {line}")
    here = dest.resolve() == Path.cwd().resolve()
    where = "" if here else f"cd {shlex.quote(args.dir)} && "
    print(f"next: {where}mlfsbench run --cores all --configfile config/quick.yaml")
    return 0
