"""The datasets table: the shipped one and its validation."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import pytest

from mlfsbench.data import (
    PUBLIC_BASE,
    DatasetSpec,
    DownloadError,
    dataset_statistics,
    download,
    load_dataset,
    read_datasets_table,
    resolve_url,
)
from mlfsbench.data.download import git_blob_id
from mlfsbench.data.rawfiles import file_sha256, raw_files
from mlfsbench.data.table import COLUMNS

TABLE = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"
SHA_A, SHA_B, SHA_C = "a" * 64, "b" * 64, "c" * 64


def _manifest(shared_datasets):
    with open(shared_datasets / "MANIFEST.tsv", encoding="utf-8") as fh:
        return {r["upstream_path"]: r["sha256"]
                for r in csv.DictReader(fh, delimiter="\t")}


def _write_table(tmp_path, *rows, header=COLUMNS):
    path = tmp_path / "datasets.tsv"
    lines = ["\t".join(header)]
    for row in rows:
        cells = dict.fromkeys(COLUMNS, "") | row
        lines.append("\t".join(cells[c] for c in COLUMNS))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _url(name):
    return f"https://example.org/{name}"


# -------------------------------------------------------------- shipped table
MULTI_LABEL = ["bibtex", "emotions", "enron", "genbase", "medical", "scene",
               "yeast", "cal500", "corel5k", "delicious", "corel16k001",
               "languagelog", "slashdot", "image"]
MULTI_TARGET = {"atp1d": -6, "atp7d": -6, "oes97": -16, "oes10": -16,
                "osales": -12, "scm20d": -16}
GITHUB = "https://raw.githubusercontent.com/"
# Upstream files of the rows that are not "<name>/<name>{-train,-test,.xml}".
UPSTREAM = {
    "cal500": {"arff": "cal500/cal500.arff", "xml": "cal500/cal500.xml"},
    "corel5k": {"train": "corel5k/Corel5k-train-sparse.arff",
                "test": "corel5k/Corel5k-test-sparse.arff",
                "xml": "corel5k/Corel5k.xml"},
    # Spolaôr 2013 runs 10-fold CV on the whole set (13 766 instances).
    "corel16k001": {"arff": "corel16k/Corel16k001.arff",
                    "xml": "corel16k/Corel16k001.xml"},
    # Another upstream, as MANIFEST.tsv names it (owner/name:path): R data
    # files of the mldr package's datasets (Lee 2016, Sechidis 2019).
    "languagelog": {"arff": "fcharte/mldr.datasets:data/langlog.rda"},
    "slashdot": {"arff": "fcharte/mldr.datasets:data/slashdot.rda"},
}
# Rows whose files the mirror does not hold: role -> (URL, checksum). image:
# a Git LFS copy (the sha256 its LFS pointer records, 5 829 900 bytes) and its
# label XML (sha256 of the repository's file); scm20d: Mulan's file, known by
# its git blob id in the repository's tree.
BOOMER = "mrapp-ke/Boomer-Datasets/main/"
NOT_IN_MIRROR = {
    "image": {
        "arff": ("https://media.githubusercontent.com/media/" + BOOMER + "image.arff",
                 "cb96890b9785746efda51036688e49f2c1e32503a0d98fa163bf7c03ae764c3d"),
        "xml": (GITHUB + BOOMER + "image.xml",
                "d1feb933924093f582052b20a1c1417ebcca5ca6267c5973fdc32a2f49014afc"),
    },
    "scm20d": {
        "arff": (PUBLIC_BASE + "multi-target/scm20d.arff",
                 "git-blob:60026c060b244c596af2e298f39410fe90d89719"),
    },
}


def _upstream(spec):
    """``role -> upstream path`` (MANIFEST.tsv's ``upstream_path``) of a
    shipped row."""
    if spec.name in MULTI_TARGET:
        return {"arff": f"data/multi-target/{spec.name}.arff"}
    files = UPSTREAM.get(spec.name) or {
        role: f"{spec.name}/{spec.name}{suffix}"
        for role, suffix in [("train", "-train.arff"), ("test", "-test.arff"),
                             ("xml", ".xml")]}
    return {role: path if ":" in path else "data/multi-label/" + path
            for role, path in files.items()}


def _public_url(upstream):
    """Mulan's ``data/...`` or ``owner/name:path`` (default branch master)."""
    repo, sep, path = upstream.partition(":")
    if sep:
        return f"{GITHUB}{repo}/master/{path}"
    return PUBLIC_BASE + upstream.removeprefix("data/")


def test_shipped_table_matches_manifest(shared_datasets):
    specs = read_datasets_table(TABLE)
    assert [s.name for s in specs] == MULTI_LABEL + list(MULTI_TARGET)
    # Every file of every other row is in the mirror, with the same checksum.
    manifest = _manifest(shared_datasets)
    for spec in specs:
        # Multi-target sets: one whole file, the last |targets| attributes.
        assert spec.targets == MULTI_TARGET.get(spec.name), spec.name
        files = spec.files()
        if spec.name in NOT_IN_MIRROR:
            assert files == NOT_IN_MIRROR[spec.name], spec.name
            continue
        upstream = _upstream(spec)
        assert list(files) == list(upstream), spec.name
        for role, path in upstream.items():
            assert files[role] == (_public_url(path), manifest[path]), (spec.name, role)
    # The mirror holds neither image nor scm20d (when it does, list them).
    assert not [p for p in manifest if "image" in p.lower() or "scm20d" in p]


# Mulan's published statistics: instances, features, labels (targets),
# cardinality and density (None for multi-target data).
PUBLISHED = {
    "emotions": (593, 72, 6, 1.868, 0.311),
    "medical": (978, 1449, 45, 1.245, 0.028),
    "cal500": (502, 68, 174, 26.044, 0.150),
    "corel5k": (5000, 499, 374, 3.522, 0.009),
    "delicious": (16105, 500, 983, 19.020, 0.019),
    "corel16k001": (13766, 500, 153, 2.859, 0.019),
    # Lee 2016's Table 1 (its LLog density, 0.001, is a misprint: 1.180 / 75
    # labels is 0.016), cardinality and density as mldr measured them.
    "languagelog": (1460, 1004, 75, 1.180, 0.016),
    "slashdot": (3782, 1079, 22, 1.181, 0.054),
    "atp7d": (296, 411, 6, None, None),
    "oes97": (334, 263, 16, None, None),
    "oes10": (403, 298, 16, None, None),
    "osales": (639, 401, 12, None, None),
}


def _published_case(name):
    # delicious: its XML names the label TAG_m\'usica as the ARFF spells it,
    # escape included (issue 16 item 3).
    large = ("corel5k", "delicious", "corel16k001")
    marks = [pytest.mark.slow] if name in large else []
    return pytest.param(name, marks=marks)


@pytest.mark.parametrize("name", [_published_case(n) for n in PUBLISHED])
def test_shipped_rows_download_and_give_published_statistics(
        shared_datasets, tmp_path, name):
    spec = next(s for s in read_datasets_table(TABLE) if s.name == name)
    local = {}  # the workflow's raw files (whole.rda for an R data file)
    for file, (url, sha) in raw_files(spec).items():
        local[file] = download(url, tmp_path / file, sha256=sha, name=name,
                               mirror=shared_datasets.as_uri())
    whole = [path for file, path in local.items() if file.startswith("whole.")]
    arff = whole or [local["train.arff"], local["test.arff"]]
    ds = load_dataset(arff, local.get("labels.xml"), name=name, targets=spec.targets)
    stats = dataset_statistics(ds)
    instances, features, labels, cardinality, density = PUBLISHED[name]
    assert (stats["instances"], stats["features"], stats["labels"]) == (
        instances, features, labels)
    assert ds.is_regression == (cardinality is None)
    if cardinality is not None:
        assert round(stats["cardinality"], 3) == cardinality
        assert round(stats["density"], 3) == density


@pytest.mark.parametrize("name", sorted(NOT_IN_MIRROR))
def test_rows_not_in_the_mirror_fail_naming_the_file(shared_datasets, tmp_path, name):
    spec = next(s for s in read_datasets_table(TABLE) if s.name == name)
    mirror = shared_datasets.as_uri()
    for file, (url, sha) in raw_files(spec).items():
        with pytest.raises(DownloadError) as err:
            download(url, tmp_path / file, sha256=sha, name=name, mirror=mirror,
                     backoff=0)
        message = str(err.value)
        assert message.startswith(f"{name}: cannot download {resolve_url(url, mirror)}")
        assert "No such file" in message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", sorted(NOT_IN_MIRROR))
def test_rows_not_in_the_mirror_verify_their_checksum(http_server, tmp_path, name):
    """A stand-in served where a mirror would hold the file: the row's
    checksum (sha256 or git blob id) rejects it; its own checksum of the same
    kind accepts it."""
    spec = next(s for s in read_datasets_table(TABLE) if s.name == name)
    fake = tmp_path / "mirror"
    for url, _ in spec.files().values():
        path = fake / resolve_url(url, "file:///m").removeprefix("file:///m/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"@relation stand-in-for-{path.name}\n".encode())
    served = http_server(directory=fake)
    for file, (url, sha) in raw_files(spec).items():
        dest = tmp_path / "raw" / file
        source = fake / resolve_url(url, "file:///m").removeprefix("file:///m/")
        if sha.startswith("git-blob:"):
            kind, expected, actual = "git blob id", sha[9:], git_blob_id(source)
            right = "git-blob:" + actual
        else:
            kind, expected, actual = "sha256", sha, file_sha256(source)
            right = actual
        with pytest.raises(DownloadError) as err:
            download(url, dest, sha256=sha, name=name, mirror=served.url)
        assert f"expected {kind} {expected}, got {actual}" in str(err.value)
        assert not dest.exists()
        download(url, dest, sha256=right, name=name, mirror=served.url)
        assert dest.read_bytes() == source.read_bytes()
    assert len(served.requests) == 2 * len(spec.files())


# ----------------------------------------------------------------- DatasetSpec
def test_spec_files_order_and_single_file():
    spec = DatasetSpec("one", xml_url=_url("x.xml"), xml_sha256=SHA_B,
                       arff_url=_url("x.arff"), arff_sha256=SHA_A)
    assert spec.files() == {"arff": (_url("x.arff"), SHA_A),
                            "xml": (_url("x.xml"), SHA_B)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.name = "other"


def test_single_file_row_without_xml(tmp_path):
    path = _write_table(tmp_path, {"name": "solo.v2", "arff_url": _url("s.arff"),
                                   "arff_sha256": SHA_A.upper()})
    [spec] = read_datasets_table(path)
    assert spec == DatasetSpec("solo.v2", arff_url=_url("s.arff"),
                               arff_sha256=SHA_A)
    assert list(spec.files()) == ["arff"]


def test_git_blob_checksums(tmp_path):
    blob = "git-blob:" + "0123456789abcdef" * 2 + "01234567"
    path = _write_table(tmp_path, GOOD | {"train_sha256": blob},
                        {"name": "one", "arff_url": _url("a"),
                         "arff_sha256": blob.upper().replace("GIT-BLOB", "git-blob")})
    big, one = read_datasets_table(path)
    assert big.files()["train"] == (_url("tr"), blob)
    assert one.files()["arff"][1].lower() == blob  # upper-case hex accepted


def test_comments_and_blank_lines_are_skipped(tmp_path):
    path = tmp_path / "datasets.tsv"
    row = ["d", "", "", _url("t"), SHA_A, "file:///m/t2", SHA_B, "", ""]
    path.write_text("# datasets\n" + "\t".join(COLUMNS) + "\n\n"
                    + "\t".join(row) + "\n", encoding="utf-8")
    [spec] = read_datasets_table(path)
    assert spec.files() == {"train": (_url("t"), SHA_A),
                            "test": ("file:///m/t2", SHA_B)}


# ------------------------------------------------------------------ validation
GOOD = {"name": "ok", "train_url": _url("tr"), "train_sha256": SHA_A,
        "test_url": _url("te"), "test_sha256": SHA_B}


@pytest.mark.parametrize(("row", "problem"), [
    (GOOD | {"name": "-bad"}, "name"),
    (GOOD | {"name": "a b"}, "name"),
    (GOOD | {"train_sha256": "abc"}, "train_sha256"),
    (GOOD | {"test_sha256": "g" * 64}, "test_sha256"),
    (GOOD | {"test_sha256": "git-blob:" + "a" * 39}, "test_sha256"),
    (GOOD | {"test_sha256": "sha1:" + "a" * 40}, "test_sha256"),
    (GOOD | {"test_sha256": "git-blob:" + "a" * 64}, "test_sha256"),
    (GOOD | {"xml_url": _url("x")}, "xml_sha256"),
    (GOOD | {"train_url": "ftp://host/x"}, "train_url"),
    (GOOD | {"arff_url": _url("a"), "arff_sha256": SHA_C}, "either arff_url"),
    ({"name": "ok", "train_url": _url("tr"), "train_sha256": SHA_A},
     "test_url"),
    ({"name": "ok"}, "either arff_url"),
    ({"name": "ok", "arff_url": _url("a")}, "arff_sha256"),
])
def test_invalid_rows_name_table_line_and_problem(tmp_path, row, problem):
    path = _write_table(tmp_path, GOOD | {"name": "first"}, row)
    with pytest.raises(ValueError) as info:
        read_datasets_table(path)
    message = str(info.value)
    assert str(path) in message
    assert "line 3" in message
    assert problem in message


def test_duplicate_names(tmp_path):
    path = _write_table(tmp_path, GOOD, GOOD)
    with pytest.raises(ValueError, match=r"datasets\.tsv: line 3 \(ok\).*line 2"):
        read_datasets_table(path)


def test_bad_header(tmp_path):
    path = _write_table(tmp_path, GOOD, header=COLUMNS[:-1])
    with pytest.raises(ValueError, match=r"datasets\.tsv: header"):
        read_datasets_table(path)


def test_wrong_number_of_cells(tmp_path):
    path = tmp_path / "datasets.tsv"
    path.write_text("\t".join(COLUMNS) + "\nonly\ttwo\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"datasets\.tsv: line 2: 2 cells"):
        read_datasets_table(path)


def test_missing_table(tmp_path):
    with pytest.raises(ValueError, match=r"nothere\.tsv"):
        read_datasets_table(tmp_path / "nothere.tsv")


def test_uppercase_sha256_is_lowercased_once_at_validation(tmp_path):
    # The workflow's ensure(sha256=...) compares text: an uppercase checksum
    # used to delete a good download on every run (issue 14.2).
    path = _write_table(tmp_path, GOOD | {"train_sha256": "ABCDEF" * 10 + "0123"})
    [spec] = read_datasets_table(path)
    assert spec.train_sha256 == "abcdef" * 10 + "0123"
    assert spec.files()["train"] == (_url("tr"), "abcdef" * 10 + "0123")
