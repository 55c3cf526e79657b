"""``mlfsbench stats TABLE.csv``: ranks, Friedman, Iman-Davenport, post-hoc tests."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats as ss

from mlfsbench.cli import main
from mlfsbench.evaluation.stats import critical_difference

# Hamming loss of four methods on six datasets (lower is better); "best" wins
# everywhere, "worst" loses everywhere.
ROWS = [
    ("emotions", 0.20, 0.22, 0.25, 0.30),
    ("yeast", 0.19, 0.20, 0.21, 0.24),
    ("scene", 0.09, 0.11, 0.10, 0.14),
    ("enron", 0.05, 0.06, 0.06, 0.07),
    ("medical", 0.01, 0.02, 0.015, 0.03),
    ("genbase", 0.001, 0.004, 0.003, 0.006),
]
METHODS = ["best", "second", "third", "worst"]


def _write(path, sep):
    lines = [sep.join(["dataset", *METHODS])]
    lines += [sep.join([name, *map(str, values)]) for name, *values in ROWS]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("sep", "name"), [(",", "t.csv"), ("\t", "t.tsv")])
def test_stats_json(tmp_path, capsys, sep, name):
    table = _write(tmp_path / name, sep)
    out = _run(capsys, ["stats", str(table), "--control", "best", "--json"])
    assert out["datasets"] == [r[0] for r in ROWS]
    assert out["methods"] == METHODS
    # ranks per dataset: best 1 everywhere, worst 4; second/third share 2.5
    # on enron, third beats second on scene, medical and genbase:
    # second (2 + 2 + 3 + 2.5 + 3 + 3) / 6 = 31/12, third 29/12
    assert out["average_ranks"]["best"] == 1.0
    assert out["average_ranks"]["worst"] == 4.0
    assert out["average_ranks"]["second"] == pytest.approx(31 / 12)
    assert out["average_ranks"]["third"] == pytest.approx(29 / 12)
    values = np.array([r[1:] for r in ROWS])
    ref = ss.friedmanchisquare(*values.T)
    # 12 N / (k (k + 1)) (sum R^2 - k (k + 1)^2 / 4)
    #   = 3.6 * (1 + (31/12)^2 + (29/12)^2 + 16 - 25) = 16.25;
    # one tie (enron): the uncorrected statistic is slightly below scipy's
    assert out["friedman"]["chi2"] == pytest.approx(16.25)
    assert out["friedman"]["chi2"] < ref.statistic
    N, k = 6, 4
    chi2 = out["friedman"]["chi2"]
    assert out["iman_davenport"]["F"] == pytest.approx((N - 1) * chi2 / (N * (k - 1)
                                                                        - chi2))
    assert out["iman_davenport"]["critical_value"] == pytest.approx(
        ss.f.ppf(0.95, 3, 15))
    assert out["nemenyi"]["cd"] == pytest.approx(critical_difference(4, 6))
    assert out["bonferroni_dunn"]["cd"] == pytest.approx(
        critical_difference(4, 6, test="bonferroni-dunn"))
    assert ["best", "worst"] in out["nemenyi"]["significant_pairs"]
    assert out["bonferroni_dunn"]["control"] == "best"
    assert out["bonferroni_dunn"]["significant"] == ["worst"]


def test_higher_is_better_reverses_ranks(tmp_path, capsys):
    table = _write(tmp_path / "t.csv", ",")
    out = _run(capsys, ["stats", str(table), "--higher-is-better", "--json"])
    assert out["average_ranks"]["worst"] == 1.0
    assert out["average_ranks"]["best"] == 4.0
    assert out["higher_is_better"] is True
    assert "significant" not in out["bonferroni_dunn"]  # no control given


def test_alpha_changes_critical_values(tmp_path, capsys):
    table = _write(tmp_path / "t.csv", ",")
    strict = _run(capsys, ["stats", str(table), "--alpha", "0.01", "--json"])
    loose = _run(capsys, ["stats", str(table), "--alpha", "0.10", "--json"])
    assert strict["nemenyi"]["cd"] > loose["nemenyi"]["cd"]
    assert strict["alpha"] == 0.01


def test_text_output(tmp_path, capsys):
    table = _write(tmp_path / "t.csv", ",")
    assert main(["stats", str(table), "--control", "best"]) == 0
    out = capsys.readouterr().out
    assert "rank\tbest\t1.0000" in out
    assert "friedman_chi2\t16.25" in out
    assert "bonferroni_dunn_significant\tbest\tworst" in out


def test_errors(tmp_path, capsys):
    table = _write(tmp_path / "t.csv", ",")
    assert main(["stats", str(table), "--control", "nobody", "--json"]) == 1
    assert "nobody" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("dataset,a,b\nx,0.1,\ny,0.2,0.3\n", encoding="utf-8")
    assert main(["stats", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.csv" in err and "missing" in err
    text = tmp_path / "text.csv"
    text.write_text("dataset,a,b\nx,0.1,high\ny,0.2,0.3\n", encoding="utf-8")
    assert main(["stats", str(text)]) == 1
    assert "non-numeric" in capsys.readouterr().err
    assert main(["stats", str(tmp_path / "absent.csv")]) == 1
    assert "absent.csv" in capsys.readouterr().err


def test_stats_round_reports_rounded_and_unrounded_ranks(tmp_path, capsys):
    # a and b differ only in the 4th decimal: tied at 3 decimals
    path = tmp_path / "t.csv"
    path.write_text("dataset,a,b,c\nd1,0.1101,0.1104,0.2\n"
                    "d2,0.3004,0.3001,0.1\nd3,0.0504,0.0496,0.06\n", encoding="utf-8")
    out = _run(capsys, ["stats", str(path), "--round", "3", "--json"])
    assert out["rounded"]["decimals"] == 3
    assert out["rounded"]["average_ranks"] == pytest.approx(
        {"a": 5.5 / 3, "b": 5.5 / 3, "c": 7 / 3})
    assert out["average_ranks"] == pytest.approx({"a": 2.0, "b": 5 / 3, "c": 7 / 3})
    assert main(["stats", str(path), "--round", "3"]) == 0
    text = capsys.readouterr().out
    assert "rounded_rank\ta\t1.8333" in text
    assert "\nrank\tb\t1.6667" in text


def _no_constants(name):
    raise ValueError(f"not JSON: {name}")


def test_identical_ranks_give_strict_json(tmp_path, capsys):
    # every dataset ranks the methods alike: Friedman's chi2 is N (k - 1) and
    # Iman-Davenport's F infinite, which JSON cannot hold
    table = tmp_path / "t.csv"
    table.write_text("dataset,a,b,c\nd1,1,2,3\nd2,1,2,3\nd3,2,3,4\n",
                     encoding="utf-8")
    assert main(["stats", str(table), "--json"]) == 0
    out = json.loads(capsys.readouterr().out, parse_constant=_no_constants)
    assert out["friedman"]["chi2"] == pytest.approx(6.0)
    assert out["iman_davenport"]["F"] is None
    assert out["iman_davenport"]["F_note"] == "inf (not representable in JSON)"
    assert out["iman_davenport"]["p_value"] == 0.0


def test_workflow_stats_file_is_strict_json(tmp_path):
    from mlfsbench.io import write_json

    write_json(tmp_path / "s.json", {"F": float("inf"), "x": [float("nan"), 1.5],
                                     "y": np.float64(-np.inf)})
    out = json.loads((tmp_path / "s.json").read_text(), parse_constant=_no_constants)
    assert out == {"F": None, "F_note": "inf (not representable in JSON)",
                   "x": [None, 1.5], "y": None,
                   "y_note": "-inf (not representable in JSON)"}


@pytest.mark.parametrize("name", ["NA", "nan", "null", "None"])
def test_dataset_named_like_a_missing_value_keeps_its_name(tmp_path, capsys, name):
    table = tmp_path / "t.csv"
    table.write_text(f"dataset,a,b\n{name},0.1,0.2\nyeast,0.3,0.1\n",
                     encoding="utf-8")
    assert main(["stats", str(table), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["datasets"] == [name, "yeast"]


def test_help_offers_the_bayesian_test_and_effect_sizes(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["stats", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "the Bayesian signed-rank test over the datasets (Benavoli et al. 2017)" \
        in text
    assert "equivalent within the region of practical equivalence (--rope)" in text
    assert "Cliff's delta (positive: the first better) with its magnitude " \
        "(negligible, small, medium, large; Romano et al. 2006)" in text
    # the option itself (its help wraps with the terminal's width)
    rope = text[text.index("--rope R region"):]
    assert rope.startswith("--rope R region of practical equivalence of the Bayesian")
    assert "(default: 0.01); Cliff's delta is reported beside it" in rope
