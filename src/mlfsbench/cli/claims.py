"""``mlfsbench claims``: the verdicts of finished experiments on their
papers' claims, as text, JSON records or TSV rows.

Reading the verdict tables of a results folder is the report layer's
(:mod:`mlfsbench.report.verdict_tables`); this module formats and prints.
"""

from __future__ import annotations

import sys

from mlfsbench.cli._common import coloured, plain_table, use_colour, write_json

#: A verdict's terminal colour (an SGR code).
COLOURS = {"reproduced": "32", "not reproduced": "31", "not checkable here": "90"}


def add_parser(sub) -> None:
    p = sub.add_parser(
        "claims", help="the verdicts of finished experiments: each claim "
        "of the paper, the paper's value, ours, reproduced or not")
    p.add_argument("result_dir", help="results/<experiment>, or results/ for "
                   "every experiment (one table, the counts per study, and "
                   "per reading where a study declares readings)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help="print a JSON list of records, one per claim: numbers "
                     "as numbers, blanks as null, the rule and tolerance, the "
                     "verdict under each reading's options (its schema: "
                     "mlfsbench/report/schemas/claims_json.schema.yaml)")
    out.add_argument("--tsv", action="store_true",
                     help="print one tab-separated row per claim, the study "
                     "first, plain cells")
    p.add_argument("--study", action="append", metavar="NAME",
                   help="only this study (repeatable)")
    p.add_argument("--verdict", action="append", metavar="V",
                   help="only the claims of this robust verdict (repeatable): "
                   "reproduced, not-reproduced, depends (it changes with a "
                   "reading) or not-checkable; the counts are those of the "
                   "claims shown")
    p.set_defaults(func=run)


def verdict_tag(verdict: str, colour: bool) -> str:
    """``[verdict]``, in the verdict's colour when ``colour``."""
    return coloured(f"[{verdict}]", COLOURS.get(verdict), colour)


def run(args) -> int:
    from mlfsbench.report.claim_records import claim_records, tsv
    from mlfsbench.report.verdict_tables import (
        claims_folders,
        filter_tables,
        read_readings,
        study_verdicts,
    )

    folders = dict(claims_folders(args.result_dir))
    tables = filter_tables([(s, study_verdicts(f)) for s, f in folders.items()],
                           args.study or (), args.verdict or ())
    if args.json or args.tsv:
        records = []
        for study, table in tables:
            records += claim_records(study, table, read_readings(folders[study]))
        if args.json:
            write_json(records)
        else:
            sys.stdout.write(tsv(records))
        return 0
    if not tables:
        print("mlfsbench: no claim matches the filters", file=sys.stderr)
        return 0
    print_claims(tables, use_colour())
    print_counts(tables)
    return 0


def print_claims(tables, colour: bool) -> None:
    """Each claim of each ``(study, verdict table)``: its verdict tag, name,
    source, statement, the paper's and our result, and its readings."""
    several = len(tables) > 1
    for study, table in tables:
        for row in table.to_dict("records"):
            where = f"{study}: " if several else ""
            print(f"{verdict_tag(row['verdict'], colour)} {where}{row['claim']} "
                  f"({row['source']})")
            print(f"    {row['statement']}")
            print(f"    paper: {row['paper']}")
            # printed (the paper's own table on the datasets run here) and
            # robust are newer columns: older verdict tables lack them
            if row.get("printed"):
                print(f"    printed: {row['printed']}")
            if row["ours"]:
                print(f"    ours:  {row['ours']}")
            if row.get("robust"):
                print(f"    robust: {row['robust']}")
            if row["note"]:
                print(f"    note:  {row['note']}")
            if row.get("robustness"):
                under = [f"{c.removeprefix('verdict:')}: {row[c]}"
                         for c in table.columns if c.startswith("verdict:")]
                print(f"    readings: {row['verdict']} under {row['favoured']} "
                      f"(favoured); {'; '.join(under)}")
                print(f"    robustness: {row['robustness']}")


def print_counts(tables) -> None:
    """The verdict counts (one line for one study, else a table per study),
    the robust tally, and the counts per reading of studies with readings."""
    from mlfsbench.report.tally import TALLY_COLUMNS, tally_rows
    from mlfsbench.report.verdict_tables import (
        VERDICTS,
        reading_counts,
        verdict_counts,
    )

    verdicts = list(VERDICTS)
    if len(tables) == 1:
        counts = tables[0][1]["verdict"].value_counts()
        print(", ".join(f"{n} {v}" for v, n in counts.items()))
    else:
        print()
        print(plain_table(["study", *verdicts, "claims"], verdict_counts(tables)))
    print()
    print("robust verdicts (the same under every reading that judged them), weak "
          "claims apart; rate: reproduced of the robust verdicts of the claims "
          "that are not weak")
    print(plain_table(["study", *TALLY_COLUMNS], tally_rows(tables)))
    by_reading = reading_counts(tables)
    if by_reading:
        print()
        print(plain_table(["study", "reading", *verdicts, "claims"], by_reading,
                          left=2))
