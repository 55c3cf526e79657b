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

Cached results carry a checksum beside them (issue 29, S7): a writer given
``checksum=True`` first writes ``<file>.sha256`` (the sha256 of the bytes
about to be written, in ``sha256sum``'s format, so ``sha256sum -c`` checks it
in the file's folder), then the file, both atomically; :func:`read_checked`
reads a result's bytes once, hashes them and compares, and raises
:class:`CacheIntegrityError` naming the file, both checksums and the way to
recover when they differ. A result without a checksum file (written before
checksums were recorded) is read, with one warning per reading stage
(:func:`warn_unrecorded`); it is not recorded on read, since nothing tells
whether it is still what its job wrote.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

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
#: Suffix of the checksum file beside a cached result.
CHECKSUM_SUFFIX = ".sha256"

log = logging.getLogger(__name__)


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


def write_bytes(path: str | os.PathLike, data: bytes, *,
                checksum: bool = False) -> None:
    """Atomically write ``data`` to ``path``; with ``checksum``, first its
    sha256 to ``<path>.sha256`` (:func:`checksum_path`).

    The checksum file goes first: a job killed between the two writes leaves
    a checksum without its file (Snakemake reruns the job), never a result
    without its checksum.
    """
    path = Path(path)
    if checksum:
        digest = hashlib.sha256(data).hexdigest()
        with atomic_path(checksum_path(path)) as tmp:
            tmp.write_bytes(f"{digest}  {path.name}\n".encode())
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text(path: str | os.PathLike, text: str, *,
               checksum: bool = False) -> None:
    """Atomically write ``text`` to ``path`` (UTF-8; ``checksum``: see
    :func:`write_bytes`)."""
    write_bytes(path, text.encode("utf-8"), checksum=checksum)


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


def write_json(path: str | os.PathLike, obj: Any, *, checksum: bool = False) -> None:
    """Atomically write ``obj`` as deterministic JSON (``checksum``: see
    :func:`write_bytes`)."""
    write_text(path, dumps_json(obj), checksum=checksum)


def save_npz(path: str | os.PathLike, *, checksum: bool = False,
             **arrays: Any) -> None:
    """Atomically write arrays with :func:`numpy.savez_compressed`
    (``checksum``: see :func:`write_bytes`; the archive is then built in
    memory, the same bytes, and hashed there)."""
    if checksum:
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        write_bytes(path, buffer.getvalue(), checksum=True)
        return
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


def read_table(path: str | os.PathLike | IO[bytes], **kwargs: Any) -> pd.DataFrame:
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


def read_selections(path: str | os.PathLike,
                    unrecorded: list[Path] | None = None) -> list[dict]:
    """The per-fold records of a selection file (batch or single fold),
    checked against its recorded checksum (:func:`read_checked`)."""
    data = json.loads(read_checked(path, unrecorded))
    return data["records"] if "records" in data else [data]


# ------------------------------------------------------------------ checksums
class CacheIntegrityError(ValueError):
    """A cached result differs from the checksum recorded when it was written
    (or its checksum file is unreadable)."""


def file_sha256(path: str | os.PathLike, *, recorded: bool = False) -> str:
    """The sha256 of a file's bytes; with ``recorded``, the checksum written
    beside it (:func:`recorded_checksum`, the job's own record of a cached
    file) when there is one, which spares reading a large output again."""
    if recorded:
        digest = recorded_checksum(path)
        if digest is not None:
            return digest
    sha = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def checksum_path(path: str | os.PathLike) -> Path:
    """The checksum file of a result: ``<path>.sha256``."""
    path = Path(path)
    return path.with_name(path.name + CHECKSUM_SUFFIX)


def _recovery(path: Path) -> str:
    return (f"to recompute it, rm -f '{path}' '{checksum_path(path)}' and rerun "
            "the workflow (mlfsbench run, with the same arguments)")


def recorded_checksum(path: str | os.PathLike) -> str | None:
    """The sha256 recorded beside ``path`` (None without a checksum file)."""
    path = Path(path)
    record = checksum_path(path)
    try:
        text = record.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    digest = text.split(maxsplit=1)[0].lower() if text.strip() else ""
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise CacheIntegrityError(
            f"{record}: not a sha256 record of {path.name} (expected '<64 hex "
            f"digits>  {path.name}', found {text[:80]!r}); {_recovery(path)}")
    return digest


def read_checked(path: str | os.PathLike,
                 unrecorded: list[Path] | None = None) -> bytes:
    """The bytes of a cached result, read once and checked against the
    sha256 recorded beside it when it was written.

    A difference raises :class:`CacheIntegrityError` naming the file, both
    checksums and how to recover. A result without a checksum file (written
    before checksums were recorded) is returned as read and appended to
    ``unrecorded``, for the caller to warn once (:func:`warn_unrecorded`);
    without that list the warning is logged at once.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{path}: missing (a cached result this stage reads); rerun the "
            "workflow (mlfsbench run, with the same arguments) to regenerate "
            "it") from None
    recorded = recorded_checksum(path)
    if recorded is None:
        if unrecorded is None:
            warn_unrecorded([path])
        else:
            unrecorded.append(path)
        return data
    actual = hashlib.sha256(data).hexdigest()
    if actual != recorded:
        raise CacheIntegrityError(
            f"{path}: changed since its job wrote it (sha256 {recorded[:16]}... "
            f"recorded in {checksum_path(path).name}, the file's is "
            f"{actual[:16]}...); {_recovery(path)}")
    return data


def verify_files(paths: Sequence[str | os.PathLike | None],
                 unrecorded: list[Path] | None = None) -> None:
    """:func:`read_checked` of each file given (None: skipped); those without
    a checksum go to ``unrecorded``, or, without it, into one warning."""
    found: list[Path] = [] if unrecorded is None else unrecorded
    for path in paths:
        if path is not None:
            read_checked(path, found)
    if unrecorded is None:
        warn_unrecorded(found)


def warn_unrecorded(paths: Sequence[str | os.PathLike]) -> None:
    """One warning for results read without a recorded checksum (none: no
    warning)."""
    if not paths:
        return
    shown = ", ".join(str(p) for p in paths[:3])
    more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
    log.warning(
        "%d cached result(s) have no recorded checksum (written before checksums "
        "were recorded, or the .sha256 file was deleted) and are used "
        "unverified: %s%s. To have them checked, delete them and rerun the "
        "workflow: their jobs write them again with a checksum.",
        len(paths), shown, more)
