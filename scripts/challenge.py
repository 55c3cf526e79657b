"""Snakemake adapter: challenge pages (a CD diagram, the Bayesian
comparisons, a study's page, the page across studies), by the rule that runs
it."""

import os

from mlfsbench.io import read_table
from mlfsbench.report.challenge import (
    challenge_cd,
    readable_labels,
    write_bayesian,
    write_challenge,
    write_challenges,
)
from mlfsbench.workflow.logutil import log_to


def cd(summary, metric, png, challengers, options, labels=None, entries=None):
    table = read_table(summary, dtype={"n_features": str})
    challenge_cd(table, metric, challengers, options, png, labels, entries)


def bayesian(summary, experiment, challengers, options, metrics, tsv_out):
    write_bayesian(summary, experiment, challengers, options, metrics, tsv_out)


def page(summary, runtime, experiment, challengers, options, metrics, cds,
         html_out, tsv_out, labels=None, order=None, entries=None,
         paper_datasets=None, pairwise=None):
    write_challenge(summary, runtime, experiment, challengers, options, metrics,
                    html_out, tsv_out, cd_files=cds, labels=labels, order=order,
                    entries=entries, paper_datasets=paper_datasets,
                    pairwise_path=pairwise)


def across(experiments, tables, html_out, tsv_out, pages=None, reasons=None,
           labels=None, history=()):
    write_challenges(experiments, tables, html_out, tsv_out, pages=pages,
                     reasons=reasons, labels=labels, history=history)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        p = smk.params
        if smk.rule == "challenge_cd":
            cd(smk.input.summary, smk.wildcards.metric, smk.output.png,
               list(p.challengers), dict(p.options), dict(p.labels),
               dict(p.entries))
        elif smk.rule == "challenge_pairwise":
            bayesian(smk.input.summary, smk.wildcards.experiment,
                     list(p.challengers), dict(p.options), list(p.metrics),
                     smk.output.tsv)
        elif smk.rule == "challenge":
            page(smk.input.summary, smk.input.runtime, smk.wildcards.experiment,
                 list(p.challengers), dict(p.options), list(p.metrics),
                 list(smk.input.cds), smk.output.html, smk.output.tsv,
                 dict(p.labels), list(p.order), dict(p.entries),
                 list(p.paper_datasets), smk.input.pairwise)
        else:
            experiments = {e: list(c) for e, c in dict(p.experiments).items()}
            tables = dict(zip(p.challenged, smk.input.tables, strict=True))
            # earlier challenges' rows on disk, kept beside this run's
            tables.update(zip(p.earlier, smk.input.earlier, strict=True))
            # each study's page sits beside its rows (rule challenge)
            here = os.path.dirname(smk.output.html)
            pages = {e: os.path.relpath(os.path.join(os.path.dirname(t), "index.html"),
                                        here) for e, t in tables.items()}
            across(experiments, tables, smk.output.html, smk.output.tsv,
                   pages=pages, reasons=dict(p.reasons),
                   labels=readable_labels(dict(p.labels), dict(p.entries)),
                   history=list(p.history))
