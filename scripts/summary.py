"""Snakemake adapter: the report's opening page (results/summary.html)."""

from mlfsbench.report.summary import summary_info, write_summary
from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.provenance import code_version


def main(experiments, files, out):
    write_summary(summary_info(experiments, files), out, code=code_version())


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(dict(smk.params.experiments), list(smk.input.files), smk.output.html)
