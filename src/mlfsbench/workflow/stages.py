"""The workflow's stages as functions of files: the batch jobs of ``scripts/``.

Each function reads its inputs, calls the per-fold science
(:mod:`mlfsbench.workflow.folds`) for every fold of its batch, in worker
processes (:mod:`mlfsbench.workflow.pool`), and writes its outputs
atomically (see :mod:`mlfsbench.io`). The Snakemake scripts are thin
adapters around these functions, so every stage can be run and tested
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
    ``.npz`` with ``folds`` and ``X_train_<i>`` / ``X_test_<i>`` integer codes
    per fold.
selection
    JSON of a batch: ``dataset``, ``split``, ``selector``, ``folds`` and
    ``records``, one per fold: its keys (dataset, split, fold, selector,
    seed), method, parameters, ``ranking`` (feature indices, best first),
    ``features`` (names in ranking order), ``scores`` (by feature index),
    ``n_selected`` and ``seconds``. The CLI's ``select --json`` writes one
    such record.
predictions (kept on request)
    ``fold<i>.npz`` with ``labels`` (the grid points: ``"5"``, ``"all"``,
    ``"selected"``), ``n_used`` (their sizes), ``n_total``, ``Y_pred`` and
    ``Y_score`` stacked over the grid, and the test indices.
metrics
    tidy TSV: dataset, split, fold, selector, classifier, n_features,
    metric, value (every measure of :mod:`mlfsbench.evaluation.metrics` and
    its scoring variants, ``VARIANTS``, plus the feature reduction of
    Spolaôr et al. 2013, Eq. 10). The workflow's batch
    files hold the cache keys (split protocol, cache ids); an experiment's
    ``metrics.tsv`` its own names for them.

Every file these stages write under ``results/shared/`` (split, codes,
selection, metrics, labels, kept predictions) has its sha256 recorded beside
it (``<file>.sha256``, :func:`mlfsbench.io.write_bytes`), and every stage
checks the cached files it reads against theirs before using them
(:func:`mlfsbench.io.read_checked`): an edited result stops the job, naming
the file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from mlfsbench.data import Dataset, dataset_statistics, load_dataset
from mlfsbench.data.split import make_splits
from mlfsbench.io import (
    METRIC_COLUMNS,
    format_table,
    read_selections,
    save_npz,
    verify_files,
    warn_unrecorded,
    write_json,
    write_text,
)
from mlfsbench.workflow.folds import (
    classify_fold,
    discretize_fold,
    evaluate_fold,
    fold_data,
    fold_features,
    load_fold,
    method_seed,
    select_fold,
    transform_fold,
)
from mlfsbench.workflow.pool import load_once, map_folds
from mlfsbench.workflow.resume import kept_folds, run_fold

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
    save_npz(out, checksum=True, n_folds=np.array(len(pairs)), **arrays)


# --------------------------------------------------------------------- batches
# The workflow's jobs cover a batch of folds of one split (all folds by
# default; the batch ids are the plan's, :mod:`mlfsbench.workflow.plan`).
# Each writes one file whose records carry their keys (dataset, split
# protocol, fold, method identifiers, seed), so no reader parses paths. The
# folds of a batch run in parallel, in worker processes, up to the job's
# threads; the per-fold work is the same function the CLI calls.
def discretize_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                     out: PathLike, *, strategy: str, bins: int) -> None:
    """:func:`~mlfsbench.workflow.folds.discretize_fold` of every fold of a
    batch: ``X_train_<fold>``, ``X_test_<fold>`` arrays in one ``.npz``."""
    verify_files([split_file])
    ds = Dataset.load(dataset)
    arrays: dict[str, np.ndarray] = {"folds": np.asarray(folds, dtype=np.int64)}
    for fold in folds:
        train, test = load_fold(split_file, fold)
        arrays[f"X_train_{fold}"], arrays[f"X_test_{fold}"] = discretize_fold(
            *fold_data(ds, train, test), strategy=strategy, bins=bins)
    save_npz(out, checksum=True, **arrays)


def _fold_task(store, fold, needs, func, *args):
    """One fold's work in a worker: its stored result, or ``func(*args)``
    computed and stored (:func:`~mlfsbench.workflow.resume.run_fold`)."""
    return run_fold(store, fold, func, *args, needs=needs)


def _select_one(dataset, split_file, fold, discretized, method, params, seed):
    ds = load_once(dataset)
    train, _, X, _ = fold_features(ds, split_file, fold, discretized)
    return select_fold(X, ds.Y[train], ds.feature_names, method=method,
                       params=params, seed=seed,
                       name=f"{dataset} (dataset {ds.name}, fold {fold})",
                       feature_types=ds.feature_types)


def select_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                 out: PathLike, *, method: str, params: dict[str, Any] | None,
                 seed: int, keys: dict[str, str],
                 discretized: PathLike | None = None, threads: int = 1,
                 version: str | None = None) -> dict:
    """Selection records of every fold of a batch, as one JSON.

    ``keys`` holds ``dataset``, ``split`` (the protocol's id) and ``selector``
    (the method's cache id); each fold's selector gets the seed
    :func:`~mlfsbench.workflow.seeds.derive_seed` of (``seed``, those keys,
    fold). With the ``version`` of the code (the rule's ``code``
    parameter), finished folds are kept in ``<out>.folds/`` until the output
    is written, and a restarted job takes them
    (:mod:`mlfsbench.workflow.resume`).
    """
    verify_files([split_file, discretized])
    seeds = [method_seed(seed, keys, f, "selector") for f in folds]
    with kept_folds(out, version, "select",
                    {"dataset": dataset, "split": split_file,
                     "discretized": discretized},
                    folds=[int(f) for f in folds], method=method, params=params,
                    seed=seed, keys=keys) as store:
        records = map_folds(_fold_task, [
            (store, f, (), _select_one, dataset, split_file, f, discretized,
             method, params, s) for f, s in zip(folds, seeds, strict=True)],
            threads, preload=("mlfsbench.estimators.selectors",),
            dataset=dataset)
        for fold, fold_seed, record in zip(folds, seeds, records, strict=True):
            record.update(keys, fold=int(fold), seed=fold_seed)
            log.info("%s on %s fold %d: %.3f s", method, keys["dataset"], fold,
                     record["seconds"])
        result = {**keys, "experiment_seed": seed,
                  "folds": [int(f) for f in folds], "records": records}
        write_json(out, result, checksum=True)
    return result


def _classify_one(dataset, split_file, fold, record, codes, classifier, params,
                  grid, seed, predictions_dir):
    ds = load_once(dataset)
    train, test, X_train, X_test = fold_features(ds, split_file, fold, codes)
    pred = classify_fold(X_train, ds.Y[train], X_test, record,
                         classifier=classifier, params=params, grid=grid,
                         seed=seed, regression=ds.is_regression,
                         name=f"{dataset} (dataset {ds.name}, fold {fold}): "
                              f"selector {record.get('selector')!r}")
    if predictions_dir is not None:
        save_npz(os.path.join(predictions_dir, f"fold{fold}.npz"), checksum=True,
                 test=test, **pred)
    return evaluate_fold(ds.Y[test], pred, regression=ds.is_regression)


def classify_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                   selection: PathLike | None, out: PathLike, *, classifier: str,
                   params: dict[str, Any] | None, grid: Sequence[int | str],
                   seed: int, keys: dict[str, str], codes: PathLike | None = None,
                   threads: int = 1, predictions_dir: PathLike | None = None,
                   version: str | None = None) -> pd.DataFrame:
    """Classify and evaluate every fold of a batch: one tidy metrics table.

    ``keys``: ``dataset``, ``split``, ``selector``, ``classifier`` (cache
    ids). ``selection`` None classifies on every feature (the all-features
    job; its ``grid`` is ``["all"]``). ``codes`` (a :func:`discretize_batch`
    output) makes the classifier read discretized features. Predictions are
    kept (``fold<i>.npz`` in ``predictions_dir``) only when that is given.
    With the ``version`` of the code, finished folds are kept until the
    output is written, as :func:`select_batch`'s.
    """
    unrecorded: list = []  # cached inputs without a checksum: one warning
    verify_files([split_file, codes], unrecorded)
    if selection is None:  # every feature, whatever the selector
        records = {f: {"fold": f, "selector": keys["selector"]} for f in folds}
    else:
        records = {int(r["fold"]): r for r in read_selections(selection,
                                                              unrecorded)}
    warn_unrecorded(unrecorded)
    missing = [f for f in folds if f not in records]
    if missing:
        raise ValueError(f"{selection}: no selection for fold(s) {missing}")
    seeds = [method_seed(seed, keys, f, "classifier") for f in folds]
    with kept_folds(out, version, "classify",
                    {"dataset": dataset, "split": split_file,
                     "selection": selection, "codes": codes},
                    folds=[int(f) for f in folds], classifier=classifier,
                    params=params, grid=list(grid), seed=seed, keys=keys,
                    predictions=predictions_dir is not None) as store:
        # a stored fold whose kept predictions are gone is computed again
        results = map_folds(_fold_task, [
            (store, f, () if predictions_dir is None else
             (os.path.join(predictions_dir, f"fold{f}.npz"),), _classify_one,
             dataset, split_file, f, records[f], codes, classifier, params,
             grid, s, predictions_dir) for f, s in zip(folds, seeds, strict=True)],
            threads, preload=("mlfsbench.estimators.classifiers",),
            dataset=dataset)
        rows = [(keys["dataset"], keys["split"], int(fold), keys["selector"],
                 keys["classifier"], *row)
                for fold, fold_rows in zip(folds, results, strict=True)
                for row in fold_rows]
        import pandas as pd

        table = pd.DataFrame(rows, columns=METRIC_COLUMNS)
        write_text(out, format_table(table), checksum=True)
    return table


def transform_batch(dataset: PathLike, split_file: PathLike, folds: Sequence[int],
                    out: PathLike, summary_out: PathLike, *, method: str,
                    params: dict[str, Any] | None, seed: int,
                    keys: dict[str, str]) -> dict:
    """:func:`~mlfsbench.workflow.folds.transform_fold` of every fold of a batch.

    Arrays ``<fold>/<part>_<name>`` in one ``.npz``; the summary JSON has one
    record per fold with its keys.
    """
    verify_files([split_file])
    ds = Dataset.load(dataset)
    arrays: dict[str, np.ndarray] = {}
    records = []
    for fold in folds:
        fold_seed = method_seed(seed, keys, fold, "transformation")
        train, test = load_fold(split_file, fold)
        fold_arrays, summary = transform_fold(ds.Y[train], ds.Y[test],
                                              method=method, params=params,
                                              seed=fold_seed)
        arrays.update({f"{fold}/{k}": v for k, v in fold_arrays.items()})
        records.append({**keys, "fold": int(fold), "seed": fold_seed, **summary})
    save_npz(out, checksum=True, **arrays)
    result = {**keys, "folds": [int(f) for f in folds], "records": records}
    write_json(summary_out, result, checksum=True)
    return result
