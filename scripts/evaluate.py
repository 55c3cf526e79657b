"""Snakemake adapter: every metric of one fold's predictions."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import evaluate


def main(data, predictions, out, wildcards):
    evaluate(data, predictions, out, dataset_name=wildcards.dataset,
             split_name=wildcards.split, fold=int(wildcards.fold),
             selector=wildcards.selector, classifier=wildcards.classifier)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.predictions, smk.output.metrics,
             smk.wildcards)
