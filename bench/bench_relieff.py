"""Benchmark: RF-BR on emotions vs skrebate's ReliefF run once per label.

Times :class:`mlfsbench.estimators.selectors.relieff.ReliefFBR` (ReliefF on every
binary relevance label, k = 10, every instance sampled; the distances and neighbour
orders are shared by the labels) against the obvious baseline,
``skrebate.ReliefF(n_neighbors=10, categorical_features=[])`` fitted once per
label (``categorical_features=[]`` makes skrebate treat every feature as
numeric, the setting under which both compute the same weights), checks that
the per-label weights agree to 1e-10 and prints the speed-up (target >= 5x).

Second part: on medical (978 x 1449 binary word features, 45 labels) RF-BR and
RF-LP take the sparse path for 0/1 features; the baseline is the same code's
dense path (``cdist`` distances and dense ``|x_i - x_j|`` of every pair,
``relieff_scores(..., binary_path=False)``), measured in the same run. The
weights must agree to 1e-10.

Third part: on bibtex, RF-BR with rare classes taken from the distances to
their members against the class masks of each row's distance order (the
baseline, ``relieff_scores(..., gather_path=False)``); bitwise equal scores.

Fourth part: on bibtex, RF-BR and RF-LP with every two-class target (each BR
label) of a block handled at once against one target at a time (the
baseline, ``relieff_scores(..., batch_path=False)``), timed alternately in
the same run (best of ``--repeats``); bitwise equal scores, ratio old/new.

Fifth part: the shared path (the default on 0/1 features: integer sums per
weight group, the larger class's neighbours of every BR label from each row's
nearest instances overall, LP classes of at most k members in closed form)
against today's pairwise path (``relieff_scores(..., shared_path=False)``),
RF-BR and RF-LP on bibtex's first 90 % (every row sampled, as a job) and on
yeast (numeric features: the same path either way), timed alternately in one
process with one BLAS thread, best of ``--shared-repeats``. The scores must
agree to 1e-12 of the largest and the rankings be equal up to ties within
that; prints the ratio today/new.

Usage::

    .venv/bin/python bench/bench_relieff.py [--shared PATH] [--repeats N]

``PATH`` is the shared datasets folder holding ``multi-label/emotions/``
(default: ``../shared/datasets`` next to the project, or the environment
variable ``MLFS_SHARED_DATASETS``).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _common import add_shared_argument, best_time, load_shared
from skrebate import ReliefF

from mlfsbench.estimators.selectors._relief import relieff_scores
from mlfsbench.estimators.selectors.relieff import ReliefFBR
from mlfsbench.estimators.transformations.br import BinaryRelevance
from mlfsbench.estimators.transformations.lp import LabelPowerset


def baseline(X, Y) -> np.ndarray:
    """skrebate's ReliefF, one fit per label."""
    columns = []
    for k in range(Y.shape[1]):
        model = ReliefF(n_neighbors=10, n_features_to_select=X.shape[1],
                        categorical_features=[])
        columns.append(model.fit(X.copy(), Y[:, k]).feature_importances_)
    return np.column_stack(columns)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "emotions")
    parser.add_argument("--skip-binary", action="store_true",
                        help="skip the medical, rare and batched parts")
    parser.add_argument("--skip-rare", action="store_true",
                        help="skip the bibtex rare-class part")
    parser.add_argument("--rare-samples", type=int, default=600,
                        help="sampled rows of the bibtex part")
    parser.add_argument("--skip-batch", action="store_true",
                        help="skip the bibtex batched-labels part")
    parser.add_argument("--batch-samples", type=int, default=600,
                        help="sampled rows of the bibtex batched-labels part")
    parser.add_argument("--skip-shared", action="store_true",
                        help="skip the shared-path part")
    parser.add_argument("--shared-samples", type=int, default=None,
                        help="sampled rows of the shared-path part (all)")
    parser.add_argument("--shared-repeats", type=int, default=2,
                        help="timed repeats of the shared-path part")
    parser.add_argument("--repeats", type=int, default=3,
                        help="timed repeats of RF-BR (best is kept)")
    args = parser.parse_args(argv)

    ds = load_shared(args.shared, "emotions")
    X, Y = np.asarray(ds.X, dtype=float), ds.Y
    print(f"emotions: {X.shape[0]} samples x {X.shape[1]} features, "
          f"{Y.shape[1]} labels")

    t_ours, sel = best_time(lambda: ReliefFBR().fit(X, Y), args.repeats)
    t_base, ref = best_time(lambda: baseline(X, Y), 1)
    err = float(np.abs(sel.relief_ - ref).max())
    print(f"rf-br (all labels):               {t_ours:.3f} s")
    print(f"skrebate ReliefF, once per label: {t_base:.3f} s")
    print(f"max |difference| of the weights: {err:.3e}")
    if err > 1e-10:
        print("FAIL: the weights differ by more than 1e-10", file=sys.stderr)
        return 1
    print(f"speedup rf-br vs skrebate-ReliefF-per-label: {t_base / t_ours:.1f}x")
    if args.skip_binary:
        return shared_part(args) if not args.skip_shared else 0
    return binary_part(args)


def binary_part(args) -> int:
    """Sparse 0/1 path vs the dense path on medical, RF-BR and RF-LP."""
    ds = load_shared(args.shared, "medical")
    X, Y = ds.X, ds.Y
    print(f"medical: {X.shape[0]} samples x {X.shape[1]} binary features, "
          f"{Y.shape[1]} labels")
    status = 0
    for name, classes in (("rf-br", BinaryRelevance().fit_transform(Y)),
                          ("rf-lp", LabelPowerset().fit_transform(Y))):
        t_fast, fast = best_time(lambda c=classes: relieff_scores(X, c),
                                 args.repeats)
        t_dense, dense = best_time(
            lambda c=classes: relieff_scores(X, c, binary_path=False), 1)
        err = float(np.abs(fast - dense).max())
        print(f"{name}: sparse path {t_fast:.3f} s, dense path {t_dense:.3f} s, "
              f"max |difference| {err:.1e}")
        if err > 1e-10:
            print(f"FAIL: {name} scores differ by more than 1e-10", file=sys.stderr)
            status = 1
        print(f"speedup {name} sparse-path vs dense-path: {t_dense / t_fast:.1f}x")
    status = status if args.skip_rare else status | rare_part(args)
    status = status if args.skip_batch else status | batch_part(args)
    return status if args.skip_shared else status | shared_part(args)


def rare_part(args) -> int:
    """Rare BR classes from the distances vs from the order's class masks.

    Bibtex (159 labels, most held by 1-2 % of the instances): RF-BR on the
    first 90 % of the rows, ``--rare-samples`` sampled rows (seed 0). The
    baseline is the same code with ``gather_path=False`` (every class found
    by masking a prefix of each row's distance order, as before
    2026-11-25); the scores must be equal bit for bit.
    """
    ds = load_shared(args.shared, "bibtex")
    n = int(0.9 * ds.X.shape[0])
    X, Y = ds.X[:n], ds.Y[:n]
    classes = BinaryRelevance().fit_transform(Y)  # RF-BR's class vectors
    kw = {"n_samples": args.rare_samples, "random_state": 0}
    print(f"bibtex: {n} samples x {X.shape[1]} binary features, {Y.shape[1]} "
          f"labels, {args.rare_samples} sampled")
    t_fast, fast = best_time(lambda: relieff_scores(X, classes, **kw), args.repeats)
    t_mask, mask = best_time(
        lambda: relieff_scores(X, classes, gather_path=False, **kw), args.repeats)
    same = np.array_equal(fast, mask)
    print(f"rf-br: rare classes from distances {t_fast:.3f} s, from masks "
          f"{t_mask:.3f} s, scores bitwise equal: {same}")
    if not same:
        print("FAIL: the rare-class path changed the scores", file=sys.stderr)
        return 1
    print(f"speedup rf-br rare-from-distances vs masks: {t_mask / t_fast:.2f}x")
    return 0


def batch_part(args) -> int:
    """All BR labels of a block at once vs one label at a time, on bibtex.

    RF-BR and RF-LP on the first 90 % of the rows, ``--batch-samples``
    sampled rows (seed 0). The baseline is the same code with
    ``batch_path=False`` (the per-target loop, as before 2026-11-25); the two
    are timed alternately, best of ``--repeats``, and must be equal bit for
    bit. RF-LP has one many-class target, so it keeps the loop (ratio ~1).
    """
    ds = load_shared(args.shared, "bibtex")
    n = int(0.9 * ds.X.shape[0])
    X, Y = ds.X[:n], ds.Y[:n]
    kw = {"n_samples": args.batch_samples, "random_state": 0}
    print(f"bibtex: {n} samples x {X.shape[1]} binary features, {Y.shape[1]} "
          f"labels, {args.batch_samples} sampled")
    status = 0
    for name, classes in (("rf-br", BinaryRelevance().fit_transform(Y)),
                          ("rf-lp", LabelPowerset().fit_transform(Y))):
        best = {True: float("inf"), False: float("inf")}
        out = {}
        for _ in range(args.repeats):
            for batch in (False, True):
                t, out[batch] = best_time(
                    lambda c=classes, b=batch: relieff_scores(
                        X, c, batch_path=b, **kw), 1)
                best[batch] = min(best[batch], t)
        same = np.array_equal(out[True], out[False])
        print(f"{name}: labels at once {best[True]:.3f} s, one at a time "
              f"{best[False]:.3f} s, scores bitwise equal: {same}")
        if not same:
            print(f"FAIL: {name} batched path changed the scores", file=sys.stderr)
            status = 1
        print(f"speedup {name} batched vs per-label: "
              f"{best[False] / best[True]:.2f}x")
    return status


def shared_part(args) -> int:
    """The shared path against today's pairwise path: bibtex, yeast."""
    from threadpoolctl import threadpool_limits

    from mlfsbench.estimators.selectors._base import rank_scores

    status = 0
    kw = {"n_samples": args.shared_samples, "random_state": 0}
    with threadpool_limits(limits=1):
        for data in ("bibtex", "yeast"):
            ds = load_shared(args.shared, data)
            n = int(0.9 * ds.X.shape[0])
            X, Y = ds.X[:n], ds.Y[:n]
            print(f"{data}: {n} samples x {X.shape[1]} features, {Y.shape[1]} "
                  f"labels, {args.shared_samples or 'all'} sampled")
            for name, classes in (("rf-br", BinaryRelevance().fit_transform(Y)),
                                  ("rf-lp", LabelPowerset().fit_transform(Y))):
                best = {True: float("inf"), False: float("inf")}
                out = {}
                for _ in range(args.shared_repeats):
                    for shared in (False, True):
                        t, out[shared] = best_time(
                            lambda x=X, c=classes, s=shared: relieff_scores(
                                x, c, shared_path=s, **kw), 1)
                        best[shared] = min(best[shared], t)
                new, old = out[True], out[False]
                top = np.abs(old).max()
                rel = float(np.abs(new - old).max() / top) if top else 0.0
                s_new, s_old = new.mean(axis=1), old.mean(axis=1)
                r_new, r_old = rank_scores(s_new), rank_scores(s_old)
                tol = 1e-12 * np.abs(s_old).max()
                ties_only = bool((np.diff(s_old[r_new]) <= tol).all()
                                 and (np.diff(s_new[r_old]) <= tol).all())
                moved = int((r_new != r_old).sum())
                print(f"{name}: shared {best[True]:.3f} s, pairwise "
                      f"{best[False]:.3f} s, max |difference| / max |score| "
                      f"{rel:.1e}, bitwise equal: {np.array_equal(new, old)}, "
                      f"ranking equal: {moved == 0} ({moved} positions differ, "
                      f"ties within 1e-12 only: {ties_only})")
                if rel > 1e-12 or not ties_only:
                    print(f"FAIL: {data} {name} shared path changed the scores",
                          file=sys.stderr)
                    status = 1
                print(f"speedup {data} {name} shared vs pairwise: "
                      f"{best[False] / best[True]:.2f}x")
    return status


if __name__ == "__main__":
    sys.exit(main())
