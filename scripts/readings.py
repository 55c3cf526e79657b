"""Snakemake adapter: a study's claims under every reading, and their robustness."""

from mlfsbench.report.readings import write_readings
from mlfsbench.workflow.logutil import log_to


def main(favoured, variants, spec, readings_out, robust_out, experiment,
         scoring=None):
    pairs = [(r, o, path)
             for (r, o), path in zip(spec["variants"], variants, strict=True)]
    table = write_readings(favoured, pairs, spec["readings"], readings_out,
                           robust_out, scoring=scoring)
    for word, count in table["robustness"].value_counts().items():
        print(f"{experiment}: {count} {word}")


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.favoured, list(smk.input.variants), dict(smk.params.spec),
             smk.output.readings, smk.output.robust, smk.wildcards.experiment,
             scoring=smk.input.scoring)
