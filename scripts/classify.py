"""Snakemake adapter: classify one fold for every feature count of the grid."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import classify


def main(data, split, fold, selection, out, classifier, params, grid, seed):
    classify(data, split, fold, selection, out, classifier=classifier,
             params=params, grid=grid, seed=seed)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, int(smk.wildcards.fold),
             smk.input.selection, smk.output.predictions, smk.params.classifier,
             dict(smk.params.classifier_params), list(smk.params.grid),
             smk.params.seed)
