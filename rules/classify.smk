# Classification on the top-K features for every K of the grid, then metrics.
rule classify:
    input:
        data=rules.prepare.output.data,
        split=rules.split.output.split,
        selection=rules.select.output.selection,
    output:
        predictions="results/{experiment}/{dataset}/{split}/fold{fold}/predict/{selector}/{classifier}.npz",
    log:
        "logs/{experiment}/classify/{dataset}/{split}/fold{fold}/{selector}/{classifier}.log",
    benchmark:
        "benchmarks/{experiment}/classify/{dataset}/{split}/fold{fold}/{selector}/{classifier}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mb,
        runtime=120,
    params:
        classifier=classifier_name,
        classifier_params=classifier_params,
        grid=grid,
        seed=seed,
    script:
        "../scripts/classify.py"


rule evaluate:
    input:
        data=rules.prepare.output.data,
        predictions=rules.classify.output.predictions,
    output:
        metrics="results/{experiment}/{dataset}/{split}/fold{fold}/metrics/{selector}/{classifier}.tsv",
    log:
        "logs/{experiment}/evaluate/{dataset}/{split}/fold{fold}/{selector}/{classifier}.log",
    benchmark:
        "benchmarks/{experiment}/evaluate/{dataset}/{split}/fold{fold}/{selector}/{classifier}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mb,
        runtime=30,
    script:
        "../scripts/evaluate.py"
