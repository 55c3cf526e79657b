"""Benchmark: all feature x label mutual information on the medical dataset.

Times :func:`mlfsbench.estimators.information.entropy.mutual_information_matrix` (all
pairs at
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
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from _common import add_shared_argument, best_time, load_shared
from sklearn.feature_selection import mutual_info_classif

from mlfsbench.estimators.information.entropy import mutual_information_matrix


def load_medical(shared: Path) -> tuple[sp.csr_matrix, np.ndarray]:
    """Sparse 0/1 features (int64 codes) and dense uint8 labels of medical."""
    ds = load_shared(shared, "medical")
    return sp.csr_matrix(ds.X).astype(np.int64), ds.Y


def baseline(X, Y) -> np.ndarray:
    """``mutual_info_classif`` per label, converted from nats to bits."""
    columns = [
        mutual_info_classif(X, Y[:, k], discrete_features=True)
        for k in range(Y.shape[1])
    ]
    return np.column_stack(columns) / math.log(2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "medical")
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
