"""Snakemake adapter: average ranks and test statistics of every metric."""

from mlfsbench.report.compare import ranks_table
from mlfsbench.workflow.logutil import log_to


def main(paths, out, html_out, labels=None):
    ranks_table(paths, out, html_out, labels)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.stats), smk.output.table, smk.output.html,
             dict(smk.params.labels))
