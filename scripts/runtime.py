"""Snakemake adapter: seconds of each selector per dataset, and what each
selection learnt (its fitted numbers)."""

from mlfsbench.report.selections import fitted_table, runtime_table
from mlfsbench.workflow.logutil import log_to


def main(paths, labels, out, html_out=None, fitted_out=None):
    runtime_table(paths, out, labels=labels, html_out=html_out)
    if fitted_out is not None:
        fitted_table(paths, fitted_out, labels=labels)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.selections), list(smk.params.labels), smk.output.table,
             smk.output.html, smk.output.fitted)
