"""What the report's jobs read of an experiment's config, computed here.

The report layer (:mod:`mlfsbench.report`) imports nothing of the workflow:
the names, parameters and challengers of an experiment's configured methods
come from the config's entries through :mod:`~mlfsbench.workflow.ids` and
:mod:`~mlfsbench.workflow.studies`, so the plan computes them and the rules
hand them to the report's scripts as params (plain data).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mlfsbench.evaluation.artificial import run_key, run_spec
from mlfsbench.workflow.ids import (
    canonical,
    entry_params,
    method_aliases,
    method_id,
    method_labels,
)
from mlfsbench.workflow.studies import challenger_ids, is_challenger


def claims_setting(experiment: Mapping[str, Any]) -> dict[str, Any]:
    """What the claims stage reads of an experiment (the claims rule's
    param, :func:`mlfsbench.report.claims.results_for`).

    - ``datasets``: its datasets; ``unavailable``: those the run could not
      obtain, with why (when there are);
    - ``methods``, ``classifiers``: every name of its selectors and of its
      classifiers -> their ids (:func:`~mlfsbench.workflow.ids.method_aliases`);
      the claims are the paper's, so challengers are left out;
    - ``params``: each selector's parameters by id
      (:func:`~mlfsbench.workflow.ids.entry_params`), and ``dataset_params``
      those on the datasets its ``dataset_params`` names;
    - ``exclude``: the challengers' ids (the rows the verdicts leave out).

    >>> s = claims_setting({"datasets": ["d"], "selectors": [
    ...     {"id": "m", "name": "mlknn", "params": {"k": 5},
    ...      "dataset_params": {"d": {"k": 7}}},
    ...     {"name": "fimf", "challenger": True}], "classifiers": []})
    >>> s["methods"], s["exclude"]
    ({'m': 'm', 'mlknn': 'm'}, ['fimf'])
    >>> s["params"], s["dataset_params"]
    ({'m': {'k': 5}}, {'m': {'d': {'k': 7}}})
    """
    selectors = [e for e in experiment.get("selectors") or [] if not is_challenger(e)]
    classifiers = [e for e in experiment.get("classifiers") or []
                   if not is_challenger(e)]
    out: dict[str, Any] = {
        "datasets": experiment.get("datasets"),
        "methods": method_aliases(selectors),
        "classifiers": method_aliases(classifiers),
        "params": {method_id(e): entry_params(e, None) for e in selectors},
        "dataset_params": {method_id(e): {d: entry_params(e, d)
                                          for d in e["dataset_params"]}
                           for e in selectors if e.get("dataset_params")},
        "exclude": challenger_ids(dict(experiment)),
    }
    if experiment.get("unavailable"):
        out["unavailable"] = dict(experiment["unavailable"])
    return canonical(out)


def artificial_runs(claims: Mapping[str, Any] | None,
                    setting: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The runs on the artificial problems a claims file's ``artificial``
    claims ask for under an experiment's readings (run key -> spec,
    :mod:`mlfsbench.evaluation.artificial`): each claim's quantity with the
    parameters of the experiment's entry it names, by id or name
    (``setting``: :func:`claims_setting`). A claim naming an entry the experiment lacks
    asks for nothing (it is not checkable there). Two claims, or two
    readings, that ask for the same run share its key.

    >>> claims = {"claims": [
    ...     {"rule": "artificial", "quantity": {"problem": 1, "method": "m",
    ...                                         "entry": "e", "check": "first"}},
    ...     {"rule": "artificial", "quantity": {"problem": 1, "method": "m",
    ...                                         "entry": "e", "check": "top"}},
    ...     {"rule": "better", "quantity": {}}]}
    >>> runs = artificial_runs(claims, {"params": {"e": {"k": 3}}})
    >>> [spec["params"] for spec in runs.values()]
    [{'k': 3}]
    >>> artificial_runs(claims, {"params": {}})
    {}
    """
    params = setting.get("params") or {}
    names = setting.get("methods") or {}  # a name or id -> the id
    out: dict[str, dict[str, Any]] = {}
    for claim in (claims or {}).get("claims") or []:
        if claim.get("rule") != "artificial":
            continue
        q = claim["quantity"]
        ident = names.get(q["entry"], q["entry"]) if "entry" in q else None
        if ident is not None and ident not in params:
            continue
        spec = run_spec(q, params[ident] if ident is not None else None)
        out[run_key(spec)] = spec
    return out


def experiments_labels(experiments: Mapping[str, Mapping[str, Any]]
                       ) -> dict[str, str]:
    """Readable names of every experiment's selectors and classifiers, by
    id (the leaderboard names the methods of all studies).

    >>> experiments_labels({"a": {"selectors": [{"id": "m", "name": "mim",
    ...                                         "label": "MIM"}],
    ...                           "classifiers": [{"id": "c", "name": "mlknn"}]}})
    {'m': 'MIM', 'c': 'c'}
    """
    out: dict[str, str] = {}
    for x in experiments.values():
        out.update(method_labels(x.get("selectors") or []))
        out.update(method_labels(x.get("classifiers") or []))
    return out


def challenger_labels(experiment: Mapping[str, Any]) -> list[str]:
    """The readable names of an experiment's challengers, selectors then
    classifiers (the summary page's link to its challenge page).

    >>> challenger_labels({"selectors": [{"name": "mim-br"},
    ...     {"name": "fimf", "challenger": True, "label": "FIMF"}],
    ...     "classifiers": [{"name": "mlknn"}]})
    ['FIMF']
    """
    shown = {**method_labels(experiment.get("selectors") or []),
             **method_labels(experiment.get("classifiers") or [])}
    return [shown.get(c, c) for c in challenger_ids(dict(experiment))]
