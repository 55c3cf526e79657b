"""The workflow's stages as plain functions of files.

Each function reads its inputs, calls the library, and writes its outputs
atomically (see :mod:`mlfsbench.workflow.io`). The Snakemake scripts and the CLI are
thin adapters around these functions, so every stage can be run and tested
without Snakemake.

File formats
------------
prepared dataset
    ``.npz`` written by :meth:`mlfsbench.data.Dataset.save`.
split
    ``.npz`` with ``train_<i>`` / ``test_<i>`` sorted index arrays per fold.
discretized fold
    ``.npz`` with ``X_train`` / ``X_test`` integer codes.
selection
    JSON: method, parameters, ``ranking`` (feature indices, best first),
    ``features`` (names in ranking order), ``scores`` (by feature index) and
    ``seconds``.
predictions
    ``.npz`` with ``labels`` (the grid points: ``"5"``, ``"all"``,
    ``"selected"``), ``n_used`` (their sizes), ``n_total``, ``Y_pred`` and
    ``Y_score`` stacked over the grid, and the test indices.
metrics
    tidy TSV: dataset, split, fold, selector, classifier, n_features,
    metric, value (every measure of :mod:`mlfsbench.evaluation.metrics`, plus the
    feature reduction of Spolaôr et al. 2013, Eq. 10).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from mlfsbench.data import Dataset, dataset_statistics, load_mulan
from mlfsbench.data.split import make_splits
from mlfsbench.estimators import registry
from mlfsbench.evaluation.metrics import evaluate as evaluate_metrics
from mlfsbench.evaluation.metrics import feature_reduction, rrmse
from mlfsbench.workflow.io import save_npz, write_json, write_text

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
    ds = load_mulan(list(arff_paths), xml, name=name, nominal=nominal,
                    missing="reject" if missing == "reject" else "keep",
                    targets=targets)
    ds.save(out)
    if stats_out is not None:
        write_json(stats_out, {"dataset": name, **dataset_statistics(ds)})
    log.info("prepared %s: %d x %d, %d labels", name, ds.n_samples,
             ds.X.shape[1], ds.Y.shape[1])
    return ds


# ----------------------------------------------------------------------- split
def split(dataset: PathLike, spec: dict[str, Any], out: PathLike) -> None:
    """Write the folds of ``spec`` for a prepared dataset."""
    ds = Dataset.load(dataset)
    Y = ds.Y
    if ds.is_regression:
        # Iterative stratification needs labels; real targets split at random
        # (the random split depends on the number of rows and the seed only).
        Y = np.zeros((ds.n_samples, 1), dtype=np.uint8)
        if spec.get("type") != "given":
            spec = {**spec, "stratify": False}
    folds = make_splits(spec, Y, ds.is_test)
    arrays = {}
    for i, (train, test) in enumerate(folds):
        arrays[f"train_{i}"] = np.asarray(train, dtype=np.int64)
        arrays[f"test_{i}"] = np.asarray(test, dtype=np.int64)
    save_npz(out, n_folds=np.array(len(folds)), **arrays)


def load_fold(split_file: PathLike, fold: int) -> tuple[np.ndarray, np.ndarray]:
    """Train and test indices of one fold of a split file."""
    with np.load(split_file) as z:
        n = int(z["n_folds"])
        if not 0 <= fold < n:
            raise ValueError(f"{split_file}: fold {fold} out of range (0..{n - 1})")
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
def discretize(dataset: PathLike, split_file: PathLike, fold: int, out: PathLike,
               *, strategy: str, bins: int) -> None:
    """Fit a discretizer on the fold's training part; apply it to both parts."""
    ds = Dataset.load(dataset)
    train, test = load_fold(split_file, fold)
    X_train, X_test = fold_data(ds, train, test)
    from mlfsbench.estimators.discretizers.unsupervised import (
        make_discretizer,  # sklearn: import on use
    )

    disc = make_discretizer(strategy, bins).fit(X_train)
    save_npz(out, X_train=disc.transform(X_train), X_test=disc.transform(X_test))


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


def transform_labels(dataset: PathLike, split_file: PathLike, fold: int,
                     out: PathLike, *, method: str,
                     params: dict[str, Any] | None = None,
                     seed: int = 0) -> dict[str, Any]:
    """Fit a label transformation on a fold's training labels; apply it to both.

    Writes the transformed targets (``train_<name>`` / ``test_<name>``
    arrays, see :func:`_named_arrays`) and returns a summary: per array its
    shape and, for a class vector, the number of classes and of instances
    discarded (class ``-1``, e.g. PPT's pruned labelsets).
    """
    ds = Dataset.load(dataset)
    train, test = load_fold(split_file, fold)
    cls = registry.get("transformation", method)
    extra = ({"random_state": seed}
             if "random_state" in registry.parameters(cls) else {})
    transformer = registry.create("transformation", method, params, **extra)
    transformer.fit(ds.Y[train])
    arrays, summary = {}, {"method": method, "params": params or {}}
    for part, rows in (("train", train), ("test", test)):
        for name, arr in _named_arrays(transformer.transform(ds.Y[rows])).items():
            arrays[f"{part}_{name}"] = arr
            info: dict[str, Any] = {"shape": list(arr.shape)}
            if arr.ndim == 1 and np.issubdtype(arr.dtype, np.integer):
                info["classes"] = int(np.unique(arr[arr >= 0]).size)
                info["discarded"] = int(np.count_nonzero(arr < 0))
            summary[f"{part}_{name}"] = info
    save_npz(out, **arrays)
    return summary


def transform(dataset: PathLike, split_file: PathLike, fold: int, out: PathLike,
              summary_out: PathLike, **kwargs) -> dict[str, Any]:
    """:func:`transform_labels` plus its summary as JSON (the workflow stage)."""
    summary = transform_labels(dataset, split_file, fold, out, **kwargs)
    write_json(summary_out, summary)
    return summary


# ---------------------------------------------------------------------- select
def select(dataset: PathLike, split_file: PathLike, fold: int, out: PathLike, *,
           method: str, params: dict[str, Any] | None = None, seed: int = 0,
           discretized: PathLike | None = None) -> dict[str, Any]:
    """Rank the features of a fold's training part with a registered selector."""
    ds = Dataset.load(dataset)
    train, test = load_fold(split_file, fold)
    if discretized is not None:
        with np.load(discretized) as z:
            X = z["X_train"]
    else:
        X, _ = fold_data(ds, train, test)
    from mlfsbench.estimators.selectors import fit_selector  # select jobs only

    selector = registry.create("selector", method, params, random_state=seed)
    start = time.perf_counter()
    try:
        fit_selector(selector, X, ds.Y[train], feature_types=ds.feature_types)
    except ValueError as exc:  # name the data: estimators do not know it
        raise ValueError(f"{dataset} (dataset {ds.name}, fold {fold}): selector "
                         f"{method!r}: {exc}") from exc
    seconds = time.perf_counter() - start
    result = selection_record(selector, ds.feature_names, method, params, seconds)
    write_json(out, result)
    log.info("%s on %s fold %d: %.3f s", method, ds.name, fold, seconds)
    return result


def selection_record(selector, feature_names: Sequence[str], method: str,
                     params: dict[str, Any] | None, seconds: float) -> dict:
    """The JSON record of a fitted selector.

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


def classify(dataset: PathLike, split_file: PathLike, fold: int,
             selection: PathLike, out: PathLike, *, classifier: str,
             params: dict[str, Any] | None = None, grid: Sequence[int | str],
             seed: int = 0) -> None:
    """Train and apply a classifier on the top-K features for every K of the grid.

    When the selection record has ``granules`` (see :func:`selection_record`),
    every K trains one classifier per granule on that granule's own top-K
    features and its own labels, and the granules' predictions and scores fill
    the columns of their labels in the full ``(n_test, n_labels)`` matrices
    (Li et al. 2017, Fig. 2). Labels in no granule (none, for the shipped
    selectors) would keep prediction 0 and score 0.
    """
    import json

    ds = Dataset.load(dataset)
    train, test = load_fold(split_file, fold)
    X_train, X_test = fold_data(ds, train, test)
    with open(selection, encoding="utf-8") as fh:
        record = json.load(fh)
    if record.get("granules"):
        parts = [(np.asarray(g["labels"], dtype=np.intp),
                  np.asarray(g["ranking"], dtype=np.intp))
                 for g in record["granules"]]
    else:
        parts = [(None, np.asarray(record["ranking"], dtype=np.intp))]
    sizes = grid_sizes(grid, X_train.shape[1], record.get("n_selected"))
    empty = [label for label, k in sizes if k == 0]
    if empty:
        # A threshold that no feature reaches (IG with plain MDL on a text
        # dataset): no classifier is built, and the grid point has no result
        # for this fold, as the "-" cells of Spolaor et al. (2013), Tables 3-4.
        log.warning("%s: grid point(s) %s select no feature; no prediction "
                    "for them in this fold", selection, ", ".join(empty))
        sizes = [(label, k) for label, k in sizes if k > 0]
    if not sizes:
        raise ValueError(f"{selection}: no feature count of the grid {list(grid)} "
                         f"fits {X_train.shape[1]} features")
    n_test, n_labels = len(test), ds.Y.shape[1]
    dtype = np.float64 if ds.is_regression else np.uint8
    preds, scores = [], []
    for _, k in sizes:
        Y_pred = np.zeros((n_test, n_labels), dtype=dtype)
        Y_score = np.zeros((n_test, n_labels), dtype=float)
        for labels, ranking in parts:
            cols = np.sort(ranking[:k])
            target = slice(None) if labels is None else labels
            model = registry.create("classifier", classifier, params,
                                    random_state=seed)
            model.fit(X_train[:, cols], ds.Y[train][:, target])
            Y_pred[:, target] = np.asarray(model.predict(X_test[:, cols]),
                                           dtype=dtype)
            Y_score[:, target] = np.asarray(model.predict_proba(X_test[:, cols]),
                                            dtype=float)
        preds.append(Y_pred)
        scores.append(Y_score)
    save_npz(out, labels=np.array([label for label, _ in sizes]),
             n_used=np.array([k for _, k in sizes]), n_total=np.array(X_train.shape[1]),
             Y_pred=np.stack(preds), Y_score=np.stack(scores), test=test,
             train_mean=np.asarray(ds.Y[train], dtype=float).mean(axis=0))


# -------------------------------------------------------------------- evaluate
METRIC_COLUMNS = ["dataset", "split", "fold", "selector", "classifier",
                  "n_features", "metric", "value"]


def evaluate(dataset: PathLike, predictions: PathLike, out: PathLike, *,
             dataset_name: str, split_name: str, fold: int, selector: str,
             classifier: str) -> pd.DataFrame:
    """Every metric for every K of one fold's predictions, as a tidy table."""
    ds = Dataset.load(dataset)
    rows = []
    with np.load(predictions) as z:
        Y_true = ds.Y[z["test"]]
        n_total = int(z["n_total"])
        for i, label in enumerate(z["labels"].tolist()):
            if ds.is_regression:  # multi-target regression (Sechidis 2019, §5)
                values = {"rrmse": float(rrmse(Y_true, z["Y_pred"][i],
                                               train_mean=z["train_mean"]))}
            else:
                values = evaluate_metrics(Y_true, z["Y_pred"][i], z["Y_score"][i])
            values["feature_reduction"] = float(
                feature_reduction(int(z["n_used"][i]), n_total))
            for metric, value in values.items():
                rows.append((dataset_name, split_name, fold, selector, classifier,
                             label, metric, value))
    import pandas as pd

    table = pd.DataFrame(rows, columns=METRIC_COLUMNS)
    write_text(out, format_table(table))
    return table


def format_table(table: pd.DataFrame) -> str:
    """TSV text with a fixed float format (byte-identical across runs)."""
    return table.to_csv(sep="\t", index=False, float_format="%.10g",
                        lineterminator="\n")
