"""Registries of transformations, selectors and classifiers, by name.

Config files, the CLI and the workflow refer to estimators by lower-case,
hyphenated names (``mim-br``, ``mlknn``). A module registers a class with the
decorators below; :func:`get` returns the class and :func:`describe` lists the
constructor parameters and defaults (used by ``mlfsbench methods``).

Methods from other packages register through the Python entry-point groups
``mlfsbench.selectors``, ``mlfsbench.classifiers`` and
``mlfsbench.transformations`` (:data:`ENTRY_POINT_GROUPS`): the entry point's
name is the registry name, its object the class (or a module whose
``@register`` decorators run on import). They are loaded with the built-ins
of their kind, so a config lists them like any other method.

>>> from mlfsbench.estimators import registry
>>> "mim-br" in registry.names("selector")
True
>>> registry.get("classifier", "mlknn").__name__
'MLkNN'
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import inspect
import pkgutil
import re
import types
from typing import Any

KINDS = ("transformation", "selector", "classifier")
_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_REGISTRY: dict[str, dict[str, type]] = {kind: {} for kind in KINDS}
# The package whose modules register the built-in estimators of each kind:
# every module in it is imported on first use of that kind, so a new
# estimator module needs no import line anywhere else, and a job that only
# needs a classifier does not pay for importing every selector.
_BUILTIN_PACKAGES = {
    "transformation": "mlfsbench.estimators.transformations",
    "selector": "mlfsbench.estimators.selectors",
    "classifier": "mlfsbench.estimators.classifiers",
}
#: The entry-point group through which another package adds methods of a kind.
ENTRY_POINT_GROUPS = {kind: f"mlfsbench.{kind}s" for kind in KINDS}
_loaded: set[str] = set()


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown registry kind {kind!r}; expected one of {KINDS}")


#: What the workflow calls on an estimator of each kind: methods (a tuple of
#: names is "one of these sets": a classifier's ``predict_path`` may stand
#: for ``predict`` and ``predict_proba``) and whether it passes
#: ``random_state`` (each fold's seed) to the constructor.
INTERFACE: dict[str, tuple[tuple[tuple[str, ...], ...], bool]] = {
    "selector": ((("fit", "get_support"),), True),
    "classifier": ((("fit", "predict", "predict_proba"), ("predict_path",)), True),
    "transformation": ((("fit", "transform"),), False),
}


def interface_problem(kind: str, cls: Any) -> str | None:
    """Why ``cls`` cannot serve as an estimator of ``kind`` (a class with
    the methods the workflow calls and, for a selector or classifier, a
    ``random_state`` parameter), or ``None``.

    >>> interface_problem("selector", dict)
    "dict is not a selector: it has no fit, no get_support and no random_state parameter; a selector is a scikit-learn estimator with fit, get_support and a random_state parameter (the fold's seed)"
    >>> interface_problem("classifier", get("classifier", "mlknn")) is None
    True
    """  # noqa: E501
    alternatives, seeded = INTERFACE[kind]
    if not isinstance(cls, type):
        return f"{cls!r} is not a class; a {kind} is a scikit-learn estimator class"
    missing = [m for m in alternatives[0] if not callable(getattr(cls, m, None))]
    others = [names for names in alternatives[1:]
              if all(callable(getattr(cls, m, None)) for m in names)]
    problems = [f"no {m}" for m in missing] if missing and not others else []
    if seeded:
        try:
            if "random_state" not in parameters(cls):
                problems.append("no random_state parameter")
        except (TypeError, ValueError):  # no signature to read
            problems.append("no constructor signature")
    if not problems:
        return None
    has = (", ".join(problems[:-1]) + " and " if len(problems) > 1 else "") \
        + problems[-1]
    needs = " (or ".join(", ".join(names) for names in alternatives) \
        + ")" * (len(alternatives) - 1)
    seed = " and a random_state parameter (the fold's seed)" if seeded else ""
    return (f"{cls.__qualname__} is not a {kind}: it has {has}; a {kind} is a "
            f"scikit-learn estimator with {needs}{seed}")


def register(kind: str, name: str):
    """Class decorator registering an estimator under ``name``; a class
    without the methods the workflow calls (:func:`interface_problem`) is
    refused."""
    _check_kind(kind)
    if not _NAME.match(name):
        raise ValueError(f"registry name {name!r} must be lower-case with hyphens")

    def decorator(cls: type) -> type:
        problem = interface_problem(kind, cls)
        if problem:
            raise TypeError(f"{kind} {name!r}: {problem}")
        existing = _REGISTRY[kind].get(name)
        if existing is not None and existing is not cls:
            raise ValueError(f"{kind} {name!r} is already registered by {existing}")
        _REGISTRY[kind][name] = cls
        cls.registry_name = name
        return cls

    return decorator


def _load_builtins(kind: str | None = None) -> None:
    for k in KINDS if kind is None else (kind,):
        if k in _loaded:
            continue
        _loaded.add(k)
        package = _BUILTIN_PACKAGES[k]
        pkg = importlib.import_module(package)
        for info in pkgutil.iter_modules(pkg.__path__):
            if not info.name.startswith("_"):
                importlib.import_module(f"{package}.{info.name}")
        _load_entry_points(k)


def _load_entry_points(kind: str) -> None:
    """Register the methods other packages declare in the kind's group."""
    group = ENTRY_POINT_GROUPS[kind]
    for ep in importlib.metadata.entry_points(group=group):
        where = f"entry point {ep.name!r} = {ep.value!r} of group {group!r}"
        try:
            obj = ep.load()
        except Exception as exc:
            raise ImportError(f"cannot load {where}: {exc}") from exc
        if isinstance(obj, types.ModuleType):
            if ep.name not in _REGISTRY[kind]:
                raise ValueError(
                    f"{where}: the module registers no {kind} named {ep.name!r}"
                )
            continue
        if not isinstance(obj, type):
            raise TypeError(f"{where} must name a class or a module, got {obj!r}")
        try:
            register(kind, ep.name)(obj)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        except TypeError as exc:  # not an estimator of the kind
            raise TypeError(f"{where}: {exc}") from None


def names(kind: str) -> list[str]:
    """Sorted registered names of one kind."""
    _load_builtins(kind)
    return sorted(_REGISTRY[kind])


def get(kind: str, name: str) -> type:
    """Return the class registered as ``name``; clear error when unknown."""
    _check_kind(kind)
    _load_builtins(kind)
    try:
        return _REGISTRY[kind][name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY[kind])) or "none"
        close = similar_names(str(name), sorted(_REGISTRY[kind]))
        hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
        raise KeyError(f"unknown {kind} {name!r}; {hint}registered: {known}") from None


def similar_names(name: str, known: list[str]) -> list[str]:
    """Names of ``known`` that ``name`` probably means: equal up to case and
    punctuation (``mim_br``, ``MLkNN``), else close by :mod:`difflib`.

    >>> similar_names("mimbr", ["mim-br", "mim-lp", "mlknn"])
    ['mim-br']
    >>> similar_names("ml-knn", ["mim-br", "mlknn"])
    ['mlknn']
    """
    def plain(text: str) -> str:
        return re.sub(r"[^a-z0-9]", "", text.lower())

    same = [k for k in known if plain(k) == plain(name)]
    return same or difflib.get_close_matches(name.lower(), known, n=3, cutoff=0.75)


def parameters(cls: type) -> dict[str, Any]:
    """Constructor parameters of ``cls`` with their defaults (``None`` if none)."""
    params = {}
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        params[p.name] = None if p.default is inspect.Parameter.empty else p.default
    return params


#: The facts about a dataset that an estimator may declare parameters
#: irrelevant under (:func:`params_unused_on`); the prepare stage records
#: them with the dataset's statistics.
DATA_FACTS = ("binary_features",)


def params_unused_on(cls: type, facts: dict[str, Any]) -> set[str]:
    """Parameters of ``cls`` that change none of its outputs on a dataset of
    which ``facts`` hold.

    A class declares them as ``_params_unused_on = {fact: (param, ...)}``
    (a fact of :data:`DATA_FACTS`) and says why in its docstring: e.g. the
    k-NN learners' ``scale`` on features that are all 0 or 1. The workflow
    drops them from a job's identity on such a dataset, so two readings that
    differ only there share one job.

    >>> class Knn:
    ...     _params_unused_on = {"binary_features": ("scale",)}
    >>> params_unused_on(Knn, {"binary_features": True}), params_unused_on(Knn, {})
    ({'scale'}, set())
    """
    declared = getattr(cls, "_params_unused_on", None) or {}
    unknown = sorted(set(declared) - set(DATA_FACTS))
    if unknown:
        raise ValueError(f"{cls.__qualname__}._params_unused_on names unknown "
                         f"fact(s) {', '.join(unknown)}; known: "
                         f"{', '.join(DATA_FACTS)}")
    return {p for fact, names in declared.items() if facts.get(fact) is True
            for p in names}


def create(kind: str, name: str, params: dict[str, Any] | None = None, **extra):
    """Instantiate a registered estimator; unknown parameters are an error."""
    cls = get(kind, name)
    params = {**(params or {}), **extra}
    allowed = parameters(cls)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(
            f"{kind} {name!r} has no parameter(s) {', '.join(unknown)}; "
            f"allowed: {', '.join(sorted(allowed))}"
        )
    return cls(**params)


def describe() -> dict[str, dict[str, dict[str, Any]]]:
    """Every registered estimator with its parameters and defaults."""
    _load_builtins()
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for kind in KINDS:
        out[kind] = {}
        for name in sorted(_REGISTRY[kind]):
            cls = _REGISTRY[kind][name]
            doc = (inspect.getdoc(cls) or "").strip().splitlines()
            out[kind][name] = {
                "class": f"{cls.__module__}.{cls.__qualname__}",
                "summary": doc[0] if doc else "",
                "parameters": parameters(cls),
            }
    return out
