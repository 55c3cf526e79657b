"""What the rank-statistics rules share: the run's statistics of a metric."""

from __future__ import annotations

from mlfsbench.report.claims._base import metrics_of, printed_table


def run_stats(q, metric, results):
    """The run's statistics of ``metric``, or, with ``among``, recomputed on
    those methods at ``n_features`` (default ``mean``)."""
    if q.get("among"):
        return results.stats_among(metric, q["among"], q.get("n_features", "mean"))
    return results.stats(metric)


def these(datasets) -> str:
    return ("on this dataset" if len(datasets) == 1
            else f"on these {len(datasets)} datasets")


def printed_rows(claim, tables):
    """``(table, methods)`` per metric of a rank-statistics claim's printed
    check: the printed table of each of its metrics and the methods ranked
    there (``among``, else every method the table prints)."""
    q = claim["quantity"]
    for metric in metrics_of(q):
        t = printed_table(claim, tables, metric)
        yield t, q.get("among") or t.methods
