# A selector on fresh draws of an artificial problem (Doquire & Verleysen
# 2013, Sec. 5.1), for the claims that check its rankings: one job per run,
# keyed by its content (problem, selector, parameters, draws), however many
# claims and readings ask for it.
rule artificial:
    output:
        runs="results/shared/artificial/{key}.npz",
    log:
        "logs/artificial/{key}.log",
    benchmark:
        "benchmarks/shared/artificial/{key}.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    params:
        spec=artificial_spec,
        code=code("artificial.py", "artificial"),
    script:
        "../scripts/artificial.py"


# The paper's checkable claims (config/papers/<study>.claims.yaml), evaluated
# on each experiment's own result tables: the verdict table of the report.
rule claims:
    input:
        claims=claims_file,
        printed=printed_file,
        summary=rules.aggregate.output.summary,
        # every fold's value: the paired comparisons behind the noise labels
        metrics=rules.aggregate.output.metrics,
        runtime=rules.runtime.output.table,
        fitted=rules.runtime.output.fitted,
        stats=rules.stats.output.folder,
        # the runs its artificial claims check
        artificial=artificial_files,
    output:
        table="results/{experiment}/tables/claims.tsv",
        # the verdicts under each option of the claims file's scoring readings
        scoring="results/{experiment}/tables/scoring.tsv",
        html=report(
            "results/{experiment}/tables/claims.html",
            caption="../report/claims.rst",
            category="1. Summary",
            subcategory="{experiment}",
            labels={"experiment": "{experiment}", "figure": "verdicts"},
        ),
    log:
        "logs/{experiment}/claims.log",
    benchmark:
        "benchmarks/{experiment}/claims.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    params:
        # the experiment's datasets, methods' names and parameters, challengers
        experiment=claims_setting,
        study=study_of,
        files=claims_digest,
        code=code("claims.py"),
    script:
        "../scripts/claims.py"


# An experiment with readings: its claims' verdicts under every reading side
# by side (readings.tsv) and how robust each is (robust_claims.tsv).
rule readings:
    input:
        favoured=rules.claims.output.table,
        scoring=rules.claims.output.scoring,
        variants=variant_claims,
    output:
        readings="results/{experiment}/tables/readings.tsv",
        robust="results/{experiment}/tables/robust_claims.tsv",
    log:
        "logs/{experiment}/readings.log",
    benchmark:
        "benchmarks/{experiment}/readings.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        spec=readings_spec,
        code=code("readings.py"),
    script:
        "../scripts/readings.py"


rule headline:
    input:
        summary=rules.aggregate.output.summary,
    output:
        # shown on the summary page (embedded there once, not a report item)
        png="results/{experiment}/plots/headline.png",
    log:
        "logs/{experiment}/headline.log",
    benchmark:
        "benchmarks/{experiment}/headline.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        metric=headline_metric,
        labels=labels,
        dataset_params=dataset_params,
        # the K of the paper tables: the figure's alt text names the best there
        table_k=lambda w: stats_options(w)["n_features"],
        code=code("headline.py"),
    script:
        "../scripts/headline.py"


rule summary:
    input:
        files=summary_inputs(),
    output:
        # the summary page, standalone (the run's last line names it)
        html="results/summary.html",
        # the same without the page around it: the report's opening page
        # (report/workflow.rst includes it); not also a report item, its
        # figures would be embedded twice
        fragment="results/summary.report.html",
    log:
        "logs/summary.log",
    benchmark:
        "benchmarks/summary.tsv"
    conda:
        "../envs/mlfsbench.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        experiments=canonical(MAIN_EXPERIMENTS),
        # the paper's datasets of each study (a challenge runs some of them)
        paper_datasets={e: PLAN.paper_datasets_of(e) for e in MAIN_EXPERIMENTS},
        # the declared readings, for their legends beside each claim
        readings=canonical(
            {e: PLAN.readings[e] for e in MAIN_EXPERIMENTS if e in PLAN.readings}
        ),
        # the challengers' names, by experiment (a link to each challenge page)
        challengers=canonical(PLAN.challenger_labels()),
        # the league pages to link: on disk, or this run's
        leagues=league_pages(),
        # the claims files the page reads (papers, datasets named)
        files=content_digest(
            sorted({x["claims"] for x in MAIN_EXPERIMENTS.values() if x.get("claims")})
        ),
        code=code("summary.py"),
    script:
        "../scripts/summary.py"
