# Label-space transformations fitted on each fold's training labels.
rule transform:
    input:
        data=rules.prepare.output.data,
        split=rules.split.output.split,
    output:
        labels="results/{experiment}/{dataset}/{split}/fold{fold}/labels/{transform}.npz",
        summary="results/{experiment}/{dataset}/{split}/fold{fold}/labels/{transform}.json",
    log:
        "logs/{experiment}/transform/{dataset}/{split}/fold{fold}/{transform}.log",
    benchmark:
        "benchmarks/{experiment}/transform/{dataset}/{split}/fold{fold}/{transform}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mb,
        runtime=30,
    params:
        method=transform_name,
        method_params=transform_params,
        seed=seed,
    script:
        "../scripts/transform.py"


rule transformations_table:
    input:
        summaries=experiment_transform_files,
    output:
        table=report(
            "results/{experiment}/tables/transformations.tsv",
            caption="../report/transformations.rst",
            category="{experiment}",
            subcategory="tables",
        ),
    log:
        "logs/{experiment}/transformations_table.log",
    benchmark:
        "benchmarks/{experiment}/transformations_table.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    script:
        "../scripts/transformations_table.py"
