"""Identifiers of configured methods and the cache keys of their outputs.

An identifier is the registry name when the entry has no parameters, else the
name plus a short hash of the canonical JSON of its parameters (and, for
selectors, of its discretization). Changing one parameter therefore changes one
identifier, so only that method's jobs rerun. An entry may set ``id`` itself.

>>> method_id({"name": "mim-br", "params": {}})
'mim-br'

Numbers are normalised before hashing (:func:`normalize_params`), so ``s: 1``
and ``s: 1.0`` name the same method:

>>> method_id({"name": "mlknn", "params": {"k": 10, "s": 1.0}})
'mlknn-43d785ff'
>>> method_id({"name": "mlknn", "params": {"s": 1, "k": 10.0}})
'mlknn-43d785ff'

The cache is keyed by content (:func:`split_id`, :func:`cache_id`), not by
the names an experiment gives: two experiments asking for the same method on
the same data share its outputs. :func:`canonical` and :func:`content_digest`
make rule parameters that change only when their content does.
"""

from __future__ import annotations

import hashlib
import json
import numbers
from typing import Any

from mlfsbench.estimators import registry
from mlfsbench.io import file_sha256


def canonical_json(obj: Any) -> str:
    """Compact JSON with sorted keys (the hashing input)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def short_hash(obj: Any) -> str:
    """Eight hex digits of the sha1 of ``obj``'s canonical JSON: the suffix of
    method, cache and grid identifiers."""
    return hashlib.sha1(canonical_json(obj).encode()).hexdigest()[:8]


def canonical(obj: Any) -> Any:
    """A copy of ``obj`` with every mapping's keys sorted.

    Rule parameters pass through this, so reordering keys in a YAML file does
    not look like a parameter change to Snakemake.

    >>> canonical({"b": 1, "a": {"d": 2, "c": 3}})
    {'a': {'c': 3, 'd': 2}, 'b': 1}
    """
    return json.loads(canonical_json(obj))


def _entry_class(name: str) -> type | None:
    """The registered class of ``name`` (selector, classifier or transformation
    in that order); ``None`` when no kind has it (check_methods reports it)."""
    for kind in ("selector", "classifier", "transformation"):
        if name in registry.names(kind):
            return registry.get(kind, name)
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _int_and_float_differ(cls: type | None, key: str) -> bool:
    """Whether parameter ``key`` of ``cls`` gives an int and a float different
    meanings: its scikit-learn ``_parameter_constraints`` accept both an
    integer interval and a real one (lee2016's ``n_labels``: 1 is one label,
    1.0 every label)."""
    kinds = set()
    for constraint in getattr(cls, "_parameter_constraints", {}).get(key, []):
        kind = getattr(constraint, "type", constraint)
        if not isinstance(kind, type) or kind is bool:
            continue
        if issubclass(kind, numbers.Integral):
            kinds.add("int")
        elif issubclass(kind, numbers.Real):
            kinds.add("float")
    return kinds == {"int", "float"}


def normalize_params(name: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """``params`` of estimator ``name`` with one spelling per number.

    A number whose int and float meanings differ (:func:`_int_and_float_differ`,
    e.g. a count or a fraction) keeps its type. Otherwise a number whose
    parameter defaults to a float becomes a float (``s: 1`` is ``s: 1.0``,
    ML-kNN's default) and any other integral float an int (``k: 10.0`` is
    ``k: 10``). Identifiers and rule parameters see only the normalised
    values, so such an edit neither renames a method nor reruns its jobs.
    The direction follows the defaults so that the identifiers of the shipped
    configs (``mlknn`` with ``s: 1.0``) did not change.

    >>> normalize_params("mlknn", {"k": 10.0, "s": 1})
    {'k': 10, 's': 1.0}
    >>> normalize_params("lee2016", {"n_labels": 1.0})
    {'n_labels': 1.0}
    """
    if not params:
        return dict(params or {})
    cls = _entry_class(name)
    defaults = registry.parameters(cls) if cls is not None else {}
    out = {}
    for key, value in params.items():
        if not _is_number(value) or _int_and_float_differ(cls, key):
            out[key] = value
        elif isinstance(value, float) and not value.is_integer():
            out[key] = value
        elif isinstance(defaults.get(key), float):
            out[key] = float(value)
        elif isinstance(value, float) and value.is_integer():
            out[key] = int(value)
        else:
            out[key] = value
    return out


def _normalized_key(entry: dict[str, Any]) -> dict[str, Any]:
    """The hashed part of an entry, numbers normalised."""
    name = entry["name"]
    key = {}
    if entry.get("params"):
        key["params"] = normalize_params(name, entry["params"])
    if entry.get("dataset_params"):
        key["dataset_params"] = {d: normalize_params(name, p)
                                 for d, p in entry["dataset_params"].items()}
    if entry.get("discretize"):
        key["discretize"] = entry["discretize"]
    return key


def method_id(entry: dict[str, Any]) -> str:
    """Identifier of a configured selector or classifier entry."""
    if entry.get("id"):
        return str(entry["id"])
    key = _normalized_key(entry)
    if classifier_input(entry) != "raw":
        key["input"] = classifier_input(entry)
    if not key:
        return entry["name"]
    return f"{entry['name']}-{short_hash(key)}"


def method_names(entries: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Every name of each configured entry, by identifier: the one function
    that names methods.

    First the readable label (figures, tables): the entry's ``label``, else
    its own ``id`` (the key of the result tables), else its registry name;
    when several entries share a registry name and have neither, the name
    numbered in config order, never a hash. Then the other names a claims
    file may use: the registry name (when only one entry has it), the
    ``label`` and the identifier.

    >>> method_names([{"name": "mim-br", "params": {"a": 1}},
    ...               {"id": "g1", "name": "gm"},
    ...               {"name": "gm", "params": {"b": 2}},
    ...               {"name": "pmu", "label": "PMU"}],
    ...              )  # doctest: +NORMALIZE_WHITESPACE
    {'mim-br-58fdaf8c': ['mim-br', 'mim-br-58fdaf8c'], 'g1': ['g1'],
     'gm-95b2f6f1': ['gm #2', 'gm-95b2f6f1'], 'pmu': ['PMU', 'pmu']}
    """
    names = [e["name"] for e in entries]
    out: dict[str, list[str]] = {}
    seen: dict[str, int] = {}
    for e in entries:
        name, ident = e["name"], method_id(e)
        seen[name] = seen.get(name, 0) + 1
        unique = names.count(name) == 1
        if e.get("label"):
            label = str(e["label"])
        elif e.get("id"):  # the tables' key: figures and tables agree
            label = str(e["id"])
        elif unique:
            label = name
        else:
            label = f"{name} #{seen[name]}"
        aliases = [name] if unique else []
        aliases += [str(e["label"])] if e.get("label") else []
        out[ident] = list(dict.fromkeys([label, *aliases, ident]))
    return out


def method_labels(entries: list[dict[str, Any]]) -> dict[str, str]:
    """Readable name of each configured entry, by identifier (for figures):
    the first of its :func:`method_names`.

    >>> method_labels([{"name": "mim-br", "params": {"a": 1}},
    ...                {"id": "g1", "name": "gm"}, {"id": "g2", "name": "gm"},
    ...                {"name": "pmu", "label": "PMU"}])
    {'mim-br-58fdaf8c': 'mim-br', 'g1': 'g1', 'g2': 'g2', 'pmu': 'PMU'}
    """
    return {ident: names[0] for ident, names in method_names(entries).items()}


def method_aliases(entries: list[dict[str, Any]]) -> dict[str, str]:
    """Every name of the configured entries -> its identifier: each name
    :func:`method_names` gives an entry (its label, the registry ``name``
    when only one entry has it, the identifier). How a claims file's or a
    printed table's method names (``ig-br``) find the tables' columns
    (``ig-br-72bc78c7``).

    >>> method_aliases([{"name": "mim-br"}, {"id": "g1", "name": "gm"},
    ...                 {"id": "g2", "name": "gm", "label": "GM 2"}])
    {'mim-br': 'mim-br', 'g1': 'g1', 'GM 2': 'g2', 'g2': 'g2'}
    """
    return {name: ident for ident, names in method_names(list(entries)).items()
            for name in names}


def discretization_id(spec: dict[str, Any] | None) -> str:
    """Path component of a discretization, e.g. ``equal-width-5``; ``none``."""
    if not spec or spec.get("strategy", "none") == "none":
        return "none"
    return f"{spec['strategy']}-{int(spec['bins'])}"


def input_kind(entry: dict[str, Any]) -> str:
    """``"discrete"`` or ``"continuous"``: what the configured selector reads.

    Asked of an instance, since it may depend on a parameter (e.g. a selector
    that discretizes by itself with one setting and not with another).
    """
    selector = registry.create("selector", entry["name"], entry.get("params"))
    return getattr(selector, "input_kind", "discrete")


def entry_params(entry: dict[str, Any], dataset: str | None) -> dict[str, Any]:
    """Parameters of an entry on one dataset: ``params`` updated by
    ``dataset_params[dataset]`` (e.g. a label count chosen per dataset).

    Numbers are normalised (:func:`normalize_params`).

    >>> entry_params({"name": "mlknn", "params": {"k": 10, "s": 1},
    ...               "dataset_params": {"d": {"k": 7}}}, "d")
    {'k': 7, 's': 1.0}
    """
    params = dict(entry.get("params") or {})
    params.update((entry.get("dataset_params") or {}).get(dataset) or {})
    return normalize_params(entry["name"], params) if "name" in entry else params


def entry_on_data(entry: dict[str, Any], dataset: str, kind: str,
                  facts: dict[str, bool] | None) -> dict[str, Any]:
    """The entry as it runs on ``dataset``, of which ``facts`` hold: a
    classifier reading the raw features loses the parameters its class
    declares without effect there
    (:func:`~mlfsbench.estimators.registry.params_unused_on`), so it runs
    with their defaults and shares its job (:func:`cache_id`) with every
    entry that differs only in them. Any other entry is returned as it is.

    >>> raw = {"name": "mlknn", "id": "raw", "params": {"k": 7, "scale": False}}
    >>> entry_on_data(raw, "enron", "classifier", {"binary_features": True})
    {'name': 'mlknn', 'id': 'raw', 'params': {'k': 7}}
    >>> entry_on_data(raw, "yeast", "classifier", {"binary_features": False}) is raw
    True
    """
    if kind != "classifier" or classifier_input(entry) != "raw" or not facts:
        return entry
    unused = registry.params_unused_on(registry.get(kind, entry["name"]), facts)
    params = entry_params(entry, dataset)
    if not unused & set(params):
        return entry
    out = {k: v for k, v in entry.items() if k not in ("params", "dataset_params")}
    kept = {k: v for k, v in params.items() if k not in unused}
    if kept:
        out["params"] = kept
    return out


def applies_to(entry: dict[str, Any], dataset: str) -> bool:
    """Whether a selector/classifier entry runs on ``dataset``."""
    only = entry.get("datasets")
    return not only or dataset in only


# ------------------------------------------------------------- cache keys
# Outputs from the split on are shared by all experiments: they are keyed by
# what they are (a split protocol, a method's content), not by the experiment
# or the name an experiment gives them.
def split_id(spec: dict[str, Any]) -> str:
    """Identifier of a split protocol (its type, sizes, seed, stratification).

    Defaults are those of :func:`mlfsbench.data.split.make_splits` (seed 0,
    stratified), so ``{type: kfold, k: 2}`` and ``{type: kfold, k: 2, seed: 0}``
    are the same split. The number of hold-out repeats is not part of it:
    repeat ``i`` does not depend on how many there are
    (:func:`mlfsbench.data.split.holdout_splits`), so 10 and 30 repeats share
    their first 10 folds, and the fold batch says which repeats a job covers.

    >>> split_id({"type": "kfold", "k": 2})
    'kfold-k2-seed0'
    >>> split_id({"type": "holdout", "test_size": 0.5, "repeats": 30, "seed": 3,
    ...           "stratify": False})
    'holdout-t0.5-seed3-unstratified'
    >>> split_id({"type": "given"})
    'given'
    """
    kind = spec["type"]
    if kind == "given":
        return "given"
    if kind == "kfold":
        out = f"kfold-k{int(spec['k'])}"
    elif kind == "holdout":
        out = f"holdout-t{float(spec['test_size'])!r}"
    else:
        raise ValueError(f"unknown split type {kind!r}")
    out += f"-seed{int(spec.get('seed', 0))}"
    if not spec.get("stratify", True):
        out += "-unstratified"
    return out


def protocol(spec: dict[str, Any]) -> dict[str, Any]:
    """The split protocol of a spec, defaults filled in and without hold-out
    repeats (see :func:`split_id`): what the split job computes from.

    >>> protocol({"type": "holdout", "test_size": 0.5, "repeats": 3})
    {'seed': 0, 'stratify': True, 'test_size': 0.5, 'type': 'holdout'}
    """
    if spec["type"] == "given":
        return {"type": "given"}
    out = {"seed": 0, "stratify": True, **spec}
    out.pop("repeats", None)
    return canonical(out)


def classifier_input(entry: dict[str, Any]) -> str:
    """What a classifier entry reads: ``raw`` features or the selector's
    discretization ``codes``."""
    return entry.get("input") or "raw"


def cache_id(entry: dict[str, Any], dataset: str, kind: str) -> str:
    """Content identifier of a configured method on one dataset.

    The registry name plus a hash of its parameters on that dataset, and of
    its discretization (selectors) or input (classifiers reading codes). An
    explicit ``id:`` names the method in the experiment's tables only, so
    two experiments (or two names) of the same method share its results.

    >>> cache_id({"name": "mlknn"}, "d", "classifier")
    'mlknn'
    >>> a = cache_id({"name": "mlknn", "params": {"k": 5}}, "d", "classifier")
    >>> b = cache_id({"name": "mlknn", "id": "x", "dataset_params": {"d": {"k": 5}}},
    ...              "d", "classifier")
    >>> a == b != cache_id({"name": "mlknn", "params": {"k": 5}, "input": "codes"},
    ...                    "d", "classifier")
    True
    """
    key: dict[str, Any] = {}
    params = normalize_params(entry["name"], entry_params(entry, dataset))
    if params:
        key["params"] = params
    if kind == "selector":
        key["discretize"] = discretization_id(entry.get("discretize"))
    if kind == "classifier" and classifier_input(entry) != "raw":
        key["input"] = classifier_input(entry)
    if not key:
        return entry["name"]
    return f"{entry['name']}-{short_hash(key)}"


def content_digest(paths: list[str]) -> dict[str, str]:
    """The sha256 of each file, by path: the rule parameter of inputs that no
    rule makes (a claims or printed-tables file). The workflow reruns on
    parameters, inputs and software, not on file times (docs/cache.md), so
    an edit of such a file reruns its readers through this parameter."""
    out = {}
    for path in paths:
        try:
            out[str(path)] = file_sha256(path)
        except OSError:  # Snakemake names the missing input
            out[str(path)] = "missing"
    return out
