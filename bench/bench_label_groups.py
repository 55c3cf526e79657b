"""Benchmark: Group-JMI-Rand on cal500, PAM swaps updated per swap vs recomputed.

Profile of one Group-JMI-Rand fit on cal500 (502 x 68, 174 labels, one
thread): nine tenths of the time is the label quantization -- 174 k-medoids
runs on about 500 distinct labelsets each -- not the JMI cell terms. Each PAM
swap recomputed the change of every (medoid, candidate) swap from every point,
``O(k u^2)``; a swap moves the nearest or second nearest medoid of few points,
and with Hamming distances and integer counts the sums are exact in any order,
so :func:`~mlfsbench.estimators.transformations.label_groups.k_medoids` now
takes out and puts back the terms of those points only (``incremental=True``).

Ours: the whole fit (targets and forward selection) with the default. Baseline
("full swaps"): the same fit with ``k_medoids(..., incremental=False)``, today's
code, in the same run. The selections (ranking, scores) and every group's
medoids must be equal bit for bit. One BLAS thread, as a select job.

Usage::

    .venv/bin/python bench/bench_label_groups.py [--shared PATH] [--dataset NAME]
        [--repeats N]
"""

from __future__ import annotations

import argparse
import functools
import sys
import time

import numpy as np
from _common import add_shared_argument, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.estimators.discretizers.unsupervised import make_discretizer
from mlfsbench.estimators.selectors.jmi import GroupJMIRand
from mlfsbench.estimators.transformations import label_groups


def fit(X, Y, incremental: bool):
    original = label_groups.k_medoids
    label_groups.k_medoids = functools.partial(original, incremental=incremental)
    try:
        start = time.process_time()
        sel = GroupJMIRand(random_state=0).fit(X, Y)
        return time.process_time() - start, sel
    finally:
        label_groups.k_medoids = original


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "cal500")
    parser.add_argument("--dataset", default="cal500")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--target", type=float, default=3.0,
                        help="speed-up the run must reach")
    args = parser.parse_args(argv)
    ds = load_shared(args.shared, args.dataset)
    X = ds.X.toarray() if hasattr(ds.X, "toarray") else np.asarray(ds.X)
    X = make_discretizer("equal-width", 5).fit_transform(np.asarray(X, float))
    Y = ds.Y
    print(f"{args.dataset}: {X.shape[0]} x {X.shape[1]}, {Y.shape[1]} labels")
    with threadpool_limits(limits=1):
        t_ours = min(fit(X, Y, True)[0] for _ in range(args.repeats))
        t_base = min(fit(X, Y, False)[0] for _ in range(args.repeats))
        _, ours = fit(X, Y, True)
        _, base = fit(X, Y, False)
    same = (np.array_equal(ours.ranking_, base.ranking_)
            and np.array_equal(ours.scores_, base.scores_, equal_nan=True)
            and all(np.array_equal(a, b) for a, b in zip(
                ours.label_groups_.medoids_, base.label_groups_.medoids_,
                strict=True)))
    ratio = t_base / t_ours
    print(f"group-jmi-rand fit, incremental swaps: {t_ours:.2f} CPU s")
    print(f"group-jmi-rand fit, full swaps:        {t_base:.2f} CPU s")
    print(f"speedup: {ratio:.2f}x (target >= {args.target:g}x); "
          f"equal selections and medoids: {same}")
    if not same:
        print("FAIL: the outputs differ", file=sys.stderr)
        return 1
    if ratio < args.target:
        print(f"target MISSED ({ratio:.2f}x < {args.target:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
