"""The shipped Snakemake profiles, read by the pinned Snakemake the way a run
reads them: every option is one it honours, and the values that matter take
effect."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
PROFILES = sorted(p for p in (REPO / "profiles").iterdir() if p.is_dir())


def parsed(profile: Path):
    from snakemake.cli import parse_args

    return parse_args(["--profile", str(profile), "--dry-run"])


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_a_profile_sets_no_deprecated_option(profile):
    """A deprecated option may be read and then overridden by its
    replacement's default (Snakemake 9's ``max-jobs-per-second`` loses to the
    default ``max-jobs-per-timespan`` of 100/1s): none is set."""
    parser, _ = parsed(profile)
    deprecated = {a.dest for g in parser._action_groups if g.title == "DEPRECATED"
                  for a in g._group_actions}
    assert "max_jobs_per_second" in deprecated  # the check sees the group
    keys = yaml.safe_load((profile / "config.yaml").read_text())
    used = {k.replace("-", "_") for k in keys} & deprecated
    assert not used, f"{profile.name} sets deprecated option(s) {sorted(used)}"


def test_the_slurm_profile_submits_at_most_five_jobs_a_second():
    from snakemake.settings.types import SchedulingSettings

    _, args = parsed(REPO / "profiles" / "slurm")
    # what Snakemake's command line hands to the scheduler
    settings = SchedulingSettings(max_jobs_per_second=args.max_jobs_per_second,
                                  max_jobs_per_timespan=args.max_jobs_per_timespan)
    rate = settings.max_jobs_per_timespan
    assert (rate.max_jobs, rate.timespan) == (5, 1.0)
    assert args.executor == "slurm" and args.jobs == 100
    assert sorted(t.name for t in args.rerun_triggers) == [
        "INPUT", "PARAMS", "SOFTWARE_ENV"]
