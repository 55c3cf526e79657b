"""Snakemake adapter: every compared metric's statistical comparison and CD
diagram, in one job per experiment."""

from mlfsbench.report.compare import comparison_files, write_comparison
from mlfsbench.workflow.logutil import log_to


def main(summary, metrics, folder, options, labels=None):
    for metric in metrics:
        write_comparison(summary, metric, *comparison_files(folder, metric),
                         labels=labels, **options)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.summary, list(smk.params.metrics), smk.output.folder,
             dict(smk.params.options), dict(smk.params.labels))
