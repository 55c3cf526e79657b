"""The marks in experiment names (mlfsbench.names): one definition, which the
workflow writes names with and the report reads them by."""

from __future__ import annotations

import ast
from pathlib import Path

from mlfsbench.names import CHALLENGE_MARK, VARIANT_MARK
from mlfsbench.report.names import challenge_id
from mlfsbench.report.verdict_tables import claims_folders
from mlfsbench.workflow.readings import variant_name
from mlfsbench.workflow.studies import challenge_name

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "mlfsbench"


def test_each_mark_is_defined_once():
    defined = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign):
                defined += [(t.id, path.relative_to(PACKAGE).as_posix())
                            for t in node.targets if isinstance(t, ast.Name)
                            and t.id in ("CHALLENGE_MARK", "VARIANT_MARK")]
    assert sorted(defined) == [("CHALLENGE_MARK", "names.py"),
                               ("VARIANT_MARK", "names.py")]
    assert (CHALLENGE_MARK, VARIANT_MARK) == ("+", "~")


def test_the_report_reads_the_names_the_workflow_writes(tmp_path):
    assert challenge_id(challenge_name("lee2016", "variance-rank"), []) == (
        "variance-rank")
    # a variant's results folder is not a study of its own
    for name in ("li2017", variant_name("li2017", "mlknn-scale", "scaled")):
        (tmp_path / name / "tables").mkdir(parents=True)
        (tmp_path / name / "tables" / "claims.tsv").write_text("claim\n")
    assert claims_folders(str(tmp_path)) == [("li2017", str(tmp_path / "li2017"))]
