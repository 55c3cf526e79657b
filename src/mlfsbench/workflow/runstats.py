"""Wall time and peak memory of a workflow run, per stage, from its benchmark files.

Every rule of the workflow has a ``benchmark:`` file (``benchmarks/...tsv``,
one row per job: ``s`` wall seconds, ``max_rss`` peak resident memory in MB,
``cpu_time`` user + system seconds, ...). The files are laid out so that
each names its rule and experiment:

- ``benchmarks/shared/<rule>/...`` for the jobs shared by all experiments
  (download, prepare, split, discretize, transform, select, classify);
- ``benchmarks/<experiment>/<rule>.tsv`` or ``<experiment>/<rule>/...`` for
  an experiment's tables, plots and statistics.

``wall_s`` of a stage is the sum of its jobs' wall times, i.e. the time one
core would need; with ``--cores N`` the elapsed time of a run is shorter.
``peak_rss_mb`` is the largest job of the stage, the figure to compare with a
per-job memory limit such as a cluster's ``mem_mb``.

A shared job serves every experiment whose plan uses it (the experiment's
datasets for download and prepare, its folds for split and discretize, its
cache keys for select, classify and transform). Given the plan
(:func:`shared_users`, :func:`split_shared`), each shared job's time is
divided **equally** among the experiments that use it, so the experiments'
times add up to the run's; its job counts once in each, and its memory is
each one's. A shared job no experiment of the plan uses (left by an earlier
config) stays under ``-``. :func:`with_total` appends the run's totals.

>>> job_of("shared/select/emotions/kfold-k2-seed0/folds0-1/seed0/mim-br.tsv")
('select', '-')
>>> job_of("tiny/stats.tsv"), job_of("tiny/plot/emotions.tsv")
(('stats', 'tiny'), ('plot', 'tiny'))
>>> job_of("shared/artificial/3f2a.tsv"), job_of("summary.tsv")
(('artificial', '-'), ('summary', '-'))
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pandas as pd

SUMMARY_COLUMNS = ["jobs", "wall_s", "cpu_s", "mean_s", "max_s", "peak_rss_mb"]
SHARED = "shared"


def job_of(relative: str) -> tuple[str, str]:
    """(rule, experiment or ``-``) of a benchmark file, from its path under
    ``benchmarks/`` (the layout above; a file at the top, such as
    ``summary.tsv``, is a job of no one experiment)."""
    parts = relative.split("/")
    if len(parts) < 2:
        return parts[0].removesuffix(".tsv"), "-"
    if parts[0] == SHARED:
        return (parts[1], "-") if len(parts) > 2 else ("other", "-")
    return parts[1].removesuffix(".tsv"), parts[0]


def method_of(relative: str) -> tuple[str, str]:
    """(method, dataset) of a shared job's benchmark file: the selector of a
    select job, the classifier of a classify job, the transformation of a
    transform job (their ids without the parameters' hash); ``-`` for the
    others.

    >>> method_of("shared/select/bibtex/kfold-k10-seed0/folds0-9/seed0/"
    ...           "rf-br-dac449d3.tsv")
    ('rf-br', 'bibtex')
    >>> method_of("shared/classify/enron/kfold-k10-seed0/folds0-9/seed0/"
    ...           "granular-mrmr-2bf81b1e/mlknn-43d785ff/grid-1fdd277c.tsv")
    ('mlknn', 'enron')
    >>> method_of("shared/prepare/emotions.tsv"), method_of("tiny/stats/x.tsv")
    (('-', 'emotions'), ('-', '-'))
    """
    import re

    parts = relative.removesuffix(".tsv").split("/")
    if parts[0] != SHARED or len(parts) < 3:
        return "-", "-"
    rule, dataset = parts[1], parts[2]
    # <rule>/<dataset>/<split>/<batch>/seed<n>/ then the select and
    # transform jobs' method, the classify jobs' selector/classifier/grid
    where = {"select": (7, -1), "transform": (7, -1), "classify": (9, -2)}.get(rule)
    if where is None or len(parts) != where[0]:
        return "-", dataset
    return re.sub(r"-[0-9a-f]{8}$", "", parts[where[1]]), dataset


def _key_of(relative: str) -> tuple[str, ...] | None:
    """The plan key of a shared job's benchmark file (path under
    ``benchmarks/``), or None for an experiment's own job.

    >>> _key_of("shared/prepare/emotions.tsv")
    ('dataset', 'emotions')
    >>> _key_of("shared/split/emotions/kfold-k2-seed0/folds0-1.tsv")
    ('batch', 'emotions', 'kfold-k2-seed0', 'folds0-1')
    """
    parts = relative.removesuffix(".tsv").split("/")
    if parts[0] != SHARED or len(parts) < 3:
        return None
    rule, rest = parts[1], parts[2:]
    if rule in ("download", "prepare"):
        return ("dataset", rest[0])
    if rule in ("split", "discretize"):
        return ("batch", *rest[:3])
    return (rule, *rest)


def shared_users(plan) -> dict[tuple[str, ...], set[str]]:
    """Plan key of each shared job (:func:`_key_of`) -> the experiments of
    ``plan`` (a :class:`~mlfsbench.workflow.plan.Plan`) that use it."""
    users: dict[tuple[str, ...], set[str]] = {}
    for name, jobs in plan.jobs.items():
        for job in jobs:
            k = job.keys
            batch = (k["dataset"], k["split"], k["batch"])
            own = {"select": ("selector",), "transform": ("transform",),
                   "classify": ("selector", "classifier", "grid")}[job.kind]
            for key in (("dataset", k["dataset"]), ("batch", *batch),
                        (job.kind, *batch, f"seed{k['seed']}",
                         *(str(k[o]) for o in own))):
                users.setdefault(key, set()).add(name)
    return users


def method_names(plan) -> dict[str, str]:
    """A method's cache id (a job's ``selector``, ``classifier`` or
    ``transform`` wildcard, e.g. ``knnmi-forward-6fe2a549``) -> the id the
    config gives it (``mi-forward``; ``a/b`` when studies name it
    differently), from ``plan``'s jobs.

    >>> from types import SimpleNamespace as J
    >>> plan = J(jobs={"e": [
    ...     J(kind="select", keys={"selector": "knnmi-forward-6fe2a549"},
    ...       labels={"selector": "mi-forward"}),
    ...     J(kind="classify", keys={"selector": "all-none", "classifier": "mlknn-1a"},
    ...       labels={"selector": "mi-forward", "classifier": "mlknn"})],
    ...     "f": [J(kind="select", keys={"selector": "knnmi-forward-6fe2a549"},
    ...             labels={"selector": "forward"})]})
    >>> method_names(plan)
    {'knnmi-forward-6fe2a549': 'forward/mi-forward', 'mlknn-1a': 'mlknn'}
    """
    # a classify job's selector label names the study's selector also for
    # its all-features point (a selector key of its own): selectors come
    # from the select jobs only
    own = {"select": ("selector",), "classify": ("classifier",),
           "transform": ("transform",)}
    found: dict[str, set[str]] = {}
    for jobs in plan.jobs.values():
        for job in jobs:
            for key in own.get(job.kind, ()):
                label = job.labels.get(
                    "transformation" if key == "transform" else key)
                if key in job.keys and label and label != job.keys[key]:
                    found.setdefault(str(job.keys[key]), set()).add(str(label))
    return {k: "/".join(sorted(v)) for k, v in found.items()}


def split_shared(jobs: pd.DataFrame,
                 users: dict[tuple[str, ...], set[str]]) -> pd.DataFrame:
    """``jobs`` with each shared job split among the experiments that use it:
    one row per user, ``s`` and ``cpu_time`` divided equally (module
    docstring).

    >>> jobs = pd.DataFrame({"rule": ["prepare"], "experiment": ["-"],
    ...     "path": ["benchmarks/shared/prepare/emotions.tsv"], "s": [3.0],
    ...     "cpu_time": [2.0], "max_rss": [10.0]})
    >>> out = split_shared(jobs, {("dataset", "emotions"): {"a", "b"}})
    >>> out[["experiment", "s", "cpu_time"]].values.tolist()
    [['a', 1.5, 1.0], ['b', 1.5, 1.0]]
    """
    rows = []
    for row in jobs.to_dict("records"):
        key = _key_of(row["path"].removeprefix("benchmarks/"))
        names = sorted(users.get(key, ())) if key is not None else []
        if row["experiment"] != "-" or not names:
            rows.append(row)
            continue
        for name in names:
            rows.append({**row, "experiment": name, "s": row["s"] / len(names),
                         "cpu_time": row["cpu_time"] / len(names)})
    return pd.DataFrame(rows, columns=jobs.columns)


def plan_of_config(configfile: str | os.PathLike,
                   workdir: str | os.PathLike = ".") -> Any:
    """The plan of a config file as the workflow reads it in ``workdir``
    (its paths, such as the datasets table, are relative to it)."""
    import yaml
    from snakemake.utils import validate

    from mlfsbench.workflow.config import CONFIG_SCHEMA
    from mlfsbench.workflow.plan import make_plan, read_config

    with contextlib.chdir(workdir):
        with open(configfile, encoding="utf-8") as fh:
            config = yaml.safe_load(fh)
        read_config(config, str(configfile))
        validate(config, str(CONFIG_SCHEMA))
        return make_plan(config)


def read_benchmarks(workdir: str | os.PathLike = ".") -> pd.DataFrame:
    """One row per job: rule, experiment (``-`` if none), method and dataset
    (:func:`method_of`), s, cpu_time, max_rss.

    A file that cannot be read is an error naming it.
    """
    workdir = Path(workdir)
    rows = []
    root = workdir / "benchmarks"
    for path in sorted(root.rglob("*.tsv")):
        rel = path.relative_to(workdir).as_posix()
        rule, experiment = job_of(path.relative_to(root).as_posix())
        method, dataset = method_of(path.relative_to(root).as_posix())
        try:
            table = pd.read_csv(path, sep="\t")
            values = {c: float(pd.to_numeric(table[c], errors="coerce").sum())
                      for c in ("s", "cpu_time")}
            values["max_rss"] = float(pd.to_numeric(table["max_rss"],
                                                    errors="coerce").max())
        except (OSError, ValueError, KeyError, pd.errors.ParserError) as exc:
            raise ValueError(f"{path}: not a Snakemake benchmark file ({exc})") from exc
        rows.append({"rule": rule, "experiment": experiment, "method": method,
                     "dataset": dataset, "path": rel, **values})
    return pd.DataFrame(rows, columns=["rule", "experiment", "method", "dataset",
                                       "path", "s", "cpu_time", "max_rss"])


def summarize(jobs: pd.DataFrame, by=("experiment", "rule")) -> pd.DataFrame:
    """Per group: jobs, wall_s, cpu_s (sums), mean_s, max_s, peak_rss_mb.

    >>> jobs = pd.DataFrame({"rule": ["a", "a", "b"], "experiment": "-",
    ...                      "s": [1.0, 3.0, 2.0], "cpu_time": [1.0, 2.0, 2.0],
    ...                      "max_rss": [100.0, 50.0, 70.0]})
    >>> row = summarize(jobs, by=["rule"]).loc["a"]
    >>> row[["jobs", "wall_s", "cpu_s", "mean_s", "max_s", "peak_rss_mb"]].tolist()
    [2.0, 4.0, 3.0, 2.0, 3.0, 100.0]
    """
    by = list(by)
    grouped = jobs.groupby(by, sort=True)
    out = pd.DataFrame({
        "jobs": grouped.size(),
        "wall_s": grouped["s"].sum(),
        "cpu_s": grouped["cpu_time"].sum(),
        "mean_s": grouped["s"].mean(),
        "max_s": grouped["s"].max(),
        "peak_rss_mb": grouped["max_rss"].max(),
    })
    return out[SUMMARY_COLUMNS]


def with_total(summary: pd.DataFrame, jobs: pd.DataFrame) -> pd.DataFrame:
    """``summary`` with a last row ``total``: the run's jobs (each once), its
    summed wall and CPU time, its longest job and its largest memory."""
    total = summarize(jobs.assign(_all="total"), by=["_all"])
    index = summary.index
    if isinstance(index, pd.MultiIndex):
        total.index = pd.MultiIndex.from_tuples(
            [("total",) + ("",) * (index.nlevels - 1)], names=index.names)
    else:
        total.index = pd.Index(["total"], name=index.name)
    return pd.concat([summary, total])


def format_summary(summary: pd.DataFrame) -> str:
    """The summary as a Markdown table (seconds to 0.1, memory to 1 MB)."""
    table = summary.reset_index()
    header = "| " + " | ".join(table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    lines = [header, rule]
    for row in table.itertuples(index=False):
        cells = []
        for col, value in zip(table.columns, row, strict=True):
            if col == "jobs":
                cells.append(f"{int(value)}")
            elif col == "peak_rss_mb":
                cells.append(f"{value:.0f}")
            elif isinstance(value, float):
                cells.append(f"{value:.1f}")
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
