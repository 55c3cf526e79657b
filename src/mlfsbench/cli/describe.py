"""``mlfsbench describe``: the statistics of a dataset."""

from __future__ import annotations

from mlfsbench.cli._common import add_data_args, print_record


def add_parser(sub) -> None:
    p = sub.add_parser("describe",
                       help="statistics of a dataset (ARFF + XML, or an mldr .rda)")
    p.add_argument("arff", nargs="+",
                   help="ARFF file, train and test files, or an R data file (.rda)")
    add_data_args(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from mlfsbench.data import dataset_statistics, load_dataset

    ds = load_dataset(args.arff, args.xml, name=args.name, nominal=args.nominal,
                      targets=args.targets, accept_xml=args.accept_xml)
    stats = {"dataset": ds.name, **dataset_statistics(ds)}
    print_record(stats, args.json)
    return 0
