"""Benchmark: the pairwise criteria's step over all candidates at once.

CMIM, DISR, ICAP, CIFE and mRMR (``selectors/_pairwise.py``) on yeast's
training part (1 500 x 103 features in 5 equal-width bins, 14 labels),
``--steps`` greedy steps (default 50), one BLAS thread:

- **baseline** (named ``a table per candidate``), ``--baseline-steps``
  steps (default 10; it takes minutes after BR): CMIM's step as a loop
  over the candidates and targets, one contingency table per (candidate,
  selected feature, target) triple, each computed once and kept, as
  FEAST's C code does -- here with the package's one-pair
  :func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information`;
- **ours**: one
  :func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`
  call per step for every candidate and target.

The script checks that both select the same features, prints the speed-up
for CMIM after LP and after BR, then the time of every criterion after BR,
LP and PPT for ``--steps`` steps.

Usage::

    .venv/bin/python bench/bench_pairwise.py [--shared PATH] [--steps N] [--repeats N]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _common import add_shared_argument, best_time, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.estimators import registry
from mlfsbench.estimators.discretizers.unsupervised import make_discretizer
from mlfsbench.estimators.information.entropy import (
    conditional_mutual_information,
    mutual_information,
)
from mlfsbench.estimators.selectors._pairwise import transformed_targets

CRITERIA = ("cmim", "disr", "icap", "cife", "mrmr")


def fit(name, X, Y, steps, transformation):
    sel = registry.create("selector", name, {"n_features_to_select": steps,
                                             "transformation": transformation})
    return sel.fit(X, Y)


def cmim_per_candidate(X, Y, steps, transformation):
    """CMIM's greedy order with one table per (candidate, selected, target)."""
    _, T = transformed_targets(Y, transformation)
    p, q = X.shape[1], T.shape[1]
    rel = np.array([sum(mutual_information(X[:, k], T[:, i]) for i in range(q))
                    for k in range(p)])
    low = np.full((p, q), np.inf)
    selected = [int(np.argmax(rel))]
    while len(selected) < steps:
        s = selected[-1]
        best, best_k = -np.inf, -1
        for k in range(p):
            if k in selected:
                continue
            for i in range(q):
                low[k, i] = min(low[k, i], conditional_mutual_information(
                    X[:, k], T[:, i], X[:, s]))
            score = low[k].sum()
            if best_k < 0 or score > best + 1e-10 * max(1.0, abs(best)):
                best, best_k = score, k
        selected.append(best_k)
    return selected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "yeast")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--baseline-steps", type=int, default=10,
                        help="steps of the CMIM comparison (the baseline is slow)")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    ds = load_shared(args.shared, "yeast", ("train", "test"))
    train = ~np.asarray(ds.is_test)
    X = make_discretizer("equal-width", 5).fit_transform(np.asarray(ds.X)[train])
    Y = np.asarray(ds.Y)[train]
    print(f"yeast: {X.shape[0]} x {X.shape[1]} features (5 equal-width bins), "
          f"{Y.shape[1]} labels, {args.steps} greedy steps, 1 thread")
    status = 0
    with threadpool_limits(limits=1):
        steps = args.baseline_steps
        for transformation in ("lp", "br"):
            ours_s, ours = best_time(
                lambda t=transformation: fit("cmim", X, Y, steps, t), args.repeats)
            base_s, base = best_time(
                lambda t=transformation: cmim_per_candidate(X, Y, steps, t), 1)
            same = ours.ranking_[:steps].tolist() == base
            print(f"  cmim-{transformation}, {steps} steps: all candidates at once "
                  f"{ours_s:.2f} s, "
                  f"a table per candidate {base_s:.2f} s; same selection: {same}")
            print(f"speedup cmim-{transformation} all candidates at once vs a "
                  f"table per candidate: {base_s / ours_s:.1f}x", flush=True)
            status |= not same
        print(f"every criterion, {args.steps} steps:")
        for name in CRITERIA:
            times = []
            for transformation in ("br", "lp", "ppt"):
                seconds, _ = best_time(
                    lambda n=name, t=transformation: fit(n, X, Y, args.steps, t),
                    args.repeats)
                times.append(f"{transformation} {seconds:.2f} s")
            print(f"  {name}: " + ", ".join(times), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
