"""Snakemake adapter: average ranks and test statistics of every metric."""

from mlfsbench.report.compare import comparison_files, pairwise_table, ranks_table
from mlfsbench.workflow.logutil import log_to


def main(paths, out, html_out, pairwise_out, pairwise_html, labels=None):
    ranks_table(paths, out, html_out, labels)
    pairwise_table(paths, pairwise_out, pairwise_html, labels)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main([comparison_files(smk.input.stats, m)[0] for m in smk.params.metrics],
             smk.output.table, smk.output.html,
             smk.output.pairwise, smk.output.pairwise_html, dict(smk.params.labels))
