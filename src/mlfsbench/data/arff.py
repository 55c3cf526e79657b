"""ARFF files as Weka reads them: header, dense and sparse data, value checks.

:func:`read_arff` parses one ARFF file with liac-arff into a :class:`RawArff`:
its relation name, its attributes (:class:`Attribute`: numeric, nominal or
string, names read as Weka reads them, see :func:`declared_name`) and a value
matrix of numeric values and nominal value indices (``NaN`` = missing), dense
or, for sparse ARFF (``{index value, ...}`` rows), a
``scipy.sparse.csr_matrix`` that is never densified as a whole.

Before and after liac-arff, the file is checked as Weka would read it:
compressed files are decompressed and the text decoded
(:func:`read_arff_text`), ``integer`` attributes keep real values, repeated
attribute names (after undoing escapes) and a sparse row giving one index
twice are rejected with line numbers, and so are infinite values and a
written ``nan``. Every error is a :class:`DataFormatError` naming the file.

Which attributes are labels (:mod:`mlfsbench.data.labels`) and how the others
become features (:mod:`mlfsbench.data.encoding`) is decided elsewhere;
:func:`~mlfsbench.data.mulan.load_mulan` puts them together.
"""

from __future__ import annotations

import bz2
import gzip
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import arff
import numpy as np
import scipy.sparse as sp

PathLike = str | os.PathLike
Matrix = np.ndarray | sp.csr_matrix

_ESCAPES = {"'": "'", '"': '"', "\\": "\\", "%": "%", "t": "\t", "n": "\n",
            "r": "\r"}
_RE_ESCAPE = re.compile(r"\\(.)")


class DataFormatError(ValueError):
    """A dataset file is malformed or cannot be used; the message names it."""


@dataclass
class Attribute:
    """One ARFF attribute: ``kind`` is numeric, nominal or string."""

    name: str
    kind: str
    values: tuple[str, ...] = ()


@dataclass
class RawArff:
    """One parsed ARFF file (or several concatenated ones).

    ``R`` holds numeric values and nominal value indices (``NaN`` = missing)
    of every non-string attribute, dense or CSR; string attributes are kept
    aside as object arrays (``None`` = missing) in ``strings``. ``source``
    names the file(s) in error messages.
    """

    source: str
    relation: str
    attributes: list[Attribute]
    R: Matrix
    strings: dict[int, np.ndarray]

    @property
    def n(self) -> int:
        return self.R.shape[0]

    @property
    def sparse(self) -> bool:
        return sp.issparse(self.R)


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


def _check_unique_names(attributes: list[Attribute],
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


def _to_attribute(name: str, type_: str | list[str]) -> Attribute:
    if isinstance(type_, list):
        return Attribute(unescape_name(name), "nominal", tuple(type_))
    if type_ == "STRING":
        return Attribute(unescape_name(name), "string")
    return Attribute(unescape_name(name), "numeric")


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
    value; so do we (a label must still be 0 or 1, see
    :func:`~mlfsbench.data.labels.label_matrix`).
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


# A written nan, quoted or not (liac-arff reads 'nan' in a numeric column as
# the float NaN too, which would pass for a "?").
_RE_NAN_TOKEN = re.compile(r"(?:^|[,{\s])(['\"]?)\s*[+-]?nan\s*\1\s*(?:$|[,}])",
                           re.IGNORECASE | re.MULTILINE)


def _check_finite(R: Matrix, text: str, attributes: list[Attribute],
                  source: Path) -> None:
    """Reject ``inf`` and a written ``nan`` (quoted or not) in a numeric
    attribute, naming the file, line and attribute (``?`` is the missing
    value)."""
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


def read_arff(path: PathLike) -> RawArff:
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
    return RawArff(str(path), obj["relation"], attributes, R, strings)


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
def dense_columns(R: Matrix, cols: list[int]) -> np.ndarray:
    """Columns ``cols`` of a dense or CSR matrix as a dense float array."""
    if sp.issparse(R):
        return R[:, cols].toarray()
    return np.asarray(R[:, cols], dtype=float)


def columns_with_nan(R: Matrix) -> np.ndarray:
    """Boolean mask of the columns holding at least one ``NaN``."""
    if sp.issparse(R):
        mask = np.zeros(R.shape[1], dtype=bool)
        mask[R.indices[np.isnan(R.data)]] = True
        return mask
    return np.isnan(R).any(axis=0)
