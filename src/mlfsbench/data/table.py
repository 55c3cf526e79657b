"""The datasets table: where each dataset's files come from.

A tab-separated file with one row per dataset and the columns
:data:`COLUMNS`. A dataset is either one file (``arff_url``: an ARFF file,
or an R data file holding an ``mldr`` object, told by its ``.rda`` suffix; see
:mod:`mlfsbench.data.rdata`) or a train and a test file (``train_url`` and
``test_url``); the label XML is optional. The URLs are the public ones; a
mirror stands in for each upstream it holds
(:data:`~mlfsbench.data.download.MIRROR_FOLDERS`).
Every URL comes with the checksum of its file in the matching ``*_sha256``
column: its sha256 or, for a file known only by its id in a git repository
(Mulan's larger files), ``git-blob:`` and its git blob id (see
:func:`~mlfsbench.data.download.git_blob_id`);
:func:`~mlfsbench.data.download.download` verifies either. Empty cells mean
"absent". Rows are validated against
``mlfsbench/data/schemas/datasets.schema.yaml`` (package data; the same schema
the workflow validates the table with) and names must be unique.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass, fields
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported on use: every workflow job imports this package
    import jsonschema


COLUMNS = ("name", "arff_url", "arff_sha256", "train_url", "train_sha256",
           "test_url", "test_sha256", "xml_url", "xml_sha256")
OPTIONAL_COLUMNS = ("targets",)
ROLES = ("arff", "train", "test", "xml")
DEFAULT_SCHEMA = files("mlfsbench.data") / "schemas" / "datasets.schema.yaml"


@dataclass(frozen=True)
class DatasetSpec:
    """One row of the datasets table; absent cells are ``None``."""

    name: str
    arff_url: str | None = None
    arff_sha256: str | None = None
    train_url: str | None = None
    train_sha256: str | None = None
    test_url: str | None = None
    test_sha256: str | None = None
    xml_url: str | None = None
    xml_sha256: str | None = None
    targets: int | None = None
    """Multi-target regression: the number of real-valued target attributes,
    MEKA's convention (``n > 0``: the first ``n`` attributes, ``n < 0``: the
    last ``|n|``); ``None`` for a multi-label dataset (labels from the XML)."""

    def __post_init__(self):
        if isinstance(self.targets, str):
            object.__setattr__(self, "targets", int(self.targets))

    def files(self) -> dict[str, tuple[str, str]]:
        """``role -> (url, checksum)`` for the roles present, in the order
        arff, train, test, xml (the checksum: a sha256 or ``git-blob:<id>``).

        Examples
        --------
        >>> spec = DatasetSpec("toy", arff_url="file:///d/toy.arff",
        ...                    arff_sha256="0" * 64)
        >>> list(spec.files())
        ['arff']
        """
        out = {}
        for role in ROLES:
            url = getattr(self, f"{role}_url")
            if url is not None:
                out[role] = (url, getattr(self, f"{role}_sha256"))
        return out


def _load_schema(path: str | os.PathLike) -> dict:
    import yaml

    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: cannot read the datasets schema ({exc})") from exc


def _describe(error: jsonschema.ValidationError) -> str:
    """A short human message for one schema violation."""
    field = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "oneOf":
        return ("needs either arff_url (one file) or both train_url and "
                "test_url, each with its sha256")
    if error.validator == "dependentRequired":
        return "; ".join(
            f"{key} requires {dep}"
            for key, deps in error.validator_value.items() if key in error.instance
            for dep in deps if dep not in error.instance
        )
    return f"{field}: {error.message}" if field else error.message


def _read_rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """``(line number, row)`` of the data rows; comments and blanks skipped."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            lines = [(i, line) for i, line in enumerate(fh, start=1)
                     if line.strip() and not line.startswith("#")]
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the datasets table ({exc})") from exc
    if not lines:
        raise ValueError(f"{path}: empty datasets table (no header)")
    reader = csv.reader([line for _, line in lines], delimiter="\t")
    header = next(reader)
    columns = tuple(header)
    if columns[:len(COLUMNS)] != COLUMNS or not set(
            columns[len(COLUMNS):]) <= set(OPTIONAL_COLUMNS):
        raise ValueError(
            f"{path}: header must be the tab-separated columns {', '.join(COLUMNS)}"
            f" (optionally followed by {', '.join(OPTIONAL_COLUMNS)})"
            f"; got {', '.join(header)}"
        )
    rows = []
    for (lineno, _), cells in zip(lines[1:], reader, strict=True):
        if len(cells) != len(columns):
            raise ValueError(
                f"{path}: line {lineno}: {len(cells)} cells, expected {len(columns)}"
            )
        rows.append((lineno, dict(zip(columns, cells, strict=True))))
    return rows


def read_datasets_table(path: str | os.PathLike,
                        schema: str | os.PathLike | None = None) -> list[DatasetSpec]:
    """Read and validate the datasets table.

    Parameters
    ----------
    path : str or os.PathLike
        The tab-separated table (header :data:`COLUMNS`; lines starting with
        ``#`` are comments).
    schema : str or os.PathLike, optional
        JSON schema (YAML) of one row; default: the project's
        ``mlfsbench/data/schemas/datasets.schema.yaml`` (package data).

    Returns
    -------
    list of DatasetSpec
        One per row, in table order.

    Raises
    ------
    ValueError
        If the table is unreadable, its header is wrong, a row violates the
        schema or a name repeats; the message names the table, the line and
        the dataset.
    """
    path = Path(path)
    import jsonschema

    validator = jsonschema.Draft202012Validator(
        _load_schema(DEFAULT_SCHEMA if schema is None else schema)
    )
    specs, seen = [], {}
    for lineno, row in _read_rows(path):
        record = {k: v.strip() for k, v in row.items() if v.strip()}
        # Checksums are compared as text downstream (Snakemake's ensure):
        # one spelling, lower case, from here on.
        record.update((k, v.lower()) for k, v in record.items()
                      if k.endswith("_sha256"))
        label = f"{path}: line {lineno} ({record.get('name', '?')!s})"
        errors = sorted(validator.iter_errors(record), key=lambda e: e.path)
        if errors:
            problems = "; ".join(dict.fromkeys(_describe(e) for e in errors))
            raise ValueError(f"{label}: {problems}")
        if record["name"] in seen:
            raise ValueError(
                f"{label}: name repeats line {seen[record['name']]}"
            )
        seen[record["name"]] = lineno
        known = {f.name for f in fields(DatasetSpec)}
        specs.append(DatasetSpec(**{k: v for k, v in record.items() if k in known}))
    return specs
