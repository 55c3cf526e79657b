"""Snakemake adapter: discretize one fold (fit on its training part)."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import discretize


def main(data, split, fold, out, strategy, bins):
    discretize(data, split, fold, out, strategy=strategy, bins=bins)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, int(smk.wildcards.fold),
             smk.output.disc, smk.params.disc["strategy"], smk.params.disc["bins"])
