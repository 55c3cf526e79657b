"""The finished folds of a batch job, kept until the job has written its output.

A select or classify job runs every fold of its batch (10 hold-outs, or 30)
and writes one file at the end. Stopped part-way (its session ended, a
cluster's time limit, out of memory, Ctrl-C), it used to lose every fold it
had finished: on Lee & Kim (2016)'s glmfit batches an hour or more of work.
Now each fold's result is stored as it finishes, in ``<output>.folds/``,
under the job's identity (:func:`job_identity`): the version of the code
that computes it, the sha256 of every input file, the method, its
parameters, the grid, the seed and the cache keys. A restarted job whose
identity is the same takes the stored folds and computes only the others;
one whose identity differs (new code, parameters or inputs) clears the folder
first, so a stored fold is never used for another job. The folder is
removed once the job's output is written.

A stored fold is the exact result the fold's function returned (pickled),
written atomically with its sha256 beside it; one that fails its checksum
or was written under another identity is computed again, with a warning.
The store only skips work: the job's output is the same whether its folds
came from one attempt or several (tested).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import shutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlfsbench.io import (
    CacheIntegrityError,
    dumps_json,
    file_sha256,
    read_checked,
    write_bytes,
    write_text,
)

__all__ = ["FoldStore", "job_identity", "kept_folds", "run_fold"]

log = logging.getLogger(__name__)

_KEY_FILE = "identity.json"


def job_identity(stage: str, version: str, files: Mapping[str, Any],
                 **fields: Any) -> dict[str, Any]:
    """What a job's stored folds depend on: its ``stage``, the ``version``
    of its code (the rule's ``code`` parameter), the sha256 of each input
    file in ``files`` (role -> path; None for an input the job does not
    have) and every other argument in ``fields`` (JSON-able)."""
    digests = {role: None if path is None else file_sha256(path, recorded=True)
               for role, path in files.items()}
    return {"stage": stage, "version": version, "inputs": digests, **fields}


@dataclass(frozen=True)
class FoldStore:
    """The folder of one job's finished folds (picklable: worker processes
    write to it)."""

    directory: str
    key: str
    identity: str

    @classmethod
    def open(cls, out: str | os.PathLike, identity: Mapping[str, Any]) -> FoldStore:
        """The store of the job writing ``out``: ``<out>.folds/``, removed
        when it holds another identity's folds (made when a first fold is
        stored: a job that fails before leaves nothing)."""
        directory = Path(f"{out}.folds")
        text = dumps_json(dict(identity))
        key = hashlib.sha256(text.encode()).hexdigest()
        try:
            stored = (directory / _KEY_FILE).read_text(encoding="utf-8")
        except OSError:
            stored = None
        if stored != text and directory.exists():
            log.info("%s: folds of an earlier job with other code, inputs or "
                     "parameters; cleared", directory)
            shutil.rmtree(directory)
        return cls(str(directory), key, text)

    def _path(self, fold: int) -> Path:
        return Path(self.directory) / f"fold{int(fold)}.pickle"

    def load(self, fold: int) -> tuple[bool, Any]:
        """``(True, result)`` of a stored fold, ``(False, None)`` otherwise."""
        path = self._path(fold)
        if not path.exists():
            return False, None
        try:
            key, result = pickle.loads(read_checked(path, []))
        except (CacheIntegrityError, pickle.UnpicklingError, EOFError,
                ValueError, TypeError) as err:
            log.warning("%s: not usable (%s); fold %d is computed again",
                        path, err, fold)
            return False, None
        if key != self.key:
            log.warning("%s: stored under another job's identity; fold %d is "
                        "computed again", path, fold)
            return False, None
        return True, result

    def save(self, fold: int, result: Any) -> None:
        """Store a fold's result (atomically, with its sha256)."""
        data = pickle.dumps((self.key, result), protocol=pickle.HIGHEST_PROTOCOL)
        key_file = Path(self.directory) / _KEY_FILE
        if not key_file.exists():  # the first fold stored (workers: same text)
            write_text(key_file, self.identity)
        write_bytes(self._path(fold), data, checksum=True)

    def close(self) -> None:
        """Remove the folder (the job's output is written)."""
        shutil.rmtree(self.directory, ignore_errors=True)


@contextmanager
def kept_folds(out: str | os.PathLike, version: str | None, stage: str,
               files: Mapping[str, Any], **fields: Any) -> Iterator[FoldStore | None]:
    """The fold store of the job writing ``out`` (:meth:`FoldStore.open` with
    :func:`job_identity`), removed when the ``with`` block ends normally,
    that is once the output is written; kept when it raises, for the next
    attempt. None (no store) when ``version`` is None."""
    if version is None:
        yield None
        return
    store = FoldStore.open(out, job_identity(stage, version, files, **fields))
    yield store
    store.close()


def run_fold(store: FoldStore | None, fold: int, func: Callable[..., Any],
             *args: Any, needs: tuple[str | os.PathLike, ...] = ()) -> Any:
    """``func(*args)``, the result of ``fold``: taken from ``store`` when
    it holds it (and every file in ``needs``, written beside the result by
    the earlier attempt, still exists), else computed and stored."""
    if store is not None and all(os.path.exists(p) for p in needs):
        found, result = store.load(fold)
        if found:
            log.info("fold %d: finished by an earlier attempt of this job; "
                     "taken from %s", fold, store.directory)
            return result
    result = func(*args)
    if store is not None:
        store.save(fold, result)
    return result
