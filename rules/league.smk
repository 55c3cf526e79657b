# The league (config/league.yaml, docs/league.md): every registered selector
# under each study's protocol, one experiment per protocol (their per-fold
# jobs are the studies' where the methods are); its page compares them per
# protocol and across protocols. Scheduled only when the config has a league
# (league_targets).
rule league:
    input:
        summaries=league_summaries,
    output:
        html="results/{league}/league.html",
        ranks="results/{league}/ranks.tsv",
        kendall="results/{league}/kendall.tsv",
        versus="results/{league}/versus_best.tsv",
        orderings="results/{league}/orderings.tsv",
        methods="results/{league}/methods.tsv",
        figures=directory("results/{league}/figures"),
    log:
        "logs/{league}/league.log",
    benchmark:
        "benchmarks/{league}/league.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        spec=LEAGUE,
        code=code("league.py"),
    script:
        "../scripts/league.py"
