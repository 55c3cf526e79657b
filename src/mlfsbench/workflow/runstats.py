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

>>> job_of("shared/select/emotions/kfold-k2-seed0/folds0-1/seed0/mim-br.tsv")
('select', '-')
>>> job_of("tiny/stats/hamming_loss.tsv"), job_of("tiny/aggregate.tsv")
(('stats', 'tiny'), ('aggregate', 'tiny'))
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

SUMMARY_COLUMNS = ["jobs", "wall_s", "cpu_s", "mean_s", "max_s", "peak_rss_mb"]
SHARED = "shared"


def job_of(relative: str) -> tuple[str, str]:
    """(rule, experiment or ``-``) of a benchmark file, from its path under
    ``benchmarks/`` (the layout above); ``("other", "-")`` if it has none."""
    parts = relative.split("/")
    if len(parts) < 2:
        return "other", "-"
    if parts[0] == SHARED:
        return (parts[1], "-") if len(parts) > 2 else ("other", "-")
    return parts[1].removesuffix(".tsv"), parts[0]


def read_benchmarks(workdir: str | os.PathLike = ".") -> pd.DataFrame:
    """One row per job: rule, experiment (``-`` if none), s, cpu_time, max_rss.

    A file that cannot be read is an error naming it.
    """
    workdir = Path(workdir)
    rows = []
    root = workdir / "benchmarks"
    for path in sorted(root.rglob("*.tsv")):
        rel = path.relative_to(workdir).as_posix()
        rule, experiment = job_of(path.relative_to(root).as_posix())
        try:
            table = pd.read_csv(path, sep="\t")
            values = {c: float(pd.to_numeric(table[c], errors="coerce").sum())
                      for c in ("s", "cpu_time")}
            values["max_rss"] = float(pd.to_numeric(table["max_rss"],
                                                    errors="coerce").max())
        except (OSError, ValueError, KeyError, pd.errors.ParserError) as exc:
            raise ValueError(f"{path}: not a Snakemake benchmark file ({exc})") from exc
        rows.append({"rule": rule, "experiment": experiment, "path": rel, **values})
    return pd.DataFrame(rows, columns=["rule", "experiment", "path", "s",
                                       "cpu_time", "max_rss"])


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
