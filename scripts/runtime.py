"""Snakemake adapter: seconds of each selector per dataset."""

from mlfsbench.workflow.compare import runtime_table
from mlfsbench.workflow.logutil import log_to


def main(paths, out):
    runtime_table(paths, out)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.selections), smk.output.table)
