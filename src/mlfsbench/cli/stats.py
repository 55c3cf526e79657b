"""``mlfsbench stats``: Friedman and post-hoc tests on a datasets x methods
table, with the Bayesian signed-rank test and Cliff's delta of every pair."""

from __future__ import annotations

from mlfsbench.cli._common import write_json
from mlfsbench.evaluation.bayesian import ROPE
from mlfsbench.io import NA_VALUES


def add_parser(sub) -> None:
    p = sub.add_parser(
        "stats", help="Friedman, Iman-Davenport, Nemenyi and Bonferroni-Dunn tests, "
        "and per pair of methods the Bayesian signed-rank test and Cliff's delta, "
        "of a results table (one row per dataset, one column per method)",
        description="Rank the methods of a results table (one row per dataset, "
        "one column per method) and test them: Friedman and Iman-Davenport, "
        "Nemenyi and Bonferroni-Dunn (critical differences), Wilcoxon-Holm. "
        "For every pair of methods also the Bayesian signed-rank test over the "
        "datasets (Benavoli et al. 2017): the probabilities that the first is "
        "better, that the two are equivalent within the region of practical "
        "equivalence (--rope), and that the second is better; and Cliff's delta "
        "(positive: the first better) with its magnitude (negligible, small, "
        "medium, large; Romano et al. 2006).")
    p.add_argument("table", help="CSV or TSV; first column: dataset name")
    p.add_argument("--higher-is-better", action="store_true",
                   help="the metric is a gain (default: a loss, lower is better)")
    p.add_argument("--control", help="control method for Bonferroni-Dunn")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the tests (default: %(default)s)")
    p.add_argument("--round", type=int, default=None, metavar="D",
                   help="also rank the values rounded to D decimals, as a paper's "
                   "printed table reads (reported beside the unrounded ranks)")
    p.add_argument("--rope", type=float, default=ROPE, metavar="R",
                   help="region of practical equivalence of the Bayesian signed-rank "
                   "test of every pair of methods, in the table's units (default: "
                   "%(default)s); Cliff's delta is reported beside it")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    import pandas as pd

    from mlfsbench.evaluation.stats import compare_methods

    try:
        table = pd.read_csv(args.table, sep=None, engine="python", index_col=0,
                            keep_default_na=False, na_values=NA_VALUES)
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise ValueError(f"{args.table}: cannot read the table ({exc})") from None
    table.index = table.index.astype(str)
    non_numeric = [c for c in table.columns
                   if not pd.api.types.is_numeric_dtype(table[c])]
    if non_numeric:
        raise ValueError(f"{args.table}: non-numeric column(s) "
                         f"{', '.join(map(str, non_numeric))}")
    try:
        if not args.rope >= 0:
            raise ValueError(f"--rope must be >= 0, got {args.rope}")
        out = compare_methods(table, higher_is_better=args.higher_is_better,
                              control=args.control, alpha=args.alpha, rope=args.rope)
        if args.round is not None:  # beside: the ranks of the printed numbers
            printed = compare_methods(table, higher_is_better=args.higher_is_better,
                                      control=args.control, alpha=args.alpha,
                                      decimals=args.round)
            out["rounded"] = {"decimals": args.round, **{key: printed[key] for key in (
                "average_ranks", "friedman", "iman_davenport", "bonferroni_dunn")}}
    except ValueError as exc:
        raise ValueError(f"{args.table}: {exc}") from None
    out = {"table": str(args.table), "datasets": list(table.index), **out}
    if args.json:
        write_json(out)
        return 0
    fr, idv = out["friedman"], out["iman_davenport"]
    print(f"datasets\t{out['n_datasets']}\tmethods\t{out['n_methods']}")
    for name, rank in sorted(out["average_ranks"].items(), key=lambda kv: kv[1]):
        print(f"rank\t{name}\t{rank:.4f}")
    if args.round is not None:
        printed = out["rounded"]
        for name, rank in sorted(printed["average_ranks"].items(),
                                 key=lambda kv: kv[1]):
            print(f"rounded_rank\t{name}\t{rank:.4f}")
        print(f"rounded_friedman_chi2\t{printed['friedman']['chi2']:.6g}"
              f"\tp\t{printed['friedman']['p_value']:.6g}\tdecimals\t{args.round}")
    print(f"friedman_chi2\t{fr['chi2']:.6g}\tp\t{fr['p_value']:.6g}")
    print(f"iman_davenport_F\t{idv['F']:.6g}\tp\t{idv['p_value']:.6g}"
          f"\tcritical\t{idv['critical_value']:.6g}")
    print(f"nemenyi_cd\t{out['nemenyi']['cd']:.6g}")
    for a, b in out["nemenyi"]["significant_pairs"]:
        print(f"nemenyi_significant\t{a}\t{b}")
    print(f"bonferroni_dunn_cd\t{out['bonferroni_dunn']['cd']:.6g}")
    for name in out["bonferroni_dunn"].get("significant", []):
        print(f"bonferroni_dunn_significant\t{args.control}\t{name}")
    for pair in out["pairwise"]:
        first, second = pair["pair"]
        print(f"pair\t{first}\t{second}\tp_first\t{pair['p_first']:.4f}"
              f"\tp_rope\t{pair['p_rope']:.4f}\tp_second\t{pair['p_second']:.4f}"
              f"\tcliffs_delta\t{pair['cliffs_delta']:.4f}\t{pair['magnitude']}")
    return 0
