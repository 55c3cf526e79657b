"""The papers' printed results tables, as data, and what claim rules compute from them.

A *printed file* (``config/papers/<study>.printed.yaml``, schema
``mlfsbench/evaluation/schemas/printed.schema.yaml``, package data) holds
every results table of a paper that a claim could be checked against, cell by
cell as printed: rows are the project's dataset names, columns the method ids
of the study's experiment file (``all-features`` is the baseline). A claim's
quantity can then be computed from the paper's own numbers, on the datasets
run here, and a claim the paper's numbers do not support on that subset
recognised as such (issue #26, item 3).

Kinds of table (``kind``):

- ``values``: a measure per dataset and method (at ``n_features`` selected
  features, or an ``averaging`` over several); which end is best comes from
  :data:`mlfsbench.evaluation.metrics.GREATER_IS_BETTER`.
- ``ranks``: average ranks, 1 the best (Sechidis et al. 2019, Table 2).
- ``wins``: counts, more is better.
- ``times``: seconds (``metric: seconds``), less is better.
- ``friedman``: Friedman statistics per metric (rows are metrics, columns
  the printed statistics, e.g. ``F_F`` and ``critical``).

The functions below compute, from a table restricted to some datasets and
methods, what the claim rules compute from results: average ranks (ties share
the mean rank), win counts, Friedman's chi-squared and the Iman-Davenport
``F_F`` with its critical value, and the Nemenyi and Bonferroni-Dunn critical
differences, all through :mod:`mlfsbench.evaluation.stats`. Printed values
are rounded, so cells that tie in print may differ in the paper's unrounded
numbers: :func:`tie_resolutions` and :func:`friedman_tie_range` give what
every resolution of the printed ties allows.

>>> from mlfsbench.evaluation.printed import PrintedTable
>>> t = PrintedTable.from_mapping({
...     "id": "T", "caption": "c", "kind": "values", "metric": "hamming_loss",
...     "n_features": 10, "decimals": 2, "methods": ["a", "b", "c"],
...     "values": {"d1": {"a": "0.10", "b": "0.20", "c": "0.30"},
...                "d2": {"a": "0.20", "b": "0.10", "c": "0.30"},
...                "d3": {"a": "0.10", "b": "0.10", "c": "0.20"}}})
>>> average_ranks(t).tolist()
[1.5, 1.5, 3.0]
>>> win_counts(t).to_dict()
{'a': 2, 'b': 2, 'c': 0}
>>> win_counts(t, datasets=["d1", "d2"]).to_dict()
{'a': 1, 'b': 1, 'c': 0}
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

import numpy as np
import pandas as pd
import yaml

from mlfsbench.evaluation import stats
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER
from mlfsbench.yamlfile import load_yaml_file

__all__ = [
    "PRINTED_SCHEMA",
    "KINDS",
    "PrintedTable",
    "PrintedStudy",
    "load_printed",
    "parse_cell",
    "average_ranks",
    "win_counts",
    "winners",
    "friedman",
    "critical_differences",
    "tie_resolutions",
    "friedman_tie_range",
]

PRINTED_SCHEMA = files("mlfsbench.evaluation") / "schemas" / "printed.schema.yaml"
"""The JSON schema of a printed file (package data)."""

KINDS = ("values", "ranks", "wins", "friedman", "times")
"""The kinds of printed table."""

PathLike = str | os.PathLike


def parse_cell(cell) -> float:
    """A printed cell as a float: ``"29,555.3"`` -> 29555.3; ``None`` ("-") -> nan.

    >>> parse_cell("0.010"), parse_cell("29,555.3"), parse_cell(5), parse_cell(None)
    (0.01, 29555.3, 5.0, nan)
    """
    if cell is None:
        return math.nan
    if isinstance(cell, str):
        return float(cell.replace(",", ""))
    return float(cell)


def _number(cell) -> float | None:
    """A cell's number (a string as printed, or a number); None for a cell
    that is not one (e.g. the paper's "-").

    >>> _number("0.010"), _number(".5"), _number("-"), _number(None)
    (0.01, 0.5, None, None)
    """
    if cell is None or isinstance(cell, bool):
        return None
    try:
        return float(cell)
    except (TypeError, ValueError):
        return None


def _printed_decimals(cell) -> int | None:
    """Decimals a string cell prints (``"0.010"`` -> 3); None for numbers."""
    if not isinstance(cell, str):
        return None
    return len(cell.split(".", 1)[1]) if "." in cell else 0


def _grid(rows: Mapping[str, Mapping[str, Any]], columns: Sequence[str]):
    """``(floats, printed)`` DataFrames of a ``row -> column -> cell`` mapping."""
    index = list(rows)
    printed = pd.DataFrame(
        [[rows[r].get(c) for c in columns] for r in index],
        index=pd.Index(index, name="dataset"), columns=list(columns), dtype=object)
    floats = printed.map(parse_cell).astype(np.float64)
    return floats, printed


@dataclass(frozen=True)
class PrintedTable:
    """One printed table.

    Attributes
    ----------
    id, caption, kind : str
        The paper's label (``"Table 5"``), a short caption and one of
        :data:`KINDS`.
    metric : str or None
        A name of :data:`~mlfsbench.evaluation.metrics.GREATER_IS_BETTER`, or
        ``"seconds"``; None for a ``friedman`` table.
    n_features, averaging
        The feature count the values are at, or how they average several.
    decimals : int
        Decimals the paper prints.
    complete : bool
        False when only some cells are known.
    values : DataFrame
        Datasets x methods (a ``friedman`` table: metrics x statistics),
        floats, nan for a cell printed "-" or not known.
    printed : DataFrame
        The same cells as printed (strings).
    sd : DataFrame or None
        Printed standard deviations, same shape.
    totals : dict of str to Series
        Printed summary rows (``"Total wins"``).
    derived : dict
        Numbers the text prints about the table (``source``, ``text``,
        ``values``).
    extra : dict
        Everything else of the entry (``labels``, ``note``, ``from_tables``,
        ``n_methods``, ``n_datasets``, ``alpha``).
    """

    id: str
    caption: str
    kind: str
    metric: str | None
    n_features: int | str | None
    averaging: str | None
    decimals: int
    complete: bool
    values: pd.DataFrame
    printed: pd.DataFrame
    sd: pd.DataFrame | None = None
    totals: dict[str, pd.Series] = field(default_factory=dict)
    derived: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, entry: Mapping[str, Any]) -> PrintedTable:
        """A table from one (schema-valid) entry of a printed file's ``tables``."""
        kind = entry["kind"]
        rows = entry.get("values") or {}
        if kind == "friedman":
            columns = list(dict.fromkeys(c for r in rows.values() for c in r))
        else:
            columns = list(entry["methods"])
        values, printed = _grid(rows, columns)
        if kind == "friedman":
            values.index.name = printed.index.name = "metric"
        sd = _grid(entry["sd"], columns)[0] if "sd" in entry else None
        totals = {name: pd.Series({m: parse_cell(v) for m, v in row.items()},
                                  dtype=np.float64)
                  for name, row in (entry.get("totals") or {}).items()}
        known = {"id", "caption", "kind", "metric", "n_features", "averaging",
                 "decimals", "complete", "methods", "values", "sd", "totals",
                 "derived"}
        return cls(
            id=entry["id"], caption=entry["caption"], kind=kind,
            metric=entry.get("metric"), n_features=entry.get("n_features"),
            averaging=entry.get("averaging"), decimals=int(entry["decimals"]),
            complete=bool(entry.get("complete", True)), values=values,
            printed=printed, sd=sd, totals=totals,
            derived=dict(entry.get("derived") or {}),
            extra={k: v for k, v in entry.items() if k not in known})

    @property
    def methods(self) -> list[str]:
        return [str(c) for c in self.values.columns]

    @property
    def datasets(self) -> list[str]:
        return [str(i) for i in self.values.index]

    @property
    def higher_is_better(self) -> bool:
        """Which end is best: the metric's direction for ``values``; ranks and
        times are best low, wins high."""
        if self.kind == "values":
            return bool(GREATER_IS_BETTER[self.metric])
        if self.kind == "wins":
            return True
        if self.kind in ("ranks", "times"):
            return False
        raise ValueError(f"{self.id}: a {self.kind} table has no best end")

    def frame(self, datasets: Iterable[str] | None = None,
              methods: Iterable[str] | None = None) -> pd.DataFrame:
        """The values restricted to ``datasets`` x ``methods`` (all by default).

        Raises ``ValueError`` naming an unknown dataset or method, or a cell
        the paper does not give (a "-" or a lost cell).
        """
        if self.kind == "friedman":
            raise ValueError(f"{self.id}: a friedman table has no datasets x methods")
        ds = self.datasets if datasets is None else [str(d) for d in datasets]
        ms = self.methods if methods is None else [str(m) for m in methods]
        unknown = [d for d in ds if d not in self.datasets]
        if unknown:
            raise ValueError(f"{self.id} has no row for {unknown}; "
                             f"its datasets: {self.datasets}")
        unknown = [m for m in ms if m not in self.methods]
        if unknown:
            raise ValueError(f"{self.id} has no column for {unknown}; "
                             f"its methods: {self.methods}")
        out = self.values.loc[ds, ms]
        missing = [(d, m) for d in ds for m in ms if not np.isfinite(out.at[d, m])]
        if missing:
            raise ValueError(f"{self.id} prints no number for {missing}")
        return out


@dataclass(frozen=True)
class PrintedStudy:
    """A printed file: ``tables`` by id, in the file's order."""

    study: str
    paper: str
    source: str
    tables: dict[str, PrintedTable]
    not_transcribed: list[dict[str, str]]
    path: str

    def __getitem__(self, table_id: str) -> PrintedTable:
        try:
            return self.tables[table_id]
        except KeyError:
            raise KeyError(f"{self.path} has no table {table_id!r}; "
                           f"it has {list(self.tables)}") from None


def _where(data: Mapping[str, Any], error) -> str:
    """``table 'Table 5'`` for a validation error inside ``tables[i]``."""
    path = list(error.absolute_path)
    if len(path) >= 2 and path[0] == "tables" and isinstance(path[1], int):
        tables = data.get("tables") or []
        entry = tables[path[1]] if path[1] < len(tables) else {}
        name = entry.get("id") if isinstance(entry, Mapping) else None
        inner = "/".join(str(p) for p in path[2:])
        where = f"table {name!r}" if name else f"table #{path[1] + 1}"
        return f"{where}{' at ' + inner if inner else ''}"
    return "/".join(str(p) for p in path) or "top level"


def _check_table(entry: Mapping[str, Any]) -> list[str]:
    """What the schema cannot say about one table: names and precision."""
    problems = []
    kind = entry["kind"]
    metric = entry.get("metric")
    if kind == "friedman":
        for m in entry["values"]:
            if m not in GREATER_IS_BETTER:
                problems.append(f"row {m!r} is not a known metric")
        return problems
    if kind == "times" and metric != "seconds":
        problems.append(f"a times table's metric is 'seconds', not {metric!r}")
    if kind != "times" and metric not in GREATER_IS_BETTER:
        problems.append(f"metric {metric!r} is not one of {sorted(GREATER_IS_BETTER)}")
    methods = list(entry["methods"])
    complete = entry.get("complete", True)
    grids = [("values", entry["values"])]
    if "sd" in entry:
        grids.append(("sd", entry["sd"]))
    for part, grid in grids:
        for d, row in grid.items():
            extra = [m for m in row if m not in methods]
            if extra:
                problems.append(f"{part} row {d!r} has methods {extra} not in "
                                f"methods {methods}")
            if complete and part == "values" and len(row) != len(methods):
                lacking = [m for m in methods if m not in row]
                problems.append(f"row {d!r} lacks {lacking} (set complete: false "
                                "if the paper's cell is lost)")
            for m, cell in row.items():
                value = _number(cell)
                if value is not None and not (math.isfinite(value) and value >= 0):
                    # a printed measure, time, count, rank or s.d. is never
                    # negative nor infinite: a typo that would otherwise turn
                    # a claim "not checkable here" without a word
                    problems.append(f"{part} {d!r}/{m!r} prints {cell!r}: not a "
                                    "finite number >= 0")
                    continue
                dec = _printed_decimals(cell)
                if dec is not None and dec != entry["decimals"]:
                    problems.append(f"{part} {d!r}/{m!r} prints {cell!r}, not "
                                    f"{entry['decimals']} decimals")
    for name, row in (entry.get("totals") or {}).items():
        extra = [m for m in row if m not in methods]
        if extra:
            problems.append(f"totals row {name!r} has methods {extra} not in methods")
    return problems


def load_printed(path: PathLike) -> PrintedStudy:
    """Read and validate a printed file.

    Raises
    ------
    ValueError
        Naming the file and the table: a key repeated in a mapping (with
        both lines), a schema violation, an unknown metric,
        a cell of a method the table does not list, a row lacking a method in
        a complete table, a cell that is negative or not finite, a cell
        printed with other than ``decimals`` decimals, or a duplicate table
        id.
    """
    import jsonschema

    path = os.fspath(path)
    try:  # a repeated key (a dataset row given twice) is an error naming both lines
        data = load_yaml_file(path)
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML: {exc}") from None
    schema = yaml.safe_load(PRINTED_SCHEMA.read_text(encoding="utf-8"))
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as exc:
        where = _where(data if isinstance(data, Mapping) else {}, exc)
        raise ValueError(f"{path}: {where}: {exc.message}") from None
    tables: dict[str, PrintedTable] = {}
    for entry in data["tables"]:
        tid = entry["id"]
        if tid in tables:
            raise ValueError(f"{path}: table {tid!r} appears twice")
        problems = _check_table(entry)
        if problems:
            raise ValueError(f"{path}: table {tid!r}: " + "; ".join(problems))
        tables[tid] = PrintedTable.from_mapping(entry)
    return PrintedStudy(study=data["study"], paper=data["paper"],
                        source=data["source"], tables=tables,
                        not_transcribed=list(data.get("not_transcribed") or []),
                        path=path)


# --------------------------------------------------------------------------
# What the claim rules compute, from the printed numbers
# --------------------------------------------------------------------------
def average_ranks(table: PrintedTable, datasets: Iterable[str] | None = None,
                  methods: Iterable[str] | None = None) -> pd.Series:
    """Average rank of each method over ``datasets`` (1 = best, ties shared).

    Losses rank low values first, gains high ones, by the table's
    :attr:`PrintedTable.higher_is_better`; an average-rank table is ranked
    again per dataset (its smallest entry ranks 1).
    """
    frame = table.frame(datasets, methods)
    R = stats.average_ranks(frame.to_numpy(),
                            higher_is_better=table.higher_is_better)
    return pd.Series(R, index=frame.columns, name="average_rank")


def winners(table: PrintedTable, datasets: Iterable[str] | None = None,
            methods: Iterable[str] | None = None) -> dict[str, list[str]]:
    """The best method(s) of each dataset; every method tied with the best wins."""
    frame = table.frame(datasets, methods)
    best = frame.max(axis=1) if table.higher_is_better else frame.min(axis=1)
    return {str(d): [str(m) for m in frame.columns if frame.at[d, m] == best[d]]
            for d in frame.index}


def win_counts(table: PrintedTable, datasets: Iterable[str] | None = None,
               methods: Iterable[str] | None = None) -> pd.Series:
    """Datasets on which each method is best (:func:`winners`; a tie counts
    for each tied method, as the claims' ``winner`` rule counts ties as best)."""
    frame = table.frame(datasets, methods)
    counts = dict.fromkeys((str(m) for m in frame.columns), 0)
    for best in winners(table, datasets, methods).values():
        for m in best:
            counts[m] += 1
    return pd.Series(counts, name="wins", dtype=np.int64)


def critical_differences(n_methods: int, n_datasets: int,
                         alpha: float = 0.05) -> dict[str, float]:
    """Nemenyi and Bonferroni-Dunn critical differences of average ranks.

    >>> cd = critical_differences(7, 8)
    >>> round(cd["bonferroni-dunn"], 4), round(cd["nemenyi"], 4)
    (2.8496, 3.1845)
    """
    return {test: stats.critical_difference(n_methods, n_datasets, alpha, test)
            for test in ("nemenyi", "bonferroni-dunn")}


def friedman(table: PrintedTable, datasets: Iterable[str] | None = None,
             methods: Iterable[str] | None = None,
             alpha: float = 0.05) -> dict[str, Any]:
    """Friedman and Iman-Davenport tests of the printed values, ties shared.

    Returns a dict: ``n_datasets``, ``n_methods``, ``average_ranks``
    (method -> rank), ``chi2``, ``p_value``, ``F``, ``F_p_value``,
    ``F_critical`` (the ``1 - alpha`` quantile), ``rejected`` and ``cd``
    (:func:`critical_differences`).
    """
    frame = table.frame(datasets, methods)
    res = stats.friedman_test(frame.to_numpy(),
                              higher_is_better=table.higher_is_better, alpha=alpha)
    return {
        "n_datasets": res.n_datasets,
        "n_methods": res.n_methods,
        "average_ranks": {str(m): float(r)
                          for m, r in zip(frame.columns, res.average_ranks,
                                          strict=True)},
        "chi2": res.chi2,
        "p_value": res.p_value,
        "F": res.f_statistic,
        "F_p_value": res.f_p_value,
        "F_critical": res.f_critical,
        "rejected": res.rejected,
        "cd": critical_differences(res.n_methods, res.n_datasets, alpha),
    }


# --------------------------------------------------------------------------
# Printed ties: what the unrounded numbers may have been
# --------------------------------------------------------------------------
def _ordered_partitions(items: tuple[int, ...]):
    """Every weak order of ``items``: a list of blocks, best block first."""
    if not items:
        yield []
        return
    n = len(items)
    for mask in range(1, 2**n):
        block = tuple(items[i] for i in range(n) if mask >> i & 1)
        rest = tuple(items[i] for i in range(n) if not mask >> i & 1)
        for tail in _ordered_partitions(rest):
            yield [block, *tail]


def tie_resolutions(row: Sequence[float], *, higher_is_better: bool = False,
                    max_group: int = 7) -> np.ndarray:
    """Every rank vector the unrounded values behind a printed row can give.

    Rounding keeps the order of values that print differently, and cells that
    print equal may be in any order, equal ones sharing their mean rank: every
    weak order of each group of tied cells. The printed row's own ranks (ties
    shared) are among them.

    Returns
    -------
    ndarray, shape (n_resolutions, len(row))
        Distinct rank vectors, 1 = best, in a fixed order.

    Examples
    --------
    >>> tie_resolutions([0.1, 0.2, 0.1]).tolist()
    [[1.0, 3.0, 2.0], [1.5, 3.0, 1.5], [2.0, 3.0, 1.0]]
    """
    vals = np.asarray(row, dtype=np.float64)
    if vals.ndim != 1 or not np.isfinite(vals).all():
        raise ValueError("a row of finite printed values is needed")
    key = -vals if higher_is_better else vals
    levels = sorted(set(key.tolist()))
    groups = [tuple(np.flatnonzero(key == v).tolist()) for v in levels]
    if max(len(g) for g in groups) > max_group:
        raise ValueError(f"a tie of {max(len(g) for g in groups)} cells has too "
                         f"many orders (max_group={max_group})")
    options = [list(_ordered_partitions(g)) for g in groups]
    out = set()
    for combo in _product(options):
        order = np.empty(vals.size)
        level = 0
        for blocks in combo:
            for block in blocks:
                order[list(block)] = level
                level += 1
        out.add(tuple(stats.rank_table(order[None, :])[0].tolist()))
    return np.array(sorted(out), dtype=np.float64)


def _product(options):
    if not options:
        yield ()
        return
    for first in options[0]:
        for rest in _product(options[1:]):
            yield (first, *rest)


def friedman_tie_range(table: PrintedTable, datasets: Iterable[str] | None = None,
                       methods: Iterable[str] | None = None, alpha: float = 0.05,
                       max_states: int = 500_000) -> dict[str, Any]:
    """Iman-Davenport ``F_F`` over every resolution of the printed ties.

    ``F_F`` depends on the rank sums of the methods only, so the reachable
    rank-sum vectors are built dataset by dataset (each row's
    :func:`tie_resolutions`) and every one is scored.

    Returns a dict: ``printed`` (``F_F`` of the printed values, ties shared),
    ``min``, ``max``, ``values`` (the sorted distinct reachable ``F_F``),
    ``F_critical``, ``n_rejecting`` (how many of ``values`` exceed it).

    Raises ``ValueError`` when more than ``max_states`` rank-sum vectors
    arise (too many printed ties to enumerate).

    Examples
    --------
    >>> t = PrintedTable.from_mapping({
    ...     "id": "T", "caption": "c", "kind": "values", "metric": "ranking_loss",
    ...     "n_features": 1, "decimals": 1, "methods": ["a", "b", "c"],
    ...     "values": {"d1": {"a": "0.1", "b": "0.2", "c": "0.3"},
    ...                "d2": {"a": "0.1", "b": "0.1", "c": "0.3"},
    ...                "d3": {"a": "0.1", "b": "0.3", "c": "0.2"}}})
    >>> r = friedman_tie_range(t)
    >>> round(r["printed"], 3), round(r["min"], 3), round(r["max"], 3)
    (2.8, 1.6, 7.0)
    """
    frame = table.frame(datasets, methods)
    X = frame.to_numpy()
    N, k = X.shape
    states = {(0,) * k}
    for row in X:
        opts = [tuple(int(round(2 * r)) for r in o)
                for o in tie_resolutions(row, higher_is_better=table.higher_is_better)]
        grown: set[tuple[int, ...]] = set()
        for s in states:
            for o in opts:
                grown.add(tuple(a + b for a, b in zip(s, o, strict=True)))
            if len(grown) > max_states:
                raise ValueError(f"{table.id}: more than {max_states} rank-sum "
                                 "vectors from the printed ties")
        states = grown
    fs = set()
    for s in states:
        R = np.asarray(s, dtype=np.float64) / (2.0 * N)
        chi2 = 12.0 * N / (k * (k + 1)) * (float(np.sum(R**2)) - k * (k + 1) ** 2 / 4)
        fs.add(round(stats.iman_davenport(max(chi2, 0.0), N, k, alpha)[0], 12))
    values = np.array(sorted(fs))
    printed = friedman(table, datasets, methods, alpha)
    crit = printed["F_critical"]
    return {"printed": printed["F"], "min": float(values[0]),
            "max": float(values[-1]), "values": values, "F_critical": crit,
            "n_rejecting": int(np.sum(values > crit))}

