"""Benchmark: BR-LR's feature-subset path on one delicious fold (issue #30).

Lee & Kim (2016)'s protocol on delicious (16 105 x 500, 983 labels): one
80/20 hold-out fold (seed 0), the features as the workflow's 2-bin codes
(``input: codes``; delicious' features are 0/1 already, so the codes are the
features, a dense ``uint8`` array), unregularised BR-LR, and the path of the
``lee2016`` grid: n = 1, 5, 10, ..., 50 and all 500 features. The ranking is
the training part's word frequency (a stand-in for a selector's; any ranking
gives the same kind of path: eleven small fits and the 500-feature one).

Times ``BRLogisticRegression.predict_path`` of the current code against the
named baseline, ``bench/_br_lr_baseline.py`` (the module before the path
speed-up, commit 8753e23), alternately, ``--repeats`` times each (best
time), in one process with one BLAS thread, and checks that both return
bitwise equal predictions and scores.

Usage::

    .venv/bin/python bench/bench_br_lr.py [--shared PATH] [--repeats N]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
import scipy.sparse as sp
from _br_lr_baseline import BRLogisticRegression as BaselineBRLR
from _common import add_shared_argument, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.estimators.classifiers.br_lr import BRLogisticRegression


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "delicious")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        ds = load_shared(args.shared, "delicious")
    except FileNotFoundError as err:
        print(err, file=sys.stderr)
        return 1
    X = sp.csr_matrix(ds.X).toarray().astype(np.uint8)  # the 2-bin codes
    Y = np.asarray(ds.Y, dtype=np.int64)
    rng = np.random.RandomState(0)
    rows = rng.permutation(X.shape[0])
    cut = int(round(0.8 * len(rows)))
    train, test = np.sort(rows[:cut]), np.sort(rows[cut:])
    X_train, Y_train, X_test = X[train], Y[train], X[test]
    ranking = np.argsort(-X_train.sum(axis=0), kind="stable")
    sizes = [1, *range(5, 51, 5), X.shape[1]]
    sets = [np.sort(ranking[:k]) for k in sizes]
    print(f"delicious: {X.shape[0]} x {X.shape[1]}, {Y.shape[1]} labels; train "
          f"{len(train)}, test {len(test)}; path n = {sizes}; "
          f"{args.threads} thread(s)", flush=True)
    best = {"baseline": math.inf, "current": math.inf}
    out = {}
    with threadpool_limits(limits=args.threads):
        for _ in range(args.repeats):
            for name, cls in (("baseline", BaselineBRLR),
                              ("current", BRLogisticRegression)):
                start = time.perf_counter()
                out[name] = cls(penalty="none").predict_path(
                    X_train, Y_train, X_test, sets)
                best[name] = min(best[name], time.perf_counter() - start)
                print(f"  {name}: {time.perf_counter() - start:.2f} s", flush=True)
    equal = all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
                for a, b in zip(out["baseline"], out["current"], strict=True))
    diff = max(float(np.abs(a[1] - b[1]).max())
               for a, b in zip(out["baseline"], out["current"], strict=True))
    print(f"BR-LR path on delicious, best of {args.repeats}: baseline "
          f"{best['baseline']:.2f} s, current {best['current']:.2f} s; "
          f"bitwise equal predictions and scores: {equal} (max |score diff| "
          f"{diff:.3g})")
    print(f"speedup br-lr path (current vs baseline 8753e23): "
          f"{best['baseline'] / best['current']:.2f}x", flush=True)
    return 0 if equal else 2


if __name__ == "__main__":
    sys.exit(main())
