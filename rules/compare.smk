# Statistical comparison of each experiment's methods, runtimes and stability.
# One job per experiment for all its compared metrics (one process start, not
# one per metric): <metric>.json and <metric>_cd.png in the folder.
rule stats:
    input:
        summary=rules.aggregate.output.summary,
    output:
        # the CD diagrams are shown on the summary page (not report items)
        folder=directory("results/{experiment}/stats"),
    log:
        "logs/{experiment}/stats.log",
    benchmark:
        "benchmarks/{experiment}/stats.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        metrics=experiment_metrics,
        options=stats_options,
        labels=labels,
        code=code("stats.py"),
    script:
        "../scripts/stats.py"


rule ranks:
    input:
        stats=rules.stats.output.folder,
    output:
        table="results/{experiment}/tables/ranks.tsv",
        html=report(
            "results/{experiment}/tables/ranks.html",
            caption="../report/ranks.rst",
            category="{experiment}",
            subcategory="tables",
        ),
        pairwise="results/{experiment}/tables/pairwise.tsv",
        pairwise_html=report(
            "results/{experiment}/tables/pairwise.html",
            caption="../report/pairwise.rst",
            category="{experiment}",
            subcategory="tables",
        ),
    log:
        "logs/{experiment}/ranks.log",
    benchmark:
        "benchmarks/{experiment}/ranks.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    params:
        metrics=experiment_metrics,
        labels=labels,
        code=code("ranks.py"),
    script:
        "../scripts/ranks.py"


rule runtime:
    input:
        selections=experiment_files("select"),
    output:
        table="results/{experiment}/tables/runtime.tsv",
        html=report(
            "results/{experiment}/tables/runtime.html",
            caption="../report/runtime.rst",
            category="{experiment}",
            subcategory="tables",
        ),
        # what each selection learnt, one number per attribute and fold
        fitted="results/{experiment}/tables/fitted.tsv",
    log:
        "logs/{experiment}/runtime.log",
    benchmark:
        "benchmarks/{experiment}/runtime.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        labels=experiment_labels("select"),
        code=code("runtime.py"),
    script:
        "../scripts/runtime.py"


rule stability:
    input:
        selections=experiment_files("select"),
    output:
        table="results/{experiment}/tables/stability.tsv",
        png=report(
            "results/{experiment}/plots/stability.png",
            caption="../report/stability.rst",
            category="{experiment}",
            subcategory="stability",
        ),
    log:
        "logs/{experiment}/stability.log",
    benchmark:
        "benchmarks/{experiment}/stability.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        grid=lambda wildcards: GRIDS[wildcards.experiment],
        labels=labels,
        key_labels=experiment_labels("select"),
        code=code("stability.py"),
    script:
        "../scripts/stability.py"


rule provenance:
    output:
        text=report(
            "results/{experiment}/provenance.txt",
            caption="../report/provenance.rst",
            category="{experiment}",
            subcategory="provenance",
        ),
    log:
        "logs/{experiment}/provenance.log",
    benchmark:
        "benchmarks/{experiment}/provenance.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        config=provenance_config,
        code=code("provenance.py"),
    script:
        "../scripts/provenance.py"
