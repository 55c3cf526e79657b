"""Challenge pages (issue #28 item 3): a challenger's ranks, Holm-corrected
rank tests and W/T/L against a study's methods, its CD diagram highlighted,
the page per study and the page across studies; hand-computed numbers on
small tables, an independent implementation of the tests, the pages in
headless Chromium and one small workflow run."""

from __future__ import annotations

import hashlib
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from mlfsbench.report.cd_diagram import HIGHLIGHT_COLOUR, critical_difference_diagram
from mlfsbench.report.challenge import (
    challenge,
    challenge_cd,
    challenge_id,
    challenge_metric,
    challenge_page,
    challenge_rows,
    summary_rows,
    verdict_sentence,
    wins_ties_losses,
    write_challenge,
    write_challenges,
)
from mlfsbench.report.compare import write_comparison
from mlfsbench.report.headline import headline_plot
from mlfsbench.report.render import CURVE_COLOURS, save_figure

COLS = ["dataset", "split", "selector", "classifier", "n_features", "metric",
        "mean", "std", "folds"]
# Hamming loss (lower is better) at K = 5 on four datasets; the challenger x.
# Ranks: d1 x a b c; d2 a x b c (x 0.2001 > a 0.2, equal at 3 decimals);
# d3 a x b c; d4 x b a c.
HAND = {"d1": {"x": 0.1, "a": 0.2, "b": 0.3, "c": 0.4},
        "d2": {"a": 0.2, "x": 0.2001, "b": 0.3, "c": 0.4},
        "d3": {"a": 0.1, "x": 0.2, "b": 0.3, "c": 0.4},
        "d4": {"x": 0.1, "b": 0.2, "a": 0.3, "c": 0.4}}


def frame(values, k="5", metric="hamming_loss", base=None) -> pd.DataFrame:
    """summary.tsv rows of ``values`` (dataset -> method -> mean) at ``k``;
    ``base``: the all-features mean of every dataset (no such rows if None)."""
    rows = []
    for d, methods in values.items():
        for m, v in methods.items():
            rows.append((d, "cv", m, "mlknn", k, metric, v, 0.01, 2))
            if base is not None:
                rows.append((d, "cv", m, "mlknn", "all", metric, base, 0.01, 2))
    return pd.DataFrame(rows, columns=COLS)


def two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2.0))


def test_ranks_holm_and_wins_ties_losses_by_hand():
    m = challenge_metric(frame(HAND), "hamming_loss", ["x"],
                         {"n_features": 5, "alpha": 0.05})
    res = m["result"]
    assert res["average_ranks"] == {"a": 1.75, "b": 2.75, "c": 4.0, "x": 1.5}
    # Friedman: 12 N / (k (k + 1)) (sum R^2 - k (k + 1)^2 / 4) = 2.4 * 3.875
    chi2 = 9.3
    assert res["friedman"]["chi2"] == pytest.approx(chi2)
    p3 = math.erfc(math.sqrt(chi2 / 2)) + math.sqrt(2 * chi2 / math.pi) * math.exp(
        -chi2 / 2)  # chi-squared survival function with 3 degrees of freedom
    assert res["friedman"]["p_value"] == pytest.approx(p3)
    info = m["rows"]["x"]
    assert (info["rank"], info["place"], info["best"]) == (1.5, 1, "a")
    t = info["tests"].set_index("method")
    se = math.sqrt(4 * 5 / (6 * 4))  # k = 4 methods, N = 4 datasets
    z = {"a": -0.25 / se, "b": -1.25 / se, "c": -2.5 / se}
    p = {k: two_sided(v) for k, v in z.items()}
    for k in "abc":
        assert t.at[k, "z"] == pytest.approx(z[k])
        assert t.at[k, "p"] == pytest.approx(p[k])
    # Holm: c smallest (x 3), then b (x 2), then a (x 1), never decreasing
    holm_c = 3 * p["c"]
    holm_b = max(holm_c, 2 * p["b"])
    holm_a = max(holm_b, p["a"])
    assert t["p_holm"].tolist() == pytest.approx([holm_a, holm_b, holm_c])
    assert round(holm_c, 4) == 0.0185 and t.at["c", "significant"]
    assert not t.at["a", "significant"] and not t.at["b", "significant"]
    # W/T/L: against a, d2 ties at the printed 3 decimals (0.200 = 0.200)
    wtl = {k: (t.at[k, "wins"], t.at[k, "ties"], t.at[k, "losses"]) for k in "abc"}
    assert wtl == {"a": (2, 1, 1), "b": (4, 0, 0), "c": (4, 0, 0)}
    assert t["paper_best"].tolist() == [True, False, False]


def test_tie_rule_follows_the_printed_precision():
    t = pd.DataFrame({"x": [0.101, 0.3], "a": [0.104, 0.2]})
    assert wins_ties_losses(t, "x", "a", higher_is_better=False,
                            decimals=3) == (1, 0, 1)
    assert wins_ties_losses(t, "x", "a", higher_is_better=False,
                            decimals=2) == (0, 1, 1)
    assert wins_ties_losses(t, "x", "a", higher_is_better=True,
                            decimals=None) == (1, 0, 1)
    # a study's `round: 2` decides the ties of its page
    m = challenge_metric(frame({"d1": {"x": 0.101, "a": 0.104},
                                "d2": {"x": 0.3, "a": 0.2}}), "hamming_loss",
                         ["x"], {"n_features": 5, "alpha": 0.05, "round": 2})
    row = m["rows"]["x"]["tests"].iloc[0]
    assert (row["wins"], row["ties"], row["losses"]) == (0, 1, 1)


def test_ranks_averaged_over_the_grid_tie_only_when_equal():
    # at K = 5 and K = 10, d2's x (0.2001) ranks behind a (0.2): with
    # "mean-rank" the compared values are average ranks, no rounding
    both = pd.concat([frame(HAND, k="5"), frame(HAND, k="10")])
    rank = challenge_metric(both, "hamming_loss", ["x"],
                            {"n_features": "mean-rank", "alpha": 0.05})
    mean = challenge_metric(both, "hamming_loss", ["x"],
                            {"n_features": "mean", "alpha": 0.05})
    assert rank["result"]["average_ranks"] == mean["result"]["average_ranks"]
    first = {m["result"]["n_features"]: m["rows"]["x"]["tests"].iloc[0]
             for m in (rank, mean)}
    assert first["mean-rank"][["wins", "ties", "losses"]].tolist() == [2, 0, 2]
    assert first["mean"][["wins", "ties", "losses"]].tolist() == [2, 1, 1]


def test_plan_lists_the_flagged_entries_as_challengers():
    from mlfsbench.workflow.ids import method_id
    from mlfsbench.workflow.plan import Plan

    mine = {"name": "ig-br", "discretize": {"strategy": "none"}, "challenger": True}
    clf = {"name": "brknn-a", "challenger": True}
    x = {"selectors": [{"name": "mim-br"}, mine],
         "classifiers": [{"name": "mlknn"}, clf]}
    plan = Plan({"experiments": {"e": x, "f": {**x, "selectors": [{"name": "a"}],
                                               "classifiers": [{"name": "b"}]}}},
                {}, {})
    assert plan.challengers("e") == [method_id(mine), "brknn-a"]
    assert method_id(mine).startswith("ig-br-") and plan.challengers("f") == []


def test_holm_tests_match_statsmodels_and_scikit_posthocs():
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    sp = pytest.importorskip("scikit_posthocs")
    rng = np.random.default_rng(3)
    methods = ["a", "b", "c", "d", "e", "x"]
    values = {f"d{i}": {m: float(rng.uniform(0.1, 0.2) - 0.01 * (m == "x")
                                 + 0.004 * j)
                        for j, m in enumerate(methods)} for i in range(10)}
    m = challenge_metric(frame(values), "hamming_loss", ["x"],
                         {"n_features": 5, "alpha": 0.05})
    tests = m["rows"]["x"]["tests"]
    paper = tests["method"].tolist()
    assert paper == ["a", "b", "c", "d", "e"]
    blocks = pd.DataFrame(values).T[methods].to_numpy()
    # Siegel & Castellan's z of the Friedman ranks: Demsar's pairwise test
    raw = sp.posthoc_siegel_friedman(blocks, p_adjust=None)
    expected = [raw.iloc[methods.index("x"), methods.index(k)] for k in paper]
    assert tests["p"].tolist() == pytest.approx(expected, rel=1e-9)
    holm = multipletests(tests["p"].to_numpy(), method="holm")[1]
    assert tests["p_holm"].tolist() == pytest.approx(list(holm), rel=1e-12)
    assert tests["significant"].tolist() == list(holm < 0.05)


def test_all_features_ranks_but_is_never_the_papers_best():
    m = challenge_metric(frame(HAND, base=0.05), "hamming_loss", ["x"],
                         {"n_features": 5, "alpha": 0.05})
    assert m["result"]["average_ranks"]["all-features"] == 1.0
    info = m["rows"]["x"]
    assert info["best"] == "a" and info["place"] == 2
    assert info["tests"]["method"].tolist() == ["a", "b", "c", "all-features"]


def test_several_classifiers_and_a_classifier_challenger():
    rows = frame(HAND)
    other = rows.copy()
    other["classifier"] = "mine"
    other["mean"] = other["mean"] - 0.01  # the challenger classifier is better
    m = challenge_metric(pd.concat([rows, other]), "hamming_loss", ["mine"],
                         {"n_features": 5, "alpha": 0.05})
    assert m["challengers"] == ["a|mine", "b|mine", "c|mine", "x|mine"]
    assert m["paper"] == ["a|mlknn", "b|mlknn", "c|mlknn", "x|mlknn"]


def test_a_metric_without_a_test_says_why():
    one = {"d1": HAND["d1"]}
    m = challenge_metric(frame(one), "hamming_loss", ["x"], {"n_features": 5})
    assert m["note"] == "needs at least 2 datasets, this run has 1"
    rows = challenge_rows("e", [m], {"n_features": 5})
    assert rows[["challenger", "note"]].values.tolist() == [["x", m["note"]]]
    cells = summary_rows(rows)
    assert cells["note"].tolist() == [m["note"]] and cells["better"].isna().all()


def test_a_dataset_without_the_challenger_is_left_out_and_named():
    values = {**HAND, "d5": {"a": 0.1, "b": 0.2, "c": 0.3}}  # x not run on d5
    options = {"n_features": 5, "alpha": 0.05}
    m = challenge_metric(frame(values), "hamming_loss", ["x"], options)
    assert m["result"]["n_datasets"] == 4 and m["rows"]["x"]["rank"] == 1.5
    page = challenge_page("e", [m], ["x"], options, summary=frame(values))
    assert "Left out of the ranks (a method has no result there): d5." in page


def test_bayesian_rows_of_the_challenger_by_hand(tmp_path):
    """HAND's challenger x against a, b, c (Hamming loss, lower is better).
    Cliff's delta over the 16 pairs of x's and a method's four means:
    against a (0.2, 0.2, 0.1, 0.3) x's 0.1 wins 3, 0.2001 nets -2, 0.2 nets
    0, 0.1 wins 3: 4/16 = 0.25, small; against b (0.3, 0.3, 0.3, 0.2) 4 + 2
    + 3 + 4 = 13/16, large; against c every pair: 1, large. Against b and c
    every difference lies beyond the rope (2 r = 0.02), so the rope's share
    is w0^2 with w0 ~ Beta(1/2, 4) (the Dirichlet prior's weight beside four
    datasets) and x wins when w0^2 < 1/2: P = I_{2^-1/2}(1/2, 4)."""
    from scipy.special import betainc

    from mlfsbench.report.challenge import bayesian_rows, write_bayesian

    options = {"n_features": 5, "alpha": 0.05}
    rows = bayesian_rows("e", challenge(frame(HAND), ["x"], options,
                                        ["hamming_loss"]))
    assert rows["first"].tolist() == ["x"] * 3
    assert rows["second"].tolist() == ["a", "b", "c"]
    assert rows["cliffs_delta"].tolist() == pytest.approx([0.25, 13 / 16, 1.0])
    assert rows["magnitude"].tolist() == ["small", "large", "large"]
    assert rows["rope"].tolist() == [0.01] * 3
    assert rows["n_datasets"].tolist() == [4] * 3
    beyond = betainc(0.5, 4, 2 ** -0.5)
    assert round(beyond, 4) == 0.9977
    for method in "bc":
        r = rows.set_index("second").loc[method]
        assert r["p_first"] == pytest.approx(beyond, abs=0.004)
        assert r["p_rope"] == pytest.approx(1 - beyond, abs=0.004)
        assert r["p_second"] == 0.0
    assert rows[["p_first", "p_rope", "p_second"]].sum(axis=1).tolist() == \
        pytest.approx([1.0] * 3)
    # the file the rule writes: the same rows; one dataset: no test, its note
    out = write_bayesian(_summary_file(tmp_path, HAND), "e", ["x"], options,
                         ["hamming_loss"], tmp_path / "pairwise.tsv")
    read = pd.read_csv(tmp_path / "pairwise.tsv", sep="\t")
    assert read["cliffs_delta"].tolist() == pytest.approx(out["cliffs_delta"].tolist())
    one = bayesian_rows("e", challenge(frame({"d1": HAND["d1"]}), ["x"], options,
                                       ["hamming_loss"]))
    assert one[["first", "note"]].values.tolist() == [
        ["x", "needs at least 2 datasets, this run has 1"]]
    assert one["second"].isna().all()


def test_bayesian_rows_on_ranks_averaged_over_the_grid_have_no_rope():
    from mlfsbench.report.challenge import bayesian_rows

    both = pd.concat([frame(HAND, k="5"), frame(HAND, k="10")])
    rows = bayesian_rows("e", challenge(both, ["x"], {"n_features": "mean-rank"},
                                        ["hamming_loss"]))
    assert rows["rope"].tolist() == [0.0] * 3
    assert (rows["p_rope"] == 0.0).all()
    # x's ranks 1, 2, 2, 1 against c's 4, 4, 4, 4: every pair a win
    assert rows.set_index("second").at["c", "cliffs_delta"] == 1.0


def test_the_page_shows_the_bayesian_rows(tmp_path):
    from mlfsbench.report.challenge import write_bayesian

    options = {"n_features": 5, "alpha": 0.05}
    summary = _summary_file(tmp_path, HAND)
    write_bayesian(summary, "e", ["x"], options, ["hamming_loss"],
                   tmp_path / "pairwise.tsv")
    write_challenge(summary, None, "e", ["x"], options, ["hamming_loss"],
                    tmp_path / "index.html", tmp_path / "challenge.tsv",
                    pairwise_path=tmp_path / "pairwise.tsv",
                    labels={"a": "Method A"})
    page = (tmp_path / "index.html").read_text()
    table = page.split("id='bayesian-hamming_loss-x'")[1].split("</table>")[0]
    assert "<th>P(equivalent, within ±0.01)</th>" in table
    assert "<td>Method A</td>" in table
    assert "<td>0.250</td><td>small</td><td>4</td>" in table
    assert "<td>1.000</td><td>large</td><td>4</td>" in table
    assert "href='pairwise.tsv'" in page and "Bayesian signed-rank test" in page
    # without the file the page has no such table
    write_challenge(summary, None, "e", ["x"], options, ["hamming_loss"],
                    tmp_path / "plain.html", tmp_path / "challenge.tsv")
    assert "bayesian-" not in (tmp_path / "plain.html").read_text()
    # a file of another kind is named
    with pytest.raises(ValueError, match=r"challenge.tsv: not a challenge's "
                       r"pairwise table \(no column first, second"):
        write_challenge(summary, None, "e", ["x"], options, ["hamming_loss"],
                        tmp_path / "index.html", tmp_path / "other.tsv",
                        pairwise_path=tmp_path / "challenge.tsv")


def _summary_file(root: Path, values) -> Path:
    path = root / "summary.tsv"
    frame(values).to_csv(path, sep="\t", index=False)
    return path


def test_verdict_sentence_counts_cells_with_a_test():
    rows = pd.concat([
        # better and significant: x ranks 1 everywhere on 8 datasets vs 2 methods
        challenge_rows("s1", challenge(frame({f"d{i}": {"x": 0.1, "a": 0.2,
                                                        "b": 0.3}
                                              for i in range(8)}),
                                       ["x"], {"n_features": 5, "alpha": 0.05},
                                       ["hamming_loss"]), {"n_features": 5}),
        # better, not significantly; then worse on ranking loss
        challenge_rows("s2", challenge(
            pd.concat([frame(HAND), frame({d: {m: 1 - v for m, v in ms.items()}
                                           for d, ms in HAND.items()},
                                          metric="ranking_loss")]),
            ["x"], {"n_features": 5, "alpha": 0.05},
            ["hamming_loss", "ranking_loss"]), {"n_features": 5}),
        challenge_rows("s3", [challenge_metric(frame({"d1": HAND["d1"]}),
                                               "hamming_loss", ["x"],
                                               {"n_features": 5})],
                       {"n_features": 5}),
    ])
    cells = summary_rows(rows)
    assert cells[["experiment", "metric", "better", "significant"]].values.tolist(
    ) == [["s1", "hamming_loss", True, True], ["s2", "hamming_loss", True, False],
          ["s2", "ranking_loss", False, False],
          ["s3", "hamming_loss", np.nan, np.nan]]
    assert verdict_sentence(cells) == ("better than the paper's best in 2 of 3 "
                                       "study × metric cells, significantly in 1")


# ------------------------------------------------------------ CD diagrams
# sha256 of save_figure's PNG of the diagram code before highlight= existed
# (cd_diagram.py at bf5e1b0), with save_figure's octree palette (its former
# median-cut palette gave the earlier digests from that code, checked).
CD_CASES = {
    "nemenyi": ({"avg_ranks": {"MIM": 2.1, "PMU": 3.4, "Proposed": 1.3,
                               "MDMR": 3.2}, "cd": 1.2,
                 "title": "Hamming loss\nNemenyi"},
                "ad65c85daddbb2a22c76ce80ecfd348ac0b9c39926bc27b443acb22cbb4c913e"),
    "control": ({"avg_ranks": {"MIM": 2.1, "PMU": 3.4, "Proposed": 1.3,
                               "MDMR": 3.2}, "cd": 1.2, "control": "Proposed"},
                "0756b96a1d5ac44985f48ea42add4efd4983f9494dc8c433f069f6c43bdc58f6"),
    "nocd": ({"avg_ranks": [1.5, 2.5, 2.0]},
             "5760b8deda6b6d0aeb470736081b48df9efe6d197ee9a6c4f61f00d22d9fc234"),
}


@pytest.mark.parametrize("case", sorted(CD_CASES))
def test_cd_diagram_bytes_unchanged_without_highlight(tmp_path, case):
    kwargs, digest = CD_CASES[case]
    save_figure(critical_difference_diagram(**kwargs), tmp_path / "cd.png")
    assert hashlib.sha256((tmp_path / "cd.png").read_bytes()).hexdigest() == digest
    save_figure(critical_difference_diagram(**kwargs, highlight=[]),
                tmp_path / "empty.png")
    assert (tmp_path / "empty.png").read_bytes() == (tmp_path / "cd.png").read_bytes()


def test_cd_diagram_highlights_the_named_method():
    from matplotlib.colors import to_hex

    kwargs = CD_CASES["control"][0]
    fig = critical_difference_diagram(**kwargs, highlight="MIM")
    texts = {t.get_text(): t for t in fig.axes[0].texts}
    assert to_hex(texts["MIM (2.10)"].get_color()) == HIGHLIGHT_COLOUR
    assert texts["MIM (2.10)"].get_fontweight() == "bold"
    others = [t for s, t in texts.items() if "(" in s and not s.startswith("MIM")]
    assert others and all(to_hex(t.get_color()) != HIGHLIGHT_COLOUR for t in others)
    red = [ln for ln in fig.axes[0].lines if to_hex(ln.get_color()) == HIGHLIGHT_COLOUR]
    assert len(red) == 2  # the elbow line and the dot on the axis
    with pytest.raises(ValueError, match="highlight"):
        critical_difference_diagram(**kwargs, highlight="nope")


def test_headline_curves_never_take_the_baselines_grey(tmp_path):
    from matplotlib.colors import to_hex

    values = {d: {f"m{j}": 0.1 + 0.01 * j for j in range(12)} for d in ("d1", "d2")}
    fig = headline_plot(frame(values, base=0.3), "hamming_loss", tmp_path / "h.png")
    ax = fig.axes[0]
    curves = [to_hex(ln.get_color()) for ln in ax.lines
              if ln.get_marker() not in (None, "None", "")]
    assert len(curves) == 12 and len(set(curves)) == 12
    greys = {to_hex(c) for c in ("C7", "black", "dimgrey", "darkgrey", "#c7c7c7")}
    assert not greys & set(curves)
    baseline = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert [to_hex(ln.get_color()) for ln in baseline] == ["#000000"]
    assert to_hex(CURVE_COLOURS[0]) == to_hex("C0")  # the first 7: as before


# ------------------------------------------------------------------- pages
DATASETS = ("bibtex", "corel5k", "enron", "genbase", "medical", "yeast")
PAPER = ("lee2016", "pmu", "mdmr", "fimf")
LABELS = {"lee2016": "Proposed", "pmu": "PMU", "mdmr": "MDMR", "fimf": "FIMF",
          "mine": "My method"}
METRICS = ("hamming_loss", "ranking_loss")


def study_summary() -> pd.DataFrame:
    """Lee 2016-like results at K = 10, 30, 50 plus a challenger ``mine``
    between the proposed method and PMU."""
    rng = np.random.default_rng(0)
    rows = []
    for d in DATASETS:
        level = rng.uniform(0.01, 0.2)
        for j, m in enumerate(("lee2016", "mine", "pmu", "mdmr", "fimf")):
            for k in (10, 30, 50):
                mean = level * (1 + 0.05 * j + 0.3 / k) + rng.uniform(0, 0.002)
                for metric in METRICS:
                    rows.append((d, "cv", m, "br-lr", str(k), metric, mean, 0.003, 10))
            for metric in METRICS:
                rows.append((d, "cv", m, "br-lr", "all", metric, level * 1.4, 0.004,
                             10))
    return pd.DataFrame(rows, columns=COLS)


OPTIONS = {"n_features": 50, "alpha": 0.05, "control": "lee2016", "round": 3}


def build_pages(root: Path) -> tuple[Path, Path, dict]:
    """results/lee2016/challenge/ (a study with a challenger), and the page
    across studies listing it, a study without challenger and one whose
    datasets could not be run."""
    res = root / "results" / "lee2016"
    (res / "tables").mkdir(parents=True)
    summary = res / "tables" / "summary.tsv"
    study_summary().to_csv(summary, sep="\t", index=False)
    pd.DataFrame({"dataset": list(DATASETS) * 2,
                  "selector": ["lee2016"] * 6 + ["mine"] * 6,
                  "mean": [1.5] * 6 + [0.25] * 6, "std": 0.1, "folds": 10}).to_csv(
        res / "tables" / "runtime.tsv", sep="\t", index=False)
    out = res / "challenge"
    out.mkdir()
    cds = []
    for metric in METRICS:
        cds.append(out / f"{metric}_cd.png")
        challenge_cd(study_summary(), metric, ["mine"], OPTIONS, cds[-1], LABELS)
    rows = write_challenge(summary, res / "tables" / "runtime.tsv", "lee2016",
                           ["mine"], OPTIONS, list(METRICS), out / "index.html",
                           out / "challenge.tsv", cd_files=cds, labels=LABELS,
                           order=list(PAPER) + ["mine"])
    across = root / "results" / "challenges.html"
    write_challenges({"lee2016": ["mine"], "li2017": [], "spolaor2013": ["mine"]},
                     {"lee2016": out / "challenge.tsv"}, across,
                     root / "results" / "challenges.tsv",
                     pages={"lee2016": "lee2016/challenge/index.html"},
                     reasons={"spolaor2013": "could not run: every dataset"},
                     labels=LABELS)
    return out / "index.html", across, {"rows": rows}


def test_pages_without_a_browser(tmp_path):
    page, across, built = build_pages(tmp_path)
    rows = built["rows"]
    assert set(rows["method"]) == {"lee2016", "pmu", "mdmr", "fimf", "all-features"}
    assert rows["challenger"].unique().tolist() == ["mine"]
    text = page.read_text()
    assert "src='hamming_loss_cd.png'" in text and "src='ranking_loss_cd.png'" in text
    assert "My method (challenger)" in text  # its column of the paper table
    assert "id='challenge-runtime'" in text and "0.25" in text
    assert "half away from zero" in text  # the tie rule is stated
    # every dataset ranks the methods alike: F_F is infinite, not p = "0"
    assert text.count("<td>0 (F = ∞)</td>") == 2
    cells = pd.read_csv(tmp_path / "results" / "challenges.tsv", sep="\t")
    assert cells["experiment"].tolist() == ["lee2016", "lee2016"]
    assert cells["paper_best"].tolist() == ["lee2016", "lee2016"]
    assert not cells["better"].any()  # the challenger is built second-best
    html = across.read_text()
    assert "better than the paper&#x27;s best in 0 of 2 study × metric cells" in html
    assert "<a href='leaderboard.html'>The leaderboard</a>" in html


def _red_pixels(png: bytes) -> int:
    from io import BytesIO

    from PIL import Image

    rgb = np.asarray(Image.open(BytesIO(png)).convert("RGB")).astype(int)
    target = np.array([int(HIGHLIGHT_COLOUR[i:i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(rgb - target).sum(axis=2) < 60).sum())


def test_challenge_pages_in_a_browser(tmp_path, browser_page):
    page_path, across_path, built = build_pages(tmp_path)
    rows = built["rows"]
    page = browser_page
    page.goto(page_path.as_uri())
    # the challenger's rank per metric, on the first screen
    for metric in METRICS:
        row = page.locator(f"#rank-{metric}-mine")
        box = row.bounding_box()
        assert box and box["y"] + box["height"] < 900
        rank = rows.loc[rows["metric"] == metric, "challenger_rank"].iloc[0]
        assert row.locator(".challenger-rank").inner_text() == f"{rank:.2f}"
        assert "My method" in row.inner_text()
        assert f"{rows.loc[rows['metric'] == metric, 'place'].iloc[0]} of 6" \
            in row.inner_text()
    # the CD diagram shows the challenger in red, the study's does not
    image = page.locator("#cd-hamming_loss img")
    image.scroll_into_view_if_needed()
    assert image.evaluate("e => e.complete && e.naturalWidth") >= 600
    assert _red_pixels(image.screenshot()) > 200
    plain = tmp_path / "plain.png"  # the stats rule's, same methods
    write_comparison(tmp_path / "results/lee2016/tables/summary.tsv",
                     "hamming_loss", tmp_path / "plain.json", plain,
                     labels=LABELS, **OPTIONS)
    assert _red_pixels(plain.read_bytes()) == 0
    # the across-studies page lists every study
    page.goto(across_path.as_uri())
    table = page.locator("#challenges")
    for study in ("lee2016", "li2017", "spolaor2013"):
        assert table.locator(f"tr#study-{study}").count() >= 1, study
    assert "no challenger" in table.locator("#study-li2017").inner_text()
    assert "could not run" in table.locator("#study-spolaor2013").inner_text()
    assert "significantly in 0" in page.locator("li.verdict").inner_text()
    page.locator("#study-lee2016 a").first.click()
    assert page.url.endswith("lee2016/challenge/index.html")


# --------------------------------------------------------------- workflow
@pytest.mark.workflow
@pytest.mark.slow
def test_tiny_run_with_a_challenger_writes_the_pages(tmp_path, shared_datasets):
    from mlfsbench.workflow.runner import copy_workflow

    repo = Path(__file__).resolve().parents[1]
    workdir = copy_workflow(repo, tmp_path / "run")
    config = yaml.safe_load((repo / "config" / "tiny.yaml").read_text())
    config["experiments"]["tiny"]["selectors"].append(
        {"name": "ig-br", "discretize": {"strategy": "none"}, "challenger": True,
         "label": "My IG"})
    (workdir / "config" / "challenge.yaml").write_text(yaml.safe_dump(config))
    cmd = [str(Path(sys.executable).parent / "mlfsbench"), "run", "--cores", "2",
           "--configfile", "config/challenge.yaml", "--config",
           f"mirror={shared_datasets.resolve().as_uri()}/"]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    res = workdir / "results"
    page = (res / "tiny" / "challenge" / "index.html").read_text()
    assert "My IG" in page
    for metric in ("hamming_loss", "ranking_loss"):
        assert (res / "tiny" / "challenge" / f"{metric}_cd.png").stat().st_size > 500
    # one dataset: no rank test, and the pages say why
    rows = pd.read_csv(res / "tiny" / "challenge" / "challenge.tsv", sep="\t")
    assert (rows["note"] == "needs at least 2 datasets, this run has 1").all()
    assert rows["challenger"].str.startswith("ig-br-").all()
    bayes = pd.read_csv(res / "tiny" / "challenge" / "pairwise.tsv", sep="\t")
    assert bayes["metric"].tolist() == ["hamming_loss", "ranking_loss"]
    assert (bayes["note"] == "needs at least 2 datasets, this run has 1").all()
    assert bayes["first"].str.startswith("ig-br-").all()
    board = pd.read_csv(res / "leaderboard.tsv", sep="\t")
    assert board.empty and "<a href='leaderboard.html'>" in (
        res / "challenges.html").read_text()
    across = (res / "challenges.html").read_text()
    assert "id='study-tiny'" in across and "My IG" in across
    summary = (res / "summary.html").read_text()
    assert "href='tiny/challenge/index.html'" in summary
    assert "href='challenges.html'" in summary


# ------------------------------------- issue 35: the challenge pages, read
# by a referee: the challenger's datasets out of the paper's, one W/T/L
# convention, its tests and diagram against the challenger, the N too small
# for any significance, links, names and parameters, its curves, every
# challenge kept.
def _text(page: str) -> str:
    """The page's visible text (tags dropped, entities read)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", page))


def _page(values, *, paper_datasets=None, entries=None, options=None,
          labels=None) -> str:
    summary = frame(values)
    opts = options or {"n_features": 5, "alpha": 0.05}
    results = challenge(summary, ["x"], opts, ["hamming_loss"])
    return challenge_page("st+x", results, ["x"], opts, summary=summary,
                          paper_datasets=paper_datasets, entries=entries,
                          labels=labels, cd_files={"hamming_loss": "cd.png"})


def test_datasets_run_out_of_the_papers():
    from mlfsbench.report.challenge import datasets_text

    paper = [f"d{i}" for i in range(1, 9)]
    two = {d: HAND[d] for d in ("d1", "d2")}
    text = _text(_page(two, paper_datasets=paper))
    assert "datasets run: 2 of 8 (the paper's): d1, d2; not run here: d3, d4, d5, " \
        "d6, d7, d8" in text
    assert "2 of 2" not in text
    # without the study's list: the datasets run are all there is
    assert datasets_text(["b", "a"], None) == "datasets run: 2 of 2 (the paper's): a, b"


def test_one_wtl_convention_the_challengers_by_hand():
    # x against a on three datasets (lower is better): d1 x wins (0.1 < 0.2),
    # d2 a tie at 3 decimals (0.3001 vs 0.3), d3 x loses (0.5 > 0.4); against
    # b: x wins d1 and d2 (0.3 < 0.35), loses d3 (0.5 > 0.45)
    values = {"d1": {"x": 0.1, "a": 0.2, "b": 0.3},
              "d2": {"x": 0.3001, "a": 0.3, "b": 0.35},
              "d3": {"x": 0.5, "a": 0.4, "b": 0.45}}
    m = challenge_metric(frame(values), "hamming_loss", ["x"],
                         {"n_features": 5, "alpha": 0.05, "control": "a"})
    t = m["rows"]["x"]["tests"].set_index("method")
    assert [tuple(t.loc[k, ["wins", "ties", "losses"]]) for k in "ab"] == [
        (1, 1, 1), (2, 0, 1)]
    page = _page(values, options={"n_features": 5, "alpha": 0.05, "control": "a"})
    text = _text(page)
    assert "1/1/1" in page and "2/0/1" in page
    # stated once, the challenger's; the paper table keeps no W/T/L row of
    # the paper's control (a's wins would read 1/1/1 the other way round)
    assert text.count("wins/ties/losses") == 1
    assert "the challenger's wins/ties/losses against each paper method" in text
    assert "W/T/L" not in page.split("class='paper'")[1]


def test_tests_and_cd_against_the_challenger(tmp_path):
    # HAND: k = 4, N = 4, ranks x 1.5, a 1.75, b 2.75, c 4.0; the study's
    # control is a, the challenge's is x
    m = challenge_metric(frame(HAND), "hamming_loss", ["x"],
                         {"n_features": 5, "alpha": 0.05, "control": "a"})
    bd = m["result"]["bonferroni_dunn"]
    cd = 2.3939798 * math.sqrt(4 * 5 / (6 * 4))  # z_{1 - 0.05 / (2 (k - 1))}
    assert bd["control"] == "x" and bd["cd"] == pytest.approx(cd)
    assert bd["significant"] == ["c"]  # 4.0 - 1.5 > 2.185 > 2.75 - 1.5
    # Holm against x: c 3 p_c, b max(that, 2 p_b), a max(that, p_a)
    se = math.sqrt(4 * 5 / (6 * 4))
    p = {k: two_sided(d / se) for k, d in (("a", 0.25), ("b", 1.25), ("c", 2.5))}
    holm = [max(3 * p["c"], 2 * p["b"], p["a"]), max(3 * p["c"], 2 * p["b"]),
            3 * p["c"]]
    assert m["rows"]["x"]["tests"]["p_holm"].tolist() == pytest.approx(holm)
    fig = challenge_cd(frame(HAND), "hamming_loss", ["x"],
                       {"n_features": 5, "alpha": 0.05, "control": "a"},
                       tmp_path / "cd.png", {"x": "Mine"})
    title = fig.axes[0].texts[0].get_text()
    assert f"Bonferroni-Dunn vs Mine, CD = {cd:.3f}, N = 4" in title
    # x better than a on average, Holm p = 1 > alpha: said so, not "better"
    page = _page(HAND)
    row = page.split("id='rank-hamming_loss-x'")[1].split("</tr>")[0]
    cells = [c.split(">", 1)[1] for c in row.split("</td>")[:-1]]
    assert cells[5:8] == [f"{holm[0]:.3g}", "no",
                          "better on average, not significant"]
    assert "significant at α = 0.05" in page
    assert "Bonferroni–Dunn against the challenger" in page


def test_too_few_datasets_for_significance_is_said():
    from mlfsbench.report.challenge import too_few_datasets

    # k = 4 methods, N = 2: the largest rank gap 3 gives z = 3 / sqrt(20 / 12)
    z = 3 / math.sqrt(4 * 5 / (6 * 2))
    p_min = 3 * two_sided(z)
    info = too_few_datasets(4, 2, 0.05)
    assert round(p_min, 4) == 0.0604 and info["p_min"] == pytest.approx(p_min)
    assert info["cd"] == pytest.approx(2.3939798 * math.sqrt(20 / 12))
    assert info["cd"] > 3
    # N = 10: the same gap would be significant
    assert too_few_datasets(4, 10, 0.05) is None
    # with k = 8 methods two datasets can be (p = 7 * 0.0043 = 0.030)
    assert too_few_datasets(8, 2, 0.05) is None
    two = _page({d: HAND[d] for d in ("d1", "d2")})
    assert _text(two).count("no difference can be significant at α = 0.05") == 2
    table, figure = two.split("id='metric-hamming_loss'")
    assert "too-few" in table and "too-few" in figure.split("</figure>")[0]
    assert "a Holm p of 0.0604" in two
    ten = {f"d{i}": HAND[f"d{1 + i % 4}"] for i in range(10)}
    assert "no difference can be significant" not in _page(ten)


def test_links_back_to_the_summary_and_to_its_own_files(tmp_path):
    page, _, _ = build_pages(tmp_path)
    text = page.read_text()
    # results/lee2016/challenge/index.html -> results/summary.html
    assert "href='../../summary.html#summary-lee2016'" in text
    assert (page.parent / "../../summary.html").resolve() == (
        tmp_path / "results" / "summary.html")
    for href in ("hamming_loss_cd.png", "ranking_loss_cd.png", "challenge.tsv",
                 "#challenge-ranks", "#metric-hamming_loss", "#challenge-runtime",
                 "../plots/yeast.png", "../../challenges.html"):
        assert f"href='{href}'" in text, href


def test_challenger_named_with_its_parameters_hashes_only_as_cache_id():
    entries = {"lrfs-a62c054b": {"name": "lrfs", "params": {"beta": 2, "alpha": 0.1},
                              "cache_ids": ["lrfs-90e22acd"]}}
    values = {d: {("lrfs-a62c054b" if m == "x" else m): v for m, v in ms.items()}
              for d, ms in HAND.items()}
    summary = frame(values)
    opts = {"n_features": 5, "alpha": 0.05}
    results = challenge(summary, ["lrfs-a62c054b"], opts, ["hamming_loss"])
    page = challenge_page("st+x", results, ["lrfs-a62c054b"], opts, summary=summary,
                          entries=entries, labels={"lrfs-a62c054b": "lrfs-a62c054b"})
    text = _text(page)
    assert "lrfs (lrfs; parameters: alpha=0.1, beta=2)" in text
    assert "cache id lrfs-90e22acd" in text
    # the hashes appear in the visible text only in that small note
    cache = page.split("class='cache-id'>")[1].split("</small>")[0]
    assert text.count("a62c054b") == cache.count("a62c054b") == 1
    assert text.count("90e22acd") == 1
    from mlfsbench.report.challenge import readable_labels

    # two challengers of one name are told apart by their parameters
    two = readable_labels({}, {"lrfs-1234abcd": {"name": "lrfs", "params": {"a": 1}},
                               "lrfs-5678abcd": {"name": "lrfs", "params": {"a": 2}},
                               "mine": {"name": "lrfs", "label": "Mine"}})
    assert two == {"lrfs-1234abcd": "lrfs (a=1)", "lrfs-5678abcd": "lrfs (a=2)",
                   "mine": "Mine"}


def test_challenger_curves_are_drawn_on_top_and_named(tmp_path):
    from matplotlib.colors import to_hex

    from mlfsbench.report.aggregate import plot_dataset

    values = {"d1": {"x": 0.1, "a": 0.2, "b": 0.3, "c": 0.25}}
    summary = pd.concat([frame(values, k=str(k)) for k in (1, 2, 3)])
    fig = plot_dataset(summary, "d1", tmp_path / "d1.png", tmp_path / "d1.pdf",
                       labels={"x": "Mine"}, challengers=["x"])
    lines = {ln.get_label(): ln for ln in fig.axes[0].lines
             if not ln.get_label().startswith("_")}
    mine = lines["Mine / mlknn (cv) (challenger)"]
    others = [ln for name, ln in lines.items() if "(challenger)" not in name]
    assert len(others) == 3
    assert mine.get_linewidth() == 2.6 and mine.get_marker() == "D"
    assert mine.get_zorder() > max(ln.get_zorder() for ln in others)
    assert all(mine.get_linewidth() > ln.get_linewidth() for ln in others)
    assert to_hex(mine.get_color()) == HIGHLIGHT_COLOUR
    assert HIGHLIGHT_COLOUR not in {to_hex(ln.get_color()) for ln in others}
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "Mine / mlknn (cv) (challenger)" in legend
    # a challenger classifier: the legend names every curve it draws so
    by_clf = plot_dataset(summary, "d1", tmp_path / "c.png", tmp_path / "c.pdf",
                          labels={"x": "Mine"}, challengers=["mlknn"])
    curves = [t.get_text() for t in by_clf.legends[0].get_texts()
              if " / mlknn" in t.get_text()]
    assert sorted(curves) == ["Mine / mlknn (cv) (challenger)",
                              "a / mlknn (cv) (challenger)",
                              "b / mlknn (cv) (challenger)",
                              "c / mlknn (cv) (challenger)"]
    # without challengers: the lines as before (no "(challenger)", C3 kept)
    plain = plot_dataset(summary, "d1", tmp_path / "p.png", tmp_path / "p.pdf")
    assert all(ln.get_linewidth() != 2.6 for ln in plain.axes[0].lines)
    assert to_hex("C3") in {to_hex(ln.get_color()) for ln in plain.axes[0].lines}


def _challenge_tsv(root: Path, experiment: str, challenger: str, values) -> Path:
    out = root / "results" / experiment / "challenge"
    out.mkdir(parents=True)
    summary = root / f"{experiment}.tsv"
    frame({d: {(challenger if m == "x" else m): v for m, v in ms.items()}
           for d, ms in values.items()}).to_csv(summary, sep="\t", index=False)
    write_challenge(summary, None, experiment, [challenger],
                    {"n_features": 5, "alpha": 0.05}, ["hamming_loss"],
                    out / "index.html", out / "challenge.tsv",
                    labels={challenger: f"{challenger.upper()} method"})
    return out / "challenge.tsv"


def test_every_challenge_kept_most_recent_first(tmp_path):
    from mlfsbench.workflow.plan import challenge_history, earlier_challenges

    res = tmp_path / "results"
    html_out, tsv_out = res / "challenges.html", res / "challenges.tsv"
    first = _challenge_tsv(tmp_path, "st+first", "first", HAND)
    write_challenges({"st+first": ["first"]}, {"st+first": first}, html_out, tsv_out)
    # the second challenge's run: the first's rows are on disk, not in its config
    second = _challenge_tsv(tmp_path, "st+second", "second", HAND)
    earlier = earlier_challenges(str(res), {"st+second": {}})
    assert earlier == {"st+first": f"{res}/st+first/challenge/challenge.tsv"}
    history = challenge_history(str(tsv_out), ["second"])
    assert history == ["first"]
    write_challenges({"st+second": ["second"]}, {"st+second": second, **earlier},
                     html_out, tsv_out, history=history)
    page = html_out.read_text()
    sections = page.split("<section class='challenge' ")[1:]
    assert [s.split("'")[1] for s in sections] == ["challenge-second",
                                                    "challenge-first"]
    assert "(this run)" in sections[0] and "(this run)" not in sections[1]
    assert "FIRST method" in sections[1] and "SECOND method" in sections[0]
    cells = pd.read_csv(tsv_out, sep="\t")
    assert cells["challenge"].tolist() == ["second", "first"]
    # the first again: it goes first, the second kept; the order comes from
    # the previous page's rows, not from file times
    history = challenge_history(str(tsv_out), ["first"])
    assert history == ["second"]
    write_challenges({"st+first": ["first"]},
                     {"st+first": first, "st+second": second}, html_out, tsv_out,
                     history=history)
    again = pd.read_csv(tsv_out, sep="\t")["challenge"].tolist()
    assert again == ["first", "second"]
    # same inputs, same bytes
    before = html_out.read_bytes()
    write_challenges({"st+first": ["first"]},
                     {"st+first": first, "st+second": second}, html_out, tsv_out,
                     history=history)
    assert html_out.read_bytes() == before


def test_plan_names_the_challengers_and_the_papers_datasets():
    from mlfsbench.workflow.plan import Plan
    from mlfsbench.workflow.studies import resolve_extends

    paper = [f"d{i}" for i in range(1, 9)]
    study = {"datasets": paper, "selectors": [{"name": "mim-br"}],
             "classifiers": [{"name": "mlknn"}]}
    config = {"experiments": {"st": study, "st+mine": {
        "extends": "st", "datasets": ["d2", "d5"],
        "selectors": [{"name": "ig-br", "label": "Mine",
                       "discretize": {"strategy": "none"}}]}}}
    resolve_extends(config)
    plan = Plan(config, {}, {})
    assert plan.paper_datasets_of("st+mine") == paper
    assert plan.paper_datasets_of("st") == paper
    (ident, entry), = plan.challenger_entries_of("st+mine").items()
    assert entry["name"] == "ig-br" and entry["label"] == "Mine"
    assert entry["params"] == {} and entry["cache_ids"][0].startswith("ig-br")
    assert [challenge_id(e, plan.challengers(e)) for e in plan.challenged] == ["mine"]
