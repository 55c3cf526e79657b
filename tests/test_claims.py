"""The claims stage: every rule on hand-made result tables, each verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mlfsbench.cli import main
from mlfsbench.report.claims import (
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    Results,
    evaluate_claim,
    evaluate_claims,
    load_claims,
    method_aliases,
    write_claims,
)

REPO = Path(__file__).resolve().parents[1]
PAPERS = ["doquire2013", "lee2016", "li2017", "sechidis2019", "spolaor2013"]


def summary_frame() -> pd.DataFrame:
    """Datasets a, b; selectors good/mid/bad; K = 1, 2, all, selected.

    Hamming loss: good 0.10, mid 0.20, bad 0.30 (+0.02 at K = 1, +0.01 on
    b); all features 0.15. On b at K = 1 'mid' beats 'good'. 'bad' has no
    subset at `selected` on a (the paper's "-").
    """
    rows = []
    base = {"good": 0.10, "mid": 0.20, "bad": 0.30}
    for d, shift in (("a", 0.0), ("b", 0.01)):
        for sel, value in base.items():
            for k, extra in (("1", 0.02), ("2", 0.0)):
                v = value + shift + extra
                if d == "b" and k == "1" and sel == "mid":
                    v = 0.05
                rows.append((d, "cv", sel, "c", k, "hamming_loss", v, 0.01, 2))
            rows.append((d, "cv", sel, "c", "all", "hamming_loss", 0.15 + shift,
                         0.01, 2))
            if not (d == "a" and sel == "bad"):
                rows.append((d, "cv", sel, "c", "selected", "hamming_loss",
                             value + shift, 0.001, 2))
                rows.append((d, "cv", sel, "c", "selected", "feature_reduction",
                             99.5 if sel == "good" else 0.0, 0.1, 2))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean", "std",
                                       "folds"])


def stats_result() -> dict:
    return {"metric": "hamming_loss", "n_features": "mean", "n_datasets": 8,
            "n_methods": 4,
            "average_ranks": {"good": 1.2, "mid": 2.1, "bad": 3.9,
                              "all-features": 2.8},
            "iman_davenport": {"F": 5.5, "p_value": 0.001, "critical_value": 2.3,
                               "rejected": True},
            "nemenyi": {"cd": 1.66}, "bonferroni_dunn": {"cd": 1.5}}


@pytest.fixture
def results() -> Results:
    runtime = pd.DataFrame({"dataset": ["a", "a", "b", "b"],
                            "selector": ["good", "mid", "good", "mid"],
                            "mean": [0.5, 1.0, 2.0, 1.0], "std": 0.0, "folds": 2})
    return Results("nowhere", summary=summary_frame(),
                   stats={"hamming_loss": stats_result()}, runtime=runtime)


def claim(rule, **kw):
    return {"id": "c", "statement": "s", "source": "Table 1", "reading": "r",
            "rule": rule, **kw}


def verdict(c, results):
    return evaluate_claim(c, results)


def test_value_within_and_outside_tolerance(results):
    q = {"metric": "hamming_loss", "dataset": "a", "method": "good",
         "n_features": 2}
    row = verdict(claim("value", quantity=q, paper=0.105, tolerance=0.01), results)
    assert row["verdict"] == REPRODUCED
    # mean ± s.d. over the cell's folds, n; the tolerance labelled as such
    # (a bare "±" read like the paper's s.d.)
    assert row["ours"] == "0.1000 ± 0.0100 s.d., n = 2 (difference -0.0050)"
    assert row["paper"] == "0.105 (tolerance ± 0.01)"
    assert (row["ours_sd"], row["n"], row["margin"]) == ("0.0100", "2", "+0.0050")
    # a margin of 0.005 inside the tolerance, half the s.d. of 0.01
    assert row["robust"] == "within fold noise"
    row = verdict(claim("value", quantity=q, paper=0.105, tolerance=0.001), results)
    assert row["verdict"] == NOT_REPRODUCED
    # all features, best and mean over K
    base = {**q, "method": "all-features", "n_features": "all"}
    assert verdict(claim("value", quantity=base, paper=0.15, tolerance=1e-9),
                   results)["verdict"] == REPRODUCED
    best = {**q, "dataset": "b", "method": "mid", "n_features": "best"}
    assert verdict(claim("value", quantity=best, paper=0.05, tolerance=1e-9),
                   results)["verdict"] == REPRODUCED
    mean = {**q, "n_features": "mean"}
    assert verdict(claim("value", quantity=mean, paper=0.11, tolerance=1e-9),
                   results)["verdict"] == REPRODUCED


def test_feature_reduction_value(results):
    q = {"metric": "feature_reduction", "dataset": "a", "method": "good",
         "n_features": "selected"}
    assert verdict(claim("value", quantity=q, paper=99.55, tolerance=0.5),
                   results)["verdict"] == REPRODUCED
    assert verdict(claim("value", quantity=q, paper=90.0, tolerance=0.5),
                   results)["verdict"] == NOT_REPRODUCED


def test_unavailable_dataset_and_unknown_method_are_not_checkable(results):
    q = {"metric": "hamming_loss", "dataset": "llog", "method": "good",
         "n_features": 2}
    c = {**claim("value", quantity=q, paper=0.1, tolerance=0.1),
         "_unavailable": {"llog": "not public"}}
    row = verdict(c, results)
    assert row["verdict"] == NOT_CHECKABLE
    assert "llog: not public" in row["note"]
    named = Results("nowhere", summary=summary_frame(),
                    methods={"good": "good"})
    q = {"metric": "hamming_loss", "dataset": "a", "method": "mid", "n_features": 2}
    row = verdict(claim("value", quantity=q, paper=0.2, tolerance=0.1), named)
    assert row["verdict"] == NOT_CHECKABLE
    assert "'mid' is not in this experiment" in row["note"]
    row = verdict(claim("value", quantity=q, paper=0.2, tolerance=0.1,
                        not_checkable="not implemented"), results)
    assert (row["verdict"], row["note"]) == (NOT_CHECKABLE, "not implemented")


def test_missing_stats_file_is_not_checkable(tmp_path):
    res = Results(tmp_path, summary=summary_frame())
    row = verdict(claim("friedman", quantity={"metric": "coverage"},
                        paper="rejected"), res)
    assert row["verdict"] == NOT_CHECKABLE
    assert "no statistics for coverage" in row["note"]


def test_winner_per_dataset_and_share(results):
    q = {"metric": "hamming_loss", "datasets": ["a", "b"],
         "methods": ["good", "mid", "bad"], "n_features": 1}
    row = verdict(claim("winner", quantity=q, paper="good"), results)
    assert row["verdict"] == NOT_REPRODUCED  # mid wins b at K = 1
    assert row["ours"] == "winner agrees on 1 of 2 (a: good; b: mid)"
    row = verdict(claim("winner", quantity=q, paper="good", min_fraction=0.5),
                  results)
    assert row["verdict"] == REPRODUCED
    row = verdict(claim("winner", quantity=q, paper={"a": "good", "b": "mid"}),
                  results)
    assert row["verdict"] == REPRODUCED


def test_winner_on_rank_score_averaged_over_k(results):
    # b: mid ranks 1st at K = 1 and 2nd at K = 2 (1.5); good 2nd then 1st (1.5)
    q = {"metric": "hamming_loss", "datasets": ["b"],
         "methods": ["good", "mid", "bad"], "n_features": "mean-rank"}
    scores = results.scores("hamming_loss", "b", ["good", "mid", "bad"],
                            "mean-rank")
    assert scores == {"good": 1.5, "mid": 1.5, "bad": 3.0}
    row = verdict(claim("winner", quantity=q, paper="mid"), results)
    assert row["verdict"] == REPRODUCED  # a tie counts for both
    assert verdict(claim("winner", quantity=q, paper="bad"),
                   results)["verdict"] == NOT_REPRODUCED


def test_better_at_best_mean_and_every_k(results):
    q = {"metric": "hamming_loss", "datasets": ["a", "b"], "better": ["good"],
         "worse": ["mid", "all-features"], "n_features": "mean"}
    assert verdict(claim("better", quantity=q), results)["verdict"] == REPRODUCED
    row = verdict(claim("better", quantity={**q, "n_features": "every"}), results)
    assert row["verdict"] == NOT_REPRODUCED
    assert row["ours"] == "holds in 1 of 2 (not on b)"
    row = verdict(claim("better", quantity={**q, "n_features": "best"}), results)
    assert row["verdict"] == NOT_REPRODUCED  # mid's best on b is 0.05


def test_expect_params_guard(results):
    res = Results("nowhere", summary=summary_frame(),
                  methods={"good": "good", "mid": "mid"},
                  params={"good": lambda d: {"granules": 9 if d == "a" else 3}})
    q = {"metric": "hamming_loss", "dataset": "a", "better": ["good"],
         "worse": ["mid"], "n_features": "mean",
         "expect_params": {"good": {"granules": 9}}}
    assert verdict(claim("better", quantity=q), res)["verdict"] == REPRODUCED
    row = verdict(claim("better", quantity={**q, "dataset": "b"}), res)
    assert row["verdict"] == NOT_CHECKABLE
    assert row["note"] == "good runs with granules=3 on b, the claim is about " \
                          "granules=9"
    per_dataset = {**q, "dataset": "b",
                   "expect_params": {"good": {"a": {"granules": 9},
                                              "b": {"granules": 3}}}}
    assert verdict(claim("better", quantity=per_dataset),
                   res)["verdict"] == REPRODUCED


def test_average_rank_best_and_order(results):
    row = verdict(claim("average_rank", quantity={"metric": "hamming_loss",
                                                  "best": "good"}), results)
    assert row["verdict"] == REPRODUCED
    assert row["ours"].startswith("hamming_loss: first: good 1.20")
    assert verdict(claim("average_rank", quantity={"metric": "hamming_loss",
                                                   "best": "mid"}),
                   results)["verdict"] == NOT_REPRODUCED
    q = {"metric": "hamming_loss", "better": ["mid"], "worse": ["all-features"]}
    assert verdict(claim("average_rank", quantity=q),
                   results)["verdict"] == REPRODUCED


def test_significance_better_similar_worse(results):
    q = {"metric": "hamming_loss", "test": "bonferroni_dunn", "method": "good",
         "others": ["all-features"]}
    row = verdict(claim("significance", quantity=q, paper="better"), results)
    assert row["verdict"] == REPRODUCED  # 2.8 - 1.2 = 1.6 > CD 1.5
    assert "rank difference +1.60, CD 1.50" in row["ours"]
    row = verdict(claim("significance", quantity={**q, "test": "nemenyi"},
                        paper="better"), results)
    assert row["verdict"] == NOT_REPRODUCED  # 1.6 < CD 1.66: similar
    q = {**q, "others": ["mid"]}
    assert verdict(claim("significance", quantity=q, paper="similar"),
                   results)["verdict"] == REPRODUCED
    q = {**q, "method": "bad", "others": ["good"]}
    assert verdict(claim("significance", quantity=q, paper="worse"),
                   results)["verdict"] == REPRODUCED


def test_friedman(results):
    c = claim("friedman", quantity={"metric": "hamming_loss"}, paper="rejected")
    row = verdict(c, results)
    assert row["verdict"] == REPRODUCED
    assert row["ours"] == "hamming_loss: F = 5.500, critical 2.300 (rejected)"
    assert verdict({**c, "paper": "not rejected"},
                   results)["verdict"] == NOT_REPRODUCED


def test_empty_subset(results):
    q = {"method": "bad", "datasets": ["a"]}
    row = verdict(claim("empty_subset", quantity=q, paper="empty"), results)
    assert row["verdict"] == REPRODUCED
    assert row["ours"] == "a: subset in 0 of 2 folds"
    q = {"method": "bad", "datasets": ["a", "b"]}
    assert verdict(claim("empty_subset", quantity=q, paper="nonempty"),
                   results)["verdict"] == NOT_REPRODUCED
    q = {"method": "good", "datasets": ["a", "b"]}
    assert verdict(claim("empty_subset", quantity=q, paper="nonempty"),
                   results)["verdict"] == REPRODUCED


def test_degradation_share(results):
    # at `selected` (std 0.001): good 0.10 and 0.11 beat 0.15 and 0.16; mid
    # 0.20/0.21 and bad 0.31 (on b) are worse: 3 of 5 cells degrade
    q = {"metric": "hamming_loss", "methods": ["good", "mid", "bad"]}
    row = verdict(claim("degradation", quantity=q, tolerance=0.1), results)
    assert row["verdict"] == NOT_REPRODUCED
    assert row["ours"] == "3 of 5 cells (60.0 %)"
    assert verdict(claim("degradation", quantity=q, tolerance=0.6),
                   results)["verdict"] == REPRODUCED


def test_fastest(results):
    row = verdict(claim("fastest", quantity={"method": "good"}), results)
    assert row["verdict"] == NOT_REPRODUCED
    assert "b: good 2.00 s, fastest mid 1.00 s" in row["ours"]
    assert verdict(claim("fastest", quantity={"method": "good", "datasets": ["a"]}),
                   results)["verdict"] == REPRODUCED


def test_artificial_problem_checks(results):
    # chi2 (LP, equal-width 5 bins) on problem 1: f5, f15, f11 first
    q = {"problem": 1, "method": "chi2-lp", "params": {}, "repeats": 2,
         "check": "first_set", "features": [4, 14, 10]}
    row = verdict(claim("artificial", quantity=q), results)
    assert (row["verdict"], row["ours"]) == (REPRODUCED, "holds in 2 of 2 draws")
    row = verdict(claim("artificial", quantity={**q, "check": "first",
                                                 "features": [0]}), results)
    assert (row["verdict"], row["ours"]) == (NOT_REPRODUCED,
                                              "holds in 0 of 2 draws")


def test_evaluate_claims_filters_by_experiment(results):
    data = {"study": "s", "paper": "p", "experiment": "x",
            "claims": [claim("friedman", quantity={"metric": "hamming_loss"},
                             paper="rejected"),
                       {**claim("friedman", quantity={"metric": "hamming_loss"},
                                paper="rejected"), "id": "d", "experiment": "y"}]}
    table = evaluate_claims(data, "x", results)
    assert table["claim"].tolist() == ["c"]
    assert table.columns.tolist() == ["claim", "statement", "source", "paper",
                                      "printed", "ours", "ours_sd", "n", "margin",
                                      "robust", "verdict", "note"]


@pytest.mark.parametrize("paper", PAPERS)
def test_shipped_claims_files_validate(paper):
    data = load_claims(REPO / "config" / "papers" / f"{paper}.claims.yaml")
    assert len(data["claims"]) >= 5
    assert all(c["reading"].strip() for c in data["claims"])
    experiment = yaml.safe_load((REPO / "config" / "papers" / f"{paper}.yaml")
                                .read_text())["experiments"][paper]
    assert experiment["claims"] == f"config/papers/{paper}.claims.yaml"


def test_li2017_claims_say_intermediate_granules_are_best():
    data = load_claims(REPO / "config" / "papers" / "li2017.claims.yaml")
    by_id = {c["id"]: c for c in data["claims"]}
    medical = by_id["medical-intermediate-best"]["quantity"]
    params = medical["expect_params"]
    assert {params[m]["granules"] for m in medical["better"]} == {5, 9}
    assert {params[m]["granules"] for m in medical["worse"]} == {1, 45}
    emotions = by_id["emotions-per-label-worse"]["quantity"]["expect_params"]
    assert emotions["gmrmr-4"] == {"granules": 6}  # one granule per label: worse


def test_bad_claims_file_names_the_problem(tmp_path):
    path = tmp_path / "x.claims.yaml"
    path.write_text(yaml.safe_dump({"study": "x", "paper": "p", "experiment": "x",
                                    "claims": [claim("value")]}))
    with pytest.raises(ValueError, match="x.claims.yaml: claims/0"):
        load_claims(path)


def test_method_aliases():
    entries = [{"name": "ig-br", "params": {"threshold": 0.01}},
               {"id": "g1", "name": "granular-mrmr", "label": "gmRMR 1"},
               {"id": "g2", "name": "granular-mrmr"}]
    aliases = method_aliases(entries)
    assert aliases["ig-br"].startswith("ig-br-")
    assert aliases["gmRMR 1"] == "g1" and aliases["g2"] == "g2"
    assert "granular-mrmr" not in aliases  # ambiguous


def test_write_claims_and_cli(tmp_path, capsys):
    root = tmp_path / "results" / "x"
    (root / "tables").mkdir(parents=True)
    (root / "stats").mkdir()
    summary_frame().to_csv(root / "tables" / "summary.tsv", sep="\t", index=False)
    (root / "stats" / "hamming_loss.json").write_text(json.dumps(stats_result()))
    claims = tmp_path / "x.claims.yaml"
    claims.write_text(yaml.safe_dump({
        "study": "x", "paper": "p", "experiment": "x",
        "claims": [claim("friedman", quantity={"metric": "hamming_loss"},
                         paper="rejected"),
                   {**claim("value", quantity={"metric": "hamming_loss",
                                               "dataset": "a", "method": "good",
                                               "n_features": 2},
                            paper=0.3, tolerance=0.01), "id": "v"}]}))
    config = {"datasets": ["a", "b"],
              "selectors": [{"name": "good"}, {"name": "mid"}, {"name": "bad"}]}
    out = root / "tables" / "claims.tsv"
    write_claims(claims, "x", config, root, out, root / "tables" / "claims.html")
    table = pd.read_csv(out, sep="\t")
    assert table["verdict"].tolist() == [REPRODUCED, NOT_REPRODUCED]
    html = (root / "tables" / "claims.html").read_text()
    assert "1 reproduced, 1 not reproduced, 0 not checkable here" in html
    assert main(["claims", str(root)]) == 0
    text = capsys.readouterr().out
    assert "not reproduced" in text and "0.3 (tolerance ± 0.01)" in text
    assert main(["claims", str(root), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["verdict"] for r in rows] == [REPRODUCED, NOT_REPRODUCED]
    assert main(["claims", str(tmp_path / "none")]) == 1
    assert "claims stage" in capsys.readouterr().err


def test_smoke_claims_file_validates():
    data = load_claims(REPO / "config" / "smoke.claims.yaml")
    assert [c["rule"] for c in data["claims"]] == ["value", "value", "value"]
    smoke = yaml.safe_load((REPO / "config" / "smoke.yaml").read_text())
    assert smoke["experiments"]["smoke-classifiers"]["claims"] == \
        "config/smoke.claims.yaml"


def test_winner_two_thirds_as_the_sechidis_claims_use_it():
    # 3 datasets, 'good' wins on two: 2/3 >= 0.66 (the claims file's threshold)
    s = summary_frame()
    extra = s[s["dataset"] == "b"].copy()
    extra["dataset"] = "c"
    res = Results("nowhere", summary=pd.concat([s, extra], ignore_index=True))
    q = {"metric": "hamming_loss", "methods": ["good", "mid", "bad"],
         "n_features": 1}
    data = load_claims(REPO / "config" / "papers" / "sechidis2019.claims.yaml")
    threshold = next(c["min_fraction"] for c in data["claims"]
                     if c["id"] == "t2a-hamming-winners")
    row = verdict(claim("winner", quantity=q, paper="good",
                        min_fraction=threshold), res)
    assert row["ours"].startswith("winner agrees on 1 of 3")
    assert row["verdict"] == NOT_REPRODUCED
    row = verdict(claim("winner", quantity=q, paper={"a": "good", "b": "mid",
                                                     "c": "good"},
                        min_fraction=threshold), res)
    assert row["ours"].startswith("winner agrees on 2 of 3")
    assert row["verdict"] == REPRODUCED


def test_average_rank_among_a_subset_recomputes_the_statistics(results):
    # At K = 2 all features (0.15, 0.16) beat mid (0.20, 0.21) on both
    # datasets: among mid, bad and all features, all-features ranks first.
    q = {"metric": "hamming_loss", "best": "mid",
         "among": ["mid", "bad", "all-features"], "n_features": 2}
    row = verdict(claim("average_rank", quantity=q), results)
    assert row["verdict"] == NOT_REPRODUCED
    assert row["ours"].startswith("hamming_loss: first: all-features 1.00")
    q = {**q, "among": ["mid", "bad"]}
    row = verdict(claim("average_rank", quantity=q), results)
    assert row["verdict"] == REPRODUCED
    assert "(N = 2)" in row["ours"]
