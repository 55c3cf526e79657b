"""The report's opening page and the readable method labels."""

from __future__ import annotations

import html
import json

import matplotlib.image as mpimg
import pandas as pd
import pytest
import yaml
from matplotlib.text import Text

from mlfsbench.report.compare import cd_alt, write_comparison
from mlfsbench.report.headline import headline_plot
from mlfsbench.report.names import display_name
from mlfsbench.report.summary import summary_info, write_summary
from mlfsbench.workflow.ids import method_id, method_labels


def summary_frame() -> pd.DataFrame:
    rows = []
    for d, shift in (("a", 0.0), ("b", 0.01), ("c", 0.02)):
        for sel, value in (("mim-br-68632db6", 0.1), ("pmu", 0.2)):
            for k in ("1", "2", "3"):
                rows.append((d, "cv", sel, "mlknn", k, "hamming_loss",
                             value + shift + 0.01 * int(k), 0.02, 2))
            rows.append((d, "cv", sel, "mlknn", "all", "hamming_loss", 0.15, 0.01,
                         2))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean", "std",
                                       "folds"])


def test_labels_default_to_registry_name_never_a_hash():
    entries = [{"name": "mim-br", "params": {"k": 1}},
               {"name": "granular-mrmr", "params": {"granules": 1}},
               {"name": "granular-mrmr", "params": {"granules": 5}},
               {"name": "pmu", "label": "PMU (Lee & Kim 2013)"}]
    labels = method_labels(entries)
    assert list(labels.values()) == ["mim-br", "granular-mrmr #1", "granular-mrmr #2",
                                     "PMU (Lee & Kim 2013)"]
    assert method_id(entries[0]) in labels and method_id(entries[0]) != "mim-br"
    # a label does not change the identifier (nothing reruns)
    assert method_id({**entries[0], "label": "MIM"}) == method_id(entries[0])
    assert display_name("pmu|brknn-b-45cea770", {"brknn-b-45cea770": "BRkNN-b"}) \
        == "pmu / BRkNN-b"


def test_stats_json_keeps_identifiers_with_labels(tmp_path):
    path = tmp_path / "summary.tsv"
    summary_frame().to_csv(path, sep="\t", index=False)
    res = write_comparison(path, "hamming_loss", tmp_path / "s.json",
                           tmp_path / "cd.png", labels={"mim-br-68632db6": "MIM-BR"})
    saved = json.loads((tmp_path / "s.json").read_text())
    assert set(saved["average_ranks"]) == {"mim-br-68632db6", "pmu", "all-features"}
    assert res["average_ranks"]["mim-br-68632db6"] == 1.0
    assert mpimg.imread(tmp_path / "cd.png").shape[1] > 300


def test_headline_plot_writes_a_figure(tmp_path):
    png = tmp_path / "headline.png"
    headline_plot(summary_frame(), "hamming_loss", png, {"mim-br-68632db6": "MIM-BR"})
    height, width = mpimg.imread(png).shape[:2]
    assert width >= 3 * 4 * 80 - 10 and height > 200  # three panels side by side


def test_summary_page_has_verdicts_datasets_and_figures(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "results" / "x"
    (root / "tables").mkdir(parents=True)
    (root / "plots").mkdir()
    (root / "stats").mkdir()
    pd.DataFrame([{"claim": "t5", "statement": "HL is 0.009", "source": "Table 5",
                   "paper": "0.009 (± 0.003)", "ours": "0.0151 (difference +0.0061)",
                   "verdict": "not reproduced", "note": ""},
                  {"claim": "llog", "statement": "s", "source": "Table 5",
                   "paper": "0.016", "ours": "", "verdict": "not checkable here",
                   "note": "llog: not public"}]).to_csv(
        root / "tables" / "claims.tsv", sep="\t", index=False)
    headline_plot(summary_frame(), "hamming_loss", root / "plots" / "headline.png")
    write_comparison(_summary_file(tmp_path),
                     "hamming_loss", root / "stats" / "hamming_loss.json",
                     root / "stats" / "hamming_loss_cd.png")
    claims = tmp_path / "x.claims.yaml"
    claims.write_text(yaml.safe_dump({
        "study": "x", "paper": "A. Author, Title, 2016.", "experiment": "x",
        "unavailable": {"llog": "not public", "cal500": "not in the table"},
        "claims": [{"id": "llog", "quantity": {"dataset": "llog"}}]}))
    files = ["results/x/tables/claims.tsv", "results/x/plots/headline.png",
             "results/x/stats/hamming_loss_cd.png"]
    info = summary_info({"x": {"datasets": ["a", "b"], "claims": str(claims),
                               "description": "d"}}, files)
    assert info["x"]["unavailable"] == {"llog": "not public"}  # named by a claim
    write_summary(info, tmp_path / "summary.html")
    page = (tmp_path / "summary.html").read_text()
    assert "<table class='claims'>" in page
    assert "0.009 (± 0.003)" in page and "0.0151 (difference +0.0061)" in page
    assert "<tr id='claim-x-t5' class='not-reproduced'" in page
    # the overview: one row per study, its counts and datasets of the paper's
    overview = page[page.index("<table class='overview'>"):]
    overview = overview[:overview.index("</table>")]
    assert "<a href='#summary-x'>x</a>" in overview
    assert "<td class='n not-reproduced'>1</td>" in overview
    assert "<td class='n'>2 of 3</td>" in overview
    assert "<b>Ran on:</b> a, b." in page and "llog (not public)" in page
    assert page.count("src='data:image/png;base64,") == 2
    assert "1 not reproduced, 1 not checkable here" in page
    # a study with verdicts comes before one without
    info["a-first"] = {"datasets": ["a"], "claims": None}
    write_summary({"a-first": info["a-first"], "x": info["x"]},
                  tmp_path / "summary.html")
    page = (tmp_path / "summary.html").read_text()
    assert page.index("id='summary-x'") < page.index("id='summary-a-first'")


def test_u2_one_dataset_says_why_it_has_no_cd_diagram(tmp_path, monkeypatch):
    """Issue 38 U2: a study on one dataset showed grey placeholder pictures
    for its CD diagrams and a headline title cut at both edges."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "results" / "x"
    (root / "plots").mkdir(parents=True)
    (root / "stats").mkdir()
    one = summary_frame()
    one = one[one["dataset"] == "a"]
    one.to_csv(tmp_path / "one.tsv", sep="\t", index=False)
    for metric in ("hamming_loss", "ranking_loss"):
        write_comparison(tmp_path / "one.tsv", "hamming_loss",
                         root / "stats" / f"{metric}.json",
                         root / "stats" / f"{metric}_cd.png")
    fig = headline_plot(one, "hamming_loss", root / "plots" / "headline.png")
    files = ["results/x/plots/headline.png",
             *(f"results/x/stats/{m}{end}" for m in ("hamming_loss", "ranking_loss")
               for end in ("_cd.png", ".json"))]
    info = summary_info({"x": {"datasets": ["a"], "claims": None}}, files)
    assert info["x"]["cd_skipped"] == {
        "hamming_loss": "needs at least 2 datasets, this run has 1",
        "ranking_loss": "needs at least 2 datasets, this run has 1"}
    write_summary(info, tmp_path / "summary.html")
    page = (tmp_path / "summary.html").read_text()
    assert page.count("src='data:image/png;base64,") == 1  # the headline only
    assert ("<p class='nocd' id='cd-x-hamming_loss'><b>Critical differences: "
            "Hamming loss (lower is better)</b>: no diagram; the rank test needs "
            "at least 2 datasets, this run has 1.</p>") in page
    assert "id='cd-x-ranking_loss'" in page  # the claims' links land there
    # the headline's title is folded inside its one panel's width (it ran
    # off the picture's left and right edges)
    assert fig.get_suptitle() == ("Hamming loss (lower is better): mean over\n"
                                  "folds, band ± 1 s.d. over 2 folds (dashed:\n"
                                  "all features)")
    (title,) = [t for t in fig.findobj(Text) if t.get_text() == fig.get_suptitle()]
    box = title.get_window_extent(fig.canvas.get_renderer())
    assert 0 < box.x0 < box.x1 < fig.bbox.width


def test_figures_alt_texts_state_their_result(tmp_path, monkeypatch):
    """The summary page's images say what they show: the best method per
    dataset at the table's K, the CD diagram's average ranks in order."""
    from mlfsbench.report.headline import headline_alt
    from mlfsbench.report.render import figure_alt

    labels = {"mim-br-68632db6": "MIM-BR"}
    alt = headline_alt(summary_frame(), "hamming_loss", 2, labels)
    assert alt == ("Hamming loss (lower is better) against the number of features, "
                   "one panel per dataset. Best at K = 2: MIM-BR on a (0.12; all "
                   "features 0.15); MIM-BR on b (0.13; all features 0.15); MIM-BR "
                   "on c (0.14; all features 0.15).")
    # pmu the best on b at every K: the text follows the data
    frame = summary_frame()
    frame.loc[(frame["dataset"] == "b") & (frame["selector"] == "pmu")
              & (frame["n_features"] != "all"), "mean"] = 0.05
    assert "pmu on b (0.05; all features 0.15)" in headline_alt(
        frame, "hamming_loss", None, labels)
    assert "Best at mean over the K of the grid:" in headline_alt(
        frame, "hamming_loss", "mean", labels)
    # the PNGs carry them; the page shows them
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "results" / "x"
    (root / "plots").mkdir(parents=True)
    (root / "stats").mkdir()
    headline_plot(summary_frame(), "hamming_loss", root / "plots" / "headline.png",
                  labels, table_k=2)
    assert figure_alt(root / "plots" / "headline.png") == alt
    write_comparison(_summary_file(tmp_path), "hamming_loss",
                     root / "stats" / "hamming_loss.json",
                     root / "stats" / "hamming_loss_cd.png", labels=labels)
    cd = figure_alt(root / "stats" / "hamming_loss_cd.png")
    # MIM-BR first, all features second, pmu last on all three datasets
    assert cd == ("Critical-difference diagram: Hamming loss (lower is better), "
                  "mean over the K of the grid; Nemenyi, CD = 1.914, N = 3 "
                  "datasets. Average ranks, best first: MIM-BR 1.00, all-features "
                  "2.00, pmu 3.00. Significantly worse than MIM-BR: pmu.")
    # Doquire's pruning study: 13 methods, 2 datasets, nothing can differ
    ranks = {f"p{i}": float(i) for i in range(5, 16)} | {"all-features": 1.0,
                                                        "mi-forward": 11.0}
    pruning = {"n_datasets": 2, "n_features": "mean", "alpha": 0.05,
               "average_ranks": ranks, "nemenyi": {"cd": 12.901},
               "bonferroni_dunn": {"control": None}}
    text = cd_alt("accuracy", pruning)
    assert "best first: all-features 1.00, p5 5.00, p6 6.00" in text
    assert "p10 10.00, mi-forward 11.00, p11 11.00" in text
    assert text.endswith("N = 2 datasets: no difference can be significant at "
                         "α = 0.05 (CD 12.9 > 12, the widest rank gap; N ≥ 3 "
                         "needed).")
    files = ["results/x/plots/headline.png", "results/x/stats/hamming_loss_cd.png"]
    info = summary_info({"x": {"datasets": ["a", "b", "c"], "description": ""}},
                        files)
    write_summary(info, tmp_path / "summary.html")
    page = (tmp_path / "summary.html").read_text()
    assert f"alt='{html.escape(alt)}'" in page
    assert f"alt='{html.escape(cd)}'" in page


def _summary_file(tmp_path):
    path = tmp_path / "s.tsv"
    summary_frame().to_csv(path, sep="\t", index=False)
    return path


@pytest.mark.parametrize("name", ["plot.rst", "paper_table.rst", "claims.rst",
                                  "workflow.rst"])
def test_report_texts_exist(name):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "report" / name).read_text()
    assert len(text.split()) > 20


def test_every_report_item_has_a_caption_and_the_workflow_a_description():
    import re
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    for smk in sorted((repo / "rules").glob("*.smk")):
        text = smk.read_text()
        for block in re.findall(r"report\((.*?)\n\s*\)", text, flags=re.S):
            caption = re.search(r'caption="\.\./(report/[\w.]+\.rst)"', block)
            assert caption, f"{smk.name}: report item without caption: {block!r}"
            assert (repo / caption[1]).exists(), caption[1]
    assert 'report: "report/workflow.rst"' in (repo / "Snakefile").read_text()


def test_ranks_html_shows_labels_tsv_keeps_identifiers(tmp_path):
    from mlfsbench.report.compare import ranks_table

    path = _summary_file(tmp_path)
    write_comparison(path, "hamming_loss", tmp_path / "h.json", tmp_path / "cd.png")
    table = ranks_table([tmp_path / "h.json"], tmp_path / "r.tsv",
                        tmp_path / "r.html", {"mim-br-68632db6": "MIM-BR"})
    assert "rank:mim-br-68632db6" in table.columns
    assert "rank:mim-br-68632db6" in (tmp_path / "r.tsv").read_text()
    page = (tmp_path / "r.html").read_text()
    assert "rank:MIM-BR" in page and "68632db6" not in page


def test_summary_and_runtime_show_as_html_pages(tmp_path):
    from mlfsbench.report.aggregate import summary_html

    summary_html(summary_frame(), tmp_path / "s.html", "Mean ± s.d. over the folds")
    page = (tmp_path / "s.html").read_text()
    assert "<th>Hamming loss (lower is better)</th>" in page
    assert "<td>0.12 ± 0.02</td>" in page  # a, mim-br, K = 2
    assert page.count("<tr>") == 3 * 2 * 4  # dataset x selector x K (and "all")
    assert "<div class='scroll'>" in page


def test_overview_counts_verdicts_that_depend_on_a_reading(tmp_path):
    from mlfsbench.report.summary import overview

    path = tmp_path / "robust_claims.tsv"
    pd.DataFrame({"claim": ["a", "b", "c"], "verdict": ["reproduced"] * 2
                  + ["not reproduced"],
                  "robustness": ["reproduced under every reading",
                                 "depends on scaling: reproduced with raw",
                                 "depends on grid: reproduced with 1..50"]}).to_csv(
        path, sep="\t", index=False)
    table = overview({"s": {"datasets": ["d", "e"], "claims": str(path)},
                      "t": {"datasets": ["d"], "claims": None}})
    assert "<th>depends on a reading</th>" in table
    assert "<td class='n depends'>2</td>" in table
    # the robust count: a verdict that depends on a reading is not also
    # counted reproduced (1 + 2 of 3 claims)
    assert "<td class='n reproduced'>1</td>" in table
    assert "<td class='n'>3</td><td class='n'>100 %</td>" in table
    assert "<td class='n'>2 of 2</td>" in table and "<td class='n'>1 of 1</td>" in table
    # the robust verdict table when the rule has it as an input
    files = ["results/s/tables/claims.tsv", "results/s/tables/robust_claims.tsv"]
    info = summary_info({"s": {"datasets": ["d"], "claims": None}}, files)
    assert info["s"]["claims"] == "results/s/tables/robust_claims.tsv"


def test_challengers_come_from_the_plan_and_link_their_page(tmp_path):
    # the workflow names the challengers (Plan.challenger_labels); the summary
    # only shows them and links the study's challenge page
    from mlfsbench.workflow.plan import Plan

    x = {"datasets": ["a"], "description": "",
         "selectors": [{"name": "mim-br"},
                       {"name": "fimf", "challenger": True, "label": "My FIMF"}],
         "classifiers": [{"name": "mlknn"}]}
    plan = Plan({"experiments": {"s": x, "t": {**x, "selectors": [{"name": "a"}]}}},
                {}, {})
    labels = plan.challenger_labels()
    assert labels == {"s": ["My FIMF"]}
    info = summary_info({"s": x, "t": x}, [], challengers=labels)
    assert info["s"]["challengers"] == ["My FIMF"]
    assert info["s"]["challenge"] == "s/challenge/index.html"
    assert "challenge" not in info["t"]  # no challengers handed over: no link
    write_summary(info, tmp_path / "summary.html")
    page = (tmp_path / "summary.html").read_text()
    assert "<b>Challengers:</b> My FIMF" in page
    assert "href='s/challenge/index.html'" in page
    assert "<a href='leaderboard.html'>Leaderboard</a>" in page
