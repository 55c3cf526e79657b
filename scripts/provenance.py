"""Snakemake adapter: the exact config and package versions of a run."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.provenance import write_provenance


def main(config, out):
    write_provenance(config, out)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(dict(smk.params.config), smk.output.text)
