"""What ``pip install mlfsbench`` brings: every distribution that the package
or its workflow (scripts, rules, Snakefile) imports is a declared dependency.

tests/test_wheel.py installs the wheel beside this environment's packages,
so it cannot see a missing dependency; this test reads the imports."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

from mlfsbench.layers import smk_imports
from mlfsbench.workflow.bundle import workflow_files

from .conftest import REPO_ROOT


def top_level_imports(source: str) -> set[str]:
    """The top-level names of the absolute imports in ``source``, anywhere.

    >>> sorted(top_level_imports("import a.b\\nfrom c import d\\nfrom . import e"))
    ['a', 'c']
    """
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def declared() -> set[str]:
    """The distributions pyproject.toml requires (normalised names)."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    return {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0].lower().replace("_", "-")
            for d in project["dependencies"]}


def test_every_imported_distribution_is_declared():
    sources = [p.read_text() for p in (REPO_ROOT / "src" / "mlfsbench").rglob("*.py")]
    for rel in workflow_files(REPO_ROOT):
        text = (REPO_ROOT / rel).read_text()
        if rel.endswith(".py"):
            sources.append(text)
        elif rel.endswith(".smk") or rel == "Snakefile":
            sources.append(smk_imports(text))
    modules = set().union(*map(top_level_imports, sources))
    modules -= {*sys.stdlib_module_names, "__future__", "mlfsbench"}
    owners = packages_distributions()
    imported = {owners[m][0].lower() for m in modules}
    assert {"snakemake", "numpy", "liac-arff", "pillow"} <= imported
    assert imported - declared() == set()
