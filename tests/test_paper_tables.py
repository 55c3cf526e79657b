"""The papers' tables regenerated (report.paper_tables)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mlfsbench.report.compare import write_comparison
from mlfsbench.report.paper_tables import (
    anchor,
    html_fragment,
    paper_table,
    to_latex,
    to_markdown,
    write_paper_table,
)

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
    tsv = pd.read_csv(outs["tsv"], sep="\t", dtype=str)
    assert tsv.columns.tolist() == ["dataset", "lee2016 (control)", "mlnb", "mdmr",
                                    "all-features"]
    assert tsv.iloc[0, 1] == "**0.009 ± 0.002**"
    page = outs["html"].read_text()
    assert f"<tr id='{anchor('lee2016', 'hamming_loss', 'b')}'>" in page
    assert "<td><b>0.209 ± 0.002</b></td><td><b>0.209 ± 0.002</b></td>" in page
    assert html_fragment(page).startswith("<div class='scroll'><table class='paper'")
    assert json.loads((tmp_path / "s.json").read_text())["n_features"] == 50
