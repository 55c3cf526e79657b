"""Descriptive statistics of a multi-label dataset, as published for Mulan."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from mlfsbench.data.dataset import Dataset


def dataset_statistics(ds: Dataset) -> dict:
    """Size and label statistics of a dataset.

    Parameters
    ----------
    ds : Dataset
        The dataset.

    Returns
    -------
    dict
        ``instances``, ``features`` and ``labels`` (counts);
        ``cardinality``, the mean number of labels per instance;
        ``density``, the cardinality divided by the number of labels;
        ``distinct_labelsets``, the number of distinct label vectors;
        ``binary_features``, whether every feature value is 0 or 1 (the
        text datasets' word indicators: a fact the workflow's plan reads,
        :func:`~mlfsbench.estimators.registry.params_unused_on`).
        Ratios are ``nan`` when undefined (no instance or no label).

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset("toy", np.zeros((4, 2)),
    ...              np.array([[1, 0], [1, 1], [1, 0], [0, 0]], dtype=np.uint8),
    ...              ["f1", "f2"], ["a", "b"])
    >>> stats = dataset_statistics(ds)
    >>> stats["cardinality"], stats["density"], stats["distinct_labelsets"]
    (1.0, 0.5, 3)
    >>> stats["binary_features"]
    True
    """
    Y = np.asarray(ds.Y)
    n, q = Y.shape
    if ds.is_regression:  # real-valued targets: no label statistics
        return {"instances": int(n), "features": int(ds.X.shape[1]),
                "labels": int(q), "cardinality": float("nan"),
                "density": float("nan"), "distinct_labelsets": None,
                "binary_features": binary_features(ds.X)}
    cardinality = float(Y.sum(dtype=np.int64) / n) if n else float("nan")
    density = cardinality / q if q else float("nan")
    distinct = int(np.unique(Y, axis=0).shape[0]) if n else 0
    return {
        "instances": int(n),
        "features": int(ds.X.shape[1]),
        "labels": int(q),
        "cardinality": cardinality,
        "density": density,
        "distinct_labelsets": distinct,
        "binary_features": binary_features(ds.X),
    }


def binary_features(X) -> bool:
    """Whether every value of the feature matrix ``X`` (dense or sparse) is
    0 or 1.

    >>> binary_features(np.array([[0.0, 1.0], [1.0, 1.0]]))
    True
    >>> binary_features(sp.csr_matrix(np.array([[0.0, 2.0]])))
    False
    """
    values = X.data if sp.issparse(X) else np.asarray(X)
    return bool(np.isin(values, (0, 1)).all())
