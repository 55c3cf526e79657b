"""Snakemake adapter: write one fold batch of one resampling scheme."""

from mlfsbench.io import CacheIntegrityError
from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import split


def main(data, spec, out, folds):
    try:
        split(data, spec, out, folds)
    except CacheIntegrityError:  # names the file and the recovery already
        raise
    except ValueError as exc:  # name the dataset and the protocol
        raise ValueError(f"{data}: split {spec}: {exc}") from None


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, dict(smk.params.spec), smk.output.split,
             list(smk.params.folds))
