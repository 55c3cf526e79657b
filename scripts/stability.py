"""Snakemake adapter: selection stability across folds, table and plot."""

from mlfsbench.report.selections import stability_plot, stability_table
from mlfsbench.workflow.logutil import log_to


def main(paths, key_labels, grid, table_out, png_out, labels=None):
    stability_plot(stability_table(paths, grid, table_out, labels=key_labels),
                   png_out, labels)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.selections), list(smk.params.key_labels),
             list(smk.params.grid), smk.output.table, smk.output.png,
             dict(smk.params.labels))
