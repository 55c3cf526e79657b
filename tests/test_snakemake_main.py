"""The launcher's fix of Snakemake's rate-limit wake-ups (one pending timer)."""

from __future__ import annotations

import threading
import time

from mlfsbench.workflow import snakemake_main
from mlfsbench.workflow.runner import _is_snakemake, _snakemake_cmd


class _Scheduler:
    """What the patched method uses of Snakemake's JobScheduler."""

    def __init__(self):
        self._open_jobs = threading.Semaphore(0)

    def wakes(self, wait: float) -> int:
        """Wake-ups released within ``wait`` seconds."""
        time.sleep(wait)
        n = 0
        while self._open_jobs.acquire(blocking=False):
            n += 1
        return n


def test_many_requests_make_one_wake_up():
    s = _Scheduler()
    for _ in range(50):
        snakemake_main._reevaluate_once(s, 0.1)
    assert s.wakes(0.5) == 1
    # once it has fired, the next request starts a new timer
    snakemake_main._reevaluate_once(s, 0.1)
    assert s.wakes(0.5) == 1
    assert s.wakes(0.3) == 0


def test_an_earlier_request_is_not_delayed_by_a_later_timer():
    s = _Scheduler()
    snakemake_main._reevaluate_once(s, 30)
    snakemake_main._reevaluate_once(s, 0.1)
    assert s.wakes(0.5) == 1
    # the late timer is still pending: a request due after it adds nothing
    snakemake_main._reevaluate_once(s, 60)
    assert s.wakes(0.2) == 0


def test_timers_do_not_hold_the_process_open():
    s = _Scheduler()
    before = set(threading.enumerate())
    snakemake_main._reevaluate_once(s, 30)
    new = [t for t in threading.enumerate() if t not in before]
    assert len(new) == 1 and new[0].daemon


def test_patch_replaces_the_scheduler_method(monkeypatch):
    from snakemake.scheduling.job_scheduler import JobScheduler

    monkeypatch.setattr(JobScheduler, "_schedule_reevalutation",
                        JobScheduler._schedule_reevalutation)
    assert snakemake_main.patch() is True
    assert JobScheduler._schedule_reevalutation is snakemake_main._reevaluate_once


def test_patch_warns_when_the_method_is_missing(monkeypatch, caplog):
    from snakemake.scheduling.job_scheduler import JobScheduler

    monkeypatch.delattr(JobScheduler, "_schedule_reevalutation")
    assert snakemake_main.patch() is False
    assert "running it unpatched" in caplog.text


def test_runner_starts_and_recognises_the_launcher():
    cmd = _snakemake_cmd()
    assert cmd[1:] == ["-m", "mlfsbench.workflow.snakemake_main"]
    assert _is_snakemake([*cmd, "--cores", "2"])
    assert not _is_snakemake(["python", "-m", "mlfsbench.cli"])


def test_the_replaced_method_is_the_one_the_patch_was_written_for():
    """The patch replaces a private method: a Snakemake that changed it
    (renamed, other arguments, another way to wake the scheduler) may need
    another patch, or none."""
    import snakemake

    source = snakemake_main.original_source()
    assert source, (
        f"Snakemake {snakemake.__version__} has no JobScheduler."
        f"{snakemake_main._METHOD}: patch() leaves it unpatched. Check whether "
        "its rate limiter still starts a timer per scheduling round (see the "
        "module docstring of mlfsbench.workflow.snakemake_main) and drop or "
        "rewrite the patch")
    assert snakemake_main.original_digest() == snakemake_main.ORIGINAL_SHA256, (
        f"Snakemake {snakemake.__version__} changed JobScheduler."
        f"{snakemake_main._METHOD} (the patch was written for "
        f"{snakemake_main.PINNED}); its source now:\n{source}\n"
        "Re-check that the patched method still does what it did (wake the "
        "scheduler once, by releasing _open_jobs, after `delay` seconds) and "
        "that its callers still pass a delay in seconds; then record the new "
        "digest and version in ORIGINAL_SHA256 and PINNED")


def test_the_source_is_read_from_the_module_not_the_patched_class(monkeypatch):
    from snakemake.scheduling.job_scheduler import JobScheduler

    monkeypatch.setattr(JobScheduler, "_schedule_reevalutation",
                        JobScheduler._schedule_reevalutation)
    snakemake_main.patch()
    assert snakemake_main.original_source() == (
        "def _schedule_reevalutation(self, delay: int) -> None:\n"
        "    threading.Timer(delay, lambda: self._open_jobs.release()).start()")
