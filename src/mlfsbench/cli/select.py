"""``mlfsbench select``: rank the features of a dataset with a registered
selector."""

from __future__ import annotations

import numpy as np

from mlfsbench.cli._common import (
    add_data_args,
    parse_params,
    with_features,
    write_json,
)
from mlfsbench.estimators import registry


def add_parser(sub) -> None:
    p = sub.add_parser("select", help="rank features with a registered selector")
    p.add_argument("arff", nargs="+", help="ARFF file (or train and test files)")
    add_data_args(p)
    p.add_argument("--method", required=True,
                   help="selector name, as 'mlfsbench methods' lists them")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the selector (repeat for several; the "
                        "value is read as YAML: 10, 0.5, true, null, text)")
    p.add_argument("--n-features", type=int, default=None, metavar="K",
                   help="print the K best features only (default: all)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed of a randomized selector (default: 0)")
    p.add_argument("--discretize", default="equal-width",
                   choices=["equal-width", "equal-frequency", "none"],
                   help="discretization before a selector that reads discrete "
                        "codes (default: %(default)s)")
    p.add_argument("--bins", type=int, default=5,
                   help="bins of the discretization (default: %(default)s)")
    p.set_defaults(func=run)


def run(args) -> int:
    """The select stage's per-fold function on the whole file (one "fold"
    whose training part is every instance); the JSON is its record."""
    from mlfsbench.data import load_dataset
    from mlfsbench.workflow.checks import check_params
    from mlfsbench.workflow.folds import discretize_fold, fold_data, select_fold

    if args.n_features is not None and args.n_features < 1:
        raise ValueError(
            f"--n-features must be a positive integer, got {args.n_features}"
        )
    params = parse_params(args.param)
    problem = check_params("selector", args.method, params)
    if problem:
        raise ValueError(f"selector {args.method!r}: {problem}")
    ds = with_features(load_dataset(args.arff, args.xml, name=args.name,
                                    nominal=args.nominal, targets=args.targets,
                                    accept_xml=args.accept_xml), args.arff)
    rows = np.arange(ds.n_samples)
    X, _ = fold_data(ds, rows, rows[:0])
    selector = registry.create("selector", args.method, params)
    if getattr(selector, "input_kind", "discrete") == "discrete" \
            and args.discretize != "none":
        X, _ = discretize_fold(X, X[:1], strategy=args.discretize, bins=args.bins)
    record = select_fold(X, ds.Y, ds.feature_names, method=args.method,
                         params=params, seed=args.seed, name=" + ".join(args.arff),
                         feature_types=ds.feature_types)
    k = len(record["ranking"]) if args.n_features is None else args.n_features
    record = {"dataset": ds.name, **record, "seed": args.seed,
              "ranking": record["ranking"][:k], "features": record["features"][:k]}
    if args.json:
        write_json(record)
    else:
        for i, name in zip(record["ranking"], record["features"], strict=True):
            score = record["scores"][i]  # None: not scored (greedy), or ±inf
            print(f"{name}\t{'-' if score is None else format(score, '.6g')}")
    return 0
