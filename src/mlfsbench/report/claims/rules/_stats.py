"""What the rank-statistics rules share: the run's statistics of a metric."""

from __future__ import annotations


def run_stats(q, metric, results):
    """The run's statistics of ``metric``, or, with ``among``, recomputed on
    those methods at ``n_features`` (default ``mean``)."""
    if q.get("among"):
        return results.stats_among(metric, q["among"], q.get("n_features", "mean"))
    return results.stats(metric)


def these(datasets) -> str:
    return ("on this dataset" if len(datasets) == 1
            else f"on these {len(datasets)} datasets")
