"""The package's layers, in order, and the check that imports go downwards.

:data:`LAYERS` is the one place the order is written: a module may import
modules of its own layer and of the layers before it, never of a later one
(imports inside functions included). A module's layer is its first name
under ``mlfsbench``: :mod:`mlfsbench.io` (with :mod:`mlfsbench.yamlfile`, the
strict YAML reader, :mod:`mlfsbench.names`, the marks in experiment names,
this module and the package's ``__init__``) is the ground floor,
:mod:`mlfsbench.cli` the top. The repository's Snakemake scripts, rules and
benchmarks sit above the package (:data:`TOP`): they may import any layer.

One import downwards is forbidden too (:data:`FORBIDDEN`): the report
imports nothing of the workflow. What its jobs need of a config (method
names, labels, parameters, challengers) the workflow computes and the rules
hand over as data (:mod:`mlfsbench.workflow.report_params`).

``data`` sits below ``estimators``: the data layer parses, stores and
generates data and knows no method (the selectors run on the artificial
problems are the evaluation's, :mod:`mlfsbench.evaluation.artificial`).

:func:`check` reads the imports from the source (:mod:`ast`; the Python
import lines of a ``.smk`` file or ``Snakefile`` by regular expression) and
lists every import from a lower layer to a higher one, every
:data:`FORBIDDEN` one, and every import of a package module that does not
exist.

>>> check_source("from mlfsbench.report.claims import write_claims\\n",
...              "mlfsbench.data.dataset")
['mlfsbench.data.dataset (data) imports mlfsbench.report.claims (report)']
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

PACKAGE = "mlfsbench"
#: The layers, lowest first: each may import only itself and those before it.
LAYERS = ("io", "data", "estimators", "evaluation", "workflow", "report", "cli")
#: (importer, imported) layers that may not import each other although the
#: order allows it: the report reads the workflow's outputs and params only.
FORBIDDEN = frozenset({("report", "workflow")})
#: Code outside the package (scripts, rules, benchmarks): above every layer.
TOP = "top"
# the root, io, YAML files, experiment names' marks, this module
_GROUND = {"", "io", "yamlfile", "names", "layers"}
_ROOT = Path(__file__).resolve().parent


def layer(module: str) -> str:
    """The layer of a package module (by its first name under the package)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        raise ValueError(f"{module!r} is not a module of {PACKAGE}")
    first = parts[1] if len(parts) > 1 else ""
    if first in _GROUND:
        return LAYERS[0]
    if first not in LAYERS:
        raise ValueError(f"{module!r} is in no layer; add {first!r} to LAYERS")
    return first


def _rank(name: str) -> int:
    return len(LAYERS) if name == TOP else LAYERS.index(name)


def exists(module: str, root: Path = _ROOT) -> bool:
    """Whether ``module`` is a module or package of the package at ``root``."""
    base = root.joinpath(*module.split(".")[1:])
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imported(tree: ast.AST, module: str, is_package: bool = False,
             root: Path = _ROOT) -> list[str]:
    """Every package module an AST imports, anywhere in it (sorted, unique).

    ``from pkg import name`` imports ``pkg.name`` when that is a module,
    else ``pkg``; relative imports are resolved against ``module``.
    """
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                parts = parts if is_package else parts[:-1]
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub.startswith(PACKAGE + ".")
                          and exists(sub, root) else base)
    return sorted(m for m in found
                  if m == PACKAGE or m.startswith(PACKAGE + "."))


def check_source(source: str, module: str, *, is_package: bool = False,
                 root: Path = _ROOT, filename: str = "<source>") -> list[str]:
    """The upward (and missing) imports of one module's source.

    ``module``: its dotted name, or :data:`TOP` for code outside the package.
    """
    tree = ast.parse(source, filename=filename)
    mine = TOP if module == TOP else layer(module)
    problems = []
    for target in imported(tree, module, is_package, root):
        if not exists(target, root):
            problems.append(f"{module} imports {target}, which does not exist")
            continue
        theirs = layer(target)
        if _rank(theirs) > _rank(mine):
            problems.append(f"{module} ({mine}) imports {target} ({theirs})")
        elif (mine, theirs) in FORBIDDEN:
            problems.append(f"{module} ({mine}) imports {target} ({theirs}), "
                            f"which {mine} may not import")
    return problems


_SMK_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)"
    r"|import[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+"
    r"(?:[ \t]+as[ \t]+\w+)?)*)[ \t]*$", re.M)


def smk_imports(text: str) -> str:
    """The Python import statements of a Snakemake file, as Python source."""
    return "\n".join(m.group(0).strip() for m in _SMK_IMPORT.finditer(text)) + "\n"


def check(package_root: Path = _ROOT,
          repository: Iterable[Path] = ()) -> list[str]:
    """Upward and missing imports of every module of the package at
    ``package_root`` and of the ``repository`` files (``.py``, ``.smk``,
    ``Snakefile``; all at the top)."""
    problems = []
    for path in sorted(package_root.rglob("*.py")):
        rel = path.relative_to(package_root.parent).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        problems += check_source(path.read_text(encoding="utf-8"),
                                 ".".join(parts), is_package=is_package,
                                 root=package_root, filename=str(path))
    for path in sorted(repository):
        text = path.read_text(encoding="utf-8")
        if path.suffix != ".py":
            text = smk_imports(text)
        problems += [p.replace(TOP, str(path.name), 1) for p in
                     check_source(text, TOP, root=package_root,
                                  filename=str(path))]
    return problems
