# The papers' tables regenerated: per experiment (one job) and compared metric,
# the dataset x method table at the stats' K, as TSV, Markdown, LaTeX and HTML,
# beside the paper's printed cells where the study's printed file has the table
# (an input, and its sha256 a parameter: an edit of it makes the table again).
rule paper_table:
    input:
        summary=rules.aggregate.output.summary,
        stats=rules.stats.output.folder,
        printed=printed_file,
    output:
        # <metric>.tsv, .md, .tex and .html of every compared metric (one job
        # per experiment, one process start); the HTML pages are report items
        folder=report(
            directory("results/{experiment}/tables/paper"),
            patterns=["{metric}.html"],
            caption="../report/paper_table.rst",
            category="{experiment}",
            subcategory="paper tables",
            labels={"metric": "{metric}"},
        ),
    log:
        "logs/{experiment}/paper_table.log",
    benchmark:
        "benchmarks/{experiment}/paper_table.tsv"
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
        order=method_order,
        aliases=method_aliases,
        files=printed_digest,
        code=code("paper_table.py"),
    script:
        "../scripts/paper_table.py"
