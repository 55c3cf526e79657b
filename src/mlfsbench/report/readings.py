"""Claims judged under every reading of a study: how robust each verdict is.

An experiment that declares ``readings`` (the choices its paper leaves open,
:func:`mlfsbench.workflow.config.expand_readings`) runs under the favoured
option of each reading, and once more per other option, one reading changed
at a time (the variants ``<experiment>~<reading>-<option>``). Each run has its
own ``tables/claims.tsv``. :func:`combine_readings` puts them side by side:

``tables/readings.tsv``
    one row per claim and (reading, option): its verdict and ``ours`` there,
    ``favoured`` marking the experiment's own run;
``tables/robust_claims.tsv``
    the favoured ``claims.tsv`` (its verdict stays the main one), plus
    ``robustness``, ``favoured`` (the options of the main verdict,
    ``<reading>=<option>, ...``) and one ``verdict:<reading>=<option>`` column
    per variant.

The robustness word (:func:`robustness`) is ``<verdict> under every
reading`` when every run gives the same verdict, else ``depends on
<reading>: reproduced with <options>`` for each reading whose options
disagree (or, when none of its options reproduces the claim, the verdict of
each option).

>>> robustness({"scale": {"raw": "reproduced", "scaled": "not reproduced"},
...             "grid": {"paper": "reproduced", "union": "reproduced"}})
'depends on scale: reproduced with raw'
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from mlfsbench.io import format_table, write_text

PathLike = str | os.PathLike

# The verdict words of mlfsbench.report.claims, written again on purpose:
# importing them would make the readings rule's code version reach the claims
# module (tests/test_versions.py), so every claims edit would rerun it.
REPRODUCED = "reproduced"
#: A claim a variant's table does not have.
ABSENT = "absent"
#: The verdicts that judge a claim (the others say it could not be judged).
JUDGED = frozenset({REPRODUCED, "not reproduced"})
READINGS_COLUMNS = ["claim", "reading", "option", "favoured", "verdict", "ours"]


def variant_column(reading: str, option: str) -> str:
    """Column of a variant's verdict in ``robust_claims.tsv``.

    >>> variant_column("mlknn-scale", "scaled")
    'verdict:mlknn-scale=scaled'
    """
    return f"verdict:{reading}={option}"


def robustness(verdicts: Mapping[str, Mapping[str, str]]) -> str:
    """The robustness word of one claim from its verdict under each option
    of each reading (reading -> option -> verdict; each reading's favoured
    option carries the main verdict).

    Only options that judged the claim (``reproduced`` or ``not reproduced``)
    decide it: an option under which the claim is ``not checkable here`` or
    absent (a variant run on fewer datasets than the claim names, such as
    Lee 2016's glmfit reading on yeast and genbase only) does not make the
    verdict depend on that reading; it is named as not judged instead.

    >>> robustness({"scale": {"raw": "not reproduced", "scaled": "not reproduced"}})
    'not reproduced under every reading'
    >>> robustness({"grid": {"a": "not reproduced", "b": "not checkable here"}})
    'not reproduced under every reading that judged it (not judged with grid=b)'
    >>> robustness({"grid": {"a": "not checkable here", "b": "absent"}})
    'not checkable here under every reading'
    """
    judged = {r: {o: v for o, v in options.items() if v in JUDGED}
              for r, options in verdicts.items()}
    unjudged = [f"{r}={o}" for r, options in verdicts.items()
                for o, v in options.items() if v not in JUDGED]
    every = {v for options in judged.values() for v in options.values()}
    if not every:
        # nothing judged it: the plain word over whatever the options say
        every = ({v for options in verdicts.values() for v in options.values()}
                 - {ABSENT}) or {ABSENT}
        if len(every) == 1:
            return f"{every.pop()} under every reading"
        judged, unjudged = dict(verdicts), []
    elif len(every) == 1:
        word = f"{every.pop()} under every reading"
        if not unjudged:
            return word
        return f"{word} that judged it (not judged with {', '.join(unjudged)})"
    parts = []
    for reading, options in judged.items():
        if len(set(options.values())) <= 1:
            continue
        holds = [o for o, v in options.items() if v == REPRODUCED]
        if holds:
            parts.append(f"{reading}: {REPRODUCED} with {', '.join(holds)}")
        else:
            parts.append(f"{reading}: " + ", ".join(
                f"{v} with {o}" for o, v in options.items()))
    if not parts:
        # each reading agrees with itself, the readings disagree with one
        # another only through options that did not judge the claim
        parts = [f"{reading}: " + ", ".join(f"{v} with {o}" for o, v in options.items())
                 for reading, options in judged.items() if options]
    word = "depends on " + "; ".join(parts)
    if unjudged:
        word += f" (not judged with {', '.join(unjudged)})"
    return word


def combine_readings(favoured: pd.DataFrame,
                     variants: Sequence[tuple[str, str, pd.DataFrame]],
                     readings: Mapping[str, Mapping[str, Any]]
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(readings table, robust claims table)`` of one study.

    ``favoured`` is the experiment's own verdict table (``claims.tsv``: a
    ``claim``, ``verdict`` and ``ours`` column at least), ``variants`` the
    ``(reading, option, table)`` of each variant, ``readings`` the declared
    readings (reading -> its spec with ``favoured`` and ``options``).
    """
    main = favoured.set_index("claim")
    tables = {(r, o): t.set_index("claim") for r, o, t in variants}
    missing = sorted({(r, o) for r, spec in readings.items() for o in spec["options"]
                      if o != spec["favoured"]} - set(tables))
    if missing:
        raise ValueError("no verdict table for the variant(s) "
                         + ", ".join(f"{r}={o}" for r, o in missing))
    rows, words, columns = [], [], {variant_column(r, o): [] for r, o in tables}
    for claim in main.index:
        grid: dict[str, dict[str, str]] = {}
        for reading, spec in readings.items():
            grid[reading] = {}
            for option in spec["options"]:
                is_main = option == spec["favoured"]
                table = main if is_main else tables[(reading, option)]
                found = claim in table.index
                verdict = str(table.at[claim, "verdict"]) if found else ABSENT
                ours = str(table.at[claim, "ours"]) if found else ""
                grid[reading][option] = verdict
                rows.append([claim, reading, option, "yes" if is_main else "",
                             verdict, "" if ours == "nan" else ours])
                if not is_main:
                    columns[variant_column(reading, option)].append(verdict)
        words.append(robustness(grid))
    long = pd.DataFrame(rows, columns=READINGS_COLUMNS)
    robust = favoured.copy()
    robust["robustness"] = words
    robust["favoured"] = ", ".join(f"{r}={spec['favoured']}"
                                   for r, spec in readings.items())
    for name, values in columns.items():
        robust[name] = values
    return long, robust


def _read_tsv(path: PathLike) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)


def write_readings(favoured: PathLike, variants: Sequence[tuple[str, str, PathLike]],
                   readings: Mapping[str, Mapping[str, Any]],
                   readings_out: PathLike, robust_out: PathLike) -> pd.DataFrame:
    """The ``readings`` rule: read the verdict tables, write ``readings.tsv``
    and ``robust_claims.tsv`` (:func:`combine_readings`); return the latter."""
    long, robust = combine_readings(
        _read_tsv(favoured), [(r, o, _read_tsv(p)) for r, o, p in variants], readings)
    write_text(readings_out, format_table(long))
    write_text(robust_out, format_table(robust))
    return robust


def read_robust(result_dir: PathLike) -> pd.DataFrame | None:
    """``tables/robust_claims.tsv`` of a finished study, or None."""
    path = os.path.join(os.fspath(result_dir), "tables", "robust_claims.tsv")
    return _read_tsv(path) if os.path.exists(path) else None


def reading_columns(table: pd.DataFrame) -> list[str]:
    """The variant verdict columns of a robust claims table."""
    return [c for c in table.columns if c.startswith("verdict:")]
