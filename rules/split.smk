# Folds of each split protocol, deterministic from the split's seed, one file
# per fold batch; shared by every experiment that asks for the same protocol.
rule split:
    input:
        data=rules.prepare.output.data,
    output:
        split="results/shared/{dataset}/{split}/{batch}/folds.npz",
    log:
        "logs/split/{dataset}/{split}/{batch}.log",
    benchmark:
        "benchmarks/shared/split/{dataset}/{split}/{batch}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=mem_mb_of("split"),
        runtime=30,
    params:
        spec=split_spec,
        folds=folds,
        code=code("split.py"),
    script:
        "../scripts/split.py"
