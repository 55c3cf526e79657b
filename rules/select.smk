# Feature ranking of each configured selector on each fold's training part.
rule select:
    input:
        unpack(select_inputs),
    output:
        selection="results/{dataset}/{split}/fold{fold}/select/{selector}.json",
    log:
        "logs/select/{dataset}/{split}/fold{fold}/{selector}.log",
    benchmark:
        "benchmarks/select/{dataset}/{split}/fold{fold}/{selector}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mb,
        runtime=120,
    params:
        method=selector_name,
        method_params=selector_params,
        seed=config["seed"],
    script:
        "../scripts/select.py"
