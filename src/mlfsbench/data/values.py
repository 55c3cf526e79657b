"""The feature values every reader accepts: finite, of bounded magnitude.

Both dataset readers (ARFF, :func:`~mlfsbench.data.mulan.load_mulan`, and R
data, :func:`~mlfsbench.data.rdata.load_mldr`) pass their feature matrix to
:func:`check_feature_values` before they build the dataset, so a value the
later stages cannot take stops the prepare stage, naming the file and the
feature, whatever the file's format. ``NaN`` is a missing value (ARFF's
``?``, R's ``NA``), kept or rejected by the reader's ``missing`` option; the
ARFF parser refuses a written ``nan`` and names an ``inf``'s line first
(:mod:`mlfsbench.data.arff`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from mlfsbench.data.arff import DataFormatError, Matrix

#: Largest feature magnitude the stages' arithmetic takes: squares of
#: differences (distances) and ranges (bins, scaling) of larger values overflow
#: a double (1e308) and turn into inf or NaN without an error.
MAX_MAGNITUDE = 1e150


def _entries(X: Matrix, bad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the stored values flagged in ``bad`` (row order)."""
    if sp.issparse(X):
        rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        return rows[bad], X.indices[bad]
    return np.divmod(np.flatnonzero(bad), X.shape[1])


def _features(names: Sequence[str], cols: np.ndarray) -> str:
    cols = np.unique(cols)
    shown = ", ".join(repr(names[j]) for j in cols[:5])
    more = f" and {len(cols) - 5} more" if len(cols) > 5 else ""
    return f"feature(s) {shown}{more}"


def check_feature_values(X: Matrix, names: Sequence[str], source: str) -> None:
    """Refuse feature values the later stages cannot compute with.

    - An infinite value (``inf``, ``-inf``): the discretizers, distances and
      statistics would fail or turn it into NaN far from the file.
    - A magnitude of :data:`MAX_MAGNITUDE` or more (issue 29, S6): values near
      1e308 put every value in one equal-width bin and give NaN distances.

    ``X`` is dense or CSR (its stored values are checked), ``names`` its
    column names, ``source`` the file (and object) named first in the
    message; ``NaN`` (missing) passes. Raises :class:`DataFormatError` naming
    the source and the first features concerned, the first such value and its
    instance (from 1).

    >>> check_feature_values(np.array([[1.0, np.nan]]), ["a", "b"], "t.rda")
    >>> try:
    ...     check_feature_values(np.array([[1.0, -np.inf]]), ["a", "b"], "t.rda")
    ... except DataFormatError as exc:
    ...     print(str(exc).split(";")[0])
    t.rda: feature(s) 'b' hold an infinite value (first: -inf in instance 1)
    """
    values = X.data if sp.issparse(X) else np.asarray(X).ravel()
    if values.size == 0:
        return
    infinite = np.isinf(values)
    if infinite.any():
        rows, cols = _entries(X, infinite)
        first = values[np.flatnonzero(infinite)[0]]
        raise DataFormatError(
            f"{source}: {_features(names, cols)} hold an infinite value (first: "
            f"{first:g} in instance {rows[0] + 1}); write an unknown value as "
            f"missing (NA in R, ? in ARFF)")
    big = np.abs(np.nan_to_num(values)) >= MAX_MAGNITUDE
    if big.any():
        rows, cols = _entries(X, big)
        first = values[np.flatnonzero(big)[0]]
        raise DataFormatError(
            f"{source}: {_features(names, cols)} hold values of magnitude "
            f">= {MAX_MAGNITUDE:g} (first: {first:g} in instance {rows[0] + 1}), "
            f"whose squares and ranges overflow the distance and discretization "
            f"arithmetic; rescale them (e.g. take logarithms)")
