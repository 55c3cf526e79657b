"""The prepared multi-label dataset: one compact ``.npz`` per dataset.

``X`` is a dense ``float64`` array or a ``scipy.sparse.csr_matrix`` (sparse
ARFF stays sparse); missing values are ``NaN``. ``Y`` is a dense ``uint8``
0/1 matrix, or ``float64`` real-valued targets for multi-target regression
data (:attr:`Dataset.is_regression`). ``is_test`` marks the instances that
came from a given test file (all ``False`` when the dataset was one file).

The file carries its sha256 beside it (``<file>.sha256``, written with it by
:meth:`Dataset.save`) and :meth:`Dataset.load` checks it, as the stages check
the cached results under ``results/shared/`` (:func:`mlfsbench.io.read_checked`):
a prepared file edited after the prepare stage wrote it stops the stage that
reads it, naming the file and how to rebuild it.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from mlfsbench.io import read_checked, save_npz


@dataclass
class Dataset:
    """Features, labels and their names; see the module docstring."""

    name: str
    X: np.ndarray | sp.csr_matrix
    Y: np.ndarray
    feature_names: list[str]
    label_names: list[str]
    feature_types: list[str] = field(default_factory=list)
    is_test: np.ndarray | None = None

    def __post_init__(self):
        n = self.X.shape[0]
        if self.Y.shape[0] != n:
            raise ValueError(
                f"{self.name}: X has {n} rows but Y has {self.Y.shape[0]}"
            )
        if len(self.feature_names) != self.X.shape[1]:
            raise ValueError(f"{self.name}: feature_names do not match X's columns")
        if len(self.label_names) != self.Y.shape[1]:
            raise ValueError(f"{self.name}: label_names do not match Y's columns")
        if not self.feature_types:
            self.feature_types = ["numeric"] * self.X.shape[1]
        if self.is_test is None:
            self.is_test = np.zeros(n, dtype=bool)

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def is_regression(self) -> bool:
        """Real-valued targets (multi-target regression) rather than labels."""
        return self.Y.dtype.kind == "f"

    @property
    def is_sparse(self) -> bool:
        return sp.issparse(self.X)

    def dense_X(self) -> np.ndarray:
        """``X`` as a dense float array (copies when sparse)."""
        return self.X.toarray() if self.is_sparse else np.asarray(self.X)

    def save(self, path: str | os.PathLike) -> None:
        """Atomically write the dataset to an ``.npz`` file, its sha256 to
        ``<file>.sha256`` first (:func:`mlfsbench.io.write_bytes`)."""
        arrays = dict(
            name=np.array(self.name),
            Y=self.Y if self.is_regression else self.Y.astype(np.uint8),
            feature_names=np.array(self.feature_names, dtype=str),
            label_names=np.array(self.label_names, dtype=str),
            feature_types=np.array(self.feature_types, dtype=str),
            is_test=np.asarray(self.is_test, dtype=bool),
        )
        if self.is_sparse:
            X = sp.csr_matrix(self.X)
            arrays.update(X_data=X.data, X_indices=X.indices, X_indptr=X.indptr,
                          X_shape=np.array(X.shape))
        else:
            arrays["X"] = np.asarray(self.X, dtype=float)
        save_npz(path, checksum=True, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike,
             unrecorded: list[Path] | None = None) -> Dataset:
        """Read a dataset written by :meth:`save`, checked against the sha256
        recorded beside it.

        A file that differs raises :class:`mlfsbench.io.CacheIntegrityError`
        naming it, both checksums and the ``rm -f`` and rerun that rebuilds
        it; a file without a checksum (written before they were recorded) is
        read and goes to ``unrecorded``, or, without that list, into a
        warning (:func:`mlfsbench.io.read_checked`).
        """
        data = read_checked(path, unrecorded)
        try:
            z = np.load(io.BytesIO(data), allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: not a prepared dataset file ({exc})") from exc
        with z:
            if "X_data" in z:
                X = sp.csr_matrix((z["X_data"], z["X_indices"], z["X_indptr"]),
                                  shape=tuple(z["X_shape"]))
            else:
                X = z["X"]
            return cls(
                name=str(z["name"]),
                X=X,
                Y=z["Y"],
                feature_names=z["feature_names"].tolist(),
                label_names=z["label_names"].tolist(),
                feature_types=z["feature_types"].tolist(),
                is_test=z["is_test"],
            )
