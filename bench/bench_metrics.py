"""Benchmark: the evaluation of one grid point on delicious' scale.

A classify job scores every fold at every feature count with
:func:`mlfsbench.evaluation.metrics.evaluate` (12 bipartition and 5 ranking
measures). On delicious (983 labels, 3 221 test instances of an 80/20
hold-out) that was most of a job's time: the ranking measures each sorted the
``(n, q)`` score matrix again, and each measure checked its 0/1 inputs with
``np.isin``. ``evaluate`` now ranks once for the five and passes its checked
arrays on. The named baseline is one call per measure on the raw arrays
(what ``evaluate`` did before: each call validates and ranks again; the
``np.isin`` check is gone from both, so the ratio understates the change);
both must give the same values bit for bit.

Data: random labels at delicious' density (19 of 983 labels per instance on
average) and scores with ties (probabilities rounded to 3 decimals, as BR-LR's
saturated outputs tie), so no dataset file is needed.

Usage::

    .venv/bin/python bench/bench_metrics.py [--repeats N] [--n N] [--q Q]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _common import best_time

from mlfsbench.evaluation import metrics as M


def per_measure(T, P, S) -> dict[str, float]:
    """The baseline: every measure of ``METRICS`` called on its own."""
    return {name: getattr(M, name)(T, S if info["needs_score"] else P)
            for name, info in M.METRICS.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n", type=int, default=3221, help="test instances")
    parser.add_argument("--q", type=int, default=983, help="labels")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    density = 19.0 / 983
    T = (rng.random((args.n, args.q)) < density).astype(np.uint8)
    S = np.round(rng.random((args.n, args.q)) ** 4, 3)
    P = (S > 0.5).astype(np.uint8)

    base_s, base = best_time(lambda: per_measure(T, P, S), args.repeats)
    ours_s, ours = best_time(lambda: M.evaluate(T, P, S), args.repeats)
    if base != ours:
        bad = [k for k in base if base[k] != ours[k]]
        print(f"MISMATCH in {bad}", file=sys.stderr)
        return 1
    print(f"evaluate, {args.n} x {args.q} labels, 17 measures: "
          f"{ours_s:.3f} s; one call per measure (baseline) {base_s:.3f} s; "
          f"speed-up {base_s / ours_s:.1f}x; values identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
