"""``mlfsbench describe``: the statistics of a dataset."""

from __future__ import annotations

from pathlib import Path

from mlfsbench.cli._common import add_data_args, print_record, with_features


def add_parser(sub) -> None:
    p = sub.add_parser("describe",
                       help="statistics of a dataset (ARFF + XML, or an mldr .rda)")
    p.add_argument("arff", nargs="+",
                   help="ARFF file, train and test files, or an R data file (.rda)")
    add_data_args(p)
    p.set_defaults(func=run)


def folder_name(paths) -> str | None:
    """A train/test pair saved as ``train.arff`` and ``test.arff`` (as the
    workflow's ``data/raw/<dataset>/``) is named after its folder, not
    "train"; None otherwise (the loader's default applies).

    >>> folder_name(["raw/emotions/train.arff", "raw/emotions/test.arff"])
    'emotions'
    >>> folder_name(["yeast-train.arff"]) is None
    True
    """
    first = Path(paths[0])
    stem = first.name.split(".", 1)[0].lower()
    if stem in ("train", "test") and first.parent.name not in ("", "."):
        return first.parent.name
    return None


def run(args) -> int:
    from mlfsbench.data import dataset_statistics, load_dataset

    ds = with_features(load_dataset(args.arff, args.xml,
                                    name=args.name or folder_name(args.arff),
                                    nominal=args.nominal, targets=args.targets,
                                    accept_xml=args.accept_xml), args.arff)
    stats = {"dataset": ds.name, **dataset_statistics(ds)}
    print_record(stats, args.json)
    return 0
