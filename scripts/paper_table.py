"""Snakemake adapter: the paper-style tables (TSV, Markdown, LaTeX, HTML) of
every compared metric of an experiment, in one job."""

import os

from mlfsbench.report.compare import comparison_files
from mlfsbench.report.paper_tables import write_paper_table
from mlfsbench.workflow.logutil import log_to


def main(summary, stats, metrics, experiment, folder, options, labels=None,
         order=None, printed=None, aliases=None):
    """``<metric>.tsv``, ``.md``, ``.tex`` and ``.html`` in ``folder`` for
    each metric, from ``stats/<metric>.json`` in the ``stats`` folder."""
    os.makedirs(folder, exist_ok=True)
    for metric in metrics:
        outs = {ext: os.path.join(folder, f"{metric}.{ext}")
                for ext in ("tsv", "md", "tex", "html")}
        write_paper_table(summary, comparison_files(stats, metric)[0], metric,
                          experiment, outs, n_features=options["n_features"],
                          labels=labels, order=order,
                          decimals=options.get("round"),
                          exclude=options.get("exclude", ()), printed=printed,
                          aliases=aliases)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    printed = smk.input.printed  # the study's printed tables, if any
    printed = [printed] if isinstance(printed, str) else list(printed)
    with log_to(smk.log[0]):
        main(smk.input.summary, smk.input.stats, list(smk.params.metrics),
             smk.wildcards.experiment, smk.output.folder,
             dict(smk.params.options), dict(smk.params.labels),
             list(smk.params.order), printed=(printed or [None])[0],
             aliases=dict(smk.params.aliases))
