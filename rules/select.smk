# Feature ranking of a selector on the training part of each fold of a batch.
rule select:
    input:
        unpack(select_inputs),
    output:
        selection="results/shared/{dataset}/{split}/{batch}/seed{seed}/select/{selector}.json",
    log:
        "logs/select/{dataset}/{split}/{batch}/seed{seed}/{selector}.log",
    benchmark:
        "benchmarks/shared/select/{dataset}/{split}/{batch}/seed{seed}/{selector}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: selector_threads
    resources:
        mem_mb=mem_mb_of("select"),
        runtime=120,
    params:
        folds=folds,
        method=selector_name,
        method_params=selector_params,
        record_keys=cache_keys,
        code=code("select.py", "selector"),
    script:
        "../scripts/select.py"
