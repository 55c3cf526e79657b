"""Snakemake adapter: parse raw ARFF (+ XML) into a prepared dataset."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import prepare


def main(arff, xml, out, stats, name, nominal, missing, targets):
    prepare(arff, xml, out, stats, name=name, nominal=nominal, missing=missing,
            targets=targets)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(list(smk.input.arff), smk.input.get("xml"), smk.output.data,
             smk.output.stats, smk.wildcards.dataset, smk.params.nominal,
             smk.params.missing, smk.params.targets)
