# Raw Mulan files: streamed, checksummed, renamed atomically; never rewritten.
# The URL is not a parameter (the script reads it from the datasets table):
# the checksum identifies the data, a new URL for the same bytes changes nothing.
# params.sha256 is the table's checksum (a sha256 or git-blob:<id>), verified
# by the download itself; ensure() checks a sha256 (raw_sha256).
rule download:
    output:
        raw=ensure(protected("data/raw/{dataset}/{file}"), sha256=raw_sha256),
    log:
        "logs/download/{dataset}/{file}.log",
    benchmark:
        "benchmarks/shared/download/{dataset}/{file}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=30,
    params:
        sha256=raw_checksum,
    script:
        "../scripts/download.py"
