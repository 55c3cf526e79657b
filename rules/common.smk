# Config validation, wildcard constraints and the input functions of the rules,
# which read the plan of the jobs (mlfsbench.workflow.plan).
import os

from snakemake.utils import validate

from mlfsbench.data.rawfiles import RAW_FILE_ROLES
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER
from mlfsbench.report.names import challenge_id
from mlfsbench.workflow.config import CONFIG_SCHEMA, config_source
from mlfsbench.workflow.ids import canonical, content_digest
from mlfsbench.workflow.plan import alternatives, cache_keys, make_plan, mem_mb_of
from mlfsbench.workflow.plan import challenge_history, earlier_challenges
from mlfsbench.workflow.plan import read_config
from mlfsbench.workflow.report_params import experiments_labels

read_config(config, config_source(workflow))
validate(config, str(CONFIG_SCHEMA))
PLAN = make_plan(config)
PLAN.verify_raw_files(".snakemake/mlfsbench-raw-verified.json")
EXPERIMENTS, ENTRIES, GRIDS = PLAN.experiments, PLAN.entries, PLAN.grids
MAIN_EXPERIMENTS = PLAN.main_experiments  # without the variants of readings
KEEP_PREDICTIONS = PLAN.keep_predictions


LEAGUE = PLAN.league()  # the league page's spec (no protocols: no league)


wildcard_constraints:
    experiment=alternatives(EXPERIMENTS),
    league=alternatives([LEAGUE["name"]] if LEAGUE["protocols"] else []),
    dataset=alternatives(PLAN.table),
    split=alternatives(PLAN.splits),
    batch=r"folds\d+-\d+",
    seed=r"\d+",
    selector=alternatives(PLAN.ids("selector")),
    classifier=alternatives(PLAN.ids("classifier")),
    transform=alternatives(PLAN.ids("transformation")),
    grid=alternatives(PLAN.grid_of),
    disc=r"(equal-width|equal-frequency)-\d+",
    metric=alternatives(GREATER_IS_BETTER),
    file=alternatives(RAW_FILE_ROLES),
    key=r"[0-9a-f]{16}",


# ----------------------------------------------------------- code versions
# Every rule's params carry the version of the code its script reaches (plus
# the job's estimator module; for an artificial run, the selector it fits):
# mlfsbench.workflow.plan.Plan.code_version.
def code(script, kind=None):
    return PLAN.code_version(os.path.join(workflow.basedir, "scripts", script), kind)


# -------------------------------------------------- input functions (plan)
raw_checksum, dataset_targets = PLAN.raw_checksum, PLAN.dataset_targets
split_spec, folds, batch_threads = PLAN.split_spec, PLAN.folds, PLAN.batch_threads
selector_name, selector_params = PLAN.selector_name, PLAN.selector_params
selector_threads, disc_params = PLAN.selector_threads, PLAN.disc_params
transform_name, transform_params = PLAN.transform_name, PLAN.transform_params
classifier_name, classifier_params = PLAN.classifier_name, PLAN.classifier_params
grid, labels, stats_options = PLAN.grid, PLAN.labels, PLAN.stats_options
claims_file, claims_setting = PLAN.claims_file, PLAN.claims_setting
artificial_files, artificial_spec = PLAN.artificial_files, PLAN.artificial_spec
printed_file, study_of = PLAN.printed_file, PLAN.study
readings_spec, claims_digest = PLAN.readings_spec, PLAN.claims_digest
printed_digest, method_aliases = PLAN.printed_digest, PLAN.method_aliases
headline_metric, provenance_config = PLAN.headline_metric, PLAN.provenance_config
method_order, dataset_params = PLAN.method_order, PLAN.dataset_params
experiment_datasets, stats_metrics = PLAN.experiment_datasets, PLAN.stats_metrics


def variant_claims(wildcards):
    """The verdict tables of an experiment's variants, in declaration order."""
    out = rules.claims.output.table
    variants = PLAN.variants.get(wildcards.experiment, [])
    return [out.format(experiment=v) for v, _, _ in variants]


def raw_sha256(wildcards):
    return PLAN.raw_sha256(wildcards, rules.download.output.raw)


def raw_inputs(wildcards):
    return PLAN.raw_inputs(wildcards, rules.download.output.raw)


def _inputs(wildcards):
    """Data and split of a batch job."""
    return {
        "data": rules.prepare.output.data.format(dataset=wildcards.dataset),
        "split": rules.split.output.split.format(**PLAN.batch_keys(wildcards)),
    }


def _codes(wildcards, disc):
    """The codes of discretization ``disc`` on the job's batch."""
    return rules.discretize.output.disc.format(**PLAN.batch_keys(wildcards), disc=disc)


def select_inputs(wildcards):
    out, disc = _inputs(wildcards), PLAN.select_codes(wildcards)
    return {**out, "disc": _codes(wildcards, disc)} if disc else out


def classify_inputs(wildcards):
    """Data, split, the selection (not all-features) and the codes it reads."""
    out = _inputs(wildcards)
    if not PLAN.is_full_point(wildcards):
        out["selection"] = rules.select.output.selection.format(**wildcards)
    disc = PLAN.classify_codes(wildcards)
    return {**out, "codes": _codes(wildcards, disc)} if disc else out


# ------------------------------------------------------------------ targets
def _outputs(experiment, kind):
    """(output files, table labels) of one experiment's jobs of one kind."""
    pattern = {
        "select": rules.select.output.selection,
        "classify": rules.classify.output.metrics,
        "transform": rules.transform.output.summary,
    }[kind]
    jobs = PLAN.outputs(experiment, kind)
    return [pattern.format(**j.keys) for j in jobs], [j.labels for j in jobs]


def experiment_files(kind):
    return lambda wildcards: _outputs(wildcards.experiment, kind)[0]


def experiment_labels(kind):
    return lambda wildcards: _outputs(wildcards.experiment, kind)[1]


def _stats(e):
    """The folder of an experiment's statistics (every compared metric's
    <metric>.json and <metric>_cd.png: one job)."""
    return rules.stats.output.folder.format(experiment=e)


def _paper_tables(e):
    """The folder of an experiment's regenerated paper tables (every compared
    metric's <metric>.tsv, .md, .tex and .html: one job), if it compares any."""
    out = rules.paper_table.output.folder.format(experiment=e)
    return [out] if stats_metrics(e) else []


def experiment_metrics(wildcards):
    return stats_metrics(wildcards.experiment)


def stats_files(wildcards):
    return [
        rules.prepare.output.stats.format(dataset=d)
        for d in experiment_datasets(wildcards)
    ]


def claims_targets():
    """Verdict tables of the configured experiments (with readings: robust)."""
    out = rules.claims.output.table
    robust = rules.readings.output.robust
    claims = {e: x for e, x in MAIN_EXPERIMENTS.items() if x.get("claims")}
    return [out.format(experiment=e) for e in claims] + [
        robust.format(experiment=e) for e in claims if PLAN.robust(e)
    ]


def summary_inputs():
    """What the summary page shows: verdicts (with readings: per option),
    CD diagrams, headline and per-dataset curves, the papers' tables, run
    times."""
    out = claims_targets()
    for e, x in MAIN_EXPERIMENTS.items():
        # the CD diagrams, and whether one was drawn or why not
        out += [rules.headline.output.png.format(experiment=e), _stats(e)]
        out += _paper_tables(e)  # the papers' tables
        out += [
            rules.plot.output.png.format(experiment=e, dataset=d) for d in x["datasets"]
        ]
        out.append(rules.runtime.output.table.format(experiment=e))
        out.append(rules.aggregate.output.summary.format(experiment=e))  # linked
        if x.get("claims") and PLAN.robust(e):
            out.append(rules.readings.output.readings.format(experiment=e))
    return out


def all_targets():
    """Every table, figure and page of the configured experiments (the
    league's experiments have their own page: league_targets)."""
    out = claims_targets()
    if MAIN_EXPERIMENTS:
        out += [rules.summary.output.html, rules.leaderboard.output.html]
    for e, x in MAIN_EXPERIMENTS.items():
        tables = [rules.datasets_report.output.table, rules.provenance.output.text]
        tables += [rules.aggregate.output.metrics, rules.aggregate.output.summary]
        tables += [rules.ranks.output.table, rules.runtime.output.table]
        out += [t.format(experiment=e) for t in tables + [rules.stability.output.png]]
        out += [_stats(e), *_paper_tables(e)]
        if x.get("transformations"):
            out.append(rules.transformations_table.output.table.format(experiment=e))
        plots = (rules.plot.output.png, rules.plot.output.pdf)
        out += [p.format(experiment=e, dataset=d) for d in x["datasets"] for p in plots]
    return out + cached_results()


def cached_results():
    """Every per-fold result: a deleted one is computed again (issue 29, S7)."""
    out = rules.transform.output
    kinds = dict(select=rules.select.output.selection, labels=out.labels)
    kinds.update(classify=rules.classify.output.metrics, transform=out.summary)
    return PLAN.cached_results(kinds)


# ------------------------------------------------------------ challenges
# Entries flagged `challenger: true` (mlfsbench.workflow.challenges, mixed
# into the plan): rules/challenge.smk's jobs run for the experiments that have some.
CHALLENGED = PLAN.challenged
challenger_ids, compared_metrics = PLAN.challenger_ids, PLAN.compared_metrics
challenger_entries, paper_datasets = PLAN.challenger_entries, PLAN.paper_datasets


# earlier challenges' rows on disk (experiments not in this config: no rule
# makes them here) and their order on the page as last written
EARLIER_CHALLENGES = earlier_challenges("results", PLAN.experiments)
CHALLENGE_HISTORY = challenge_history(
    "results/challenges.tsv",
    list(dict.fromkeys(challenge_id(e, PLAN.challengers(e)) for e in CHALLENGED)),
)


def challenge_cd_files(wildcards):
    out, e = rules.challenge_cd.output.png, wildcards.experiment
    return [out.format(experiment=e, metric=m) for m in stats_metrics(e)]


def challenge_targets():
    """Each challenged experiment's page, its table and the page across studies."""
    if not CHALLENGED:
        return []
    pages = [rules.challenge.output.html.format(experiment=e) for e in CHALLENGED]
    return pages + [rules.challenges.output.html]


# ---------------------------------------------------------------- league
# The config's league (mlfsbench.workflow.league): one experiment per
# protocol, their results tables read by the league page.
def league_summaries(wildcards):
    """Each protocol's results table, in the page's order."""
    out = rules.aggregate.output.summary
    return [
        out.format(experiment=LEAGUE["protocols"][p]["experiment"])
        for p in LEAGUE["order"]
    ]


def league_targets():
    """The league's page (none without a league)."""
    if not LEAGUE["protocols"]:
        return []
    return [rules.league.output.html.format(league=LEAGUE["name"])]


def league_pages():
    """The league pages the summary page links (relative to results/): those
    on disk and this run's."""
    import glob

    found = {
        os.path.relpath(p, "results").replace(os.sep, "/")
        for p in glob.glob("results/*/league.html")
    }
    if LEAGUE["protocols"]:
        found.add(f"{LEAGUE['name']}/league.html")
    return sorted(found)
