"""The comparison stage: method tables, tests, runtimes and stability."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import friedmanchisquare

from mlfsbench.report.compare import (
    compare,
    mean_rank_table,
    method_table,
    ranks_table,
    write_comparison,
)
from mlfsbench.report.selections import runtime_table, stability_table


def summary_frame() -> pd.DataFrame:
    """4 datasets x 3 selectors x K in {1, 2, all}; 'good' always best."""
    rows = []
    base = {"good": 0.10, "mid": 0.20, "bad": 0.30}
    for d, shift in zip("abcd", (0.0, 0.01, 0.02, 0.05), strict=True):
        for sel, value in base.items():
            for k, extra in (("1", 0.02), ("2", 0.0)):
                rows.append((d, "cv", sel, "mlknn", k, "hamming_loss",
                             value + shift + extra))
            rows.append((d, "cv", sel, "mlknn", "all", "hamming_loss", 0.15 + shift))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean"])


def test_method_table_mean_and_single_k():
    s = summary_frame()
    t = method_table(s, "hamming_loss", "mean")
    assert list(t.columns) == ["bad", "good", "mid", "all-features"]
    assert t.loc["a", "good"] == pytest.approx(0.11)
    assert t.loc["d", "all-features"] == pytest.approx(0.20)
    assert method_table(s, "hamming_loss", 2).loc["b", "mid"] == pytest.approx(0.21)
    with pytest.raises(ValueError, match="no results at 7"):
        method_table(s, "hamming_loss", 7)


def test_compare_matches_scipy_friedman():
    res = compare(summary_frame(), "hamming_loss", n_features=2, control="good")
    assert res["average_ranks"] == {"bad": 4.0, "good": 1.0, "mid": 3.0,
                                    "all-features": 2.0}
    t = method_table(summary_frame(), "hamming_loss", 2)
    chi2, p = friedmanchisquare(*[t[c] for c in t.columns])
    assert res["friedman"]["chi2"] == pytest.approx(chi2)
    assert res["friedman"]["p_value"] == pytest.approx(p)
    assert res["bonferroni_dunn"]["control"] == "good"


def test_mean_rank_table_averages_ranks_over_k():
    t = mean_rank_table(summary_frame(), "hamming_loss")
    assert t.loc["a"].to_dict() == {"bad": 3.0, "good": 1.0, "mid": 2.0}


def test_compare_skips_with_one_dataset(tmp_path):
    s = summary_frame()
    s = s[s["dataset"] == "a"]
    s.to_csv(tmp_path / "s.tsv", sep="\t", index=False)
    res = write_comparison(tmp_path / "s.tsv", "hamming_loss", tmp_path / "h.json",
                           tmp_path / "h.png")
    assert res["skipped"] == "needs at least 2 datasets, this run has 1"
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"
    table = ranks_table([tmp_path / "h.json"], tmp_path / "r.tsv")
    assert table["note"].iloc[0] == res["skipped"]


def test_compare_says_a_dataset_without_every_method_left_one():
    s = summary_frame()
    s = s[s["dataset"].isin(["a", "b"])
          & ~((s["dataset"] == "b") & (s["selector"] == "mid"))]
    res = compare(s, "hamming_loss", n_features=1)
    assert res["datasets_without_all_methods"] == ["b"]
    assert res["skipped"] == ("needs at least 2 datasets, this run has 1 with "
                              "every method's results (b lacks some)")


def test_write_comparison_draws_a_cd_diagram(tmp_path):
    summary_frame().to_csv(tmp_path / "s.tsv", sep="\t", index=False)
    write_comparison(tmp_path / "s.tsv", "hamming_loss", tmp_path / "h.json",
                     tmp_path / "h.png", n_features="mean")
    from matplotlib.image import imread

    image = imread(tmp_path / "h.png")
    assert image.shape[0] > 100 and image.shape[1] > 500
    assert image[..., :3].std() > 0.05  # not a blank image
    res = json.loads((tmp_path / "h.json").read_text())
    assert res["average_ranks"]["good"] == 1.0


def write_selection(root, dataset, folds, selector, rankings, seconds):
    """A batch selection file: its records carry their keys (the file's name
    says nothing)."""
    path = root / f"batch{len(list(root.iterdir()))}.json"
    records = [{"dataset": dataset, "split": "kfold-k3-seed0", "fold": fold,
                "selector": selector, "ranking": ranking, "seconds": sec}
               for fold, ranking, sec in zip(folds, rankings, seconds, strict=True)]
    path.write_text(json.dumps({"records": records}))
    return path


def test_runtime_and_stability_tables(tmp_path):
    paths = [
        write_selection(tmp_path, "d", [0, 1], "s-cache",
                        [[0, 1, 2, 3], [0, 1, 3, 2]], [1.0, 3.0]),
        write_selection(tmp_path, "d", [2], "s-cache", [[0, 2, 1, 3]], [2.0]),
    ]
    labels = [{"split": "cv", "selector": "s"}] * 2
    rt = runtime_table(paths, tmp_path / "rt.tsv", labels=labels)
    assert rt[["dataset", "selector"]].to_numpy().tolist() == [["d", "s"]]
    assert rt[["mean", "folds"]].to_numpy().tolist() == [[2.0, 3]]
    # without labels the records' own keys name the rows
    assert runtime_table(paths, tmp_path / "rt2.tsv")["selector"].tolist() == [
        "s-cache"]
    st = stability_table(paths, [1, 2, 4, "all", "selected"],
                         tmp_path / "st.tsv", labels=labels)
    assert set(st["split"]) == {"cv"}
    assert st["n_features"].tolist() == [1, 2]
    # K=1: every fold picks feature 0 -> perfectly stable.
    assert st["stability"].iloc[0] == pytest.approx(1.0)
    # K=2: Z rows {0,1}, {0,1}, {0,2}; Nogueira's estimator by hand:
    # p = (1, 2/3, 1/3, 0), s2_f = M/(M-1) p(1-p) = (0, 1/3, 1/3, 0),
    # k_bar = 2, d = 4: 1 - mean(s2) / (k/d (1 - k/d)) = 1 - (1/6) / (1/4) = 1/3.
    assert st["stability"].iloc[1] == pytest.approx(1 / 3)
    assert np.isfinite(st[["ci_low", "ci_high"]].to_numpy()).all()


def test_compare_names_the_datasets_left_out_for_a_missing_result():
    s = summary_frame()
    gone = (s["dataset"] == "b") & (s["selector"] == "mid")
    res = compare(s[~gone], "hamming_loss", n_features=2)
    assert res["datasets_without_all_methods"] == ["b"]
    assert "b" not in res["table"]["good"]
    full = compare(s, "hamming_loss", n_features=2)
    assert "datasets_without_all_methods" not in full
    assert res["n_datasets"] == full["n_datasets"] - 1


def rounding_summary() -> pd.DataFrame:
    """a and b differ in the 4th decimal only (see test_stats' rounding table)."""
    values = {"d1": (0.1101, 0.1104, 0.2), "d2": (0.3004, 0.3001, 0.1),
              "d3": (0.0504, 0.0496, 0.06)}
    rows = [(d, "cv", sel, "br-lr", "50", "hamming_loss", v)
            for d, vals in values.items()
            for sel, v in zip("abc", vals, strict=True)]
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean"])


def test_compare_round_ranks_printed_values_and_keeps_unrounded(tmp_path):
    res = compare(rounding_summary(), "hamming_loss", n_features=50, control="a",
                  round=3)
    assert res["round"] == 3
    assert res["average_ranks"] == pytest.approx({"a": 2.0, "b": 5 / 3, "c": 7 / 3})
    assert res["rounded"]["decimals"] == 3
    assert res["rounded"]["average_ranks"] == pytest.approx(
        {"a": 5.5 / 3, "b": 5.5 / 3, "c": 7 / 3})
    plain = compare(rounding_summary(), "hamming_loss", n_features=50)
    assert plain["round"] is None and "rounded" not in plain
    path = tmp_path / "hamming_loss.json"
    path.write_text(json.dumps(res), encoding="utf-8")
    table = ranks_table([path], tmp_path / "ranks.tsv")
    row = table.iloc[0]
    assert row["rank:a"] == pytest.approx(2.0)
    assert row["rounded_rank:a"] == pytest.approx(5.5 / 3)
    assert row["rounded_rank:b"] == pytest.approx(5.5 / 3)
    assert row["round"] == 3
    # mean-rank: the means at each K are rounded before ranking
    s = rounding_summary()
    s2 = s.assign(n_features="51")
    both = pd.concat([s, s2])
    mr = compare(both, "hamming_loss", n_features="mean-rank", round=3)
    assert mr["rounded"]["average_ranks"] == pytest.approx(
        {"a": 5.5 / 3, "b": 5.5 / 3, "c": 7 / 3})
    assert mr["average_ranks"]["b"] == pytest.approx(5 / 3)
