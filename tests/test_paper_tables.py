"""The papers' tables regenerated (report.paper_tables)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mlfsbench.evaluation.printed import load_printed
from mlfsbench.report.compare import write_comparison
from mlfsbench.report.paper_tables import (
    TSV_COLUMNS,
    anchor,
    format_sd,
    html_fragment,
    match_printed,
    paper_table,
    to_latex,
    to_markdown,
    write_paper_table,
)

from .conftest import REPO_ROOT

# Hamming loss at K = 50 of three methods on three datasets: lee2016 best on
# a and c, ties with mlnb on b after rounding to three decimals
MEANS = {"a": (0.0091, 0.0120, 0.0130), "b": (0.2090, 0.2094, 0.2200),
         "c": (0.0550, 0.0600, 0.0580)}
METHODS = ("lee2016", "mlnb", "mdmr")


def lee_summary() -> pd.DataFrame:
    rows = []
    for d, means in MEANS.items():
        for m, value in zip(METHODS, means, strict=True):
            rows.append((d, "cv", m, "br-lr", "50", "hamming_loss", value, 0.002, 10))
            rows.append((d, "cv", m, "br-lr", "10", "hamming_loss", value + 0.1,
                         0.002, 10))
            rows.append((d, "cv", m, "br-lr", "all", "hamming_loss", 0.5, 0.01, 10))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean", "std",
                                       "folds"])


def test_best_is_the_rounded_minimum_and_ties_are_all_bold():
    t = paper_table(lee_summary(), "hamming_loss", 50, order=METHODS)
    assert t.methods == [*METHODS, "all-features"]
    best = t.best()
    assert best.loc["a"].tolist() == [True, False, False, False]
    assert best.loc["b"].tolist() == [True, True, False, False]  # 0.209 = 0.209
    assert t.mean.at["c", "mdmr"] == pytest.approx(0.058)


def test_methods_outside_the_order_follow_in_natural_order():
    frame = lee_summary()
    frame["selector"] = frame["selector"].map(
        {"lee2016": "p10", "mlnb": "p5", "mdmr": "p20"})
    t = paper_table(frame, "hamming_loss", 50)
    assert t.methods == ["p5", "p10", "p20", "all-features"]
    t = paper_table(frame, "hamming_loss", 50, order=["p20"])
    assert t.methods == ["p20", "p5", "p10", "all-features"]


def test_average_over_the_grid():
    t = paper_table(lee_summary(), "hamming_loss", "mean")
    assert t.mean.at["a", "lee2016"] == pytest.approx(0.0091 + 0.05)
    assert t.mean.at["a", "all-features"] == pytest.approx(0.5)


def test_control_marks_and_wins_ties_losses(tmp_path):
    path = tmp_path / "summary.tsv"
    lee_summary().to_csv(path, sep="\t", index=False)
    stats = write_comparison(path, "hamming_loss", tmp_path / "s.json",
                             tmp_path / "cd.png", n_features=50, control="lee2016")
    t = paper_table(lee_summary(), "hamming_loss", 50, stats=stats,
                    labels={"lee2016": "Proposed"}, order=METHODS)
    assert t.control == "lee2016"
    assert t.wins_ties_losses() == {"mlnb": (2, 1, 0), "mdmr": (3, 0, 0),
                                    "all-features": (3, 0, 0)}
    md = to_markdown(t)
    assert "| dataset | Proposed (control) | mlnb | mdmr | all-features |" in md
    assert "| a | **0.009 ± 0.002** | 0.012 ± 0.002 |" in md
    assert "| W/T/L |  | 2/1/0 | 3/0/0 | 3/0/0 |" in md
    significant = set(stats["bonferroni_dunn"]["significant"])
    assert ("all-features" in significant) == ("*" in md.split("average rank")[1]
                                               .split("\n")[0])
    tex = to_latex(t)
    assert r"\textbf{0.009 $\pm$ 0.002}" in tex and r"\begin{tabular}{lrrrr}" in tex


def test_written_files_and_html_anchors(tmp_path):
    path = tmp_path / "summary.tsv"
    lee_summary().to_csv(path, sep="\t", index=False)
    write_comparison(path, "hamming_loss", tmp_path / "s.json", tmp_path / "cd.png",
                     n_features=50, control="lee2016")
    outs = {k: tmp_path / f"t.{k}" for k in ("tsv", "md", "tex", "html")}
    write_paper_table(path, tmp_path / "s.json", "hamming_loss", "lee2016", outs,
                      n_features=50, order=METHODS)
    tsv = pd.read_csv(outs["tsv"], sep="\t")
    assert tsv.columns.tolist() == TSV_COLUMNS
    assert tsv["method"].tolist()[:4] == [*METHODS, "all-features"]
    first = tsv.iloc[0]
    assert (first["dataset"], first["method"]) == ("a", "lee2016")
    assert first["mean"] == pytest.approx(0.0091) and first["sd"] == 0.002
    assert (first["n"], first["best"], first["control"]) == (10, 1, 1)
    assert tsv["printed"].isna().all()  # no printed file: nothing beside ours
    assert "**" not in outs["tsv"].read_text()
    page = outs["html"].read_text()
    assert f"<tr id='{anchor('lee2016', 'hamming_loss', 'b')}'>" in page
    # the row's cells have ids too (a claim's link marks its cell)
    cell = anchor("lee2016", "hamming_loss", "b", METHODS[0])
    assert cell == f"pt-lee2016-hamming_loss-b--{METHODS[0]}"
    assert (f"<td id='{cell}'><b>0.209 ± 0.002</b></td><td id='"
            f"{anchor('lee2016', 'hamming_loss', 'b', METHODS[1])}'><b>0.209 ± "
            "0.002</b></td>") in page
    assert html_fragment(page).startswith("<div class='scroll'><table class='paper'")
    assert json.loads((tmp_path / "s.json").read_text())["n_features"] == 50


# ------------------------------------------------- beside the printed tables
LEE = REPO_ROOT / "config" / "papers" / "lee2016.printed.yaml"
T = 2.2621571627409915  # t(0.975, 9): the 95 % interval of a mean of 10 folds


def lee_at_50(cells) -> pd.DataFrame:
    """A summary at K = 50 (and 10, for the grid) of hand-made means:
    ``{(dataset, method): (mean, sd, folds)}``."""
    rows = []
    for (d, m), (mean, sd, n) in cells.items():
        k = "all" if m == "all-features" else "50"
        sel = "br-or" if m == "all-features" else m
        rows.append((d, "ho80", sel, "br-lr", k, "hamming_loss", mean, sd, n))
        if k == "50":
            rows.append((d, "ho80", sel, "br-lr", "10", "hamming_loss", mean + 0.1,
                         sd, n))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean", "std",
                                       "folds"])


# Table 5 prints genbase: BR + OR 0.002, Proposed 0.001; yeast: Proposed 0.209,
# BR + OR 0.211, MFS 0.211, Baseline 0.216. emotions is not in the paper;
# "x" is a method of ours the paper does not print.
LEE_CELLS = {
    ("yeast", "lee2016"): (0.2104, 0.0022, 10),  # 0.0014 <= T*0.0022/sqrt(10)
    ("yeast", "br-or"): (0.2126, 0.0020, 10),  # 0.0016 > T*0.0020/sqrt(10)
    ("yeast", "mfs"): (0.2114, 0.0001, 10),  # 0.0004 <= half a unit, 0.0005
    ("yeast", "x"): (0.2000, 0.0040, 10),
    ("yeast", "all-features"): (0.2160, 0.0030, 1),  # one fold: no s.d.
    ("genbase", "lee2016"): (0.0011, 0.0004, 10),
    ("genbase", "br-or"): (0.0280, 0.0040, 10),  # .028 here vs .002 printed
    ("genbase", "mfs"): (0.0012, 0.0003, 10),
    ("genbase", "x"): (0.0010, 0.0004, 10),
    ("genbase", "all-features"): (0.0010, 0.0003, 10),
    ("emotions", "lee2016"): (0.2000, 0.0100, 10),
}


def test_tolerance_and_the_beyond_mark_by_hand():
    t = paper_table(lee_at_50(LEE_CELLS), "hamming_loss", 50,
                    printed=load_printed(LEE), order=["x", "mfs", "br-or", "lee2016"])
    assert t.printed.id == "Table 5" and t.decimals == 3
    tol, beyond, delta = t.tolerance(), t.beyond(), t.delta()
    assert tol.at["yeast", "lee2016"] == pytest.approx(T * 0.0022 / 10 ** 0.5)
    assert tol.at["yeast", "br-or"] == pytest.approx(T * 0.0020 / 10 ** 0.5)
    assert tol.at["yeast", "mfs"] == pytest.approx(0.0005)  # the printed rounding
    assert tol.at["yeast", "all-features"] == pytest.approx(0.0005)  # n = 1
    assert delta.at["yeast", "lee2016"] == pytest.approx(0.0014)
    assert delta.at["genbase", "br-or"] == pytest.approx(0.026)
    assert beyond.loc["yeast"].to_dict() == {
        "all-features": False, "lee2016": False, "br-or": True, "mfs": False,
        "x": False}
    assert beyond.loc["genbase", "br-or"] and not beyond.loc["genbase", "lee2016"]
    assert not beyond.loc["emotions"].any()  # nothing printed to compare with


def test_paper_names_order_and_printed_cells_beside_ours():
    t = paper_table(lee_at_50(LEE_CELLS), "hamming_loss", 50,
                    printed=load_printed(LEE), order=["x", "mfs", "br-or", "lee2016"])
    # the paper's columns in its order (Baseline first), then ours only
    assert t.methods == ["all-features", "lee2016", "br-or", "mfs", "x"]
    assert t.datasets == ["genbase", "yeast", "emotions"]  # the paper's rows first
    md = to_markdown(t)
    assert ("| dataset | Baseline | Proposed | BR + OR | MFS | x (ours only) |"
            in md)
    yeast = next(line for line in md.splitlines() if line.startswith("| Yeast |"))
    assert yeast.split(" | ")[1:] == [
        "0.216 (paper 0.216)",  # one fold: no ±
        "0.210 ± 0.002 (paper 0.209)",  # within its interval
        "0.213 ± 0.002 (paper 0.211)†",  # beyond it
        "0.211 ± 0.0001 (paper 0.211)",  # s.d. 0.0001 prints to one digit
        "**0.200 ± 0.004** |"]
    assert "| Genbase | " in md and "0.028 ± 0.004 (paper 0.002)†" in md
    assert "| emotions |  | **0.200 ± 0.010** |  |  |  |" in md  # ours alone
    cap = md.splitlines()[0]
    assert "lee2016 Table 5" in cap and "half a unit of the last printed digit" in cap
    assert "(0.0005)" in cap
    assert ("the paper's BR + CC, ELA + CHI, FIMF, Bibtex, Corel5K, Delicious, "
            "Enron, LLog, Slashdot: not run here") in cap
    tex = to_latex(t)
    assert r"0.028 $\pm$ 0.004 (paper 0.002)$^\dagger$" in tex


def test_tsv_is_numbers_beside_the_printed_value(tmp_path):
    path = tmp_path / "summary.tsv"
    lee_at_50(LEE_CELLS).to_csv(path, sep="\t", index=False)
    outs = {k: tmp_path / f"t.{k}" for k in ("tsv", "md", "tex", "html")}
    write_paper_table(path, None, "hamming_loss", "lee2016", outs, n_features=50,
                      printed=LEE)
    tsv = pd.read_csv(outs["tsv"], sep="\t")
    for column in ("mean", "sd", "n", "printed", "delta", "tolerance", "beyond",
                   "best", "in_paper"):
        assert pd.api.types.is_numeric_dtype(tsv[column]), column
    row = tsv.set_index(["dataset", "method"]).loc[("genbase", "br-or")]
    assert (row["dataset_label"], row["method_label"]) == ("Genbase", "BR + OR")
    assert row["printed"] == pytest.approx(0.002)
    assert row["delta"] == pytest.approx(0.026)
    assert row["tolerance"] == pytest.approx(T * 0.004 / 10 ** 0.5, rel=1e-6)
    assert (row["beyond"], row["in_paper"]) == (1, 1)
    x = tsv.set_index(["dataset", "method"]).loc[("yeast", "x")]
    assert pd.isna(x["printed"]) and pd.isna(x["beyond"]) and x["in_paper"] == 0
    assert "±" not in outs["tsv"].read_text() and "**" not in outs["tsv"].read_text()
    page = outs["html"].read_text()
    row_id = anchor("lee2016", "hamming_loss", "genbase")
    assert f"<tr id='{row_id}'><th>Genbase" in page


def test_unmatched_printed_tables_and_captions():
    lee = load_printed(LEE)
    # the |Y| sweep's methods are not Table 5's: no match, a note says why
    found, notes = match_printed(lee, "hamming_loss", 50, ["y10", "all-features"])
    assert found is None and notes == [
        "The paper's Table 5 prints none of this experiment's methods: not "
        "compared here."]
    found, notes = match_printed(lee, "hamming_loss", 10, ["lee2016"])
    assert found is None and "Table 5 is at K = 50" in notes[0]
    sechidis = load_printed(LEE.parent / "sechidis2019.printed.yaml")
    found, notes = match_printed(sechidis, "hamming_loss", "mean-rank",
                                 ["single-jmi"])
    assert found is None and "Table 2a prints ranks" in notes[0]
    # averaged over the grid, no printed table: the caption says what it is
    t = paper_table(lee_at_50(LEE_CELLS), "hamming_loss", "mean", printed=lee)
    cap = t.caption()
    assert "mean over the K of the grid 10..50 (2 values)" in cap
    assert "No table the paper prints has this measure at this K" in cap
    assert t.methods[-1] == "all-features"  # our order without a match


def test_sd_display():
    assert format_sd(0.0052, 10, 3) == "0.005"
    assert format_sd(0.00031, 10, 3) == "0.0003"  # would print 0.000
    assert format_sd(0.0000042, 10, 3) == "0.000004"
    assert format_sd(0.0, 10, 3) == "0"
    assert format_sd(0.0, 1, 3) == ""  # a single fold has no s.d.
    assert format_sd(0.0004, 10, 2) == "0.0004"


def test_printed_names_find_our_hashed_ids():
    """Spolaôr 2013's printed file names the methods by registry name
    (ig-br), the result tables by id (ig-br-72bc78c7); Table 4 (Hamming loss
    at the selected features) kept no cell, only its names and order."""
    ids = {"rf-lp": "rf-lp-5aa341b8", "ig-br": "ig-br-72bc78c7",
           "ig-lp": "ig-lp-72bc78c7"}
    rows = [("enron", "cv10", ident, "brknn-b", k, "hamming_loss", 0.05, 0.003, 10)
            for ident in ids.values() for k in ("selected", "all")]
    summary = pd.DataFrame(rows, columns=["dataset", "split", "selector",
                                          "classifier", "n_features", "metric",
                                          "mean", "std", "folds"])
    spolaor = load_printed(LEE.parent / "spolaor2013.printed.yaml")
    t = paper_table(summary, "hamming_loss", "selected", printed=spolaor,
                    aliases=ids, order=list(ids.values()))
    assert t.printed.id == "Table 4"
    assert t.methods == ["all-features", "ig-br-72bc78c7", "ig-lp-72bc78c7",
                         "rf-lp-5aa341b8"]
    head = to_markdown(t).splitlines()[2]
    assert head == "| dataset | Baseline | IG-BR | IG-LP | RF-LP |"
    assert "survives only in part" in t.caption()
    assert not t.beyond().any().any() and t.printed_values().isna().all().all()
    # without the aliases the printed names match none of ours
    assert paper_table(summary, "hamming_loss", "selected",
                       printed=spolaor).printed is None


def test_datasets_named_like_missing_values_keep_their_rows(tmp_path):
    # issue 38, W6: pandas reads NA, None, null and nan as missing by default
    frame = lee_summary()
    frame["dataset"] = frame["dataset"].map({"a": "NA", "b": "None", "c": "null"})
    path = tmp_path / "summary.tsv"
    frame.to_csv(path, sep="\t", index=False)
    outs = {k: tmp_path / f"t.{k}" for k in ("tsv", "md", "tex", "html")}
    table = write_paper_table(path, None, "hamming_loss", "x", outs, n_features=50,
                              order=METHODS)
    assert list(table.mean.index) == ["NA", "None", "null"]
    tsv = pd.read_csv(outs["tsv"], sep="\t", keep_default_na=False)
    assert sorted(set(tsv["dataset"])) == ["NA", "None", "null"]
    assert "| NA | " in outs["md"].read_text()
