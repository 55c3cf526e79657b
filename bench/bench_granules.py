"""Benchmark: Li 2017's per-granule ML-kNN, shared searches vs one path per granule.

One fold (fold 0 of 10-fold CV, seed 0) of enron: granular mRMR ranks the
features per granule (``--granules``, default 53: one per label), then ML-kNN
(``k=10, s=1``, raw distances: the favoured reading of li2017) is fitted per
granule at every count of enron's grid (10..150 by 10, 200, 250, 300, all),
as the workflow's classify stage does. Two paths, timed alternately in the
same process (best of ``--repeats``, wall and CPU time: the CPU time of one
thread is the steadier on a shared machine):

- **per granule** (the code before): ``PathMixin.predict_granules``, one
  ``predict_path`` per granule, keys in double precision
  (``neighbours.index.SINGLE_KEYS = False``);
- **shared**: ``MLkNN.predict_granules``, which scales the fold once,
  searches a feature subset that several granules use once for all of them,
  and keeps the binary words' integer keys in single precision.

Prints both times, the ratio, and whether predictions and scores are equal
bit for bit (they must be). yeast (Mulan train part, dense, 14 labels, a
random 4-granule partition with its own rankings and ``all``) is checked for
equality too.

Usage::

    .venv/bin/python bench/bench_granules.py [--shared PATH] [--granules N]
        [--repeats N] [--threads T]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from _common import add_shared_argument, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.data.split import make_splits
from mlfsbench.estimators.classifiers import MLkNN
from mlfsbench.estimators.classifiers._base import PathMixin
from mlfsbench.estimators.neighbours import _select, index
from mlfsbench.workflow.folds import grid_sizes, select_fold

GRID = [*range(10, 151, 10), 200, 250, 300, "all"]


def enron_granules(shared, n_granules: int):
    """Fold 0 of enron and the ``(labels, column_sets)`` of each granule."""
    ds = load_shared(shared, "enron")
    train, test = make_splits({"type": "kfold", "k": 10, "seed": 0}, ds.Y)[0]
    record = select_fold(ds.X[train], ds.Y[train], ds.feature_names,
                         method="granular-mrmr",
                         params={"granules": n_granules,
                                 "n_features_to_select": 300}, seed=0)
    sizes = grid_sizes(GRID, ds.X.shape[1])
    granules = [(np.asarray(g["labels"]),
                 [np.sort(np.asarray(g["ranking"])[:k]) for _, k in sizes])
                for g in record["granules"]]
    return ds.X[train], ds.Y[train], ds.X[test], granules


def yeast_granules(shared, n_granules: int = 4, seed: int = 0):
    """yeast's training part split in two, random granules and rankings."""
    ds = load_shared(shared, "yeast", ("train", "test"))
    X, Y = np.asarray(ds.X[~ds.is_test], dtype=float), ds.Y[~ds.is_test]
    rng = np.random.default_rng(seed)
    labels = np.array_split(rng.permutation(Y.shape[1]), n_granules)
    sizes = [k for _, k in grid_sizes([5, 20, 50, "all"], X.shape[1])]
    granules = [(np.sort(g), [np.sort(rng.permutation(X.shape[1])[:k])
                              for k in sizes]) for g in labels]
    return X[:1000], Y[:1000], X[1000:], granules


def before(clf, *fold):
    """The per-granule loop with double-precision keys (the code before)."""
    flags = ((index, "SINGLE_KEYS"), (index, "READY_KEYS"),
             (_select, "COMPILED_SEARCH"))
    for module, flag in flags:
        setattr(module, flag, False)
    try:
        return PathMixin.predict_granules(clf, *fold)
    finally:
        for module, flag in flags:
            setattr(module, flag, True)


def equal(a, b) -> bool:
    """Every prediction and score equal, bit for bit."""
    return all(np.array_equal(pa, pb) and np.array_equal(sa, sb)
               for ga, gb in zip(a, b, strict=True)
               for (pa, sa), (pb, sb) in zip(ga, gb, strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "enron")
    parser.add_argument("--granules", type=int, default=53)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    with threadpool_limits(limits=args.threads):
        return _run(args)


def _run(args) -> int:
    clf = MLkNN(k=10, s=1.0, scale=False, random_state=0)
    yeast = yeast_granules(args.shared)
    same = equal(before(clf, *yeast),
                 clf.predict_granules(*yeast))
    print("yeast, 4 granules, scaled and raw: equal: ", end="")
    scaled = MLkNN(k=10, s=1.0, random_state=0)
    same_scaled = equal(before(scaled, *yeast),
                        scaled.predict_granules(*yeast))
    print(same and same_scaled)

    fold = enron_granules(args.shared, args.granules)
    print(f"enron fold 0: train {fold[0].shape}, test {fold[2].shape[0]}, "
          f"{len(fold[3])} granules x {len(fold[3][0][1])} feature counts; "
          f"ML-kNN k=10, s=1, raw; {args.threads} thread(s)")
    runs = {"per granule": lambda: before(clf, *fold),
            "shared": lambda: clf.predict_granules(*fold)}
    wall = dict.fromkeys(runs, np.inf)
    cpu = dict.fromkeys(runs, np.inf)
    out = {}
    for _ in range(args.repeats):  # alternately: the same machine load
        for name, run in runs.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            out[name] = run()
            cpu[name] = min(cpu[name], time.process_time() - start_cpu)
            wall[name] = min(wall[name], time.perf_counter() - start)
    for name in runs:
        print(f"{name}: {wall[name]:.2f} s wall, {cpu[name]:.2f} s CPU "
              f"(best of {args.repeats})")
    print(f"ratio per granule / shared: {wall['per granule'] / wall['shared']:.2f}x "
          f"wall, {cpu['per granule'] / cpu['shared']:.2f}x CPU")
    enron_same = equal(out["per granule"], out["shared"])
    print(f"enron predictions and scores equal bit for bit: {enron_same}")
    return 0 if (same and same_scaled and enron_same) else 1


if __name__ == "__main__":
    sys.exit(main())
