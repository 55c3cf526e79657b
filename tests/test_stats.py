"""Friedman / Iman-Davenport, Nemenyi, Bonferroni-Dunn, Wilcoxon-Holm, CD diagrams."""

from __future__ import annotations

import io
import itertools
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from mlfsbench.evaluation.stats import (
    average_ranks,
    bonferroni_dunn_pvalues,
    bonferroni_dunn_q,
    cliques,
    compare_methods,
    critical_difference,
    friedman_test,
    holm_adjust,
    iman_davenport,
    min_datasets,
    nemenyi_pvalues,
    nemenyi_q,
    rank_table,
    wilcoxon_holm,
)
from mlfsbench.report.cd_diagram import critical_difference_diagram

PAPERS = Path(__file__).resolve().parents[1] / "../shared/papers"


@pytest.fixture
def continuous():
    """12 datasets x 5 methods, no ties, method means increasing."""
    rng = np.random.RandomState(0)
    values = rng.uniform(size=(12, 5)) + np.arange(5) * 0.1
    return pd.DataFrame(values, columns=list("abcde"),
                        index=[f"d{i}" for i in range(12)])


@pytest.fixture
def tied():
    """Scores rounded to one decimal: many ties within datasets."""
    rng = np.random.RandomState(5)
    return np.round(rng.uniform(size=(10, 4)) + [0.0, 0.1, 0.2, 0.3], 1)


# --------------------------------------------------------------------------
# Ranks and Friedman
# --------------------------------------------------------------------------
def test_ranks_direction_and_ties():
    t = [[0.2, 0.1, 0.2, 0.4]]
    assert rank_table(t).tolist() == [[2.5, 1.0, 2.5, 4.0]]
    assert rank_table(t, higher_is_better=True).tolist() == [[2.5, 4.0, 2.5, 1.0]]
    assert average_ranks([[1, 2], [2, 1], [1, 2]]).tolist() == [4 / 3, 5 / 3]


def test_friedman_matches_scipy_without_ties(continuous):
    res = friedman_test(continuous)
    ref = ss.friedmanchisquare(*continuous.to_numpy().T)
    assert res.chi2 == pytest.approx(ref.statistic, rel=1e-12)
    assert res.p_value == pytest.approx(ref.pvalue, rel=1e-10)
    # direction does not change the statistic, only the ranks
    flipped = friedman_test(continuous, higher_is_better=True)
    assert flipped.chi2 == pytest.approx(res.chi2)
    np.testing.assert_allclose(flipped.average_ranks, 6 - res.average_ranks)


def test_friedman_with_ties_demsar_vs_scipy(tied):
    assert (np.diff(np.sort(tied, axis=1), axis=1) == 0).any()  # ties exist
    ref = ss.friedmanchisquare(*tied.T)
    corrected = friedman_test(tied, tie_correction=True)
    plain = friedman_test(tied)
    assert corrected.chi2 == pytest.approx(ref.statistic, rel=1e-12)
    assert corrected.p_value == pytest.approx(ref.pvalue, rel=1e-10)
    # Demšar / Lee & Kim: the formula with average ranks, no correction
    N, k = tied.shape
    R = ss.rankdata(tied, axis=1).mean(axis=0)
    expected = 12 * N / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4)
    assert plain.chi2 == pytest.approx(expected)
    assert plain.chi2 < corrected.chi2


def test_friedman_hand_example():
    # ranks (1,2,3), (1,3,2), (1,2,3), (2,1,3): R = 1.25, 2, 2.75
    res = friedman_test([[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]])
    assert res.chi2 == pytest.approx(4.5)
    assert res.f_statistic == pytest.approx(3 * 4.5 / (4 * 2 - 4.5))
    assert (res.df1, res.df2) == (2, 6)
    assert res.f_p_value == pytest.approx(ss.f.sf(3 * 4.5 / 3.5, 2, 6))
    assert res.f_critical == pytest.approx(ss.f.ppf(0.95, 2, 6))
    assert res.rejected is False


def test_iman_davenport_critical_value_lee2016_table7():
    # k = 7 methods, N = 8 datasets, alpha = 0.05: critical value 2.324
    _, _, crit = iman_davenport(10.0, 8, 7, 0.05)
    assert crit == pytest.approx(2.324, abs=5e-4)


def test_iman_davenport_perfect_agreement_is_infinite():
    res = friedman_test([[1, 2, 3]] * 5)
    assert res.chi2 == pytest.approx(10.0)  # N (k - 1)
    assert res.f_statistic == np.inf and res.f_p_value == 0.0 and res.rejected


def test_lee2016_tables_5_6_recomputed():
    """Friedman on Lee & Kim's printed (3-decimal) Tables 5 and 6.

    The paper's Table 7 gives F_F = 5.506 (Hamming) and 4.868 (ranking loss),
    computed from unrounded results; the printed values create ties the
    original numbers did not have, so the recomputation differs (5.735 and
    4.378), while both exceed the same critical value 2.324.
    """
    path = PAPERS / "lee2016_entropy_label_selection.txt"
    if not path.is_file():
        pytest.skip("papers folder not available")
    text = path.read_text(encoding="utf-8")
    found = []
    for caption in ("Table 5. Hamming", "Table 6. Ranking"):
        lines = text[text.rindex(caption):].splitlines()[:12]
        rows = [line for line in lines if re.match(r"^[A-Z][A-Za-z0-9]+0\.", line)]
        found.append(np.array([[float(v) for v in re.findall(r"\d\.\d{3}", r)]
                               for r in rows[:8]]))
    hamming, ranking = found
    assert hamming.shape == ranking.shape == (8, 7)
    assert hamming[7].tolist() == [0.216, 0.209, 0.211, 0.211, 0.211, 0.211, 0.211]
    h, r = friedman_test(hamming), friedman_test(ranking)
    assert h.f_statistic == pytest.approx(5.735, abs=1e-3)
    assert r.f_statistic == pytest.approx(4.378, abs=1e-3)
    assert h.f_critical == pytest.approx(2.324, abs=5e-4)
    assert h.rejected and r.rejected
    # the proposed method (column 1) has the best average rank on both
    assert np.argmin(h.average_ranks) == 1 and np.argmin(r.average_ranks) == 1


# --------------------------------------------------------------------------
# Critical differences
# --------------------------------------------------------------------------
# Demšar (2006), Table 5: k = 2..10
DEMSAR_NEMENYI = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}
DEMSAR_BONFERRONI_DUNN = {
    0.05: {2: 1.960, 3: 2.241, 4: 2.394, 5: 2.498, 6: 2.576, 7: 2.638, 8: 2.690,
           10: 2.773},
    0.10: {2: 1.645, 3: 1.960, 4: 2.128, 5: 2.241, 6: 2.326, 7: 2.394, 8: 2.450,
           9: 2.498, 10: 2.539},
}


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_q_values_match_demsar_table5(alpha):
    for k, q in zip(range(2, 11), DEMSAR_NEMENYI[alpha], strict=True):
        assert nemenyi_q(k, alpha) == pytest.approx(q, abs=2e-3), k
    for k, q in DEMSAR_BONFERRONI_DUNN[alpha].items():
        assert bonferroni_dunn_q(k, alpha) == pytest.approx(q, abs=1e-3), k
    # the analytic formula for any k, beyond the table
    assert bonferroni_dunn_q(25, alpha) == pytest.approx(ss.norm.isf(alpha / 48))


def test_bonferroni_dunn_cd_lee2016():
    # k = 7, N = 8, alpha = 0.05: q = 2.638, CD = 2.849 (Lee & Kim, Sec. 4.3)
    assert bonferroni_dunn_q(7) == pytest.approx(2.638, abs=5e-4)
    cd = critical_difference(7, 8, 0.05, "bonferroni-dunn")
    assert cd == pytest.approx(2.849, abs=1e-3)
    assert cd == pytest.approx(bonferroni_dunn_q(7) * np.sqrt(7 * 8 / 48))


def test_nemenyi_cd_matches_autorank(continuous):
    from autorank import autorank

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = autorank(continuous, alpha=0.05, verbose=False,
                          force_mode="nonparametric")
    assert result.omnibus == "friedman"
    cd = critical_difference(5, 12, 0.05)
    assert cd == pytest.approx(result.cd, rel=1e-4)  # autorank: qsturng approx.
    ours = pd.Series(average_ranks(continuous, higher_is_better=True),
                     index=continuous.columns)
    pd.testing.assert_series_equal(ours.sort_index(),
                                   result.rankdf["meanrank"].sort_index(),
                                   check_names=False)
    assert friedman_test(continuous).p_value == pytest.approx(result.pvalue)


def test_cd_for_many_methods():
    # no table reaches k = 30: the analytic CD still exists and grows with k
    cds = [critical_difference(k, 20) for k in (10, 20, 30)]
    assert cds[0] < cds[1] < cds[2]
    assert critical_difference(30, 20) == pytest.approx(
        ss.studentized_range.ppf(0.95, 30, np.inf) / np.sqrt(2)
        * np.sqrt(30 * 31 / 120)
    )
    with pytest.raises(ValueError, match="test"):
        critical_difference(3, 5, test="tukey")


# --------------------------------------------------------------------------
# Post-hoc p-values
# --------------------------------------------------------------------------
def test_nemenyi_pvalues_match_scikit_posthocs(continuous, tied):
    import scikit_posthocs as sph

    for table in (continuous.to_numpy(), tied):
        ref = sph.posthoc_nemenyi_friedman(table).to_numpy()
        ours = nemenyi_pvalues(average_ranks(table), table.shape[0])
        np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-12)


def test_nemenyi_significance_agrees_with_cd(continuous):
    R = average_ranks(continuous)
    p = nemenyi_pvalues(R, 12)
    cd = critical_difference(5, 12)
    diff = np.abs(R[:, None] - R[None, :])
    np.testing.assert_array_equal(p <= 0.05, diff >= cd)


def test_bonferroni_dunn_pvalues():
    R = np.array([1.5, 2.5, 4.0, 4.0, 3.0])
    N, k = 10, 5
    p = bonferroni_dunn_pvalues(R, N, control=0)
    se = np.sqrt(k * (k + 1) / (6 * N))
    assert p[0] == 1.0
    assert p[1] == pytest.approx(min(1, 4 * 2 * ss.norm.sf(1.0 / se)))
    cd = critical_difference(k, N, test="bonferroni-dunn")
    np.testing.assert_array_equal((p <= 0.05)[1:], (np.abs(R - R[0]) >= cd)[1:])


def test_holm_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.RandomState(1)
    p = rng.uniform(0, 0.1, size=12)
    p[3] = p[7]  # a tie
    ref = multipletests(p, method="holm")[1]
    np.testing.assert_allclose(holm_adjust(p), ref)


def test_wilcoxon_holm_matches_pairwise_scipy(continuous):
    table = continuous.to_numpy()
    out = wilcoxon_holm(table)
    pairs = list(itertools.combinations(range(5), 2))
    assert out["pairs"].tolist() == [list(pr) for pr in pairs]
    raw = [ss.wilcoxon(table[:, i], table[:, j], zero_method="zsplit").pvalue
           for i, j in pairs]
    np.testing.assert_allclose(out["p_value"], raw)
    np.testing.assert_allclose(out["p_holm"], holm_adjust(raw))
    control = wilcoxon_holm(table, control=2)
    assert control["pairs"].tolist() == [[2, 0], [2, 1], [2, 3], [2, 4]]
    assert len(control["p_holm"]) == 4


def test_wilcoxon_identical_methods_have_p_one():
    t = np.column_stack([np.arange(6.0), np.arange(6.0), np.arange(6.0) * 2 + 1])
    out = wilcoxon_holm(t)
    assert out["p_value"][0] == 1.0
    assert out["p_value"][1] == pytest.approx(0.03125)  # 6 of 6 one way, exact


# --------------------------------------------------------------------------
# Cliques and the full comparison
# --------------------------------------------------------------------------
def test_cliques():
    assert cliques([1.0, 2.0, 3.0, 4.0], 1.5) == [[0, 1], [1, 2], [2, 3]]
    assert cliques([1.0, 2.0, 3.0, 4.0], 5.0) == [[0, 1, 2, 3]]
    assert cliques([1.0, 2.0, 3.0, 4.0], 0.5) == []
    # unsorted input, indices refer to the input order
    assert cliques([3.9, 1.0, 1.2, 3.5], 1.0) == [[1, 2], [3, 0]]


def test_compare_methods(continuous):
    out = compare_methods(continuous, higher_is_better=True, control="e")
    assert out["methods"] == list("abcde")
    assert out["average_ranks"]["e"] == pytest.approx(
        float(average_ranks(continuous, higher_is_better=True)[4]))
    fr = friedman_test(continuous, higher_is_better=True)
    assert out["friedman"]["chi2"] == pytest.approx(fr.chi2)
    assert out["iman_davenport"]["F"] == pytest.approx(fr.f_statistic)
    assert out["nemenyi"]["cd"] == pytest.approx(critical_difference(5, 12))
    R = out["average_ranks"]
    for a, b in out["nemenyi"]["significant_pairs"]:
        assert abs(R[a] - R[b]) >= out["nemenyi"]["cd"]
    bd = out["bonferroni_dunn"]
    assert set(bd["p_values"]) == set("abcd")
    assert bd["significant"] == [m for m in "abcd"
                                 if abs(R[m] - R["e"]) >= bd["cd"]]
    assert len(out["wilcoxon_holm"]) == 4
    with pytest.raises(ValueError, match="control"):
        compare_methods(continuous, control="zzz")


def test_table_validation():
    with pytest.raises(ValueError, match="missing"):
        friedman_test([[1.0, np.nan], [1.0, 2.0]])
    with pytest.raises(ValueError, match="at least 2"):
        friedman_test([[1.0, 2.0]])
    with pytest.raises(ValueError, match="numbers"):
        friedman_test(pd.DataFrame({"a": ["x", "y"], "b": [1, 2]}))


# --------------------------------------------------------------------------
# Critical-difference diagram
# --------------------------------------------------------------------------
def _render(fig, dpi=100):
    import matplotlib.image as mpimg

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    assert buf.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"
    buf.seek(0)
    return mpimg.imread(buf, format="png")


@pytest.mark.parametrize("control", [None, "ELS"])
def test_cd_diagram_renders_png(control):
    ranks = {"Baseline": 6.56, "ELS": 1.88, "BR+CC": 3.75, "BR+OR": 4.38,
             "ELA+CHI": 4.06, "FIMF": 2.94, "MFS": 4.44}
    fig = critical_difference_diagram(ranks, 2.849, control=control,
                                      title="Hamming loss")
    w, h = fig.get_size_inches()
    img = _render(fig)
    assert img.shape[:2] == (round(h * 100), 600)
    ink = img[..., :3].mean(axis=2) < 0.5
    assert 0.005 < ink.mean() < 0.5  # drawn, not blank, not filled
    # names on both sides of the axis, the axis line across the middle
    assert ink[:, :150].any() and ink[:, -150:].any()
    rows_with_line = ink[:, 160:440].mean(axis=1)
    assert rows_with_line.max() > 0.95


def test_cd_diagram_bars_follow_cliques():
    # two groups far apart: exactly two thick bars for cliques
    fig = critical_difference_diagram([1.0, 1.3, 4.7, 5.0, 3.0], 0.5,
                                      names=list("abcde"))
    thick = [line for line in fig.axes[0].lines if line.get_linewidth() == 3.0]
    assert len(thick) == len(cliques([1.0, 1.3, 4.7, 5.0, 3.0], 0.5)) == 2
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "a (1.00)" in texts and "CD = 0.5" in texts


def test_cd_diagram_reverse_puts_best_on_the_right():
    fig = critical_difference_diagram({"best": 1.0, "worst": 3.0, "mid": 2.0}, None)
    pos = {t.get_text().split()[0]: t.get_position()[0] for t in fig.axes[0].texts
           if "(" in t.get_text()}
    assert pos["best"] > pos["worst"]
    fig = critical_difference_diagram({"best": 1.0, "worst": 3.0, "mid": 2.0}, None,
                                      reverse=False)
    pos = {t.get_text().split()[0]: t.get_position()[0] for t in fig.axes[0].texts
           if "(" in t.get_text()}
    assert pos["best"] < pos["worst"]


def _cd_texts(fig):
    return [t.get_text() for t in fig.axes[0].texts]


def test_cd_diagram_says_when_too_few_datasets_can_show_nothing():
    """Doquire's pruning study: k = 13 methods on N = 2 datasets, Nemenyi CD
    12.9 against an axis of 12 ranks; k = 6 on 10 datasets: CD 2.38."""
    ranks = {f"p{i}": float(i) for i in range(1, 13)} | {"all": 1.5}
    cd = critical_difference(13, 2)
    assert round(cd, 3) == 12.901
    assert min_datasets(13) == 3 and critical_difference(13, 3) < 12
    fig = critical_difference_diagram(ranks, cd, n_datasets=2, alpha=0.05)
    texts = _cd_texts(fig)
    note = [t for t in texts if t.startswith("N = 2 datasets")]
    assert note == ["N = 2 datasets: no difference can be significant at α = 0.05"
                    "\n(CD 12.9 > 12, the widest rank gap; N ≥ 3 needed)"]
    # the CD interval stops at the axis' end (an arrow), its value written
    assert "CD = 12.9 (wider than the axis, 12 ranks)" in texts
    ends = [x for line in fig.axes[0].lines for x in line.get_xdata()]
    assert max(ends) <= fig.get_size_inches()[0]
    arrow = [p for p in fig.axes[0].patches] + [
        t for t in fig.axes[0].texts if getattr(t, "arrow_patch", None)]
    assert arrow  # the annotation's arrow
    # k = 6, N = 10: CD 2.38 < 5, nothing to say
    six = {f"m{i}": 1.0 + i * 0.5 for i in range(6)}
    cd6 = critical_difference(6, 10)
    assert round(cd6, 2) == 2.38 and min_datasets(6) == 3
    fig = critical_difference_diagram(six, cd6, n_datasets=10, alpha=0.05)
    assert not [t for t in _cd_texts(fig) if "no difference" in t]
    assert f"CD = {cd6:.3g}" in _cd_texts(fig)
    # k = 6, N = 2: CD 5.33 > 5
    fig = critical_difference_diagram(six, critical_difference(6, 2),
                                      n_datasets=2, alpha=0.05)
    assert [t for t in _cd_texts(fig) if t.startswith("N = 2 datasets: no differ")]


def test_cd_diagram_validation():
    with pytest.raises(ValueError, match="cd"):
        critical_difference_diagram([1.0, 2.0], -1.0)
    with pytest.raises(ValueError, match="names"):
        critical_difference_diagram([1.0, 2.0], 1.0, names=["a"])


# Rounding to the printed decimals: a and b differ only in the 4th decimal on
# every dataset. Unrounded ranks (lower is better):
#   d1: a 1, b 2, c 3;  d2: c 1, b 2, a 3;  d3: b 1, a 2, c 3
#   -> a 6/3 = 2, b 5/3, c 7/3.
# At 3 decimals a and b print equal on every dataset and share their ranks:
#   d1: 1.5 1.5 3;  d2: 2.5 2.5 1;  d3: 1.5 1.5 3  -> a = b = 5.5/3, c 7/3.
ROUNDING_TABLE = pd.DataFrame(
    {"a": [0.1101, 0.3004, 0.0504], "b": [0.1104, 0.3001, 0.0496],
     "c": [0.2000, 0.1000, 0.0600]},
    index=["d1", "d2", "d3"],
)


def test_rounding_as_printed_creates_ties_and_changes_ranks():
    from mlfsbench.evaluation.stats import round_table

    plain = compare_methods(ROUNDING_TABLE)
    assert plain["average_ranks"] == pytest.approx({"a": 2.0, "b": 5 / 3, "c": 7 / 3})
    assert plain["decimals"] is None
    printed = compare_methods(ROUNDING_TABLE, decimals=3)
    assert printed["average_ranks"] == pytest.approx(
        {"a": 5.5 / 3, "b": 5.5 / 3, "c": 7 / 3})
    assert printed["decimals"] == 3
    # half away from zero on the decimal representation (0.0625 -> 0.063)
    assert round_table([0.0625, 0.0635, 0.06349], 3).tolist() == [0.063, 0.064, 0.063]
    with pytest.raises(ValueError, match="decimals"):
        round_table([0.1], -1)


def test_the_claims_rank_statistics_leave_out_the_pairwise_tests_only():
    """``compare(pairs=False)`` (the claims' statistics among some methods)
    is the whole comparison without Wilcoxon-Holm, the Bayesian signed-rank
    tests and Cliff's delta: every other number the same, the rounded
    ranks included."""
    import pandas as pd

    from mlfsbench.report.compare import compare

    rng = np.random.default_rng(3)
    summary = pd.DataFrame([
        {"dataset": f"d{i}", "split": "cv", "selector": m, "classifier": "k",
         "n_features": "5", "metric": "micro_f1", "mean": float(v)}
        for m in "abcd" for i, v in enumerate(rng.uniform(0.2, 0.8, 7))])
    whole = compare(summary, "micro_f1", n_features=5, control="a", round=2)
    ranks = compare(summary, "micro_f1", n_features=5, control="a", round=2,
                    pairs=False)
    assert set(whole) - set(ranks) == {"wilcoxon_holm", "pairwise"}
    assert len(whole["wilcoxon_holm"]) == 3 and len(whole["pairwise"]) == 6
    assert ranks == {k: v for k, v in whole.items()
                     if k not in ("wilcoxon_holm", "pairwise")}
    # the rounded tests never kept a Wilcoxon-Holm (it is not computed)
    assert set(whole["rounded"]) == {"decimals", "average_ranks", "friedman",
                                     "iman_davenport", "bonferroni_dunn"}
