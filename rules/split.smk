# Folds of each resampling scheme, deterministic from the split's seed.
rule split:
    input:
        data=rules.prepare.output.data,
    output:
        split="results/{dataset}/splits/{split}.npz",
    log:
        "logs/split/{dataset}/{split}.log",
    benchmark:
        "benchmarks/split/{dataset}/{split}.tsv"
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
