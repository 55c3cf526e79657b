# Label-space transformations fitted on each fold's training labels.
rule transform:
    input:
        data=rules.prepare.output.data,
        split=rules.split.output.split,
    output:
        labels="results/shared/{dataset}/{split}/{batch}/seed{seed}/labels/{transform}.npz",
        summary="results/shared/{dataset}/{split}/{batch}/seed{seed}/labels/{transform}.json",
    log:
        "logs/transform/{dataset}/{split}/{batch}/seed{seed}/{transform}.log",
    benchmark:
        "benchmarks/shared/transform/{dataset}/{split}/{batch}/seed{seed}/{transform}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=mem_mb_of("transform"),
        runtime=30,
    params:
        folds=folds,
        method=transform_name,
        method_params=transform_params,
        record_keys=cache_keys,
        code=code("transform.py", "transformation"),
    script:
        "../scripts/transform.py"


rule transformations_table:
    input:
        summaries=experiment_files("transform"),
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
    params:
        labels=experiment_labels("transform"),
        code=code("transformations_table.py"),
    script:
        "../scripts/transformations_table.py"
