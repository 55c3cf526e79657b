"""Snakemake adapter: the paper's claims evaluated on the experiment's results."""

import os

from mlfsbench.report.claims import write_claims
from mlfsbench.workflow.logutil import log_to


def main(claims, experiment, setting, out, html_out, printed=None,
         study=None, scoring_out=None, artificial=()):
    # A variant of an experiment's readings is judged on that experiment's claims.
    root = os.path.dirname(os.path.dirname(out))  # results/<experiment>
    table = write_claims(claims, study or experiment, setting, root, out,
                         html_out, printed=printed, scoring_out=scoring_out,
                         artificial=list(artificial))
    for verdict, count in table["verdict"].value_counts().items():
        print(f"{experiment}: {count} {verdict}")


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    printed = smk.input.printed  # the study's printed tables, if any
    printed = [printed] if isinstance(printed, str) else list(printed)
    with log_to(smk.log[0]):
        main(smk.input.claims, smk.wildcards.experiment, smk.params.experiment,
             smk.output.table, smk.output.html, printed=(printed or [None])[0],
             study=smk.params.study, scoring_out=smk.output.scoring,
             artificial=[smk.input.artificial] if isinstance(smk.input.artificial, str)
             else list(smk.input.artificial))
