"""The tally a referee would sign: a study's verdicts by how robust they are.

A verdict table (``claims.tsv``, or ``robust_claims.tsv`` with its
``robustness`` column) is counted per claim strength: a claim marked weak
(``robust`` starts with ``weak claim``: its outcome can hardly fail) is
counted apart from the others. Of each group:

``reproduced`` / ``not reproduced``
    the same verdict under every reading that judged the claim (a study
    without readings: the verdict);
``depends``
    the verdict changes with a reading (:mod:`mlfsbench.report.readings`);
``not checkable``
    not checkable here under the favoured readings.

The reproduction ``rate`` is quoted over the robust verdicts of the claims
that are not weak only: reproduced / (reproduced + not reproduced).

>>> import pandas as pd
>>> t = pd.DataFrame({"verdict": ["reproduced", "not reproduced", "reproduced",
...                               "not checkable here", "reproduced"],
...                   "robust": ["", "", "", "", "weak claim: ties"],
...                   "robustness": ["reproduced under every reading",
...                                  "not reproduced under every reading",
...                                  "depends on s: reproduced with a",
...                                  "not checkable here under every reading",
...                                  "reproduced under every reading"]})
>>> tally(t)
{'reproduced': 1, 'not reproduced': 1, 'depends': 1, 'not checkable': 1, \
'weak reproduced': 1, 'weak not reproduced': 0, 'weak other': 0, 'claims': 5, \
'rate': 0.5}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_CHECKABLE = "not checkable here"
TALLY_COLUMNS = ["reproduced", "not reproduced", "depends", "not checkable",
                 "weak reproduced", "weak not reproduced", "weak other", "claims",
                 "rate"]
"""The counts of :func:`tally`, in order."""


def robust_word(row: dict[str, Any]) -> str:
    """A claim's robust verdict: ``reproduced``, ``not reproduced``,
    ``depends`` or ``not checkable``."""
    verdict = str(row.get("verdict", ""))
    word = str(row.get("robustness") or "")
    if verdict not in (REPRODUCED, NOT_REPRODUCED):
        return "not checkable"
    if word.startswith("depends"):
        return "depends"
    if word and not word.startswith(verdict):
        return "depends"
    return verdict


def tally(table: pd.DataFrame) -> dict[str, Any]:
    """The counts of one study's verdict table (:data:`TALLY_COLUMNS`)."""
    out: dict[str, Any] = dict.fromkeys(TALLY_COLUMNS[:-1], 0)
    for row in table.to_dict("records"):
        word = robust_word(row)
        if str(row.get("robust") or "").startswith("weak claim"):
            key = f"weak {word}" if word in (REPRODUCED, NOT_REPRODUCED) else \
                "weak other"
        else:
            key = word
        out[key] += 1
    out["claims"] = len(table)
    judged = out[REPRODUCED] + out[NOT_REPRODUCED]
    out["rate"] = round(out[REPRODUCED] / judged, 3) if judged else None
    return out


def total(tallies: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The counts of several :func:`tally` results summed, the rate over
    the sums (not an average of rates).

    >>> total([{**dict.fromkeys(TALLY_COLUMNS[:-1], 0), "reproduced": 1,
    ...         "claims": 1}, {**dict.fromkeys(TALLY_COLUMNS[:-1], 0),
    ...         "not reproduced": 3, "claims": 3}])["rate"]
    0.25
    """
    out: dict[str, Any] = {k: sum(t[k] for t in tallies) for k in TALLY_COLUMNS[:-1]}
    judged = out[REPRODUCED] + out[NOT_REPRODUCED]
    out["rate"] = round(out[REPRODUCED] / judged, 3) if judged else None
    return out


def tally_rows(tables: Sequence[tuple[str, pd.DataFrame]]) -> list[list[str]]:
    """Rows ``[study, counts..., rate]`` of several studies and their total."""
    tallies = [(study, tally(table)) for study, table in tables]
    rows = [[study, *_cells(t)] for study, t in tallies]
    rows.append(["all", *_cells(total([t for _, t in tallies]))])
    return rows


def _cells(t: dict[str, Any]) -> list[str]:
    rate = "" if t["rate"] is None else f"{100 * t['rate']:.0f} %"
    return [str(t[k]) for k in TALLY_COLUMNS[:-1]] + [rate]
