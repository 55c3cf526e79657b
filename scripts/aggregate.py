"""Snakemake adapter: the tidy table of all folds and its summary."""

import os

from mlfsbench.report.aggregate import last_good, write_tables
from mlfsbench.workflow.logutil import log_to


def main(paths, labels, metrics_out, summary_out, summary_html_out=None):
    write_tables(paths, metrics_out, summary_out, labels=labels,
                 summary_html_out=summary_html_out)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]) as log:
        try:
            main(list(smk.input.metrics), list(smk.params.labels),
                 smk.output.metrics, smk.output.summary, smk.output.summary_html)
        except Exception:
            # Snakemake deletes this job's outputs: say where the earlier are
            kept = os.path.dirname(last_good(smk.output.metrics))
            if os.path.isdir(kept):
                log.warning("the tables of the last aggregate that succeeded are "
                            "kept in %s", kept)
            raise
