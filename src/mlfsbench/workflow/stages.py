"""The workflow's stages as plain functions of files.

Each function reads its inputs, calls the library, and writes its outputs
atomically (see :mod:`mlfsbench.io`). The Snakemake scripts and the CLI are
thin adapters around these functions, so every stage can be run and tested
without Snakemake.

File formats
------------
prepared dataset
    ``.npz`` written by :meth:`mlfsbench.data.Dataset.save`.
split
    ``.npz`` with ``n_folds`` and ``train_<i>`` / ``test_<i>`` sorted index
    arrays for each fold ``i`` of the file (the workflow writes one file per
    fold batch).
discretized folds
    ``.npz`` with ``X_train_<i>`` / ``X_test_<i>`` integer codes per fold
    (a single-fold file: ``X_train`` / ``X_test``).
selection
    JSON of a batch: ``dataset``, ``split``, ``selector``, ``folds`` and
    ``records``, one per fold: its keys (dataset, split, fold, selector,
    seed), method, parameters, ``ranking`` (feature indices, best first),
    ``features`` (names in ranking order), ``scores`` (by feature index),
    ``n_selected`` and ``seconds``. The CLI's ``select --json`` writes one
    such record.
predictions (kept on request)
    ``.npz`` with ``labels`` (the grid points: ``"5"``, ``"all"``,
    ``"selected"``), ``n_used`` (their sizes), ``n_total``, ``Y_pred`` and
    ``Y_score`` stacked over the grid, and the test indices.
metrics
    tidy TSV: dataset, split, fold, selector, classifier, n_features,
    metric, value (every measure of :mod:`mlfsbench.evaluation.metrics`, plus the
    feature reduction of Spolaôr et al. 2013, Eq. 10). The workflow's batch
    files hold the cache keys (split protocol, cache ids); an experiment's
    ``metrics.tsv`` its own names for them.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import time
import warnings
from collections.abc import Sequence
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from mlfsbench.data import Dataset, dataset_statistics, load_dataset
from mlfsbench.data.split import make_splits
from mlfsbench.estimators import registry
from mlfsbench.evaluation.metrics import evaluate as evaluate_metrics
from mlfsbench.evaluation.metrics import feature_reduction, rrmse
from mlfsbench.io import (
    METRIC_COLUMNS,
    format_table,
    read_selections,
    save_npz,
    write_json,
    write_text,
)

if TYPE_CHECKING:  # pandas is imported by the stages that write tables only
    import pandas as pd

log = logging.getLogger(__name__)

PathLike = str | os.PathLike


# --------------------------------------------------------------------- prepare
def prepare(arff_paths: Sequence[PathLike], xml: PathLike | None, out: PathLike,
            stats_out: PathLike | None = None, *, name: str,
            nominal: str = "onehot", missing: str = "impute",
            targets: int | None = None) -> Dataset:
    """Parse raw ARFF (+ XML) into a prepared dataset and its statistics.

    ``targets`` marks multi-target regression data (see
    :func:`mlfsbench.data.load_mulan`).
    """
    # ARFF or R data, by the file's suffix (mlfsbench.data.load_dataset)
    ds = load_dataset(list(arff_paths), xml, name=name, nominal=nominal,
                      missing="reject" if missing == "reject" else "keep",
                      targets=targets)
    ds.save(out)
    if stats_out is not None:
        write_json(stats_out, {"dataset": name, **dataset_statistics(ds)})
    log.info("prepared %s: %d x %d, %d labels", name, ds.n_samples,
             ds.X.shape[1], ds.Y.shape[1])
    return ds


# ----------------------------------------------------------------------- split
def split(dataset: PathLike, spec: dict[str, Any], out: PathLike,
          folds: Sequence[int] | None = None) -> None:
    """Write the folds of ``spec`` for a prepared dataset (only ``folds``,
    when given: a batch's; a hold-out spec then needs no ``repeats``, the
    last fold of the batch decides)."""
    ds = Dataset.load(dataset)
    Y = ds.Y
    if ds.is_regression:
        # Iterative stratification needs labels; real targets split at random
        # (the random split depends on the number of rows and the seed only).
        Y = np.zeros((ds.n_samples, 1), dtype=np.uint8)
        if spec.get("type") != "given":
            spec = {**spec, "stratify": False}
    if folds is not None and spec.get("type") == "holdout":
        spec = {**spec, "repeats": max(folds) + 1}
    pairs = make_splits(spec, Y, ds.is_test)
    keep = range(len(pairs)) if folds is None else folds
    arrays = {}
    for i in keep:
        train, test = pairs[i]
        arrays[f"train_{i}"] = np.asarray(train, dtype=np.int64)
        arrays[f"test_{i}"] = np.asarray(test, dtype=np.int64)
    save_npz(out, n_folds=np.array(len(pairs)), **arrays)


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


# ------------------------------------------------------------------ discretize
def discretize_fold(X_train, X_test, *, strategy: str, bins: int):
    """Codes of both parts from a discretizer fitted on the training part
    (the one implementation, called by the batch job and the CLI)."""
    from mlfsbench.estimators.discretizers.unsupervised import (
        make_discretizer,  # sklearn: import on use
    )

    disc = make_discretizer(strategy, bins).fit(X_train)
    return disc.transform(X_train), disc.transform(X_test)


def discretize(dataset: PathLike, split_file: PathLike, fold: int, out: PathLike,
               *, strategy: str, bins: int) -> None:
    """Fit a discretizer on the fold's training part; apply it to both parts."""
    ds = Dataset.load(dataset)
    train, test = load_fold(split_file, fold)
    X_train, X_test = discretize_fold(*fold_data(ds, train, test),
                                      strategy=strategy, bins=bins)
    save_npz(out, X_train=X_train, X_test=X_test)


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


def transform_labels(dataset: PathLike, split_file: PathLike, fold: int,
                     out: PathLike, *, method: str,
                     params: dict[str, Any] | None = None,
                     seed: int = 0) -> dict[str, Any]:
    """:func:`transform_fold` of one fold of a prepared dataset; writes the
    arrays to ``out`` and returns the summary."""
    ds = Dataset.load(dataset)
    train, test = load_fold(split_file, fold)
    arrays, summary = transform_fold(ds.Y[train], ds.Y[test], method=method,
                                     params=params, seed=seed)
    save_npz(out, **arrays)
    return summary


def transform(dataset: PathLike, split_file: PathLike, fold: int, out: PathLike,
              summary_out: PathLike, **kwargs) -> dict[str, Any]:
    """:func:`transform_labels` plus its summary as JSON (the workflow stage)."""
    summary = transform_labels(dataset, split_file, fold, out, **kwargs)
    write_json(summary_out, summary)
    return summary


# ---------------------------------------------------------------------- select
def select_fold(X_train, Y_train, feature_names: Sequence[str], *, method: str,
                params: dict[str, Any] | None = None, seed: int = 0,
                name: str | None = None, feature_types=None) -> dict:
    """Rank the features of one training part: the selection record.

    The one implementation of the selection of a fold, called by the
    workflow's batch jobs (:func:`select_batch`), :func:`select` and the
    CLI's ``select``.
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
    return selection_record(selector, feature_names, method, params, seconds)


def _fold_features(ds: Dataset, split_file: PathLike, fold: int,
                   discretized: PathLike | None, part: str = "train"):
    """The training (and test) features of a fold: raw, or a discretize
    output's codes (a single-fold file or a batch file, see
    :func:`discretize_batch`)."""
    train, test = load_fold(split_file, fold)
    if discretized is None:
        return (train, test, *fold_data(ds, train, test))
    with np.load(discretized) as z:
        if f"X_train_{fold}" in z.files:
            return train, test, z[f"X_train_{fold}"], z[f"X_test_{fold}"]
        return train, test, z["X_train"], z["X_test"]


def select(dataset: PathLike, split_file: PathLike, fold: int, out: PathLike, *,
           method: str, params: dict[str, Any] | None = None, seed: int = 0,
           discretized: PathLike | None = None) -> dict[str, Any]:
    """Rank the features of a fold's training part with a registered selector."""
    ds = Dataset.load(dataset)
    train, _, X, _ = _fold_features(ds, split_file, fold, discretized)
    result = select_fold(X, ds.Y[train], ds.feature_names, method=method,
                         params=params, seed=seed,
                         name=f"{dataset} (dataset {ds.name}, fold {fold})",
                         feature_types=ds.feature_types)
    write_json(out, result)
    log.info("%s on %s fold %d: %.3f s", method, ds.name, fold, result["seconds"])
    return result


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
    :func:`classify` train one classifier per granule.
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
    if record.get("granules"):
        parts = [(np.asarray(g["labels"], dtype=np.intp),
                  np.asarray(g["ranking"], dtype=np.intp))
                 for g in record["granules"]]
    elif record.get("ranking") is None:  # the all-features job: no selection
        parts = [(None, np.arange(X_train.shape[1], dtype=np.intp))]
    else:
        parts = [(None, np.asarray(record["ranking"], dtype=np.intp))]
    sizes = grid_sizes(grid, X_train.shape[1], record.get("n_selected"))
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
    n_test, n_labels = X_test.shape[0], Y_train.shape[1]
    dtype = np.float64 if regression else np.uint8
    Y_pred = np.zeros((len(sizes), n_test, n_labels), dtype=dtype)
    Y_score = np.zeros((len(sizes), n_test, n_labels), dtype=float)
    for labels, ranking in parts if sizes else []:
        target = slice(None) if labels is None else labels
        column_sets = [np.sort(ranking[:k]) for _, k in sizes]
        path = _fit_predict_path(classifier, params, seed, X_train,
                                 Y_train[:, target], X_test, column_sets)
        for i, (pred, score) in enumerate(path):
            Y_pred[i][:, target] = np.asarray(pred, dtype=dtype)
            Y_score[i][:, target] = np.asarray(score, dtype=float)
    return {"labels": np.array([label for label, _ in sizes]),
            "n_used": np.array([k for _, k in sizes]),
            "n_total": np.array(X_train.shape[1]), "Y_pred": Y_pred,
            "Y_score": Y_score,
            "train_mean": np.asarray(Y_train, dtype=float).mean(axis=0)}


def classify(dataset: PathLike, split_file: PathLike, fold: int,
             selection: PathLike, out: PathLike, *, classifier: str,
             params: dict[str, Any] | None = None, grid: Sequence[int | str],
             seed: int = 0, discretized: PathLike | None = None) -> None:
    """:func:`classify_fold` of one fold from files; predictions as ``.npz``.

    ``discretized`` makes the classifier read a discretize output's codes
    instead of the raw features (``input: codes``).
    """
    import json

    ds = Dataset.load(dataset)
    train, test, X_train, X_test = _fold_features(ds, split_file, fold, discretized)
    with open(selection, encoding="utf-8") as fh:
        record = json.load(fh)
    pred = classify_fold(X_train, ds.Y[train], X_test, record,
                         classifier=classifier, params=params, grid=grid,
                         seed=seed, regression=ds.is_regression,
                         name=str(selection))
    save_npz(out, test=test, **pred)


# -------------------------------------------------------------------- evaluate
def evaluate_fold(Y_true, pred, *, regression: bool = False
                  ) -> list[tuple[str, str, float]]:
    """``(grid point, metric, value)`` of every metric for every K of one fold.

    ``pred`` is the output of :func:`classify_fold` (or its ``.npz``).
    """
    rows = []
    n_total = int(pred["n_total"])
    for i, label in enumerate(np.asarray(pred["labels"]).tolist()):
        if regression:  # multi-target regression (Sechidis 2019, Section 5)
            values = {"rrmse": float(rrmse(Y_true, pred["Y_pred"][i],
                                           train_mean=pred["train_mean"]))}
        else:
            values = evaluate_metrics(Y_true, pred["Y_pred"][i], pred["Y_score"][i])
        values["feature_reduction"] = float(
            feature_reduction(int(pred["n_used"][i]), n_total))
        rows.extend((str(label), metric, value) for metric, value in values.items())
    return rows


def evaluate(dataset: PathLike, predictions: PathLike, out: PathLike, *,
             dataset_name: str, split_name: str, fold: int, selector: str,
             classifier: str) -> pd.DataFrame:
    """Every metric for every K of one fold's predictions, as a tidy table."""
    ds = Dataset.load(dataset)
    with np.load(predictions) as z:
        pred = {k: z[k] for k in z.files}
    rows = [(dataset_name, split_name, fold, selector, classifier, *row)
            for row in evaluate_fold(ds.Y[pred["test"]], pred,
                                     regression=ds.is_regression)]
    import pandas as pd

    table = pd.DataFrame(rows, columns=METRIC_COLUMNS)
    write_text(out, format_table(table))
    return table


# --------------------------------------------------------------------- batches
# The workflow's jobs cover a batch of folds of one split (all folds by
# default). Each writes one file whose records carry their keys (dataset,
# split protocol, fold, method identifiers, seed), so no reader parses paths.
# The folds of a batch run in parallel, in worker processes, up to the job's
# threads; the per-fold work is the same function the CLI calls.
def batch_folds(batch: str) -> list[int]:
    """Folds of a batch identifier: ``folds0-4`` -> ``[0, 1, 2, 3, 4]``.

    >>> batch_folds("folds3-5")
    [3, 4, 5]
    """
    first, _, last = batch.removeprefix("folds").partition("-")
    return list(range(int(first), int(last) + 1))


def fold_batches(n: int, size: int | None = None) -> list[str]:
    """Batch identifiers covering folds ``0..n-1``, ``size`` folds each
    (all in one when ``size`` is None or 0).

    >>> fold_batches(5), fold_batches(5, 2)
    (['folds0-4'], ['folds0-1', 'folds2-3', 'folds4-4'])
    """
    size = size or n
    return [f"folds{i}-{min(i + size, n) - 1}" for i in range(0, n, size)]


def _map(func, items: list[tuple], threads: int, *,
         preload: Sequence[str] = (), dataset: PathLike | None = None) -> list:
    """``[func(*item) for item in items]``, in ``threads`` worker processes.

    The job's ``threads`` also bound the native thread pools (BLAS, OpenMP):
    a worker gets its share, and so does the job's own process when the
    items run in it. Left alone, the pools oversubscribe the cores: Snakemake
    runs a script with ``OMP_NUM_THREADS`` and the BLAS variables set to the
    job's threads, and a process of its own starts one thread per core beside
    the other jobs (ML-kNN's path over 51 feature counts on a yeast fold:
    5.6 s instead of 2.4 s). The thread count can also change the last bits
    of BLAS sums, so fixing it keeps reruns bitwise identical.

    On Linux the workers are forked from the job's process after it has
    imported ``preload`` (the modules the items use) and loaded ``dataset``
    (:func:`_load_once`), so they start with both instead of starting Python
    and importing numpy, scikit-learn and the package again, which spawned
    workers (joblib's default) do in every job: 1-2 s of each job's wall
    time, in a run of 400 batch jobs (docs/cluster.md). Elsewhere, where
    forking a process that has loaded a BLAS is not safe (macOS), the workers
    are joblib's spawned ones. A worker that dies (out of memory, killed)
    fails the job with an error instead of hanging it.
    """
    from threadpoolctl import threadpool_limits

    threads = max(1, int(threads))
    if threads == 1 or len(items) <= 1:
        with threadpool_limits(limits=threads):
            return [func(*item) for item in items]
    n_jobs = min(threads, len(items))
    inner = max(1, threads // n_jobs)
    if not sys.platform.startswith("linux"):
        from joblib import Parallel, delayed, parallel_config

        with parallel_config(backend="loky", inner_max_num_threads=inner):
            return Parallel(n_jobs=n_jobs)(delayed(func)(*item) for item in items)
    import importlib
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    for module in preload:
        importlib.import_module(module)
    if dataset is not None:
        _load_once(dataset)
    with warnings.catch_warnings():
        # Python >= 3.12 warns when a process with threads (BLAS's idle
        # pool) forks; the workers only compute and return, in order.
        warnings.filterwarnings("ignore", category=DeprecationWarning,
                                message=".*fork.*")
        with ProcessPoolExecutor(n_jobs, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_limit_threads, initargs=(inner,)) as pool:
            futures = [pool.submit(func, *item) for item in items]
            return [f.result() for f in futures]


def _limit_threads(n: int) -> None:
    """A forked worker's native thread pools: ``n`` threads each, for its life."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=n)


def _fold_seed(seed: int, keys: dict[str, Any], fold: int, method_key: str) -> int:
    from mlfsbench.workflow.seeds import derive_seed

    return derive_seed(seed, keys["dataset"], keys["split"], fold, keys[method_key])


def discretize_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                     out: PathLike, *, strategy: str, bins: int) -> None:
    """:func:`discretize` of every fold of a batch: ``X_train_<fold>``,
    ``X_test_<fold>`` arrays in one ``.npz``."""
    ds = Dataset.load(dataset)
    arrays: dict[str, np.ndarray] = {"folds": np.asarray(folds, dtype=np.int64)}
    for fold in folds:
        train, test = load_fold(split_file, fold)
        arrays[f"X_train_{fold}"], arrays[f"X_test_{fold}"] = discretize_fold(
            *fold_data(ds, train, test), strategy=strategy, bins=bins)
    save_npz(out, **arrays)


def _load_once(dataset: PathLike) -> Dataset:
    """The prepared dataset of a batch job, loaded once per process: the
    folds of a batch, run in turn or in a worker process, read the same
    file (keyed by its path, size and modification time)."""
    st = os.stat(dataset)
    return _load_cached(os.fspath(dataset), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=1)
def _load_cached(path: str, size: int, mtime_ns: int) -> Dataset:
    return Dataset.load(path)


def _select_one(dataset, split_file, fold, discretized, method, params, seed):
    ds = _load_once(dataset)
    train, _, X, _ = _fold_features(ds, split_file, fold, discretized)
    return select_fold(X, ds.Y[train], ds.feature_names, method=method,
                       params=params, seed=seed,
                       name=f"{dataset} (dataset {ds.name}, fold {fold})",
                       feature_types=ds.feature_types)


def select_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                 out: PathLike, *, method: str, params: dict[str, Any] | None,
                 seed: int, keys: dict[str, str],
                 discretized: PathLike | None = None, threads: int = 1) -> dict:
    """Selection records of every fold of a batch, as one JSON.

    ``keys`` holds ``dataset``, ``split`` (the protocol's id) and ``selector``
    (the method's cache id); each fold's selector gets the seed
    :func:`~mlfsbench.workflow.seeds.derive_seed` of (``seed``, those keys,
    fold).
    """
    seeds = [_fold_seed(seed, keys, f, "selector") for f in folds]
    records = _map(_select_one, [(dataset, split_file, f, discretized, method,
                                  params, s) for f, s in zip(folds, seeds,
                                                             strict=True)], threads,
                   preload=("mlfsbench.estimators.selectors",), dataset=dataset)
    for fold, fold_seed, record in zip(folds, seeds, records, strict=True):
        record.update(keys, fold=int(fold), seed=fold_seed)
        log.info("%s on %s fold %d: %.3f s", method, keys["dataset"], fold,
                 record["seconds"])
    result = {**keys, "experiment_seed": seed, "folds": [int(f) for f in folds],
              "records": records}
    write_json(out, result)
    return result


def _classify_one(dataset, split_file, fold, record, codes, classifier, params,
                  grid, seed, predictions_dir):
    ds = _load_once(dataset)
    train, test, X_train, X_test = _fold_features(ds, split_file, fold, codes)
    pred = classify_fold(X_train, ds.Y[train], X_test, record,
                         classifier=classifier, params=params, grid=grid,
                         seed=seed, regression=ds.is_regression,
                         name=f"{record.get('selector')} fold {fold}")
    if predictions_dir is not None:
        save_npz(os.path.join(predictions_dir, f"fold{fold}.npz"), test=test,
                 **pred)
    return evaluate_fold(ds.Y[test], pred, regression=ds.is_regression)


def classify_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                   selection: PathLike | None, out: PathLike, *, classifier: str,
                   params: dict[str, Any] | None, grid: Sequence[int | str],
                   seed: int, keys: dict[str, str], codes: PathLike | None = None,
                   threads: int = 1, predictions_dir: PathLike | None = None,
                   ) -> pd.DataFrame:
    """Classify and evaluate every fold of a batch: one tidy metrics table.

    ``keys``: ``dataset``, ``split``, ``selector``, ``classifier`` (cache
    ids). ``selection`` None classifies on every feature (the all-features
    job; its ``grid`` is ``["all"]``). ``codes`` (a :func:`discretize_batch`
    output) makes the classifier read discretized features. Predictions are
    kept (``fold<i>.npz`` in ``predictions_dir``) only when that is given.
    """
    if selection is None:  # every feature, whatever the selector
        records = {f: {"fold": f, "selector": keys["selector"]} for f in folds}
    else:
        records = {int(r["fold"]): r for r in read_selections(selection)}
    missing = [f for f in folds if f not in records]
    if missing:
        raise ValueError(f"{selection}: no selection for fold(s) {missing}")
    seeds = [_fold_seed(seed, keys, f, "classifier") for f in folds]
    results = _map(_classify_one, [
        (dataset, split_file, f, records[f], codes, classifier, params, grid, s,
         predictions_dir) for f, s in zip(folds, seeds, strict=True)], threads,
        preload=("mlfsbench.estimators.classifiers",), dataset=dataset)
    rows = [(keys["dataset"], keys["split"], int(fold), keys["selector"],
             keys["classifier"], *row)
            for fold, fold_rows in zip(folds, results, strict=True)
            for row in fold_rows]
    import pandas as pd

    table = pd.DataFrame(rows, columns=METRIC_COLUMNS)
    write_text(out, format_table(table))
    return table


def transform_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                    out: PathLike, summary_out: PathLike, *, method: str,
                    params: dict[str, Any] | None, seed: int,
                    keys: dict[str, str]) -> dict:
    """:func:`transform_labels` of every fold of a batch.

    Arrays ``<fold>/<part>_<name>`` in one ``.npz``; the summary JSON has one
    record per fold with its keys.
    """
    ds = Dataset.load(dataset)
    arrays: dict[str, np.ndarray] = {}
    records = []
    for fold in folds:
        fold_seed = _fold_seed(seed, keys, fold, "transformation")
        train, test = load_fold(split_file, fold)
        fold_arrays, summary = transform_fold(ds.Y[train], ds.Y[test],
                                              method=method, params=params,
                                              seed=fold_seed)
        arrays.update({f"{fold}/{k}": v for k, v in fold_arrays.items()})
        records.append({**keys, "fold": int(fold), "seed": fold_seed, **summary})
    save_npz(out, **arrays)
    result = {**keys, "folds": [int(f) for f in folds], "records": records}
    write_json(summary_out, result)
    return result
