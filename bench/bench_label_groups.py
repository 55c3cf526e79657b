"""Benchmark: the whole Group-JMI-Rand fit, today's code against its baseline.

Issue #30's hot spot "Group-JMI-Rand's cell terms on many-label sets": on
cal500 (502 x 68, 174 labels, 5 equal-width bins) with one BLAS thread
about half the fit was the label quantization (174 k-medoids runs) and half
the JMI steps (``conditional_mutual_information_matrix``, 49 calls). Today's
code, with the same operations on the same numbers where it matters:

- label groups: binary labelsets packed into 64-bit words (distinct rows by
  ``lexsort``, Hamming distances by popcount), PAM's swap terms on byte
  distances summed by single-precision products (integers below ``2**23``:
  exact), the nearest two medoids by ``argmin``, the alternate step's cluster
  totals in one product;
- JMI steps: :class:`~mlfsbench.estimators.information.entropy.FixedTargets`
  (the contingency tables from per-``z`` dense products of the indicators,
  the cell terms computed and summed per target in cache, in the order of
  the general path's sums).

Baseline: ``bench/_group_jmi_baseline.py``, the label quantization and
``jmi_forward`` as of commit 962426a, timed in the same run, alternately,
best of ``--repeats`` (CPU seconds, one BLAS thread, as a select job). The
rankings, scores, relevance and every group's medoids must be equal bit for
bit, for both criteria (the study's readings).

Usage::

    .venv/bin/python bench/bench_label_groups.py [--shared PATH]
        [--dataset NAME ...] [--repeats N] [--target X]
"""

from __future__ import annotations

import argparse
import sys
import time

import _group_jmi_baseline as baseline
import numpy as np
from _common import add_shared_argument, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.estimators.discretizers.unsupervised import make_discretizer
from mlfsbench.estimators.selectors.jmi import GroupJMIRand

CRITERIA = ("paper", "released-code")


def fit(cls, X, Y, criterion: str):
    start = time.process_time()
    sel = cls(random_state=0, criterion=criterion).fit(X, Y)
    return time.process_time() - start, sel


def same(a, b) -> bool:
    return (np.array_equal(a.ranking_, b.ranking_)
            and np.array_equal(a.scores_, b.scores_, equal_nan=True)
            and np.array_equal(a.relevance_, b.relevance_)
            and all(np.array_equal(x, y) for x, y in zip(
                a.label_groups_.medoids_, b.label_groups_.medoids_, strict=True)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "<name>")
    parser.add_argument("--dataset", nargs="+", default=["cal500", "enron"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--target", type=float, default=3.0,
                        help="speed-up the first dataset must reach")
    args = parser.parse_args(argv)
    ok, ratios = True, []
    for name in args.dataset:
        ds = load_shared(args.shared, name)
        X = ds.X.toarray() if hasattr(ds.X, "toarray") else np.asarray(ds.X)
        X = make_discretizer("equal-width", 5).fit_transform(np.asarray(X, float))
        Y = ds.Y
        print(f"{name}: {X.shape[0]} x {X.shape[1]}, {Y.shape[1]} labels")
        t_new = t_old = 0.0
        for criterion in CRITERIA:
            best = {"new": np.inf, "old": np.inf}
            equal = True
            with threadpool_limits(limits=1):
                for _ in range(args.repeats):  # alternately, best of N
                    t, old = fit(baseline.GroupJMIRand, X, Y, criterion)
                    best["old"] = min(best["old"], t)
                    t, new = fit(GroupJMIRand, X, Y, criterion)
                    best["new"] = min(best["new"], t)
                    equal &= same(new, old)
            ok &= equal
            t_new += best["new"]
            t_old += best["old"]
            print(f"  {criterion}: today {best['new']:.2f} CPU s, baseline "
                  f"{best['old']:.2f} CPU s: {best['old'] / best['new']:.2f}x; "
                  f"equal selections and medoids: {equal}")
        ratios.append(t_old / t_new)
        print(f"speedup group-jmi-rand fit vs baseline on {name} (both "
              f"criteria): {t_old / t_new:.2f}x")
    if not ok:
        print("FAIL: the outputs differ", file=sys.stderr)
        return 1
    if ratios and ratios[0] < args.target:
        print(f"target MISSED ({ratios[0]:.2f}x < {args.target:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
