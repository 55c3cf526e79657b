"""The summary page a referee reads (issue 35): every checkable claim links to
what decides it, for each kind of evidence (a table row, a CD diagram, the
curves of its datasets, the run times, its own draws), shows how it was
checked and, under readings, its verdict per option; the page is a
standalone HTML page that prints on several sheets.

Built from synthetic result files through the report's own functions; the
browser tests walk every link of the page."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pandas as pd
import pytest
import yaml

from mlfsbench.report.aggregate import plot_dataset
from mlfsbench.report.claim_rows import (
    claim_metrics,
    evidence,
    how_block,
    ours_cell,
    reading_legend,
    readings_grid,
)
from mlfsbench.report.headline import headline_plot
from mlfsbench.report.summary import (
    main_reason,
    overview,
    summary_info,
    write_summary,
)

from .test_report_page import DATASETS, LABELS, METHODS, lee_summary, write_study

EXPERIMENT = "lee2016"

CLAIMS = [
    {"id": "t5-yeast", "statement": "Proposed: Hamming loss 0.209 on yeast.",
     "source": "Table 5", "rule": "value",
     "quote": "the proposed method gives the lowest Hamming loss",
     "reading": "Read as: its mean at n = 50 within the tolerance.",
     "quantity": {"metric": "hamming_loss", "dataset": "yeast", "method": "lee2016",
                  "n_features": 50}, "paper": 0.209, "tolerance": 0.01},
    {"id": "fig-better", "statement": "Proposed beats PMU on both losses.",
     "source": "Figs. 2-3", "rule": "better",
     "quantity": {"metric": ["hamming_loss", "ranking_loss"],
                  "datasets": ["enron", "genbase"], "better": ["lee2016"],
                  "worse": ["pmu"], "n_features": "best"}, "paper": "4 of 4"},
    {"id": "t7-rank", "statement": "Proposed has the best average rank.",
     "source": "Table 7", "rule": "average_rank",
     "quantity": {"metric": "ranking_loss", "n_features": 50}, "paper": 1},
    {"id": "curve-trend", "statement": "Losses fall with K.", "source": "Fig. 4",
     "rule": "trend", "quantity": {"metric": "ranking_loss", "dataset": "medical"},
     "paper": "falls"},
    {"id": "p1-first", "statement": "f11 first on problem 1.", "source": "Sec. 5.1",
     "rule": "artificial", "quantity": {"problem": 1}, "paper": "20 of 20 draws"},
    {"id": "t3-fastest", "statement": "Proposed is fastest.", "source": "Table 3",
     "rule": "fastest", "quantity": {"method": "lee2016"}, "paper": "8 of 8"},
    {"id": "t5-llog", "statement": "LLog.", "source": "Table 5", "rule": "value",
     "quantity": {"metric": "hamming_loss", "dataset": "llog", "method": "lee2016"},
     "paper": 0.016},
]

ROWS = [
    ("t5-yeast", "0.209 (± 0.01)", "0.2141 ± 0.0030 s.d., n = 10", "0.0030", "10",
     "+0.0049", "within fold noise", "reproduced", "yeast",
     "value at K = 50: ours within ± 0.01", "reproduced under every reading"),
    ("fig-better", "4 of 4", "holds in 3 of 4 (not on ranking_loss/genbase)", "", "1",
     "", "beyond fold noise", "not reproduced", "enron,genbase",
     "better, at the best K, in every cell",
     "depends on solver: reproduced with lbfgs"),
    ("t7-rank", "1", "1.00", "", "1", "", "", "reproduced", "", "average rank",
     "reproduced under every reading"),
    ("curve-trend", "falls", "falls on 1 of 1", "", "1", "", "", "reproduced",
     "medical", "trend", "reproduced under every reading"),
    ("p1-first", "20 of 20 draws", "holds in 20 of 20 draws", "", "", "", "",
     "reproduced", "", "20 draws of problem 1", "reproduced under every reading"),
    ("t3-fastest", "8 of 8", "fastest on 5 of 6", "", "", "", "", "not reproduced",
     "", "fastest", "not reproduced under every reading"),
    ("t5-llog", "0.016", "", "", "", "", "", "not checkable here", "", "",
     "not checkable here under every reading"),
]

LEGEND = {"solver": {
    "about": "Sec. 4.1 names BR logistic regression in MATLAB.",
    "evidence": "MATLAB's documented glmfit is IRLS.", "favoured": "irls-glmfit",
    "options": {"irls-glmfit": {"about": "glmfit's IRLS"},
                "lbfgs": {"about": "scikit-learn's lbfgs"}}}}


def build(root):
    """results/ of one study with every kind of evidence, and its page."""
    res, summary, files = write_study(root)
    headline_plot(lee_summary(), "hamming_loss", res / "plots" / "headline.png",
                  LABELS)
    files.append(res / "plots" / "headline.png")
    for d in DATASETS:
        plot_dataset(lee_summary(), d, res / "plots" / f"{d}.png",
                     res / "plots" / f"{d}.pdf", LABELS)
        files.append(res / "plots" / f"{d}.png")
    pd.DataFrame([(d, m, 0.1 * (i + 1), 0.01, 10) for d in DATASETS
                  for i, m in enumerate(METHODS)],
                 columns=["dataset", "selector", "mean", "std", "folds"]).to_csv(
        res / "tables" / "runtime.tsv", sep="\t", index=False)
    columns = ["claim", "paper", "ours", "ours_sd", "n", "margin", "robust", "verdict",
               "datasets", "how", "robustness"]
    table = pd.DataFrame(ROWS, columns=columns)
    spec = {c["id"]: c for c in CLAIMS}
    table.insert(1, "statement", [spec[c]["statement"] for c in table["claim"]])
    table.insert(2, "source", [spec[c]["source"] for c in table["claim"]])
    table["printed"] = ""
    table["note"] = ["", "", "", "", "", "", "llog: not public"]
    table["favoured"] = "solver=irls-glmfit"
    table["verdict:solver=lbfgs"] = table["verdict"]
    table.to_csv(res / "tables" / "robust_claims.tsv", sep="\t", index=False)
    pd.DataFrame([
        ("fig-better", "solver", "irls-glmfit", "yes", "", "not reproduced",
         "holds in 3 of 4", "enron,genbase"),
        ("fig-better", "solver", "lbfgs", "", "", "reproduced", "holds in 4 of 4",
         "enron,genbase"),
    ], columns=["claim", "reading", "option", "favoured", "probe", "verdict", "ours",
                "datasets"]).to_csv(res / "tables" / "readings.tsv", sep="\t",
                                    index=False)
    files += [res / "tables" / "robust_claims.tsv", res / "tables" / "readings.tsv",
              res / "tables" / "runtime.tsv", summary]
    claims = root / "lee2016.claims.yaml"
    claims.write_text(yaml.safe_dump({
        "study": "lee2016", "paper": "J. Lee and D.-W. Kim, Entropy 18, 2016.",
        "experiment": EXPERIMENT, "unavailable": {"llog": "not public"},
        "claims": CLAIMS}))
    experiments = {EXPERIMENT: {"datasets": list(DATASETS), "claims": str(claims),
                                "description": "Lee & Kim 2016",
                                "stats": {"n_features": 50,
                                          "metrics": ["hamming_loss",
                                                      "ranking_loss"]}}}
    cwd = os.getcwd()
    os.chdir(root)  # the rule's paths are relative to the workflow directory
    try:
        info = summary_info(experiments, [str(f.relative_to(root)) for f in files],
                            {EXPERIMENT: LEGEND})
        write_summary(info, root / "summary.html", code="git 0123abc (clean)",
                      fragment=root / "summary.report.html")
    finally:
        os.chdir(cwd)
    return root / "summary.html"


def test_list_valued_metrics_link_to_each_metric():
    info = {"datasets": ["enron", "genbase", "yeast"], "table_k": 50,
            "paper_tables": {"hamming_loss": "h.html", "ranking_loss": "r.html"},
            "curves": {"enron": "e.png", "genbase": "g.png", "yeast": "y.png"},
            "cd_by_metric": {"ranking_loss": "cd.png"}}
    claim = dict(CLAIMS[1], quantity=dict(CLAIMS[1]["quantity"], n_features=50))
    assert claim_metrics(claim["quantity"]) == ["hamming_loss", "ranking_loss"]
    assert [h for _, h in evidence(claim, "x", info, ["enron", "genbase"])] == [
        "#pt-x-hamming_loss-enron", "#pt-x-hamming_loss-genbase",
        "#pt-x-ranking_loss-enron", "#pt-x-ranking_loss-genbase"]
    # at the best K the table's K does not decide: the judged datasets' curves
    assert [h for _, h in evidence(CLAIMS[1], "x", info, ["genbase"])] == [
        "#curves-x-genbase"]
    # a trend: its dataset's curves; a rank: its CD; artificial: its own draws
    assert evidence(CLAIMS[3], "x", info | {"datasets": ["medical", "yeast"],
                                            "curves": {"medical": "m.png"}}) == [
        ("curves: medical", "#curves-x-medical")]
    assert evidence(CLAIMS[2], "x", info) == [("CD diagram (ranking_loss)",
                                              "#cd-x-ranking_loss")]
    assert evidence(CLAIMS[4], "x", info) == [("how checked", "#how-x-p1-first")]
    assert evidence(CLAIMS[5], "x", info | {"runtime": "r.tsv"}) == [
        ("runtime table", "#runtime-x")]


def test_ours_cell_prints_the_spread_once():
    row = {"ours": "0.2188 ± 0.0040 s.d., n = 10 (difference +0.0098)",
           "ours_sd": "0.0040", "n": "10", "margin": "-0.0048",
           "robust": "within fold noise"}
    cell = ours_cell(row)
    assert cell.count("0.0040") == 1 and "n = 10" in cell and cell.count("n =") == 1
    assert "margin to the tolerance: -0.0048" in cell and "within fold noise" in cell
    # a claim without a spread: no stray "(n = 1)"
    assert ours_cell({"ours": "holds in 3 of 4", "ours_sd": "", "n": "1"}) == \
        "holds in 3 of 4"
    assert ours_cell({"ours": "0.21", "ours_sd": "0.004", "n": "10"}) == \
        "0.21 ± 0.004 s.d., n = 10"


def test_how_checked_names_sentence_reading_rule_tolerance_and_k():
    block = how_block(dict(zip(["claim", "how", "datasets"],
                               ["t5-yeast", "value at K = 50", "yeast"],
                               strict=True)), CLAIMS[0], "lee2016", 50)
    assert "id='how-lee2016-t5-yeast'" in block
    assert ("<b>The paper:</b> the proposed method gives the lowest Hamming "
            "loss") in block
    assert "<b>Our reading:</b> Read as: its mean at n = 50" in block
    assert ("rule <code>value</code>; value at K = 50; tolerance ± 0.01; K: 50; "
            "judged on yeast.") in block


def test_readings_grid_favoured_first_with_the_deciding_number_and_legend():
    rows = pd.DataFrame([("c", "solver", "lbfgs", "", "", "reproduced", "4 of 4"),
                         ("c", "solver", "irls-glmfit", "yes", "", "not reproduced",
                          "3 of 4"),
                         ("d", "solver", "lbfgs", "", "", "reproduced", "x")],
                        columns=["claim", "reading", "option", "favoured", "probe",
                                 "verdict", "ours"])
    grid = readings_grid("c", rows, LEGEND, "lee2016")
    cells = re.findall(r"<td[^>]*>(.*?)</td>", grid)
    assert cells == ["irls-glmfit (favoured)", "not reproduced", "3 of 4",
                     "lbfgs", "reproduced", "4 of 4"]
    # the reading's name spans its options and links to the study's legend
    assert ("<th rowspan='2'><a href='#reading-lee2016-solver'>solver</a></th>"
            in grid)
    assert "title='glmfit&#x27;s IRLS'" in grid
    assert readings_grid("e", rows, LEGEND) == ""
    legend = reading_legend("lee2016", LEGEND)
    assert "id='reading-lee2016-solver'" in legend
    assert "Sec. 4.1 names BR logistic regression in MATLAB." in legend
    assert ("<li><code>irls-glmfit</code> (favoured): glmfit&#x27;s IRLS</li>"
            "<li><code>lbfgs</code>: scikit-learn&#x27;s lbfgs</li>") in legend
    assert ("<i>Favoured because:</i> MATLAB&#x27;s documented glmfit is IRLS."
            in legend)


def test_overview_per_paper_adds_up_and_names_the_main_reason(tmp_path):
    table = pd.DataFrame({
        "claim": ["a", "b", "c", "d", "e"],
        "verdict": ["not reproduced", "not reproduced", "reproduced",
                    "not checkable here", "reproduced"],
        "robust": ["beyond fold noise", "within fold noise", "", "",
                   "weak claim: ties"]})
    specs = {"a": {"rule": "value"}, "b": {"rule": "value"}, "c": {"rule": "better"}}
    assert main_reason(table, specs) == ("2 of 2 value claims; 1 beyond fold noise; "
                                         "1 within fold noise")
    paths = {}
    for name in ("s1", "s2"):
        paths[name] = tmp_path / f"{name}.tsv"
        table.to_csv(paths[name], sep="\t", index=False)
    info = {n: {"paper": "A. B., Paper, 2016.", "claims": str(p), "claim_specs": specs,
                "datasets": ["d1"]} for n, p in paths.items()}
    info["s3"] = {"paper": "C. D., Other, 2019.", "claims": str(paths["s1"]),
                  "claim_specs": specs, "datasets": ["d1", "d2"],
                  # a challenge run on 2 of its study's 8 datasets
                  "paper_datasets": [f"d{i}" for i in range(1, 9)]}
    html = overview(info)
    assert "<td class='n'>2 of 8</td>" in html and "<td class='n'>1 of 1</td>" in html
    assert html.count("<th class='paper'") == 2  # one citation row per paper
    totals = re.findall(r"<tr class='total'><td>(.*?)</td>(.*?)</tr>", html)
    assert [t[0] for t in totals] == ["paper total", "all studies"]
    numbers = re.findall(r"<td class='n[^']*'>([^<]*)</td>", totals[1][1])
    # reproduced, not, depends, not checkable, weak r/n/o, claims, rate
    assert numbers[:4] == ["3", "6", "0", "3"] and numbers[4:7] == ["3 / 0 / 0", "15",
                                                                   "33 %"]


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class Structure(HTMLParser):
    """A standalone page's structure: the doctype, every element closed in
    order (void elements aside), ids unique, the head's charset and title."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.errors = [], [], []
        self.doctype, self.seen = None, []

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        self.seen.append((tag, dict(attrs)))
        if dict(attrs).get("id"):
            self.ids.append(dict(attrs)["id"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()


def test_page_is_standalone_and_the_report_gets_the_fragment(tmp_path):
    page = build(tmp_path).read_text()
    check = Structure()
    check.feed(page)
    check.close()
    assert check.doctype == "DOCTYPE html" and check.errors == [] and check.stack == []
    assert len(check.ids) == len(set(check.ids))
    tags = [t for t, _ in check.seen]
    assert tags[:3] == ["html", "head", "meta"] and check.seen[0][1] == {"lang": "en"}
    assert check.seen[2][1] == {"charset": "utf-8"} and "title" in tags
    assert tags.index("title") < tags.index("body") and tags.count("h1") == 1
    assert page.startswith("<!DOCTYPE html>\n<html lang='en'><head>"
                           "<meta charset='utf-8'>")
    assert "<title>mlfsbench: do the papers&#x27; claims hold?</title>" in page
    assert "<h1>" in page and page.rstrip().endswith("</html>")
    fragment = (tmp_path / "summary.report.html").read_text()
    assert fragment.startswith("<div class='mlfs-summary'>") and "<h1>" not in fragment
    assert "<script>" not in fragment
    part = Structure()
    part.feed(fragment)
    assert part.errors == [] and part.stack == [] and part.doctype is None
    # the study's tables as files, relative to results/ (where the page is)
    assert ("<a href='lee2016/tables/robust_claims.tsv'>verdicts</a>" in page
            and "<a href='lee2016/tables/readings.tsv'>per reading</a>" in page)
    assert "<a href='lee2016/tables/summary.tsv'>mean and s.d." in page
    # every link of the page lands on an element of the page
    ids = set(re.findall(r"\bid='([^']+)'", page))
    hrefs = set(re.findall(r"href='#([^']+)'", page))
    assert hrefs and hrefs <= ids, hrefs - ids
    # every checkable claim has an evidence link, the other none
    for claim, *_, verdict, _d, _h, _r in ROWS:
        row = page[page.index(f"<tr id='claim-lee2016-{claim}'"):]
        links = row[row.index("<td class='evidence'>"):]
        links = links[:links.index("</td>")]
        assert ("<a href" in links) == (verdict != "not checkable here"), claim


def test_each_paper_table_is_read_once(tmp_path, monkeypatch):
    """summary_info reads a regenerated table once: the page and the report's
    fragment show it, the evidence links find its ids."""
    import builtins

    from mlfsbench.report import summary as module

    reads: list[str] = []

    def counting_open(path, *args, **kwargs):
        if os.sep + "paper" + os.sep in os.path.normpath(os.fspath(path)):
            reads.append(os.path.basename(os.fspath(path)))
        return builtins.open(path, *args, **kwargs)

    monkeypatch.setattr(module, "open", counting_open, raising=False)
    page = build(tmp_path).read_text()
    assert sorted(reads) == ["hamming_loss.html", "ranking_loss.html"]
    fragment = (tmp_path / "summary.report.html").read_text()
    for metric in ("hamming_loss", "ranking_loss"):
        table = (tmp_path / "results" / "lee2016" / "tables" / "paper"
                 / f"{metric}.html").read_text()
        first_id = re.search(r"\bid='([^']+)'", table).group(1)
        assert f"id='{first_id}'" in page and f"id='{first_id}'" in fragment


def test_every_evidence_link_lands_on_its_target_in_a_browser(tmp_path, browser_page):
    path = build(tmp_path)
    page = browser_page
    page.goto(path.as_uri())
    rows = page.locator("table.claims > tbody > tr")
    walked = 0
    for i in range(rows.count()):
        for link in rows.nth(i).locator("td.evidence a").all():
            target = link.get_attribute("href")[1:]
            link.click()
            element = page.locator(f"[id='{target}']")
            element.wait_for(state="visible")
            box = element.bounding_box()
            assert box and 0 <= box["y"] < 900, (target, box)
            assert page.evaluate("location.hash") == f"#{target}"
            walked += 1
    assert walked == 7  # 1 table row, 3 curves, 1 CD, 1 runtime, 1 draws
    # the artificial claim's evidence opens its folded "how checked"
    assert page.locator("#how-lee2016-p1-first").evaluate("e => e.open")
    # a permalink opened fresh lands on its row
    page.goto(path.as_uri() + "#claim-lee2016-t3-fastest")
    box = page.locator("#claim-lee2016-t3-fastest").bounding_box()
    assert 0 <= box["y"] < 900
    # the filter keeps the robust "not reproduced" rows only
    page.select_option("#mlfs-verdict", "not reproduced")
    shown = [r.get_attribute("id") for r in rows.all() if r.is_visible()]
    assert shown == ["claim-lee2016-t3-fastest"]


def test_the_page_prints_on_several_sheets(tmp_path, browser_page):
    path = build(tmp_path)
    page = browser_page
    page.goto(path.as_uri())
    pdf = page.pdf(format="A4")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") > 3


@pytest.mark.parametrize("claim", ["t5-yeast", "fig-better"])
def test_claim_rows_show_how_and_readings(tmp_path, claim):
    page = build(tmp_path).read_text()
    row = page[page.index(f"<tr id='claim-lee2016-{claim}'"):]
    row = row[:row.index("</tr>")]
    assert f"href='#claim-lee2016-{claim}'" in row  # the id is a permalink
    assert "<details class='how'" in row
    assert ("<details class='readings'>" in row) == (claim == "fig-better")
