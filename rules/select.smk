# Feature ranking of each configured selector on each fold's training part.
rule select:
    input:
        unpack(select_inputs),
    output:
        selection="results/{experiment}/{dataset}/{split}/fold{fold}/select/{selector}.json",
    log:
        "logs/{experiment}/select/{dataset}/{split}/fold{fold}/{selector}.log",
    benchmark:
        "benchmarks/{experiment}/select/{dataset}/{split}/fold{fold}/{selector}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: selector_threads
    resources:
        mem_mb=dataset_mb,
        runtime=120,
    params:
        method=selector_name,
        method_params=selector_params,
        seed=seed,
    script:
        "../scripts/select.py"
