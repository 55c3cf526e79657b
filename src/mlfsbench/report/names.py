"""How the report names a method of the result tables.

A configured method has one identifier (the workflow's
``mlfsbench.workflow.ids.method_id``, the key of every table) and names given
by its config entry (``mlfsbench.workflow.ids.method_names``: its readable
label first, then the other names a claims file may use; the workflow hands
them to the report as data). The report compares *methods*:
a selector, joined with the classifier's identifier when an experiment has
several classifiers (:func:`method_key`), and shows them by their labels
(:func:`display_name`). The all-features baseline is
:data:`mlfsbench.io.BASELINE`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from mlfsbench.names import CHALLENGE_MARK


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


#: Readable names of the measures whose name does not read as one once the
#: underscores are spaces (the others: ``hamming_loss`` -> "Hamming loss").
_METRIC_NAMES = {"hamming_loss": "Hamming loss", "one_error": "one-error",
                 "rrmse": "RRMSE", "micro_f1": "micro-F1", "macro_f1": "macro-F1",
                 "example_f1": "example-based F1"}


def metric_label(metric: str, direction: bool = True) -> str:
    """Readable name of a measure, with its direction: the one place figures
    and tables name a metric.

    >>> metric_label("hamming_loss"), metric_label("average_precision", False)
    ('Hamming loss (lower is better)', 'average precision')
    """
    from mlfsbench.evaluation.metrics import GREATER_IS_BETTER

    name = _METRIC_NAMES.get(metric, metric.replace("_", " "))
    if not direction or metric not in GREATER_IS_BETTER:
        return name
    return f"{name} ({'higher' if GREATER_IS_BETTER[metric] else 'lower'} is better)"


def params_note(dataset_params: Mapping[str, Mapping[str, Mapping]] | None,
                dataset: str, labels: Mapping[str, str] | None = None) -> str:
    """The per-dataset parameters of the methods that have some on ``dataset``
    (an experiment's ``dataset_params``, by method id), one method a line.

    >>> params_note({"g2": {"enron": {"granules": 9}}}, "enron", {"g2": "gmrmr-2"})
    'gmrmr-2: granules=9'
    """
    from mlfsbench.report.render import natural_key

    lines = []
    for method, per in sorted((dataset_params or {}).items(),
                              key=lambda item: natural_key(item[0])):
        params = (per or {}).get(dataset)
        if params:
            shown = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
            lines.append(f"{display_name(method, labels)}: {shown}")
    return "\n".join(lines)


def challenge_id(experiment: str, challengers: Sequence[str]) -> str:
    """The challenge an experiment belongs to: what follows the ``+`` of a
    challenge experiment's name (``mlfsbench challenge``'s ``--id``, else
    its challenger's id), else its challengers' ids joined by commas.

    >>> challenge_id("lee2016+variance-rank", ["variance-rank"])
    'variance-rank'
    >>> challenge_id("tiny", ["b", "a"])
    'a,b'
    """
    if CHALLENGE_MARK in experiment:
        return experiment.split(CHALLENGE_MARK, 1)[1]
    return ",".join(sorted(set(challengers))) or experiment
