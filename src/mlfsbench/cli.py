"""The ``mlfsbench`` command line.

Subcommands: ``describe`` (dataset statistics), ``select`` (rank features),
``evaluate`` (train/test a classifier, all metrics), ``methods`` (the
registry), ``stats`` (Friedman and post-hoc tests on a datasets x methods
table), ``claims`` (finished experiments' verdicts on their papers' claims),
``run`` (the Snakemake workflow with safe recovery), ``challenge`` (a
method of yours against the studies), ``runstats`` (a run's
time and memory per stage). Errors exit with status 1 and one line on
stderr; a closed output pipe (``mlfsbench claims results/ | head``) ends the
command quietly with status 0.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import yaml

from mlfsbench import __version__
from mlfsbench.estimators import registry
from mlfsbench.io import NA_VALUES, dumps_json


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


def _print(obj: Any, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(dumps_json(obj))  # non-finite floats as null
    else:
        for key, value in obj.items():
            print(f"{key}\t{value}")


def cmd_describe(args) -> int:
    from mlfsbench.data import dataset_statistics, load_dataset

    ds = load_dataset(args.arff, args.xml, name=args.name, nominal=args.nominal,
                      targets=args.targets, accept_xml=args.accept_xml)
    stats = {"dataset": ds.name, **dataset_statistics(ds)}
    _print(stats, args.json)
    return 0


def cmd_select(args) -> int:
    """The select stage's per-fold function on the whole file (one "fold"
    whose training part is every instance); the JSON is its record."""
    from mlfsbench.data import load_dataset
    from mlfsbench.workflow.checks import check_params
    from mlfsbench.workflow.folds import discretize_fold, fold_data, select_fold

    if args.n_features is not None and args.n_features < 1:
        raise ValueError(
            f"--n-features must be a positive integer, got {args.n_features}"
        )
    params = parse_params(args.param)
    problem = check_params("selector", args.method, params)
    if problem:
        raise ValueError(f"selector {args.method!r}: {problem}")
    ds = load_dataset(args.arff, args.xml, name=args.name, nominal=args.nominal,
                      targets=args.targets, accept_xml=args.accept_xml)
    rows = np.arange(ds.n_samples)
    X, _ = fold_data(ds, rows, rows[:0])
    selector = registry.create("selector", args.method, params)
    if selector.input_kind == "discrete" and args.discretize != "none":
        X, _ = discretize_fold(X, X[:1], strategy=args.discretize, bins=args.bins)
    record = select_fold(X, ds.Y, ds.feature_names, method=args.method,
                         params=params, seed=args.seed, name=" + ".join(args.arff),
                         feature_types=ds.feature_types)
    k = len(record["ranking"]) if args.n_features is None else args.n_features
    record = {"dataset": ds.name, **record, "seed": args.seed,
              "ranking": record["ranking"][:k], "features": record["features"][:k]}
    if args.json:
        sys.stdout.write(dumps_json(record))
    else:
        for i, name in zip(record["ranking"], record["features"], strict=True):
            print(f"{name}\t{record['scores'][i]:.6g}")
    return 0


def cmd_evaluate(args) -> int:
    """The classify stage's per-fold functions (fit and predict, then every
    metric) on a train/test pair, at one feature subset."""
    from mlfsbench.data import load_mulan
    from mlfsbench.workflow.folds import classify_fold, evaluate_fold, fold_data

    ds = load_mulan([args.train, args.test], args.xml, name=args.name,
                    nominal=args.nominal, targets=args.targets,
                    accept_xml=args.accept_xml)
    train = np.flatnonzero(~ds.is_test)
    test = np.flatnonzero(ds.is_test)
    X_train, X_test = fold_data(ds, train, test)
    cols = list(range(X_train.shape[1]))
    if args.features:
        index = {name: i for i, name in enumerate(ds.feature_names)}
        unknown = [f for f in args.features if f not in index]
        if unknown:
            raise ValueError(f"{args.train}: unknown feature(s) {', '.join(unknown)}")
        cols = [index[f] for f in args.features]
    record = {"ranking": cols, "n_selected": len(cols)}
    start = time.perf_counter()
    pred = classify_fold(X_train, ds.Y[train], X_test, record,
                         classifier=args.classifier,
                         params=parse_params(args.param), grid=["selected"],
                         seed=args.seed, regression=ds.is_regression)
    seconds = time.perf_counter() - start
    metrics = {metric: value for _, metric, value in evaluate_fold(
        ds.Y[test], pred, regression=ds.is_regression)}
    _print({"dataset": ds.name, "classifier": args.classifier,
            "n_features": len(cols), **metrics, "seconds": seconds}, args.json)
    return 0


_CITATION = re.compile(r"\(([^()]*\b(?:19|20)\d\d\b[^()]*)\)")


def method_details(kind: str, name: str, entry: dict[str, Any]) -> dict[str, Any]:
    """What ``mlfsbench methods`` shows of a registered estimator beside its
    parameters: the input it reads (selectors: discrete codes or continuous
    features), the citation of its summary line, and its origin (built in, or
    the installed distribution of a plugin)."""
    cls = registry.get(kind, name)
    details = {"input": "-", "citation": "", "origin": "built-in"}
    if kind == "selector":
        try:
            details["input"] = str(registry.create(kind, name, {}).input_kind)
        except Exception:  # a plugin that needs parameters: unknown
            details["input"] = "?"
    elif kind == "classifier":
        details["input"] = "features"
    elif kind == "transformation":
        details["input"] = "labels"
    match = _CITATION.search(entry.get("summary", ""))
    if match:
        details["citation"] = match.group(1)
    top = cls.__module__.split(".")[0]
    if top != "mlfsbench":
        from importlib.metadata import packages_distributions

        dists = packages_distributions().get(top) or [top]
        details["origin"] = f"plugin: {dists[0]}"
    return details


def cmd_methods(args) -> int:
    info = registry.describe()
    for kind, entries in info.items():
        for name, entry in entries.items():
            entry.update(method_details(kind, name, entry))
    if args.json:
        sys.stdout.write(dumps_json(info))
        return 0
    rows = []
    for kind, entries in info.items():
        for name, entry in entries.items():
            rows.append([kind, name, entry["input"], entry["origin"],
                         entry["summary"]])
    print(_plain_table(["kind", "name", "input", "origin", "description"], rows))
    if args.params:
        print()
        for kind, entries in info.items():
            for name, entry in entries.items():
                params = ", ".join(f"{k}={v!r}"
                                   for k, v in entry["parameters"].items())
                print(f"{kind}\t{name}\t{params}")
    return 0


def cmd_stats(args) -> int:
    import pandas as pd

    from mlfsbench.evaluation.stats import compare_methods

    try:
        table = pd.read_csv(args.table, sep=None, engine="python", index_col=0,
                            keep_default_na=False, na_values=NA_VALUES)
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise ValueError(f"{args.table}: cannot read the table ({exc})") from None
    table.index = table.index.astype(str)
    non_numeric = [c for c in table.columns
                   if not pd.api.types.is_numeric_dtype(table[c])]
    if non_numeric:
        raise ValueError(f"{args.table}: non-numeric column(s) "
                         f"{', '.join(map(str, non_numeric))}")
    try:
        out = compare_methods(table, higher_is_better=args.higher_is_better,
                              control=args.control, alpha=args.alpha)
        if args.round is not None:  # beside: the ranks of the printed numbers
            printed = compare_methods(table, higher_is_better=args.higher_is_better,
                                      control=args.control, alpha=args.alpha,
                                      decimals=args.round)
            out["rounded"] = {"decimals": args.round, **{key: printed[key] for key in (
                "average_ranks", "friedman", "iman_davenport", "bonferroni_dunn")}}
    except ValueError as exc:
        raise ValueError(f"{args.table}: {exc}") from None
    out = {"table": str(args.table), "datasets": list(table.index), **out}
    if args.json:
        sys.stdout.write(dumps_json(out))
        return 0
    fr, idv = out["friedman"], out["iman_davenport"]
    print(f"datasets\t{out['n_datasets']}\tmethods\t{out['n_methods']}")
    for name, rank in sorted(out["average_ranks"].items(), key=lambda kv: kv[1]):
        print(f"rank\t{name}\t{rank:.4f}")
    if args.round is not None:
        printed = out["rounded"]
        for name, rank in sorted(printed["average_ranks"].items(),
                                 key=lambda kv: kv[1]):
            print(f"rounded_rank\t{name}\t{rank:.4f}")
        print(f"rounded_friedman_chi2\t{printed['friedman']['chi2']:.6g}"
              f"\tp\t{printed['friedman']['p_value']:.6g}\tdecimals\t{args.round}")
    print(f"friedman_chi2\t{fr['chi2']:.6g}\tp\t{fr['p_value']:.6g}")
    print(f"iman_davenport_F\t{idv['F']:.6g}\tp\t{idv['p_value']:.6g}"
          f"\tcritical\t{idv['critical_value']:.6g}")
    print(f"nemenyi_cd\t{out['nemenyi']['cd']:.6g}")
    for a, b in out["nemenyi"]["significant_pairs"]:
        print(f"nemenyi_significant\t{a}\t{b}")
    print(f"bonferroni_dunn_cd\t{out['bonferroni_dunn']['cd']:.6g}")
    for name in out["bonferroni_dunn"].get("significant", []):
        print(f"bonferroni_dunn_significant\t{args.control}\t{name}")
    return 0


def cmd_run(args) -> int:
    import logging

    from mlfsbench.workflow.runner import run

    logging.basicConfig(level=logging.INFO, format="mlfsbench: %(message)s")
    extra = {"report": args.report} if args.report else {}
    return run(args.snakemake_args, workdir=args.workdir, epilogue=run_verdicts,
               **extra)


#: The tally columns a run ends with (the weak claims' three in one).
RUN_TALLY = ["reproduced", "not reproduced", "depends", "not checkable", "weak",
             "claims", "rate"]


def run_verdicts(results: str | os.PathLike,
                 studies: Sequence[str] | None = None) -> list[str]:
    """The lines a successful run ends with: the robust tally
    (:func:`mlfsbench.report.tally.tally_rows`, the weak claims counted in
    one column) of each study of ``studies`` (every study under ``results``
    when None) that has a verdict table, each with the path of its
    ``claims.tsv``; none when no study has one."""
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
    table = _plain_table(["study", *RUN_TALLY, "verdicts"], short, last_left=True)
    return ["verdicts (robust: the same under every reading; mlfsbench claims "
            "results/ for each claim):",
            *(line.rstrip() for line in table.splitlines())]


def _challenger(kind: str, name: str, params: dict[str, Any],
                ident: str | None = None) -> dict[str, Any]:
    """A challenger's config entry; an unknown name or a bad parameter is an
    error naming it (with the registered names it resembles)."""
    from mlfsbench.workflow.checks import check_params

    cls = registry.get(kind, name)  # KeyError: "did you mean ...?"
    unknown = sorted(set(params) - set(registry.parameters(cls)))
    if unknown:
        raise ValueError(f"{kind} {name!r} has no parameter(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted(registry.parameters(cls)))}")
    problem = check_params(kind, name, params)
    if problem:
        raise ValueError(f"{kind} {name!r}: {problem}")
    entry: dict[str, Any] = {"name": name}
    if ident:
        entry["id"] = ident
    if params:
        entry["params"] = params
    return entry


def cmd_challenge(args) -> int:
    """Write the config that sets the method against the studies, then run
    it as ``mlfsbench run`` does."""
    import logging

    from mlfsbench.io import write_text
    from mlfsbench.workflow.runner import run
    from mlfsbench.workflow.studies import challenge_config

    workdir = os.path.abspath(args.workdir)
    selectors = []
    if args.selector:
        selectors.append(_challenger("selector", args.selector,
                                     parse_params(args.param), args.id))
    classifiers = [_challenger("classifier", name, parse_params(args.classifier_param),
                               None if selectors else args.id)
                   for name in args.classifier or []]
    if not selectors and args.param:
        raise ValueError("--param sets the selector's parameters: give --selector "
                         "(--classifier-param sets the classifiers')")
    studies = None
    if args.studies and args.studies != "all":
        studies = [s for s in args.studies.split(",") if s]
    datasets = [d for item in args.datasets or [] for d in item.split(",") if d]
    cwd = os.getcwd()
    try:
        os.chdir(workdir)  # the config's paths are relative to the workflow
        config, notes = challenge_config(args.configfile, studies, selectors,
                                         classifiers, datasets or None)
    finally:
        os.chdir(cwd)
    name = next(iter(config["experiments"])).split("+", 1)[1]
    out = args.output or f"config/challenges/{name}.yaml"
    text = ("# Written by `mlfsbench challenge`; run again with\n# "
            f"`mlfsbench run --configfile {out}`.\n# Each experiment extends a "
            "study (docs/challenge.md); its results go to\n# results/<experiment>/.\n"
            + yaml.safe_dump(config, sort_keys=False))
    os.makedirs(os.path.dirname(os.path.join(workdir, out)) or ".", exist_ok=True)
    write_text(os.path.join(workdir, out), text)
    for note in notes:
        print(f"mlfsbench: {note}: left out", file=sys.stderr)
    print(f"mlfsbench: wrote {out}: {', '.join(config['experiments'])}",
          file=sys.stderr)
    logging.basicConfig(level=logging.INFO, format="mlfsbench: %(message)s")
    snakemake_args = ["--configfile", out]
    if args.cores is not None:
        snakemake_args += ["--cores", args.cores]
    if args.dry_run:
        snakemake_args.append("--dry-run")
    return run(snakemake_args + list(args.snakemake_args), workdir=workdir)


def cmd_runstats(args) -> int:
    from mlfsbench.workflow.runstats import (
        format_summary,
        plan_of_config,
        read_benchmarks,
        shared_users,
        split_shared,
        summarize,
        with_total,
    )

    jobs = read_benchmarks(args.workdir)
    if jobs.empty:
        raise ValueError(f"{args.workdir}/benchmarks: no benchmark files")
    by = {"rule": ["rule"], "experiment": ["experiment"],
          "both": ["experiment", "rule"], "method": ["rule", "method"],
          "method-dataset": ["rule", "method", "dataset"]}[args.by]
    grouped = jobs
    if args.by in ("experiment", "both"):
        configfile = args.configfile or "config/config.yaml"
        if args.configfile or os.path.exists(os.path.join(args.workdir, configfile)):
            users = shared_users(plan_of_config(configfile, args.workdir))
            grouped = split_shared(jobs, users)
    table = with_total(summarize(grouped, by=by), jobs)
    if args.tsv:
        print(table.to_csv(sep="\t", float_format="%.2f"), end="")
    else:
        print(format_summary(table))
    return 0


def _data_args(p: argparse.ArgumentParser) -> None:
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


_COLOURS = {"reproduced": "32", "not reproduced": "31",
            "not checkable here": "90"}


def use_colour(stream=None) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR`` set or ``TERM=dumb``
    (the no-color.org convention)."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def _verdict_tag(verdict: str, colour: bool) -> str:
    tag = f"[{verdict}]"
    code = _COLOURS.get(verdict)
    return f"\033[{code}m{tag}\033[0m" if colour and code else tag


def claims_folders(path: str) -> list[tuple[str, str]]:
    """``(study, folder)`` of ``path``: one finished experiment
    (``results/<experiment>``) or every experiment under a results folder
    (``results/``), in name order.

    A folder with no verdict table says why: no experiment, or, for an
    experiment, the claims stage's log line that tells why it did not finish.
    """
    from mlfsbench.workflow.readings import VARIANT_MARK

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
    reason = _last_error_line(log)
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


def _last_error_line(log: str) -> str:
    """The last line of a failed stage's log that names an error, or ''."""
    try:
        with open(log, encoding="utf-8", errors="replace") as fh:
            lines = [line.strip() for line in fh if line.strip()]
    except OSError:
        return ""
    errors = [line for line in lines if re.search(r"Error|error:", line)]
    return (errors or [""])[-1][:300]


def _read_readings(folder: str):
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


def cmd_claims(args) -> int:
    from mlfsbench.report.claim_records import claim_records, tsv

    folders = dict(claims_folders(args.result_dir))
    tables = filter_tables([(s, study_verdicts(f)) for s, f in folders.items()],
                           args.study or (), args.verdict or ())
    if args.json or args.tsv:
        records = []
        for study, table in tables:
            records += claim_records(study, table, _read_readings(folders[study]))
        sys.stdout.write(dumps_json(records) if args.json else tsv(records))
        return 0
    if not tables:
        print("mlfsbench: no claim matches the filters", file=sys.stderr)
        return 0
    colour = use_colour()
    several = len(tables) > 1
    for study, table in tables:
        for row in table.to_dict("records"):
            where = f"{study}: " if several else ""
            print(f"{_verdict_tag(row['verdict'], colour)} {where}{row['claim']} "
                  f"({row['source']})")
            print(f"    {row['statement']}")
            print(f"    paper: {row['paper']}")
            # printed (the paper's own table on the datasets run here) and
            # robust are newer columns: older verdict tables lack them
            if row.get("printed"):
                print(f"    printed: {row['printed']}")
            if row["ours"]:
                print(f"    ours:  {row['ours']}")
            if row.get("robust"):
                print(f"    robust: {row['robust']}")
            if row["note"]:
                print(f"    note:  {row['note']}")
            if row.get("robustness"):
                under = [f"{c.removeprefix('verdict:')}: {row[c]}"
                         for c in table.columns if c.startswith("verdict:")]
                print(f"    readings: {row['verdict']} under {row['favoured']} "
                      f"(favoured); {'; '.join(under)}")
                print(f"    robustness: {row['robustness']}")
    verdicts = list(_COLOURS)
    if not several:
        counts = tables[0][1]["verdict"].value_counts()
        print(", ".join(f"{n} {v}" for v, n in counts.items()))
    else:
        print()
        rows = [[study, *(str(int((t["verdict"] == v).sum())) for v in verdicts),
                 str(len(t))] for study, t in tables]
        rows.append(["all", *(str(sum(int(r[i + 1]) for r in rows))
                              for i in range(len(verdicts))),
                     str(sum(int(r[-1]) for r in rows))])
        print(_plain_table(["study", *verdicts, "claims"], rows))
    from mlfsbench.report.tally import TALLY_COLUMNS, tally_rows

    print()
    print("robust verdicts (the same under every reading that judged them), weak "
          "claims apart; rate: reproduced of the robust verdicts of the claims "
          "that are not weak")
    print(_plain_table(["study", *TALLY_COLUMNS], tally_rows(tables)))
    by_reading = reading_counts(tables)
    if by_reading:
        print()
        print(_plain_table(["study", "reading", *verdicts, "claims"], by_reading,
                           left=2))
    return 0


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
            counts = [int((values == v).sum()) for v in _COLOURS]
            rows.append([study, name, *map(str, counts), str(sum(counts))])
    return rows


def _plain_table(header: list[str], rows: list[list[str]], left: int = 1,
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


RUN_EPILOG = """\
Every other argument goes to Snakemake unchanged (put them after '--' if they
could be taken for this command's own), for example:
  mlfsbench run --cores 2 --configfile config/quick.yaml
  mlfsbench run --cores all -- --dry-run
  mlfsbench run --cores 2 -- --keep-going --forcerun stats
The run first obtains and prepares every dataset (a dataset that fails is
left out of the studies, which are built from the rest; the exit status is
then 1), shows its progress (per study: jobs done of total, the running job,
time left) and keeps Snakemake's whole log in logs/run-<time>.log; it ends,
after a success, with the verdict counts of each study (the robust tally of
'mlfsbench claims') and its claims.tsv's path, then with the summary page's
path and one line per failure.
On one machine every job runs on one thread (Snakemake's --max-threads 1)
unless you give --max-threads N, a --profile or an --executor. A stale lock
of a killed run is removed when no other run is alive here; outputs of
killed jobs are recomputed. Jobs rerun when their parameters (code versions
included), inputs or software change, not their file times
(--rerun-triggers params input software-env unless you give your own), so a
cache copied from another checkout is reused: docs/cache.md.
"""


CHALLENGE_EPILOG = """\
Each study runs with the method added, under its own protocol, discretization,
classifier, feature grid and statistics; the paper's methods reuse the study's
cached jobs (results/shared/), so only the method's jobs, the tables, the
statistics and the report run when the study ran before. The claims stay the
paper's (judged without the method). Results: results/<study>+<id>/, the
challenge pages results/<study>+<id>/challenge/ and results/challenges.html.
For example:
  mlfsbench challenge --selector variance-rank --studies lee2016 \\
      --datasets yeast,genbase --cores 2
  mlfsbench challenge --selector mim-br --param n_features_to_select=20 -n
  mlfsbench challenge --classifier brknn-a --studies tiny
Further arguments go to Snakemake (after '--'). docs/challenge.md.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mlfsbench", description=plain(__doc__))
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("describe",
                       help="statistics of a dataset (ARFF + XML, or an mldr .rda)")
    p.add_argument("arff", nargs="+",
                   help="ARFF file, train and test files, or an R data file (.rda)")
    _data_args(p)
    p.set_defaults(func=cmd_describe)

    p = sub.add_parser("select", help="rank features with a registered selector")
    p.add_argument("arff", nargs="+", help="ARFF file (or train and test files)")
    _data_args(p)
    p.add_argument("--method", required=True,
                   help="selector name, as 'mlfsbench methods' lists them")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the selector (repeat for several; the "
                        "value is read as YAML: 10, 0.5, true, null, text)")
    p.add_argument("--n-features", type=int, default=None, metavar="K",
                   help="print the K best features only (default: all)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed of a randomized selector (default: 0)")
    p.add_argument("--discretize", default="equal-width",
                   choices=["equal-width", "equal-frequency", "none"],
                   help="discretization before a selector that reads discrete "
                        "codes (default: %(default)s)")
    p.add_argument("--bins", type=int, default=5,
                   help="bins of the discretization (default: %(default)s)")
    p.set_defaults(func=cmd_select)

    p = sub.add_parser("evaluate", help="train on --train, test on --test")
    p.add_argument("--train", required=True, help="training ARFF file")
    p.add_argument("--test", required=True, help="test ARFF file")
    _data_args(p)
    p.add_argument("--classifier", required=True,
                   help="classifier name, as 'mlfsbench methods' lists them")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the classifier (repeat for several; the "
                        "value is read as YAML)")
    p.add_argument("--features", nargs="+", metavar="NAME",
                   help="train on these features only (default: all)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed of a randomized classifier (default: 0)")
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("methods", help="registered methods: kind, input, origin "
                       "and description")
    p.add_argument("--params", action="store_true",
                   help="also list each method's parameters and defaults")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_methods)

    p = sub.add_parser(
        "stats", help="Friedman, Iman-Davenport, Nemenyi and Bonferroni-Dunn tests "
        "of a results table (one row per dataset, one column per method)")
    p.add_argument("table", help="CSV or TSV; first column: dataset name")
    p.add_argument("--higher-is-better", action="store_true",
                   help="the metric is a gain (default: a loss, lower is better)")
    p.add_argument("--control", help="control method for Bonferroni-Dunn")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the tests (default: %(default)s)")
    p.add_argument("--round", type=int, default=None, metavar="D",
                   help="also rank the values rounded to D decimals, as a paper's "
                   "printed table reads (reported beside the unrounded ranks)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser(
        "claims", help="the verdicts of finished experiments: each claim "
        "of the paper, the paper's value, ours, reproduced or not")
    p.add_argument("result_dir", help="results/<experiment>, or results/ for "
                   "every experiment (one table, the counts per study, and "
                   "per reading where a study declares readings)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help="print a JSON list of records, one per claim: numbers "
                     "as numbers, blanks as null, the rule and tolerance, the "
                     "verdict under each reading's options (its schema: "
                     "mlfsbench/report/schemas/claims_json.schema.yaml)")
    out.add_argument("--tsv", action="store_true",
                     help="print one tab-separated row per claim, the study "
                     "first, plain cells")
    p.add_argument("--study", action="append", metavar="NAME",
                   help="only this study (repeatable)")
    p.add_argument("--verdict", action="append", metavar="V",
                   help="only the claims of this robust verdict (repeatable): "
                   "reproduced, not-reproduced, depends (it changes with a "
                   "reading) or not-checkable; the counts are those of the "
                   "claims shown")
    p.set_defaults(func=cmd_claims)

    p = sub.add_parser(
        "runstats", help="wall time, CPU time and peak memory of a run per "
        "stage, summed from its benchmarks/ files")
    p.add_argument("--workdir", default=".",
                   help="the workflow directory (default: the current one)")
    p.add_argument("--by", choices=["rule", "experiment", "both", "method",
                                    "method-dataset"], default="both",
                   help="group the jobs by rule, by experiment or by both "
                        "(default: %(default)s; a shared job's time is divided "
                        "equally among the experiments that use it), or by rule "
                        "and method (the selector of a select job, the "
                        "classifier of a classify job), with the dataset too")
    p.add_argument("--configfile", metavar="FILE",
                   help="the run's config, whose plan says which experiments use "
                        "each shared job (default: config/config.yaml if present; "
                        "without one shared jobs stay under '-')")
    p.add_argument("--tsv", action="store_true", help="print TSV")
    p.set_defaults(func=cmd_runstats)

    p = sub.add_parser(
        "run", help="run the workflow in the current directory (resumes after a "
        "kill); further arguments go to Snakemake, e.g. --cores all",
        description="Run the Snakemake workflow of the current directory "
        "with safe recovery\nafter a killed run.", epilog=RUN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False)  # Snakemake's --config is not our --configfile
    p.add_argument("--cores", metavar="N",
                   help="cores Snakemake may use: a number or 'all' (passed to "
                        "Snakemake; default: Snakemake's)")
    p.add_argument("--configfile", metavar="FILE",
                   help="the experiment config (passed to Snakemake; default: "
                        "config/config.yaml)")
    p.add_argument("--workdir", default=".", metavar="DIR",
                   help="the workflow directory to run in (default: the current "
                        "one; Snakemake's --directory works too)")
    p.add_argument("--report", metavar="FILE",
                   help="after the run, write Snakemake's HTML report to FILE "
                        "(relative to the workflow directory)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "challenge", help="set a method against the studies: their protocols, "
        "statistics and cached results, the method's jobs only",
        description="Run the studies with a selector (or classifier) of yours "
        "added beside the\npaper's methods.", epilog=CHALLENGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    p.add_argument("--selector", metavar="NAME",
                   help="the challenger: a registered selector (built in or a "
                        "plugin's), as 'mlfsbench methods' lists them")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the selector (repeat for several; the "
                        "value is read as YAML)")
    p.add_argument("--id", metavar="ID",
                   help="the method's name in the tables and the experiments' "
                        "names (<study>+<ID>; default: the registry name, with a "
                        "hash of the parameters when some are given)")
    p.add_argument("--classifier", action="append", metavar="NAME",
                   help="a challenger classifier, trained on every selector's "
                        "features (repeat for several)")
    p.add_argument("--classifier-param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the challenger classifier(s)")
    p.add_argument("--studies", default="all", metavar="A,B|all",
                   help="the studies to challenge (default: all of the config "
                        "file's: each experiment named like its file)")
    p.add_argument("--datasets", action="append", metavar="A,B",
                   help="only these of each study's datasets (a study with none "
                        "of them is left out)")
    p.add_argument("-n", "--dry-run", action="store_true",
                   help="write the config and show the jobs that would run")
    p.add_argument("--cores", metavar="N",
                   help="cores Snakemake may use: a number or 'all'")
    p.add_argument("--configfile", default="config/config.yaml", metavar="FILE",
                   help="the config whose studies are challenged (default: "
                        "%(default)s, the five papers; config/tiny.yaml: the "
                        "test study)")
    p.add_argument("--output", metavar="FILE",
                   help="where to write the generated config (default: "
                        "config/challenges/<id>.yaml)")
    p.add_argument("--workdir", default=".", metavar="DIR",
                   help="the workflow directory (default: the current one)")
    p.set_defaults(func=cmd_challenge)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command == "run":
        own = []
        if args.cores is not None:
            own += ["--cores", args.cores]
        if args.configfile is not None:
            own += ["--configfile", args.configfile]
        args.snakemake_args = own + [a for a in extra if a != "--"]
    elif args.command == "challenge":
        args.snakemake_args = [a for a in extra if a != "--"]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.func(args) or 0)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


