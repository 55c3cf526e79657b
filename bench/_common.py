"""Helpers shared by the ``bench_*.py`` scripts of this folder.

The scripts run as ``python bench/bench_x.py``, which puts this folder on
``sys.path``, so they import it as ``from _common import ...``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
import types
from pathlib import Path

from mlfsbench.data import Dataset, load_mulan

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = ROOT / ".." / "shared" / "datasets"
_REGISTER = re.compile(r"^@register\(.*\)\n", re.MULTILINE)


def add_shared_argument(parser: argparse.ArgumentParser, holds: str) -> None:
    """``--shared PATH``: the datasets folder (default: env, else next to us)."""
    parser.add_argument(
        "--shared", type=Path,
        default=Path(os.environ.get("MLFS_SHARED_DATASETS", DEFAULT_SHARED)),
        help=f"shared datasets folder (holds multi-label/{holds}/)",
    )


def load_shared(shared: Path, name: str, parts: tuple[str, ...] = ()) -> Dataset:
    """Mulan dataset ``name`` from ``shared/multi-label/<name>/``.

    ``parts=()`` loads ``<name>.arff``; ``parts=("train", "test")`` loads
    ``<name>-train.arff`` and ``<name>-test.arff`` (``is_test`` marks the
    latter's rows). Raises ``FileNotFoundError`` naming a missing file.
    """
    folder = shared / "multi-label" / name
    arffs = [folder / f"{name}-{part}.arff" for part in parts] or [
        folder / f"{name}.arff"
    ]
    xml = folder / f"{name}.xml"
    for path in (*arffs, xml):
        if not path.exists():
            raise FileNotFoundError(f"{path}: not found (use --shared PATH)")
    return load_mulan(arffs, xml, name=name)


def best_time(fn, repeats: int):
    """Smallest wall time over ``repeats`` calls, and the last result."""
    best, out = math.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def module_at(commit: str, path: str, *, replace: dict[str, str] | None = None,
              imports: dict[str, types.ModuleType] | None = None,
              name: str | None = None) -> types.ModuleType:
    """The module ``path`` of this repository as of ``commit``, read from git.

    A benchmark's baseline: the code at a named commit, loaded at run time
    (``git show commit:path``) and executed into a fresh module, so that
    the benchmark times it against today's code in the same run; no copy
    of old code stays in the tree.

    - Every ``@register(...)`` line is removed (the old classes must not
      replace today's in the estimator registry).
    - ``replace``: more text replacements, ``{old: new}``; each ``old``
      must occur in the source (a stale replacement fails loudly).
    - ``imports``: ``{dotted name: module}`` seen by the old module's
      imports while it executes (a temporary ``sys.modules`` entry, the
      previous one restored afterwards): point its import of a sibling
      module at that sibling loaded by this function at the same commit.
      Other imports reach today's package.

    The module is registered in ``sys.modules`` under ``name`` (default
    ``"<stem>_at_<commit>"``), as classes and dataclasses expect.
    Raises ``subprocess.CalledProcessError`` when git or the commit is not
    there (a shallow clone: fetch the history first).
    """
    text = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout
    text = _REGISTER.sub("", text)
    for old, new in (replace or {}).items():
        if old not in text:
            raise ValueError(f"{commit}:{path} does not contain {old!r}")
        text = text.replace(old, new)
    name = name or f"{Path(path).stem}_at_{commit}"
    module = types.ModuleType(name)
    module.__file__ = f"{commit}:{path}"
    saved = {key: sys.modules.get(key) for key in (imports or {})}
    sys.modules[name] = module
    try:
        sys.modules.update(imports or {})
        exec(compile(text, module.__file__, "exec"), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    finally:
        for key, previous in saved.items():
            if previous is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = previous
    return module
