"""Benchmark: ML-kNN on yeast (Mulan train/test split) against scikit-multilearn.

Times ``fit`` + ``predict`` + ``predict_proba`` of
:class:`mlfsbench.estimators.classifiers.MLkNN` and of ``skmultilearn.adapt.MLkNN``
(both
``k=10, s=1.0``; best of ``--repeats`` runs, in the same process) on yeast's
1500 training and 917 test instances (103 features, 14 labels), and prints the
speed-up and how often the two agree.

Both run with the same number of BLAS/OpenMP threads (``--threads``, default
1, so that the neighbour search both share does not depend on what else the
machine is running) and get the same min-max scaled features (ours scales
internally; the scaled matrices are handed to scikit-multilearn). Two
agreements are printed: with scikit-multilearn's default, whose training
neighbours include the instance itself (a systematic difference from Zhang &
Zhou's leave-one-out estimate, which Mulan and ours follow), and with its
training neighbours excluding self (``ignore_first_neighbours=1`` at fit, reset
to 0 before predicting), which is the same model.

Usage::

    .venv/bin/python bench/bench_mlknn.py [--shared PATH] [--repeats N] [--threads T]

``PATH`` is the shared datasets folder holding ``multi-label/yeast/`` (default:
the environment variable ``MLFS_SHARED_DATASETS``, else ``../shared/datasets``
next to the project).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _common import add_shared_argument, best_time, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.estimators.classifiers import MLkNN


def load_yeast(shared):
    """Dense features and 0/1 int64 labels of yeast's Mulan train and test parts."""
    ds = load_shared(shared, "yeast", ("train", "test"))
    X, Y = np.asarray(ds.X, dtype=np.float64), ds.Y.astype(np.int64)
    return X[~ds.is_test], Y[~ds.is_test], X[ds.is_test], Y[ds.is_test]


def run_ours(X_train, Y_train, X_test):
    clf = MLkNN(k=10, s=1.0, random_state=0).fit(X_train, Y_train)
    return clf.predict(X_test), clf.predict_proba(X_test)


def run_skmultilearn(X_train, Y_train, X_test, ignore_self=False):
    from skmultilearn.adapt import MLkNN as SkMLkNN

    clf = SkMLkNN(k=10, s=1.0, ignore_first_neighbours=int(ignore_self))
    clf.fit(X_train, Y_train)
    clf.ignore_first_neighbours = 0
    return clf.predict(X_test).toarray(), clf.predict_proba(X_test).toarray()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "yeast")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS/OpenMP threads for both implementations")
    args = parser.parse_args(argv)
    with threadpool_limits(limits=args.threads):
        return _run(args)


def _run(args) -> int:

    X_train, Y_train, X_test, _ = load_yeast(args.shared)
    print(f"yeast: train {X_train.shape}, test {X_test.shape[0]} instances, "
          f"{Y_train.shape[1]} labels; k=10, s=1.0, min-max scaled; "
          f"{args.threads} thread(s)")

    ours_s, (pred, proba) = best_time(
        lambda: run_ours(X_train, Y_train, X_test), args.repeats)
    scaler = MLkNN(k=10).fit(X_train, Y_train)
    Xs_train, Xs_test = scaler._transform(X_train), scaler._transform(X_test)
    sk_s, (sk_pred, sk_proba) = best_time(
        lambda: run_skmultilearn(Xs_train, Y_train, Xs_test), args.repeats)
    loo_pred, loo_proba = run_skmultilearn(Xs_train, Y_train, Xs_test, True)

    print(f"ours fit+predict+predict_proba: {ours_s:.4f} s (best of {args.repeats})")
    print(f"skmultilearn fit+predict+predict_proba: {sk_s:.4f} s "
          f"(best of {args.repeats})")
    print(f"speedup MLkNN vs skmultilearn MLkNN: {sk_s / ours_s:.1f}x")
    print(f"prediction agreement vs skmultilearn default (self among training "
          f"neighbours): {np.mean(pred == sk_pred):.4f}; "
          f"max |confidence diff| {np.abs(proba - sk_proba).max():.3g}")
    print(f"prediction agreement vs skmultilearn with self excluded: "
          f"{np.mean(pred == loo_pred):.4f}; "
          f"max |confidence diff| {np.abs(proba - loo_proba).max():.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
