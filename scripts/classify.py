"""Snakemake adapter: classify and evaluate a batch of folds for every K."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import classify_batch


def main(data, split, folds, selection, out, classifier, params, grid, seed, keys,
         codes, threads, keep_predictions, version=None):
    predictions = out.removesuffix(".tsv") + ".predictions" if keep_predictions \
        else None
    classify_batch(data, split, folds, selection, out, classifier=classifier,
                   params=params, grid=grid, seed=seed, keys=keys, codes=codes,
                   threads=threads, predictions_dir=predictions, version=version)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, list(smk.params.folds),
             smk.input.get("selection"), smk.output.metrics, smk.params.classifier,
             dict(smk.params.classifier_params), list(smk.params.grid),
             int(smk.wildcards.seed), dict(smk.params.record_keys),
             smk.input.get("codes"), smk.threads, smk.params.keep_predictions,
             str(smk.params.code))
