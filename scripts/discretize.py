"""Snakemake adapter: discretize a batch of folds (fit on each training part)."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import discretize_batch


def main(data, split, folds, out, strategy, bins):
    discretize_batch(data, split, folds, out, strategy=strategy, bins=bins)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, list(smk.params.folds),
             smk.output.disc, smk.params.disc["strategy"], smk.params.disc["bins"])
