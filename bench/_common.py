"""Helpers shared by the ``bench_*.py`` scripts of this folder.

The scripts run as ``python bench/bench_x.py``, which puts this folder on
``sys.path``, so they import it as ``from _common import ...``.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

from mlfsbench.data import Dataset, load_mulan

DEFAULT_SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets"


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
