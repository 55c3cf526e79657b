"""Snakemake adapter: seconds of each selector per dataset."""

from mlfsbench.report.selections import runtime_table
from mlfsbench.workflow.logutil import log_to


def main(paths, labels, out, html_out=None):
    runtime_table(paths, out, labels=labels, html_out=html_out)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.selections), list(smk.params.labels), smk.output.table,
             smk.output.html)
