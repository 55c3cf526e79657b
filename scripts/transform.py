"""Snakemake adapter: one label transformation on a batch of folds."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import transform_batch


def main(data, split, folds, out, summary_out, method, params, seed, keys):
    transform_batch(data, split, folds, out, summary_out, method=method,
                    params=params, seed=seed, keys=keys)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, list(smk.params.folds),
             smk.output.labels, smk.output.summary, smk.params.method,
             dict(smk.params.method_params), int(smk.wildcards.seed),
             dict(smk.params.record_keys))
