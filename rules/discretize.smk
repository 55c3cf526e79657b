# Discretizers fitted on each fold's training part, applied to both parts
# (one job per fold batch).
rule discretize:
    input:
        data=rules.prepare.output.data,
        split=rules.split.output.split,
    output:
        disc="results/shared/{dataset}/{split}/{batch}/disc/{disc}.npz",
    log:
        "logs/discretize/{dataset}/{split}/{batch}/{disc}.log",
    benchmark:
        "benchmarks/shared/discretize/{dataset}/{split}/{batch}/{disc}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=mem_mb_of("discretize"),
        runtime=30,
    params:
        folds=folds,
        disc=disc_params,
        code=code("discretize.py"),
    script:
        "../scripts/discretize.py"
