"""Claims judged under every reading (mlfsbench.report.readings): the
robustness word of each claim and the tables of the readings rule."""

from __future__ import annotations

import pandas as pd
import pytest

from mlfsbench.cli import main as cli_main
from mlfsbench.report.readings import (
    combine_readings,
    read_robust,
    robustness,
    write_readings,
)

R, N, C = "reproduced", "not reproduced", "not checkable here"
READINGS = {
    "mlknn-scale": {"about": "", "favoured": "raw",
                    "options": {"raw": {}, "scaled": {}}},
    "grid": {"about": "", "favoured": "paper-figure",
             "options": {"paper-figure": {}, "union": {}}},
}


def verdicts(**by_claim) -> pd.DataFrame:
    """A claims table: claim -> verdict, ours the verdict's first letter."""
    return pd.DataFrame(
        [{"claim": c, "statement": f"{c} holds", "source": "Fig. 1", "paper": "x",
          "ours": v[0], "verdict": v, "note": ""} for c, v in by_claim.items()])


@pytest.mark.parametrize("grid, word", [
    ({"s": {"a": R, "b": R}, "g": {"p": R, "u": R}}, "reproduced under every reading"),
    ({"s": {"a": N, "b": N}, "g": {"p": N, "u": N}},
     "not reproduced under every reading"),
    ({"s": {"a": C, "b": C}}, "not checkable here under every reading"),
    ({"s": {"a": R, "b": N}, "g": {"p": R, "u": R}}, "depends on s: reproduced with a"),
    ({"s": {"a": N, "b": R}, "g": {"p": N, "u": R}},
     "depends on s: reproduced with b; g: reproduced with u"),
    # an option that could not judge the claim (a variant run on fewer
    # datasets) does not make the verdict depend on its reading
    ({"s": {"a": N, "b": C}, "g": {"p": N, "u": N}},
     "not reproduced under every reading that judged it (not judged with s=b)"),
    ({"s": {"a": R, "b": N, "c": C}, "g": {"p": R, "u": "absent"}},
     "depends on s: reproduced with a (not judged with s=c, g=u)"),
    ({"s": {"a": C, "b": R}}, "reproduced under every reading that judged it "
                              "(not judged with s=a)"),
])
def test_robustness_words(grid, word):
    assert robustness(grid) == word


def test_combine_puts_every_reading_beside_the_favoured_verdict():
    main = verdicts(a=R, b=N, c=R, d=N)
    scaled = verdicts(a=R, b=R, c=N, d=N)
    union = verdicts(a=R, b=N, c=R, d=R)
    long, robust = combine_readings(
        main, [("mlknn-scale", "scaled", scaled), ("grid", "union", union)], READINGS)
    # the favoured table stays as it is, columns and verdicts, in its order
    assert robust[list(main.columns)].equals(main)
    assert robust["robustness"].tolist() == [
        "reproduced under every reading",
        "depends on mlknn-scale: reproduced with scaled",
        "depends on mlknn-scale: reproduced with raw",
        "depends on grid: reproduced with union"]
    assert robust["verdict:mlknn-scale=scaled"].tolist() == [R, R, N, N]
    assert robust["verdict:grid=union"].tolist() == [R, N, R, R]
    assert set(robust["favoured"]) == {"mlknn-scale=raw, grid=paper-figure"}
    # readings.tsv: claim x (reading, option), the favoured ones marked
    assert len(long) == 4 * 4
    rows = long[long["claim"] == "b"].set_index(["reading", "option"])
    assert rows["verdict"].to_dict() == {
        ("mlknn-scale", "raw"): N, ("mlknn-scale", "scaled"): R,
        ("grid", "paper-figure"): N, ("grid", "union"): N}
    assert rows["favoured"].to_dict() == {
        ("mlknn-scale", "raw"): "yes", ("mlknn-scale", "scaled"): "",
        ("grid", "paper-figure"): "yes", ("grid", "union"): ""}
    assert rows.loc[("mlknn-scale", "scaled"), "ours"] == "r"


def test_a_claim_missing_under_a_reading_and_a_missing_variant():
    long, robust = combine_readings(
        verdicts(a=R, b=R), [("mlknn-scale", "scaled", verdicts(a=R)),
                             ("grid", "union", verdicts(a=R, b=R))], READINGS)
    assert robust["robustness"].tolist() == [
        "reproduced under every reading",
        "reproduced under every reading that judged it "
        "(not judged with mlknn-scale=scaled)"]
    assert robust["verdict:mlknn-scale=scaled"].tolist() == [R, "absent"]
    with pytest.raises(ValueError, match="no verdict table for .*grid=union"):
        combine_readings(verdicts(a=R), [("mlknn-scale", "scaled", verdicts(a=R))],
                         READINGS)


def test_written_tables_and_the_claims_command(tmp_path, capsys):
    root = tmp_path / "results"
    paths = {}
    for name, table in {"s": verdicts(a=R, b=N), "s~mlknn-scale-scaled":
                        verdicts(a=R, b=R), "s~grid-union": verdicts(a=R, b=N)}.items():
        (root / name / "tables").mkdir(parents=True)
        paths[name] = root / name / "tables" / "claims.tsv"
        table.to_csv(paths[name], sep="\t", index=False)
    tables = root / "s" / "tables"
    robust = write_readings(
        paths["s"], [("mlknn-scale", "scaled", paths["s~mlknn-scale-scaled"]),
                     ("grid", "union", paths["s~grid-union"])],
        READINGS, tables / "readings.tsv", tables / "robust_claims.tsv")
    again = read_robust(root / "s")
    assert again.equals(robust.astype(str))
    assert read_robust(root / "s~grid-union") is None
    assert cli_main(["claims", str(root / "s")]) == 0
    out = capsys.readouterr().out
    assert ("    readings: not reproduced under mlknn-scale=raw, grid=paper-figure "
            "(favoured); mlknn-scale=scaled: reproduced; grid=union: not reproduced\n"
            "    robustness: depends on mlknn-scale: reproduced with scaled") in out
    # results/: one study (its variants are shown inside it)
    assert cli_main(["claims", str(root)]) == 0
    out = capsys.readouterr().out
    assert "s~grid-union" not in out and "s~mlknn-scale-scaled" not in out
    assert "robustness: reproduced under every reading" in out
    # the verdict counts under each reading, the favoured first
    counts = out.split("\n\n")[-1].splitlines()
    assert counts[0].split() == ["study", "reading", "reproduced", "not", "reproduced",
                                 "not", "checkable", "here", "claims"]
    assert [line.split() for line in counts[2:]] == [
        ["s", "mlknn-scale=raw,", "grid=paper-figure", "(favoured)",
         "1", "1", "0", "2"],
        ["s", "mlknn-scale=scaled", "2", "0", "0", "2"],
        ["s", "grid=union", "1", "1", "0", "2"]]


# ---------------------------------------------------------------- issue 34
def with_datasets(table: pd.DataFrame, **datasets) -> pd.DataFrame:
    return table.assign(datasets=[datasets.get(c, "") for c in table["claim"]])


def test_l5_an_option_judged_on_other_datasets_did_not_judge_the_claim():
    # Lee 2016's glmfit reading ran on yeast and genbase only: its verdict on
    # a claim over eight datasets judged another claim
    spec = {"solver": {"favoured": "lbfgs", "options": {"lbfgs": {}, "glmfit": {}}}}
    main = with_datasets(verdicts(a=N, b=N), a="bibtex,enron,genbase,yeast",
                         b="yeast")
    glmfit = with_datasets(verdicts(a=R, b=R), a="genbase,yeast", b="yeast")
    long, robust = combine_readings(main, [("solver", "glmfit", glmfit)], spec)
    assert robust["robustness"].tolist() == [
        "not reproduced under every reading that judged it "
        "(not judged with solver=glmfit)",
        "depends on solver: reproduced with glmfit"]
    # the readings table keeps the variant's own verdict and its datasets
    row = long[(long["claim"] == "a") & (long["option"] == "glmfit")].iloc[0]
    assert (row["verdict"], row["datasets"]) == (R, "genbase,yeast")


def test_l6_a_claim_not_checkable_under_the_favoured_readings_is_never_reproduced():
    spec = {"grid": {"favoured": "paper", "options": {"paper": {}, "extended": {}}}}
    long, robust = combine_readings(verdicts(a=C), [("grid", "extended",
                                                     verdicts(a=R))], spec)
    word = robust["robustness"].iloc[0]
    assert word == ("not checkable here under the favoured readings "
                    "(reproduced with grid=extended)")
    assert not word.startswith(("reproduced", "depends"))


def test_a_probe_is_shown_but_makes_no_claim_depend():
    spec = {"scale": {"favoured": "raw", "options": {"raw": {}, "scaled": {}}},
            "grid": {"favoured": "paper", "probe": True,
                     "options": {"paper": {}, "union": {}}}}
    long, robust = combine_readings(
        verdicts(a=R, b=N), [("scale", "scaled", verdicts(a=R, b=N)),
                             ("grid", "union", verdicts(a=N, b=N))], spec)
    assert robust["robustness"].tolist() == [
        "reproduced under every reading; probe grid=union: not reproduced",
        "not reproduced under every reading"]
    assert set(robust["favoured"]) == {"scale=raw"}
    assert long[long["reading"] == "grid"]["probe"].tolist() == ["yes"] * 4


def test_scoring_readings_join_the_experiment_readings(tmp_path):
    # the claims stage's scoring.tsv: every claim under each option of the
    # claims file's readings, the favoured ones marked
    scoring = pd.DataFrame(
        [["a", "test", "sd", "yes", R, "r", ""],
         ["b", "test", "sd", "yes", N, "n", ""],
         ["a", "test", "paired", "", R, "r", ""],
         ["b", "test", "paired", "", R, "r", ""]],
        columns=["claim", "reading", "option", "favoured", "verdict", "ours",
                 "datasets"])
    paths = {}
    for name, table in {"main": verdicts(a=R, b=N), "scoring": scoring,
                        "scaled": verdicts(a=N, b=N)}.items():
        paths[name] = tmp_path / f"{name}.tsv"
        table.to_csv(paths[name], sep="\t", index=False)
    spec = {"scale": {"favoured": "raw", "options": {"raw": {}, "scaled": {}}}}
    robust = write_readings(paths["main"], [("scale", "scaled", paths["scaled"])],
                            spec, tmp_path / "readings.tsv", tmp_path / "robust.tsv",
                            scoring=paths["scoring"])
    assert robust["robustness"].tolist() == [
        "depends on scale: reproduced with raw",
        "depends on test: reproduced with paired"]
    assert set(robust["favoured"]) == {"scale=raw, test=sd"}
    assert robust["verdict:test=paired"].tolist() == [R, R]
