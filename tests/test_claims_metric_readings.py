"""Scoring readings that read a claim's metric as one of its scoring variants
(a reading option's ``settings: {metrics: {ranking_loss:
ranking_loss~label-order}}``): values, per-fold comparisons and recomputed
statistics, in the claims stage, from the tables the run has."""

from __future__ import annotations

import pandas as pd
import pytest
import yaml

from mlfsbench.report.claims import (
    NOT_REPRODUCED,
    REPRODUCED,
    Results,
    evaluate_claims,
    load_claims,
)
from mlfsbench.report.claims.evaluate import scoring_variants

COLUMNS = ["dataset", "split", "selector", "classifier", "n_features", "metric",
           "mean", "std", "folds"]


def summary() -> pd.DataFrame:
    """Datasets d1-d3, selectors A and B at K = 1, 2.

    ranking_loss: A 0.10 + 0.01 d, B 0.20 + 0.01 d (A better everywhere);
    ranking_loss~label-order: A the same, B 0.05 + 0.01 d (B better);
    macro_f1 0.5 both, its absent-skip variant A 0.6, B 0.4.
    """
    rows = []
    for i, d in enumerate(("d1", "d2", "d3")):
        for k in ("1", "2"):
            for sel, rl, rl_lo, mf in (("A", 0.10, 0.10, 0.6), ("B", 0.20, 0.05, 0.4)):
                rows += [(d, "cv", sel, "c", k, "ranking_loss", rl + 0.01 * i),
                         (d, "cv", sel, "c", k, "ranking_loss~label-order",
                          rl_lo + 0.01 * i),
                         (d, "cv", sel, "c", k, "macro_f1", 0.5),
                         (d, "cv", sel, "c", k, "macro_f1~absent-skip", mf)]
    frame = pd.DataFrame(rows, columns=COLUMNS[:7])
    return frame.assign(std=0.001, folds=10)


# the run's statistics of ranking_loss (the stats rule's options: mean over K)
STATS = {"metric": "ranking_loss", "n_features": "mean", "round": None,
         "alpha": 0.05, "n_datasets": 3, "average_ranks": {"A": 1.0, "B": 2.0},
         "iman_davenport": {"F": 0.0, "critical_value": 1.0, "rejected": False},
         "bonferroni_dunn": {"control": None, "cd": 1.0}, "nemenyi": {"cd": 1.0}}


@pytest.fixture
def results() -> Results:
    return Results("nowhere", summary=summary(), stats={"ranking_loss": STATS})


def study(**readings) -> dict:
    claims = [
        {"id": "winner-rl", "statement": "A wins", "source": "Fig. 1",
         "reading": "r", "rule": "winner", "paper": "A",
         "quantity": {"metric": "ranking_loss", "methods": ["A", "B"],
                      "n_features": 2}},
        {"id": "rank-rl", "statement": "A ranks first", "source": "Fig. 1",
         "reading": "r", "rule": "average_rank",
         "quantity": {"metric": "ranking_loss", "best": "A"}},
        {"id": "winner-mf", "statement": "A wins on macro-F", "source": "Fig. 2",
         "reading": "r", "rule": "winner", "paper": "A",
         "quantity": {"metric": "macro_f1", "methods": ["A", "B"],
                      "n_features": 2}},
    ]
    return {"study": "s", "paper": "p", "experiment": "x", "claims": claims,
            "readings": readings}


TIES = {"about": "how tied scores rank", "favoured": "label-order",
        "evidence": "the authors' toolkit ranks ties in label order",
        "options": {"label-order": {"settings": {"metrics": {
                        "ranking_loss": "ranking_loss~label-order"}}},
                    "worst-rank": None}}
ABSENT = {"about": "a label absent from the test part", "favoured": "one",
          "evidence": "the authors' toolkit counts it 1",
          "options": {"one": None, "skip": {"settings": {"metrics": {
              "macro_f1": "macro_f1~absent-skip"}}}}}


def test_a_mapped_metric_reads_the_variant(results):
    table = evaluate_claims(study(ties=TIES, absent=ABSENT), "x",
                            results).set_index("claim")
    # under label order B wins every dataset, so "A wins" is not reproduced
    assert table.loc["winner-rl", "verdict"] == NOT_REPRODUCED
    assert "B" in table.loc["winner-rl", "ours"]
    # macro_f1 at its favoured option (1): the measure itself, a tie at 0.5
    # that counts for both
    assert table.loc["winner-mf", "verdict"] == REPRODUCED
    # without readings the same claim reads ranking_loss: A wins
    plain = evaluate_claims(study(), "x", results).set_index("claim")
    assert plain.loc["winner-rl", "verdict"] == REPRODUCED


def test_statistics_of_a_mapped_metric_are_recomputed_from_the_summary(results):
    mapped = results.with_metrics({"ranking_loss": "ranking_loss~label-order"})
    res = mapped.stats("ranking_loss")
    # B better on all three datasets at both K: mean ranks A 2, B 1
    assert res["metric"] == "ranking_loss~label-order"
    assert res["n_features"] == "mean"
    assert res["average_ranks"] == {"A": 2.0, "B": 1.0}
    assert results.stats("ranking_loss") is STATS  # the run's own, unmapped
    table = evaluate_claims(study(ties=TIES), "x", results).set_index("claim")
    assert table.loc["rank-rl", "verdict"] == NOT_REPRODUCED
    assert table.loc["rank-rl", "ours"].startswith("ranking_loss: first: B 1.00")


def test_scoring_variants_judge_each_option_and_touch_only_mapped_claims(results):
    data = study(ties=TIES, absent=ABSENT)
    main = evaluate_claims(data, "x", results)
    rows = scoring_variants(data, "x", results, main)
    by = rows.set_index(["reading", "option", "claim"])["verdict"]
    # ties=worst-rank reads ranking_loss itself: A wins and ranks first
    assert by[("ties", "worst-rank", "winner-rl")] == REPRODUCED
    assert by[("ties", "worst-rank", "rank-rl")] == REPRODUCED
    assert by[("ties", "label-order", "winner-rl")] == NOT_REPRODUCED
    # absent=skip reads macro_f1~absent-skip (A 0.6 > B 0.4) and keeps the
    # ties reading at its favoured option (label order: B wins ranking loss)
    assert by[("absent", "skip", "winner-mf")] == REPRODUCED
    assert by[("absent", "skip", "winner-rl")] == NOT_REPRODUCED
    # a claim on another metric is not touched: its main row
    assert by[("ties", "worst-rank", "winner-mf")] == main.set_index(
        "claim").loc["winner-mf", "verdict"]


def test_scoring_variants_recompute_a_remapped_claim():
    # a claim whose metric the option maps differently is judged again: the
    # macro reading's skip option on a table where skip flips the winner
    s = summary()
    s.loc[s["metric"] == "macro_f1~absent-skip", "mean"] = s.loc[
        s["metric"] == "macro_f1~absent-skip", "selector"].map({"A": 0.3, "B": 0.7})
    res = Results("nowhere", summary=s, stats={"ranking_loss": STATS})
    data = study(absent=ABSENT)
    rows = scoring_variants(data, "x", res, evaluate_claims(data, "x", res))
    by = rows.set_index(["option", "claim"])["verdict"]
    assert by[("one", "winner-mf")] == REPRODUCED
    assert by[("skip", "winner-mf")] == NOT_REPRODUCED


def test_claims_files_check_the_mapping(tmp_path):
    path = tmp_path / "s.claims.yaml"
    path.write_text(yaml.safe_dump(study(ties=TIES)))
    assert load_claims(path)["readings"]["ties"]["favoured"] == "label-order"
    bad = {**TIES, "options": {**TIES["options"], "label-order": {"settings": {
        "metrics": {"ranking_loss": "coverage~label-order"}}}}}
    path.write_text(yaml.safe_dump(study(ties=bad)))
    with pytest.raises(ValueError, match="maps 'ranking_loss' to "
                       "'coverage~label-order', which is not one of its"):
        load_claims(path)
    bad["options"]["label-order"]["settings"]["metrics"] = {"ranking_loss": 3}
    path.write_text(yaml.safe_dump(study(ties=bad)))
    with pytest.raises(ValueError, match="3 is not of type 'string'"):
        load_claims(path)
