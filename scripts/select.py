"""Snakemake adapter: rank features of a batch of folds with one selector."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import select_batch


def main(data, split, folds, out, method, params, seed, keys, disc, threads,
         version=None):
    # version: the code's; finished folds then survive a stopped job
    select_batch(data, split, folds, out, method=method, params=params, seed=seed,
                 keys=keys, discretized=disc, threads=threads, version=version)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, list(smk.params.folds),
             smk.output.selection, smk.params.method,
             dict(smk.params.method_params), int(smk.wildcards.seed),
             dict(smk.params.record_keys), smk.input.get("disc"), smk.threads,
             str(smk.params.code))
