"""Features from ARFF attributes: nominal encoding, missing values.

:func:`encode_features` turns the non-label attributes of a parsed ARFF file
(:class:`~mlfsbench.data.arff.RawArff`) into a numeric feature matrix:

- numeric attributes stay ``float``;
- nominal attributes with two values become one 0/1 column (see
  :func:`binary_flipped` for which value is 1);
- other nominal attributes become one-hot columns named ``attr=value`` or
  integer codes (``nominal="ordinal"``, :data:`NOMINAL_MODES`);
- missing values (``?``) are ``NaN``; they are kept or rejected
  (:data:`MISSING_MODES`, :func:`missing_attributes`).

:func:`identifier_like` finds the attributes to drop (one distinct value per
instance, e.g. genbase's ``protein``). The values' range is checked by
:func:`mlfsbench.data.values.check_feature_values`, for R data files too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from mlfsbench.data.arff import (
    Attribute,
    Matrix,
    RawArff,
    columns_with_nan,
    dense_columns,
)

NOMINAL_MODES = ("onehot", "ordinal")
MISSING_MODES = ("keep", "reject")

# (false, true) spellings of a two-valued nominal attribute, lower case.
_FALSE_TRUE = {("0", "1"), ("no", "yes"), ("false", "true")}


def binary_flipped(values: Sequence[str]) -> bool:
    """Whether a two-valued nominal attribute declares its "true" value first.

    A binary nominal feature is coded 0 for its first declared value and 1 for
    the second, except when the two values spell false/true (``0/1``,
    ``no/yes``, ``false/true``, any case) in the reverse order: then the
    "true" value is 1 whatever its position (genbase declares ``{YES,NO}``).

    Examples
    --------
    >>> binary_flipped(["YES", "NO"]), binary_flipped(["no", "yes"])
    (True, False)
    >>> binary_flipped(["low", "high"])
    False
    """
    low = tuple(v.lower() for v in values)
    return low[::-1] in _FALSE_TRUE


def identifier_like(raw: RawArff, cols: list[int]) -> set[int]:
    """Nominal (more than two values) or string attributes among ``cols`` with
    one distinct, present value per instance of ``raw``."""
    if raw.n < 2:
        return set()
    found = set()
    nominal = [j for j in cols if raw.attributes[j].kind == "nominal"
               and len(raw.attributes[j].values) > 2]
    if nominal:
        values = dense_columns(raw.R, nominal)
        for k, j in enumerate(nominal):
            v = values[:, k]
            if not np.isnan(v).any() and np.unique(v).size == raw.n:
                found.add(j)
    for j in cols:
        if raw.attributes[j].kind == "string":
            values = [v for v in raw.strings[j] if v is not None]
            if len(values) == raw.n and len(set(values)) == raw.n:
                found.add(j)
    return found


def missing_attributes(raw: RawArff, cols: list[int]) -> list[str]:
    """Names of the (non-string) attributes among ``cols`` with missing values."""
    has_nan = columns_with_nan(raw.R)
    return [raw.attributes[j].name for j in cols if has_nan[j]]


def _encoding(attr: Attribute, nominal: str) -> str:
    """How an attribute becomes feature columns.

    One of ``numeric``, ``binary``, ``flipped`` (binary coded 1 for its first
    declared value, see :func:`binary_flipped`), ``onehot``, ``ordinal``.
    """
    if attr.kind == "numeric":
        return "numeric"
    if attr.kind != "nominal":
        raise ValueError(f"attribute {attr.name!r} of kind {attr.kind} is no feature")
    if len(attr.values) == 2:
        return "flipped" if binary_flipped(attr.values) else "binary"
    return nominal


def _special_block(values: np.ndarray, k: int) -> np.ndarray:
    """Columns of a nominal attribute with ``k`` values from its value indices.

    ``k == 2`` (a flipped binary): one column, 1 for index 0. Otherwise ``k``
    one-hot columns. Missing values stay ``NaN`` in every column.
    """
    if k == 2:
        return 1.0 - values[:, None]
    block = (values[:, None] == np.arange(k)[None, :]).astype(float)
    block[np.isnan(values)] = np.nan
    return block


def encode_features(raw: RawArff, cols: list[int], nominal: str):
    """Feature matrix, names and types of the attributes ``cols``.

    Numeric, binary and ordinal columns are copied from the value matrix in
    one slice; flipped binary and one-hot columns are computed from the dense
    columns of those attributes only, and every column is put back into
    attribute order.
    """
    encodings = [_encoding(raw.attributes[j], nominal) for j in cols]
    plain = [j for j, e in zip(cols, encodings, strict=True)
             if e in ("numeric", "binary", "ordinal")]
    special = [j for j, e in zip(cols, encodings, strict=True)
               if e in ("flipped", "onehot")]
    columns: dict[int, list[tuple[str, str]]] = {}  # attribute -> (name, type)
    for j, e in zip(cols, encodings, strict=True):
        attr = raw.attributes[j]
        if e == "onehot":
            columns[j] = [(f"{attr.name}={v}", "onehot") for v in attr.values]
        else:
            columns[j] = [(attr.name, "binary" if e == "flipped" else e)]

    dense = dense_columns(raw.R, special) if special else None
    parts = [_special_block(dense[:, k], len(raw.attributes[j].values))
             for k, j in enumerate(special)]
    X = _hstack(raw.R[:, plain], parts, raw.sparse)

    # Output order: attribute order; X's columns are plain then special.
    stacked = [c for j in plain + special for c in columns[j]]
    start, offset = {}, 0
    for j in plain + special:
        start[j] = offset
        offset += len(columns[j])
    order = [start[j] + i for j in cols for i in range(len(columns[j]))]
    if order != list(range(len(order))):
        X = X[:, order]
        if sp.issparse(X):
            X.sort_indices()
    names = [stacked[i][0] for i in order]
    types = [stacked[i][1] for i in order]
    return X, names, types


def _hstack(first: Matrix, parts: list[np.ndarray], sparse: bool) -> Matrix:
    """``first`` followed by the dense ``parts``; CSR when ``sparse``."""
    if not sparse:
        return np.hstack([np.asarray(first, dtype=float), *parts])
    X = sp.hstack([first, *(sp.csr_matrix(p) for p in parts)], format="csr",
                  dtype=np.float64)
    X.eliminate_zeros()
    X.sort_indices()
    return X
