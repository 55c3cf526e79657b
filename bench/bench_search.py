"""Benchmark: the compiled neighbour selection against the NumPy one (issue #30).

ML-kNN's K path (``k=10, s=1``, K = 1..50 features of a random ranking, one
70/30 split, seed 0), as a classify job runs it, on four Mulan sets: yeast
and scene (continuous, scaled; the Euclidean index), enron and medical
(binary words; the accumulated integer keys). Two runs of the same code,
alternately, best of ``--repeats``, one BLAS thread:

- **NumPy** (the baseline): ``neighbours._select.COMPILED_SEARCH = False``, the
  selection by group minima and the keys summed before it, as before the
  compiled search;
- **compiled**: ``_smallest_k_rows``, one pass per row that also adds the
  training norms as it reads.

Prints both times and the ratio per set, and whether predictions and scores
are equal bit for bit (they must be; the exit status says so).

Usage::

    .venv/bin/python bench/bench_search.py [--shared PATH] [--repeats N]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from _common import add_shared_argument, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.estimators.classifiers import MLkNN
from mlfsbench.estimators.neighbours import _select as neighbours

#: (dataset, parts of its Mulan files, min-max scaling)
SETS = [("yeast", (), True), ("scene", ("train", "test"), True),
        ("enron", (), False), ("medical", (), True)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "yeast, scene, enron, medical")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    ok = True
    with threadpool_limits(limits=1):
        for name, parts, scale in SETS:
            try:
                ds = load_shared(args.shared, name, parts)
            except FileNotFoundError as err:
                print(err, file=sys.stderr)
                return 1
            ok &= _one(name, ds, scale, args.repeats)
    return 0 if ok else 2


def _one(name: str, ds, scale: bool, repeats: int) -> bool:
    rng = np.random.RandomState(0)
    rows = rng.permutation(ds.X.shape[0])
    cut = int(0.7 * len(rows))
    train, test = np.sort(rows[:cut]), np.sort(rows[cut:])
    ranking = rng.permutation(ds.X.shape[1])
    sets = [np.sort(ranking[:k]) for k in range(1, min(50, ds.X.shape[1]) + 1)]
    fold = (ds.X[train], ds.Y[train], ds.X[test], sets)
    best = {False: math.inf, True: math.inf}
    out = {}
    for _ in range(repeats):
        for compiled in (False, True):
            neighbours.COMPILED_SEARCH = compiled
            try:
                start = time.perf_counter()
                out[compiled] = MLkNN(k=10, s=1.0, scale=scale,
                                      random_state=0).predict_path(*fold)
                best[compiled] = min(best[compiled], time.perf_counter() - start)
            finally:
                neighbours.COMPILED_SEARCH = True
    equal = all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
                for a, b in zip(out[False], out[True], strict=True))
    print(f"{name} ({ds.X.shape[0]} x {ds.X.shape[1]}, {'scaled' if scale else 'raw'}"
          f", K = 1..{len(sets)}): NumPy {best[False]:.2f} s, compiled "
          f"{best[True]:.2f} s, ratio {best[False] / best[True]:.2f}x; equal bit "
          f"for bit: {equal}", flush=True)
    return equal


if __name__ == "__main__":
    sys.exit(main())
