"""Snakemake adapter: the headline figure of one experiment."""

from mlfsbench.io import read_table
from mlfsbench.report.headline import headline_plot
from mlfsbench.workflow.logutil import log_to


def main(summary, metric, png, labels=None, dataset_params=None, table_k=None):
    table = read_table(summary, dtype={"n_features": str})
    headline_plot(table, metric, png, labels, dataset_params=dataset_params,
                  table_k=table_k)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.summary, smk.params.metric, smk.output.png,
             dict(smk.params.labels), dict(smk.params.dataset_params),
             smk.params.table_k)
