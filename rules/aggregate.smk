# Result tables of each experiment, the datasets report and the plots.
rule aggregate:
    input:
        metrics=experiment_files("classify"),
    output:
        metrics="results/{experiment}/tables/metrics.tsv",
        summary="results/{experiment}/tables/summary.tsv",
        # not a report item: every K of every method and dataset (2.7 MB for
        # Sechidis 2019); the report has the papers' tables at their K
        summary_html="results/{experiment}/tables/summary.html",
    log:
        "logs/{experiment}/aggregate.log",
    benchmark:
        "benchmarks/{experiment}/aggregate.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        labels=experiment_labels("classify"),
        code=code("aggregate.py"),
    script:
        "../scripts/aggregate.py"


rule datasets_report:
    input:
        stats=stats_files,
    output:
        table="results/{experiment}/tables/datasets.tsv",
        html=report(
            "results/{experiment}/tables/datasets.html",
            caption="../report/datasets.rst",
            category="{experiment}",
            subcategory="datasets",
        ),
    log:
        "logs/{experiment}/datasets_report.log",
    benchmark:
        "benchmarks/{experiment}/datasets_report.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    params:
        code=code("datasets_report.py"),
    script:
        "../scripts/datasets_report.py"


rule plot:
    input:
        summary=rules.aggregate.output.summary,
    output:
        png=report(
            "results/{experiment}/plots/{dataset}.png",
            caption="../report/plot.rst",
            category="{experiment}",
            subcategory="metrics vs number of features",
            labels={"dataset": "{dataset}"},
        ),
        pdf="results/{experiment}/plots/{dataset}.pdf",
    log:
        "logs/{experiment}/plot/{dataset}.log",
    benchmark:
        "benchmarks/{experiment}/plot/{dataset}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        labels=labels,
        dataset_params=dataset_params,
        metrics=compared_metrics,
        challengers=challenger_ids,
        code=code("plot.py"),
    script:
        "../scripts/plot.py"
