"""The workflow's raw files: where each comes from, and their re-verification.

A raw file ``data/raw/{dataset}/{file}`` (:func:`raw_files` names a
dataset's files) is downloaded once (checksummed,
protected) and then read by every later run. :func:`verify_raw_files` checks
before each run that the files are still the ones the datasets table names:
cheaply, by size and modification time, against a record of the last full
check; fully (the sha256 of the content) when the file is new to the record
or has changed. A file whose content no longer matches fails the run, naming
the file, before any job reads it.

The URL is looked up here at download time (:func:`raw_file_source`) and is
not a rule parameter: the checksum, not the URL, identifies the data, so a
new URL for the same bytes neither downloads again nor recomputes anything.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from mlfsbench.data.download import GIT_BLOB, git_blob_id
from mlfsbench.data.rdata import is_r_data
from mlfsbench.data.table import DatasetSpec, read_datasets_table
from mlfsbench.io import write_json

log = logging.getLogger(__name__)

#: File name under ``data/raw/{dataset}/`` -> role in the datasets table
#: (the whole file is ``whole.rda`` when it is an R data file).
RAW_FILE_ROLES = {"whole.arff": "arff", "whole.rda": "arff", "train.arff": "train",
                  "test.arff": "test", "labels.xml": "xml"}
_RE_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_RE_GIT_BLOB = re.compile(r"^git-blob:[0-9a-f]{40}$")


class RawFileChanged(ValueError):
    """A raw file no longer matches the checksum of the datasets table."""


def raw_files(spec: DatasetSpec) -> dict[str, tuple[str, str]]:
    """``file name -> (url, checksum)`` of a dataset's raw files.

    The names are those of :data:`RAW_FILE_ROLES`; the whole file is
    ``whole.rda`` when its URL names an R data file (``.rda``), so that the
    prepare stage reads it by its suffix, else ``whole.arff``.

    Examples
    --------
    >>> spec = DatasetSpec("llog", arff_url="https://e.org/data/langlog.rda",
    ...                    arff_sha256="0" * 64)
    >>> list(raw_files(spec))
    ['whole.rda']
    """
    files = spec.files()
    whole = "whole.arff"
    if "arff" in files and is_r_data(urlsplit(files["arff"][0]).path):
        whole = "whole.rda"
    names = {"arff": whole, "train": "train.arff", "test": "test.arff",
             "xml": "labels.xml"}
    return {names[role]: source for role, source in files.items()}


def raw_file_source(table: str | os.PathLike, dataset: str,
                    file: str) -> tuple[str, str]:
    """``(url, sha256)`` of one raw file of ``dataset`` in the datasets table."""
    specs = {s.name: s for s in read_datasets_table(table)}
    if dataset not in specs:
        raise ValueError(f"{table}: no dataset {dataset!r}")
    files = raw_files(specs[dataset])
    if file not in files:
        raise ValueError(f"{table}: dataset {dataset!r} has no {file}")
    return files[file]


def file_sha256(path: str | os.PathLike) -> str:
    """The sha256 (hex) of a file's content, read in chunks."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _git_blob_checksum(path: str | os.PathLike) -> str:
    """``git-blob:<id>``, the form the datasets table gives a git blob id."""
    return GIT_BLOB + git_blob_id(path)


def _stamp(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def verify_raw_files(files: Iterable[tuple[str | os.PathLike, str]],
                     record: str | os.PathLike) -> list[Path]:
    """Check raw files against their expected sha256; return those hashed.

    Parameters
    ----------
    files : iterable of (path, sha256)
        The raw files and the checksums the datasets table gives them (a
        sha256, or ``git-blob:<id>`` checked by the file's git blob id); paths
        that do not exist yet are skipped (they will be downloaded).
    record : path
        JSON record of the last full check of each file: its size,
        modification time and inode with the sha256 found. A file whose
        stamp and expected sha256 match its entry is not read again.

    Raises
    ------
    RawFileChanged
        If a file's content does not have the expected sha256; the message
        names the file, both checksums and how to recover.
    """
    record = Path(record)
    try:
        known = json.loads(record.read_text(encoding="utf-8"))
        if not isinstance(known, dict):
            known = {}
    except (OSError, ValueError):
        known = {}
    hashed, changed = [], False
    for path, expected in files:
        path = Path(path)
        expected = expected.lower()
        try:
            st = path.stat()
        except FileNotFoundError:
            continue
        if _RE_SHA256.match(expected):
            kind, digest = "sha256", file_sha256
        elif _RE_GIT_BLOB.match(expected):  # a file known by its git blob id
            kind, digest = "git blob id", _git_blob_checksum
        else:
            continue  # another kind of checksum: verified at download only
        key = str(path)
        entry = known.get(key)
        if entry == {"stamp": _stamp(st), "sha256": expected}:
            continue
        actual = digest(path)
        hashed.append(path)
        if actual != expected and entry and entry.get("sha256") == actual:
            raise RawFileChanged(
                f"{path}: the datasets table's {kind} "
                f"{expected.removeprefix(GIT_BLOB)} differs from the one the "
                f"file was verified against ({actual.removeprefix(GIT_BLOB)}): "
                f"the table changed, not the file. Restore the table's checksum, "
                f"or if the new one is right delete the file (rm -f {path}) to "
                f"download it again"
            )
        if actual != expected:
            raise RawFileChanged(
                f"{path}: content changed since it was downloaded: {kind} "
                f"{actual.removeprefix(GIT_BLOB)}, the datasets table expects "
                f"{expected.removeprefix(GIT_BLOB)}; delete the "
                f"file (rm -f {path}) to download it again"
            )
        known[key] = {"stamp": _stamp(st), "sha256": expected}
        changed = True
    if changed:
        write_json(record, known)
        log.info("verified %d raw file(s) by their sha256", len(hashed))
    return hashed
