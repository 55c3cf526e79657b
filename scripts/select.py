"""Snakemake adapter: rank features of one fold with one selector."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import select


def main(data, split, fold, out, method, params, seed, disc):
    select(data, split, fold, out, method=method, params=params, seed=seed,
           discretized=disc)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, int(smk.wildcards.fold),
             smk.output.selection, smk.params.method,
             dict(smk.params.method_params), smk.params.seed, smk.input.get("disc"))
