"""Mulan multi-label datasets: ARFF data plus a label XML.

A Mulan dataset is one ARFF file (or a train and a test file with identical
headers) in which some attributes are the labels; the XML file names them
(MEKA datasets declare them in the relation name instead). :func:`load_mulan`
parses the ARFF (:mod:`mlfsbench.data.arff`), locates the labels
(:mod:`mlfsbench.data.labels`) and encodes the remaining attributes as a
numeric feature matrix (:mod:`mlfsbench.data.encoding`): numeric attributes
stay ``float``, nominal ones become 0/1, one-hot or ordinal columns,
identifier-like attributes are dropped with a warning, missing values
(``?``) are ``NaN``. Sparse ARFF stays a ``scipy.sparse.csr_matrix``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from mlfsbench.data.arff import DataFormatError, PathLike, RawArff, read_arff
from mlfsbench.data.dataset import Dataset
from mlfsbench.data.encoding import (
    MISSING_MODES,
    NOMINAL_MODES,
    encode_features,
    identifier_like,
    missing_attributes,
)
from mlfsbench.data.labels import (
    check_labels_agree,
    count_indices,
    label_matrix,
    meka_label_indices,
    parse_label_xml,
    target_matrix,
    warn_case_twins,
    xml_label_indices,
)
from mlfsbench.data.values import check_feature_values


def _check_same_header(raws: list[RawArff]) -> None:
    first = raws[0]
    for raw in raws[1:]:
        if len(raw.attributes) != len(first.attributes):
            raise DataFormatError(
                f"{raw.source}: {len(raw.attributes)} attributes, but "
                f"{first.source} has {len(first.attributes)}"
            )
        for j, (a, b) in enumerate(zip(first.attributes, raw.attributes,
                                       strict=True)):
            if a != b:
                raise DataFormatError(
                    f"{raw.source}: attribute {j + 1} ({b.name!r}, {b.kind}) "
                    f"differs from {first.source} ({a.name!r}, {a.kind})"
                )


def _concatenate(raws: list[RawArff]) -> RawArff:
    """All rows of ``raws`` in order (CSR if any file is sparse)."""
    if len(raws) == 1:
        return raws[0]
    if any(r.sparse for r in raws):
        R = sp.vstack([sp.csr_matrix(r.R) for r in raws], format="csr")
    else:
        R = np.vstack([r.R for r in raws])
    strings = {j: np.concatenate([r.strings[j] for r in raws])
               for j in raws[0].strings}
    source = " + ".join(r.source for r in raws)
    return RawArff(source, raws[0].relation, raws[0].attributes, R, strings)


def _as_path_list(arff_paths: PathLike | Sequence[PathLike]) -> list[Path]:
    if isinstance(arff_paths, str | os.PathLike):
        return [Path(arff_paths)]
    paths = [Path(p) for p in arff_paths]
    if len(paths) not in (1, 2):
        raise ValueError(
            f"expected one ARFF file or a train and a test file, got {len(paths)}"
        )
    return paths


def _default_name(path: Path) -> str:
    """A dataset's name from its first ARFF file: the stem without
    ``-train``/``-test`` (``mlfsbench describe`` names a ``train.arff`` and
    ``test.arff`` pair after their folder itself).

    >>> _default_name(Path("yeast-train.arff.gz")), _default_name(Path("d/x.arff"))
    ('yeast', 'x')
    """
    stem = path.stem if path.suffix.lower() in (".gz", ".bz2") else path.name
    stem = Path(stem).stem
    for suffix in ("-train", "-test", "_train", "_test"):
        if stem.endswith(suffix):
            return stem[: -len(suffix)]
    return stem


def load_mulan(
    arff_paths: PathLike | Sequence[PathLike],
    xml: PathLike | None = None,
    *,
    name: str | None = None,
    nominal: str = "onehot",
    missing: str = "keep",
    drop_identifiers: bool = True,
    targets: int | None = None,
    accept_xml: bool = False,
) -> Dataset:
    """Load a Mulan multi-label dataset from ARFF (and its label XML).

    Parameters
    ----------
    arff_paths : path or sequence of paths
        One ARFF file (the whole dataset) or ``[train, test]``: the rows are
        concatenated in order and ``is_test`` marks the test file's rows. The
        files' attribute declarations must be identical.
    xml : path, optional
        Mulan label XML; it names the label attributes and their order. Without
        it, a MEKA ``-C n`` option in the relation name is used: the first
        ``n`` attributes are labels (``n > 0``) or the last ``|n|`` (``n < 0``).
    name : str, optional
        Dataset name; default: the first ARFF file's stem without ``-train``.
    nominal : {"onehot", "ordinal"}
        Encoding of nominal features with more than two values: one column
        ``attr=value`` per value, or the integer code of the value.
    missing : {"keep", "reject"}
        Keep missing feature values as ``NaN`` (imputed later on training
        data only) or raise :class:`DataFormatError`.
    drop_identifiers : bool
        Drop nominal/string attributes with one distinct value per instance
        (with a warning).
    targets : int, optional
        Multi-target regression data (e.g. atp1d): the number of real-valued
        target attributes in MEKA's convention (``n > 0`` the first ``n``,
        ``n < 0`` the last ``|n|``); ``Y`` is then ``float64`` and ``xml`` is
        not used.
    accept_xml : bool
        Use the XML's labels even when the relation's MEKA ``-C n`` declares
        another number of labels (by default that is an error naming both
        counts and the attributes involved).

    Returns
    -------
    Dataset
        ``X`` dense ``float64`` or, for sparse ARFF, ``csr_matrix``; ``Y``
        ``uint8`` with the labels in XML (or attribute) order.

    Raises
    ------
    DataFormatError
        On malformed files, missing or non-binary labels, unusable string
        attributes, headers that differ between train and test, or missing
        feature values with ``missing="reject"``. Messages name the file.

    Notes
    -----
    ``feature_types`` holds ``numeric``, ``binary``, ``onehot`` or
    ``ordinal`` per column. A binary nominal feature is 0 for its first
    declared value, unless its values spell false/true in reverse order
    (``{YES,NO}``, ``{1,0}``): then "true" is 1
    (:func:`~mlfsbench.data.encoding.binary_flipped`).
    Identifier-like attributes are judged per file (genbase's train and test
    files share one protein). Label names are compared after undoing ARFF
    escapes (``'Swainson\\'s Thrush'`` matches ``Swainson's Thrush``).
    """
    if nominal not in NOMINAL_MODES:
        raise ValueError(f"nominal must be one of {NOMINAL_MODES}, got {nominal!r}")
    if missing not in MISSING_MODES:
        raise ValueError(f"missing must be one of {MISSING_MODES}, got {missing!r}")
    paths = _as_path_list(arff_paths)
    raws = [read_arff(p) for p in paths]
    for raw in raws:
        if raw.n == 0:
            raise DataFormatError(f"{raw.source}: no instances (the @data "
                                  f"section is empty)")
    _check_same_header(raws)
    first = raws[0]
    if targets is not None:
        label_idx = count_indices(int(targets), len(first.attributes),
                                   first.source)
        Y = np.vstack([target_matrix(raw, label_idx) for raw in raws])
    else:
        if xml is not None:
            label_idx = xml_label_indices(first, parse_label_xml(xml), xml)
            check_labels_agree(first, label_idx, xml, accept_xml)
            warn_case_twins(first, label_idx, xml)
        else:
            label_idx = meka_label_indices(first.relation, len(first.attributes),
                                            first.source)
        Y = np.vstack([label_matrix(raw, label_idx) for raw in raws])
    data = _concatenate(raws)

    labels = set(label_idx)
    features = [j for j in range(len(first.attributes)) if j not in labels]
    if drop_identifiers:
        # Per file: genbase's train and test files share one protein.
        ids = set.intersection(*(identifier_like(raw, features) for raw in raws))
        for j in sorted(ids):
            warnings.warn(
                f"{data.source}: dropping identifier attribute "
                f"{first.attributes[j].name!r} (one distinct value per instance)",
                stacklevel=2,
            )
        features = [j for j in features if j not in ids]
    strings = [first.attributes[j].name for j in features
               if first.attributes[j].kind == "string"]
    if strings:
        raise DataFormatError(
            f"{data.source}: string attribute(s) {', '.join(strings)} cannot be "
            f"features"
        )
    if missing == "reject":
        for raw in raws:
            bad = missing_attributes(raw, features)
            if bad:
                raise DataFormatError(
                    f"{raw.source}: missing values in attribute(s) {', '.join(bad)}"
                )

    X, feature_names, feature_types = encode_features(data, features, nominal)
    check_feature_values(X, feature_names, data.source)
    is_test = np.zeros(data.n, dtype=bool)
    is_test[raws[0].n:] = len(raws) == 2
    return Dataset(
        name=name or _default_name(paths[0]),
        X=X,
        Y=Y,
        feature_names=feature_names,
        label_names=[first.attributes[j].name for j in label_idx],
        feature_types=feature_types,
        is_test=is_test,
    )
