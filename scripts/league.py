"""Snakemake adapter: the league page, its tables and figures."""

from mlfsbench.report.league import write_league
from mlfsbench.workflow.logutil import log_to

if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        spec = dict(smk.params.spec)
        summaries = dict(zip(spec["order"], smk.input.summaries, strict=True))
        write_league(spec, summaries, smk.output.html, smk.output.figures)
