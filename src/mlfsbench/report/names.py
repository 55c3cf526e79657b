"""How the report names a method of the result tables.

A configured method has one identifier (:func:`mlfsbench.workflow.config.method_id`,
the key of every table) and names given by its config entry
(:func:`mlfsbench.workflow.config.method_names`: its readable label first,
then the other names a claims file may use). The report compares *methods*:
a selector, joined with the classifier's identifier when an experiment has
several classifiers (:func:`method_key`), and shows them by their labels
(:func:`display_name`). The all-features baseline is
:data:`mlfsbench.io.BASELINE`.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd


def method_key(summary: pd.DataFrame, selector=None) -> pd.Series:
    """Method of each row of a result table: the selector (or ``selector``),
    joined with the classifier by ``|`` when the table has several
    classifiers.

    >>> s = pd.DataFrame({"selector": ["a", "b"], "classifier": ["c", "d"]})
    >>> method_key(s).tolist(), method_key(s[:1]).tolist()
    (['a|c', 'b|d'], ['a'])
    """
    names = summary["selector"] if selector is None else pd.Series(
        selector, index=summary.index)
    if summary["classifier"].nunique() > 1:
        return names + "|" + summary["classifier"]
    return names


def display_name(method: str, labels: Mapping[str, str] | None) -> str:
    """Readable name of a method (``selector`` or ``selector|classifier``;
    ``all-features`` stays): each identifier replaced by its label.

    >>> display_name("mim-br-68632db6|brknn-b-45cea770",
    ...              {"mim-br-68632db6": "MIM-BR", "brknn-b-45cea770": "BRkNN-b"})
    'MIM-BR / BRkNN-b'
    """
    labels = labels or {}
    return " / ".join(labels.get(part, part) for part in method.split("|"))
