"""The verdict tables of a results folder, as ``mlfsbench claims`` and the
end of ``mlfsbench run`` read them.

A finished study has ``tables/claims.tsv`` (and ``robust_claims.tsv`` when it
declares readings, ``readings.tsv`` with each claim's verdict under every
option). :func:`claims_folders` finds the studies of a folder (one
experiment, or every experiment under ``results/``) and says why when there
is none; :func:`study_verdicts` reads a study's table, :func:`filter_tables`
keeps the studies and robust verdicts asked for, :func:`reading_counts` and
:func:`run_tally` count them. The command line only formats and prints.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Sequence
from typing import Any

from mlfsbench.names import VARIANT_MARK

#: The verdicts of a claim, in the order they are counted.
VERDICTS = ("reproduced", "not reproduced", "not checkable here")

#: The tally columns a run ends with (the weak claims' three in one).
RUN_TALLY = ["reproduced", "not reproduced", "depends", "not checkable", "weak",
             "claims", "rate"]


def claims_folders(path: str) -> list[tuple[str, str]]:
    """``(study, folder)`` of ``path``: one finished experiment
    (``results/<experiment>``) or every experiment under a results folder
    (``results/``), in name order.

    A folder with no verdict table says why: no experiment, or, for an
    experiment, the claims stage's log line that tells why it did not finish.
    """
    root = os.fspath(path)
    if not os.path.isdir(root):
        raise ValueError(f"{root}: no such folder: the workflow's claims stage "
                         "has not written it (give results/<experiment> or "
                         "results/)")
    if os.path.exists(os.path.join(root, "tables", "claims.tsv")):
        return [(os.path.basename(os.path.normpath(root)), root)]
    studies = sorted(
        d for d in os.listdir(root) if VARIANT_MARK not in d
        and os.path.exists(os.path.join(root, d, "tables", "claims.tsv")))
    if studies:
        return [(d, os.path.join(root, d)) for d in studies]
    name = os.path.basename(os.path.normpath(root))
    log = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(root))),
                       "logs", name, "claims.log")
    reason = last_error_line(log)
    if reason:
        raise ValueError(f"{root}: no verdict table; the claims stage failed: "
                         f"{reason} (see {log})")
    raise ValueError(f"{root}: no verdict table (tables/claims.tsv) here or in "
                     "its subfolders: the workflow's claims stage has not run "
                     "for it (or the run stopped before it)")


def study_verdicts(folder: str):
    """A study's verdict table: ``robust_claims.tsv`` (its verdicts under each
    reading, and their robustness) when it declares readings, else
    ``claims.tsv``."""
    from mlfsbench.report.claims import read_verdicts
    from mlfsbench.report.readings import read_robust

    robust = read_robust(folder)
    return read_verdicts(folder) if robust is None else robust


def claims_tables(path: str) -> list[tuple[str, Any]]:
    """``(study, verdict table)`` of ``path`` (:func:`claims_folders`)."""
    return [(study, study_verdicts(folder)) for study, folder in claims_folders(path)]


def last_error_line(log: str) -> str:
    """The last line of a failed stage's log that names an error, or ''."""
    try:
        with open(log, encoding="utf-8", errors="replace") as fh:
            lines = [line.strip() for line in fh if line.strip()]
    except OSError:
        return ""
    errors = [line for line in lines if re.search(r"Error|error:", line)]
    return (errors or [""])[-1][:300]


def read_readings(folder: str):
    """A study's ``tables/readings.tsv`` (claim x reading x option), or None."""
    import pandas as pd

    path = os.path.join(folder, "tables", "readings.tsv")
    if not os.path.exists(path):
        return None
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)


def filter_tables(tables: list[tuple[str, Any]], studies: Sequence[str] = (),
                  verdicts: Sequence[str] = ()) -> list[tuple[str, Any]]:
    """The ``(study, table)`` of ``studies`` (all when empty; a name not among
    them is a ValueError naming those there are), each table's claims cut to
    those whose robust verdict (:func:`mlfsbench.report.tally.robust_word`)
    is one of ``verdicts`` (all when empty); a study left without claims is
    left out."""
    from mlfsbench.report.claim_records import verdict_filter
    from mlfsbench.report.tally import robust_word

    known = [study for study, _ in tables]
    unknown = [s for s in studies if s not in known]
    if unknown:
        raise ValueError(f"no verdict table for study {', '.join(unknown)} here; "
                         f"there are: {', '.join(known)}")
    wanted = {verdict_filter(v) for v in verdicts}
    out = []
    for study, table in tables:
        if studies and study not in studies:
            continue
        if wanted:
            keep = [robust_word(r) in wanted for r in table.to_dict("records")]
            table = table[keep].reset_index(drop=True)
        if len(table):
            out.append((study, table))
    return out


def verdict_counts(tables: list[tuple[str, Any]]) -> list[list[str]]:
    """Rows ``[study, count per verdict..., claims]`` of each study's main
    verdicts (:data:`VERDICTS`), then the row ``all`` of their sums."""
    rows = [[study, *(str(int((t["verdict"] == v).sum())) for v in VERDICTS),
             str(len(t))] for study, t in tables]
    rows.append(["all", *(str(sum(int(r[i + 1]) for r in rows))
                          for i in range(len(VERDICTS))),
                 str(sum(int(r[-1]) for r in rows))])
    return rows


def reading_counts(tables: list[tuple[str, Any]]) -> list[list[str]]:
    """Rows ``[study, reading, count per verdict..., claims]`` of the studies
    that declare readings: their favoured readings first, then each other
    reading's verdicts (a claim absent under a reading is not counted).

    >>> import pandas as pd
    >>> t = pd.DataFrame({"verdict": ["reproduced", "not reproduced"],
    ...                   "favoured": ["s=a", "s=a"], "robustness": ["", ""],
    ...                   "verdict:s=b": ["reproduced", "absent"]})
    >>> reading_counts([("x", t)])
    [['x', 's=a (favoured)', '1', '1', '0', '2'], ['x', 's=b', '1', '0', '0', '1']]
    """
    rows = []
    for study, table in tables:
        if "robustness" not in table.columns:
            continue
        columns = [("verdict", f"{table['favoured'].iloc[0]} (favoured)")]
        columns += [(c, c.removeprefix("verdict:")) for c in table.columns
                    if c.startswith("verdict:")]
        for column, name in columns:
            values = table[column]
            counts = [int((values == v).sum()) for v in VERDICTS]
            rows.append([study, name, *map(str, counts), str(sum(counts))])
    return rows


def run_tally(results: str | os.PathLike,
              studies: Sequence[str] | None = None) -> list[list[str]]:
    """The rows a successful run's verdict lines show: the robust tally
    (:func:`mlfsbench.report.tally.tally_rows`, the weak claims counted in
    one column, :data:`RUN_TALLY`) of each study of ``studies`` (every study
    under ``results`` when None) that has a verdict table, each with the path
    of its ``claims.tsv`` (relative to the current folder) last, then the
    row ``all`` (its path blank); none when no study has one."""
    from mlfsbench.report.tally import TALLY_COLUMNS, tally_rows

    root = os.fspath(results)
    tables = glob.glob(os.path.join(glob.escape(root), "*", "tables", "claims.tsv"))
    found = claims_folders(root) if tables else []  # a config without claims
    folders = [(s, f) for s, f in found if studies is None or s in studies]
    if not folders:
        return []
    rows = tally_rows([(s, study_verdicts(f)) for s, f in folders])
    weak = [TALLY_COLUMNS.index(c) + 1 for c in TALLY_COLUMNS if c.startswith("weak")]
    paths = [os.path.relpath(os.path.join(f, "tables", "claims.tsv"))
             for _, f in folders]
    short = []
    for row, path in zip(rows, [*paths, ""], strict=True):
        cells = {c: row[i + 1] for i, c in enumerate(TALLY_COLUMNS)}
        cells["weak"] = str(sum(int(row[i]) for i in weak))
        short.append([row[0], *(cells[c] for c in RUN_TALLY), path])
    return short
