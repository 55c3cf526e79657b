"""Snakemake adapter: one metric's paper-style table (TSV, Markdown, LaTeX, HTML)."""

import os

from mlfsbench.report.paper_tables import write_paper_table
from mlfsbench.workflow.logutil import log_to


def main(summary, stats, metric, experiment, outs, options, labels=None,
         order=None, printed=None, aliases=None):
    write_paper_table(summary, stats, metric, experiment, outs,
                      n_features=options["n_features"], labels=labels, order=order,
                      decimals=options.get("round"),
                      exclude=options.get("exclude", ()), printed=printed,
                      aliases=aliases)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    printed = smk.input.printed  # the study's printed tables, if any
    printed = [printed] if isinstance(printed, str) else list(printed)
    with log_to(smk.log[0]):
        out = smk.output
        main(smk.input.summary,
             os.path.join(smk.input.stats, f"{smk.wildcards.metric}.json"),
             smk.wildcards.metric,
             smk.wildcards.experiment,
             {"tsv": out.tsv, "md": out.md, "tex": out.tex, "html": out.html},
             dict(smk.params.options), dict(smk.params.labels),
             list(smk.params.order), printed=(printed or [None])[0],
             aliases=dict(smk.params.aliases))
