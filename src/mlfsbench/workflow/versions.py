"""Versions of the code a job's output depends on (reruns after code changes).

Snakemake reruns a job when its parameters change, not when the Python
package it calls does. Every rule therefore passes a ``code`` parameter: a
short hash of the code of the package modules its output depends on — the
estimator's module and the ``mlfsbench`` modules it imports, transitively, plus
the stage's own modules. Editing ``estimators/selectors/jmi.py`` changes the
version of the JMI selections only (and of what reads them); editing
``evaluation/metrics.py`` changes the classify/evaluate jobs and the tables.

The hash is of each module's code, not its text (:func:`source_digest`):
comments, docstrings and layout do not count, so a documentation edit reruns
nothing. Imports are read from the source (:mod:`ast`), not executed; a package's
``__init__`` counts only when it is imported by name. Imports inside
functions count too (the stages import some libraries on use).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from functools import cache
from pathlib import Path

PACKAGE = "mlfsbench"
_ROOT = Path(__file__).resolve().parents[1]


@cache
def module_file(name: str) -> Path | None:
    """Source file of a module, or None if there is none.

    Modules of the package are located under its directory without being
    imported; others (a plugin's) through :func:`importlib.util.find_spec`.
    """
    if name == PACKAGE or name.startswith(PACKAGE + "."):
        base = _ROOT.joinpath(*name.split(".")[1:])
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                return path
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def imports(name: str) -> tuple[str, ...]:
    """The package modules that module ``name`` imports (directly)."""
    path = module_file(name)
    if path is None:
        return ()
    tree = ast.parse(path.read_bytes(), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, name, is_package)
            # `from pkg import mod` imports the submodule pkg.mod when it is one
            candidates = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for candidate in candidates:
            if (candidate == PACKAGE or candidate.startswith(PACKAGE + ".")) and \
                    module_file(candidate) is not None:
                found.add(candidate)
    found.discard(name)
    return tuple(sorted(found))


def closure(*names: str, stop=lambda name: False) -> list[str]:
    """``names`` and every package module they import, transitively (sorted);
    modules for which ``stop`` is true (other than ``names``) are left out,
    and so are their imports."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen or module_file(name) is None:
            continue
        if name not in names and stop(name):
            continue
        seen.add(name)
        todo.extend(imports(name))
    return sorted(seen)


def _without_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` with the docstring of every module, class and function removed
    (an empty body keeps a ``pass``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                      | ast.AsyncFunctionDef):
            body = node.body
            if (body and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
    return tree


def source_digest(source: str | bytes, filename: str = "<source>") -> str:
    r"""sha256 of the code of a module, not of its text.

    Comments, docstrings, blank lines and layout do not count (the hash is of
    the syntax tree without docstrings, line numbers left out), so editing
    documentation reruns nothing; any change of what the code does — a
    statement, a name, a constant — changes the digest.

    >>> a = source_digest('def f(x):\n    "Twice x."\n    return 2 * x\n')
    >>> a == source_digest("def f(x):  # twice\n\n    return 2*x\n")
    True
    >>> a == source_digest("def f(x):\n    return 3 * x\n")
    False
    """
    tree = _without_docstrings(ast.parse(source, filename=filename))
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


@cache
def _file_digest(name: str) -> str:
    path = module_file(name)
    return source_digest(path.read_bytes(), str(path))


def code_version(*names: str, shallow: tuple[str, ...] = ()) -> str:
    """12-hex hash of the source of ``names`` and their package imports, and
    of the ``shallow`` modules alone (without their imports: e.g. the stages
    module, whose other stages' imports do not concern every job)."""
    h = hashlib.sha256()
    for name in closure(*names) + sorted(set(shallow)):
        if module_file(name) is None:
            raise ValueError(f"code_version: no source for module {name!r}")
        h.update(f"{name}\0{_file_digest(name)}\n".encode())
    return h.hexdigest()[:12]


#: Modules whose source every stage's version includes (without their own
#: imports): the stage functions, the per-fold science, the process pool,
#: atomic I/O and the seeds.
STAGE_MODULES = ("mlfsbench.workflow.stages", "mlfsbench.workflow.folds",
                 "mlfsbench.workflow.pool", "mlfsbench.workflow.io",
                 "mlfsbench.workflow.seeds")
#: The transitive dependencies of each stage besides its estimator.
STAGE_DEPENDENCIES = {
    "prepare": ("mlfsbench.data.arff", "mlfsbench.data.dataset",
                "mlfsbench.data.stats"),
    "split": ("mlfsbench.data.split", "mlfsbench.data.dataset"),
    "discretize": ("mlfsbench.estimators.discretizers.unsupervised",
                   "mlfsbench.data.dataset"),
    "transform": ("mlfsbench.data.dataset",),
    "select": ("mlfsbench.data.dataset",),
    "classify": ("mlfsbench.data.dataset", "mlfsbench.evaluation.metrics"),
    "aggregate": ("mlfsbench.workflow.aggregate",),
    "compare": ("mlfsbench.workflow.compare", "mlfsbench.evaluation.metrics",
                "mlfsbench.evaluation.stats", "mlfsbench.evaluation.stability"),
    # runtime and stability tables: selection records only
    "selections": ("mlfsbench.evaluation.stability",),
}
#: Modules a stage's version includes without their imports (e.g. the
#: runtime/stability functions live in compare.py beside the statistics,
#: whose metric table they do not use).
STAGE_SHALLOW = {"selections": ("mlfsbench.workflow.compare",)}


@cache
def stage_version(stage: str, *estimators: str) -> str:
    """Version of one stage's code, with the modules of ``estimators``
    (module names, e.g. the selector's, see :func:`estimator_module`).

    Other workflow modules reached from ``aggregate``/``compare`` are left
    out (they import the stages module for its table format only; the stages
    module is in every version, see :data:`STAGE_MODULES`).
    """
    deep = STAGE_DEPENDENCIES[stage] + estimators
    modules = closure(*deep, stop=lambda m: m.startswith("mlfsbench.workflow."))
    h = hashlib.sha256()
    shallow = STAGE_MODULES + STAGE_SHALLOW.get(stage, ())
    for name in sorted(set(modules)) + sorted(shallow):
        h.update(f"{name}\0{_file_digest(name)}\n".encode())
    return h.hexdigest()[:12]


def estimator_module(kind: str, name: str) -> str:
    """Module defining the estimator registered as ``name``."""
    from mlfsbench.estimators import registry

    return registry.get(kind, name).__module__
