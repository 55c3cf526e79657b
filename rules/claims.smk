# The paper's checkable claims (config/papers/<study>.claims.yaml), evaluated
# on each experiment's own result tables: the verdict table of the report.
rule claims:
    input:
        claims=claims_file,
        summary=rules.aggregate.output.summary,
        runtime=rules.runtime.output.table,
        stats=experiment_stats_files,
    output:
        table="results/{experiment}/tables/claims.tsv",
        html=report(
            "results/{experiment}/tables/claims.html",
            caption="../report/claims.rst",
            category="1. Summary",
            subcategory="{experiment}",
            labels={"experiment": "{experiment}", "figure": "verdicts"},
        ),
    log:
        "logs/{experiment}/claims.log",
    benchmark:
        "benchmarks/{experiment}/claims.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    params:
        experiment=experiment_config,
    script:
        "../scripts/claims.py"
