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

Baseline: Group-JMI-Rand as of commit 962426a, read from git at run time
(:func:`baseline`: ``selectors/jmi.py`` with the label quantization of
``transformations/label_groups.py`` and the information measures of
``information/entropy.py`` at that commit), timed in the same run,
alternately, best of ``--repeats`` (CPU seconds, one BLAS thread, as a
select job). The rankings, scores, relevance and every group's medoids must
be equal bit for bit, for both criteria (the study's readings).

Usage::

    .venv/bin/python bench/bench_label_groups.py [--shared PATH]
        [--dataset NAME ...] [--repeats N] [--target X]
"""

from __future__ import annotations

import argparse
import sys
import time
import types

import numpy as np
from _common import add_shared_argument, load_shared, module_at
from threadpoolctl import threadpool_limits

from mlfsbench.estimators.discretizers.unsupervised import make_discretizer
from mlfsbench.estimators.selectors.jmi import GroupJMIRand

CRITERIA = ("paper", "released-code")
BASELINE = "962426a"
ESTIMATORS = "mlfsbench.estimators"
SRC = "src/mlfsbench/estimators"


def baseline(commit: str = BASELINE) -> types.SimpleNamespace:
    """Group-JMI-Rand at ``commit``, from git: ``jmi.py`` on that commit's
    ``label_groups.py`` and ``entropy.py`` (its other imports: today's).

    The namespace holds ``GroupJMIRand`` and ``jmi_forward`` (``jmi.py``)
    and ``LabelGroups``, ``k_medoids``, ``distinct_rows`` and
    ``target_distances`` (``label_groups.py``).
    """
    entropy = module_at(commit, f"{SRC}/information/entropy.py")
    groups = module_at(commit, f"{SRC}/transformations/label_groups.py")
    jmi = module_at(commit, f"{SRC}/selectors/jmi.py", imports={
        f"{ESTIMATORS}.information.entropy": entropy,
        f"{ESTIMATORS}.transformations.label_groups": groups})
    return types.SimpleNamespace(
        commit=commit, GroupJMIRand=jmi.GroupJMIRand, jmi_forward=jmi.jmi_forward,
        LabelGroups=groups.LabelGroups, k_medoids=groups.k_medoids,
        distinct_rows=groups.distinct_rows, target_distances=groups.target_distances)


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
    old_code = baseline()
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
                    t, old = fit(old_code.GroupJMIRand, X, Y, criterion)
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
        print(f"speedup group-jmi-rand fit vs baseline {BASELINE} on {name} (both "
              f"criteria): {t_old / t_new:.2f}x")
    if not ok:
        print("FAIL: the outputs differ", file=sys.stderr)
        return 1
    if ratios and ratios[0] < args.target:
        print(f"target MISSED ({ratios[0]:.2f}x < {args.target:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
