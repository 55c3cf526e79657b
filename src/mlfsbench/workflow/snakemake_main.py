"""Snakemake's command line with one fix to its scheduler's wake-ups.

``mlfsbench run`` starts Snakemake through this module
(``python -m mlfsbench.workflow.snakemake_main ARGS``); the arguments are
Snakemake's own.

The fix. Snakemake's job rate limiter (``--max-jobs-per-timespan``, default
``100/1s``, on in every real run) makes each scheduling round that leaves
ready jobs waiting start a timer that wakes the scheduler one timespan later
(``JobScheduler._schedule_reevalutation``). The round that timer wakes starts
the next one, and every job that finishes wakes one more round, which starts
its own chain. While jobs wait for cores, a run that has finished N jobs
therefore runs about N rounds (and starts N timer threads) per second. Each
round resets the parameters and resources of every ready job and solves the
job selection. On the two-core machine the combined reproduction's Snakemake
process used 40 % of a core for this; in a one-study run with 81 jobs done it
held 88 threads and used 16 % of a core, rising.

One pending wake-up is enough: a round examines every ready job, so two
timers due at the same time do the work of one. The patched method starts a
timer only when none is due earlier, and marks it done just before it wakes
the scheduler, so a round that the timer wakes may start the next one. The
timers are daemon threads, so that the end of a run does not wait for them.
What is scheduled, and when, is otherwise unchanged: the rate limit, the job
selection and the wake-ups after finished jobs are Snakemake's.

The patch applies to the Snakemake version pinned in ``envs/``; if the
scheduler lacks the method it replaces (another version), Snakemake runs
unpatched and a warning says so. The method is private: a test
(``tests/test_snakemake_main.py``) compares the digest of its source in the
installed Snakemake (:func:`original_digest`) with :data:`ORIGINAL_SHA256`,
recorded for :data:`PINNED`, and fails when a new Snakemake changed it.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import logging
import sys
import threading
import time

log = logging.getLogger(__name__)

_METHOD = "_schedule_reevalutation"  # (sic) Snakemake's spelling

#: The Snakemake version whose scheduler method the patch was written for,
#: and the digest of that method's source (:func:`original_digest`).
PINNED = "9.27.1"
ORIGINAL_SHA256 = "058c948d2528275e6092ed1dee6476cfcce8201ea90fe4510a682cb1fc93eb0c"


def original_source() -> str:
    """The source of the installed Snakemake's ``JobScheduler.`` method that
    :func:`patch` replaces, read from its module file (not the class, which
    may be patched already), normalised: parsed and printed again, so that
    comments, blank lines and formatting do not count; "" when the method
    is gone."""
    from snakemake.scheduling import job_scheduler

    tree = ast.parse(inspect.getsource(job_scheduler))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "JobScheduler":
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == _METHOD:
                    return ast.unparse(item)
    return ""


def original_digest() -> str:
    """The sha256 of :func:`original_source`."""
    return hashlib.sha256(original_source().encode("utf-8")).hexdigest()


def _reevaluate_once(self, delay) -> None:
    """Wake the scheduler in ``delay`` seconds unless a wake-up is due by then."""
    lock = self.__dict__.setdefault("_mlfsbench_wake_lock", threading.Lock())
    due = time.monotonic() + float(delay)
    with lock:
        pending = self.__dict__.get("_mlfsbench_wake_due")
        if pending is not None and pending <= due:
            return
        self._mlfsbench_wake_due = due

    def wake():
        with lock:
            if self.__dict__.get("_mlfsbench_wake_due") == due:
                self._mlfsbench_wake_due = None
        self._open_jobs.release()

    timer = threading.Timer(float(delay), wake)
    timer.daemon = True
    timer.start()


def patch() -> bool:
    """Install :func:`_reevaluate_once` on Snakemake's scheduler.

    Returns ``False`` (and warns) when this Snakemake has no such method.
    """
    from snakemake.scheduling import job_scheduler

    cls = getattr(job_scheduler, "JobScheduler", None)
    if cls is None or not callable(getattr(cls, _METHOD, None)):
        log.warning("this Snakemake's scheduler has no %s; running it unpatched "
                    "(its rate-limit wake-ups may cost CPU)", _METHOD)
        return False
    setattr(cls, _METHOD, _reevaluate_once)
    return True


def main(argv: list[str] | None = None) -> None:
    """Patch the scheduler, register the job-event logger
    (:mod:`mlfsbench.workflow.events`), then run Snakemake's command line on
    ``argv``."""
    from snakemake.cli import main as snakemake_main

    from mlfsbench.workflow.events import register

    patch()
    register()
    snakemake_main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
