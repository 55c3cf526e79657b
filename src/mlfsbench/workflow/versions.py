"""Versions of the code a job's output depends on (reruns after code changes).

Snakemake reruns a job when its parameters change, not when the Python
package it calls does. Every rule therefore passes a ``code`` parameter
(:func:`rule_version`): a short hash of its script and of the package code
the script reaches, derived from the imports — no hand-kept table. Editing
``estimators/selectors/jmi.py`` changes the version of the JMI selections only
(and of what reads them); editing ``evaluation/metrics.py`` the classify jobs
and the tables that compare metrics; editing ``report/claims.py`` the claims
jobs; editing ``report/cd_diagram.py`` the ``stats`` jobs that draw it.

What a script reaches (:func:`reached`) follows *names*, not whole modules:
from the names the script imports, the definitions (functions, classes,
module-level assignments) they use, through ``from ... import`` bindings and
``module.name`` attributes, into other modules, transitively, imports inside
functions included. A module counts when one of its own definitions is
reached; a package ``__init__`` that only re-exports a name does not. So a
module of many stages (the stages module: every stage's function) makes
each job depend only on the modules its own function uses: the select jobs
do not depend on the metrics, the claims jobs not on the CD diagram.

The stop rules:

- a name a module does not define or import (e.g. made at run time) counts
  the whole module;
- estimators reached *by registry name* are not followed (the registry
  imports them at run time): a select, transform or classify job adds its
  own estimator's module (:func:`estimator_module`), whole, so editing one
  selector reruns that selector's jobs only; an ``artificial`` job (a
  selector on a generated problem, for the claims) adds the selector it fits;
- :data:`NOT_OUTPUT` modules (job logging) write no output and count for no
  job.

The hash is of the definitions reached, not of whole modules, and of their
code, not their text (:func:`source_digest`): editing a function of
``io.py`` reruns the jobs that reach that function, not every job that reads
a table; moving a definition to another module, where it is still reached,
reruns nothing; comments, docstrings and layout do not count, so a
documentation edit reruns nothing either. A module's statements that define
no name (a registration call) count with each of its definitions, and an
estimator's module counts whole. Imports are read from the source
(:mod:`ast`), not executed; what they bind is followed, the import statements
themselves are not hashed.

The ``download`` rule carries no version: its output is protected and
identified by its checksum, not by the code that fetched it.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import os
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


#: Modules that write no job output (logging): followed by no version.
NOT_OUTPUT = frozenset({"mlfsbench.workflow.logutil"})


def _in_package(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


class _Module:
    """The top-level definitions and import bindings of one source file."""

    def __init__(self, name: str, tree: ast.Module, is_package: bool,
                 script: bool = False):
        self.name = name
        self.script = script
        #: top-level name -> the statements defining it
        self.defs: dict[str, list[ast.AST]] = {}
        #: top-level name -> (module, attribute or None for the whole module)
        self.bindings: dict[str, tuple[str, str | None]] = {}
        #: top-level statements run on import that define no name
        self.other: list[ast.AST] = []
        self.is_package = is_package
        self._scan(tree.body)

    def _scan(self, body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef
                          | ast.ClassDef):
                self.defs.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [
                    node.target]
                for target in targets:
                    for leaf in ast.walk(target):
                        if isinstance(leaf, ast.Name):
                            self.defs.setdefault(leaf.id, []).append(node)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                self.bindings.update(_bindings(node, self.name, self.is_package))
            elif isinstance(node, ast.If | ast.Try):
                if isinstance(node, ast.If):
                    self.other.append(node.test)
                for block in (node.body, node.orelse,
                              getattr(node, "finalbody", []),
                              *[h.body for h in getattr(node, "handlers", [])]):
                    self._scan(block)
            elif not (isinstance(node, ast.Expr)
                      and isinstance(node.value, ast.Constant)):
                self.other.append(node)


def _bindings(node: ast.Import | ast.ImportFrom, module: str,
              is_package: bool) -> dict[str, tuple[str, str | None]]:
    """Names bound by an import statement -> (package module, attribute)."""
    out: dict[str, tuple[str, str | None]] = {}
    if isinstance(node, ast.Import):
        for alias in node.names:
            if _in_package(alias.name) and module_file(alias.name) is not None:
                if alias.asname:
                    out[alias.asname] = (alias.name, None)
                else:  # `import mlfsbench.x.y` binds mlfsbench: the whole of x.y
                    out[alias.name.split(".")[0]] = (alias.name, None)
        return out
    base = _resolve(node, module, is_package)
    if not _in_package(base):
        return out
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if module_file(sub) is not None:
            out[alias.asname or alias.name] = (sub, None)
        elif alias.name != "*":
            out[alias.asname or alias.name] = (base, alias.name)
    return out


@cache
def _parsed(name: str) -> _Module | None:
    path = module_file(name)
    if path is None:
        return None
    tree = ast.parse(path.read_bytes(), filename=str(path))
    return _Module(name, tree, path.name == "__init__.py")


def reached(*roots: tuple[str, str | None],
            script: str | os.PathLike | None = None) -> list[str]:
    """The package modules whose definitions ``roots`` reach (sorted).

    A root is ``(module, name)``, or ``(module, None)`` for all of a module;
    ``script``: a file outside the package (a Snakemake script), all of whose
    code is a root. See the module docstring for the rules.

    >>> "mlfsbench.evaluation.metrics" in reached(
    ...     ("mlfsbench.workflow.stages", "classify_batch"))
    True
    >>> "mlfsbench.evaluation.metrics" in reached(
    ...     ("mlfsbench.workflow.stages", "select_batch"))
    False
    """
    return sorted(_reach(roots, script))


def _reach(roots: tuple[tuple[str, str | None], ...],
           script: str | os.PathLike | None) -> dict[str, set[str] | None]:
    """Each package module that ``roots`` reach -> the names of its
    definitions they reach, or None for all of it (see :func:`reached`)."""
    counted: dict[str, set[str] | None] = {}
    seen: set[tuple[str, str | None]] = set()
    # ids of the nodes walked; ``kept`` holds the nodes themselves, so that
    # no id is reused by a node parsed later (a script's tree is not cached
    # and would otherwise be freed once walked)
    walked: set[int] = set()
    kept: list[ast.AST] = []
    todo: list[tuple[_Module, list[ast.AST]]] = []

    def everything(info: _Module) -> list[ast.AST]:
        return [n for nodes in info.defs.values() for n in nodes] + info.other

    def reach(module: str, attr: str | None) -> None:
        if (module, attr) in seen or module in NOT_OUTPUT:
            return
        seen.add((module, attr))
        info = _parsed(module)
        if info is None:
            return
        if attr is None:
            counted[module] = None
            todo.append((info, everything(info)))
        elif attr in info.defs:
            names = counted.setdefault(module, set())
            if names is not None:
                names.add(attr)
            todo.append((info, info.defs[attr] + info.other))
        elif attr in info.bindings:
            reach(*info.bindings[attr])
        elif module_file(f"{module}.{attr}") is not None:
            reach(f"{module}.{attr}", None)
        else:  # not defined in the source (made at run time): all of it
            reach(module, None)

    def use(info: _Module, name: str, attr: str | None) -> None:
        if name in info.defs:
            if info.script:  # a script's own function: walk it
                todo.append((info, info.defs[name]))
            else:
                reach(info.name, name)
        elif name in info.bindings:
            module, sub = info.bindings[name]
            reach(module, attr if sub is None else sub)

    if script is not None:
        path = Path(script)
        info = _Module(path.name, ast.parse(path.read_bytes(), filename=str(path)),
                       is_package=False, script=True)
        todo.append((info, everything(info)))
    for root in roots:
        reach(*root)
    while todo:
        info, nodes = todo.pop()
        for node in nodes:
            if id(node) in walked:
                continue
            walked.add(id(node))
            kept.append(node)
            bases: set[int] = set()  # names used as `module.attribute`
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    for target in _bindings(sub, info.name,
                                            info.is_package).values():
                        reach(*target)
                elif isinstance(sub, ast.Attribute) and isinstance(sub.value,
                                                                   ast.Name):
                    bases.add(id(sub.value))
                    use(info, sub.value.id, sub.attr)
                elif isinstance(sub, ast.Name) and id(sub) not in bases:
                    use(info, sub.id, None)
    return counted


@cache
def rule_version(script: str | os.PathLike, *estimators: str) -> str:
    """12-hex version of a rule's code: its ``script`` (a Snakemake script)
    and the package definitions it reaches (:func:`reached`), with the
    modules of ``estimators`` (module names, whole: e.g. the job's selector,
    see :func:`estimator_module`).

    Comments, docstrings and layout do not count (:func:`source_digest`).
    """
    script = Path(script)
    parts = _reach(tuple((m, None) for m in estimators), script)
    h = hashlib.sha256()
    h.update(f"script\0{source_digest(script.read_bytes(), str(script))}\n".encode())
    for entry in sorted({e for module, names in parts.items()
                         for e in _definition_digests(module, names)}):
        h.update(f"{entry}\n".encode())
    return h.hexdigest()[:12]


def _definition_digests(module: str, names: set[str] | None) -> set[str]:
    """``name\0digest`` of each definition of ``module`` in ``names`` (all of
    them for None), and ``\0digest`` of each of its statements that define
    no name.

    The module's name is not part of an entry: a definition moved to another
    module, still reached, leaves the version as it was.
    """
    info = _parsed(module)
    if info is None:
        return set()
    chosen = info.defs if names is None else {n: info.defs[n] for n in names}
    out = {f"{name}\0{_node_digest(node)}"
           for name, nodes in chosen.items() for node in nodes}
    out.update(f"\0{_node_digest(node)}" for node in info.other)
    return out


def _node_digest(node: ast.AST) -> str:
    """sha256 of a statement's code: its syntax tree without docstrings or
    line numbers (as :func:`source_digest`)."""
    tree = _without_docstrings(copy.deepcopy(node))
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def estimator_module(kind: str, name: str) -> str:
    """Module defining the estimator registered as ``name``."""
    from mlfsbench.estimators import registry

    return registry.get(kind, name).__module__
