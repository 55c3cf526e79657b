"""``better``: some methods beat others on each cell."""

from __future__ import annotations

import pandas as pd

from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import (
    Outcome,
    Rule,
    better,
    claim_datasets,
    fraction_bounds,
    join,
    metrics_of,
    share_ok,
)
from mlfsbench.report.claims.results import greater_is_better, is_k
from mlfsbench.report.claims.rules import joint_figures as joint

#: The name of the averaged ``worse`` methods (``worse_aggregate: mean``).
AVERAGE = "average of the others"


class Better(Rule):
    """Every method of ``better`` beats every method of ``worse`` on each
    (dataset, metric) cell at ``n_features`` (``every``: at every integer
    K); the share of cells is at least ``min_fraction`` (default 1) and at
    most ``max_fraction`` (default 1).

    ``worse_aggregate: mean`` compares with the average curve of the
    ``worse`` methods (Doquire & Verleysen 2013, Figs. 4-5, the blue curve):
    their curves are averaged K-wise on each fold, *then* ``n_features``
    reduces that one curve (``best``: the K chosen on the other folds, the
    maximum on one split; ``mean``: its mean over K), and every ``better``
    method must beat it strictly.

    ``mean-rank`` compares the methods' ranks among ``among`` (default the
    claim's methods) at each K, averaged over K: lower is better whatever
    the metric (Sechidis et al. 2019, Sec. 4's rank score).

    ``joint: feature_reduction`` compares the points (measure, share of
    features kept) of a joint figure (:mod:`.joint_figures`): nearer to the best
    corner (``joint_score: corner``) or dominating (``pareto``, the default).

    Each cell's deciding comparisons (every pair when it holds, the failing
    pairs when not) carry the interval of the paired fold differences
    (:class:`~.noise.Noise`; a bootstrap over folds for ranks, the
    propagated s.d. for a corner distance, none for Pareto dominance);
    ``best`` is the K chosen on the other folds (:func:`~.noise.cv_best`).
    """

    name = "better"
    schema = {"required": ["quantity"],
              "properties": {"quantity": {"required": ["better", "worse"]}}}

    def describe(self, claim):
        q = claim["quantity"]
        text = super().describe(claim)
        if q.get("worse_aggregate") == "mean":
            text += ", against the average curve of the others"
        if q.get("joint"):
            text += joint.describe(q)
        if q.get("among"):
            text += f", ranked among {', '.join(q['among'])}"
        return text

    def check(self, claim, results):
        q = claim["quantity"]
        datasets, note = claim_datasets(claim, results)
        metrics = metrics_of(q)
        k = q.get("n_features", "mean")
        how = q.get("joint_score", "pareto") if q.get("joint") else None
        averaged = q.get("worse_aggregate") == "mean"
        if averaged and (how or k == "mean-rank"):
            raise ValueError(f"claim {claim['id']}: worse_aggregate with joint or "
                             "mean-rank is not defined")
        named = list(q["better"]) + list(q["worse"])
        among = list(q.get("among") or named)
        worse = [AVERAGE] if averaged else list(q["worse"])
        pairs = [(a, b) for a in q["better"] for b in worse]
        held, total, failed, parts = 0, 0, [], []
        cells = noise.Noise() if k != "every" and how != "pareto" else None
        for metric in metrics:
            greater = greater_is_better(metric) and k != "mean-rank"
            for d in datasets:
                total += 1
                label = d if len(metrics) == 1 else f"{metric}/{d}"
                if k == "every":
                    c = results.curves(metric, d, named, q)
                    if averaged:
                        c[AVERAGE] = c[list(q["worse"])].mean(axis=1)
                    ok = all(better(c[a], c[b], greater).all() for a, b in pairs)
                elif how:
                    pts = joint.points(results, metric, d, named, k, greater,
                                        q["joint"])
                    wins = {(a, b): joint.beats(pts[a], pts[b], greater, how)
                            for a, b in pairs}
                    ok = all(wins.values())
                    if cells is not None:
                        cells.add(ok, [joint.corner_gap(pts[a], pts[b])
                                       for (a, b), w in wins.items() if ok or not w])
                    parts.append(f"{label}: {joint.words(pts, how)}")
                else:
                    if averaged:
                        s = results.scores(metric, d, list(q["better"]), k)
                        s[AVERAGE], fw = average_curve(results, metric, d,
                                                       list(q["worse"]), k)
                        parts.append(f"{label}: "
                                     + ", ".join(f"{m} {v:.4f}" for m, v in s.items()))
                    else:
                        s = results.scores(metric, d, among if k == "mean-rank"
                                           else named, k)
                    ok = all(better(s[a], s[b], greater) for a, b in pairs)
                    deciding = pairs if ok else [(a, b) for a, b in pairs
                                                 if not better(s[a], s[b], greater)]
                    if averaged:
                        gaps = [_average_gap(results, metric, d, a, k, fw)
                                for a, _ in deciding]
                    elif k == "mean-rank":
                        gaps = list(results.rank_gaps(metric, d, among,
                                                      deciding).values())
                    else:
                        gaps = [results.gap(metric, d, a, b, k) for a, b in deciding]
                    cells.add(ok, gaps)
                held += ok
                if not ok:
                    failed.append(label)
        need, most = fraction_bounds(claim)
        ours = f"holds in {held} of {total}"
        if failed:
            ours += f" (not on {', '.join(failed)})"
        if parts:
            ours += f" [{'; '.join(parts)}]"
        ok = share_ok(held, total, need, most)
        if how == "pareto":
            return Outcome(ok, ours, note, datasets, {"robust": joint.PARETO_ROBUST})
        if cells is None:
            return Outcome(ok, ours, note, datasets)
        extra, noise_note = cells.verdict(held, total, need, most)
        return Outcome(ok, ours, join(note, noise_note), datasets, extra)


def _numeric(table: pd.DataFrame) -> pd.DataFrame:
    """The integer-K columns of a folds x grid table, as ints, in order."""
    num = table[[c for c in table.columns if str(c).isdigit()]]
    num.columns = [int(c) for c in num.columns]
    return num[sorted(num.columns)]


def average_curve(results, metric: str, dataset: str, methods: list[str],
                  n_features) -> tuple[float, pd.Series | None]:
    """The ``methods``' curves averaged K-wise (on each fold, over the K every
    method has), reduced by ``n_features``: ``(score, values per fold)``.

    ``best``: each fold's value at the K best on the other folds
    (:func:`~.noise.cv_best`), the curve's best point on one split; ``mean``:
    the mean over K; an integer K: that K. Without a per-fold table, from
    the curves of means (values per fold None).
    """
    greater = greater_is_better(metric)
    key = str(n_features)
    tables = [results.fold_table(metric, dataset, m) for m in methods]
    if all(t is not None for t in tables):
        avg = sum(_numeric(t) for t in tables) / len(tables)  # NaN where one lacks
        avg = avg.dropna(axis=1, how="any")
        if key == "best":
            folds = noise.cv_best(avg, greater)[0]
        elif key == "mean":
            folds = avg.mean(axis=1)
        elif is_k(n_features):
            folds = avg[int(n_features)]
        else:
            raise ValueError(f"worse_aggregate at n_features {n_features!r}")
        return float(folds.mean()), folds
    curve = results.curves(metric, dataset, methods).mean(axis=1)
    if key == "best":
        return float(curve.max() if greater else curve.min()), None
    if key == "mean":
        return float(curve.mean()), None
    if is_k(n_features):
        return float(curve[int(n_features)]), None
    raise ValueError(f"worse_aggregate at n_features {n_features!r}")


def _average_gap(results, metric, dataset, a, k, averaged: pd.Series | None):
    fa = results.folds(metric, dataset, a, k)
    if fa is None or averaged is None:
        cell = results.cell(metric, dataset, a, k)
        return noise.Gap(float("nan"), float("nan"), cell[2], "no per-fold table")
    return noise.paired_gap(fa, averaged)
