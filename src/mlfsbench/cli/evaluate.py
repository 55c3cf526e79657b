"""``mlfsbench evaluate``: train a classifier on one file, test it on another,
every metric."""

from __future__ import annotations

import time

import numpy as np

from mlfsbench.cli._common import (
    add_data_args,
    parse_params,
    print_record,
    with_features,
)


def add_parser(sub) -> None:
    p = sub.add_parser("evaluate", help="train on --train, test on --test")
    p.add_argument("--train", required=True, help="training ARFF file")
    p.add_argument("--test", required=True, help="test ARFF file")
    add_data_args(p)
    p.add_argument("--classifier", required=True,
                   help="classifier name, as 'mlfsbench methods' lists them")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the classifier (repeat for several; the "
                        "value is read as YAML)")
    p.add_argument("--features", nargs="+", metavar="NAME",
                   help="train on these features only (default: all)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed of a randomized classifier (default: 0)")
    p.set_defaults(func=run)


def run(args) -> int:
    """The classify stage's per-fold functions (fit and predict, then every
    metric) on a train/test pair, at one feature subset."""
    from mlfsbench.data import load_mulan
    from mlfsbench.workflow.folds import classify_fold, evaluate_fold, fold_data

    ds = with_features(load_mulan([args.train, args.test], args.xml, name=args.name,
                                  nominal=args.nominal, targets=args.targets,
                                  accept_xml=args.accept_xml), [args.train])
    train = np.flatnonzero(~ds.is_test)
    test = np.flatnonzero(ds.is_test)
    X_train, X_test = fold_data(ds, train, test)
    cols = list(range(X_train.shape[1]))
    if args.features:
        index = {name: i for i, name in enumerate(ds.feature_names)}
        unknown = [f for f in args.features if f not in index]
        if unknown:
            raise ValueError(f"{args.train}: unknown feature(s) {', '.join(unknown)}")
        cols = [index[f] for f in args.features]
    record = {"ranking": cols, "n_selected": len(cols)}
    start = time.perf_counter()
    pred = classify_fold(X_train, ds.Y[train], X_test, record,
                         classifier=args.classifier,
                         params=parse_params(args.param), grid=["selected"],
                         seed=args.seed, regression=ds.is_regression)
    seconds = time.perf_counter() - start
    metrics = {metric: value for _, metric, value in evaluate_fold(
        ds.Y[test], pred, regression=ds.is_regression)}
    print_record({"dataset": ds.name, "classifier": args.classifier,
                  "n_features": len(cols), **metrics, "seconds": seconds}, args.json)
    return 0
