"""Snakemake adapter: download one raw file (checksummed, atomic).

The URL is looked up in the datasets table here, not passed as a rule
parameter: the checksum identifies the data, so changing only a URL neither
downloads again nor recomputes anything. The mirror is a runtime choice
(config ``mirror`` or ``MLFS_MIRROR``) for the same reason.
"""

from mlfsbench.data import download
from mlfsbench.data.rawfiles import raw_file_source
from mlfsbench.workflow.logutil import log_to


def main(table, dataset, file, dest, sha256, mirror):
    url, _ = raw_file_source(table, dataset, file)
    download(url, dest, sha256=sha256, name=dataset, mirror=mirror or None)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.config["datasets_table"], smk.wildcards.dataset,
             smk.wildcards.file, smk.output.raw, smk.params.sha256,
             smk.config.get("mirror", ""))
