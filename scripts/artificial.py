"""Snakemake adapter: a selector on fresh draws of an artificial problem."""

from mlfsbench.evaluation.artificial import run, save_runs
from mlfsbench.workflow.logutil import log_to


def main(spec, out):
    rankings, scores = run(spec)
    save_runs(out, spec, rankings, scores)
    print(f"{spec['method']} on problem {spec['problem']}: {len(rankings)} draws")


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        main(dict(smk.params.spec), smk.output.runs)
