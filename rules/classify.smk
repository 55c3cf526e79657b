# Classification on the top-K features for every K of the grid, and the
# metrics of every fold of a batch, in one job (predictions kept on request).
rule classify:
    input:
        unpack(classify_inputs),
    output:
        metrics="results/shared/{dataset}/{split}/{batch}/seed{seed}/metrics/{selector}/{classifier}/{grid}.tsv",
    log:
        "logs/classify/{dataset}/{split}/{batch}/seed{seed}/{selector}/{classifier}/{grid}.log",
    benchmark:
        "benchmarks/shared/classify/{dataset}/{split}/{batch}/seed{seed}/{selector}/{classifier}/{grid}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: batch_threads
    resources:
        mem_mb=mem_mb_of("classify"),
        runtime=120,
    params:
        folds=folds,
        classifier=classifier_name,
        classifier_params=classifier_params,
        grid=grid,
        record_keys=cache_keys,
        keep_predictions=KEEP_PREDICTIONS,
        code=code("classify.py", "classifier"),
    script:
        "../scripts/classify.py"
