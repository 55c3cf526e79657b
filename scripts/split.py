"""Snakemake adapter: write the folds of one resampling scheme."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import split


def main(data, spec, out):
    split(data, spec, out)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, dict(smk.params.spec), smk.output.split)
