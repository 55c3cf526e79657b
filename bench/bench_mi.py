"""Benchmark: all feature x label mutual information on the medical dataset.

Times :func:`mlfsbench.infotheory.mutual_information_matrix` (all pairs at
once) against the obvious baseline, one call of
``sklearn.feature_selection.mutual_info_classif(X, y, discrete_features=True)``
per label, checks that both give the same values (bits, to 1e-10) and prints
the speed-up.

Usage::

    .venv/bin/python bench/bench_mi.py [--shared PATH] [--repeats N]

``PATH`` is the shared datasets folder holding ``multi-label/medical/``
(default: ``../shared/datasets`` next to the project, or the environment
variable ``MLFS_SHARED_DATASETS``).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from pathlib import Path

import arff
import numpy as np
import scipy.sparse as sp
from sklearn.feature_selection import mutual_info_classif

from mlfsbench.infotheory import mutual_information_matrix

DEFAULT_SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets"


def load_medical(shared: Path) -> tuple[sp.csr_matrix, np.ndarray]:
    """Sparse features and dense labels of Mulan's medical (labels come last)."""
    folder = shared / "multi-label" / "medical"
    arff_path, xml_path = folder / "medical.arff", folder / "medical.xml"
    for path in (arff_path, xml_path):
        if not path.exists():
            raise FileNotFoundError(f"{path}: not found (use --shared PATH)")
    n_labels = len(re.findall(r"<label\s", xml_path.read_text(encoding="utf-8")))
    with open(arff_path, encoding="utf-8") as fh:
        data = arff.load(fh, encode_nominal=True, return_type=arff.COO)
    values, rows, cols = data["data"]
    shape = (max(rows) + 1, len(data["attributes"]))
    M = sp.csr_matrix((np.asarray(values, dtype=float), (rows, cols)), shape=shape)
    X = sp.csr_matrix(M[:, :-n_labels]).astype(np.int64)
    Y = M[:, -n_labels:].toarray().astype(np.uint8)
    return X, Y


def best_time(fn, repeats: int):
    """Smallest wall time over ``repeats`` calls, and the last result."""
    best, out = math.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def baseline(X, Y) -> np.ndarray:
    """``mutual_info_classif`` per label, converted from nats to bits."""
    columns = [
        mutual_info_classif(X, Y[:, k], discrete_features=True)
        for k in range(Y.shape[1])
    ]
    return np.column_stack(columns) / math.log(2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--shared", type=Path,
        default=Path(os.environ.get("MLFS_SHARED_DATASETS", DEFAULT_SHARED)),
        help="shared datasets folder (holds multi-label/medical/)",
    )
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed repeats of the fast method (best is kept)")
    args = parser.parse_args(argv)

    X, Y = load_medical(args.shared)
    print(f"medical: {X.shape[0]} samples x {X.shape[1]} features "
          f"({X.nnz} non-zeros), {Y.shape[1]} labels "
          f"-> {X.shape[1] * Y.shape[1]} pairs")

    t_ours, ours = best_time(lambda: mutual_information_matrix(X, Y), args.repeats)
    t_base, ref = best_time(lambda: baseline(X, Y), 1)

    err = float(np.abs(ours - ref).max())
    print(f"mutual_information_matrix:           {t_ours:.4f} s")
    print(f"mutual_info_classif, once per label: {t_base:.4f} s")
    print(f"max |difference| (bits): {err:.3e}")
    if not np.allclose(ours, ref, rtol=0, atol=1e-10):
        print("FAIL: the two computations differ by more than 1e-10", file=sys.stderr)
        return 1
    print("speedup mutual_information_matrix vs mutual_info_classif-per-label: "
          f"{t_base / t_ours:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
