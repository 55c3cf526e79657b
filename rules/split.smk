# Folds of each split protocol, deterministic from the split's seed; shared by
# every experiment that asks for the same protocol.
rule split:
    input:
        data=rules.prepare.output.data,
    output:
        split="results/shared/{dataset}/{split}/folds.npz",
    log:
        "logs/split/{dataset}/{split}.log",
    benchmark:
        "benchmarks/shared/split/{dataset}/{split}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mb,
        runtime=30,
    params:
        spec=split_spec,
        code=code("split"),
    script:
        "../scripts/split.py"
