"""Snakemake adapter: one row of statistics per prepared dataset."""

from mlfsbench.report.aggregate import datasets_table
from mlfsbench.workflow.logutil import log_to


def main(paths, out, html_out):
    datasets_table(paths, out, html_out)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.stats), smk.output.table, smk.output.html)
