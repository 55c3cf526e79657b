"""Command-line conventions: --version, help for every option, several
studies' verdicts in one table, a closed pipe, colour only on a terminal."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mlfsbench import __version__
from mlfsbench.cli import build_parser, main
from mlfsbench.cli._common import use_colour
from mlfsbench.cli.methods import method_details
from mlfsbench.cli.run import run_verdicts
from mlfsbench.report.claims import COLUMNS

BIN = Path(sys.executable).parent


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"mlfsbench {__version__}\n"


def test_every_option_of_every_subcommand_has_help():
    parser = build_parser()
    missing = []
    for name, sub in [("mlfsbench", parser), *_subparsers(parser)]:
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            if not (action.help or "").strip():
                flags = "/".join(action.option_strings) or action.dest
                missing.append(f"{name} {flags}")
    assert missing == []


def test_help_texts_are_plain_and_run_help_names_its_options(capsys):
    parser = build_parser()
    texts = {"mlfsbench": parser.format_help()}
    texts.update({name: sub.format_help() for name, sub in _subparsers(parser)})
    assert not [name for name, text in texts.items() if "``" in text]
    run = texts["run"]
    assert "--cores" in run and "--configfile" in run and "--dry-run" in run
    assert "Snakemake" in run and run.endswith("\n")
    assert max(len(line) for line in run.splitlines()) <= 80


def test_run_passes_its_own_options_to_snakemake(monkeypatch):
    seen = {}

    def fake_run(args, workdir, epilogue=None):
        seen["args"] = list(args)
        seen["epilogue"] = epilogue
        return 0

    monkeypatch.setattr("mlfsbench.workflow.runner.run", fake_run)
    assert main(["run", "--cores", "2", "--configfile", "c.yaml", "--",
                 "--dry-run"]) == 0
    assert seen["args"] == ["--cores", "2", "--configfile", "c.yaml", "--dry-run"]
    # a successful run ends with the verdict counts (the runner calls it)
    assert seen["epilogue"] is run_verdicts
    # Snakemake's own options that start like ours are not abbreviations of ours
    assert main(["run", "--cores", "1", "--config", "mirror=x", "--core", "3"]) == 0
    assert seen["args"] == ["--cores", "1", "--config", "mirror=x", "--core", "3"]


def _study(root: Path, name: str, verdicts: list[str]) -> None:
    tables = root / name / "tables"
    tables.mkdir(parents=True)
    rows = [{c: "" for c in COLUMNS} | {"claim": f"{name}-{i}", "verdict": v,
                                        "statement": "s", "source": "Table 1",
                                        "paper": "0.1"}
            for i, v in enumerate(verdicts)]
    pd.DataFrame(rows, columns=COLUMNS).to_csv(tables / "claims.tsv", sep="\t",
                                               index=False)


def test_claims_of_every_study_in_one_table(tmp_path, capsys):
    _study(tmp_path, "b-study", ["reproduced", "not reproduced", "reproduced"])
    _study(tmp_path, "a-study", ["not checkable here"])
    (tmp_path / "shared").mkdir()  # the cache folder holds no verdicts
    assert main(["claims", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "[reproduced] b-study: b-study-0 (Table 1)" in out
    verdicts, robust = out.split("\n\nrobust verdicts")
    counts = [line.split() for line in verdicts.splitlines()[-3:]]
    # study, reproduced, not reproduced, not checkable here, claims
    assert counts == [["a-study", "0", "0", "1", "1"],
                      ["b-study", "2", "1", "0", "3"],
                      ["all", "2", "1", "1", "4"]]
    # the tally a referee signs: robust verdicts, depends, not checkable,
    # weak claims (reproduced, not, other), claims, and the rate over the
    # robust verdicts of the claims that are not weak
    assert [line.split() for line in robust.splitlines()[-3:]] == [
        ["a-study", "0", "0", "0", "1", "0", "0", "0", "1"],
        ["b-study", "2", "1", "0", "0", "0", "0", "0", "3", "67", "%"],
        ["all", "2", "1", "0", "1", "0", "0", "0", "4", "67", "%"]]
    assert out.index("a-study-0") < out.index("b-study-0")
    assert main(["claims", str(tmp_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["study"], r["claim"]) for r in rows] == [
        ("a-study", "a-study-0"), ("b-study", "b-study-0"), ("b-study", "b-study-1"),
        ("b-study", "b-study-2")]


def test_claims_of_a_failed_study_say_why(tmp_path, capsys):
    (tmp_path / "results" / "x" / "tables").mkdir(parents=True)
    log = tmp_path / "logs" / "x" / "claims.log"
    log.parent.mkdir(parents=True)
    log.write_text("Traceback (most recent call last):\n  ...\n"
                   "ValueError: x.claims.yaml: claim 'c1': unknown rule 'max'\n")
    assert main(["claims", str(tmp_path / "results" / "x")]) == 1
    err = capsys.readouterr().err
    assert "unknown rule 'max'" in err and "claims.log" in err


def test_claims_into_a_closed_pipe_is_quiet(tmp_path):
    _study(tmp_path, "s", ["reproduced"] * 5000)
    proc = subprocess.run(
        f"'{BIN / 'mlfsbench'}' claims '{tmp_path}' | head -1",
        shell=True, capture_output=True, text=True, executable="/bin/bash")
    assert proc.stdout == "[reproduced] s-0 (Table 1)\n"
    assert proc.stderr == ""
    direct = subprocess.Popen([str(BIN / "mlfsbench"), "claims", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    direct.stdout.readline()
    direct.stdout.close()
    assert direct.wait(timeout=60) == 0
    assert direct.stderr.read() == b""


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal_without_no_color(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_colour(_Tty()) is True
    assert use_colour(io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_colour(_Tty()) is False
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr(sys, "stdout", _Tty())
    _study(tmp_path, "s", ["not reproduced"])
    assert main(["claims", str(tmp_path / "s")]) == 0
    assert sys.stdout.getvalue().startswith("\033[31m[not reproduced]\033[0m s-0")


def test_methods_show_input_citation_and_origin(capsys):
    assert main(["methods", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    mlknn = info["classifier"]["mlknn"]
    assert (mlknn["input"], mlknn["origin"]) == ("features", "built-in")
    assert mlknn["citation"] == "Zhang & Zhou, 2007"
    assert info["selector"]["mim-br"]["input"] == "discrete"
    assert info["selector"]["rf-br"]["input"] == "continuous"
    assert info["selector"]["ami"]["citation"] == "Lee, Lim & Kim 2012"
    assert method_details("selector", "ami", {"summary": "no citation"})[
        "citation"] == ""
    assert main(["methods"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["kind", "name", "input", "origin", "description"]
    row = next(line for line in lines if " mlknn " in f" {line} ")
    assert row.split()[:4] == ["classifier", "mlknn", "features", "built-in"]
