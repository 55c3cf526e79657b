"""The ``fitted`` rule: a number a selector learnt against the paper's, and
the table the runtime stage writes it to."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mlfsbench.report.claims import (
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    Results,
    evaluate_claim,
)
from mlfsbench.report.selections import fitted_table


def results(values) -> Results:
    """``values``: (dataset, fold) -> p_ of selector ``mi``."""
    rows = [{"dataset": d, "split": "given", "fold": f, "selector": "mi",
             "attribute": "p_", "value": float(v)} for (d, f), v in values.items()]
    summary = pd.DataFrame({"dataset": sorted({d for d, _ in values})})
    return Results("nowhere", fitted=pd.DataFrame(rows), summary=summary,
                   datasets=sorted({d for d, _ in values}))


def claim(**kw):
    base = {"id": "p", "statement": "s", "source": "Sec. 5", "reading": "r",
            "rule": "fitted",
            "quantity": {"method": "mi", "attribute": "p_",
                         "datasets": ["yeast", "scene", "emotions"]},
            "paper": {"yeast": 8, "scene": 12, "emotions": 9}, "tolerance": 1}
    return {**base, **kw}


def test_values_within_the_tolerance_on_every_dataset():
    row = evaluate_claim(claim(), results({("yeast", 0): 9, ("scene", 0): 11,
                                           ("emotions", 0): 9}))
    assert row["verdict"] == REPRODUCED
    assert row["ours"] == ("yeast: 9 (paper 8); scene: 11 (paper 12); "
                           "emotions: 9 (paper 9)")
    # scene's 20 is 8 away from the paper's 12: one dataset fails the claim
    row = evaluate_claim(claim(), results({("yeast", 0): 9, ("scene", 0): 20,
                                           ("emotions", 0): 8}))
    assert row["verdict"] == NOT_REPRODUCED
    assert "scene: 20 (paper 12)" in row["ours"]
    # exact: a tolerance of 0
    row = evaluate_claim(claim(tolerance=0), results(
        {("yeast", 0): 9, ("scene", 0): 12, ("emotions", 0): 9}))
    assert row["verdict"] == NOT_REPRODUCED


def test_the_mean_over_folds_and_each_fold_shown():
    row = evaluate_claim(claim(quantity={"method": "mi", "attribute": "p_",
                                         "datasets": ["yeast"]}),
                         results({("yeast", 0): 7, ("yeast", 1): 10}))
    # mean 8.5, within 1 of 8
    assert (row["verdict"], row["ours"]) == (REPRODUCED,
                                             "yeast: 8.5 (folds: 7, 10) (paper 8)")


def test_strictly_inside_a_range():
    q = {"method": "mi", "attribute": "p_", "datasets": ["yeast", "scene"],
         "between": [5, 20]}
    row = evaluate_claim(claim(quantity=q, paper="inside 5..20"),
                         results({("yeast", 0): 6, ("scene", 0): 19}))
    assert row["verdict"] == REPRODUCED
    row = evaluate_claim(claim(quantity=q, paper="inside 5..20"),
                         results({("yeast", 0): 6, ("scene", 0): 20}))
    assert row["verdict"] == NOT_REPRODUCED  # 20 is the range's end


def test_no_record_is_not_checkable():
    row = evaluate_claim(claim(quantity={"method": "mi", "attribute": "k_",
                                         "datasets": ["yeast"]}),
                         results({("yeast", 0): 8}))
    assert row["verdict"] == NOT_CHECKABLE
    assert "mi recorded no k_ on yeast" in row["note"]


def test_the_fitted_table_from_selection_records(tmp_path):
    records = [{"dataset": "yeast", "split": "given", "fold": f, "selector": "s-1",
                "seconds": 0.1, "ranking": [1, 0],
                "fitted": {"p_": p, "k_": 4, "p_grid_": [5, 6], "ok_": True}}
               for f, p in ((1, 9), (0, 8))]
    path = tmp_path / "sel.json"
    path.write_text(json.dumps({"records": records}))
    table = fitted_table([path], tmp_path / "fitted.tsv",
                         labels=[{"selector": "mi", "split": "mulan"}])
    # lists and booleans left out; sorted by fold; the experiment's names
    assert table.to_dict("records") == [
        {"dataset": "yeast", "split": "mulan", "fold": 0, "selector": "mi",
         "attribute": "k_", "value": 4.0},
        {"dataset": "yeast", "split": "mulan", "fold": 0, "selector": "mi",
         "attribute": "p_", "value": 8.0},
        {"dataset": "yeast", "split": "mulan", "fold": 1, "selector": "mi",
         "attribute": "k_", "value": 4.0},
        {"dataset": "yeast", "split": "mulan", "fold": 1, "selector": "mi",
         "attribute": "p_", "value": 9.0}]
    assert (tmp_path / "fitted.tsv").read_text().splitlines()[0] == \
        "dataset\tsplit\tfold\tselector\tattribute\tvalue"


def test_a_fitted_claim_needs_the_papers_values_per_dataset():
    with pytest.raises(ValueError, match="gives the paper's value per dataset"):
        from mlfsbench.report.claims.rules.fitted import Fitted

        Fitted().check(claim(paper=8), results({("yeast", 0): 8}))
