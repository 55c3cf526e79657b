"""The package imports no private name of another module."""

from __future__ import annotations

import ast

from .conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "src" / "mlfsbench"


def private_imports(folder):
    """``(file, module, name)`` for every ``from mlfsbench.X import _name``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "mlfsbench"):
                found += [(path.relative_to(PACKAGE).as_posix(), node.module, a.name)
                          for a in node.names if a.name.startswith("_")
                          and not a.name.startswith("__")]
    return found


def test_no_module_imports_a_private_name_of_another():
    outside = [hit for hit in private_imports(PACKAGE)
               if not hit[0].startswith("estimators/classifiers/")]
    assert outside == []


def test_the_classifiers_import_no_private_name_of_another_module():
    assert private_imports(PACKAGE / "estimators" / "classifiers") == []
