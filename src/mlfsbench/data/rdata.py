"""Multi-label datasets in R data files: ``mldr`` objects.

The R package mldr.datasets (public repository ``fcharte/mldr.datasets``)
distributes its datasets as R data files (``.rda``), each holding one object
of the R class ``mldr``: a list with

- ``dataset``: a data.frame, one column per attribute (the input
  attributes, the labels, and bookkeeping columns mldr adds, ``.labelcount``
  and ``.SCUMBLE``);
- ``labels``: a data.frame, one row per label (row names: the label names),
  whose ``index`` column is the label's 1-based column in ``dataset``;
- ``attributesIndexes``: the 1-based columns of the input attributes.

:func:`load_mldr` reads such a file through the ``rdata`` library into a
:class:`~mlfsbench.data.dataset.Dataset`: the input attributes (in their
order, names kept) are the features, the labels are taken by the object's
label index (in the order of its ``labels`` frame), the bookkeeping columns
are dropped. :func:`load_dataset` is the one place that tells the two file
formats apart: an R data file (by its suffix, :data:`R_DATA_SUFFIXES`) goes
to :func:`load_mldr`, anything else to :func:`~mlfsbench.data.mulan.load_mulan`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mlfsbench.data.arff import DataFormatError
from mlfsbench.data.dataset import Dataset
from mlfsbench.data.encoding import MISSING_MODES
from mlfsbench.data.mulan import load_mulan
from mlfsbench.data.values import check_feature_values

PathLike = str | os.PathLike
R_DATA_SUFFIXES = (".rda", ".rdata")
"""File suffixes (compared in lower case) read as R data files."""
_R_VECTORS = {"f": "numeric", "i": "integer", "b": "logical", "U": "character",
              "O": "character", "c": "complex"}


class _Mldr(dict):
    """The converted list of an R object of class ``mldr``."""


def _mldr_constructor(obj: Any, attrs: Any) -> _Mldr:
    if not isinstance(obj, dict):
        raise DataFormatError(f"an mldr object is an R list, got {type(obj).__name__}")
    return _Mldr(obj)


def is_r_data(path: PathLike) -> bool:
    """Whether ``path`` names an R data file (by its suffix).

    >>> is_r_data("data/raw/languagelog/whole.rda"), is_r_data("x.arff")
    (True, False)
    """
    return Path(path).suffix.lower() in R_DATA_SUFFIXES


def _kind(obj: Any) -> str:
    """A short R-like description of a converted object, for messages."""
    import pandas as pd

    if isinstance(obj, _Mldr):
        return "mldr"
    if isinstance(obj, pd.DataFrame):
        return f"data.frame {obj.shape[0]} x {obj.shape[1]}"
    if isinstance(obj, dict):
        return f"list of {len(obj)}"
    if isinstance(obj, np.ndarray):
        kind = _R_VECTORS.get(obj.dtype.kind, str(obj.dtype))
        return f"{kind} vector of {obj.size}"
    return type(obj).__name__


def _read_objects(path: Path) -> dict[str, Any]:
    """The objects of an R data file, an ``mldr`` one as :class:`_Mldr`."""
    import rdata

    constructors = {**rdata.conversion.DEFAULT_CLASS_MAP, "mldr": _mldr_constructor}
    try:
        with warnings.catch_warnings():
            # rdata warns when it guesses the format; a wrong guess then fails.
            warnings.simplefilter("ignore", UserWarning)
            objects = rdata.read_rda(path, constructor_dict=constructors)
    except DataFormatError as exc:
        raise DataFormatError(f"{path}: {exc}") from exc
    except OSError as exc:
        raise DataFormatError(f"{path}: cannot read ({exc})") from exc
    except Exception as exc:  # the parser's errors have no common base class
        raise DataFormatError(
            f"{path}: not a readable R data file ({type(exc).__name__}: {exc})"
        ) from exc
    if not isinstance(objects, dict):
        raise DataFormatError(f"{path}: not an R data file of named objects")
    return objects


def _find_mldr(path: Path, objects: dict[str, Any]) -> tuple[str, _Mldr]:
    found = [(str(k), v) for k, v in objects.items() if isinstance(v, _Mldr)]
    if len(found) == 1:
        return found[0]
    held = ", ".join(f"{k} ({_kind(v)})" for k, v in objects.items()) or "nothing"
    if not found:
        raise DataFormatError(f"{path}: no mldr object; the file holds {held}")
    raise DataFormatError(
        f"{path}: {len(found)} mldr objects, expected one; the file holds {held}"
    )


def _indices(where: str, what: str, values: Any, n_columns: int) -> list[int]:
    """0-based column indices from R's 1-based ones, checked."""
    try:
        idx = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise DataFormatError(f"{where}: {what} is not numeric ({exc})") from exc
    if idx.size and (np.isnan(idx).any() or (idx != np.round(idx)).any()
                     or idx.min() < 1 or idx.max() > n_columns):
        raise DataFormatError(
            f"{where}: {what} must hold column numbers 1..{n_columns}"
        )
    out = [int(i) - 1 for i in idx]
    if len(set(out)) != len(out):
        raise DataFormatError(f"{where}: {what} repeats a column")
    return out


def load_mldr(path: PathLike, *, name: str | None = None,
              missing: str = "keep") -> Dataset:
    """Load the ``mldr`` object of an R data file as a multi-label dataset.

    Parameters
    ----------
    path : path
        An R data file (``.rda``) holding exactly one ``mldr`` object.
    name : str, optional
        Dataset name; default: the file's stem.
    missing : {"keep", "reject"}
        Keep missing feature values (R's ``NA``) as ``NaN`` or raise
        :class:`~mlfsbench.data.arff.DataFormatError`.

    Returns
    -------
    Dataset
        ``X`` dense ``float64``: the input attributes (``attributesIndexes``;
        without it, every column that is neither a label nor a bookkeeping
        column, whose names start with ``.``), in column order, names kept;
        ``feature_types`` ``binary`` for an attribute the object declares
        ``{0,1}``, else ``numeric``. ``Y`` ``uint8``: the columns the
        ``labels`` frame's ``index`` names, in its row order; a label that
        never occurs is kept (a constant column).

    Raises
    ------
    DataFormatError
        If the file is not an R data file, holds no (or more than one)
        ``mldr`` object (the message lists what it holds), or the object is
        malformed: no ``dataset``/``labels`` frame or ``index``, indices out of
        range or overlapping, label values other than 0/1, non-numeric
        features, missing feature values with ``missing="reject"``, or
        feature values the ARFF reader refuses too, infinite or of too large
        a magnitude (:func:`~mlfsbench.data.values.check_feature_values`).
        Every message names the file.
    """
    import pandas as pd

    if missing not in MISSING_MODES:
        raise ValueError(f"missing must be one of {MISSING_MODES}, got {missing!r}")
    path = Path(path)
    key, obj = _find_mldr(path, _read_objects(path))
    where = f"{path}: mldr object {key!r}"
    frame, labels = obj.get("dataset"), obj.get("labels")
    if not isinstance(frame, pd.DataFrame) or not isinstance(labels, pd.DataFrame):
        raise DataFormatError(f"{where}: needs the data.frames 'dataset' and 'labels'")
    if "index" not in labels.columns:
        raise DataFormatError(f"{where}: its 'labels' frame has no 'index' column")
    columns = [str(c) for c in frame.columns]
    label_idx = _indices(where, "labels$index", labels["index"], len(columns))
    if not label_idx:
        raise DataFormatError(f"{where}: no labels")
    names = [str(n) for n in labels.index]
    wrong = [(n, columns[j]) for n, j in zip(names, label_idx, strict=True)
             if n != columns[j]]
    if wrong:
        raise DataFormatError(
            f"{where}: label index and names disagree, e.g. {wrong[0][0]!r} "
            f"points at column {wrong[0][1]!r}"
        )
    if obj.get("attributesIndexes") is not None:
        feature_idx = _indices(where, "attributesIndexes", obj["attributesIndexes"],
                               len(columns))
    else:
        feature_idx = [j for j, c in enumerate(columns)
                       if j not in set(label_idx) and not c.startswith(".")]
    both = sorted(set(feature_idx) & set(label_idx))
    if both:
        raise DataFormatError(
            f"{where}: column {columns[both[0]]!r} is both a feature and a label"
        )

    Y = frame.iloc[:, label_idx].to_numpy(dtype=float, na_value=np.nan)
    bad = ~np.isin(Y, (0.0, 1.0))
    if bad.any():
        j = int(np.flatnonzero(bad.any(axis=0))[0])
        raise DataFormatError(f"{where}: label {names[j]!r} has values other than 0/1")
    features = frame.iloc[:, feature_idx]
    text = [c for c, t in features.dtypes.items()
            if not pd.api.types.is_numeric_dtype(t)]
    if text:
        raise DataFormatError(
            f"{where}: non-numeric feature column(s) {', '.join(map(str, text[:5]))}"
        )
    X = features.to_numpy(dtype=np.float64, na_value=np.nan)
    if missing == "reject" and np.isnan(X).any():
        cols = [columns[feature_idx[j]]
                for j in np.flatnonzero(np.isnan(X).any(axis=0))]
        raise DataFormatError(
            f"{where}: missing values in attribute(s) {', '.join(cols[:5])}"
        )
    feature_names = [columns[j] for j in feature_idx]
    check_feature_values(X, feature_names, where)
    declared = obj.get("attributes")
    types = {}
    if declared is not None and np.size(declared) == len(columns):
        types = dict(zip(columns, np.asarray(declared, dtype=str).ravel(), strict=True))
    return Dataset(
        name=name or path.stem,
        X=np.ascontiguousarray(X),
        Y=Y.astype(np.uint8),
        feature_names=feature_names,
        label_names=names,
        feature_types=["binary" if types.get(columns[j]) == "{0,1}" else "numeric"
                       for j in feature_idx],
    )


def load_dataset(paths: PathLike | Sequence[PathLike], xml: PathLike | None = None,
                 *, name: str | None = None, nominal: str = "onehot",
                 missing: str = "keep", targets: int | None = None,
                 accept_xml: bool = False) -> Dataset:
    """Load a dataset file by its format: R data (:func:`load_mldr`) or ARFF.

    One file whose suffix is in :data:`R_DATA_SUFFIXES` is read as an
    ``mldr`` object (it carries its own labels: no XML, no ``targets``);
    anything else goes to :func:`~mlfsbench.data.mulan.load_mulan` with the
    same arguments.
    """
    listed = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    if not any(is_r_data(p) for p in listed):
        return load_mulan(paths, xml, name=name, nominal=nominal, missing=missing,
                          targets=targets, accept_xml=accept_xml)
    if len(listed) != 1:
        raise ValueError(
            f"an R data file is a whole dataset: expected one file, got "
            f"{', '.join(map(str, listed))}"
        )
    if xml is not None or targets is not None:
        raise ValueError(
            f"{listed[0]}: an mldr object names its own labels; no label XML or "
            f"targets apply"
        )
    return load_mldr(listed[0], name=name, missing=missing)
