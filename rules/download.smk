# Raw Mulan files: streamed, checksummed, renamed atomically; never rewritten.
rule download:
    output:
        raw=ensure(protected("data/raw/{dataset}/{file}"), sha256=raw_sha256),
    log:
        "logs/download/{dataset}/{file}.log",
    benchmark:
        "benchmarks/download/{dataset}/{file}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=30,
    params:
        url=raw_url,
        sha256=raw_sha256,
    script:
        "../scripts/download.py"
