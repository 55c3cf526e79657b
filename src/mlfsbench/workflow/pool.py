"""The process pool of a batch job: its folds in parallel, bounded threads.

A batch job (:mod:`mlfsbench.workflow.stages`) runs the same per-fold function
on each fold of its batch; :func:`map_folds` runs them in worker processes up
to the job's threads, forked after the job's process has imported what the
folds use and loaded the dataset once (:func:`load_once`).
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Sequence

from mlfsbench.data import Dataset

PathLike = str | os.PathLike


def map_folds(func, items: list[tuple], threads: int, *,
         preload: Sequence[str] = (), dataset: PathLike | None = None) -> list:
    """``[func(*item) for item in items]``, in ``threads`` worker processes.

    The job's ``threads`` also bound the native thread pools (BLAS, OpenMP):
    a worker gets its share, and so does the job's own process when the
    items run in it. Left alone, the pools oversubscribe the cores: Snakemake
    runs a script with ``OMP_NUM_THREADS`` and the BLAS variables set to the
    job's threads, and a process of its own starts one thread per core beside
    the other jobs (ML-kNN's path over 51 feature counts on a yeast fold:
    5.6 s instead of 2.4 s). The thread count can also change the last bits
    of BLAS sums, so fixing it keeps reruns bitwise identical.

    On Linux the workers are forked from the job's process after it has
    imported ``preload`` (the modules the items use) and loaded ``dataset``
    (:func:`load_once`), so they start with both instead of starting Python
    and importing numpy, scikit-learn and the package again, which spawned
    workers (joblib's default) do in every job: 1-2 s of each job's wall
    time, in a run of 400 batch jobs
    (docs/journal/2026-11-25-full-reproduction.md). Elsewhere, where
    forking a process that has loaded a BLAS is not safe (macOS), the workers
    are joblib's spawned ones. A worker that dies (out of memory, killed)
    fails the job with an error instead of hanging it.
    """
    from threadpoolctl import threadpool_limits

    threads = max(1, int(threads))
    if threads == 1 or len(items) <= 1:
        with threadpool_limits(limits=threads):
            return [func(*item) for item in items]
    n_jobs = min(threads, len(items))
    inner = max(1, threads // n_jobs)
    if not sys.platform.startswith("linux"):
        from joblib import Parallel, delayed, parallel_config

        with parallel_config(backend="loky", inner_max_num_threads=inner):
            return Parallel(n_jobs=n_jobs)(delayed(func)(*item) for item in items)
    import importlib
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    for module in preload:
        importlib.import_module(module)
    if dataset is not None:
        load_once(dataset)
    with warnings.catch_warnings():
        # Python >= 3.12 warns when a process with threads (BLAS's idle
        # pool) forks; the workers only compute and return, in order.
        warnings.filterwarnings("ignore", category=DeprecationWarning,
                                message=".*fork.*")
        with ProcessPoolExecutor(n_jobs, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_limit_threads, initargs=(inner,)) as pool:
            futures = [pool.submit(func, *item) for item in items]
            return [f.result() for f in futures]


def _limit_threads(n: int) -> None:
    """A forked worker's native thread pools: ``n`` threads each, for its life."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=n)


def load_once(dataset: PathLike) -> Dataset:
    """The prepared dataset of a batch job, loaded once per process: the
    folds of a batch, run in turn or in a worker process, read the same
    file (keyed by its path, size and modification time)."""
    st = os.stat(dataset)
    return _load_cached(os.fspath(dataset), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=1)
def _load_cached(path: str, size: int, mtime_ns: int) -> Dataset:
    return Dataset.load(path)
