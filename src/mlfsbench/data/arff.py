"""Mulan multi-label datasets: ARFF data plus a label XML.

A Mulan dataset is one ARFF file (or a train and a test file with identical
headers) in which some attributes are the labels; the XML file names them.
:func:`load_mulan` parses the ARFF with liac-arff, locates the labels by name
and encodes the remaining attributes as a numeric feature matrix:

- numeric attributes stay ``float``;
- nominal attributes with two values become one 0/1 column (see
  :func:`binary_flipped` for which value is 1);
- other nominal attributes become one-hot columns named ``attr=value`` or
  integer codes (``nominal="ordinal"``);
- identifier-like nominal or string attributes (one distinct value per
  instance, e.g. genbase's ``protein``) are dropped with a warning;
- missing values (``?``) are ``NaN``.

Sparse ARFF (``{index value, ...}`` rows) stays a ``scipy.sparse.csr_matrix``
and is never densified as a whole.
"""

from __future__ import annotations

import bz2
import gzip
import os
import re
import warnings
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import arff
import numpy as np
import scipy.sparse as sp

from mlfsbench.data.dataset import Dataset

PathLike = str | os.PathLike
Matrix = np.ndarray | sp.csr_matrix

NOMINAL_MODES = ("onehot", "ordinal")
MISSING_MODES = ("keep", "reject")

# (false, true) spellings of a two-valued nominal attribute, lower case.
_FALSE_TRUE = {("0", "1"), ("no", "yes"), ("false", "true")}
# Label values accepted by the loader, lower case, and their 0/1 code.
_LABEL_CODES = {"0": 0, "1": 1, "no": 0, "yes": 1}
_ESCAPES = {"'": "'", '"': '"', "\\": "\\", "%": "%", "t": "\t", "n": "\n",
            "r": "\r"}
_RE_ESCAPE = re.compile(r"\\(.)")
_RE_MEKA_C = re.compile(r"(?:^|[\s:'\"])-C\s+(-?\d+)")


class DataFormatError(ValueError):
    """A dataset file is malformed or cannot be used; the message names it."""


@dataclass
class _Attribute:
    """One ARFF attribute: ``kind`` is numeric, nominal or string."""

    name: str
    kind: str
    values: tuple[str, ...] = ()


@dataclass
class _RawArff:
    """One parsed ARFF file (or several concatenated ones).

    ``R`` holds numeric values and nominal value indices (``NaN`` = missing)
    of every non-string attribute, dense or CSR; string attributes are kept
    aside as object arrays (``None`` = missing) in ``strings``. ``source``
    names the file(s) in error messages.
    """

    source: str
    relation: str
    attributes: list[_Attribute]
    R: Matrix
    strings: dict[int, np.ndarray]

    @property
    def n(self) -> int:
        return self.R.shape[0]

    @property
    def sparse(self) -> bool:
        return sp.issparse(self.R)


# ------------------------------------------------------------------- label XML
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


# ------------------------------------------------------------------ ARFF files
def unescape_name(name: str) -> str:
    r"""Undo ARFF backslash escapes in a name as liac-arff returns it.

    liac-arff strips the quotes around attribute names but keeps escapes, so
    ``'Swainson\'s Thrush'`` comes back as ``Swainson\'s Thrush``.

    Examples
    --------
    >>> unescape_name("Swainson\\'s Thrush")
    "Swainson's Thrush"
    >>> unescape_name("plain")
    'plain'
    """
    return _RE_ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), name)


def _data_lines(text: str) -> tuple[str, int]:
    """First data line after ``@data`` ('' if none) and the number of data lines.

    Empty and comment lines do not count, as in liac-arff.
    """
    first, count, in_data = "", 0, False
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if in_data:
            first = first or line
            count += 1
        elif line.lower().startswith("@data"):
            in_data = True
    return first, count


def _attribute_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of the ``@attribute`` declarations, in order."""
    lines = []
    for i, line in enumerate(text.splitlines(), start=1):
        head = line.lstrip()[:10].lower()
        if head.startswith("@data"):
            break
        if head.startswith("@attribute"):
            lines.append((i, line))
    return lines


_RE_UNQUOTED_NAME = re.compile(r"[^\s{]+")


def declared_name(line: str) -> str | None:
    r"""The attribute name of an ``@attribute`` line, escapes undone.

    A name in single or double quotes runs to the matching quote that no
    backslash escapes (as in Weka's tokenizer); an unquoted name runs to the
    first blank or ``{``. Both then go through :func:`unescape_name`.
    ``None`` when the line has no name (liac-arff reports the error).

    Examples
    --------
    >>> declared_name(r'@attribute "say \"hi\"" {0,1}')
    'say "hi"'
    >>> declared_name(r"@attribute TAG_m\'usica {0,1}")
    "TAG_m'usica"
    >>> declared_name("@ATTRIBUTE 'two words' numeric")
    'two words'
    """
    rest = line.lstrip()[len("@attribute"):].lstrip()
    if rest[:1] in ("'", '"'):
        quote, i = rest[0], 1
        while i < len(rest):
            if rest[i] == "\\":
                i += 2
            elif rest[i] == quote:
                return unescape_name(rest[1:i])
            else:
                i += 1
        return None
    m = _RE_UNQUOTED_NAME.match(rest)
    return unescape_name(m.group(0)) if m else None


_RE_SPARSE_INDEX = re.compile(
    r"""(?:\{|,)\s*(\d+)\s+(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,}]*)"""
)


def _check_sparse_indices(text: str, source: Path) -> None:
    """Reject a sparse row that gives one attribute index twice.

    liac-arff keeps the last value silently; Weka's reading differs by
    version. Either way the row is ambiguous.
    """
    in_data = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not in_data:
            in_data = line[:5].lower() == "@data"
            continue
        if not line.startswith("{"):
            continue
        body = line[: line.index("}") + 1] if "}" in line else line
        indices = [int(m.group(1)) for m in _RE_SPARSE_INDEX.finditer(body)]
        if len(indices) != len(set(indices)):
            seen, repeated = set(), []
            for j in indices:
                if j in seen and j not in repeated:
                    repeated.append(j)
                seen.add(j)
            raise DataFormatError(
                f"{source}: line {lineno}: sparse row gives attribute index(es) "
                f"{', '.join(map(str, repeated))} more than once"
            )


def _check_unique_names(attributes: list[_Attribute],
                        lines: list[tuple[int, str]], source: Path) -> None:
    """Reject attribute names that are equal once ARFF escapes are undone
    (``"x'y"`` and ``'x\\'y'``): a lookup by name could not tell them apart."""
    first: dict[str, int] = {}
    for k, attr in enumerate(attributes):
        if attr.name in first:
            j = first[attr.name]
            at = (f"lines {lines[j][0]} and {lines[k][0]}"
                  if len(lines) == len(attributes)
                  else f"attributes {j + 1} and {k + 1}")
            raise DataFormatError(
                f"{source}: {at} declare the same attribute name {attr.name!r} "
                f"(after undoing escapes)"
            )
        first[attr.name] = k


def _short_parse_error(exc: Exception) -> str:
    """liac-arff's message with a long data line cut (a truncated file's last
    line can hold thousands of characters)."""
    text = str(exc)
    head, sep, rest = text.partition(": ")
    if sep and "line" in head and len(rest) > 60:
        n_values = rest.count(",") + 1
        return (f"{head}: {n_values} value(s), starting {rest[:40]!r}... "
                f"(a truncated file ends like this)")
    return text


def _to_attribute(name: str, type_: str | list[str]) -> _Attribute:
    if isinstance(type_, list):
        return _Attribute(unescape_name(name), "nominal", tuple(type_))
    if type_ == "STRING":
        return _Attribute(unescape_name(name), "string")
    return _Attribute(unescape_name(name), "numeric")


def read_arff_text(path: PathLike) -> str:
    """The text of an ARFF file as Weka reads it.

    A file is decompressed when its name ends in ``.gz`` or ``.bz2`` or its
    content starts with the gzip or bzip2 magic bytes (MEKA ships
    ``.arff.bz2``); the bytes are decoded as UTF-8 (a byte-order mark
    dropped) or, when they are not valid UTF-8, as latin-1; line ends become
    ``\\n``.

    Raises
    ------
    DataFormatError
        If the file cannot be read or decompressed; the message names it.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
        name = path.name.lower()
        if name.endswith(".gz") or data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        elif name.endswith(".bz2") or data[:3] == b"BZh":
            data = bz2.decompress(data)
    except (OSError, EOFError, ValueError, zlib.error) as exc:
        raise DataFormatError(f"{path}: cannot read ARFF file ({exc})") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


_RE_INTEGER_TYPE = re.compile(r"(\s)integer(\s*)$", re.IGNORECASE)
_RE_DATA_LINE = re.compile(r"^[ \t]*@data", re.IGNORECASE | re.MULTILINE)


def _integer_as_real(text: str) -> str:
    """``text`` with every ``integer`` attribute declared ``real``.

    liac-arff reads ``integer`` values with ``int(float(x))``: 0.8 becomes 0,
    and ``nan`` leaves the rest of its row undecoded. Weka keeps the real
    value; so do we (a label must still be 0 or 1, see :func:`load_mulan`).
    """
    match = _RE_DATA_LINE.search(text)
    end = match.start() if match else len(text)
    lines = text[:end].split("\n")
    changed = False
    for i, line in enumerate(lines):
        if (line.lstrip()[:10].lower().startswith("@attribute")
                and _RE_INTEGER_TYPE.search(line)):
            lines[i] = _RE_INTEGER_TYPE.sub(r"\1real\2", line)
            changed = True
    return "\n".join(lines) + text[end:] if changed else text


def _data_line_numbers(lines: list[str]) -> list[int]:
    """The line number of each instance (the data lines liac-arff reads) of
    a file split into ``lines``."""
    numbers, in_data = [], False
    for i, line in enumerate(lines, start=1):
        line = line.strip()
        if in_data:
            if line and not line.startswith("%"):
                numbers.append(i)
        elif line[:5].lower() == "@data":
            in_data = True
    return numbers


_RE_NAN_TOKEN = re.compile(r"(?:^|[,{\s])[+-]?nan\s*(?:$|[,}])",
                           re.IGNORECASE | re.MULTILINE)


def _check_finite(R: Matrix, text: str, attributes: list[_Attribute],
                  source: Path) -> None:
    """Reject ``inf`` and a written ``nan`` in a numeric attribute, naming
    the file, line and attribute (``?`` is the missing value)."""
    values = R.data if sp.issparse(R) else R.ravel()
    bad = np.isinf(values)
    nan = np.isnan(values)
    if nan.any() and _RE_NAN_TOKEN.search(text):  # else every NaN is a "?"
        bad |= nan
    if not bad.any():
        return
    if sp.issparse(R):
        rows = np.repeat(np.arange(R.shape[0]), np.diff(R.indptr))
        cols = R.indices
    else:
        rows, cols = np.divmod(np.arange(values.size), R.shape[1])
    lines = text.split("\n")
    numbers = _data_line_numbers(lines)
    parsed: dict[int, list | dict] = {}
    for k in np.flatnonzero(bad):
        line, j = numbers[rows[k]], int(cols[k])
        if line not in parsed:
            parsed[line] = arff._parse_values(lines[line - 1].strip())
        row = parsed[line]
        token = row.get(j) if isinstance(row, dict) else row[j]
        if token is None:  # a "?"
            continue
        what = "an infinite value" if np.isinf(values[k]) else "a NaN"
        raise DataFormatError(
            f"{source}: line {line}: attribute {attributes[j].name!r} has "
            f"{what} ({token!r}); write ? for a missing value"
        )


#: Largest feature magnitude the stages' arithmetic takes: squares of
#: differences (distances) and ranges (bins, scaling) of larger values overflow
#: a double (1e308) and turn into inf or NaN without an error.
MAX_MAGNITUDE = 1e150


def _check_magnitude(X: Matrix, names: Sequence[str], source: Path) -> None:
    """Reject features whose values overflow the stages' arithmetic (issue
    29, S6: values near 1e308 put every value in one equal-width bin and give
    NaN distances), naming the file and the first such features."""
    values = X.data if sp.issparse(X) else X
    if values.size == 0 or not (np.abs(np.nan_to_num(values)) >= MAX_MAGNITUDE).any():
        return
    if sp.issparse(X):
        big = np.unique(X.indices[np.abs(np.nan_to_num(X.data)) >= MAX_MAGNITUDE])
    else:
        big = np.flatnonzero((np.abs(np.nan_to_num(X)) >= MAX_MAGNITUDE).any(axis=0))
    shown = ", ".join(repr(names[j]) for j in big[:5])
    more = f" and {len(big) - 5} more" if len(big) > 5 else ""
    raise DataFormatError(
        f"{source}: feature(s) {shown}{more} hold values of magnitude "
        f">= {MAX_MAGNITUDE:g}, whose squares and ranges overflow the distance "
        f"and discretization arithmetic; rescale them (e.g. take logarithms)")


def _read_arff(path: PathLike) -> _RawArff:
    """Parse one dense or sparse ARFF file (see :func:`read_arff_text`).

    Raises
    ------
    DataFormatError
        If the file cannot be read or parsed, or a numeric value is infinite
        or a written ``nan``; the message names the file.
    """
    path = Path(path)
    text = read_arff_text(path)
    first, n = _data_lines(text)
    sparse = first.startswith("{")
    try:
        obj = arff.loads(_integer_as_real(text), encode_nominal=True,
                         return_type=arff.COO if sparse else arff.DENSE)
    except (arff.ArffException, ValueError, TypeError, KeyError) as exc:
        raise DataFormatError(
            f"{path}: invalid ARFF ({_short_parse_error(exc)})"
        ) from exc
    attributes = [_to_attribute(a, t) for a, t in obj["attributes"]]
    lines = _attribute_lines(text)
    if len(lines) == len(attributes):
        # liac-arff cuts a double-quoted name with an escaped quote short
        # ("say \"hi\"" becomes 'say \"hi\'): read names as Weka does.
        for attr, (_, line) in zip(attributes, lines, strict=True):
            attr.name = declared_name(line) or attr.name
    _check_unique_names(attributes, lines, path)
    if sparse:
        _check_sparse_indices(text, path)
    string_cols = [j for j, a in enumerate(attributes) if a.kind == "string"]
    if sparse:
        R, strings = _sparse_values(obj["data"], (n, len(attributes)), string_cols)
    else:
        R, strings = _dense_values(obj["data"], len(attributes), string_cols)
    _check_finite(R, text, attributes, path)
    return _RawArff(str(path), obj["relation"], attributes, R, strings)


def instance_line(path: PathLike, i: int) -> int | None:
    """The line number of instance ``i`` (from 0) of an ARFF file, for
    messages; ``None`` if the file has fewer instances."""
    lines = _data_line_numbers(read_arff_text(path).split("\n"))
    return lines[i] if 0 <= i < len(lines) else None


def _dense_values(rows: list[list], d: int, string_cols: list[int]):
    """Dense value matrix (``None`` becomes ``NaN``) and the string columns."""
    if not string_cols:
        return np.array(rows, dtype=float).reshape(len(rows), d), {}
    obj = np.array(rows, dtype=object).reshape(len(rows), d)
    strings = {j: obj[:, j].copy() for j in string_cols}
    obj[:, string_cols] = 0.0
    return obj.astype(float), strings


def _sparse_values(coo: tuple[list, list, list], shape: tuple[int, int],
                   string_cols: list[int]):
    """CSR value matrix from liac-arff's COO triplets, and the string columns.

    ``shape`` comes from the file: liac-arff gives no triplet for empty rows,
    so trailing ``{}`` rows would otherwise be lost.
    """
    data, rows, cols = coo
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    strings = {}
    if string_cols:
        obj = np.array(data, dtype=object)
        for j in string_cols:
            at = cols == j
            column = np.full(shape[0], None, dtype=object)
            column[rows[at]] = obj[at]
            strings[j] = column
        obj[np.isin(cols, string_cols)] = 0.0
        values = obj.astype(float)
    else:
        values = np.array(data, dtype=float)
    R = sp.csr_matrix((values, (rows, cols)), shape=shape, dtype=np.float64)
    return R, strings


# --------------------------------------------------------------------- columns
def _dense_columns(R: Matrix, cols: list[int]) -> np.ndarray:
    """Columns ``cols`` of a dense or CSR matrix as a dense float array."""
    if sp.issparse(R):
        return R[:, cols].toarray()
    return np.asarray(R[:, cols], dtype=float)


def _columns_with_nan(R: Matrix) -> np.ndarray:
    """Boolean mask of the columns holding at least one ``NaN``."""
    if sp.issparse(R):
        mask = np.zeros(R.shape[1], dtype=bool)
        mask[R.indices[np.isnan(R.data)]] = True
        return mask
    return np.isnan(R).any(axis=0)


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


# ---------------------------------------------------------------------- labels
def _meka_label_indices(relation: str, d: int, source: str) -> list[int]:
    """Label attribute indices from a MEKA ``-C n`` option in the relation."""
    match = _RE_MEKA_C.search(relation)
    if match is None:
        raise DataFormatError(
            f"{source}: no label XML given and the relation name has no MEKA "
            f"'-C n' option; cannot tell which attributes are labels (give "
            f"the label XML, or for multi-target regression data the number "
            f"of targets: --targets N)"
        )
    return _count_indices(int(match.group(1)), d, source)


def _count_indices(c: int, d: int, source: str) -> list[int]:
    """The first ``c`` (``c > 0``) or last ``|c|`` (``c < 0``) of ``d`` attributes."""
    if c == 0 or abs(c) >= d:
        raise DataFormatError(
            f"{source}: MEKA option '-C {c}' does not fit {d} attributes"
        )
    return list(range(c)) if c > 0 else list(range(d + c, d))


def _target_matrix(raw: _RawArff, target_idx: list[int]) -> np.ndarray:
    """Dense ``float64`` matrix of real-valued targets (no missing values)."""
    values = _dense_columns(raw.R, target_idx).astype(np.float64)
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


def _xml_label_indices(raw: _RawArff, names: list[str], xml: PathLike) -> list[int]:
    """Attribute indices of the XML's label names, in XML order.

    The ARFF names are compared with their escapes undone (see
    :func:`unescape_name`). An XML name matches an attribute of the same
    text, or else of the same text once its own backslash escapes are undone:
    Mulan's XML files copy the ARFF spelling, escapes included (delicious
    declares ``@attribute TAG_m\\'usica`` and names the label
    ``TAG_m\\'usica``), while Weka reports the name ``TAG_m'usica``.
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


def _check_labels_agree(raw: _RawArff, label_idx: list[int], xml: PathLike,
                        accept_xml: bool) -> None:
    """Stop when the XML and the ARFF disagree on which attributes are labels.

    - The relation's MEKA ``-C n`` declares ``|n|`` labels, the XML another
      number: the attributes involved would silently become features (or
      labels). Unless ``accept_xml``, the error names both counts and the
      attributes in one list only. (Equal counts at other positions are
      accepted: medical's ``-C 45`` points at the first 45 attributes, its
      labels are the last 45.)
    - An attribute left as a feature has the name of a label up to case: a
      label spelled twice.
    """
    d = len(raw.attributes)
    match = _RE_MEKA_C.search(raw.relation)
    if match is not None and not accept_xml:
        c = int(match.group(1))
        if c != 0 and abs(c) < d and abs(c) != len(label_idx):
            block = set(_count_indices(c, d, raw.source))
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
    labels = {raw.attributes[j].name.casefold(): raw.attributes[j].name
              for j in label_idx}
    in_labels = set(label_idx)
    clash = [(a.name, labels[a.name.casefold()]) for j, a in enumerate(raw.attributes)
             if j not in in_labels and a.name.casefold() in labels]
    if clash:
        shown = ", ".join(f"{a!r} (label {b!r})" for a, b in clash[:5])
        raise DataFormatError(
            f"{raw.source}: attribute(s) not named in {xml} have the name of a "
            f"label: {shown}; they would be used as features"
        )


def _names(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _label_codes(attr: _Attribute, source: str) -> np.ndarray | None:
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


def _label_matrix(raw: _RawArff, label_idx: list[int]) -> np.ndarray:
    """Dense ``uint8`` label matrix of one file, columns in ``label_idx`` order."""
    values = _dense_columns(raw.R, label_idx)
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


# -------------------------------------------------------------------- features
def _identifier_like(raw: _RawArff, cols: list[int]) -> set[int]:
    """Nominal (more than two values) or string attributes among ``cols`` with
    one distinct, present value per instance of ``raw``."""
    if raw.n < 2:
        return set()
    found = set()
    nominal = [j for j in cols if raw.attributes[j].kind == "nominal"
               and len(raw.attributes[j].values) > 2]
    if nominal:
        values = _dense_columns(raw.R, nominal)
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


def _missing_attributes(raw: _RawArff, cols: list[int]) -> list[str]:
    """Names of the (non-string) attributes among ``cols`` with missing values."""
    has_nan = _columns_with_nan(raw.R)
    return [raw.attributes[j].name for j in cols if has_nan[j]]


def _encoding(attr: _Attribute, nominal: str) -> str:
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


def _encode_features(raw: _RawArff, cols: list[int], nominal: str):
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

    dense = _dense_columns(raw.R, special) if special else None
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


# ----------------------------------------------------------------- combination
def _check_same_header(raws: list[_RawArff]) -> None:
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


def _concatenate(raws: list[_RawArff]) -> _RawArff:
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
    return _RawArff(source, raws[0].relation, raws[0].attributes, R, strings)


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
    stem = path.stem if path.suffix.lower() in (".gz", ".bz2") else path.name
    stem = Path(stem).stem
    for suffix in ("-train", "-test", "_train", "_test"):
        if stem.endswith(suffix):
            return stem[: -len(suffix)]
    return stem


# ------------------------------------------------------------------ public API
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
    (``{YES,NO}``, ``{1,0}``): then "true" is 1 (:func:`binary_flipped`).
    Identifier-like attributes are judged per file (genbase's train and test
    files share one protein). Label names are compared after undoing ARFF
    escapes (``'Swainson\\'s Thrush'`` matches ``Swainson's Thrush``).
    """
    if nominal not in NOMINAL_MODES:
        raise ValueError(f"nominal must be one of {NOMINAL_MODES}, got {nominal!r}")
    if missing not in MISSING_MODES:
        raise ValueError(f"missing must be one of {MISSING_MODES}, got {missing!r}")
    paths = _as_path_list(arff_paths)
    raws = [_read_arff(p) for p in paths]
    for raw in raws:
        if raw.n == 0:
            raise DataFormatError(f"{raw.source}: no instances (the @data "
                                  f"section is empty)")
    _check_same_header(raws)
    first = raws[0]
    if targets is not None:
        label_idx = _count_indices(int(targets), len(first.attributes),
                                   first.source)
        Y = np.vstack([_target_matrix(raw, label_idx) for raw in raws])
    else:
        if xml is not None:
            label_idx = _xml_label_indices(first, parse_label_xml(xml), xml)
            _check_labels_agree(first, label_idx, xml, accept_xml)
        else:
            label_idx = _meka_label_indices(first.relation, len(first.attributes),
                                            first.source)
        Y = np.vstack([_label_matrix(raw, label_idx) for raw in raws])
    data = _concatenate(raws)

    labels = set(label_idx)
    features = [j for j in range(len(first.attributes)) if j not in labels]
    if drop_identifiers:
        # Per file: genbase's train and test files share one protein.
        ids = set.intersection(*(_identifier_like(raw, features) for raw in raws))
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
            bad = _missing_attributes(raw, features)
            if bad:
                raise DataFormatError(
                    f"{raw.source}: missing values in attribute(s) {', '.join(bad)}"
                )

    X, feature_names, feature_types = _encode_features(data, features, nominal)
    _check_magnitude(X, feature_names, data.source)
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
