"""The package's layers (mlfsbench.layers): every import goes downwards.

The package's modules and the repository's scripts, rules, Snakefile and
benchmarks are read with ``ast`` (the ``.smk`` files' import lines by regular
expression); an import from a lower layer to a higher one, even inside a
function, or of a package module that does not exist, fails.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import mlfsbench
from mlfsbench.layers import LAYERS, check, check_source, layer, smk_imports

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "mlfsbench"


def repository_files() -> list[Path]:
    return [*REPO.glob("scripts/*.py"), *REPO.glob("bench/*.py"),
            *REPO.glob("rules/*.smk"), REPO / "Snakefile"]


def test_every_import_goes_downwards():
    files = repository_files()
    assert len(files) > 30
    assert check(PACKAGE, files) == []


def test_every_module_is_in_a_layer():
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if rel[-1] == "__init__":
            rel = rel[:-1]
        assert layer(".".join(rel)) in LAYERS


def test_the_package_docstring_lists_the_layers_in_order():
    doc = mlfsbench.__doc__
    positions = [doc.index(f":mod:`mlfsbench.{name}`") for name in LAYERS]
    assert positions == sorted(positions)


@pytest.fixture
def package_copy(tmp_path) -> Path:
    copy = tmp_path / "src" / "mlfsbench"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_an_upward_import_in_a_function_fails(package_copy):
    assert check(package_copy) == []
    module = package_copy / "data" / "dataset.py"
    module.write_text(module.read_text() + (
        "\n\ndef _verdicts():\n"
        "    from mlfsbench.report.claims import read_verdicts\n"
        "    return read_verdicts\n"))
    assert check(package_copy) == [
        "mlfsbench.data.dataset (data) imports mlfsbench.report.claims (report)"]


def test_the_report_imports_nothing_of_the_workflow(package_copy):
    module = package_copy / "report" / "names.py"
    module.write_text(module.read_text() + (
        "\n\ndef _ids(entries):\n"
        "    from mlfsbench.workflow.ids import method_id\n"
        "    return [method_id(e) for e in entries]\n"))
    assert check(package_copy) == [
        "mlfsbench.report.names (report) imports mlfsbench.workflow.ids (workflow),"
        " which report may not import"]
    # the layers above may
    assert check_source("from mlfsbench.workflow.ids import method_id\n",
                        "mlfsbench.cli") == []


def test_relative_and_missing_imports_are_resolved(package_copy):
    (package_copy / "estimators" / "extra.py").write_text(
        "from ..workflow import config\nfrom . import registry\n"
        "import mlfsbench.workflow.compare\n")
    assert check(package_copy) == [
        "mlfsbench.estimators.extra imports mlfsbench.workflow.compare, which does"
        " not exist",
        "mlfsbench.estimators.extra (estimators) imports mlfsbench.workflow.config"
        " (workflow)",
    ]


def test_the_rules_import_lines_are_read(package_copy, tmp_path):
    smk = tmp_path / "common.smk"
    smk.write_text("import os\nfrom mlfsbench.workflow.ids import (\n"
                   "    cache_id,\n    method_id,\n)\n\nrule x:\n"
                   "    input: 'a'\n\nfrom mlfsbench.workflow.stages import gone\n"
                   "from mlfsbench.workflow.compare import compare\n")
    assert smk_imports(smk.read_text()).splitlines()[0] == "import os"
    assert check(package_copy, [smk]) == [
        "common.smk imports mlfsbench.workflow.compare, which does not exist"]


def test_a_module_of_no_layer_is_reported():
    with pytest.raises(ValueError, match="in no layer"):
        check_source("x = 1\n", "mlfsbench.plugins.x")
