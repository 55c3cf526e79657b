"""An experiment's result tables as the claim rules read them.

:class:`Results` reads ``results/<experiment>/tables/summary.tsv`` (mean,
s.d. and folds of every cell), ``tables/metrics.tsv`` (every fold's value:
the paired comparisons and the resampling of :mod:`.noise`),
``tables/runtime.tsv`` and ``stats/<metric>.json``, lazily, and maps a
claim's method names to the tables' identifiers.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mlfsbench.evaluation.metrics import GREATER_IS_BETTER
from mlfsbench.io import BASELINE, read_table, without_methods
from mlfsbench.report.claims import noise
from mlfsbench.report.claims._base import NotCheckable

PathLike = str | os.PathLike
FOLD = ["split", "fold"]


def greater_is_better(metric: str) -> bool:
    try:
        return GREATER_IS_BETTER[metric]
    except KeyError:
        raise ValueError(f"unknown metric {metric!r}") from None


def is_k(value: Any) -> bool:
    return isinstance(value, int) or str(value).isdigit()


def restrict_k(curves: pd.DataFrame | pd.Series, q: Mapping[str, Any]):
    """A curve (or K x methods frame) restricted to the integer K a claim's
    quantity allows: ``k_range: [lo, hi]`` (lo <= K <= hi) and ``k_values``
    (those K only); NotCheckable when no K of the run is left.

    >>> restrict_k(pd.Series([1., 2., 3.], index=[10, 20, 30]),
    ...            {"k_range": [15, 30]}).index.tolist()
    [20, 30]
    """
    keep = np.ones(len(curves), dtype=bool)
    ks = np.asarray([int(k) for k in curves.index])
    wanted = []
    if q.get("k_range") is not None:
        lo, hi = q["k_range"]
        keep &= (ks >= lo) & (ks <= hi)
        wanted.append(f"from {lo} to {hi}")
    if q.get("k_values") is not None:
        keep &= np.isin(ks, [int(k) for k in q["k_values"]])
        wanted.append(f"among {', '.join(str(k) for k in q['k_values'])}")
    out = curves[keep]
    if len(out) == 0:
        raise NotCheckable(f"no K of this run {' and '.join(wanted)}")
    return out


class Results:
    """An experiment's result tables, read lazily from ``results/<experiment>``.

    ``methods`` maps the names a claim may use (config ``id``, ``label``,
    registry ``name`` when unique) to the selector identifiers of the tables,
    ``classifiers`` likewise for classifiers;
    ``params`` maps an identifier to a function ``dataset -> parameters``;
    ``exclude``: method ids whose rows the tables read here leave out (a
    challenge experiment's challengers). ``artificial``: the runs on the
    artificial problems the workflow computed (run key -> file,
    :mod:`mlfsbench.evaluation.artificial`); None: the claims compute them.
    ``summary``, ``metrics`` (per fold), ``stats``, ``runtime`` and
    ``fitted`` may be given as frames instead of files; with a summary and
    no per-fold table, comparisons fall back to
    the summary's s.d. (:func:`~mlfsbench.report.claims.noise.unpaired_gap`).
    """

    def __init__(self, root: PathLike, *, datasets: Sequence[str] | None = None,
                 methods: Mapping[str, str] | None = None,
                 params: Mapping[str, Any] | None = None,
                 summary: pd.DataFrame | None = None,
                 metrics: pd.DataFrame | None = None,
                 stats: Mapping[str, dict] | None = None,
                 runtime: pd.DataFrame | None = None,
                 fitted: pd.DataFrame | None = None,
                 classifiers: Mapping[str, str] | None = None,
                 exclude: Sequence[str] = (),
                 artificial: Mapping[str, str] | None = None):
        self.root = os.fspath(root)
        self.artificial = None if artificial is None else dict(artificial)
        self.exclude = list(exclude)
        self._summary = summary
        self._metrics = metrics
        self._metrics_read = metrics is not None or summary is not None
        self._groups: dict[tuple[str, str], pd.DataFrame] | None = None
        self._stats = dict(stats) if stats is not None else {}
        self._runtime = runtime
        self._fitted = fitted
        self.methods = dict(methods or {})
        self.classifiers = dict(classifiers or {})
        self.params = dict(params or {})
        self._datasets = list(datasets) if datasets is not None else None
        self._curves: dict[str, pd.Series] = {}
        self.metric_map: dict[str, str] = {}

    def with_metrics(self, mapping: Mapping[str, str] | None) -> Results:
        """These tables with a claim's metrics read as other metrics of them
        (a scoring reading's ``metrics`` setting: metric -> its variant, e.g.
        ``ranking_loss -> ranking_loss~label-order``): every value, fold and
        statistic of ``ranking_loss`` is then the variant's, the statistics
        recomputed from the summary (:meth:`stats`). Shares the tables read
        so far; ``self`` when nothing is mapped."""
        mapping = {k: v for k, v in (mapping or {}).items() if k != v}
        if not mapping:
            return self
        for variant in mapping.values():
            greater_is_better(variant)  # a known metric
        out = copy.copy(self)
        out.metric_map = {**self.metric_map, **mapping}
        return out

    # ---------------------------------------------------------------- tables
    @property
    def summary(self) -> pd.DataFrame:
        if self._summary is None:
            path = os.path.join(self.root, "tables", "summary.tsv")
            if not os.path.exists(path) and self._metrics is not None:
                # per-fold values given as a frame: their summary
                from mlfsbench.report.aggregate import summarize

                self._summary = summarize(self._metrics.astype(
                    {c: str for c in self._metrics.columns if c != "value"}))
                return self._summary
            if not os.path.exists(path):
                raise NotCheckable(f"no result table {path}")
            self._summary = without_methods(
                read_table(path, dtype={"n_features": str}), self.exclude)
        return self._summary

    @property
    def metrics(self) -> pd.DataFrame | None:
        """Every fold's value (``metrics.tsv``), or None when not at hand."""
        if not self._metrics_read:
            self._metrics_read = True
            path = os.path.join(self.root, "tables", "metrics.tsv")
            if os.path.exists(path):
                # labels as categories: a study's table has millions of rows
                # (Sechidis 2019: 30 hold-outs x 51 K x every method and
                # metric); each (metric, dataset) group is made plain again
                self._metrics = without_methods(read_table(path, dtype={
                    **dict.fromkeys(("dataset", "split", "fold", "selector",
                                     "classifier", "n_features", "metric"),
                                    "category"), "value": float}), self.exclude)
        return self._metrics

    def _fold_rows(self, metric: str, dataset: str) -> pd.DataFrame | None:
        metric = self.metric_map.get(metric, metric)
        m = self.metrics
        if m is None:
            return None
        if self._groups is None:
            self._groups = {key: g for key, g in m.groupby(
                ["metric", "dataset"], sort=False, observed=True)}
        rows = self._groups.get((metric, dataset))
        if rows is not None:
            rows = rows.astype({c: str for c in rows.columns if c != "value"})
        return rows

    def stats(self, metric: str) -> dict[str, Any]:
        if metric in self.metric_map:
            return self._variant_stats(metric)
        if metric not in self._stats:
            from mlfsbench.report.compare import comparison_files

            path = comparison_files(os.path.join(self.root, "stats"), metric)[0]
            if not os.path.exists(path):
                raise NotCheckable(f"no statistics for {metric} in this run")
            with open(path, encoding="utf-8") as fh:
                self._stats[metric] = json.load(fh)
        res = self._stats[metric]
        if "skipped" in res:
            raise NotCheckable(f"statistics of {metric} skipped: {res['skipped']}")
        return res

    def _variant_stats(self, metric: str) -> dict[str, Any]:
        """The run's statistics of ``metric`` (their options: K, control,
        alpha, rounding) recomputed on the variant it is mapped to."""
        variant = self.metric_map[metric]
        if variant not in self._stats:
            from mlfsbench.report.compare import compare

            plain = copy.copy(self)  # shares the statistics read
            plain.metric_map = {}
            res = plain.stats(metric)
            self._stats[variant] = compare(
                self.summary, variant, n_features=res["n_features"],
                control=(res.get("bonferroni_dunn") or {}).get("control"),
                alpha=res.get("alpha", 0.05), round=res.get("round"))
        res = self._stats[variant]
        if "skipped" in res:
            raise NotCheckable(f"statistics of {variant} skipped: {res['skipped']}")
        return res

    def stats_among(self, metric: str, methods: Sequence[str], n_features: Any,
                    alpha: float = 0.05) -> dict[str, Any]:
        """The statistics of ``metric`` recomputed with ``methods`` only (a
        paper's figure comparing a subset of the experiment's methods): the
        ranks and rank tests, which the claims read (no pairwise tests)."""
        from mlfsbench.report.compare import compare

        ids = {self.method(m) for m in methods}
        s = self.summary
        keep = s["selector"].isin(ids)
        if BASELINE not in ids:
            keep &= s["n_features"].astype(str) != "all"
        res = compare(s[keep], self.metric_map.get(metric, metric),
                      n_features=n_features, alpha=alpha, pairs=False)
        if "skipped" in res:
            raise NotCheckable(f"statistics of {metric} skipped: {res['skipped']}")
        return res

    def _methods_table(self, name: str, what: str) -> pd.DataFrame:
        """``tables/<name>.tsv`` without the excluded methods' rows;
        NotCheckable naming ``what`` when the run did not write it."""
        path = os.path.join(self.root, "tables", f"{name}.tsv")
        if not os.path.exists(path):
            raise NotCheckable(f"no {what} {path}")
        return without_methods(read_table(path), self.exclude)

    @property
    def runtime(self) -> pd.DataFrame:
        if self._runtime is None:
            self._runtime = self._methods_table("runtime", "runtime table")
        return self._runtime

    @property
    def fitted(self) -> pd.DataFrame:
        """What each selection learnt (``tables/fitted.tsv``: dataset, split,
        fold, selector, attribute, value)."""
        if self._fitted is None:
            self._fitted = self._methods_table("fitted", "table of fitted values")
        return self._fitted

    @property
    def datasets(self) -> list[str]:
        if self._datasets is None:
            self._datasets = sorted(self.summary["dataset"].unique())
        return self._datasets

    # ----------------------------------------------------------------- names
    def method(self, name: str) -> str:
        """Selector identifier of a claim's method name (``all-features`` stays)."""
        if name == BASELINE or not self.methods:
            return name
        if name in self.methods:
            return self.methods[name]
        raise NotCheckable(f"method {name!r} is not in this experiment")

    def check_params(self, expected: Mapping[str, Mapping[str, Any]],
                     datasets: Sequence[str]) -> None:
        """Raise NotCheckable unless each method has the expected parameters.

        ``expected`` maps a method to its parameters, or to a mapping
        dataset -> parameters.
        """
        for name, spec in (expected or {}).items():
            ident = self.method(name)
            per_dataset = bool(spec) and all(isinstance(v, dict)
                                             for v in spec.values())
            for dataset in datasets:
                want = spec.get(dataset, {}) if per_dataset else spec
                have = self.params.get(ident, {})
                have = have(dataset) if callable(have) else have
                for key, value in want.items():
                    if have.get(key) != value:
                        raise NotCheckable(
                            f"{name} runs with {key}={have.get(key)!r} on "
                            f"{dataset}, the claim is about {key}={value!r}")

    # --------------------------------------------------------------- numbers
    def _rows(self, metric: str, dataset: str, classifier: str | None) -> pd.DataFrame:
        s = self.summary
        s = s[(s["metric"] == self.metric_map.get(metric, metric))
              & (s["dataset"] == dataset)]
        if classifier is not None:
            s = s[s["classifier"] == self.classifiers.get(classifier, classifier)]
        if s.empty:
            raise NotCheckable(f"no {metric} results on {dataset}")
        return s

    def fold_table(self, metric: str, dataset: str, name: str,
                   classifier: str | None = None) -> pd.DataFrame | None:
        """Folds x grid points (``"1"``, ``"2"``, ..., ``"all"``,
        ``"selected"``) of one method's values, or None without a per-fold
        table. The all-features baseline has its ``all`` column only."""
        rows = self._fold_rows(metric, dataset)
        if rows is None:
            return None
        if classifier is not None:
            rows = rows[rows["classifier"]
                        == self.classifiers.get(classifier, classifier)]
        ident = self.method(name)
        if ident == BASELINE:
            rows = rows[rows["n_features"] == "all"]
        else:
            rows = rows[rows["selector"] == ident]
        if rows.empty:
            return None
        return rows.pivot_table(index=FOLD, columns="n_features", values="value",
                                aggfunc="mean")

    def folds(self, metric: str, dataset: str, name: str, n_features: Any,
              classifier: str | None = None) -> pd.Series | None:
        """One method's value on each fold at ``n_features`` (an integer K,
        ``all``, ``selected``, ``mean`` over the integer K, or ``best``: the
        K best on the other folds, :func:`~.noise.cv_best`); None without a
        per-fold table."""
        t = self.fold_table(metric, dataset, name, classifier)
        if t is None:
            return None
        key = str(n_features)
        if self.method(name) == BASELINE:  # one value per fold at every K
            return t["all"].dropna() if "all" in t.columns else None
        if key in ("mean", "best"):
            numeric = t[[c for c in t.columns if str(c).isdigit()]]
            numeric.columns = [int(c) for c in numeric.columns]
            numeric = numeric[sorted(numeric.columns)]
            if numeric.empty:
                return None
            if key == "mean":
                return numeric.mean(axis=1)
            return noise.cv_best(numeric, greater_is_better(metric))[0]
        if key not in t.columns:
            return None
        return t[key].dropna()

    def scores(self, metric: str, dataset: str, methods: Sequence[str],
               n_features: Any, classifier: str | None = None) -> dict[str, float]:
        """Each method's score on one dataset and metric (mean over folds).

        Returns claim names -> value; for ``mean-rank`` the value is a rank
        (:func:`~.noise.rank_scores`). ``best`` is the mean over folds of the
        K chosen on the other folds where there are several folds
        (:func:`~.noise.cv_best`), the curve's best point on one split.
        ``classifier`` (an identifier) keeps that classifier's rows only.
        """
        s = self._rows(metric, dataset, classifier)
        greater = greater_is_better(metric)
        out: dict[str, float] = {}
        curves: dict[str, pd.Series] = {}
        for name in methods:
            ident = self.method(name)
            if ident == BASELINE:
                rows = s[s["n_features"] == "all"]
                if rows.empty:
                    raise NotCheckable(f"no all-features results on {dataset}")
                base = float(rows["mean"].mean())
                out[name] = base
                ks = sorted({int(k) for k in s["n_features"] if str(k).isdigit()})
                curves[name] = pd.Series(base, index=ks)
                continue
            rows = s[s["selector"] == ident]
            if rows.empty:
                raise NotCheckable(f"no {metric} results of {name} on {dataset}")
            numeric = rows[rows["n_features"].str.isdigit()]
            curve = numeric.groupby(numeric["n_features"].astype(int))["mean"].mean()
            curves[name] = curve
            if is_k(n_features) or n_features in ("all", "selected"):
                at = rows[rows["n_features"] == str(n_features)]
                if at.empty:
                    raise NotCheckable(f"{name} has no result at "
                                       f"{'K = ' if is_k(n_features) else ''}"
                                       f"{n_features} on {dataset}")
                out[name] = float(at["mean"].mean())
            elif n_features == "mean":
                out[name] = float(curve.mean())
            elif n_features == "best":
                f = self.folds(metric, dataset, name, "best", classifier)
                if f is not None and len(f) > 1:
                    out[name] = float(f.mean())
                else:
                    out[name] = float(curve.max() if greater else curve.min())
            elif n_features in ("mean-rank", "every"):
                pass
            else:
                raise ValueError(f"unknown n_features {n_features!r}")
        if n_features == "mean-rank":
            out = noise.rank_scores(curves, greater)
        if n_features == "every":
            self._curves = curves
        return out

    def raw_best(self, metric: str, dataset: str, name: str,
                 classifier: str | None = None) -> tuple[float, int]:
        """The best point of a method's curve of means and its K (the
        paper's way of reading a figure; biased toward the curve)."""
        curve = self.curves(metric, dataset, [name])[name]
        greater = greater_is_better(metric)
        k = curve.idxmax() if greater else curve.idxmin()
        return float(curve[k]), int(k)

    def cell(self, metric: str, dataset: str, name: str, n_features: Any,
             classifier: str | None = None) -> tuple[float, float, int]:
        """``(mean, s.d., n)`` of one method's cell: the mean over folds as
        :meth:`scores` gives it, the s.d. over folds and the number of folds
        (from the per-fold values where at hand; else from the summary row:
        ``best`` the best K's row, ``mean`` over K the mean of the rows'
        s.d.s and their smallest ``n``). The s.d. is nan on one fold."""
        value = self.scores(metric, dataset, [name], n_features,
                            classifier=classifier)[name]
        f = self.folds(metric, dataset, name, n_features, classifier)
        if f is not None and len(f):
            sd = float(f.std(ddof=1)) if len(f) > 1 else float("nan")
            return value, sd, len(f)
        s = self._rows(metric, dataset, classifier)
        ident = self.method(name)
        if ident == BASELINE:
            rows = s[s["n_features"] == "all"]
        else:
            rows = s[s["selector"] == ident]
            if n_features == "best":
                rows = rows[rows["n_features"].str.isdigit()]
                rows = rows[np.isclose(rows["mean"], value)]
            elif n_features == "mean":
                rows = rows[rows["n_features"].str.isdigit()]
            else:
                rows = rows[rows["n_features"] == str(n_features)]
        sd = pd.to_numeric(rows["std"], errors="coerce").mean()
        n = int(rows["folds"].min()) if "folds" in rows and len(rows) else 0
        return value, float(sd), n

    def gap(self, metric: str, dataset: str, a: str, b: str, n_features: Any,
            classifier: str | None = None) -> noise.Gap:
        """``a - b`` (in the metric's units) at ``n_features`` with its 95 %
        interval: paired over the folds both have where the per-fold table
        is at hand, else from the summary rows."""
        fa = self.folds(metric, dataset, a, n_features, classifier)
        fb = self.folds(metric, dataset, b, n_features, classifier)
        if fa is not None and fb is not None:
            return noise.paired_gap(fa, fb)
        return noise.unpaired_gap(self.cell(metric, dataset, a, n_features, classifier),
                                  self.cell(metric, dataset, b, n_features, classifier))

    def rank_gaps(self, metric: str, dataset: str, methods: Sequence[str],
                  pairs: Sequence[tuple[str, str]], *,
                  symmetric: bool = False) -> dict[tuple[str, str], noise.Gap]:
        """Rank-score gaps ``rank(a) - rank(b)`` (ranks among ``methods``,
        averaged over K) with bootstrap intervals over folds; {} without a
        per-fold table. ``symmetric``: the half-width is half the bootstrap's
        2.5-97.5 % range, for a comparison with a threshold other than 0
        (else ``within(0)`` says whether 0 lies inside the range)."""
        tables = {}
        for m in methods:
            t = self.fold_table(metric, dataset, m)
            if t is None:
                return {}
            ks = [c for c in t.columns if str(c).isdigit()]
            if self.method(m) == BASELINE:
                return {}
            num = t[ks]
            num.columns = [int(c) for c in ks]
            tables[m] = num
        observed = self.scores(metric, dataset, methods, "mean-rank")
        boot = noise.bootstrap_rank_scores(tables, greater_is_better(metric))
        if symmetric:
            n = min(len(t) for t in tables.values())
            out = {}
            for a, b in pairs:
                lo, hi = np.percentile(boot[a] - boot[b], [2.5, 97.5])
                out[(a, b)] = noise.Gap(observed[a] - observed[b], (hi - lo) / 2, n,
                                        "bootstrap over folds")
            return out
        return {(a, b): noise.bootstrap_gap(boot[a] - boot[b],
                                            observed[a] - observed[b])
                for a, b in pairs}

    def curves(self, metric: str, dataset: str, methods: Sequence[str],
               q: Mapping[str, Any] | None = None) -> pd.DataFrame:
        """K x methods: the mean over folds at every integer K; with a
        claim's quantity ``q``, only the K its ``k_range``/``k_values``
        allow (:func:`restrict_k`)."""
        self.scores(metric, dataset, methods, "every")
        frame = pd.DataFrame(self._curves).dropna()
        return restrict_k(frame, q) if q else frame
