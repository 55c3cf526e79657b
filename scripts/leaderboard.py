"""Snakemake adapter: the leaderboard page and table across the studies."""

from mlfsbench.report.challenge import readable_labels
from mlfsbench.report.leaderboard import write_leaderboard
from mlfsbench.workflow.logutil import log_to


def main(ranks, challenges, html_out, tsv_out, labels=None):
    write_leaderboard(ranks, challenges, html_out, tsv_out, labels=labels)


if __name__ == "__main__":
    smk = snakemake  # noqa: F821 (injected by Snakemake)
    with log_to(smk.log[0]):
        p = smk.params
        ranks = dict(zip(p.ranked, smk.input.ranks, strict=True))
        challenges = dict(zip(p.challenged, smk.input.challenges, strict=True))
        # earlier challenges' rows on disk, kept beside this run's
        challenges.update(zip(p.earlier, smk.input.earlier, strict=True))
        main(ranks, challenges, smk.output.html, smk.output.tsv,
             readable_labels(dict(p.labels), dict(p.entries)))
