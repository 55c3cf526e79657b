"""The leaderboard (issue 39): every method's average rank per experiment
from the ranks and challenge tables, the mean over studies, the sortable
page; invented ranks with hand-computed means, the page in headless
Chromium."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mlfsbench.io import format_table
from mlfsbench.report.leaderboard import (
    average_ranks_by_study,
    leaderboard,
    write_leaderboard,
)

NOTE = "needs at least 2 datasets, this run has 1"


def write(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(format_table(pd.DataFrame(rows)))
    return path


def tables(root: Path) -> tuple[dict, dict]:
    """Invented ranks. s1 ranks a, b, c on two metrics (m3 has no test):
    a (1.5 + 2.0) / 2 = 1.75, b (2.5 + 1.5) / 2 = 2.0, c (2.0 + 2.5) / 2 =
    2.25. s2 ranks a 1.0, d 2.0. The challenge s1+x ranks the challenger x
    with a, b, c: x (1.25 + 2.0) / 2 = 1.625, a (2.0 + 1.5) / 2 = 1.75,
    b (3.0 + 2.5) / 2 = 2.75, c (3.75 + 4.0) / 2 = 3.875. s3 has no test."""
    s1 = write(root / "s1" / "ranks.tsv", [
        {"metric": "m1", "n_features": "mean", "n_datasets": 4, "rank:a": 1.5,
         "rank:b": 2.5, "rank:c": 2.0, "note": None},
        {"metric": "m2", "n_features": "mean", "n_datasets": 4, "rank:a": 2.0,
         "rank:b": 1.5, "rank:c": 2.5, "note": None},
        {"metric": "m3", "n_features": "mean", "note": NOTE}])
    s2 = write(root / "s2" / "ranks.tsv", [
        {"metric": "m1", "n_features": "5", "n_datasets": 3, "rank:a": 1.0,
         "rank:d": 2.0}])
    s3 = write(root / "s3" / "ranks.tsv", [
        {"metric": "m1", "n_features": "5", "note": NOTE}])
    rows = []
    for metric, x, ranks in (("m1", 1.25, {"a": 2.0, "b": 3.0, "c": 3.75}),
                             ("m2", 2.0, {"a": 1.5, "b": 2.5, "c": 4.0})):
        for method, rank in ranks.items():
            rows.append({"experiment": "s1+x", "challenger": "x", "metric": metric,
                         "n_features": "mean", "n_datasets": 4, "n_methods": 4,
                         "challenger_rank": x, "method": method,
                         "method_rank": rank, "note": None,
                         "challenger_name": "Mine"})
    challenge = write(root / "s1+x" / "challenge.tsv", rows)
    return {"s1": s1, "s2": s2, "s3": s3}, {"s1+x": challenge}


def test_average_ranks_by_study_by_hand(tmp_path):
    ranks, challenges = tables(tmp_path)
    out = average_ranks_by_study(ranks, challenges)
    got = {(r["experiment"], r["method"]): r for r in out.to_dict("records")}
    assert list(dict.fromkeys(out["experiment"])) == ["s1", "s2", "s1+x"]
    assert {k: v["average_rank"] for k, v in got.items()} == {
        ("s1", "a"): 1.75, ("s1", "b"): 2.0, ("s1", "c"): 2.25,
        ("s2", "a"): 1.0, ("s2", "d"): 2.0,
        ("s1+x", "a"): 1.75, ("s1+x", "b"): 2.75, ("s1+x", "c"): 3.875,
        ("s1+x", "x"): 1.625}
    assert got["s1", "a"]["n_metrics"] == 2 and got["s2", "a"]["n_metrics"] == 1
    assert got["s1", "a"]["n_datasets"] == 4 and got["s2", "d"]["n_datasets"] == 3
    assert got["s1", "a"]["n_methods"] == 3 and got["s1+x", "a"]["n_methods"] == 4
    assert got["s1+x", "x"]["study"] == "s1"
    assert [k for k, v in got.items() if v["challenger"]] == [("s1+x", "x")]


def test_leaderboard_means_each_study_once(tmp_path):
    table = leaderboard(average_ranks_by_study(*tables(tmp_path)))
    # a: s1 and s1+x are one study, (1.75 + 1.75) / 2, then s2's 1.0: 1.375;
    # b: (2.0 + 2.75) / 2 = 2.375; c: (2.25 + 3.875) / 2 = 3.0625
    assert table["method"].tolist() == ["a", "x", "d", "b", "c"]
    assert table["mean_rank"].tolist() == [1.375, 1.625, 2.0, 2.375, 3.0625]
    assert table["studies"].tolist() == [2, 1, 1, 1, 1]
    assert table["challenger"].tolist() == [False, True, False, False, False]
    row = table.set_index("method")
    # a method that did not run there: no rank (NaN, an empty cell), not 0
    assert pd.isna(row.at["d", "rank:s1"]) and pd.isna(row.at["x", "rank:s2"])
    assert pd.isna(row.at["d", "datasets:s1"]) and row.at["a", "datasets:s2"] == 3


def test_the_files_leave_the_missing_cells_empty(tmp_path):
    ranks, challenges = tables(tmp_path)
    write_leaderboard(ranks, challenges, tmp_path / "leaderboard.html",
                      tmp_path / "leaderboard.tsv", labels={"a": "Alpha"})
    lines = (tmp_path / "leaderboard.tsv").read_text().splitlines()
    head = lines[0].split("\t")
    assert head == ["method", "challenger", "rank:s1", "datasets:s1", "rank:s2",
                    "datasets:s2", "rank:s1+x", "datasets:s1+x", "mean_rank",
                    "studies"]
    d = dict(zip(head, lines[3].split("\t"), strict=True))
    assert d["method"] == "d" and d["rank:s1"] == "" and d["rank:s2"] == "2"
    page = (tmp_path / "leaderboard.html").read_text()
    assert "<td class='' data-value=''></td>" in page
    assert ">0.00<" not in page
    assert "title='a'>Alpha</td>" in page  # labels; the challenger's own name
    assert "<tr id='method-x' class='challenger'>" in page
    assert "Mine <small>(challenger)</small>" in page
    assert "href='s1+x/challenge/index.html'" in page
    assert "href='s1/tables/ranks.html'" in page and "N = 4, k = 3" in page
    assert "<script src" not in page and "<link" not in page  # works offline


def test_no_rank_test_anywhere_says_so(tmp_path):
    ranks, _ = tables(tmp_path)
    table = write_leaderboard({"s3": ranks["s3"]}, {}, tmp_path / "l.html",
                              tmp_path / "l.tsv")
    assert table.empty
    assert (tmp_path / "l.tsv").read_text().split("\t")[:2] == ["method",
                                                                 "challenger"]
    assert "No experiment has a rank test yet." in (tmp_path / "l.html").read_text()


@pytest.mark.parametrize(("rows", "message"), [
    ([{"rank:a": 1.0}], r"ranks.tsv: not a ranks table \(no column metric\)"),
    ([{"metric": "m", "rank:a": 1.0, "rank:b": 2.0}],
     r"ranks.tsv: not a ranks table of this version \(no column n_datasets\)"),
])
def test_a_table_of_another_kind_is_named(tmp_path, rows, message):
    path = write(tmp_path / "ranks.tsv", rows)
    with pytest.raises(ValueError, match=message):
        average_ranks_by_study({"s": path})
    with pytest.raises(ValueError, match=r"ranks.tsv: not a challenge table "
                       r"\(no column challenger, "):
        average_ranks_by_study({}, {"s+x": path})


def test_the_page_sorts_by_a_clicked_column(tmp_path, browser_page):
    ranks, challenges = tables(tmp_path)
    write_leaderboard(ranks, challenges, tmp_path / "leaderboard.html",
                      tmp_path / "leaderboard.tsv")
    page = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "leaderboard.html").as_uri())

    def order() -> list[str]:
        return [i.removeprefix("method-") for i in page.locator(
            "#leaderboard tbody tr").evaluate_all("rs => rs.map(r => r.id)")]

    assert order() == ["a", "x", "d", "b", "c"]  # best mean rank first
    header = page.locator("th#col-s1")
    header.click()  # s1 ascending; d and x did not run there: last
    assert order() == ["a", "b", "c", "x", "d"]
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()  # descending; the empty cells stay last
    assert order() == ["c", "b", "a", "x", "d"]
    page.locator("#leaderboard th", has_text="method").click()
    assert order() == ["a", "b", "c", "d", "x"]
    assert "challenger" in page.locator("tr#method-x").get_attribute("class")
    colour = page.locator("tr#method-x td").first.evaluate(
        "e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(253, 224, 224)"
    assert errors == []


def test_wins_ties_losses_against_the_control_by_hand(tmp_path):
    """The stats stage counts, per dataset, a method's mean against the
    control's; the leaderboard sums them over the metrics. Invented means on
    4 datasets, higher is better (micro F1), round 2: against c,
    a: 0.50 > 0.40 win, 0.304 vs 0.30 -> 0.30 tie, 0.20 < 0.60 loss,
    0.90 > 0.10 win: 2/1/1; b: 0.40 tie, 0.296 -> 0.30 tie, 0.70 win,
    0.05 loss: 1/2/1."""
    from mlfsbench.io import write_json
    from mlfsbench.report.compare import compare, ranks_table

    means = {"a": [0.50, 0.304, 0.20, 0.90], "b": [0.40, 0.296, 0.70, 0.05],
             "c": [0.40, 0.30, 0.60, 0.10]}
    summary = pd.DataFrame([
        {"dataset": f"d{i}", "split": "cv", "selector": m, "classifier": "k",
         "n_features": "5", "metric": "micro_f1", "mean": v}
        for m, vs in means.items() for i, v in enumerate(vs)])
    res = compare(summary, "micro_f1", n_features=5, control="c", round=2)
    vs = res["against_control"]
    assert (vs["control"], vs["decimals"]) == ("c", 2)
    assert vs["wins"] == {"a": 2, "b": 1} and vs["ties"] == {"a": 1, "b": 2}
    assert vs["losses"] == {"a": 1, "b": 1}
    # without round: 3 decimals, the pages' rule; 0.304 and 0.296 differ
    vs3 = compare(summary, "micro_f1", n_features=5, control="c")["against_control"]
    assert vs3["wins"] == {"a": 3, "b": 1} and vs3["ties"] == {"a": 0, "b": 1}
    assert "against_control" not in compare(summary, "micro_f1", n_features=5)
    write_json(tmp_path / "m1.json", res)
    write_json(tmp_path / "m2.json", {**res, "metric": "micro_f1_again"})
    ranks = ranks_table([tmp_path / "m1.json", tmp_path / "m2.json"],
                        tmp_path / "s" / "ranks.tsv")
    assert ranks["control"].tolist() == ["c", "c"]
    assert ranks["wins:a"].tolist() == [2, 2] and "wins:c" not in ranks
    # the challenge s+x: its challenger x against c 1/0/3 on m1, 0/1/3 on
    # m2; the paper method a against c 2/1/1 on m1, 1/1/2 on m2
    rows = [{"experiment": "s+x", "challenger": "x", "metric": metric,
             "n_features": "5", "n_datasets": 4, "n_methods": 3,
             "challenger_rank": 2.0, "method": m, "method_rank": 2.0,
             "wins": w[0], "ties": w[1], "losses": w[2], "control": "c",
             "method_wins": mw[0], "method_ties": mw[1], "method_losses": mw[2]}
            for metric, rows_ in (("m1", [("a", (3, 0, 1), (2, 1, 1)),
                                         ("c", (1, 0, 3), (None,) * 3)]),
                                  ("m2", [("a", (2, 2, 0), (1, 1, 2)),
                                          ("c", (0, 1, 3), (None,) * 3)]))
            for m, w, mw in rows_]
    challenge = write(tmp_path / "s+x" / "challenge.tsv", rows)
    by = average_ranks_by_study({"s": tmp_path / "s" / "ranks.tsv"},
                                {"s+x": challenge})
    got = {(r["experiment"], r["method"]): (r["wins"], r["ties"], r["losses"])
           for r in by.to_dict("records")}
    assert got[("s", "a")] == (4, 2, 2) and got[("s", "b")] == (2, 4, 2)
    assert got[("s+x", "x")] == (1, 1, 6) and got[("s+x", "a")] == (3, 2, 3)
    assert all(pd.isna(v) for v in got[("s", "c")] + got[("s+x", "c")])
    table = write_leaderboard({"s": tmp_path / "s" / "ranks.tsv"},
                              {"s+x": challenge}, tmp_path / "l.html",
                              tmp_path / "l.tsv", labels={"c": "Lee"})
    row = table.set_index("method")
    assert [row.at["a", f"{w}:s"] for w in ("wins", "ties", "losses")] == [4, 2, 2]
    head = (tmp_path / "l.tsv").read_text().splitlines()[0].split("\t")
    assert head[2:7] == ["rank:s", "datasets:s", "wins:s", "ties:s", "losses:s"]
    page = (tmp_path / "l.html").read_text()
    assert "N = 4, k = 3, W/T/L vs Lee</small>" in page
    assert "<small class='wtl'>4/2/2</small>" in page
    assert "<small class='wtl'>1/1/6</small>" in page
    assert page.count("<small class='wtl'>control</small>") == 2


def test_a_study_without_a_control_shows_no_wins_ties_losses(tmp_path):
    ranks, challenges = tables(tmp_path)
    write_leaderboard(ranks, challenges, tmp_path / "l.html", tmp_path / "l.tsv")
    assert "wins:" not in (tmp_path / "l.tsv").read_text()
    page = (tmp_path / "l.html").read_text()
    assert "class='wtl'" not in page and "W/T/L vs" not in page
