"""What the commands share: ``--param`` values, plain output (key-value lines
or JSON, fixed-width tables, text without reStructuredText markup), colour
only where it is wanted, the data-file options, and the conventions of an
error (one line on stderr, status 1), an interrupt (status 130) and a closed
output pipe (quiet, status 0)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import yaml

from mlfsbench.io import dumps_json


def parse_params(items: Sequence[str] | None) -> dict[str, Any]:
    """``["k=10", "s=0.5", "name=x"]`` -> ``{"k": 10, "s": 0.5, "name": "x"}``.

    >>> parse_params(["k=10", "s=0.5", "penalty=null", "mode=fast"])
    {'k': 10, 's': 0.5, 'penalty': None, 'mode': 'fast'}
    """
    params: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--param expects key=value, got {item!r}")
        params[key] = yaml.safe_load(value) if value else ""
    return params


def print_record(obj: Any, as_json: bool) -> None:
    """``obj`` as JSON (non-finite floats as null) or one ``key<TAB>value``
    line per item."""
    if as_json:
        write_json(obj)
    else:
        for key, value in obj.items():
            print(f"{key}\t{value}")


def write_json(obj: Any) -> None:
    """``obj`` as JSON on stdout (non-finite floats as null)."""
    sys.stdout.write(dumps_json(obj))


def plain_table(header: list[str], rows: list[list[str]], left: int = 1,
                last_left: bool = False) -> str:
    """A fixed-width text table, the first ``left`` columns (and the last
    with ``last_left``) left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    flush = {*range(left), *([len(widths) - 1] if last_left else [])}

    def line(cells):
        return "  ".join(c.ljust(w) if i in flush else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    return "\n".join([line(header), line(["-" * w for w in widths]),
                      *map(line, rows)])


def plain(text: str) -> str:
    """``text`` without reStructuredText's inline literals (double backquotes),
    for the terminal."""
    return text.replace("``", "'")


def use_colour(stream=None) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR`` set or ``TERM=dumb``
    (the no-color.org convention)."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def coloured(text: str, code: str | None, colour: bool) -> str:
    """``text`` in the terminal colour ``code`` (an SGR number) when
    ``colour`` and a code, else as it is."""
    return f"\033[{code}m{text}\033[0m" if colour and code else text


def add_data_args(p: argparse.ArgumentParser) -> None:
    """The options of a command that reads a dataset file, and ``--json``."""
    p.add_argument("--xml", help="Mulan label XML (authoritative label names)")
    p.add_argument("--name", help="dataset name (default: from the file name)")
    p.add_argument("--nominal", choices=["onehot", "ordinal"], default="onehot",
                   help="how nominal features become numbers: one 0/1 column "
                        "per value, or the value's index (default: %(default)s)")
    p.add_argument("--targets", type=int, default=None, metavar="N",
                   help="multi-target regression data: N real-valued targets "
                        "(MEKA convention: first N, or last |N| if negative)")
    p.add_argument("--accept-xml", action="store_true",
                   help="use the XML's labels even when the relation's MEKA "
                        "'-C n' declares another number of labels")
    p.add_argument("--json", action="store_true", help="print JSON")


def with_features(ds, paths: Sequence[Any]):
    """``ds`` (read from ``paths``), or an error naming the first file when
    it has no feature: every attribute is a label (``describe`` printed its
    statistics and ``select`` failed inside the selector, naming no file).

    >>> import numpy as np
    >>> from mlfsbench.data import Dataset
    >>> ds = Dataset("d", np.zeros((3, 0)), np.ones((3, 2), np.uint8), [], ["a", "b"])
    >>> try:
    ...     with_features(ds, ["d.arff"])
    ... except ValueError as exc:
    ...     print(exc)
    d.arff: no features: its attributes are the 2 labels only
    """
    if ds.X.shape[1] == 0:
        what = "targets" if ds.is_regression else "labels"
        raise ValueError(f"{paths[0]}: no features: its attributes are the "
                         f"{ds.Y.shape[1]} {what} only")
    return ds


def passthrough(args: argparse.Namespace, extra: list[str]) -> list[str]:
    """The arguments a command hands on to Snakemake: those it did not know,
    without the ``--`` that separates them."""
    return [a for a in extra if a != "--"]


def call(func: Callable[[argparse.Namespace], int | None],
         args: argparse.Namespace) -> int:
    """Run a command's handler and turn its end into an exit status: its own
    (0 for None); 130 on an interrupt; 0, quietly, when the reader of stdout
    went away; 1 with one line on stderr (no traceback) on any other error."""
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        print("mlfsbench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`mlfsbench claims results/ | head`): nothing
        # more to say. Point stdout at /dev/null so that the interpreter's
        # final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:  # one clear line, no traceback
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"mlfsbench: error: {msg}", file=sys.stderr)
        return 1
