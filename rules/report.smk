# The papers' tables regenerated: per experiment and compared metric, the
# dataset x method table at the stats' K, as TSV, Markdown, LaTeX and HTML,
# beside the paper's printed cells where the study's printed file has the table
# (an input, and its sha256 a parameter: an edit of it makes the table again).
rule paper_table:
    input:
        summary=rules.aggregate.output.summary,
        stats=rules.stats.output.folder,
        printed=printed_file,
    output:
        tsv="results/{experiment}/tables/paper/{metric}.tsv",
        md="results/{experiment}/tables/paper/{metric}.md",
        tex="results/{experiment}/tables/paper/{metric}.tex",
        html=report(
            "results/{experiment}/tables/paper/{metric}.html",
            caption="../report/paper_table.rst",
            category="{experiment}",
            subcategory="paper tables",
            labels={"metric": "{metric}"},
        ),
    log:
        "logs/{experiment}/paper_table/{metric}.log",
    benchmark:
        "benchmarks/{experiment}/paper_table/{metric}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        options=stats_options,
        labels=labels,
        order=method_order,
        aliases=method_aliases,
        files=printed_digest,
        code=code("paper_table.py"),
    script:
        "../scripts/paper_table.py"
