"""A study's verdicts as typed records, for scripts (``mlfsbench claims --json``
and ``--tsv``).

A record is one claim of one study: the verdict table's cells
(:data:`mlfsbench.report.claims.COLUMNS`, ``robust_claims.tsv``'s
``robustness``) with numbers as numbers, blanks as ``None``, ``weak`` as a
boolean, the robust verdict of :func:`mlfsbench.report.tally.robust_word`
(``robust_verdict``) and the claim's verdict under each option of each
reading (``readings``, from ``readings.tsv``). :data:`SCHEMA` is the JSON
Schema of a list of records.

The paper's and our result are numbers (``paper``, ``ours``) only where the
table gives one (``paper_value``/``ours_value``, or a cell that is a plain
number); their words stay in ``paper_text`` and ``ours_text``. Older tables
without ``rule``, ``tolerance``, ``paper_value``, ``ours_value`` and
``reading`` still read: those fields are then ``None`` unless the cell
itself is a number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from typing import Any

import pandas as pd

from mlfsbench.report.tally import robust_word

SCHEMA = files("mlfsbench.report") / "schemas" / "claims_json.schema.yaml"
"""The JSON Schema of ``mlfsbench claims --json``'s output."""

#: A ``--verdict`` word (hyphenated or spaced) -> the robust verdict it selects.
VERDICT_WORDS = {"reproduced": "reproduced", "not-reproduced": "not reproduced",
                 "not-checkable": "not checkable", "depends": "depends"}

#: ``--tsv``'s columns, in order.
TSV_COLUMNS = ["study", "claim", "verdict", "robust_verdict", "weak", "rule",
               "tolerance", "paper", "paper_text", "printed", "ours", "ours_text",
               "ours_sd", "n", "margin", "robust", "robustness", "favoured",
               "readings", "datasets", "how", "note", "statement", "source",
               "reading"]

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def verdict_filter(word: str) -> str:
    """The robust verdict a ``--verdict`` word selects; ValueError naming the
    accepted words otherwise.

    >>> verdict_filter("not reproduced"), verdict_filter("Not-Checkable")
    ('not reproduced', 'not checkable')
    """
    key = "-".join(word.strip().lower().split())
    if key == "not-checkable-here":
        key = "not-checkable"
    if key not in VERDICT_WORDS:
        raise ValueError(f"unknown verdict {word!r}; give one of "
                         f"{', '.join(VERDICT_WORDS)}")
    return VERDICT_WORDS[key]


def number(cell: Any) -> int | float | None:
    """A cell that is a plain number as a number (an int when it is whole
    and written without a point), else None.

    >>> number("0.0699"), number("+0.2898"), number("10"), number("20 of 20")
    (0.0699, 0.2898, 10, None)
    >>> number(""), number("nan")
    (None, None)
    """
    if isinstance(cell, bool) or cell is None:
        return None
    if isinstance(cell, (int, float)):
        return None if isinstance(cell, float) and not math.isfinite(cell) else cell
    text = str(cell).strip()
    if not _NUMBER.fullmatch(text):
        return None
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    return float(text)


def _text(cell: Any) -> str | None:
    text = "" if cell is None else str(cell)
    return None if text in ("", "nan") else text


def _readings(claim: str, long: pd.DataFrame | None,
              row: Mapping[str, Any]) -> dict[str, Any] | None:
    """``{reading: {"favoured", "probe", "options": {option: {"verdict",
    "ours", "datasets"}}}}`` of one claim: from ``readings.tsv`` (``long``),
    else from the robust table's ``verdict:<reading>=<option>`` columns
    (without our result), else None (a study without readings)."""
    if long is not None and len(long):
        out: dict[str, Any] = {}
        for r in long[long["claim"].astype(str) == claim].to_dict("records"):
            spec = out.setdefault(str(r["reading"]), {
                "favoured": None, "probe": False, "options": {}})
            if str(r.get("favoured") or "") == "yes":
                spec["favoured"] = str(r["option"])
            spec["probe"] = spec["probe"] or str(r.get("probe") or "") == "yes"
            datasets = _text(r.get("datasets"))
            spec["options"][str(r["option"])] = {
                "verdict": str(r["verdict"]), "ours": _text(r.get("ours")),
                "datasets": datasets.split(",") if datasets else []}
        return out
    columns = [c for c in row if str(c).startswith("verdict:")]
    if not columns and not _text(row.get("favoured")):
        return None
    out = {}
    for pair in str(row.get("favoured") or "").split(","):
        if "=" in pair:
            reading, option = (x.strip() for x in pair.split("=", 1))
            out[reading] = {"favoured": option, "probe": False, "options": {
                option: {"verdict": str(row["verdict"]), "ours": _text(row["ours"]),
                         "datasets": (_text(row.get("datasets")) or "").split(",")
                         if _text(row.get("datasets")) else []}}}
    for column in columns:
        reading, option = column.removeprefix("verdict:").split("=", 1)
        spec = out.setdefault(reading, {"favoured": None, "probe": False,
                                        "options": {}})
        spec["options"][option] = {"verdict": str(row[column]), "ours": None,
                                   "datasets": []}
    return out


def claim_records(study: str, table: pd.DataFrame,
                  readings: pd.DataFrame | None = None) -> list[dict[str, Any]]:
    """The records of one study's verdict table (``claims.tsv`` or
    ``robust_claims.tsv``), ``readings`` its ``readings.tsv`` if any.

    >>> t = pd.DataFrame([{"claim": "c", "statement": "s", "source": "T1",
    ...     "paper": "99.55 (tolerance ± 0.5)", "printed": "", "n": "10",
    ...     "ours": "99.7602 ± 0.0699 s.d., n = 10 (difference +0.2102)",
    ...     "ours_sd": "0.0699", "margin": "+0.2898", "robust": "",
    ...     "verdict": "reproduced", "note": "", "datasets": "enron",
    ...     "how": "value", "rule": "value", "tolerance": "0.5",
    ...     "paper_value": "99.55", "ours_value": "99.7602"}])
    >>> r = claim_records("s", t)[0]
    >>> r["paper"], r["ours"], r["tolerance"], r["n"], r["margin"], r["weak"]
    (99.55, 99.7602, 0.5, 10, 0.2898, False)
    """
    out = []
    for row in table.to_dict("records"):
        claim = str(row["claim"])
        paper = number(row.get("paper_value"))
        ours = number(row.get("ours_value"))
        robust = _text(row.get("robust"))
        out.append({
            "study": study, "claim": claim,
            "statement": str(row.get("statement") or ""),
            "source": _text(row.get("source")),
            "verdict": str(row["verdict"]),
            "robust_verdict": robust_word(row),
            "weak": bool(robust and robust.startswith("weak claim")),
            "rule": _text(row.get("rule")),
            "tolerance": number(row.get("tolerance")),
            "paper": paper if paper is not None else number(row.get("paper")),
            "paper_text": _text(row.get("paper")),
            "printed": _text(row.get("printed")),
            "ours": ours if ours is not None else number(row.get("ours")),
            "ours_text": _text(row.get("ours")),
            "ours_sd": number(row.get("ours_sd")),
            "n": number(row.get("n")),
            "margin": number(row.get("margin")),
            "robust": robust,
            "datasets": [d for d in str(row.get("datasets") or "").split(",")
                         if d and d != "nan"],
            "how": _text(row.get("how")),
            "reading": _text(row.get("reading")),
            "note": _text(row.get("note")),
            "robustness": _text(row.get("robustness")),
            "readings": _readings(claim, readings, row),
        })
    return out


def select(records: Iterable[Mapping[str, Any]], studies: Sequence[str] = (),
           verdicts: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The records of ``studies`` (all when empty) whose robust verdict is
    one of ``verdicts`` (words of :func:`verdict_filter`; all when empty)."""
    wanted = {verdict_filter(v) for v in verdicts}
    return [dict(r) for r in records
            if (not studies or r["study"] in studies)
            and (not wanted or r["robust_verdict"] in wanted)]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(map(str, value))
    text = " ".join(str(value).split())  # no tab or newline inside a cell
    return text.replace("``", "").replace("`", "")


def _reading_cells(readings: Mapping[str, Any] | None) -> tuple[str, str]:
    """``(favoured, readings)`` cells: ``r=o, ...`` and ``r=o: verdict; ...``
    of the options that are not favoured."""
    if not readings:
        return "", ""
    favoured = ", ".join(f"{r}={s['favoured']}" for r, s in readings.items()
                         if s["favoured"] is not None and not s["probe"])
    others = "; ".join(f"{r}={o}: {v['verdict']}" for r, s in readings.items()
                       for o, v in s["options"].items() if o != s["favoured"])
    return favoured, others


def tsv(records: Sequence[Mapping[str, Any]]) -> str:
    """The records as tab-separated text (:data:`TSV_COLUMNS`), one row per
    claim: plain cells (numbers as written, ``yes``/``no``, lists
    comma-separated, no markup)."""
    lines = ["\t".join(TSV_COLUMNS)]
    for r in records:
        favoured, others = _reading_cells(r.get("readings"))
        cells = {**r, "favoured": favoured, "readings": others}
        lines.append("\t".join(_cell(cells.get(c)) for c in TSV_COLUMNS))
    return "\n".join(lines) + "\n"


__all__ = ["SCHEMA", "TSV_COLUMNS", "VERDICT_WORDS", "claim_records", "number",
           "select", "tsv", "verdict_filter"]
