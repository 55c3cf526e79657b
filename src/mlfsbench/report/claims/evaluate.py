"""Claims files in, verdict tables out.

:func:`load_claims` reads and validates a claims file (the general schema,
then each claim against its rule's fragment, then its scoring readings);
:func:`evaluate_claims` gives every claim of an experiment its verdict row
(:func:`evaluate_claim`), under the favoured option of every scoring
reading; :func:`scoring_variants` the rows under each other option;
:func:`write_claims` is the ``claims`` rule.

Scoring readings (a claims file's top-level ``readings:``) are the choices
that only change how results are scored or how a sentence is formalised:
each option overrides fields of named claims (``claims: {<id>: {...}}``,
``quantity`` merged key by key) and/or sets study-wide scoring
``settings`` (``degradation_test``; ``metrics``: a claim's metric -> the
scoring variant read in its place, e.g. ``ranking_loss:
ranking_loss~label-order``, :data:`mlfsbench.evaluation.metrics.VARIANTS`).
They are judged from the results the run has, with no selection or
classification of their own.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

import pandas as pd
import yaml

from mlfsbench.evaluation import printed as printed_tables
from mlfsbench.io import format_table, write_text
from mlfsbench.report.claims._base import (
    COLUMNS,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    VERDICTS,
    NotCheckable,
    claim_datasets,
    enough_datasets,
    metrics_of,
)
from mlfsbench.report.claims.results import Results
from mlfsbench.report.claims.rules import rule

CLAIMS_SCHEMA = files("mlfsbench.report") / "schemas" / "claims.schema.yaml"
"""The JSON schema of a claims file (package data)."""
SCORING_COLUMNS = ["claim", "reading", "option", "favoured", "verdict", "ours",
                   "datasets"]
"""Columns of ``tables/scoring.tsv``: each claim's verdict under each option
of the claims file's scoring readings (``favoured``: ``yes`` on the favoured
option's rows, the main verdicts)."""
#: Settings a scoring reading's option may set, with their defaults.
SETTINGS = {"degradation_test": "sd", "metrics": {}}

PathLike = str | os.PathLike


# ------------------------------------------------------------------- loading
def load_claims(path: PathLike) -> dict[str, Any]:
    """Read and validate a claims file; raise ValueError naming the file."""
    import jsonschema

    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    schema = yaml.safe_load(CLAIMS_SCHEMA.read_text(encoding="utf-8"))
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "top level"
        raise ValueError(f"claims file {path}: {where}: {exc.message}") from None
    ids = [c["id"] for c in data["claims"]]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"claims file {path}: duplicate claim id(s) {dupes}")
    for c in data["claims"]:
        _check_claim(path, c)
        companion = c.get("ordering", "none")
        if companion != "none" and companion not in ids:
            raise ValueError(f"claims file {path}: claim {c['id']}'s ordering "
                             f"companion {companion!r} is not a claim of the file")
    by_id = {c["id"]: c for c in data["claims"]}
    for name, spec in (data.get("readings") or {}).items():
        if spec["favoured"] not in spec["options"]:
            raise ValueError(f"claims file {path}: reading {name}'s favoured option "
                             f"{spec['favoured']!r} is not one of its options")
        for option, o in spec["options"].items():
            o = o or {}  # a null option: the defaults
            for cid, override in (o.get("claims") or {}).items():
                if cid not in by_id:
                    raise ValueError(f"claims file {path}: reading {name}={option} "
                                     f"overrides claim {cid!r}, which the file lacks")
                _check_claim(path, _merged(by_id[cid], override),
                             f" (under reading {name}={option})")
            for key, value in (o.get("settings") or {}).items():
                if key not in SETTINGS:
                    raise ValueError(f"claims file {path}: reading {name}={option} "
                                     f"sets unknown setting {key!r}; known: "
                                     f"{', '.join(SETTINGS)}")
                if key == "metrics":
                    _check_metric_map(path, f"{name}={option}", value)
    return data


def _check_metric_map(path, where, mapping) -> None:
    from mlfsbench.evaluation.metrics import VARIANTS, base_metric

    for metric, variant in mapping.items():
        if variant != metric and (variant not in VARIANTS
                                  or base_metric(variant) != metric):
            raise ValueError(f"claims file {path}: reading {where} maps {metric!r} "
                             f"to {variant!r}, which is not one of its scoring "
                             "variants")


def _check_claim(path, claim, where="") -> None:
    import jsonschema

    try:
        r = rule(claim["rule"])
    except ValueError as exc:
        raise ValueError(f"claims file {path}: claim {claim['id']}{where}: {exc}") \
            from None
    try:
        jsonschema.validate(claim, r.schema)
    except jsonschema.ValidationError as exc:
        raise ValueError(f"claims file {path}: claim {claim['id']}{where} "
                         f"({r.name}): {exc.message}") from None


def _merged(claim: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``claim`` with a scoring reading's ``override``: ``quantity`` merged
    key by key, every other key replaced; a value ``null`` (None) removes
    the key (a ``better`` claim read as a ``winner`` loses ``better`` and
    ``worse``)."""
    out = copy.deepcopy(dict(claim))
    for key, value in override.items():
        if value is None:
            out.pop(key, None)
        elif key == "quantity":
            q = {**out.get("quantity", {}), **copy.deepcopy(value)}
            out["quantity"] = {k: v for k, v in q.items() if v is not None}
        else:
            out[key] = copy.deepcopy(value)
    return out


def claims_for(data: Mapping[str, Any], experiment: str) -> list[dict[str, Any]]:
    """The claims of one experiment (a claim's ``experiment`` defaults to the
    file's ``experiment``)."""
    default = data.get("experiment")
    return [c for c in data["claims"] if c.get("experiment", default) == experiment]


# -------------------------------------------------- the paper against itself
def _printed_tables(claim: Mapping[str, Any], printed) -> dict[str, Any]:
    """The printed tables a claim names (``printed:``), by the metric each
    holds (``seconds`` for a times table)."""
    ids = claim.get("printed")
    ids = [ids] if isinstance(ids, str) else list(ids or [])
    if not ids:
        return {}
    if printed is None:
        raise ValueError(f"claim {claim['id']} names printed table(s) {ids} but "
                         "the study has no printed file")
    return {(t.metric or t.id): t for t in (printed[i] for i in ids)}


def printed_check(claim: Mapping[str, Any], results: Results,
                  printed) -> tuple[bool | None, str, str]:
    """What the paper's own printed numbers give for the claim's quantity on
    the datasets run here: ``(supported, text)``, by the rule's
    :meth:`~mlfsbench.report.claims._base.Rule.printed`.

    ``supported`` is False when the paper's own table fails the claim on
    those datasets (the claim is then not checkable here: no reproduction
    could meet it; the third item is the failing part of the text), None
    when the printed tables cannot say (a dataset they lack, or no
    ``printed:``). NotCheckable when fewer datasets run here than the rule
    compares (a rank test on one dataset).
    """
    tables = _printed_tables(claim, printed)
    if not tables:
        return None, "", ""
    datasets = claim_datasets(claim, results)[0]
    enough_datasets(rule(claim["rule"]), datasets)
    lacking = sorted({d for t in tables.values() for d in datasets
                      if d not in t.datasets})
    if lacking:
        return None, f"the paper prints no row for {', '.join(lacking)}", ""
    return rule(claim["rule"]).printed(claim, datasets, tables)


def _decimals(claim, printed) -> int | None:
    """The printed precision of a value claim's table, if it names one."""
    try:
        tables = _printed_tables(claim, printed)
    except ValueError:
        return None
    metric = metrics_of(claim.get("quantity", {}))[0]
    return tables[metric].decimals if metric in tables else None


def _paper_text(claim: Mapping[str, Any]) -> str:
    if "paper_text" in claim:
        return str(claim["paper_text"])
    paper = claim.get("paper")
    if isinstance(paper, dict):
        return "; ".join(f"{k}: {v}" for k, v in paper.items())
    text = str(paper) if paper is not None else ""
    if "tolerance" in claim and claim.get("rule") in ("value", "similar"):
        tol = claim["tolerance"]
        tol = f"{tol:.4g}" if isinstance(tol, float) else str(tol)
        if claim.get("side") == "no-worse":
            text += f" (or better; tolerance {tol})"
        else:
            text += f" (tolerance ± {tol})"
    return text


def _number_cell(value: Any) -> str:
    """A number of the claims file as a plain cell (``0.5``, ``37``); '' for
    anything else (absent, a word, a list, a mapping).

    >>> _number_cell(0.5), _number_cell(37), _number_cell("gmrmr"), _number_cell(None)
    ('0.5', '37', '', '')
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    return repr(value)


# ----------------------------------------------------------------- verdicts
def evaluate_claim(claim: Mapping[str, Any], results: Results,
                   printed=None) -> dict[str, str]:
    """One row of the verdict table (columns :data:`COLUMNS`).

    ``printed`` is the study's printed tables
    (:class:`~mlfsbench.evaluation.printed.PrintedStudy`): a claim naming one
    (``printed:``) is first computed from the paper's own numbers on the
    datasets run here, and is ``not checkable here`` when they fail it; our
    result is still shown.
    """
    r = rule(claim["rule"])
    row = dict.fromkeys(COLUMNS, "")
    row.update(claim=claim["id"], statement=claim["statement"],
               source=claim["source"], paper=_paper_text(claim),
               verdict=NOT_CHECKABLE, how=r.describe(claim), rule=r.name,
               tolerance=_number_cell(claim.get("tolerance")),
               paper_value=_number_cell(claim.get("paper")),
               reading=" ".join(str(claim.get("reading") or "").split()))
    if claim.get("weak"):
        row["robust"] = f"weak claim: {claim['weak']}"
    results = results.with_metrics((claim.get("_settings") or {}).get("metrics"))
    try:
        supported, row["printed"], failing = printed_check(claim, results, printed)
    except NotCheckable:
        supported, failing = None, ""
    unmet = ("the paper's own numbers do not meet the claim on the datasets run "
             f"here: {failing}")
    if claim.get("rule") == "value" and "_decimals" not in claim:
        claim = {**claim, "_decimals": _decimals(claim, printed)}
    try:
        if claim.get("not_checkable"):
            raise NotCheckable(claim["not_checkable"])
        q = claim.get("quantity", {})
        if claim["rule"] != "artificial":
            datasets = claim_datasets(claim, results)[0]
            enough_datasets(r, datasets)
            results.check_params(q.get("expect_params", {}), datasets)
        out = r.check(claim, results)
    except NotCheckable as exc:
        row["note"] = f"{unmet}; {exc}" if supported is False else str(exc)
        return row
    row.update(ours=out.ours, verdict=REPRODUCED if out.ok else NOT_REPRODUCED,
               note=out.note, datasets=",".join(out.datasets))
    for key, value in out.extra.items():
        if key == "robust" and row["robust"]:
            continue  # a weak claim says so first
        row[key] = value
    if supported is False:
        row["verdict"] = NOT_CHECKABLE
        row["note"] = "; ".join(
            x for x in (f"{unmet}, so no reproduction could (ours alone: "
                        f"{REPRODUCED if out.ok else NOT_REPRODUCED})", out.note) if x)
    return row


def _favoured(data: Mapping[str, Any]) -> tuple[dict[str, dict], dict[str, Any]]:
    """The claim overrides and settings of every scoring reading's favoured
    option."""
    overrides: dict[str, dict] = {}
    settings = dict(SETTINGS)
    for spec in (data.get("readings") or {}).values():
        option = spec["options"][spec["favoured"]] or {}
        for cid, o in (option.get("claims") or {}).items():
            overrides[cid] = {**overrides.get(cid, {}), **o}
        settings.update(_with_metrics(settings, option.get("settings")))
    return overrides, settings


def _with_metrics(settings, new, replaced=None) -> dict[str, Any]:
    """``new`` settings, their ``metrics`` merged into those of ``settings``
    (less the mappings of ``replaced``: the favoured option's, when another
    option of the same reading is judged)."""
    new = dict(new or {})
    old = {k: v for k, v in settings["metrics"].items()
           if k not in ((replaced or {}).get("metrics") or {})}
    return {**new, "metrics": {**old, **(new.get("metrics") or {})}}


def _prepared(data, experiment, overrides, settings) -> list[dict[str, Any]]:
    unavailable = data.get("unavailable", {})
    by_id = {c["id"]: c for c in data["claims"]}
    out = []
    for c in claims_for(data, experiment):
        c = _merged(c, overrides.get(c["id"], {}))
        extra = {"_unavailable": unavailable, "_settings": settings}
        if c.get("ordering", "none") != "none":
            extra["_companion"] = _merged(by_id[c["ordering"]],
                                          overrides.get(c["ordering"], {}))
        out.append({**c, **extra})
    return out


def evaluate_claims(data: Mapping[str, Any], experiment: str,
                    results: Results, printed=None) -> pd.DataFrame:
    """The verdict table of one experiment's claims (columns :data:`COLUMNS`)
    under the favoured option of each scoring reading; ``printed``: the
    study's printed tables (:func:`evaluate_claim`)."""
    overrides, settings = _favoured(data)
    rows = [evaluate_claim(c, results, printed)
            for c in _prepared(data, experiment, overrides, settings)]
    return pd.DataFrame(rows, columns=COLUMNS)


def scoring_variants(data: Mapping[str, Any], experiment: str, results: Results,
                     main: pd.DataFrame, printed=None) -> pd.DataFrame:
    """Each claim's verdict under each option of the claims file's scoring
    readings, the other readings at their favoured options (columns
    :data:`SCORING_COLUMNS`; the favoured option's rows are ``main``'s). A
    claim an option does not touch (no override, and no setting its rule
    reads) keeps the main row."""
    favoured, settings = _favoured(data)
    main = main.set_index("claim")
    rows = []
    for name, spec in (data.get("readings") or {}).items():
        base = spec["options"][spec["favoured"]] or {}
        for option, o in spec["options"].items():
            if option == spec["favoured"]:
                rows += [[cid, name, option, "yes", r["verdict"], r["ours"],
                          r["datasets"]] for cid, r in main.iterrows()]
                continue
            o = o or {}
            overrides = {cid: v for cid, v in favoured.items()
                         if cid not in (base.get("claims") or {})}
            for cid, v in (o.get("claims") or {}).items():
                overrides[cid] = {**overrides.get(cid, {}), **v}
            these = {**settings, **_with_metrics(settings, o.get("settings"),
                                                 base.get("settings"))}
            changed = {k for k in these if these[k] != settings[k]}
            remapped = {m for m in {*these["metrics"], *settings["metrics"]}
                        if these["metrics"].get(m, m) != settings["metrics"].get(m, m)}
            for c in _prepared(data, experiment, overrides, these):
                touched = (c["id"] in (o.get("claims") or {})
                           or c["id"] in (base.get("claims") or {})
                           or (changed - {"metrics"} and c["rule"] in (
                               "degradation", "concentration"))
                           or bool(remapped & set(metrics_of(c.get("quantity", {})))))
                if touched:
                    r = evaluate_claim(c, results, printed)
                else:
                    r = {"claim": c["id"], **main.loc[c["id"]].to_dict()}
                rows.append([c["id"], name, option, "", r["verdict"], r["ours"],
                             r["datasets"]])
    return pd.DataFrame(rows, columns=SCORING_COLUMNS)


def results_for(root: PathLike, setting: Mapping[str, Any],
                artificial: Mapping[str, str] | None = None) -> Results:
    """:class:`Results` of one experiment directory with its methods' names.

    ``setting`` is what the workflow computes of the experiment's config
    (:func:`mlfsbench.workflow.report_params.claims_setting`, the claims
    rule's param): its datasets; the names of its selectors and classifiers
    (``methods``, ``classifiers``: name -> id); each selector's parameters
    (``params`` by id, ``dataset_params`` by id and dataset); and the
    challengers (``exclude``). The claims are the paper's: a challenge
    experiment's challengers are left out of the names and of the tables'
    rows, as the statistics leave them out, so the verdicts are those of the
    study without them. ``artificial``: the runs on the artificial problems
    computed by the workflow (run key -> file), None to compute them here.
    """
    per_dataset = setting.get("dataset_params") or {}

    def params_of(ident: str):
        base = dict((setting.get("params") or {})[ident])
        on = per_dataset.get(ident) or {}
        return lambda d: dict(on.get(d, base))  # d None: the params as written

    params = {ident: params_of(ident) for ident in setting.get("params") or {}}
    return Results(root, datasets=setting.get("datasets"),
                   methods=setting.get("methods") or {}, params=params,
                   classifiers=setting.get("classifiers") or {},
                   exclude=setting.get("exclude") or [], artificial=artificial)


def write_claims(claims_path: PathLike, experiment: str,
                 setting: Mapping[str, Any], root: PathLike,
                 out: PathLike, html_out: PathLike | None = None,
                 printed: PathLike | None = None,
                 scoring_out: PathLike | None = None,
                 artificial: Sequence[PathLike] | None = None) -> pd.DataFrame:
    """The ``claims`` rule: evaluate and write ``claims.tsv`` (and its HTML,
    and ``scoring.tsv``: the verdicts under the scoring readings' other
    options, :func:`scoring_variants`).

    ``setting``: what the claims read of the experiment (:func:`results_for`;
    ``unavailable``: the datasets the run could not obtain, with why).
    ``printed``: the study's printed tables (the plan finds them beside the
    claims file), if any. ``artificial``: the files of the workflow's
    ``artificial`` jobs (each named ``<run key>.npz``), None to compute the
    runs here.
    """
    data = load_claims(claims_path)
    # datasets this run could not obtain (the plan's exclusion), with why
    unavailable = setting.get("unavailable") or {}
    if unavailable:
        data = {**data, "unavailable": {**(data.get("unavailable") or {}),
                                        **unavailable}}
    study = printed_tables.load_printed(printed) if printed else None
    runs = None if artificial is None else {
        os.path.basename(os.fspath(f)).removesuffix(".npz"): os.fspath(f)
        for f in artificial}
    results = results_for(root, setting, runs)
    table = evaluate_claims(data, experiment, results, study)
    write_text(out, format_table(table))
    if scoring_out is not None:
        scoring = scoring_variants(data, experiment, results, table, study)
        write_text(scoring_out, format_table(scoring))
    if html_out is not None:
        write_text(html_out, verdict_html(table, f"{experiment}: the paper's claims"))
    return table


def verdict_html(table: pd.DataFrame, title: str) -> str:
    """A standalone HTML page of the verdict table, verdicts coloured."""
    import html

    colours = {REPRODUCED: "#d8f0d8", NOT_REPRODUCED: "#f6d5d5",
               NOT_CHECKABLE: "#eeeeee"}
    columns = list(table.columns)  # COLUMNS and any a verdict table adds
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for row in table.to_dict("records"):
        cells = "".join(f"<td>{html.escape(str(row[c]))}</td>" for c in columns)
        body.append(f"<tr class='verdict' style='background:"
                    f"{colours.get(row['verdict'], '#fff')}'>{cells}</tr>")
    counts = table["verdict"].value_counts()
    tally = ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS)
    style = ("body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
             "td,th{padding:3px 8px;border-bottom:1px solid #ccc;text-align:left;"
             "vertical-align:top}.scroll{max-width:100%;overflow-x:auto}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title><style>{style}</style></head><body>"
            f"<h3>{html.escape(title)}</h3><p>{tally}</p><div class='scroll'>"
            f"<table class='claims'><thead><tr>{head}</tr></thead><tbody>"
            f"{''.join(body)}</tbody></table></div></body></html>\n")


def read_verdicts(result_dir: PathLike) -> pd.DataFrame:
    """``tables/claims.tsv`` of a finished experiment (for the CLI)."""
    path = os.path.join(os.fspath(result_dir), "tables", "claims.tsv")
    if not os.path.exists(path):
        raise ValueError(f"{path} does not exist: run the workflow's claims stage "
                         "first")
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
