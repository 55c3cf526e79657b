"""Snakemake adapter: one table of every fold's label transformations."""

from mlfsbench.report.aggregate import transformations_table
from mlfsbench.workflow.logutil import log_to


def main(paths, labels, out):
    transformations_table(paths, out, labels=labels)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.summaries), list(smk.params.labels),
             smk.output.table)
