"""The summary page as a reader opens it in headless Chromium (issue #27's
done-when): the per-study table on the first screen, a claim row whose link
reaches its evidence, a regenerated Lee 2016 Table 5 with a bold minimum per
row. Built from synthetic result files through the report's functions."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import yaml

from mlfsbench.report.compare import write_comparison
from mlfsbench.report.headline import headline_plot
from mlfsbench.report.paper_tables import write_paper_table
from mlfsbench.report.summary import summary_info, write_summary

DATASETS = ("bibtex", "corel5k", "enron", "genbase", "medical", "yeast")
METHODS = ("lee2016", "pmu", "mdmr", "fimf")
LABELS = {"lee2016": "Proposed", "pmu": "PMU", "mdmr": "MDMR", "fimf": "FIMF"}
EXPERIMENT = "lee2016"


def lee_summary() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = []
    for d in DATASETS:
        level = rng.uniform(0.01, 0.2)
        for j, m in enumerate(METHODS):
            for k in (10, 30, 50):
                mean = level * (1 + 0.05 * j + 0.3 / k) + rng.uniform(0, 0.002)
                for metric in ("hamming_loss", "ranking_loss"):
                    rows.append((d, "cv", m, "br-lr", str(k), metric, mean, 0.003, 10))
            for metric in ("hamming_loss", "ranking_loss"):
                rows.append((d, "cv", m, "br-lr", "all", metric, level * 1.4, 0.004,
                             10))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean", "std",
                                       "folds"])


def write_study(root):
    """``results/<EXPERIMENT>/`` under ``root``: its summary table, and per
    loss its statistics, CD diagram and regenerated paper table. Returns the
    study folder, the summary table and the CD and table files written."""
    res = root / "results" / EXPERIMENT
    for sub in ("tables/paper", "stats", "plots"):
        (res / sub).mkdir(parents=True, exist_ok=True)
    summary = res / "tables" / "summary.tsv"
    lee_summary().to_csv(summary, sep="\t", index=False)
    files = []
    for metric in ("hamming_loss", "ranking_loss"):
        stats = res / "stats" / f"{metric}.json"
        cd = res / "stats" / f"{metric}_cd.png"
        write_comparison(summary, metric, stats, cd, n_features=50,
                         control="lee2016", round=3, labels=LABELS)
        outs = {k: res / "tables" / "paper" / f"{metric}.{k}"
                for k in ("tsv", "md", "tex", "html")}
        write_paper_table(summary, stats, metric, EXPERIMENT, outs, n_features=50,
                          labels=LABELS, order=METHODS, decimals=3)
        files += [cd, outs["html"]]
    return res, summary, files


def build_page(root) -> str:
    """results/ of one study under ``root`` and its summary page."""
    res, _, written = write_study(root)
    files = [str(f.relative_to(root)) for f in written]
    headline = res / "plots" / "headline.png"
    headline_plot(lee_summary(), "hamming_loss", headline, LABELS)
    claims = [
        {"id": "t5-yeast-proposed", "statement": "Proposed: Hamming loss 0.209 on "
         "yeast at n = 50.", "source": "Table 5", "rule": "value",
         "quantity": {"metric": "hamming_loss", "dataset": "yeast",
                      "method": "lee2016", "n_features": 50},
         "paper": 0.209, "tolerance": 0.01},
        {"id": "t7-rank", "statement": "Proposed has the best average rank.",
         "source": "Table 7", "rule": "average_rank",
         "quantity": {"metric": "ranking_loss", "n_features": 50}, "paper": 1},
    ]
    spec = root / "lee2016.claims.yaml"
    spec.write_text(yaml.safe_dump({"study": "lee2016", "paper": "Lee & Kim 2016",
                                    "experiment": EXPERIMENT,
                                    "unavailable": {"llog": "not public"},
                                    "claims": claims + [{
                                        "id": "t5-llog", "quantity": {
                                            "dataset": "llog"}}]}))
    pd.DataFrame([
        {"claim": "t5-yeast-proposed", "statement": claims[0]["statement"],
         "source": "Table 5", "paper": "0.209 (± 0.01)", "ours": "0.2141",
         "verdict": "reproduced", "note": ""},
        {"claim": "t7-rank", "statement": claims[1]["statement"], "source": "Table 7",
         "paper": "1", "ours": "1.00", "verdict": "reproduced", "note": ""},
        {"claim": "t5-llog", "statement": "LLog", "source": "Table 5",
         "paper": "0.016", "ours": "", "verdict": "not checkable here",
         "note": "llog: not public"},
    ]).to_csv(res / "tables" / "claims.tsv", sep="\t", index=False)
    files += [str((res / "tables" / "claims.tsv").relative_to(root)),
              str(headline.relative_to(root))]
    experiments = {EXPERIMENT: {"datasets": list(DATASETS), "claims": str(spec),
                                "description": "Lee & Kim 2016, Tables 5-7",
                                "stats": {"n_features": 50,
                                          "metrics": ["hamming_loss",
                                                      "ranking_loss"]}}}
    out = root / "summary.html"
    cwd = os.getcwd()
    os.chdir(root)  # the rule's paths are relative to the workflow directory
    try:
        write_summary(summary_info(experiments, files), out,
                      code="git 0123abc (clean)")
    finally:
        os.chdir(cwd)
    return out


def test_page_without_a_browser(tmp_path):
    page = build_page(tmp_path).read_text()
    assert page.index("class='overview'") < page.index("class='claims'")
    # the value claim's link marks its cell: proposed, yeast
    assert "href='#pt-lee2016-hamming_loss-yeast--lee2016'" in page
    assert "href='#cd-lee2016-ranking_loss'" in page
    assert "0.209<br><small>tolerance ± 0.01</small>" in page
    llog = page[page.index("<tr id='claim-lee2016-t5-llog'"):]
    assert "<a href" not in llog[:llog.index("</tr>")]  # nothing decides it here
    assert page.count("data:image/png;base64,") == 3  # two CDs, one headline
    assert os.path.getsize(tmp_path / "summary.html") < 400_000


def test_summary_page_in_a_browser(tmp_path, browser_page):
    path = build_page(tmp_path)  # a standalone page
    page = browser_page
    page.goto(path.as_uri())
    # the per-study table on the first screen
    overview = page.locator("table.overview")
    box = overview.bounding_box()
    assert box["y"] + box["height"] < 900
    assert "lee2016" in overview.inner_text()
    assert "6 of 7" in overview.inner_text()
    # a claim row whose link reaches its table cell ...
    row = page.locator("#claim-lee2016-t5-yeast-proposed")
    row.locator("a[href='#pt-lee2016-hamming_loss-yeast--lee2016']").click()
    target = page.locator("#pt-lee2016-hamming_loss-yeast--lee2016")
    box = target.bounding_box()
    assert 0 <= box["y"] < 900 and target.evaluate(
        "e => e.closest('table').classList.contains('paper')")
    # ... with the table's caption and header in view above it, the cell
    # outlined (not the row)
    caption = target.evaluate("e => e.closest('table').caption"
                              ".getBoundingClientRect().top")
    assert 0 <= caption < box["y"]
    assert target.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    assert page.locator("#pt-lee2016-hamming_loss-yeast").evaluate(
        "e => getComputedStyle(e).outlineStyle") == "none"
    # ... and one whose link reaches its figure
    page.locator("#claim-lee2016-t7-rank a[href='#cd-lee2016-ranking_loss']"
                 ).click()
    image = page.locator("#cd-lee2016-ranking_loss img")
    box = image.bounding_box()
    assert 0 <= box["y"] < 900
    natural, shown = image.evaluate("e => [e.naturalWidth, e.width]")
    assert natural >= 600 and shown == natural  # at its own size
    # Lee 2016 Table 5 regenerated: a bold minimum in every row
    table = page.locator("#pt-lee2016-hamming_loss")
    for d in DATASETS:
        cells = table.locator(f"#pt-lee2016-hamming_loss-{d} td")
        values = [float(t.split("±")[0]) for t in cells.all_inner_texts()]
        bold = [float(t.split("±")[0]) for t in table.locator(
            f"#pt-lee2016-hamming_loss-{d} td b").all_inner_texts()]
        assert bold and set(bold) == {min(values)}, d
    width = table.evaluate("e => e.closest('.scroll').scrollWidth")
    assert width <= 1280
    page.screenshot(path=str(tmp_path / "shot.png"))
