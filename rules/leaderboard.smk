# Every method (the papers' and every challenger run so far) across the
# studies: its average rank per experiment, from the tables the statistics
# rules wrote (ranks.tsv; challenge.tsv where challengers are ranked with
# the paper's methods, this run's and earlier challenges' on disk).
rule leaderboard:
    input:
        ranks=[
            rules.ranks.output.table.format(experiment=e)
            for e in MAIN_EXPERIMENTS
            if e not in CHALLENGED
        ],
        challenges=[rules.challenge.output.tsv.format(experiment=e) for e in CHALLENGED],
        earlier=list(EARLIER_CHALLENGES.values()),
    output:
        html=report(
            "results/leaderboard.html",
            caption="../report/leaderboard.rst",
            category="leaderboard",
        ),
        tsv="results/leaderboard.tsv",
    log:
        "logs/leaderboard.log",
    benchmark:
        "benchmarks/leaderboard.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    params:
        ranked=[e for e in MAIN_EXPERIMENTS if e not in CHALLENGED],
        challenged=list(CHALLENGED),
        earlier=list(EARLIER_CHALLENGES),
        labels=experiments_labels(MAIN_EXPERIMENTS),
        entries=PLAN.challenges_entries(),
        code=code("leaderboard.py"),
    script:
        "../scripts/leaderboard.py"
