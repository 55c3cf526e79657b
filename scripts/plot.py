"""Snakemake adapter: metric-versus-K plot of one dataset (PNG: the metrics the
study compares; PDF: every metric)."""

from mlfsbench.io import read_table
from mlfsbench.report.aggregate import plot_dataset
from mlfsbench.workflow.logutil import log_to


def main(summary, dataset, png, pdf, labels=None, dataset_params=None,
         metrics=None, challengers=()):
    table = read_table(summary, dtype={"n_features": str})
    plot_dataset(table, dataset, png, pdf, labels, dataset_params, metrics,
                 challengers)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.summary, smk.wildcards.dataset, smk.output.png,
             smk.output.pdf, dict(smk.params.labels),
             dict(smk.params.dataset_params), list(smk.params.metrics),
             list(smk.params.challengers))
