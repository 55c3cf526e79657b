# Result tables over all folds, the datasets report and one plot per dataset.
rule aggregate:
    input:
        metrics=metric_files(),
    output:
        metrics="results/tables/metrics.tsv",
        summary="results/tables/summary.tsv",
    log:
        "logs/aggregate/aggregate.log",
    benchmark:
        "benchmarks/aggregate/aggregate.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/aggregate.py"


rule datasets_report:
    input:
        stats=stats_files(),
    output:
        table="results/tables/datasets.tsv",
    log:
        "logs/aggregate/datasets.log",
    benchmark:
        "benchmarks/aggregate/datasets.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    script:
        "../scripts/datasets_report.py"


rule plot:
    input:
        summary=rules.aggregate.output.summary,
    output:
        png="results/plots/{dataset}.png",
        pdf="results/plots/{dataset}.pdf",
    log:
        "logs/plot/{dataset}.log",
    benchmark:
        "benchmarks/plot/{dataset}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot.py"
