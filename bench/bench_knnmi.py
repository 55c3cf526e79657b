"""Benchmark: greedy forward kNN-MI selection of 20 features on scene's training part.

Ours: :func:`mlfsbench.estimators.information.knn.forward_selection` (incremental
squared-distance
matrix, neighbour lists with exact bounds, candidates vectorized). Baseline
("naive"): for every candidate feature, the neighbour distances of the subset
``selected + [candidate]`` are recomputed from scratch with
``sklearn.neighbors.NearestNeighbors`` (whole set and one fit per class), as a
direct implementation of Eq. 7 would do.

The naive baseline is too slow to run in full (20 steps x ~290 candidates),
so at every step it is timed on ``--naive-candidates`` randomly chosen
candidates (same subsets as ours) and its time is extrapolated to all of that
step's candidates; its estimates are checked against ours on those
candidates. Data: scene-train.arff (1211 x 294, 6 labels), PPT with p = 12,
K = 4, features standardized.

Usage::

    .venv/bin/python bench/bench_knnmi.py [--shared PATH] [--steps 20]
        [--naive-candidates 8] [--n-jobs 1]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from _common import add_shared_argument, load_shared
from sklearn.neighbors import NearestNeighbors

from mlfsbench.estimators.information.knn import (
    forward_selection,
    mi_from_log_sums,
    prepare_features,
)
from mlfsbench.estimators.transformations.lp import PrunedProblemTransformation


def naive_mi(Z: np.ndarray, y: np.ndarray, features: list[int], k: int) -> float:
    """Eq. 7 with every neighbour search redone by NearestNeighbors."""
    X = Z[:, features]

    def log_kth(A):
        dist, _ = NearestNeighbors(n_neighbors=k).fit(A).kneighbors()
        return np.log(np.maximum(dist[:, -1] ** 2, np.finfo(float).tiny)).sum()

    classes, counts = np.unique(y, return_counts=True)
    log_class = sum(log_kth(X[y == c]) for c in classes)
    return float(mi_from_log_sums(log_kth(X), log_class, counts, len(features)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "scene")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--naive-candidates", type=int, default=8,
                        help="candidates per step on which the baseline is timed")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--p", type=int, default=12, help="PPT pruning parameter")
    args = parser.parse_args(argv)

    ds = load_shared(args.shared, "scene", ("train",))
    classes = PrunedProblemTransformation(p=args.p).fit_transform(ds.Y)
    keep = classes >= 0
    Z = prepare_features(ds.X[keep], random_state=0)
    y = classes[keep]
    k = 4
    print(f"scene train: {ds.X.shape[0]} x {ds.X.shape[1]}, {ds.Y.shape[1]} labels; "
          f"PPT p={args.p}: {Z.shape[0]} samples, {len(np.unique(y))} classes; "
          f"K={k}, {args.steps} forward steps, n_jobs={args.n_jobs}")

    start = time.perf_counter()
    order, path, _ = forward_selection(Z, y, k=k, n_steps=args.steps,
                                       n_jobs=args.n_jobs)
    t_ours = time.perf_counter() - start
    print(f"ours (incremental): {t_ours:.2f} s; selected {order.tolist()}")

    rng = np.random.default_rng(0)
    t_naive, max_err = 0.0, 0.0
    for step in range(args.steps):
        selected = order[:step].tolist()
        remaining = np.setdiff1d(np.arange(Z.shape[1]), selected)
        sample = rng.choice(remaining, min(args.naive_candidates, remaining.size),
                            replace=False)
        if step < args.steps and order[step] not in sample:
            sample[0] = order[step]  # check the chosen feature's value too
        begin = time.perf_counter()
        values = [naive_mi(Z, y, selected + [int(j)], k) for j in sample]
        elapsed = time.perf_counter() - begin
        t_naive += elapsed / len(sample) * remaining.size
        chosen = values[list(sample).index(order[step])]
        max_err = max(max_err, abs(chosen - path[step]))
        if max(values) > path[step] + 1e-9:
            print(f"FAIL: step {step}: a sampled candidate beats ours", file=sys.stderr)
            return 1
    print(f"naive (NearestNeighbors from scratch per candidate): {t_naive:.1f} s, "
          f"EXTRAPOLATED from {args.naive_candidates} timed candidates per step "
          "to all candidates of every step")
    print(f"max |ours - naive| on the chosen features: {max_err:.2e} nats")
    if max_err > 1e-8:
        print("FAIL: ours and the naive estimate differ", file=sys.stderr)
        return 1
    print("speedup knnmi forward_selection vs NearestNeighbors-from-scratch: "
          f"{t_naive / t_ours:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
