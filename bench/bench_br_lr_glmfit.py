"""Benchmark: BR-LR with MATLAB glmfit's IRLS on Lee & Kim (2016)'s protocol.

One fold of Lee 2016's protocol per dataset: an 80/20 hold-out (the
workflow's, seed 0), the 2-bin equal-width codes of the training part
(``input: codes``), and the path n = 1, 5, 10, ..., 50 and all features
(a ranking by training frequency of the code 1, a stand-in for a
selector's: the cost hardly depends on which columns). Each fit is
:func:`~mlfsbench.estimators.classifiers._glmfit.fit_logistic_glmfit` on the
labels that are not constant in training, one BLAS thread (as the
workflow's jobs run), for

- ``before``: the module at commit ec72987 (glmfit's QR solve per label
  and iteration), or at the commit ``--baseline`` names, read from git at
  run time (``git show``), and
- ``after``: the current module (the batched normal equations where the
  scaled Gram matrix is well conditioned, QR otherwise).

Where a full fit would take long, ``--labels N`` fits N labels spread over
the live ones and ``--solves S`` caps each label's solves at S
(``max_iter = S - 1``); the time is then extrapolated: the setup (a fit
stopped after two solves: grouping, rank, the shared first solve, the pair
products) once, the rest to every live label and, with ``--solves``, to
glmfit's 101 solves per label (the cost of labels that run to the limit,
an upper bound: on enron's 1 001 codes all 53 labels do). The output
says which numbers are extrapolated.

Prints, per dataset, the seconds per fold for the n <= 50 path and for the
all-features fit, before and after, their ratio, the solves by each route,
and how far the after-fit's test scores are from the before-fit's.

Usage::

    .venv/bin/python bench/bench_br_lr_glmfit.py [--shared PATH]
        [--datasets yeast enron ...] [--labels N] [--solves S] [--skip-before]
        [--baseline COMMIT]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from _common import add_shared_argument, module_at
from scipy.special import expit
from threadpoolctl import threadpool_limits

from mlfsbench.data.rdata import load_dataset
from mlfsbench.data.split import holdout_splits
from mlfsbench.estimators.classifiers import _glmfit as glmfit
from mlfsbench.workflow.folds import discretize_fold, fold_data

BASELINE = "ec72987"
# the solver at BASELINE, before it moved to classifiers/_glmfit.py
MODULE = "src/mlfsbench/estimators/classifiers/br_lr.py"
# its module at any later commit (--baseline)
LATER_MODULE = "src/mlfsbench/estimators/classifiers/_glmfit.py"
LEE = ["bibtex", "corel5k", "delicious", "enron", "genbase", "languagelog",
       "slashdot", "yeast"]
MLDR = {"languagelog": "langlog.rda", "slashdot": "slashdot.rda"}


def load(shared: Path, name: str):
    if name in MLDR:
        return load_dataset([shared / "mldr.datasets" / "data" / MLDR[name]],
                            name=name)
    folder = shared / "multi-label" / name
    stem = "Corel5k" if name == "corel5k" else name
    parts = ("train-sparse", "test-sparse") if name == "corel5k" else ("train", "test")
    return load_dataset([folder / f"{stem}-{part}.arff" for part in parts],
                        folder / f"{stem}.xml", name=name)


def lee_fold(shared: Path, name: str):
    """Codes and labels of fold 0 of Lee 2016's 80/20 hold-out."""
    ds = load(shared, name)
    train, test = holdout_splits(ds.Y, 0.2, 1, random_state=0)[0]
    X_train, X_test = discretize_fold(*fold_data(ds, train, test),
                                      strategy="equal-width", bins=2)
    Y = ds.Y.toarray() if sp.issparse(ds.Y) else np.asarray(ds.Y)
    return (np.asarray(X_train, dtype=float), np.asarray(X_test, dtype=float),
            Y[train])


def scores(W, X):
    bound = glmfit.LOGIT_BOUND
    return expit(np.clip(X @ W[:-1] + W[-1], -bound, bound))


def timed(fit, X, Y, solves):
    kwargs = {} if solves is None else {"max_iter": solves - 1}
    start = time.perf_counter()
    W, n_iter = fit(X, Y, **kwargs)
    return time.perf_counter() - start, W, n_iter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "yeast")
    parser.add_argument("--datasets", nargs="+", default=LEE)
    parser.add_argument("--labels", type=int, default=None,
                        help="fit this many live labels and extrapolate")
    parser.add_argument("--solves", type=int, default=None,
                        help="cap solves per label (all-features fit) and "
                             "extrapolate to 101")
    parser.add_argument("--skip-before", action="store_true")
    parser.add_argument("--baseline", default=BASELINE, metavar="COMMIT",
                        help="the code before (default: %(default)s, the QR "
                             "solves; a later commit: its _glmfit module)")
    args = parser.parse_args(argv)
    module = MODULE if args.baseline == BASELINE else LATER_MODULE
    old = None if args.skip_before else module_at(args.baseline, module)
    for name in args.datasets:
        X, X_test, Y = lee_fold(args.shared, name)
        positives = Y.sum(axis=0)
        live = np.flatnonzero((positives > 0) & (positives < Y.shape[0]))
        picked = live
        if args.labels and args.labels < live.size:
            spread = np.linspace(0, live.size - 1, args.labels).round()
            picked = live[spread.astype(int)]
        scale = live.size / picked.size
        ranking = np.argsort(-X.sum(axis=0), kind="stable")
        sizes = [1, *range(5, 51, 5)]
        print(f"{name}: train {X.shape[0]} x {X.shape[1]} codes, "
              f"{live.size} live labels, fitted {picked.size}"
              f"{f' (times x {scale:.2f})' if scale != 1 else ''}", flush=True)
        Yp = Y[:, picked]
        path = [np.sort(ranking[:k]) for k in sizes if k <= X.shape[1]]
        for part, cols_list, solves in (("n<=50", path, None),
                                        ("all", [np.arange(X.shape[1])], args.solves)):
            line = {}
            fits = (("before", None if old is None else old.fit_logistic_glmfit),
                    ("after", glmfit.fit_logistic_glmfit))
            for tag, fit in fits:
                if fit is None:
                    continue
                for key in glmfit._stats:
                    glmfit._stats[key] = 0
                total, setup, solved, outs = 0.0, 0.0, 0, []
                with threadpool_limits(limits=1):
                    for cols in cols_list:
                        # the label-independent part (grouping, rank, the
                        # shared first solve, the pair products made for
                        # the second): a fit stopped after two solves
                        if scale != 1 or solves is not None:
                            setup += timed(fit, X[:, cols], Yp, 2)[0]
                        t, W, n_iter = timed(fit, X[:, cols], Yp, solves)
                        total += t
                        solved += int(np.maximum(n_iter - 2, 0).sum())
                        outs.append((scores(W, X_test[:, cols]), n_iter))
                # extrapolated: the setup once, the later solves per label
                est = setup + (total - setup) * scale
                if solves is not None:
                    limit = glmfit.GLMFIT_MAX_ITER - 1
                    est = setup + (total - setup) / max(solved, 1) * (
                        picked.size * limit * scale)
                line[tag] = (total, est, outs, dict(glmfit._stats))
                routes = ("" if tag == "before" else
                          f"; solves: {line[tag][3]['cholesky']} normal equations, "
                          f"{line[tag][3]['qr']} QR")
                extra = "" if est == total else f" -> {est:.1f} s extrapolated"
                print(f"  {part:6s} {tag:6s} {total:8.2f} s{extra}{routes}", flush=True)
            if "before" in line:
                b, a = line["before"], line["after"]
                diff = max(float(np.abs(sa - sb).max()) for (sb, _), (sa, _) in
                           zip(b[2], a[2], strict=True))
                flips = sum(int(((sa >= 0.5) != (sb >= 0.5)).sum()) for (sb, _), (sa, _)
                            in zip(b[2], a[2], strict=True))
                entries = sum(sb.size for sb, _ in b[2])
                same = all(np.array_equal(nb, na) for (_, nb), (_, na) in
                           zip(b[2], a[2], strict=True))
                print(f"  {part:6s} before/after {b[1] / a[1]:.2f}x; largest score "
                      f"difference {diff:.1e}, {flips} of {entries} test predictions "
                      f"differ, iterations {'equal' if same else 'DIFFER'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
