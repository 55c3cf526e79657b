# Folds of each resampling scheme, deterministic from the split's seed.
rule split:
    input:
        data=rules.prepare.output.data,
    output:
        split="results/{experiment}/{dataset}/splits/{split}.npz",
    log:
        "logs/{experiment}/split/{dataset}/{split}.log",
    benchmark:
        "benchmarks/{experiment}/split/{dataset}/{split}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mb,
        runtime=30,
    params:
        spec=split_spec,
    script:
        "../scripts/split.py"
