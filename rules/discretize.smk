# Discretizers fitted on each fold's training part, applied to both parts.
rule discretize:
    input:
        data=rules.prepare.output.data,
        split=rules.split.output.split,
    output:
        disc="results/{experiment}/{dataset}/{split}/fold{fold}/disc/{disc}.npz",
    log:
        "logs/{experiment}/discretize/{dataset}/{split}/fold{fold}/{disc}.log",
    benchmark:
        "benchmarks/{experiment}/discretize/{dataset}/{split}/fold{fold}/{disc}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mb,
        runtime=30,
    params:
        disc=disc_params,
    script:
        "../scripts/discretize.py"
