"""A paper's checkable claims, evaluated on the run's own results.

A *claims file* (``config/papers/<study>.claims.yaml``, schema
``mlfsbench/report/schemas/claims.schema.yaml``, package data) lists what
a paper states that its experiment can check: where it is stated, the
quantity, the paper's value or ordering and a rule. :func:`evaluate_claims`
reads an experiment's result tables (``tables/summary.tsv``,
``tables/runtime.tsv``, ``stats/<metric>.json``) and gives each claim a
verdict:

``reproduced``
    the rule holds on our results;
``not reproduced``
    it does not (the ``ours`` column has our number beside the paper's);
``not checkable here``
    with the reason: a dataset that is not public, a method or metric the
    run does not have, or a claim with no result table to read.

The rules (``rule:`` of a claim):

``value``
    one number: ``|ours - paper| <= tolerance`` (``side: no-worse``: ours may
    be better by any amount). ``n_features`` is a K of the
    grid, ``all`` (all features), ``selected``, ``best`` (best over the
    integer K) or ``mean`` (mean over them). A value on one of several
    compared methods names the claim ordering its cell (``ordering:``), and
    is not reproduced while worse than every other method there.
``winner``
    on each dataset (and metric), the best of ``methods`` at ``n_features``
    (``mean-rank`` ranks the methods among themselves at each K and averages
    the ranks: Sechidis et al. 2019, Table 2) is the paper's winner
    (``paper``: one method, or a mapping dataset -> method, or dataset -> a
    list of methods any of which may win: a figure with "no clear winner
    between" two); reproduced when the share of agreeing (dataset, metric)
    cells is at least ``min_fraction`` (default 1). Ties count for every tied
    method.
``better``
    every method of ``better`` beats every method of ``worse`` on each
    (dataset, metric) cell (``n_features: every`` asks it at every integer
    K); share of cells at least ``min_fraction``.
``similar``
    on each (dataset, metric) cell the scores of ``methods`` at
    ``n_features`` lie within ``tolerance`` of each other (a figure's "the
    same performance"); share of cells at least ``min_fraction``.
``average_rank``
    from the statistics of each metric: ``best`` has the lowest average rank,
    or every ``better`` method ranks above every ``worse`` one. ``among``
    recomputes the statistics on those methods only (at ``n_features``), for
    a figure that compares a subset of the experiment's methods.
``significance``
    Bonferroni-Dunn or Nemenyi (``test``): ``method`` against each of
    ``others`` is ``better`` (average ranks further apart than the CD, in its
    favour), ``worse`` or ``similar`` (within one CD).
``friedman``
    the Iman-Davenport test rejects equal performance (``paper: rejected``)
    or not.
``empty_subset``
    at ``selected``: the method's subset is empty (no result) on every fold
    of each dataset (``paper: empty``) or on none (``nonempty``).
``degradation``
    the share of (method, metric, dataset) cells at ``selected`` worse than
    the all-features baseline by more than the method's standard deviation
    over folds is at most ``tolerance``.
``concentration``
    of the cells that ``degradation`` counts as degraded, the share lying in
    ``within`` (``datasets`` and/or ``metrics``) is at least ``min_fraction``
    (default 0.5): where a paper says the degradations concentrate.
``fastest``
    ``method`` has the smallest mean ``fit`` time on each dataset
    (``tables/runtime.tsv``).
``artificial``
    the selection on a generated problem (Doquire & Verleysen 2013, Sec.
    5.1; :mod:`mlfsbench.data.artificial`, run by
    :mod:`mlfsbench.report.artificial`) over ``repeats`` draws: ``check``
    ``first`` (the first selected feature is in ``features``), ``top``
    (the first ``k`` features each come from a different group of
    ``groups``), ``first_set`` (the first ``k`` features are ``features`` in
    any order), ``consecutive`` (``features`` occupy consecutive positions)
    or ``zero_scores`` (every score is 0).

A claim naming only datasets that the experiment does not run, or carrying
``not_checkable:`` (e.g. the runtime of a method the project has not
implemented), is ``not checkable here`` with that reason; so is a claim
naming printed tables (``printed:``) that the paper's own numbers fail on the
datasets run here (:func:`evaluate_claim`). Each row says how robust its
verdict is against the spread over folds (:data:`COLUMNS`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

import numpy as np
import pandas as pd
import yaml

from mlfsbench.evaluation import printed as printed_tables
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER
from mlfsbench.io import (
    BASELINE,
    format_table,
    read_table,
    without_methods,
    write_text,
)
from mlfsbench.workflow.config import (
    challenger_ids,
    entry_params,
    is_challenger,
    method_id,
    method_names,
    printed_path,
)

CLAIMS_SCHEMA = files("mlfsbench.report") / "schemas" / "claims.schema.yaml"
"""The JSON schema of a claims file (package data)."""

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_CHECKABLE = "not checkable here"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, NOT_CHECKABLE)
COLUMNS = ["claim", "statement", "source", "paper", "printed", "ours", "ours_sd", "n",
           "margin", "robust", "verdict", "note"]
"""The verdict table's columns, in order: the claim (``claim``, ``statement``,
``source``); ``paper``, the paper's value or outcome (a value claim's
tolerance labelled as such); ``printed``, what the paper's own printed table
gives on the datasets run here (blank without ``printed:``); ``ours``, our
result (a value: the mean over folds with its s.d.); ``ours_sd`` and ``n``,
the s.d. over folds and the number of folds of a value claim's cell;
``margin``, how far a value claim's result is inside (+) or outside (-) its
tolerance; ``robust``, ``within fold noise`` when that margin is smaller than
the s.d., ``beyond fold noise`` otherwise, ``no spread (n = 1)`` on one
split, or ``weak claim: <why>`` for a claim whose outcome is nearly
guaranteed; ``verdict``; ``note``."""
TIE_STATES = 20_000
"""At most this many rank-sum vectors are enumerated to bound a printed
Friedman statistic over the printed ties (Lee 2016's Table 6: 8109 on eight
datasets; Table 5 has too many, and says so)."""
WITHIN_NOISE = "within fold noise"
BEYOND_NOISE = "beyond fold noise"

PathLike = str | os.PathLike


class NotCheckable(Exception):
    """A claim that this run cannot check; the message is the reason."""


# ------------------------------------------------------------------- loading
def load_claims(path: PathLike) -> dict[str, Any]:
    """Read and validate a claims file; raise ValueError naming the file."""
    import jsonschema

    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    schema = yaml.safe_load(CLAIMS_SCHEMA.read_text(encoding="utf-8"))
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "top level"
        raise ValueError(f"claims file {path}: {where}: {exc.message}") from None
    ids = [c["id"] for c in data["claims"]]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"claims file {path}: duplicate claim id(s) {dupes}")
    for c in data["claims"]:
        companion = c.get("ordering", "none")
        if companion != "none" and companion not in ids:
            raise ValueError(f"claims file {path}: claim {c['id']}'s ordering "
                             f"companion {companion!r} is not a claim of the file")
    return data


def claims_for(data: Mapping[str, Any], experiment: str) -> list[dict[str, Any]]:
    """The claims of one experiment (a claim's ``experiment`` defaults to the
    file's ``experiment``)."""
    default = data.get("experiment")
    return [c for c in data["claims"] if c.get("experiment", default) == experiment]


# ------------------------------------------------------------------ results
class Results:
    """An experiment's result tables, read lazily from ``results/<experiment>``.

    ``methods`` maps the names a claim may use (config ``id``, ``label``,
    registry ``name`` when unique) to the selector identifiers of the tables,
    ``classifiers`` likewise for classifiers;
    ``params`` maps an identifier to a function ``dataset -> parameters``;
    ``exclude``: method ids whose rows the summary and runtime tables read
    here leave out (a challenge experiment's challengers).
    """

    def __init__(self, root: PathLike, *, datasets: Sequence[str] | None = None,
                 methods: Mapping[str, str] | None = None,
                 params: Mapping[str, Any] | None = None,
                 summary: pd.DataFrame | None = None,
                 stats: Mapping[str, dict] | None = None,
                 runtime: pd.DataFrame | None = None,
                 classifiers: Mapping[str, str] | None = None,
                 exclude: Sequence[str] = ()):
        self.root = os.fspath(root)
        self.exclude = list(exclude)
        self._summary = summary
        self._stats = dict(stats) if stats is not None else {}
        self._runtime = runtime
        self.methods = dict(methods or {})
        self.classifiers = dict(classifiers or {})
        self.params = dict(params or {})
        self._datasets = list(datasets) if datasets is not None else None

    # tables
    @property
    def summary(self) -> pd.DataFrame:
        if self._summary is None:
            path = os.path.join(self.root, "tables", "summary.tsv")
            if not os.path.exists(path):
                raise NotCheckable(f"no result table {path}")
            self._summary = without_methods(
                read_table(path, dtype={"n_features": str}), self.exclude)
        return self._summary

    def stats(self, metric: str) -> dict[str, Any]:
        if metric not in self._stats:
            path = os.path.join(self.root, "stats", f"{metric}.json")
            if not os.path.exists(path):
                raise NotCheckable(f"no statistics for {metric} in this run")
            with open(path, encoding="utf-8") as fh:
                self._stats[metric] = json.load(fh)
        res = self._stats[metric]
        if "skipped" in res:
            raise NotCheckable(f"statistics of {metric} skipped: {res['skipped']}")
        return res

    def stats_among(self, metric: str, methods: Sequence[str], n_features: Any,
                    alpha: float = 0.05) -> dict[str, Any]:
        """The statistics of ``metric`` recomputed with ``methods`` only (a
        paper's figure comparing a subset of the experiment's methods)."""
        from mlfsbench.report.compare import compare

        ids = {self.method(m) for m in methods}
        s = self.summary
        keep = s["selector"].isin(ids)
        if BASELINE not in ids:
            keep &= s["n_features"].astype(str) != "all"
        res = compare(s[keep], metric, n_features=n_features, alpha=alpha)
        if "skipped" in res:
            raise NotCheckable(f"statistics of {metric} skipped: {res['skipped']}")
        return res

    @property
    def runtime(self) -> pd.DataFrame:
        if self._runtime is None:
            path = os.path.join(self.root, "tables", "runtime.tsv")
            if not os.path.exists(path):
                raise NotCheckable(f"no runtime table {path}")
            self._runtime = without_methods(read_table(path), self.exclude)
        return self._runtime

    @property
    def datasets(self) -> list[str]:
        if self._datasets is None:
            self._datasets = sorted(self.summary["dataset"].unique())
        return self._datasets

    # names
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

    # numbers
    def scores(self, metric: str, dataset: str, methods: Sequence[str],
               n_features: Any, classifier: str | None = None) -> dict[str, float]:
        """Each method's score on one dataset and metric (mean over folds).

        Returns claim names -> value; for ``mean-rank`` the value is a rank.
        ``classifier`` (an identifier) keeps that classifier's rows only.
        """
        s = self.summary
        s = s[(s["metric"] == metric) & (s["dataset"] == dataset)]
        if classifier is not None:
            s = s[s["classifier"] == self.classifiers.get(classifier, classifier)]
        if s.empty:
            raise NotCheckable(f"no {metric} results on {dataset}")
        greater = _greater(metric)
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
            if isinstance(n_features, int) or str(n_features).isdigit():
                at = rows[rows["n_features"] == str(n_features)]
                if at.empty:
                    raise NotCheckable(f"{name} has no result at K = {n_features} "
                                       f"on {dataset}")
                out[name] = float(at["mean"].mean())
            elif n_features in ("all", "selected"):
                at = rows[rows["n_features"] == n_features]
                if at.empty:
                    raise NotCheckable(f"{name} has no result at {n_features} "
                                       f"on {dataset}")
                out[name] = float(at["mean"].mean())
            elif n_features == "mean":
                out[name] = float(curve.mean())
            elif n_features == "best":
                out[name] = float(curve.max() if greater else curve.min())
            elif n_features in ("mean-rank", "every"):
                pass
            else:
                raise ValueError(f"unknown n_features {n_features!r}")
        if n_features == "mean-rank":
            frame = pd.DataFrame(curves).dropna()
            ranks = frame.rank(axis=1, ascending=not greater, method="average")
            out = {name: float(ranks[name].mean()) for name in methods}
        if n_features == "every":
            self._curves = curves
        return out

    def cell(self, metric: str, dataset: str, name: str, n_features: Any,
             classifier: str | None = None) -> tuple[float, float, int]:
        """``(mean, s.d., n)`` of one method's cell: the mean over folds as
        :meth:`scores` gives it, the s.d. over folds and the number of folds
        of the summary row it comes from (``best``: the best K's row;
        ``mean`` over K: the mean of the rows' s.d.s and their smallest
        ``n``). The s.d. is nan on one fold."""
        value = self.scores(metric, dataset, [name], n_features,
                            classifier=classifier)[name]
        s = self.summary
        s = s[(s["metric"] == metric) & (s["dataset"] == dataset)]
        if classifier is not None:
            s = s[s["classifier"] == self.classifiers.get(classifier, classifier)]
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

    def curves(self, metric: str, dataset: str,
               methods: Sequence[str]) -> pd.DataFrame:
        """K x methods: the mean over folds at every integer K."""
        self.scores(metric, dataset, methods, "every")
        return pd.DataFrame(self._curves).dropna()


def _greater(metric: str) -> bool:
    try:
        return GREATER_IS_BETTER[metric]
    except KeyError:
        raise ValueError(f"unknown metric {metric!r}") from None


def _fmt(value: float) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _metrics(q: Mapping[str, Any]) -> list[str]:
    m = q.get("metric")
    return list(m) if isinstance(m, list) else [m]


def _datasets(claim: Mapping[str, Any], results: Results) -> tuple[list[str], str]:
    """The claim's datasets that this run has, and a note on the others."""
    q = claim.get("quantity", {})
    wanted = q.get("datasets") or ([q["dataset"]] if "dataset" in q else None)
    if wanted is None:
        return results.datasets, ""
    have = [d for d in wanted if d in results.datasets]
    missing = [d for d in wanted if d not in results.datasets]
    unavailable = claim.get("_unavailable", {})
    if not have:
        reasons = "; ".join(f"{d}: {unavailable.get(d, 'not run in this experiment')}"
                            for d in missing)
        raise NotCheckable(f"no dataset of the claim is run here ({reasons})")
    note = ""
    if missing:
        note = (f"on {len(have)} of the paper's {len(wanted)} datasets "
                f"(without {', '.join(missing)})")
    return have, note


def _better(a: float, b: float, greater: bool) -> bool:
    return a > b if greater else a < b


# ------------------------------------------------------------------- rules
def _rule_value(claim, results):
    """``|ours - paper| <= tolerance`` (``side: no-worse``: ours no worse than
    the paper's by more than the tolerance, better by any amount).

    The margin (tolerance left, negative when outside) is set against the s.d.
    over folds: a verdict that a margin smaller than one s.d. decides is
    ``within fold noise``. A two-sided claim missed because ours is better
    says so. With ``ordering: <claim id>`` the value is not reproduced while
    the method is worse than every other method of that companion claim on
    the same cell, whatever the tolerance.
    """
    q = claim["quantity"]
    datasets, note = _datasets(claim, results)
    (metric,) = _metrics(q)
    name, n_features = q["method"], q.get("n_features", "all")
    value, sd, n = results.cell(metric, datasets[0], name, n_features,
                                classifier=q.get("classifier"))
    paper, tol = float(claim["paper"]), float(claim["tolerance"])
    diff = value - paper
    gain = diff if _greater(metric) else -diff  # > 0: ours better than the paper
    one_sided = claim.get("side") == "no-worse"
    margin = tol + gain if one_sided else tol - abs(diff)
    ok = margin >= -1e-12
    notes = [note] if note else []
    if not ok and gain > 0:
        notes.append(f"ours is better than the paper's by {gain:.4f}, more than "
                     f"the tolerance {_fmt(tol)}")
    elif not ok:
        notes.append(f"ours is worse than the paper's by {-gain:.4f}, more than "
                     f"the tolerance {_fmt(tol)}")
    elif one_sided and gain > tol:
        notes.append(f"ours is better than the paper's by {gain:.4f}")
    companion = claim.get("_companion")
    if ok and companion is not None:
        others = {}
        for other in _claim_methods(companion["quantity"]):
            if other == name:
                continue
            try:  # a method this run lacks leaves the comparison
                others |= results.scores(metric, datasets[0], [other], n_features,
                                         classifier=q.get("classifier"))
            except NotCheckable:
                pass
        greater = _greater(metric)
        if others and all(_better(v, value, greater) for v in others.values()):
            ok = False
            best = max(others.values()) if greater else min(others.values())
            notes.append(f"within the tolerance, but worse than every other "
                         f"method of {companion['id']} on this cell (their best "
                         f"{best:.4f})")
    spread = f" ± {sd:.4f} s.d." if np.isfinite(sd) and n > 1 else ""
    ours = f"{value:.4f}{spread}, n = {n} (difference {diff:+.4f})"
    if not (np.isfinite(sd) and n > 1):
        robust = "no spread (n = 1)" if n <= 1 else "no spread"
    elif abs(margin) < sd:
        robust = WITHIN_NOISE
        notes.append(f"{WITHIN_NOISE}: decided by a margin of {abs(margin):.4f}, "
                     f"less than one s.d. over folds ({sd:.4f})")
    else:
        robust = BEYOND_NOISE
    extra = {"ours_sd": f"{sd:.4f}" if np.isfinite(sd) and n > 1 else "",
             "n": str(n), "margin": f"{margin:+.4f}", "robust": robust}
    return ok, ours, "; ".join(notes), extra


def _cells(claim, results):
    q = claim["quantity"]
    datasets, note = _datasets(claim, results)
    return q, datasets, _metrics(q), note


def _rule_winner(claim, results):
    """The paper's winner is among the best on each cell; at a single K (not
    ``mean-rank``) each cell also says whether a gap smaller than the s.d.
    over folds decides it: an agreeing cell when the nearest other method is
    that close, a disagreeing one when the winner is (:class:`_Noise`)."""
    q, datasets, metrics, note = _cells(claim, results)
    expected = claim["paper"]
    n_features = q.get("n_features", "mean")
    agree, total, parts = 0, 0, []
    noise = _Noise() if n_features != "mean-rank" else None
    for metric in metrics:
        greater = _greater(metric) and n_features != "mean-rank"
        for d in datasets:
            want = expected.get(d) if isinstance(expected, dict) else expected
            if want is None:
                continue
            scores = results.scores(metric, d, q["methods"], n_features)
            best = max(scores.values()) if greater else min(scores.values())
            winners = [m for m, v in scores.items() if np.isclose(v, best)]
            total += 1
            wanted = want if isinstance(want, list) else [want]
            hit = [w for w in wanted if w in winners]
            agree += bool(hit)
            first = hit[0] if hit else next((w for w in wanted if w in scores), None)
            if noise is not None and first is not None:
                sd, n = _spreads(results, metric, d, q["methods"], n_features)
                rivals = [m for m in scores if m not in wanted] if hit else winners
                noise.add(bool(hit),
                          any(abs(scores[first] - scores[m])
                              < max(sd[first], sd[m]) for m in rivals), n)
            label = f"{d}" if len(metrics) == 1 else f"{metric}/{d}"
            parts.append(f"{label}: {'='.join(winners)}")
    if total == 0:
        raise NotCheckable("the paper names no winner on the datasets run here")
    need = float(claim.get("min_fraction", 1.0))
    ours = f"winner agrees on {agree} of {total} ({'; '.join(parts)})"
    ok = agree / total >= need - 1e-12
    if noise is None:
        return ok, ours, note
    extra, noise_note = noise.verdict(agree, total, need)
    return ok, ours, "; ".join(x for x in (note, noise_note) if x), extra


def _rule_better(claim, results):
    """Every ``better`` method beats every ``worse`` one on each cell; at a
    single K (or ``all``, ``selected``, ``best``, ``mean``) each cell also
    says whether a gap smaller than the s.d. over folds decides it
    (:class:`_Noise`)."""
    q, datasets, metrics, note = _cells(claim, results)
    n_features = q.get("n_features", "mean")
    names = list(q["better"]) + list(q["worse"])
    pairs = [(a, b) for a in q["better"] for b in q["worse"]]
    held, total, failed = 0, 0, []
    noise = _Noise() if n_features != "every" else None
    for metric in metrics:
        greater = _greater(metric)
        for d in datasets:
            total += 1
            if n_features == "every":
                c = results.curves(metric, d, names)
                ok = all(_better(c[a], c[b], greater).all() for a, b in pairs)
            else:
                s = results.scores(metric, d, names, n_features)
                ok = all(_better(s[a], s[b], greater) for a, b in pairs)
                sd, n = _spreads(results, metric, d, names, n_features)
                deciding = pairs if ok else [(a, b) for a, b in pairs
                                             if not _better(s[a], s[b], greater)]
                noisy = [abs(s[a] - s[b]) < max(sd[a], sd[b]) for a, b in deciding]
                noise.add(ok, any(noisy) if ok else all(noisy), n)
            held += ok
            if not ok:
                failed.append(d if len(metrics) == 1 else f"{metric}/{d}")
    need = float(claim.get("min_fraction", 1.0))
    ours = f"holds in {held} of {total}"
    if failed:
        ours += f" (not on {', '.join(failed)})"
    ok = held / total >= need - 1e-12
    if noise is None:
        return ok, ours, note
    extra, noise_note = noise.verdict(held, total, need)
    return ok, ours, "; ".join(x for x in (note, noise_note) if x), extra


def _spreads(results, metric, dataset, names, n_features):
    """Each method's s.d. over folds on one cell (nan as 0) and the cell's
    smallest number of folds."""
    sd, n = {}, []
    for name in names:
        _, s, k = results.cell(metric, dataset, name, n_features)
        sd[name] = s if np.isfinite(s) else 0.0
        n.append(k)
    return sd, min(n)


class _Noise:
    """Cells of a verdict decided by less than one s.d. over folds.

    A held cell is noisy when one of its comparisons is closer than the
    larger s.d. of the two methods; a failed cell when all its failing
    comparisons are. The verdict is ``within fold noise`` when flipping the
    noisy cells could change it.
    """

    def __init__(self):
        self.noisy_held = self.noisy_failed = 0
        self.n = None

    def add(self, held: bool, noisy: bool, n: int) -> None:
        self.noisy_held += held and noisy
        self.noisy_failed += (not held) and noisy
        self.n = n if self.n is None else min(self.n, n)

    def verdict(self, held: int, total: int, need: float) -> tuple[dict, str]:
        if not self.n or self.n <= 1:
            return {"n": str(self.n or ""), "robust": "no spread (n = 1)"}, ""
        ok = held / total >= need - 1e-12
        flips = ((held - self.noisy_held) / total < need - 1e-12 if ok
                 else (held + self.noisy_failed) / total >= need - 1e-12)
        noisy = self.noisy_held + self.noisy_failed
        note = (f"{noisy} of {total} cells decided by less than one s.d. over "
                f"folds" if noisy else "")
        return ({"n": str(self.n), "robust": WITHIN_NOISE if flips else BEYOND_NOISE},
                note)


def _rule_similar(claim, results):
    q, datasets, metrics, note = _cells(claim, results)
    n_features = q.get("n_features", "mean")
    tolerance = float(claim["tolerance"])
    held, total, parts = 0, 0, []
    for metric in metrics:
        for d in datasets:
            s = results.scores(metric, d, q["methods"], n_features)
            gap = max(s.values()) - min(s.values())
            total += 1
            held += gap <= tolerance
            label = d if len(metrics) == 1 else f"{metric}/{d}"
            shown = ", ".join(f"{m} {v:.4f}" for m, v in s.items())
            parts.append(f"{label}: {shown} (gap {gap:.4f})")
    need = float(claim.get("min_fraction", 1.0))
    ours = f"within {tolerance:g} in {held} of {total} ({'; '.join(parts)})"
    return held / total >= need - 1e-12, ours, note


def _rule_average_rank(claim, results):
    q = claim["quantity"]
    held, total, parts = 0, 0, []
    for metric in _metrics(q):
        res = _stats(q, metric, results)
        ranks = {m: res["average_ranks"].get(results.method(m))
                 for m in _claim_methods(q)}
        missing = [m for m, r in ranks.items() if r is None]
        if missing:
            raise NotCheckable(f"{', '.join(missing)} not in the {metric} statistics")
        total += 1
        if "best" in q:
            ok = ranks[q["best"]] <= min(res["average_ranks"].values()) + 1e-12
        else:
            ok = all(ranks[a] < ranks[b] for a in q["better"] for b in q["worse"])
        held += ok
        shown = ", ".join(f"{m} {r:.2f}" for m, r in sorted(ranks.items(),
                                                            key=lambda x: x[1]))
        if "best" in q:
            first = min(res["average_ranks"], key=res["average_ranks"].get)
            shown = f"first: {first} {res['average_ranks'][first]:.2f}; {shown}"
        parts.append(f"{metric}: {shown} (N = {res['n_datasets']})")
    need = float(claim.get("min_fraction", 1.0))
    return held / total >= need - 1e-12, "; ".join(parts), ""


def _stats(q, metric, results):
    """The run's statistics of ``metric``, or, with ``among``, recomputed on
    those methods at ``n_features`` (default ``mean``)."""
    if q.get("among"):
        return results.stats_among(metric, q["among"], q.get("n_features", "mean"))
    return results.stats(metric)


def _claim_methods(q):
    if "methods" in q:
        return list(q["methods"])
    if "best" in q:
        return [q["best"]]
    return list(q["better"]) + list(q["worse"])


def _rule_significance(claim, results):
    q = claim["quantity"]
    test = q.get("test", "bonferroni_dunn")
    want = claim["paper"]
    held, total, parts = 0, 0, []
    for metric in _metrics(q):
        res = _stats(q, metric, results)
        cd = res[test]["cd"]
        ranks = res["average_ranks"]
        me = results.method(q["method"])
        if me not in ranks:
            raise NotCheckable(f"{q['method']} not in the {metric} statistics")
        for other in q["others"]:
            o = results.method(other)
            if o not in ranks:
                raise NotCheckable(f"{other} not in the {metric} statistics")
            diff = ranks[o] - ranks[me]  # > 0: ours ranks better
            got = ("better" if diff > cd else "worse" if -diff > cd
                   else "similar")
            total += 1
            held += got == want
            parts.append(f"{metric} vs {other}: {got} (rank difference "
                         f"{diff:+.2f}, CD {cd:.2f})")
    note = f"N = {res['n_datasets']} datasets"
    return held == total, "; ".join(parts), note


def _rule_friedman(claim, results):
    q = claim["quantity"]
    held, total, parts = 0, 0, []
    for metric in _metrics(q):
        res = results.stats(metric)
        idv = res["iman_davenport"]
        rejected = bool(idv["rejected"])
        total += 1
        held += rejected == (claim["paper"] == "rejected")
        parts.append(f"{metric}: F = {idv['F']:.3f}, critical "
                     f"{idv['critical_value']:.3f} "
                     f"({'rejected' if rejected else 'not rejected'})")
    return held == total, "; ".join(parts), f"N = {res['n_datasets']} datasets"


def _rule_empty_subset(claim, results):
    q = claim["quantity"]
    datasets, note = _datasets(claim, results)
    s = results.summary
    held, parts = 0, []
    ident = results.method(q["method"])
    for d in datasets:
        rows = s[(s["dataset"] == d) & (s["selector"] == ident)]
        if rows.empty:
            raise NotCheckable(f"no results of {q['method']} on {d}")
        folds = int(rows[rows["n_features"] == "all"]["folds"].max())
        at = rows[rows["n_features"] == "selected"]
        nonempty = int(at["folds"].max()) if not at.empty else 0
        got = ("empty" if nonempty == 0 else "nonempty" if nonempty == folds
               else "mixed")
        held += got == claim["paper"]
        parts.append(f"{d}: subset in {nonempty} of {folds} folds")
    return held == len(datasets), "; ".join(parts), note


def _rule_degradation(claim, results):
    cells, note = _degraded_cells(claim, results)
    if not cells:
        raise NotCheckable("no cell at the selected subset")
    worse, total = sum(c[3] for c in cells), len(cells)
    share = worse / total
    ours = f"{worse} of {total} cells ({100 * share:.1f} %)"
    return share <= float(claim["tolerance"]) + 1e-12, ours, note


def _degraded_cells(claim, results):
    """``(metric, dataset, method, degraded)`` of every (method, metric,
    dataset) cell at ``selected``, degraded as in the ``degradation`` rule."""
    q = claim["quantity"]
    datasets, note = _datasets(claim, results)
    s = results.summary
    cells = []
    for metric in _metrics(q):
        greater = _greater(metric)
        for d in datasets:
            rows = s[(s["dataset"] == d) & (s["metric"] == metric)]
            base = rows[rows["n_features"] == "all"]["mean"].mean()
            for name in q["methods"]:
                at = rows[(rows["selector"] == results.method(name))
                          & (rows["n_features"] == "selected")]
                if at.empty:
                    continue  # an empty subset
                mean = float(at["mean"].iloc[0])
                std = float(at["std"].fillna(0).iloc[0])
                gap = (base - mean) if greater else (mean - base)
                cells.append((metric, d, name, bool(gap > std)))
    return cells, note


def _rule_concentration(claim, results):
    """Of the degraded cells (``degradation``), the share lying in ``within``
    (its ``datasets`` and/or ``metrics``) is at least ``min_fraction``."""
    cells, note = _degraded_cells(claim, results)
    if not cells:
        raise NotCheckable("no cell at the selected subset")
    within = claim["quantity"]["within"]
    # the share on named datasets means nothing without each of them
    absent = [d for d in within.get("datasets", []) if d not in results.datasets]
    if absent:
        unavailable = claim.get("_unavailable", {})
        reasons = "; ".join(f"{d}: {unavailable.get(d, 'not run in this experiment')}"
                            for d in absent)
        raise NotCheckable(f"the claim names a dataset not run here ({reasons})")
    inside = [c for c in cells if c[3]
              and c[1] in within.get("datasets", [c[1]])
              and c[0] in within.get("metrics", [c[0]])]
    degraded = sum(c[3] for c in cells)
    if degraded == 0:
        return False, f"no degraded cell of {len(cells)}", note
    share = len(inside) / degraded
    ours = (f"{len(inside)} of the {degraded} degraded cells ({100 * share:.0f} %; "
            f"{len(cells)} cells)")
    return share >= float(claim.get("min_fraction", 0.5)) - 1e-12, ours, note


def _rule_fastest(claim, results):
    q = claim["quantity"]
    datasets, note = _datasets(claim, results)
    rt = results.runtime
    me = results.method(q["method"])
    held, parts = 0, []
    for d in datasets:
        rows = rt[rt["dataset"] == d].set_index("selector")["mean"]
        if me not in rows:
            raise NotCheckable(f"no runtime of {q['method']} on {d}")
        first = rows.idxmin()
        held += rows[me] <= rows.min() + 1e-12
        parts.append(f"{d}: {q['method']} {rows[me]:.2f} s, fastest {first} "
                     f"{rows.min():.2f} s")
    return held == len(datasets), "; ".join(parts), note


def _rule_artificial(claim, results):
    from mlfsbench.report.artificial import run_problem

    q = claim["quantity"]
    params = dict(q.get("params", {}))
    if "entry" in q:  # the experiment's entry, under this run's readings
        if q["entry"] not in results.params:
            raise NotCheckable(f"no selector {q['entry']!r} in this experiment")
        params.update(results.params[q["entry"]](None))
    rankings, scores = run_problem(q["problem"], q["method"], params,
                                   repeats=int(q.get("repeats", 20)),
                                   n=int(q.get("n", 1000)),
                                   discretize=q.get("discretize"))
    check = q["check"]
    want = set(q.get("features", []))
    k = int(q.get("k", len(want)))
    held = 0
    for ranking, score in zip(rankings, scores, strict=True):
        r = [int(f) for f in ranking]
        if check == "first":
            ok = r[0] in want
        elif check == "first_set":
            ok = set(r[:k]) == want
        elif check == "top":
            groups = [set(g) for g in q["groups"]]
            hit = [next((i for i, g in enumerate(groups) if f in g), None)
                   for f in r[:k]]
            ok = None not in hit and len(set(hit)) == k
        elif check == "consecutive":
            pos = sorted(r.index(f) for f in want)
            ok = pos[-1] - pos[0] == len(pos) - 1
        elif check == "zero_scores":
            ok = score is not None and bool(np.all(np.asarray(score) == 0))
        else:
            raise ValueError(f"unknown artificial check {check!r}")
        held += bool(ok)
    need = float(claim.get("min_fraction", 1.0))
    ours = f"holds in {held} of {len(rankings)} draws"
    return held / len(rankings) >= need - 1e-12, ours, ""


RULES = {"value": _rule_value, "winner": _rule_winner, "better": _rule_better,
         "average_rank": _rule_average_rank, "significance": _rule_significance,
         "friedman": _rule_friedman, "empty_subset": _rule_empty_subset,
         "degradation": _rule_degradation, "fastest": _rule_fastest,
         "artificial": _rule_artificial, "similar": _rule_similar,
         "concentration": _rule_concentration}


# ----------------------------------------------- the paper against itself
def _printed_tables(claim: Mapping[str, Any], printed) -> dict[str, Any]:
    """The printed tables a claim names (``printed:``), by the metric each
    holds (``seconds`` for a times table)."""
    ids = claim.get("printed")
    ids = [ids] if isinstance(ids, str) else list(ids or [])
    if not ids:
        return {}
    if printed is None:
        raise ValueError(f"claim {claim['id']} names printed table(s) {ids} but "
                         "the study has no printed file")
    return {(t.metric or t.id): t for t in (printed[i] for i in ids)}


def _table_for(claim, tables, metric):
    if metric not in tables:
        raise ValueError(f"claim {claim['id']}: none of its printed tables "
                         f"{[t.id for t in tables.values()]} holds {metric}")
    return tables[metric]


def _printed_check(claim: Mapping[str, Any], results: Results,
                   printed) -> tuple[bool | None, str, str]:
    """What the paper's own printed numbers give for the claim's quantity on
    the datasets run here: ``(supported, text, failing)``.

    ``supported`` is False when the paper's own table fails the claim's rule
    on those datasets (the claim is then not checkable here: no reproduction
    could meet it; ``failing`` is the part of ``text`` that fails), None when
    the printed tables cannot say (a dataset they lack). A Friedman claim
    also says when the printed precision decides it
    (:func:`~mlfsbench.evaluation.printed.friedman_tie_range` straddles the
    critical value).
    """
    tables = _printed_tables(claim, printed)
    if not tables:
        return None, "", ""
    q = claim.get("quantity", {})
    datasets = _datasets(claim, results)[0]
    lacking = sorted({d for t in tables.values() for d in datasets
                      if d not in t.datasets})
    if lacking:
        return None, f"the paper prints no row for {', '.join(lacking)}", ""
    rule, n = claim["rule"], len(datasets)
    these = "on this dataset" if n == 1 else f"on these {n} datasets"
    if rule == "value":
        (metric,) = _metrics(q)
        t = _table_for(claim, tables, metric)
        cell = t.printed.at[datasets[0], q["method"]]
        return True, f"{t.id} prints {cell}", ""
    parts: list[str] = []
    failing: list[str] = []

    def part(ok: bool, text: str) -> None:
        parts.append(text)
        if not ok:
            failing.append(text)

    if rule == "friedman":
        for metric in _metrics(q):
            t = _table_for(claim, tables, metric)
            methods = q.get("among") or t.methods
            res = printed_tables.friedman(t, datasets, methods)
            rejected = bool(res["rejected"])
            text = (f"the paper's own {t.id} {these} gives F = {res['F']:.2f} "
                    f"{'>' if rejected else '<'} {res['F_critical']:.2f}")
            try:
                r = printed_tables.friedman_tie_range(t, datasets, methods,
                                                      max_states=TIE_STATES)
            except ValueError:
                text += " (too many printed ties to bound)"
            else:
                if r["min"] <= r["F_critical"] < r["max"]:
                    text += (f"; resolving its printed ties gives F from "
                             f"{r['min']:.2f} to {r['max']:.2f}: the printed "
                             "precision decides it")
            part(rejected == (claim["paper"] == "rejected"), text)
    elif rule in ("winner", "fastest"):
        metrics = ["seconds"] if rule == "fastest" else _metrics(q)
        for metric in metrics:
            t = _table_for(claim, tables, metric)
            expected = q["method"] if rule == "fastest" else claim["paper"]
            methods = None if rule == "fastest" else q["methods"]
            agree, total = 0, 0
            for d in datasets:
                want = expected.get(d) if isinstance(expected, dict) else expected
                if want is None:
                    continue
                total += 1
                wanted = want if isinstance(want, list) else [want]
                best = printed_tables.winners(t, [d], methods)[d]
                agree += any(w in best for w in wanted)
            need = 1.0 if rule == "fastest" else float(claim.get("min_fraction", 1))
            who = expected if isinstance(expected, str) else "the paper's winner"
            part(total > 0 and agree / total >= need - 1e-12,
                 f"the paper's own {t.id} {these}: {who} best on {agree} of "
                 f"{total}" + (f" (the claim needs {need:.4g})" if need < 1 else ""))
    elif rule in ("significance", "average_rank"):
        for metric in _metrics(q):
            t = _table_for(claim, tables, metric)
            methods = q.get("among") or t.methods
            ranks = printed_tables.average_ranks(t, datasets, methods)
            if rule == "average_rank":
                if "best" in q:
                    ok = ranks[q["best"]] <= ranks.min() + 1e-12
                else:
                    ok = all(ranks[a] < ranks[b]
                             for a in q["better"] for b in q["worse"])
                part(ok, f"the paper's own {t.id} {these}: first "
                         f"{ranks.idxmin()} {ranks.min():.2f}")
                continue
            test = q.get("test", "bonferroni_dunn").replace("_", "-")
            cd = printed_tables.critical_differences(len(methods), n)[test]
            got = {}
            for other in q["others"]:
                diff = ranks[other] - ranks[q["method"]]
                got[other] = (("better" if diff > cd else "worse" if -diff > cd
                               else "similar"), diff)
            part(all(g == claim["paper"] for g, _ in got.values()),
                 f"the paper's own {t.id} {these} (CD {cd:.2f}): "
                 + ", ".join(f"{g} vs {o} ({d:+.2f})" for o, (g, d) in got.items()))
    else:
        raise ValueError(f"claim {claim['id']}: no printed check for a {rule} "
                         "claim")
    return not failing, "; ".join(parts), "; ".join(failing)


def _paper_text(claim: Mapping[str, Any]) -> str:
    if "paper_text" in claim:
        return str(claim["paper_text"])
    paper = claim.get("paper")
    if isinstance(paper, dict):
        return "; ".join(f"{k}: {v}" for k, v in paper.items())
    text = str(paper) if paper is not None else ""
    if "tolerance" in claim and claim.get("rule") in ("value", "similar"):
        if claim.get("side") == "no-worse":
            text += f" (or better; tolerance {_fmt(claim['tolerance'])})"
        else:
            text += f" (tolerance ± {_fmt(claim['tolerance'])})"
    return text


def evaluate_claim(claim: Mapping[str, Any], results: Results,
                   printed=None) -> dict[str, str]:
    """One row of the verdict table (columns :data:`COLUMNS`).

    ``printed`` is the study's printed tables
    (:class:`~mlfsbench.evaluation.printed.PrintedStudy`): a claim naming one
    (``printed:``) is first computed from the paper's own numbers on the
    datasets run here, and is ``not checkable here`` when they fail it; our
    result is still shown.
    """
    row = dict.fromkeys(COLUMNS, "")
    row.update(claim=claim["id"], statement=claim["statement"],
               source=claim["source"], paper=_paper_text(claim),
               verdict=NOT_CHECKABLE)
    if claim.get("weak"):
        row["robust"] = f"weak claim: {claim['weak']}"
    try:
        supported, row["printed"], failing = _printed_check(claim, results, printed)
    except NotCheckable:
        supported, failing = None, ""
    unmet = (f"the paper's own numbers do not meet the claim on the datasets run "
             f"here: {failing}")
    try:
        if claim.get("not_checkable"):
            raise NotCheckable(claim["not_checkable"])
        q = claim.get("quantity", {})
        if claim["rule"] != "artificial":
            results.check_params(q.get("expect_params", {}),
                                 _datasets(claim, results)[0])
        ok, ours, note, *extra = RULES[claim["rule"]](claim, results)
    except NotCheckable as exc:
        row["note"] = f"{unmet}; {exc}" if supported is False else str(exc)
        return row
    row.update(ours=ours, verdict=REPRODUCED if ok else NOT_REPRODUCED, note=note)
    for key, value in (extra[0] if extra else {}).items():
        if key == "robust" and row["robust"]:
            continue  # a weak claim says so first
        row[key] = value
    if supported is False:
        row["verdict"] = NOT_CHECKABLE
        row["note"] = "; ".join(
            x for x in (f"{unmet}, so no reproduction could (ours alone: "
                        f"{REPRODUCED if ok else NOT_REPRODUCED})", note) if x)
    return row


def evaluate_claims(data: Mapping[str, Any], experiment: str,
                    results: Results, printed=None) -> pd.DataFrame:
    """The verdict table of one experiment's claims (columns :data:`COLUMNS`);
    ``printed``: the study's printed tables (:func:`evaluate_claim`)."""
    unavailable = data.get("unavailable", {})
    by_id = {c["id"]: c for c in data["claims"]}
    rows = []
    for c in claims_for(data, experiment):
        extra = {"_unavailable": unavailable}
        if c.get("ordering", "none") != "none":
            extra["_companion"] = by_id[c["ordering"]]
        rows.append(evaluate_claim({**c, **extra}, results, printed))
    return pd.DataFrame(rows, columns=COLUMNS)


def method_aliases(entries: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Claim names of configured selectors -> their identifiers.

    Every name :func:`mlfsbench.workflow.config.method_names` gives an entry
    (its label, the registry ``name`` when only one entry has it, the
    identifier) names it.
    """
    return {name: ident for ident, names in method_names(list(entries)).items()
            for name in names}


def results_for(root: PathLike, experiment_config: Mapping[str, Any]) -> Results:
    """:class:`Results` of one experiment directory with its config's names.

    The claims are the paper's: a challenge experiment's challengers
    (entries flagged ``challenger``) are left out of the names and of the
    summary and runtime rows, as the statistics leave them out, so the
    verdicts are those of the study without them.
    """
    challengers = challenger_ids(experiment_config)
    entries = [e for e in experiment_config.get("selectors", [])
               if not is_challenger(e)]
    classifiers = [e for e in experiment_config.get("classifiers", [])
                   if not is_challenger(e)]
    params = {method_id(e): (lambda d, e=e: entry_params(e, d)) for e in entries}
    return Results(root, datasets=experiment_config.get("datasets"),
                   methods=method_aliases(entries), params=params,
                   classifiers=method_aliases(classifiers), exclude=challengers)


def write_claims(claims_path: PathLike, experiment: str,
                 experiment_config: Mapping[str, Any], root: PathLike,
                 out: PathLike, html_out: PathLike | None = None,
                 printed: PathLike | None = None) -> pd.DataFrame:
    """The ``claims`` rule: evaluate and write ``claims.tsv`` (and its HTML).

    ``printed``: the study's printed tables (default: the file beside the
    claims file, :func:`mlfsbench.workflow.config.printed_path`).
    """
    data = load_claims(claims_path)
    # datasets this run could not obtain (the plan's exclusion), with why
    unavailable = experiment_config.get("unavailable") or {}
    if unavailable:
        data = {**data, "unavailable": {**(data.get("unavailable") or {}),
                                        **unavailable}}
    printed = printed or printed_path(claims_path)
    study = printed_tables.load_printed(printed) if printed else None
    table = evaluate_claims(data, experiment, results_for(root, experiment_config),
                            study)
    write_text(out, format_table(table))
    if html_out is not None:
        write_text(html_out, verdict_html(table, f"{experiment}: the paper's claims"))
    return table


def verdict_html(table: pd.DataFrame, title: str) -> str:
    """A standalone HTML page of the verdict table, verdicts coloured."""
    import html

    colours = {REPRODUCED: "#d8f0d8", NOT_REPRODUCED: "#f6d5d5",
               NOT_CHECKABLE: "#eeeeee"}
    columns = list(table.columns)  # COLUMNS and any a verdict table adds
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for row in table.to_dict("records"):
        cells = "".join(f"<td>{html.escape(str(row[c]))}</td>" for c in columns)
        body.append(f"<tr class='verdict' style='background:"
                    f"{colours.get(row['verdict'], '#fff')}'>{cells}</tr>")
    counts = table["verdict"].value_counts()
    tally = ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS)
    style = ("body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
             "td,th{padding:3px 8px;border-bottom:1px solid #ccc;text-align:left;"
             "vertical-align:top}.scroll{max-width:100%;overflow-x:auto}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title><style>{style}</style></head><body>"
            f"<h3>{html.escape(title)}</h3><p>{tally}</p><div class='scroll'>"
            f"<table class='claims'><thead><tr>{head}</tr></thead><tbody>"
            f"{''.join(body)}</tbody></table></div></body></html>\n")


def read_verdicts(result_dir: PathLike) -> pd.DataFrame:
    """``tables/claims.tsv`` of a finished experiment (for the CLI)."""
    path = os.path.join(os.fspath(result_dir), "tables", "claims.tsv")
    if not os.path.exists(path):
        raise ValueError(f"{path} does not exist: run the workflow's claims stage "
                         "first")
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
