"""The statistical comparison of an experiment's methods (tables and figure).

Functions of the aggregated results of one experiment (``summary.tsv``) that
the ``stats`` and ``ranks`` rules call. The tests themselves live in
:mod:`mlfsbench.evaluation.stats`, the diagram in
:mod:`mlfsbench.report.cd_diagram`; runtimes and stability in
:mod:`mlfsbench.report.selections`.

A *method* in the statistical comparison is one configured selector (joined
with the classifier's identifier when an experiment has several
classifiers, :func:`mlfsbench.report.names.method_key`); the all-features
baseline enters as ``all-features``. The score
of a method on a dataset is its mean over folds, either at one feature count
or averaged over the integer feature counts of the grid (``"mean"``; the
"rank score averaged over K" of Sechidis et al. 2019, Table 2, averages ranks
instead: ``"mean-rank"`` ranks the methods at each K and averages the ranks).

With ``round: d`` (an experiment's ``stats: {round: d}``) the methods are
also ranked on the means rounded to ``d`` decimals, as a paper's printed
tables read (ties where the printed numbers are equal; with ``mean-rank``
the means at each K are rounded before ranking): the result's ``rounded``
holds those ranks and tests beside the main (unrounded) ones, and
``ranks.tsv`` shows both.

Beside the ranks, every pair of methods gets the Bayesian signed-rank test
over the datasets, with a region of practical equivalence of
:data:`~mlfsbench.evaluation.bayesian.ROPE` in the metric's units (0 on
average ranks), and Cliff's delta with its magnitude
(:mod:`mlfsbench.evaluation.pairwise`): ``pairwise.tsv``.

With a control (the study's proposed method, ``stats: {control: ...}``)
every other method gets its wins, ties and losses against it over the
datasets the ranks compare (``against_control``; ``ranks.tsv``'s
``wins:``, ``ties:`` and ``losses:`` columns), by the pages' one W/T/L
convention (:func:`tie_decimals`, :mod:`mlfsbench.report.challenge_stats`):
a tie is an equal mean once rounded to the study's ``round``, else to 3
decimals; with ``"mean-rank"``, an equal average rank.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import pandas as pd

from mlfsbench.evaluation.bayesian import ROPE
from mlfsbench.evaluation.metrics import GREATER_IS_BETTER
from mlfsbench.evaluation.stats import (
    MIN_DATASETS,
    compare_methods,
    rank_shortfall,
    round_table,
    wins_ties_losses,
)
from mlfsbench.io import (
    BASELINE,
    format_table,
    read_table,
    without_methods,
    write_json,
    write_text,
)
from mlfsbench.report.cd_diagram import critical_difference_diagram, too_few_datasets
from mlfsbench.report.names import display_name, method_key, metric_label
from mlfsbench.report.render import (
    message_figure,
    natural_key,
    save_figure,
    write_html_table,
)

PathLike = str | os.PathLike


def method_table(summary: pd.DataFrame, metric: str, n_features: int | str = "mean",
                 ) -> pd.DataFrame:
    """Datasets × methods table of one metric (mean over folds and splits).

    ``n_features`` is one size of the grid, or ``"mean"`` (average over the
    integer sizes). The all-features rows become the ``all-features`` column
    (per classifier when there are several; one value per dataset, the mean
    over the selectors' identical runs).

    >>> s = pd.DataFrame({"dataset": ["d"] * 4, "split": "cv",
    ...     "selector": ["a", "a", "b", "b"], "classifier": "c",
    ...     "n_features": ["1", "all", "1", "all"], "metric": "m",
    ...     "mean": [0.2, 0.1, 0.4, 0.1]})
    >>> method_table(s, "m", 1).to_dict("records")
    [{'a': 0.2, 'b': 0.4, 'all-features': 0.1}]
    """
    data = summary[summary["metric"] == metric].copy()
    if data.empty:
        raise ValueError(f"no results for metric {metric!r}")
    data["method"] = method_key(data)
    data["n_features"] = data["n_features"].astype(str)
    base = data[data["n_features"] == "all"].copy()
    base["method"] = method_key(base, BASELINE)
    sized = data[data["n_features"] != "all"]
    if n_features == "mean":
        sized = sized[sized["n_features"] != "selected"]
    if n_features != "mean":
        sized = sized[sized["n_features"] == str(n_features)]
        if sized.empty:
            raise ValueError(f"metric {metric!r}: no results at {n_features} features")
    table = sized.pivot_table(index="dataset", columns="method", values="mean",
                              aggfunc="mean", sort=True)
    table.columns.name = None
    if not base.empty:
        baseline = base.pivot_table(index="dataset", columns="method", values="mean",
                                    aggfunc="mean", sort=True)
        table = table.join(baseline)
    return table


def mean_rank_table(summary: pd.DataFrame, metric: str,
                    decimals: int | None = None) -> pd.DataFrame:
    """Datasets × methods: the method's rank at each K, averaged over the Ks.

    ``decimals``: rank the means rounded to that many decimals.
    """
    data = summary[(summary["metric"] == metric)
                   & ~summary["n_features"].astype(str).isin(["all", "selected"])
                   ].copy()
    data["method"] = method_key(data)
    if decimals is not None:
        data["mean"] = round_table(data["mean"].to_numpy(), decimals)
    ascending = not GREATER_IS_BETTER[metric]
    data["rank"] = data.groupby(["dataset", "n_features"])["mean"].rank(
        ascending=ascending, method="average")
    table = data.pivot_table(index="dataset", columns="method", values="rank",
                             aggfunc="mean", sort=True)
    table.columns.name = None
    return table


def rope_of(n_features: int | str) -> float:
    """The region of practical equivalence of the Bayesian signed-rank test
    at a comparison point: :data:`~mlfsbench.evaluation.bayesian.ROPE` in the
    metric's units, 0 on ranks averaged over the K (``"mean-rank"``: no
    region of equivalence in rank units).

    >>> rope_of(50), rope_of("mean"), rope_of("mean-rank")
    (0.01, 0.01, 0.0)
    """
    return 0.0 if n_features == "mean-rank" else ROPE


def tie_decimals(options) -> int | None:
    """The decimals to which two means are rounded before they tie (the
    study's ``stats`` ``options``: its ``round``, else 3, the regenerated
    paper tables' precision); None with ``"mean-rank"`` (ranks tie when
    equal).

    >>> tie_decimals({"round": 2}), tie_decimals({}), tie_decimals(
    ...     {"n_features": "mean-rank", "round": 2})
    (2, 3, None)
    """
    if options.get("n_features") == "mean-rank":
        return None
    return int(options["round"]) if options.get("round") is not None else 3


def against_control(table: pd.DataFrame, control: str, *, higher: bool,
                    decimals: int | None) -> dict[str, Any]:
    """Every method's wins, ties and losses against ``control`` over the
    datasets (rows) of ``table`` (:func:`~mlfsbench.evaluation.stats.
    wins_ties_losses`): ``{"control", "decimals", "wins": {method: n},
    "ties": ..., "losses": ...}``, the control itself left out.

    >>> t = pd.DataFrame({"c": [0.50, 0.30, 0.20], "a": [0.6, 0.3004, 0.1]})
    >>> r = against_control(t, "c", higher=True, decimals=3)
    >>> r["wins"], r["ties"], r["losses"]
    ({'a': 1}, {'a': 1}, {'a': 1})
    """
    out: dict[str, Any] = {"control": control, "decimals": decimals,
                           "wins": {}, "ties": {}, "losses": {}}
    for m in table.columns:
        if m == control:
            continue
        w, t, l_ = wins_ties_losses(table, m, control, higher_is_better=higher,
                                    decimals=decimals)
        out["wins"][m], out["ties"][m], out["losses"][m] = w, t, l_
    return out


def _tests(table: pd.DataFrame, *, higher: bool, control, alpha,
           decimals, rope: float | None = None,
           wilcoxon: bool = True) -> dict[str, Any]:
    if control is not None and control not in table.columns:
        control = None
    return compare_methods(table, higher_is_better=higher, control=control,
                           alpha=alpha, decimals=decimals, rope=rope,
                           wilcoxon=wilcoxon)


def compare(summary: pd.DataFrame, metric: str, *, n_features: int | str = "mean",
            control: str | None = None, alpha: float = 0.05,
            round: int | None = None,  # noqa: A002
            pairs: bool = True) -> dict[str, Any]:
    """Statistical comparison of the methods on one metric (JSON-ready).

    With fewer than two datasets or methods no test is defined: the result
    then holds ``skipped`` with the reason (``needs at least 2 datasets, this
    run has 1``), and the table. ``round``: also
    rank the means rounded to that many decimals (``rounded``; the module
    docstring). ``pairs=False``: the ranks and rank tests only, without the
    pairwise tests (Wilcoxon-Holm, the Bayesian signed-rank test and Cliff's
    delta), which cost the most (the claims' recomputed statistics, which
    read the ranks).
    """
    if n_features == "mean-rank":
        table = mean_rank_table(summary, metric)
        rounded = None if round is None else mean_rank_table(summary, metric, round)
        higher = False
    else:
        table = method_table(summary, metric, n_features)
        rounded = table
        higher = GREATER_IS_BETTER[metric]
    rope = rope_of(n_features)
    incomplete = table.index[table.isna().any(axis=1)].tolist()
    table = table.dropna(axis=0, how="any")
    out: dict[str, Any] = {"metric": metric, "n_features": n_features,
                           "round": round,
                           "table": {c: table[c].to_dict() for c in table.columns}}
    if incomplete:
        # a dataset where some method has no result (e.g. a threshold that
        # selects no feature) cannot enter a rank test
        out["datasets_without_all_methods"] = incomplete
    short = rank_shortfall(*table.shape)
    if short:
        if incomplete and table.shape[0] < MIN_DATASETS:
            lack = "lacks" if len(incomplete) == 1 else "lack"
            short += (f" with every method's results ({', '.join(incomplete)} "
                      f"{lack} some)")
        out["skipped"] = short
        return out
    out.update(_tests(table, higher=higher, control=control, alpha=alpha,
                      decimals=None, rope=rope if pairs else None, wilcoxon=pairs))
    if control is not None and control in table.columns:
        out["against_control"] = against_control(
            table, control, higher=higher,
            decimals=tie_decimals({"n_features": n_features, "round": round}))
    if round is None:
        return out
    if n_features == "mean-rank":  # the ranks of the rounded means, averaged
        assert rounded is not None  # made above whenever round is given
        printed = _tests(rounded.loc[table.index], higher=higher, control=control,
                         alpha=alpha, decimals=None, wilcoxon=False)
    else:
        printed = _tests(table, higher=higher, control=control, alpha=alpha,
                         decimals=round, wilcoxon=False)
    out["rounded"] = {"decimals": int(round), **{key: printed[key] for key in (
        "average_ranks", "friedman", "iman_davenport", "bonferroni_dunn")}}
    return out


def cd_title(metric: str, result: dict[str, Any], control: str | None,
             cd: float) -> str:
    """Title of a CD diagram: the metric with its direction, the test, the
    CD, the number of datasets N and the feature count K compared.

    >>> print(cd_title("hamming_loss", {"n_datasets": 6, "n_features": 50}, "x",
    ...                1.2))
    Hamming loss (lower is better), K = 50
    Bonferroni-Dunn vs x, CD = 1.200, N = 6 datasets
    """
    k: Any = result.get("n_features")
    shown = {"mean": "mean over the K of the grid",
             "mean-rank": "ranks averaged over the K of the grid"}.get(k, f"K = {k}")
    test = f"Bonferroni-Dunn vs {control}" if control else "Nemenyi"
    return (f"{metric_label(metric)}, {shown}\n{test}, CD = {cd:.3f}, "
            f"N = {result['n_datasets']} datasets")


def cd_alt(metric: str, result: dict[str, Any],
           labels: dict[str, str] | None = None,
           highlight: Sequence[str] = ()) -> str:
    """The text alternative of a CD diagram, from the comparison it draws
    (:func:`compare`'s result): the test, N and the CD (:func:`cd_title`),
    the average ranks best first, and what differs significantly: from the
    best method (Nemenyi) or the control (Bonferroni-Dunn); or that no
    difference can be significant with so few datasets
    (:func:`~mlfsbench.report.cd_diagram.too_few_datasets`). ``highlight``:
    methods named as highlighted (a challenge page's challengers).

    >>> r = {"n_datasets": 6, "n_features": 50, "alpha": 0.05,
    ...      "average_ranks": {"b": 2.5, "a": 1.0, "c": 2.5},
    ...      "nemenyi": {"cd": 1.2}, "bonferroni_dunn": {"control": None}}
    >>> print(cd_alt("hamming_loss", r, {"a": "A"}).replace(". ", ".\\n")
    ...       .replace("; ", ";\\n"))
    Critical-difference diagram: Hamming loss (lower is better), K = 50;
    Nemenyi, CD = 1.200, N = 6 datasets.
    Average ranks, best first: A 1.00, b 2.50, c 2.50.
    Significantly worse than A: b, c.
    """
    if "skipped" in result:
        return f"{metric_label(metric)}: no diagram ({result['skipped']})"
    control = result["bonferroni_dunn"]["control"]
    cd = float(result["bonferroni_dunn" if control else "nemenyi"]["cd"])
    ranks = {display_name(m, labels): float(r)
             for m, r in result["average_ranks"].items()}
    order = sorted(ranks, key=lambda m: (ranks[m], natural_key(m)))
    shown = display_name(control, labels) if control else None
    title = cd_title(metric, result, shown, cd).replace("\n", "; ")
    text = (f"Critical-difference diagram: {title}. Average ranks, best first: "
            + ", ".join(f"{m} {ranks[m]:.2f}" for m in order) + ".")
    marked = [display_name(h, labels) for h in highlight]
    if marked:
        text += " Highlighted: " + ", ".join(marked) + "."
    note = too_few_datasets(len(ranks), cd, int(result["n_datasets"]),
                            result.get("alpha"))
    if note:
        return f"{text} {note}."
    ref = shown or order[0]
    differ = [m for m in order if m != ref and abs(ranks[m] - ranks[ref]) >= cd]
    if shown:
        return text + (f" Significantly different from {ref}: "
                       + ", ".join(differ) + "." if differ else
                       f" None differs significantly from {ref}.")
    return text + (f" Significantly worse than {ref}: " + ", ".join(differ) + "."
                   if differ else f" None is significantly worse than {ref}.")


def comparison_files(folder: PathLike, metric: str) -> tuple[str, str]:
    """Where the ``stats`` rule keeps one metric's comparison in an
    experiment's statistics folder: ``(<metric>.json, <metric>_cd.png)``.

    >>> comparison_files("results/e/stats", "hamming_loss")
    ('results/e/stats/hamming_loss.json', 'results/e/stats/hamming_loss_cd.png')
    """
    return (os.path.join(folder, f"{metric}.json"),
            os.path.join(folder, f"{metric}_cd.png"))


def write_comparison(summary_path: PathLike, metric: str, json_out: PathLike,
                     png_out: PathLike, *, n_features: int | str = "mean",
                     control: str | None = None, alpha: float = 0.05,
                     round: int | None = None,  # noqa: A002
                     labels: dict[str, str] | None = None,
                     exclude: Sequence[str] = ()) -> dict:
    """The ``stats`` rule: one metric's comparison as JSON and its CD diagram.

    The JSON keeps the method identifiers; the diagram shows ``labels``
    (identifier -> readable name, see
    :func:`mlfsbench.report.names.display_name`). ``exclude``: method ids
    (selectors or classifiers) left out, a challenge experiment's
    challengers: the comparison is the paper's.
    """
    summary = without_methods(read_table(summary_path, dtype={"n_features": str}),
                              exclude)
    result = compare(summary, metric, n_features=n_features, control=control,
                     alpha=alpha, round=round)
    write_json(json_out, result)
    cd_figure(result, metric, png_out, labels)
    return result


def cd_figure(result: dict[str, Any], metric: str, png_out: PathLike,
              labels: dict[str, str] | None = None,
              highlight: Sequence[str] = ()):
    """The CD diagram of a comparison (:func:`compare`'s result), saved to
    ``png_out`` with its text alternative (:func:`cd_alt`): Bonferroni-Dunn
    against the result's control if it has one, else Nemenyi; methods shown
    by ``labels``, those of ``highlight`` (ids) in red. A comparison that was
    skipped gives a figure saying why. Returns the Figure."""
    if "skipped" in result:
        fig = message_figure(f"{metric}: {result['skipped']}")
        save_figure(fig, png_out, alt=cd_alt(metric, result, labels))
        return fig
    use_control = result["bonferroni_dunn"]["control"]
    cd = result["bonferroni_dunn" if use_control else "nemenyi"]["cd"]
    ranks = {display_name(m, labels): r for m, r in result["average_ranks"].items()}
    if use_control:
        use_control = display_name(use_control, labels)
    longest = max(len(name) for name in ranks) + 7
    textspace = max(1.5, 0.085 * longest)  # inches for the names
    marked = [display_name(h, labels) for h in highlight]
    fig = critical_difference_diagram(
        ranks, cd, control=use_control,
        textspace=textspace, width=3.5 + 2 * textspace,
        title=cd_title(metric, result, use_control, cd),
        highlight=marked or None,
        n_datasets=result["n_datasets"], alpha=result["alpha"])
    save_figure(fig, png_out, alt=cd_alt(metric, result, labels,
                                         highlight=highlight))
    return fig


#: The prefixes of ``ranks.tsv``'s columns that name a method after them.
WITH_METHOD = ("rank:", "rounded_rank:", "wins:", "ties:", "losses:")


def ranks_table(json_paths: Sequence[PathLike], out: PathLike,
                html_out: PathLike | None = None,
                labels: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per metric: the number of datasets ranked, average ranks,
    Friedman p and Iman-Davenport F; with a control, its id (``control``)
    and each other method's ``wins:``, ``ties:`` and ``losses:`` against it.

    The TSV names methods by identifier; the HTML by ``labels``.
    """
    rows = []
    for path in json_paths:
        with open(path, encoding="utf-8") as fh:
            res = json.load(fh)
        row: dict[str, Any] = {"metric": res["metric"],
                               "n_features": res["n_features"]}
        if "skipped" in res:
            row["note"] = res["skipped"]
        else:
            row["n_datasets"] = res["n_datasets"]
            row.update({f"rank:{m}": r for m, r in res["average_ranks"].items()})
            row["friedman_p"] = res["friedman"]["p_value"]
            row["iman_davenport_F"] = res["iman_davenport"]["F"]
            row["F_critical"] = res["iman_davenport"]["critical_value"]
            row["nemenyi_cd"] = res["nemenyi"]["cd"]
            row["bonferroni_dunn_cd"] = res["bonferroni_dunn"]["cd"]
            vs = res.get("against_control")
            if vs:
                # each method against the study's proposed method
                row["control"] = vs["control"]
                for what in ("wins", "ties", "losses"):
                    row.update({f"{what}:{m}": n for m, n in vs[what].items()})
            if res.get("round") is not None:
                # beside the ranks above: those of the means rounded as printed
                printed = res["rounded"]
                row["round"] = res["round"]
                row.update({f"rounded_rank:{m}": r
                            for m, r in printed["average_ranks"].items()})
                row["rounded_friedman_p"] = printed["friedman"]["p_value"]
                row["rounded_iman_davenport_F"] = printed["iman_davenport"]["F"]
        rows.append(row)
    table = pd.DataFrame(rows).sort_values("metric", kind="mergesort")
    write_text(out, format_table(table.reset_index(drop=True)))
    if html_out is not None:
        shown = table.rename(columns={
            c: f"{c[:c.index(':') + 1]}{display_name(c[c.index(':') + 1:], labels)}"
            for c in table.columns if c.startswith(WITH_METHOD)})
        # one column per metric, a row per method or test: as wide as the
        # number of metrics, not of methods, so it fits the page
        shown = shown.map(lambda v: "" if pd.isna(v) else (
            f"{v:.4g}" if isinstance(v, float) else v))
        shown = shown.set_index("metric").T.reset_index(names="")
        shown.columns.name = None
        write_html_table(shown, html_out, "Average ranks and tests per metric")
    return table


def pairwise_table(json_paths: Sequence[PathLike], out: PathLike,
                   html_out: PathLike | None = None,
                   labels: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per metric and pair of methods: the Bayesian signed-rank
    test's ``p_first``, ``p_rope``, ``p_second`` with its ``rope``, and
    Cliff's delta with its magnitude (positive: the first method better).

    The TSV names methods by identifier; the HTML by ``labels``.
    """
    columns = ["metric", "n_features", "first", "second", "p_first", "p_rope",
               "p_second", "rope", "cliffs_delta", "magnitude", "n_datasets"]
    rows = []
    for path in json_paths:
        with open(path, encoding="utf-8") as fh:
            res = json.load(fh)
        for pair in res.get("pairwise", []):
            first, second = pair["pair"]
            rows.append({"metric": res["metric"], "n_features": res["n_features"],
                         "first": first, "second": second,
                         **{k: pair[k] for k in ("p_first", "p_rope", "p_second",
                                                 "rope", "cliffs_delta",
                                                 "magnitude")},
                         "n_datasets": res["n_datasets"]})
    table = pd.DataFrame(rows, columns=columns).sort_values(
        ["metric"], kind="mergesort").reset_index(drop=True)
    write_text(out, format_table(table))
    if html_out is not None:
        shown = table.assign(first=[display_name(m, labels) for m in table["first"]],
                             second=[display_name(m, labels) for m in table["second"]])
        shown = shown.map(lambda v: f"{v:.3f}" if isinstance(v, float) else v)
        write_html_table(shown, html_out, "Every pair of methods: Bayesian "
                         "signed-rank test and Cliff's delta per metric")
    return table
