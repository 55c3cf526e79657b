"""Memory requests of the rules (``mem_mb``), from measured peaks.

A job asks for ``margin * (peak_mb + per_mb * size)`` MB, ``size`` being the
prepared dataset's arrays in MB (:func:`prepared_mb`: the uncompressed size of
its ``.npz``, close to what a job holds after reading it), times the
attempt (a job killed for memory is retried with more) and the parallel
folds of a batch (one process each);
never less than :data:`FLOOR_MB`, never more than :data:`CEILING_MB` per
process.

``peak_mb`` is the largest ``max_rss`` of the rule's ``benchmark:`` files in a
finished doquire2013 run (with the shared smoke and tiny runs: emotions,
yeast, scene, atp1d); ``per_mb`` is how much the peak grows per MB of
prepared data, from the scale study on IMDB subsamples
(``bench/scale_imdb.py``, ``bench/results/scale_imdb.tsv``) and the
Delicious-size run of ``bench/bench_scale.py`` (sources in :data:`MEASURED`).
The rules that read no dataset (reports, tables, claims) keep their fixed
requests in their ``.smk`` files.
"""

from __future__ import annotations

import math
import os
import zipfile

#: Multiplier over the measured peaks.
MARGIN = 1.5
#: Smallest request (MB): the interpreter, numpy and scipy alone take ~100.
FLOOR_MB = 500
#: Largest request per process (MB), whatever the dataset.
CEILING_MB = 16000
#: Request per process (MB) while the prepared file is not there yet (a dry
#: run): the request of the former rule of thumb for an unknown size.
UNKNOWN_MB = 3000

#: rule -> (measured peak MB on the small datasets, growth MB per MB of
#: prepared dataset). Growth: ``select`` the largest growth of the scale
#: study's selectors (ReliefF-BR on IMDB, 85 MB per MB between 2 000 and
#: 32 000 instances: its dense range-scaled copy of the features), rounded up;
#: ``classify`` ML-kNN on a Delicious-size set (983 labels, 18.7 MB prepared:
#: 2 277 MB, ``bench/bench_scale.py``; on IMDB's 28 labels 17 MB per MB);
#: ``discretize``, ``transform``: not measured at scale, the former rule of
#: thumb (40); ``split`` reads the labels only.
MEASURED = {
    "download": (60, 0.0),
    "prepare": (383, 0.0),  # IMDB's 120 919 x 1 001 sparse ARFF: 383 MB
    "split": (61, 2.0),
    "discretize": (148, 40.0),
    "transform": (161, 40.0),
    "select": (404, 90.0),
    # the full reproduction at be6596c: 344 MB on yeast (emotions 316,
    # scene 341, atp1d 308); a searching process holds Numba and LLVM for
    # the compiled neighbour selection (about 120 MB; 189 MB before)
    "classify": (344, 115.0),
}


def prepared_mb(path: str | os.PathLike) -> float | None:
    """Uncompressed size (MB) of the arrays of a prepared ``.npz``; ``None``
    when the file is not there (yet)."""
    if not os.path.exists(path):
        return None
    with zipfile.ZipFile(path) as z:
        return sum(info.file_size for info in z.infolist()) / 2**20


def request_mb(rule: str, dataset_mb: float | None = None, *, attempt: int = 1,
               threads: int = 1) -> int:
    """``mem_mb`` of a job of ``rule`` on a prepared dataset of ``dataset_mb``.

    ``None`` (the prepared file is not there yet, as in a dry run):
    :data:`UNKNOWN_MB` per process.

    >>> request_mb("select", 1.5)
    809
    >>> request_mb("select", 1.5, attempt=2, threads=2)
    3236
    >>> request_mb("download", 2.0)
    500
    """
    if rule not in MEASURED:
        raise ValueError(f"no measured peak for rule {rule!r}; known: "
                         f"{sorted(MEASURED)}")
    peak, per_mb = MEASURED[rule]
    if dataset_mb is None:
        one = UNKNOWN_MB
    else:
        one = math.ceil(MARGIN * (peak + per_mb * float(dataset_mb)))
        one = min(max(FLOOR_MB, one), CEILING_MB)
    return int(one * max(1, int(attempt)) * max(1, int(threads)))
