"""Wall time and peak memory of a workflow run, per stage, from its benchmark files.

Every rule of the workflow has a ``benchmark:`` file (``benchmarks/...tsv``,
one row per job: ``s`` wall seconds, ``max_rss`` peak resident memory in MB,
``cpu_time`` user + system seconds, ...). This module maps each file back to
its rule (and experiment, when the rule has that wildcard) by matching the
``benchmark:`` patterns of ``rules/*.smk``, and sums them per stage.

``wall_s`` of a stage is the sum of its jobs' wall times, i.e. the time one
core would need; with ``--cores N`` the elapsed time of a run is shorter.
``peak_rss_mb`` is the largest job of the stage, the figure to compare with a
per-job memory limit such as a cluster's ``mem_mb``.

>>> import re
>>> [(rule, bool(regex.match("benchmarks/e1/select/d/s/fold0/m.tsv")))
...  for rule, regex in benchmark_patterns_from_text(
...      'rule select:\\n    benchmark:\\n        '
...      '"benchmarks/{experiment}/select/{dataset}/{split}/fold{fold}/{selector}.tsv"'
...  )]
[('select', True)]
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd

SUMMARY_COLUMNS = ["jobs", "wall_s", "cpu_s", "mean_s", "max_s", "peak_rss_mb"]


def benchmark_patterns_from_text(text: str) -> list[tuple[str, re.Pattern]]:
    """(rule, regex of its ``benchmark:`` path) found in Snakemake rule text.

    ``{experiment}`` becomes a named group; other wildcards match one path
    component. Patterns with more literal text come first, so the most
    specific one wins when two could match.
    """
    found = re.findall(r'^rule (\w+):.*?^\s+benchmark:\s*\n\s*"([^"]+)"', text,
                       flags=re.M | re.S)
    patterns = []
    for rule, path in found:
        pieces = re.split(r"(\{[^}]+\})", path)
        regex, literal = "", 0
        for piece in pieces:
            if piece == "{experiment}":
                regex += "(?P<experiment>[^/]+)"
            elif piece.startswith("{"):
                regex += "[^/]+"
            else:
                regex += re.escape(piece)
                literal += len(piece)
        patterns.append((literal, rule, re.compile(regex + "$")))
    return [(rule, regex) for _, rule, regex in
            sorted(patterns, key=lambda t: t[0], reverse=True)]


def benchmark_patterns(rules_dir: str | os.PathLike) -> list[tuple[str, re.Pattern]]:
    """:func:`benchmark_patterns_from_text` of every ``*.smk`` in ``rules_dir``."""
    files = sorted(Path(rules_dir).glob("*.smk"))
    if not files:
        raise FileNotFoundError(f"{rules_dir}: no rules/*.smk files")
    return benchmark_patterns_from_text("\n".join(p.read_text() for p in files))


def read_benchmarks(workdir: str | os.PathLike = ".",
                    rules_dir: str | os.PathLike | None = None) -> pd.DataFrame:
    """One row per job: rule, experiment (``-`` if none), s, cpu_time, max_rss.

    Files under ``workdir/benchmarks`` that match no rule get rule ``other``;
    a file that cannot be read is an error naming it.
    """
    workdir = Path(workdir)
    patterns = benchmark_patterns(rules_dir or workdir / "rules")
    rows = []
    for path in sorted((workdir / "benchmarks").rglob("*.tsv")):
        rel = path.relative_to(workdir).as_posix()
        rule, experiment = "other", "-"
        for name, regex in patterns:
            match = regex.match(rel)
            if match:
                rule = name
                experiment = match.groupdict().get("experiment") or "-"
                break
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
