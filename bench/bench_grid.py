"""Benchmark: ``predict_path`` over K = 1..50 against today's per-K loop.

One fold (50/50 hold-out, seed 0) of yeast (dense, 103 features) and bibtex
(sparse binary, 1836 features); the features ranked by a fixed random
permutation (seed 0), so the column sets ``np.sort(ranking[:k])`` are nested
as in the workflow. For each classifier:

- **baseline** (named ``per-K loop``): the classify stage's loop before
  ``predict_path``, a fresh ``clone`` fitted per K, then ``predict`` and
  ``predict_proba`` (ML-kNN and BRkNN search the test part twice per K);
  for BR-LR also the loop with ``solver="lbfgs"`` (one scikit-learn model
  per label, as before the batched solver);
- **ours**: one ``predict_path`` call (the k-NN learners validate and scale
  the fold once and search the test part once per K; BR-LR warm-starts its
  batched solver from the previous K).

For the k-NN learners the baseline also runs with their search before
``EuclideanIndex``, scikit-learn's ``NearestNeighbors`` (:class:`SklearnIndex`):
that is the loop as the workflow ran it until 2026-11-24. Measured
2026-11-25 (best of 2, 1 thread, machine to itself): ML-kNN's path against
that loop 1.95x on yeast, 2.29x on enron, 5.28x on bibtex, 10.6x on medical
(against the loop with the new search: 1.36-1.58x); BRkNN-b's 2.36x, 2.51x,
5.50x, 11.0x. With the keys of binary features accumulated along the path
(``NestedKeys``, same day, best of 2, machine to itself): ML-kNN against the
loop with the new search 1.52x on yeast (continuous: unchanged), 1.95x on
enron, 1.77x on medical, 1.90x on bibtex; against the old loop 1.93x,
2.90x, 11.65x, 7.67x. After the faster candidate counting of
``smallest_k`` and the integer keys of exact features (2026-11-25, best of 2,
machine to itself): ML-kNN's path 2.31x on yeast and 4.03x on bibtex against
the old loop, 1.49x and 3.03x against the loop with the new search. The
outputs equal the old loop's except where equal distances were kept in
another order (99.97 % of ML-kNN's predictions on bibtex, 98.6 % on enron).

Both run in the same process, one BLAS/OpenMP thread, best of ``--repeats``
(the order alternates between repeats: loop first, then path first); the
script checks that the outputs agree (exactly for the k-NN learners; for
BR-LR it prints the largest score difference and the share of equal
predictions) and prints the speed-up per classifier and dataset (target
>= 2x).

Measured for BR-LR (best of 2 repeats, on a loaded machine): yeast per-K loop
0.21 s, predict_path 0.16 s, per-label scikit-learn loop 2.5 s; bibtex
1.7 s, 1.7 s and 43 s (before the faster batched solver: 7.0 s, 3.9 s and
42 s). The batched fits are now so cheap on bibtex that the test-part
predictions (about 0.4 s for K = 1..50) weigh as much as the warm start
saves.

Usage::

    .venv/bin/python bench/bench_grid.py [--shared PATH] [--repeats N]
        [--datasets yeast bibtex enron medical] [--classifiers mlknn brknn-b br-lr]
        [--kmax 50]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time

import numpy as np
from _common import add_shared_argument, load_shared
from sklearn import config_context
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from mlfsbench.estimators import neighbours, registry
from mlfsbench.estimators.classifiers import _base
from mlfsbench.estimators.classifiers._base import PathMixin

PARAMS = {"mlknn": {"k": 7}, "brknn-a": {"k": 5}, "brknn-b": {"k": 5},
          "knn-reg": {"k": 10}, "br-lr": {"penalty": "none"}}


def per_k_loop(clf, X_train, Y_train, X_test, sets):
    """The per-K loop of the classify stage: a fresh fit for every K.

    That is the default ``PathMixin.predict_path``, which every classifier
    overrides with its shared-work version.
    """
    return PathMixin.predict_path(clf, X_train, Y_train, X_test, sets)


class SklearnIndex:
    """The k-NN learners' search before ``EuclideanIndex``: scikit-learn's.

    ``NearestNeighbors`` (brute force: ``ArgKmin`` for dense data,
    ``np.argpartition`` for sparse), leave-one-out by querying ``k + 1`` and
    dropping the own index (or, when duplicates push it out, the last).
    Equal distances are kept in the order those algorithms leave them, so
    the outputs equal ``EuclideanIndex``'s only where no distances tie.
    """

    def __init__(self, X):
        self.nn = NearestNeighbors(metric="euclidean").fit(X)

    def kneighbors(self, Q, k, *, exclude_self=False):
        with config_context(working_memory=neighbours.SEARCH_MEMORY_MIB):
            nb = self.nn.kneighbors(Q, n_neighbors=k + exclude_self,
                                    return_distance=False)
        if not exclude_self:
            return nb
        own = nb == np.arange(nb.shape[0])[:, np.newaxis]
        own[~own.any(axis=1), -1] = True
        return nb[~own].reshape(nb.shape[0], k)


@contextlib.contextmanager
def sklearn_search():
    """Run the k-NN learners with :class:`SklearnIndex` (the named baseline):
    the name their mixin (``classifiers._base``) indexes with is swapped."""
    saved = _base.EuclideanIndex
    _base.EuclideanIndex = SklearnIndex
    try:
        yield
    finally:
        _base.EuclideanIndex = saved


def fold(shared, name):
    """One 50/50 hold-out fold (seed 0) and the nested column sets."""
    ds = load_shared(shared, name)
    rng = np.random.RandomState(0)
    rows = rng.permutation(ds.X.shape[0])
    half = len(rows) // 2
    train, test = np.sort(rows[:half]), np.sort(rows[half:])
    ranking = rng.permutation(ds.X.shape[1])
    return ds.X[train], ds.Y[train], ds.X[test], ranking


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "yeast/ and bibtex")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--kmax", type=int, default=50)
    parser.add_argument("--datasets", nargs="+", default=["yeast", "bibtex"])
    parser.add_argument("--classifiers", nargs="+",
                        default=["mlknn", "brknn-b", "br-lr"])
    args = parser.parse_args(argv)
    with threadpool_limits(limits=args.threads):
        for name in args.datasets:
            try:
                X_train, Y_train, X_test, ranking = fold(args.shared, name)
            except FileNotFoundError as err:
                print(err, file=sys.stderr)
                return 1
            sets = [np.sort(ranking[:k]) for k in range(1, args.kmax + 1)]
            print(f"{name}: train {X_train.shape}, test {X_test.shape[0]}, "
                  f"{Y_train.shape[1]} labels, K = 1..{args.kmax}, "
                  f"{args.threads} thread(s)", flush=True)
            for clf_name in args.classifiers:
                _compare(name, clf_name, X_train, Y_train, X_test, sets, args.repeats)
    return 0


def _compare(name, clf_name, X_train, Y_train, X_test, sets, repeats):
    clf = registry.create("classifier", clf_name, PARAMS.get(clf_name, {}),
                          random_state=0)
    best_loop = best_path = np.inf
    for i in range(repeats):  # alternate the order, so load changes hit both
        for run in ("path", "loop") if i % 2 else ("loop", "path"):
            start = time.perf_counter()
            if run == "loop":
                ref = per_k_loop(clf, X_train, Y_train, X_test, sets)
                best_loop = min(best_loop, time.perf_counter() - start)
            else:
                got = clf.predict_path(X_train, Y_train, X_test, sets)
                best_path = min(best_path, time.perf_counter() - start)
    if clf_name != "br-lr":  # the loop as it was, with scikit-learn's search
        with sklearn_search():
            _against_before(name, clf_name, "with scikit-learn's search (before "
                            "EuclideanIndex)", best_path, got,
                            lambda: per_k_loop(clf, X_train, Y_train, X_test, sets))
    exact = all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
                for a, b in zip(got, ref, strict=True))
    diff = max(float(np.abs(a[1] - b[1]).max()) for a, b in zip(got, ref,
                                                               strict=True))
    same = np.mean([np.mean(a[0] == b[0]) for a, b in zip(got, ref, strict=True)])
    print(f"  {clf_name}: per-K loop {best_loop:.2f} s, predict_path "
          f"{best_path:.2f} s; outputs identical: {exact} (max |score diff| "
          f"{diff:.2g}, equal predictions {same:.4%})")
    print(f"speedup {clf_name} predict_path vs per-K loop on {name}: "
          f"{best_loop / best_path:.2f}x", flush=True)
    if clf_name == "br-lr":  # today's loop fitted scikit-learn models per label
        lbfgs = clf.set_params(solver="lbfgs")
        _against_before(name, clf_name, "of per-label LogisticRegression "
                        "(solver=lbfgs, before the batched solver)", best_path, got,
                        lambda: per_k_loop(lbfgs, X_train, Y_train, X_test, sets))


def _against_before(name, clf_name, what, best_path, got, run_before):
    """Time the loop as it was (``run_before``) and print the path's ratio."""
    start = time.perf_counter()
    old = run_before()
    elapsed = time.perf_counter() - start
    same = np.mean([np.mean(a[0] == b[0]) for a, b in zip(got, old, strict=True)])
    print(f"  {clf_name}: per-K loop {what}: {elapsed:.2f} s; equal predictions "
          f"{same:.4%}")
    print(f"speedup {clf_name} predict_path vs per-K loop {what} on {name}: "
          f"{elapsed / best_path:.2f}x", flush=True)

if __name__ == "__main__":
    sys.exit(main())
