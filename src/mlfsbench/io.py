"""The ground floor: file formats and atomic output, shared by every layer.

Every stage writes its outputs through :func:`atomic_path`: the content goes to
a temporary file in the destination directory and is renamed over the final
path only once complete, so an interrupted job never leaves a half-written
output behind.

``mkstemp`` creates its file with mode 0600; :func:`atomic_path` gives it the
mode an ordinary ``open`` would (``0666`` less the process umask, so 0644 by
default) before the rename, and folders are created with ``mkdir``'s umask
mode, so colleagues sharing a file system can read the results.

Beside the writers, the names every layer shares: the columns of a metric
table (:data:`METRIC_COLUMNS`), the name of the all-features baseline
(:data:`BASELINE`), the TSV format of every table (:func:`format_table`) and
the reader of selection files (:func:`read_selections`). This module imports
no other module of the package.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the callers that write tables
    import pandas as pd

#: Columns of a metric table (a classify job's file, an experiment's
#: ``metrics.tsv``), in order.
METRIC_COLUMNS = ["dataset", "split", "fold", "selector", "classifier",
                  "n_features", "metric", "value"]
#: The name of the all-features baseline in the tables, the statistics and
#: the claims (and the prefix of its cache ids).
BASELINE = "all-features"


def _umask() -> int:
    """The process umask (read by setting it and restoring it at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, suffix: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it to ``path`` on success.

    The temporary file keeps the final suffix (``np.savez`` and matplotlib
    look at it) and gets the mode of a file created with ``open`` (``0666``
    less the umask), not ``mkstemp``'s private 0600. On error the temporary
    file is removed and ``path`` is left untouched.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix if suffix is None else suffix
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{suffix}",
                               dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
    finally:
        os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        with open(tmp_path, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_text(path: str | os.PathLike, text: str) -> None:
    """Atomically write ``text`` to ``path``."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")


def json_safe(obj: Any) -> Any:
    """``obj`` with every non-finite float (``nan``, ``inf``) as ``None``.

    JSON has no ``NaN`` or ``Infinity`` (Python writes them, strict readers
    refuse them): an Iman-Davenport ``F`` of methods ranked identically on
    every dataset is infinite, a multi-target set's cardinality undefined.
    A dict that loses an infinite value gets a note beside it (key
    ``<key>_note``) saying which infinity it was.

    >>> json_safe({"F": float("inf"), "p": [1.0, float("nan")]})
    {'F': None, 'F_note': 'inf (not representable in JSON)', 'p': [1.0, None]}
    """
    if isinstance(obj, float | np.floating):
        return float(obj) if np.isfinite(obj) else None
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            out[key] = json_safe(value)
            if isinstance(value, float | np.floating) and np.isinf(value):
                out[f"{key}_note"] = (f"{'-' if value < 0 else ''}inf (not "
                                      "representable in JSON)")
        return out
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return json_safe(obj.tolist())
    return obj


def dumps_json(obj: Any) -> str:
    """Serialize ``obj`` deterministically (sorted keys, numpy aware) as
    strict JSON: non-finite floats become ``null`` (:func:`json_safe`)."""
    return json.dumps(json_safe(obj), sort_keys=True, indent=2, allow_nan=False,
                      default=_json_default) + "\n"


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Atomically write ``obj`` as deterministic JSON."""
    write_text(path, dumps_json(obj))


def save_npz(path: str | os.PathLike, **arrays: Any) -> None:
    """Atomically write arrays with :func:`numpy.savez_compressed`."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, **arrays)


def format_table(table: pd.DataFrame) -> str:
    """TSV text with a fixed float format (byte-identical across runs)."""
    return table.to_csv(sep="\t", index=False, float_format="%.10g",
                        lineterminator="\n")


#: The only text read as a missing value in our tables: the empty cell (what
#: :func:`format_table` writes for ``NaN``). pandas' default list would read a
#: dataset or method named ``NA``, ``nan``, ``null`` or ``None`` as missing.
NA_VALUES = [""]


def read_table(path: str | os.PathLike, **kwargs: Any) -> pd.DataFrame:
    """A TSV table written by :func:`format_table`; only an empty cell is
    missing (:data:`NA_VALUES`), so every name keeps its text."""
    import pandas as pd

    return pd.read_csv(path, sep="\t", keep_default_na=False, na_values=NA_VALUES,
                       **kwargs)


def without_methods(table: pd.DataFrame, methods: Any) -> pd.DataFrame:
    """``table`` without the rows of ``methods`` (ids in its ``selector`` or
    ``classifier`` column): a challenge experiment's tables seen as the
    paper's methods only. ``table`` itself when ``methods`` is empty.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"selector": ["a", "b", "a"], "classifier": ["c", "c", "x"]})
    >>> without_methods(t, ["b", "x"])["selector"].tolist()
    ['a']
    """
    methods = set(methods or ())
    if not methods:
        return table
    keep = None
    for column in ("selector", "classifier"):
        if column in table.columns:
            out = ~table[column].astype(str).isin(methods)
            keep = out if keep is None else keep & out
    return table if keep is None else table[keep].reset_index(drop=True)


def read_selections(path: str | os.PathLike) -> list[dict]:
    """The per-fold records of a selection file (batch or single fold)."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return data["records"] if "records" in data else [data]
