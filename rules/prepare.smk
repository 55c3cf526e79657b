# Parse ARFF (+ Mulan XML) into the compact prepared dataset.
rule prepare:
    input:
        unpack(raw_inputs),
    output:
        data="data/prepared/{dataset}.npz",
        stats="data/prepared/{dataset}.stats.json",
    log:
        "logs/prepare/{dataset}.log",
    benchmark:
        "benchmarks/shared/prepare/{dataset}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        nominal=config["prepare"]["nominal"],
        missing=config["prepare"]["missing"],
        targets=dataset_targets,
        code=code("prepare.py"),
    script:
        "../scripts/prepare.py"
