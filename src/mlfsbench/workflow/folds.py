"""The per-fold science of the workflow: arrays in, arrays and records out.

One function per stage and fold: the training part's features
(:func:`fold_data`, missing values imputed), its discretization
(:func:`discretize_fold`), label transformation (:func:`transform_fold`),
feature ranking (:func:`select_fold`, :func:`selection_record`),
classification on the top-K features of every K of a grid
(:func:`classify_fold`) and its metrics (:func:`evaluate_fold`). The batch
jobs of :mod:`mlfsbench.workflow.stages` and the CLI call these; so do the
tests. The only files read here are a split file's fold
(:func:`load_fold`) and a discretize output's codes (:func:`fold_features`).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
import scipy.sparse as sp

from mlfsbench.data import Dataset
from mlfsbench.estimators import registry
from mlfsbench.evaluation.metrics import evaluate as evaluate_metrics
from mlfsbench.evaluation.metrics import feature_reduction, rrmse
from mlfsbench.workflow.outputs import (
    check_depth,
    check_path,
    check_predictions,
    check_ranking,
    check_selection,
)

log = logging.getLogger(__name__)

PathLike = str | os.PathLike


# ----------------------------------------------------------------------- folds
def load_fold(split_file: PathLike, fold: int) -> tuple[np.ndarray, np.ndarray]:
    """Train and test indices of one fold of a split file."""
    with np.load(split_file) as z:
        n = int(z["n_folds"])
        if not 0 <= fold < n or f"train_{fold}" not in z.files:
            raise ValueError(f"{split_file}: no fold {fold} (of 0..{n - 1})")
        return z[f"train_{fold}"], z[f"test_{fold}"]


def fold_data(ds: Dataset, train: np.ndarray, test: np.ndarray):
    """Train/test feature matrices with missing values imputed by train means.

    Sparse matrices stay sparse: a ``?`` in a sparse ARFF row is a stored
    ``NaN`` (implicit entries are zeros, never missing) and is replaced by
    the mean of the column's present training values, implicit zeros
    included. A feature with no present value in the training part is
    imputed with 0, with a warning naming it.
    """
    X_train, X_test = ds.X[train], ds.X[test]
    if sp.issparse(X_train):
        X_train, X_test = sp.csr_matrix(X_train), sp.csr_matrix(X_test)
        nan_train, nan_test = np.isnan(X_train.data), np.isnan(X_test.data)
        if not (nan_train.any() or nan_test.any()):
            return X_train, X_test
        d = X_train.shape[1]
        missing = np.bincount(X_train.indices[nan_train], minlength=d)
        sums = np.bincount(X_train.indices[~nan_train],
                           weights=X_train.data[~nan_train], minlength=d)
        present = X_train.shape[0] - missing
        means = np.divide(sums, present, out=np.zeros(d), where=present > 0)
        _warn_all_missing(ds, present == 0, missing > 0)
        X_train.data[nan_train] = means[X_train.indices[nan_train]]
        X_test.data[nan_test] = means[X_test.indices[nan_test]]
        return X_train, X_test
    X_train = np.array(X_train, dtype=float)
    X_test = np.array(X_test, dtype=float)
    nan_train, nan_test = np.isnan(X_train), np.isnan(X_test)
    if nan_train.any() or nan_test.any():
        present = (~nan_train).sum(axis=0)
        sums = np.where(nan_train, 0.0, X_train).sum(axis=0)
        means = np.divide(sums, present, out=np.zeros(X_train.shape[1]),
                          where=present > 0)
        _warn_all_missing(ds, present == 0, nan_train.any(axis=0)
                          | nan_test.any(axis=0))
        X_train[nan_train] = np.take(means, np.nonzero(nan_train)[1])
        X_test[nan_test] = np.take(means, np.nonzero(nan_test)[1])
    return X_train, X_test


def _warn_all_missing(ds: Dataset, empty: np.ndarray, has_missing: np.ndarray,
                      ) -> None:
    """Log the features with missing values and no present training value."""
    cols = np.flatnonzero(empty & has_missing)
    if cols.size:
        names = ", ".join(repr(ds.feature_names[j]) for j in cols[:5])
        more = f" and {len(cols) - 5} more" if len(cols) > 5 else ""
        log.warning("%s: feature(s) %s%s have no value in the training part; "
                    "imputed with 0", ds.name, names, more)


def fold_features(ds: Dataset, split_file: PathLike, fold: int,
                  discretized: PathLike | None):
    """Train and test indices and features of a fold: raw (:func:`fold_data`),
    or a discretize batch output's codes (``X_train_<fold>``,
    ``X_test_<fold>``)."""
    train, test = load_fold(split_file, fold)
    if discretized is None:
        return (train, test, *fold_data(ds, train, test))
    with np.load(discretized) as z:
        return train, test, z[f"X_train_{fold}"], z[f"X_test_{fold}"]


def method_seed(seed: int, keys: dict[str, Any], fold: int, method_key: str) -> int:
    """The seed of one fold's method: :func:`~mlfsbench.workflow.seeds.derive_seed`
    of the experiment's seed, the job's cache keys and the fold."""
    from mlfsbench.workflow.seeds import derive_seed

    return derive_seed(seed, keys["dataset"], keys["split"], fold, keys[method_key])


# ------------------------------------------------------------------ discretize
def discretize_fold(X_train, X_test, *, strategy: str, bins: int):
    """Codes of both parts from a discretizer fitted on the training part
    (the one implementation, called by the batch job and the CLI)."""
    from mlfsbench.estimators.discretizers.unsupervised import (
        make_discretizer,  # sklearn: import on use
    )

    disc = make_discretizer(strategy, bins).fit(X_train)
    return disc.transform(X_train), disc.transform(X_test)


# ------------------------------------------------------------------- transform
def _named_arrays(result) -> dict[str, np.ndarray]:
    """The arrays of a transformation's output, by name.

    An array is ``target``; a named tuple gives its fields; a list or tuple
    gives ``0``, ``1``, ... (e.g. one label matrix per granule).
    """
    if isinstance(result, np.ndarray):
        return {"target": result}
    if hasattr(result, "_asdict"):
        return {k: np.asarray(v) for k, v in result._asdict().items()}
    if isinstance(result, list | tuple):
        return {str(i): np.asarray(v) for i, v in enumerate(result)}
    return {"target": np.asarray(result)}


def transform_fold(Y_train, Y_test, *, method: str,
                   params: dict[str, Any] | None = None,
                   seed: int = 0) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Fit a label transformation on training labels; apply it to both parts.

    Returns the transformed targets (``train_<name>`` / ``test_<name>``
    arrays, see :func:`_named_arrays`) and a summary: per array its shape
    and, for a class vector, the number of classes and of instances discarded
    (class ``-1``, e.g. PPT's pruned labelsets).
    """
    cls = registry.get("transformation", method)
    extra = ({"random_state": seed}
             if "random_state" in registry.parameters(cls) else {})
    transformer = registry.create("transformation", method, params, **extra)
    transformer.fit(Y_train)
    arrays, summary = {}, {"method": method, "params": params or {}}
    for part, Y in (("train", Y_train), ("test", Y_test)):
        for name, arr in _named_arrays(transformer.transform(Y)).items():
            arrays[f"{part}_{name}"] = arr
            info: dict[str, Any] = {"shape": list(arr.shape)}
            if arr.ndim == 1 and np.issubdtype(arr.dtype, np.integer):
                info["classes"] = int(np.unique(arr[arr >= 0]).size)
                info["discarded"] = int(np.count_nonzero(arr < 0))
            summary[f"{part}_{name}"] = info
    return arrays, summary


# ---------------------------------------------------------------------- select
def select_fold(X_train, Y_train, feature_names: Sequence[str], *, method: str,
                params: dict[str, Any] | None = None, seed: int = 0,
                name: str | None = None, feature_types=None) -> dict:
    """Rank the features of one training part: the selection record.

    The one implementation of the selection of a fold, called by the
    workflow's batch jobs (:func:`~mlfsbench.workflow.stages.select_batch`)
    and the CLI's ``select``.
    """
    from mlfsbench.estimators.selectors import fit_selector  # select jobs only

    selector = registry.create("selector", method, params, random_state=seed)
    start = time.perf_counter()
    try:
        fit_selector(selector, X_train, Y_train, feature_types=feature_types)
    except ValueError as exc:  # name the data: estimators do not know it
        if name is None:
            raise
        raise ValueError(f"{name}: selector {method!r}: {exc}") from exc
    seconds = time.perf_counter() - start
    # whoever wrote the selector, its output is checked before it is recorded
    check_selection(selector, X_train.shape[1], np.shape(Y_train)[1],
                    what=f"{name}: selector {method!r}" if name
                    else f"selector {method!r}")
    return selection_record(selector, feature_names, method, params, seconds)


def _plain(value):
    """A fitted attribute as JSON: numpy scalars and arrays, tuples to
    numbers and lists; NaN and infinities to ``None``.

    >>> _plain([(5, np.int64(4)), np.array([0.5, -np.inf])])
    [[5, 4], [0.5, None]]
    """
    if isinstance(value, np.ndarray | list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        return float(value) if np.isfinite(value) else None
    return value


def selection_record(selector, feature_names: Sequence[str], method: str,
                     params: dict[str, Any] | None, seconds: float) -> dict:
    """The JSON record of a fitted selector.

    The fitted attributes a selector lists in ``record_attributes`` (e.g.
    the kNN-MI selectors' automatic pruning parameter ``p_``) are
    ``"fitted": {name: value}`` (numbers and lists; a non-finite number is
    ``null``).

    A selector with one feature ranking per label granule (attributes
    ``granules_`` and ``granule_rankings_``, e.g. ``granular-mrmr``) also gets
    ``"granules": [{"labels": [...], "ranking": [...]}, ...]``, which makes
    :func:`classify_fold` train one classifier per granule.
    """
    ranking = [int(i) for i in selector.ranking_]
    scores = [None if not np.isfinite(s) else float(s) for s in selector.scores_]
    record = {
        "method": method,
        "params": params or {},
        "n_selected": int(np.count_nonzero(selector.get_support())),
        "ranking": ranking,
        "features": [feature_names[i] for i in ranking],
        "scores": scores,
        "seconds": seconds,
    }
    fitted = {name: _plain(getattr(selector, name))
              for name in getattr(selector, "record_attributes", ())
              if hasattr(selector, name)}
    if fitted:
        record["fitted"] = fitted
    if hasattr(selector, "granule_rankings_"):
        record["granules"] = [
            {"labels": [int(j) for j in labels],
             "ranking": [int(i) for i in granule_ranking]}
            for labels, granule_ranking in zip(
                selector.granules_, selector.granule_rankings_, strict=True)
        ]
    return record


# -------------------------------------------------------------------- classify
def grid_sizes(grid: Sequence[int | str], n_features: int,
               n_selected: int | None = None) -> list[tuple[str, int]]:
    """``(label, size)`` of each point of a feature-count grid for one fold.

    Sizes above the number of features are dropped; ``"all"`` is every
    feature; ``"selected"`` is the size of the selector's own support (e.g.
    the features above its threshold), ``n_selected``.

    >>> grid_sizes([1, 5, 50, "all", "selected"], 10, n_selected=3)
    [('1', 1), ('5', 5), ('all', 10), ('selected', 3)]
    """
    out = []
    for k in grid:
        if k == "all":
            out.append(("all", n_features))
        elif k == "selected":
            if n_selected is None:
                raise ValueError("grid point 'selected' needs the selection's size")
            out.append(("selected", int(n_selected)))
        elif int(k) <= n_features:
            out.append((str(int(k)), int(k)))
    return out


def _fit_predict_path(classifier: str, params, seed: int, X_train, Y_train, X_test,
                      column_sets: list[np.ndarray]) -> list[tuple]:
    """``(Y_pred, Y_score)`` for each feature subset of ``column_sets``.

    A classifier with ``predict_path`` fits every subset in one call (e.g.
    sharing its neighbour searches); otherwise a fresh model is fitted per
    subset.
    """
    model = registry.create("classifier", classifier, params, random_state=seed)
    if hasattr(model, "predict_path"):
        return list(model.predict_path(X_train, Y_train, X_test, column_sets))
    out = []
    for cols in column_sets:
        model = registry.create("classifier", classifier, params, random_state=seed)
        model.fit(X_train[:, cols], Y_train)
        out.append((model.predict(X_test[:, cols]),
                    model.predict_proba(X_test[:, cols])))
    return out


def classify_fold(X_train, Y_train, X_test, record: dict[str, Any], *,
                  classifier: str, params: dict[str, Any] | None = None,
                  grid: Sequence[int | str], seed: int = 0,
                  regression: bool = False, name: str = "selection") -> dict:
    """Train and apply a classifier on the top-K features for every K of the grid.

    ``record`` is a selection record (:func:`selection_record`); one without
    a ``ranking`` stands for every feature in column order (the workflow's
    all-features job, grid ``["all"]``). Returns the
    predictions: ``labels`` (grid points), ``n_used``, ``n_total``, ``Y_pred``
    and ``Y_score`` stacked over the grid, ``train_mean``.

    When the selection record has ``granules``, every K trains one classifier
    per granule on that granule's own top-K features and its own labels, and
    the granules' predictions and scores fill the columns of their labels in
    the full ``(n_test, n_labels)`` matrices (Li et al. 2017, Fig. 2). Labels
    in no granule (none, for the shipped selectors) would keep prediction 0
    and score 0.
    """
    n_features, n_labels = X_train.shape[1], np.shape(Y_train)[1]
    # the selection as recorded (a selector's, or a file given to the CLI):
    # indices checked before they index the features
    parts: list[tuple[np.ndarray | None, np.ndarray]]
    if record.get("granules"):
        parts = [(check_ranking(g["labels"], n_labels,
                                what=f"{name}: granule {i}'s labels"),
                  check_ranking(g["ranking"], n_features,
                                what=f"{name}: granule {i}'s ranking"))
                 for i, g in enumerate(record["granules"])]
    elif record.get("ranking") is None:  # the all-features job: no selection
        parts = [(None, np.arange(n_features, dtype=np.intp))]
    else:
        parts = [(None, check_ranking(record["ranking"], n_features,
                                      what=f"{name}: the ranking"))]
    sizes = grid_sizes(grid, n_features, record.get("n_selected"))
    for i, (labels, ranking) in enumerate(parts):
        check_depth(ranking, sizes, what=name if labels is None
                    else f"{name}: granule {i}'s ranking")
    empty = [label for label, k in sizes if k == 0]
    if empty:
        # A threshold that no feature reaches (IG with plain MDL on a text
        # dataset): no classifier is built, and the grid point has no result
        # for this fold, as the "-" cells of Spolaor et al. (2013), Tables 3-4.
        log.warning("%s: grid point(s) %s select no feature; no prediction "
                    "for them in this fold", name, ", ".join(empty))
        sizes = [(label, k) for label, k in sizes if k > 0]
    if not sizes and not empty:
        raise ValueError(f"{name}: no feature count of the grid {list(grid)} "
                         f"fits {X_train.shape[1]} features")
    # (every point selecting nothing, e.g. the grid ["selected"] of a
    # threshold no feature reaches, leaves the fold without predictions)
    n_test = X_test.shape[0]
    dtype = np.float64 if regression else np.uint8
    Y_pred = np.zeros((len(sizes), n_test, n_labels), dtype=dtype)
    Y_score = np.zeros((len(sizes), n_test, n_labels), dtype=float)
    # "all" is every feature, whatever the ranking's depth (the same columns
    # as the first n_features of a full ranking)
    granules = [(labels, [np.arange(n_features, dtype=np.intp) if label == "all"
                          else np.sort(ranking[:k]) for label, k in sizes])
                for labels, ranking in parts] if sizes else []
    model = registry.create("classifier", classifier, params, random_state=seed)
    if len(granules) > 1 and hasattr(model, "predict_granules"):
        # the granules' models in one call (shared searches: ML-kNN)
        paths = model.predict_granules(X_train, Y_train, X_test, granules)
    else:
        paths = [_fit_predict_path(classifier, params, seed, X_train,
                                   Y_train if labels is None else Y_train[:, labels],
                                   X_test, column_sets)
                 for labels, column_sets in granules]
    what = f"{name}: classifier {classifier!r}"
    paths = check_path(paths, len(granules), what=what, unit="granule")
    for (labels, column_sets), path in zip(granules, paths, strict=True):
        target = slice(None) if labels is None else labels
        shape = (n_test, n_labels if labels is None else len(labels))
        path = check_path(path, len(column_sets), what=what)
        for i, (pred, score) in enumerate(path):
            pred, score = check_predictions(pred, score, shape,
                                            regression=regression, what=what)
            Y_pred[i][:, target] = np.asarray(pred, dtype=dtype)
            Y_score[i][:, target] = np.asarray(score, dtype=float)
    return {"labels": np.array([label for label, _ in sizes]),
            "n_used": np.array([k for _, k in sizes]),
            "n_total": np.array(X_train.shape[1]), "Y_pred": Y_pred,
            "Y_score": Y_score,
            "train_mean": np.asarray(Y_train, dtype=float).mean(axis=0)}


# -------------------------------------------------------------------- evaluate
def evaluate_fold(Y_true, pred, *, regression: bool = False
                  ) -> list[tuple[str, str, float]]:
    """``(grid point, metric, value)`` of every metric for every K of one fold.

    ``pred`` is the output of :func:`classify_fold` (or its ``.npz``).
    """
    rows: list[tuple[str, str, float]] = []
    n_total = int(pred["n_total"])
    for i, label in enumerate(np.asarray(pred["labels"]).tolist()):
        if regression:  # multi-target regression (Sechidis 2019, Section 5)
            values = {"rrmse": float(rrmse(Y_true, pred["Y_pred"][i],
                                           train_mean=pred["train_mean"]))}
        else:
            values = evaluate_metrics(Y_true, pred["Y_pred"][i], pred["Y_score"][i],
                                      variants=True)
        values["feature_reduction"] = float(
            feature_reduction(int(pred["n_used"][i]), n_total))
        rows.extend((str(label), metric, value) for metric, value in values.items())
    return rows
