"""Snakemake adapter: download one raw file (checksummed, atomic).

The mirror is a runtime choice (config ``mirror`` or ``MLFS_MIRROR``), not a
rule parameter: the checksum guarantees the same bytes from any source.
"""

from mlfsbench.data import download
from mlfsbench.workflow.logutil import log_to


def main(url, dest, sha256, name, mirror):
    download(url, dest, sha256=sha256, name=name, mirror=mirror or None)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.params.url, smk.output.raw, smk.params.sha256,
             smk.wildcards.dataset, smk.config.get("mirror", ""))
