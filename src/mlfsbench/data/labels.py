"""Which ARFF attributes are labels: Mulan label XML, MEKA ``-C n``, targets.

A Mulan dataset names its labels in a label XML (:func:`parse_label_xml`,
matched to the attributes by :func:`xml_label_indices`); a MEKA dataset
declares their number in its relation name (``-C n``: the first ``n``
attributes, or the last ``|n|`` when ``n < 0``, :func:`meka_label_indices`).
When both are present they must agree (:func:`check_labels_agree`); a feature
named like a label up to case is kept, with a warning (:func:`warn_case_twins`).
:func:`label_matrix` reads the labels' 0/1 (or NO/YES) values,
:func:`target_matrix` the real-valued targets of multi-target regression
data. Errors are :class:`~mlfsbench.data.arff.DataFormatError` naming the
file.
"""

from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET

import numpy as np

from mlfsbench.data.arff import (
    Attribute,
    DataFormatError,
    PathLike,
    RawArff,
    dense_columns,
    instance_line,
    unescape_name,
)

# Label values accepted by the loader, lower case, and their 0/1 code.
_LABEL_CODES = {"0": 0, "1": 1, "no": 0, "yes": 1}
_RE_MEKA_C = re.compile(r"(?:^|[\s:'\"])-C\s+(-?\d+)")


def parse_label_xml(path: PathLike) -> list[str]:
    """Label names of a Mulan label XML file, in document order.

    Every ``label`` element counts, nested ones (label hierarchies) included;
    namespaces are ignored.

    Parameters
    ----------
    path : str or os.PathLike
        The XML file (``<labels xmlns=...><label name="..."/>...</labels>``).

    Returns
    -------
    list of str
        The label names.

    Raises
    ------
    DataFormatError
        If the file is not well-formed XML, is not a Mulan label file, names
        no label, has a label without a name or repeats a name.
    """
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError, UnicodeDecodeError) as exc:
        raise DataFormatError(f"{path}: cannot read label XML ({exc})") from exc
    if _local_name(root.tag) != "labels":
        raise DataFormatError(
            f"{path}: root element is <{_local_name(root.tag)}>, expected <labels>"
        )
    names = []
    for elem in root.iter():
        if _local_name(elem.tag) != "label":
            continue
        name = elem.get("name")
        if not name:
            raise DataFormatError(f"{path}: a <label> element has no name")
        names.append(name)
    if not names:
        raise DataFormatError(f"{path}: no <label> elements")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise DataFormatError(f"{path}: repeated label name(s) {duplicates}")
    return names


def _local_name(tag: str) -> str:
    """``tag`` without its ``{namespace}`` prefix."""
    return tag.rsplit("}", 1)[-1]


def meka_label_indices(relation: str, d: int, source: str) -> list[int]:
    """Label attribute indices from a MEKA ``-C n`` option in the relation."""
    match = _RE_MEKA_C.search(relation)
    if match is None:
        raise DataFormatError(
            f"{source}: no label XML given and the relation name has no MEKA "
            f"'-C n' option; cannot tell which attributes are labels (give "
            f"the label XML, or for multi-target regression data the number "
            f"of targets: --targets N)"
        )
    return count_indices(int(match.group(1)), d, source)


def count_indices(c: int, d: int, source: str) -> list[int]:
    """The first ``c`` (``c > 0``) or last ``|c|`` (``c < 0``) of ``d`` attributes."""
    if c == 0 or abs(c) >= d:
        raise DataFormatError(
            f"{source}: MEKA option '-C {c}' does not fit {d} attributes"
        )
    return list(range(c)) if c > 0 else list(range(d + c, d))


def target_matrix(raw: RawArff, target_idx: list[int]) -> np.ndarray:
    """Dense ``float64`` matrix of real-valued targets (no missing values)."""
    values = dense_columns(raw.R, target_idx).astype(np.float64)
    for k, j in enumerate(target_idx):
        if raw.attributes[j].kind != "numeric":
            raise DataFormatError(
                f"{raw.source}: target {raw.attributes[j].name!r} is not numeric"
            )
        missing = np.flatnonzero(np.isnan(values[:, k]))
        if missing.size:
            raise DataFormatError(
                f"{raw.source}: target {raw.attributes[j].name!r} is missing in "
                f"{missing.size} instance(s) (first: instance {missing[0] + 1})"
            )
    return values


def xml_label_indices(raw: RawArff, names: list[str], xml: PathLike) -> list[int]:
    """Attribute indices of the XML's label names, in XML order.

    The ARFF names are compared with their escapes undone (see
    :func:`~mlfsbench.data.arff.unescape_name`). An XML name matches an
    attribute of the same text, or else of the same text once its own
    backslash escapes are undone: Mulan's XML files copy the ARFF spelling,
    escapes included (delicious declares ``@attribute TAG_m\\'usica`` and
    names the label ``TAG_m\\'usica``), while Weka reports the name
    ``TAG_m'usica``.
    """
    index = {a.name: j for j, a in enumerate(raw.attributes)}
    for n in names:
        if n not in index and unescape_name(n) in index:
            index[n] = index[unescape_name(n)]
    missing = [n for n in names if n not in index]
    if missing:
        shown = ", ".join(repr(n) for n in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise DataFormatError(
            f"{raw.source}: label(s) {shown}{more} named in {xml} are not "
            f"attributes of the ARFF file"
        )
    found = [index[n] for n in names]
    repeated = sorted({raw.attributes[j].name for j in found
                       if found.count(j) > 1})
    if repeated:
        raise DataFormatError(
            f"{xml}: several labels name the attribute(s) {repeated} of "
            f"{raw.source} (spellings that differ only in escapes)"
        )
    return found


def check_labels_agree(raw: RawArff, label_idx: list[int], xml: PathLike,
                        accept_xml: bool) -> None:
    """Stop when the XML and the ARFF disagree on which attributes are labels.

    The relation's MEKA ``-C n`` declares ``|n|`` labels, the XML another
    number: the attributes involved would silently become features (or
    labels). Unless ``accept_xml``, the error names both counts and the
    attributes in one list only. (Equal counts at other positions are
    accepted: medical's ``-C 45`` points at the first 45 attributes, its
    labels are the last 45.)

    An attribute cannot be named exactly like a label (the parser refuses
    equal attribute names); one whose name differs from a label's only in
    case is a feature of its own (:func:`warn_case_twins`).
    """
    d = len(raw.attributes)
    match = _RE_MEKA_C.search(raw.relation)
    if match is not None and not accept_xml:
        c = int(match.group(1))
        if c != 0 and abs(c) < d and abs(c) != len(label_idx):
            block = set(count_indices(c, d, raw.source))
            labels = set(label_idx)
            only_meka = [raw.attributes[j].name for j in sorted(block - labels)]
            only_xml = [raw.attributes[j].name for j in sorted(labels - block)]
            parts = []
            if only_meka:
                parts.append(f"labels by '-C {c}' only: {_names(only_meka)}")
            if only_xml:
                parts.append(f"labels by the XML only: {_names(only_xml)}")
            raise DataFormatError(
                f"{raw.source}: the relation's MEKA option '-C {c}' declares "
                f"{abs(c)} labels but {xml} names {len(label_idx)} "
                f"({'; '.join(parts)}); fix one of the files, or accept the "
                f"XML's labels explicitly (accept_xml=True, CLI --accept-xml)"
            )


def warn_case_twins(raw: RawArff, label_idx: list[int], xml: PathLike) -> None:
    """Warn about features named like a label up to case.

    Weka's and Mulan's names are case-sensitive: slashdot's word feature
    ``apple`` and its category ``Apple`` are two attributes, and the feature
    is used as one. The warning names both, in case the XML meant the other
    spelling. (An exact twin cannot occur: the parser refuses two attributes
    of one name.)
    """
    labels = {raw.attributes[j].name.casefold(): raw.attributes[j].name
              for j in label_idx}
    in_labels = set(label_idx)
    twins = [(a.name, labels[a.name.casefold()]) for j, a in enumerate(raw.attributes)
             if j not in in_labels and a.name.casefold() in labels]
    if twins:
        shown = ", ".join(f"{a!r} (label {b!r})" for a, b in twins[:5])
        more = f" and {len(twins) - 5} more" if len(twins) > 5 else ""
        warnings.warn(
            f"{raw.source}: feature(s) {shown}{more} differ from a label of "
            f"{xml} only in case; kept as features (names are case-sensitive, "
            f"as in Weka and Mulan)", stacklevel=3)


def _names(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _label_codes(attr: Attribute, source: str) -> np.ndarray | None:
    """0/1 code per nominal value index (``None`` for a numeric label)."""
    if attr.kind == "numeric":
        return None
    if attr.kind != "nominal" or any(
        v.lower() not in _LABEL_CODES for v in attr.values
    ):
        declared = "{" + ",".join(attr.values) + "}" if attr.values else attr.kind
        raise DataFormatError(
            f"{source}: label {attr.name!r} is {declared}; expected values "
            f"0/1 or NO/YES"
        )
    return np.array([_LABEL_CODES[v.lower()] for v in attr.values], dtype=np.uint8)


def label_matrix(raw: RawArff, label_idx: list[int]) -> np.ndarray:
    """Dense ``uint8`` label matrix of one file, columns in ``label_idx`` order."""
    values = dense_columns(raw.R, label_idx)
    Y = np.zeros(values.shape, dtype=np.uint8)
    for k, j in enumerate(label_idx):
        attr = raw.attributes[j]
        codes = _label_codes(attr, raw.source)
        v = values[:, k]
        missing = np.flatnonzero(np.isnan(v))
        if missing.size:
            raise DataFormatError(
                f"{raw.source}: label {attr.name!r} is missing in {missing.size} "
                f"instance(s) (first: instance {missing[0] + 1})"
            )
        if codes is not None:
            Y[:, k] = codes[v.astype(np.intp)]
            continue
        bad = np.flatnonzero((v != 0) & (v != 1))
        if bad.size:
            line = instance_line(raw.source, int(bad[0]))
            at = f" (line {line})" if line else ""
            raise DataFormatError(
                f"{raw.source}: label {attr.name!r} has value {v[bad[0]]:g} "
                f"in instance {bad[0] + 1}{at}; expected 0 or 1 (for multi-target "
                f"regression data give the number of targets: targets=N, "
                f"CLI --targets N, the datasets table's targets column)"
            )
        Y[:, k] = v
    return Y
