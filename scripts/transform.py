"""Snakemake adapter: one label transformation on one fold."""

from mlfsbench.workflow.logutil import log_to
from mlfsbench.workflow.stages import transform


def main(data, split, fold, out, summary_out, method, params, seed):
    transform(data, split, fold, out, summary_out, method=method, params=params,
              seed=seed)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(smk.input.data, smk.input.split, int(smk.wildcards.fold),
             smk.output.labels, smk.output.summary, smk.params.method,
             dict(smk.params.method_params), smk.params.seed)
