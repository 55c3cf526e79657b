"""Snakemake adapter: the summary page (results/summary.html, standalone) and
its copy without the page around it, the Snakemake report's opening page."""

import os

from mlfsbench.report.summary import summary_info, write_summary
from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.provenance import code_version


def main(experiments, files, readings, paper_datasets, out, fragment,
         challengers=None, leagues=()):
    write_summary(summary_info(experiments, files, readings, challengers,
                               paper_datasets), out,
                  code=code_version(), fragment=fragment, leagues=leagues)


def listed(inputs):
    """The input files, a folder's (an experiment's statistics) by name,
    without the hidden ones (Snakemake's ``.snakemake_timestamp``)."""
    out = []
    for f in inputs:
        out += ([os.path.join(f, name) for name in sorted(os.listdir(f))
                 if not name.startswith(".")]
                if os.path.isdir(f) else [f])
    return out


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(dict(smk.params.experiments), listed(smk.input.files),
             dict(smk.params.readings), dict(smk.params.paper_datasets),
             smk.output.html, smk.output.fragment,
             challengers=dict(smk.params.challengers),
             leagues=list(smk.params.leagues))
