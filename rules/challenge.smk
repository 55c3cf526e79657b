# A method of one's own against each study's (entries flagged
# `challenger: true`): per experiment with challengers its CD diagrams with
# the challengers highlighted, its page and rows; one page across studies,
# every challenge whose rows are on disk kept there (this run's first).
# Scheduled only when an experiment has a challenger (challenge_targets).
rule challenge_cd:
    input:
        summary=rules.aggregate.output.summary,
    output:
        png="results/{experiment}/challenge/{metric}_cd.png",
    log:
        "logs/{experiment}/challenge/{metric}_cd.log",
    benchmark:
        "benchmarks/{experiment}/challenge/{metric}_cd.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        options=stats_options,
        challengers=challenger_ids,
        labels=labels,
        entries=challenger_entries,
        code=code("challenge.py"),
    script:
        "../scripts/challenge.py"


# Each challenger against each paper method: the Bayesian signed-rank test
# and Cliff's delta per compared metric (the statistics; the page reads them).
rule challenge_pairwise:
    input:
        summary=rules.aggregate.output.summary,
    output:
        tsv="results/{experiment}/challenge/pairwise.tsv",
    log:
        "logs/{experiment}/challenge/pairwise.log",
    benchmark:
        "benchmarks/{experiment}/challenge/pairwise.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        options=stats_options,
        challengers=challenger_ids,
        metrics=compared_metrics,
        code=code("challenge.py"),
    script:
        "../scripts/challenge.py"


rule challenge:
    input:
        summary=rules.aggregate.output.summary,
        runtime=rules.runtime.output.table,
        cds=challenge_cd_files,
        pairwise=rules.challenge_pairwise.output.tsv,
    output:
        html="results/{experiment}/challenge/index.html",
        tsv="results/{experiment}/challenge/challenge.tsv",
    log:
        "logs/{experiment}/challenge/page.log",
    benchmark:
        "benchmarks/{experiment}/challenge/page.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        options=stats_options,
        challengers=challenger_ids,
        metrics=compared_metrics,
        labels=labels,
        order=method_order,
        entries=challenger_entries,
        paper_datasets=paper_datasets,
        code=code("challenge.py"),
    script:
        "../scripts/challenge.py"


rule challenges:
    input:
        tables=[rules.challenge.output.tsv.format(experiment=e) for e in CHALLENGED],
        earlier=list(EARLIER_CHALLENGES.values()),
    output:
        html="results/challenges.html",
        tsv="results/challenges.tsv",
    log:
        "logs/challenges.log",
    benchmark:
        "benchmarks/challenges.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        experiments=PLAN.challenger_map(),
        challenged=list(CHALLENGED),
        reasons=PLAN.unavailable_reasons(),
        earlier=list(EARLIER_CHALLENGES),
        history=CHALLENGE_HISTORY,
        labels=PLAN.challenge_labels(),
        entries=PLAN.challenges_entries(),
        code=code("challenge.py"),
    script:
        "../scripts/challenge.py"
