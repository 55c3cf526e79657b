"""What the commands that write a config and run it share (``mlfsbench
challenge``, ``mlfsbench league``): the challenger's options and config
entry, the checks of its id and of the file written, the files a config
reads, and the Snakemake arguments of the run."""

from __future__ import annotations

import argparse
import os
import re
from typing import Any

from mlfsbench.estimators import registry


def add_challenger_options(p: argparse.ArgumentParser, *, selector: str,
                           ident: str) -> None:
    """``--selector``, ``--param`` and ``--id`` (their help: ``selector``
    says what the selector is for, ``ident`` what its id names)."""
    p.add_argument("--selector", metavar="NAME",
                   help=f"{selector}: a registered selector (built in or a "
                        "plugin's), as 'mlfsbench methods' lists them")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the selector (repeat for several; the "
                        "value is read as YAML)")
    p.add_argument("--id", metavar="ID",
                   help=f"{ident} (default: the registry name, with a hash of "
                        "the parameters when some are given)")


def add_run_options(p: argparse.ArgumentParser, *, dry_run: str,
                    output: str) -> None:
    """``-n``, ``--cores``, ``--output``, ``--allow-outside`` and
    ``--workdir`` (the help of ``-n`` and ``--output`` given: what the
    command writes)."""
    p.add_argument("-n", "--dry-run", action="store_true", help=dry_run)
    p.add_argument("--cores", metavar="N",
                   help="cores Snakemake may use: a number or 'all'")
    p.add_argument("--output", metavar="FILE",
                   help=f"where to write the generated config (default: {output}); "
                        "never a file the command reads, nor one it did not "
                        "write")
    p.add_argument("--allow-outside", action="store_true",
                   help="let --output name a file outside the workflow directory")
    p.add_argument("--workdir", default=".", metavar="DIR",
                   help="the workflow directory (default: the current one)")


def snakemake_run_args(configfile: str, args: argparse.Namespace) -> list[str]:
    """The Snakemake arguments of running ``configfile`` as ``mlfsbench run``
    would: the config, ``--cores`` and ``--dry-run`` of ``args``, then the
    arguments the command did not know.

    >>> ns = argparse.Namespace(cores="2", dry_run=True, snakemake_args=["-p"])
    >>> snakemake_run_args("config/x.yaml", ns)
    ['--configfile', 'config/x.yaml', '--cores', '2', '--dry-run', '-p']
    """
    out = ["--configfile", configfile]
    if args.cores is not None:
        out += ["--cores", args.cores]
    if args.dry_run:
        out.append("--dry-run")
    return out + list(args.snakemake_args)


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


#: A challenger's id: it names the experiments (``<study>+<id>``), their
#: results folders and the default config file.
PLAIN_ID = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$")


def header(command: str = "challenge") -> str:
    """The start of the first line of a config ``mlfsbench <command>``
    writes (how it knows its own files)."""
    return f"# Written by `mlfsbench {command}`"


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


