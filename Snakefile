# mlfsbench: multi-label feature selection benchmark.
# This file only wires the stages; see rules/ and the mlfsbench package.
from snakemake.utils import min_version

min_version("9.0")


report: "report/workflow.rst"


# A --configfile on the command line is a whole experiment: the default is
# loaded only without one (dict entries such as `splits` would merge otherwise).
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


include: "rules/common.smk"
include: "rules/download.smk"
include: "rules/prepare.smk"
include: "rules/split.smk"
include: "rules/discretize.smk"
include: "rules/transform.smk"
include: "rules/select.smk"
include: "rules/classify.smk"
include: "rules/aggregate.smk"
include: "rules/compare.smk"
include: "rules/report.smk"
include: "rules/claims.smk"
include: "rules/challenge.smk"
include: "rules/leaderboard.smk"
include: "rules/league.smk"


rule all:
    default_target: True
    input:
        all_targets(),
        challenge_targets(),
        league_targets(),
