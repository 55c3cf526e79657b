"""Snakemake adapter: one metric's statistical comparison and CD diagram."""

from mlfsbench.report.compare import write_comparison
from mlfsbench.workflow.logutil import log_to


def main(summary, metric, json_out, png_out, options, labels=None):
    write_comparison(summary, metric, json_out, png_out, labels=labels, **options)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.summary, smk.wildcards.metric, smk.output.json,
             smk.output.cd, dict(smk.params.options), dict(smk.params.labels))
