"""Claims judged under every reading of a study: how robust each verdict is.

An experiment that declares ``readings`` (the choices its paper leaves open,
:func:`mlfsbench.workflow.readings.expand_readings`) runs under the favoured
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
#: A verdict a variant gave on other datasets than the favoured run's.
OTHER_DATASETS = "judged on other datasets"
#: The verdicts that judge a claim (the others say it could not be judged).
JUDGED = frozenset({REPRODUCED, "not reproduced"})
READINGS_COLUMNS = ["claim", "reading", "option", "favoured", "probe", "verdict",
                    "ours", "datasets"]


def variant_column(reading: str, option: str) -> str:
    """Column of a variant's verdict in ``robust_claims.tsv``.

    >>> variant_column("mlknn-scale", "scaled")
    'verdict:mlknn-scale=scaled'
    """
    return f"verdict:{reading}={option}"


def robustness(verdicts: Mapping[str, Mapping[str, str]],
               favoured: Mapping[str, str] | None = None,
               probes: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """The robustness word of one claim from its verdict under each option
    of each reading (reading -> option -> verdict; each reading's favoured
    option, ``favoured[reading]``, carries the main verdict).

    Only options that judged the claim (``reproduced`` or ``not reproduced``)
    decide it: an option under which the claim is ``not checkable here``,
    absent, or judged on other datasets than the favoured run (Lee 2016's
    glmfit reading on two of eight datasets) does not make the verdict
    depend on that reading; it is named as not judged instead. A main
    verdict that did not judge the claim stays the word's first part: a
    claim not checkable under the favoured readings is never called
    reproduced because another reading reproduced it. ``probes`` (reading ->
    option -> verdict) are robustness probes, not open choices of the
    paper: a probe that disagrees is named after the word and makes no
    claim depend on it.

    >>> robustness({"scale": {"raw": "not reproduced", "scaled": "not reproduced"}})
    'not reproduced under every reading'
    >>> robustness({"grid": {"a": "not reproduced", "b": "not checkable here"}})
    'not reproduced under every reading that judged it (not judged with grid=b)'
    >>> robustness({"grid": {"a": "not checkable here", "b": "absent"}})
    'not checkable here under every reading'
    >>> robustness({"grid": {"a": "not checkable here", "b": "reproduced"}},
    ...            favoured={"grid": "a"})
    'not checkable here under the favoured readings (reproduced with grid=b)'
    """
    word = _robustness(verdicts, favoured)
    disagree = []
    main = _main_verdict(verdicts, favoured)
    for reading, options in (probes or {}).items():
        for option, verdict in options.items():
            if verdict in JUDGED and verdict != main and main in JUDGED:
                disagree.append(f"{reading}={option}: {verdict}")
    if disagree:
        word += f"; probe {', '.join(disagree)}"
    return word


def _main_verdict(verdicts, favoured):
    for reading, options in verdicts.items():
        if favoured and reading in favoured and favoured[reading] in options:
            return options[favoured[reading]]
    return None


def _robustness(verdicts, favoured):
    main = _main_verdict(verdicts, favoured)
    if main is not None and main not in JUDGED:
        others = [f"{v} with {r}={o}" for r, options in verdicts.items()
                  for o, v in options.items()
                  if v in JUDGED and o != favoured.get(r)]
        word = f"{main} under the favoured readings"
        return word + (f" ({'; '.join(others)})" if others else "")
    judged = {r: {o: v for o, v in options.items() if v in JUDGED}
              for r, options in verdicts.items()}
    unjudged = [f"{r}={o}" for r, options in verdicts.items()
                for o, v in options.items() if v not in JUDGED]
    every = {v for options in judged.values() for v in options.values()}
    if not every:
        # nothing judged it: the plain word over whatever the options say
        every = ({v for options in verdicts.values() for v in options.values()}
                 - {ABSENT, OTHER_DATASETS}) or {ABSENT}
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
    ``claim``, ``verdict`` and ``ours`` column at least, and ``datasets``,
    the datasets each verdict was judged on), ``variants`` the ``(reading,
    option, table)`` of each variant (an experiment variant's
    ``claims.tsv``, or a scoring reading's rows of ``scoring.tsv``),
    ``readings`` the declared readings (reading -> its spec with
    ``favoured``, ``options`` and optionally ``probe: true``). A variant's
    verdict on other datasets than the favoured one's is
    :data:`OTHER_DATASETS` for the robustness word (its own verdict stays in
    the readings table).
    """
    main = favoured.set_index("claim")
    tables = {(r, o): t.set_index("claim") for r, o, t in variants}
    missing = sorted({(r, o) for r, spec in readings.items() for o in spec["options"]
                      if o != spec["favoured"]} - set(tables))
    if missing:
        raise ValueError("no verdict table for the variant(s) "
                         + ", ".join(f"{r}={o}" for r, o in missing))
    favoured_options = {r: spec["favoured"] for r, spec in readings.items()}
    rows: list[Any] = []
    words: list[Any] = []
    columns: dict[str, list[Any]] = {variant_column(r, o): [] for r, o in tables}
    for claim in main.index:
        grid: dict[str, dict[str, str]] = {}
        probes: dict[str, dict[str, str]] = {}
        judged_on = _datasets(main, claim)
        for reading, spec in readings.items():
            target = probes if spec.get("probe") else grid
            target[reading] = {}
            for option in spec["options"]:
                is_main = option == spec["favoured"]
                table = main if is_main else tables[(reading, option)]
                found = claim in table.index
                verdict = str(table.at[claim, "verdict"]) if found else ABSENT
                ours = str(table.at[claim, "ours"]) if found else ""
                where = _datasets(table, claim) if found else ""
                word = verdict
                if (not is_main and verdict in JUDGED and judged_on
                        and where and where != judged_on):
                    word = OTHER_DATASETS
                target[reading][option] = word
                rows.append([claim, reading, option, "yes" if is_main else "",
                             "yes" if spec.get("probe") else "", verdict,
                             "" if ours == "nan" else ours, where])
                if not is_main:
                    columns[variant_column(reading, option)].append(verdict)
        if not grid:  # only probes: the favoured verdict under every reading
            grid = {"": {"": str(main.at[claim, "verdict"])}}
        words.append(robustness(grid, favoured_options, probes))
    long = pd.DataFrame(rows, columns=READINGS_COLUMNS)
    robust = favoured.copy()
    robust["robustness"] = words
    robust["favoured"] = ", ".join(f"{r}={spec['favoured']}"
                                   for r, spec in readings.items()
                                   if not spec.get("probe"))
    for name, values in columns.items():
        robust[name] = values
    return long, robust


def _datasets(table: pd.DataFrame, claim: str) -> str:
    if "datasets" not in table.columns:
        return ""
    value = table.at[claim, "datasets"]
    return "" if pd.isna(value) or str(value) == "nan" else str(value)


def scoring_readings(scoring: pd.DataFrame) -> tuple[
        dict[str, dict[str, Any]], list[tuple[str, str, pd.DataFrame]]]:
    """The scoring readings of ``scoring.tsv`` (the claims stage's verdicts
    under each option of the claims file's ``readings:``): their specs
    (reading -> ``favoured``, ``options``) and the non-favoured options'
    verdict tables, as :func:`combine_readings` takes them."""
    specs: dict[str, dict[str, Any]] = {}
    variants = []
    for (reading, option), rows in scoring.groupby(["reading", "option"], sort=False):
        spec = specs.setdefault(reading, {"favoured": None, "options": {}})
        spec["options"][option] = {}
        if (rows["favoured"] == "yes").all():
            spec["favoured"] = option
        else:
            variants.append((reading, option, rows.drop(
                columns=["reading", "option", "favoured"]).reset_index(drop=True)))
    return specs, variants


def _read_tsv(path: PathLike) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)


def write_readings(favoured: PathLike, variants: Sequence[tuple[str, str, PathLike]],
                   readings: Mapping[str, Mapping[str, Any]],
                   readings_out: PathLike, robust_out: PathLike,
                   scoring: PathLike | None = None) -> pd.DataFrame:
    """The ``readings`` rule: read the verdict tables (and the scoring
    readings' ``scoring.tsv``), write ``readings.tsv`` and
    ``robust_claims.tsv`` (:func:`combine_readings`); return the latter."""
    pairs = [(r, o, _read_tsv(p)) for r, o, p in variants]
    specs = dict(readings)
    if scoring is not None:
        extra, more = scoring_readings(_read_tsv(scoring))
        clash = sorted(set(extra) & set(specs))
        if clash:
            raise ValueError(f"reading(s) {clash} declared both by the experiment "
                             "and by its claims file")
        specs.update(extra)
        pairs += more
    long, robust = combine_readings(_read_tsv(favoured), pairs, specs)
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
