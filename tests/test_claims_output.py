"""``mlfsbench claims``'s scriptable output: typed JSON, TSV and the
``--study`` / ``--verdict`` filters, on small hand-made verdict tables."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pandas as pd
import pytest
import yaml

from mlfsbench.cli import main
from mlfsbench.report.claim_records import SCHEMA, TSV_COLUMNS, number, verdict_filter
from mlfsbench.report.claims import COLUMNS

# a verdict table written before the rule, tolerance, paper_value,
# ours_value and reading columns
OLD = COLUMNS[:COLUMNS.index("how") + 1]

VALUE = {"claim": "enron-igbr-reduction", "statement": "IG-BR keeps 0.45 %.",
         "source": "Table 3", "paper": "99.55 (tolerance ± 0.5)",
         "printed": "Table 3 prints 99.55",
         "ours": "99.7602 ± 0.0699 s.d., n = 10 (difference +0.2102)",
         "ours_sd": "0.0699", "n": "10", "margin": "+0.2898",
         "robust": "beyond fold noise", "verdict": "reproduced", "note": "",
         "datasets": "enron", "how": "value at the selected subset: ours within ± 0.5",
         "rule": "value", "tolerance": "0.5", "paper_value": "99.55",
         "ours_value": "99.7602", "reading": "The printed cell, two-sided."}
WEAK = {"claim": "genbase-9-best", "statement": "9 granules are best.",
        "source": "Fig. 3", "paper": "9 granules best on 5 of 5 criteria",
        "ours": "winner agrees on 1 of 5", "n": "10",
        "robust": "weak claim: genbase is near perfect", "verdict": "not reproduced",
        "datasets": "genbase", "how": "winner: winner, at the best K",
        "rule": "winner"}
BEST_K = {"claim": "emotions-best-around-37", "statement": "Best near 37.",
          "source": "Fig. 2", "paper": "37", "ours": "in the window in 0 of 5",
          "verdict": "not reproduced", "datasets": "emotions",
          "how": "best_k: the K of the best in 37 +- 11", "rule": "best_k",
          "tolerance": "11", "paper_value": "37"}
SKIPPED = {"claim": "t4-runtime", "statement": "Fast.", "source": "Table 4",
           "paper": "mi-forward", "verdict": "not checkable here",
           "note": "no runtime table", "how": "fastest", "rule": "fastest"}


def _write(path: Path, rows: list[dict], columns: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame([{c: r.get(c, "") for c in columns} for r in rows],
                 columns=columns).to_csv(path, sep="\t", index=False)


@pytest.fixture
def results(tmp_path) -> Path:
    """``spolaor`` without readings (a value claim and a not checkable one),
    ``li`` with one reading ``grid`` (favoured ``full``, other ``union``)
    under which the best-K claim's verdict changes, and ``old``, a table
    written before the rule and number columns."""
    _write(tmp_path / "spolaor" / "tables" / "claims.tsv", [VALUE, SKIPPED], COLUMNS)
    li = tmp_path / "li" / "tables"
    _write(li / "claims.tsv", [WEAK, BEST_K], COLUMNS)
    robust = [{**WEAK, "robustness": "not reproduced under every reading",
               "favoured": "grid=full", "verdict:grid=union": "not reproduced"},
              {**BEST_K, "robustness": "depends on grid: not reproduced with full",
               "favoured": "grid=full", "verdict:grid=union": "reproduced"}]
    _write(li / "robust_claims.tsv", robust,
           [*COLUMNS, "robustness", "favoured", "verdict:grid=union"])
    long = [{"claim": c, "reading": "grid", "option": o,
             "favoured": "yes" if o == "full" else "", "probe": "", "verdict": v,
             "ours": ours, "datasets": d}
            for c, o, v, ours, d in [
                ("genbase-9-best", "full", "not reproduced", "winner agrees on 1 of 5",
                 "genbase"),
                ("genbase-9-best", "union", "not reproduced", "winner agrees on 2 of 5",
                 "genbase"),
                ("emotions-best-around-37", "full", "not reproduced",
                 "in the window in 0 of 5", "emotions"),
                ("emotions-best-around-37", "union", "reproduced",
                 "in the window in 4 of 5", "emotions")]]
    _write(li / "readings.tsv", long, ["claim", "reading", "option", "favoured",
                                       "probe", "verdict", "ours", "datasets"])
    _write(tmp_path / "old" / "tables" / "claims.tsv",
           [{k: v for k, v in VALUE.items() if k in OLD} | {"claim": "old-value"}], OLD)
    return tmp_path


def _json(capsys, *args) -> list[dict]:
    assert main(["claims", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_records_are_typed(results, capsys):
    rows = _json(capsys, results)
    jsonschema.validate(rows, yaml.safe_load(SCHEMA.read_text(encoding="utf-8")))
    assert [(r["study"], r["claim"]) for r in rows] == [
        ("li", "genbase-9-best"), ("li", "emotions-best-around-37"),
        ("old", "old-value"),
        ("spolaor", "enron-igbr-reduction"), ("spolaor", "t4-runtime")]
    li_weak, li_k, old, value, skipped = rows
    assert value == {
        "study": "spolaor", "claim": "enron-igbr-reduction",
        "statement": "IG-BR keeps 0.45 %.", "source": "Table 3",
        "verdict": "reproduced", "robust_verdict": "reproduced", "weak": False,
        "rule": "value", "tolerance": 0.5, "paper": 99.55,
        "paper_text": "99.55 (tolerance ± 0.5)", "printed": "Table 3 prints 99.55",
        "ours": 99.7602,
        "ours_text": "99.7602 ± 0.0699 s.d., n = 10 (difference +0.2102)",
        "ours_sd": 0.0699, "n": 10, "margin": 0.2898, "robust": "beyond fold noise",
        "datasets": ["enron"],
        "how": "value at the selected subset: ours within ± 0.5",
        "reading": "The printed cell, two-sided.", "note": None,
        "robustness": None, "readings": None}
    assert (skipped["verdict"], skipped["robust_verdict"], skipped["n"],
            skipped["ours"], skipped["ours_text"], skipped["datasets"]) == \
        ("not checkable here", "not checkable", None, None, None, [])
    assert (li_weak["weak"], li_weak["paper"], li_weak["tolerance"], li_weak["n"]) == \
        (True, None, None, 10)
    # the best-K claim's paper number and window, and its verdict per option
    assert (li_k["paper"], li_k["tolerance"], li_k["robust_verdict"]) == \
        (37, 11, "depends")
    assert li_k["robustness"] == "depends on grid: not reproduced with full"
    grid = li_k["readings"]["grid"]
    assert (grid["favoured"], grid["probe"]) == ("full", False)
    assert grid["options"] == {
        "full": {"verdict": "not reproduced", "ours": "in the window in 0 of 5",
                 "datasets": ["emotions"]},
        "union": {"verdict": "reproduced", "ours": "in the window in 4 of 5",
                  "datasets": ["emotions"]}}
    # a table from before the rule and number columns still reads
    assert (old["rule"], old["tolerance"], old["paper"], old["ours"], old["n"],
            old["ours_sd"], old["reading"]) == (None, None, None, None, 10, 0.0699,
                                                None)


def test_readings_without_readings_tsv_come_from_the_robust_table(results, capsys):
    (results / "li" / "tables" / "readings.tsv").unlink()
    li_k = _json(capsys, results / "li")[1]
    grid = li_k["readings"]["grid"]
    assert (grid["favoured"], grid["probe"]) == ("full", False)
    assert grid["options"] == {
        "full": {"verdict": "not reproduced", "ours": "in the window in 0 of 5",
                 "datasets": ["emotions"]},
        "union": {"verdict": "reproduced", "ours": None, "datasets": []}}


def test_filters_apply_to_json_text_and_counts(results, capsys):
    rows = _json(capsys, results, "--study", "li", "--study", "spolaor",
                 "--verdict", "not-reproduced", "--verdict", "depends")
    assert [r["claim"] for r in rows] == ["genbase-9-best", "emotions-best-around-37"]
    assert [r["claim"] for r in _json(capsys, results, "--verdict", "not checkable")] \
        == ["t4-runtime"]
    assert main(["claims", str(results), "--verdict", "reproduced"]) == 0
    out = capsys.readouterr().out
    assert "enron-igbr-reduction" in out and "old-value" in out
    assert "t4-runtime" not in out and "li" not in out.split("\n\n")[0]
    verdicts = out.split("\n\nrobust verdicts")[0]
    # the counts are those of the claims shown
    assert [line.split() for line in verdicts.splitlines()[-3:]] == [
        ["old", "1", "0", "0", "1"], ["spolaor", "1", "0", "0", "1"],
        ["all", "2", "0", "0", "2"]]
    assert main(["claims", str(results), "--study", "li"]) == 0
    out = capsys.readouterr().out
    assert "[not reproduced] genbase-9-best" in out  # one study: no prefix
    assert "spolaor" not in out and "1 not reproduced" not in out
    assert "2 not reproduced" in out


def test_filter_words_and_mistakes(results, capsys):
    assert verdict_filter("Not Reproduced") == "not reproduced"
    assert verdict_filter("not checkable here") == "not checkable"
    assert main(["claims", str(results), "--verdict", "maybe"]) == 1
    assert "unknown verdict 'maybe'" in capsys.readouterr().err
    assert main(["claims", str(results), "--study", "lee"]) == 1
    assert "there are: li, old, spolaor" in capsys.readouterr().err
    # nothing left: empty JSON, a word on stderr for the text
    assert _json(capsys, results / "old", "--verdict", "depends") == []
    assert main(["claims", str(results / "old"), "--verdict", "depends"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "no claim matches" in captured.err


def test_tsv_is_one_plain_row_per_claim(results, capsys):
    assert main(["claims", str(results), "--tsv", "--study", "li",
                 "--study", "spolaor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t") == TSV_COLUMNS
    rows = [dict(zip(TSV_COLUMNS, line.split("\t"), strict=True)) for line in lines[1:]]
    assert [(r["study"], r["claim"]) for r in rows] == [
        ("li", "genbase-9-best"), ("li", "emotions-best-around-37"),
        ("spolaor", "enron-igbr-reduction"), ("spolaor", "t4-runtime")]
    value = rows[2]
    assert (value["paper"], value["ours"], value["tolerance"], value["ours_sd"],
            value["n"], value["margin"], value["weak"]) == \
        ("99.55", "99.7602", "0.5", "0.0699", "10", "0.2898", "no")
    k = rows[1]
    assert (k["robust_verdict"], k["favoured"], k["readings"], k["weak"]) == \
        ("depends", "grid=full", "grid=union: reproduced", "no")
    assert rows[0]["weak"] == "yes"
    assert rows[3]["n"] == "" and rows[3]["note"] == "no runtime table"
    with pytest.raises(SystemExit):  # one format at a time
        main(["claims", str(results), "--tsv", "--json"])


def test_number_reads_only_plain_numbers():
    assert [number(x) for x in ["1e-05", "-0.19", "3", "37 +- 11", "", "x"]] == \
        [1e-05, -0.19, 3, None, None, None]


def test_a_run_ends_with_the_verdict_counts_and_the_paths(results, tmp_path_factory,
                                                          monkeypatch, capsys):
    """``mlfsbench run`` (its Snakemake a script that succeeds) ends with the
    robust tally of each study, the path of its claims.tsv, then the summary
    page's path."""
    work = tmp_path_factory.mktemp("w")
    shutil.copytree(results, work / "results")
    (work / "Snakefile").write_text("")
    (work / "results" / "summary.html").write_text("<html></html>")
    exe = work / "fake.py"
    exe.write_text("import sys\n")
    monkeypatch.setattr("mlfsbench.workflow.runner._snakemake_cmd",
                        lambda: [sys.executable, str(exe)])
    monkeypatch.chdir(work)
    assert main(["run", "--cores", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("verdicts")))
    table = [line.split() for line in lines[at + 1:]]
    assert table[0] == ["study", "reproduced", "not", "reproduced", "depends", "not",
                        "checkable", "weak", "claims", "rate", "verdicts"]
    # li: one weak claim not reproduced, one that depends on a reading;
    # spolaor: one reproduced, one not checkable here
    assert table[2:] == [
        ["li", "0", "0", "1", "0", "1", "2", "results/li/tables/claims.tsv"],
        ["old", "1", "0", "0", "0", "0", "1", "100", "%",
         "results/old/tables/claims.tsv"],
        ["spolaor", "1", "0", "0", "1", "0", "2", "100", "%",
         "results/spolaor/tables/claims.tsv"],
        ["all", "2", "0", "1", "1", "1", "5", "100", "%"],
        ["summary:", "results/summary.html"]]


def test_run_verdicts_keep_to_the_run_s_studies(results):
    from mlfsbench.cli.run import run_verdicts

    lines = run_verdicts(results, ["spolaor", "lee"])
    assert [line.split()[0] for line in lines[3:]] == ["spolaor", "all"]
    assert run_verdicts(results, ["lee"]) == []
    assert run_verdicts(results / "nowhere") == []
    # a run whose config has no claims file ends without a word on verdicts
    (results.parent / "plain" / "quick" / "tables").mkdir(parents=True)
    assert run_verdicts(results.parent / "plain", ["quick"]) == []


def test_the_report_layer_reads_the_verdict_tables(results):
    from mlfsbench.report.verdict_tables import (
        claims_folders,
        claims_tables,
        filter_tables,
        verdict_counts,
    )

    assert [s for s, _ in claims_folders(str(results))] == ["li", "old", "spolaor"]
    assert claims_folders(str(results / "li")) == [("li", str(results / "li"))]
    tables = claims_tables(str(results))
    assert "robustness" in dict(tables)["li"].columns  # the robust table
    kept = filter_tables(tables, ["li"], ["depends"])
    assert [(s, t["claim"].tolist()) for s, t in kept] == [
        ("li", ["emotions-best-around-37"])]
    assert verdict_counts(kept) == [["li", "0", "1", "0", "1"],
                                    ["all", "0", "1", "0", "1"]]
    with pytest.raises(ValueError, match="no such folder"):
        claims_folders(str(results / "nowhere"))
