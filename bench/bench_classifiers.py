"""Benchmark: BRkNN-b and BR-LR on yeast against named baselines.

- BRkNN-b (:class:`mlfsbench.estimators.classifiers.brknn.BRkNNb`, ``k=10``, no scaling)
  against scikit-multilearn's ``BRkNNbClassifier(k=10)``: fit + predict +
  confidences on yeast's Mulan split (1500 training, 917 test instances, 103
  features, 14 labels). Ours computes all confidences with one sparse
  adjacency product; scikit-multilearn sums neighbour rows per query in Python.
  The agreement of the predictions is printed too (scikit-multilearn rounds
  the average labelset size half-to-even and, when it rounds to 0, outputs
  every label: the known bugs ours avoids).
- BR-LR (:class:`mlfsbench.estimators.classifiers.br_lr.BRLogisticRegression`,
  unregularised, L-BFGS) against scikit-learn's
  ``MultiOutputClassifier(LogisticRegression(C=inf))``, same solver, ``tol``
  and ``max_iter``: ours predicts all labels from one matrix product and
  skips constant labels; the fits themselves are the same.

Best of ``--repeats`` runs, one BLAS/OpenMP thread each (``--threads``).

Usage::

    .venv/bin/python bench/bench_classifiers.py [--shared PATH] [--repeats N]
"""

from __future__ import annotations

import argparse
import sys
import warnings

import numpy as np
import scipy.sparse as sp
from _common import add_shared_argument, best_time, load_shared
from threadpoolctl import threadpool_limits

from mlfsbench.estimators.classifiers.br_lr import BRLogisticRegression
from mlfsbench.estimators.classifiers.brknn import BRkNNb
from mlfsbench.evaluation.metrics import hamming_loss


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "yeast")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        ds = load_shared(args.shared, "yeast", ("train", "test"))
    except FileNotFoundError as err:
        print(err, file=sys.stderr)
        return 1
    train, test = np.flatnonzero(~ds.is_test), np.flatnonzero(ds.is_test)
    X = np.asarray(ds.X, dtype=float)
    Xtr, Ytr, Xte, Yte = X[train], ds.Y[train], X[test], ds.Y[test]
    with threadpool_limits(limits=args.threads):
        _brknn(Xtr, Ytr, Xte, Yte, args.repeats)
        _br_lr(Xtr, Ytr, Xte, Yte, args.repeats)
    return 0


def _brknn(Xtr, Ytr, Xte, Yte, repeats):
    from skmultilearn.adapt import BRkNNbClassifier

    def ours():
        clf = BRkNNb(k=10, scale=False, random_state=0).fit(Xtr, Ytr)
        return clf.predict(Xte), clf.predict_proba(Xte)

    def theirs():
        clf = BRkNNbClassifier(k=10).fit(Xtr, sp.csr_matrix(Ytr))
        return clf.predict(Xte).toarray(), np.asarray(clf.confidences_)

    t_ours, (pred, conf) = best_time(ours, repeats)
    t_sk, (sk_pred, sk_conf) = best_time(theirs, repeats)
    same_rows = (pred == sk_pred).all(axis=1).mean()
    print(f"BRkNN-b ours: {t_ours:.4f} s, Hamming loss {hamming_loss(Yte, pred):.4f}; "
          f"skmultilearn: {t_sk:.4f} s, Hamming loss "
          f"{hamming_loss(Yte, sk_pred):.4f}; confidences equal: "
          f"{np.allclose(conf, sk_conf)}; identical label sets: {same_rows:.1%}")
    print(f"speedup brknn-b vs skmultilearn BRkNNbClassifier: {t_sk / t_ours:.1f}x")


def _br_lr(Xtr, Ytr, Xte, Yte, repeats):
    from sklearn.linear_model import LogisticRegression
    from sklearn.multioutput import MultiOutputClassifier

    def ours():
        clf = BRLogisticRegression(penalty="none").fit(Xtr, Ytr)
        return clf.predict(Xte)

    def theirs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            base = LogisticRegression(C=np.inf, max_iter=1000, tol=1e-4)
            clf = MultiOutputClassifier(base).fit(Xtr, Ytr)
        return clf.predict(Xte)

    t_ours, pred = best_time(ours, repeats)
    t_sk, sk_pred = best_time(theirs, repeats)
    print(f"BR-LR ours: {t_ours:.4f} s, Hamming loss "
          f"{hamming_loss(Yte, pred):.4f}; MultiOutputClassifier: "
          f"{t_sk:.4f} s, Hamming loss {hamming_loss(Yte, sk_pred):.4f}")
    print(f"speedup br-lr vs sklearn MultiOutputClassifier(LogisticRegression): "
          f"{t_sk / t_ours:.1f}x")


if __name__ == "__main__":
    sys.exit(main())
