"""Raw files: the URL looked up at download time, re-verification before use."""

from __future__ import annotations

import hashlib
import os

import pytest

from mlfsbench.data.rawfiles import (
    RawFileChanged,
    file_sha256,
    raw_file_source,
    raw_files,
    verify_raw_files,
)
from mlfsbench.data.table import COLUMNS, DatasetSpec


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_raw_file_source_reads_the_table(tmp_path):
    table = tmp_path / "datasets.tsv"
    row = dict.fromkeys(COLUMNS, "") | {
        "name": "d", "train_url": "https://example.org/tr.arff",
        "train_sha256": "A" * 64, "test_url": "https://example.org/te.arff",
        "test_sha256": "b" * 64}
    table.write_text("\t".join(COLUMNS) + "\n" + "\t".join(row[c] for c in COLUMNS)
                     + "\n")
    assert raw_file_source(table, "d", "train.arff") == (
        "https://example.org/tr.arff", "a" * 64)
    assert raw_file_source(table, "d", "test.arff")[0].endswith("te.arff")
    with pytest.raises(ValueError, match="has no labels.xml"):
        raw_file_source(table, "d", "labels.xml")
    with pytest.raises(ValueError, match="no dataset 'e'"):
        raw_file_source(table, "e", "train.arff")


def test_raw_file_names_follow_the_whole_files_format(tmp_path):
    rda = DatasetSpec("llog", arff_url="https://e.org/d/langlog.RDA",
                      arff_sha256="a" * 64)
    arff = DatasetSpec("img", arff_url="https://e.org/d/image.arff",
                       arff_sha256="b" * 64, xml_url="https://e.org/d/image.xml",
                       xml_sha256="c" * 64)
    pair = DatasetSpec("p", train_url="https://e.org/t.arff", train_sha256="d" * 64,
                       test_url="https://e.org/u.arff", test_sha256="e" * 64)
    assert raw_files(rda) == {"whole.rda": ("https://e.org/d/langlog.RDA", "a" * 64)}
    assert raw_files(arff) == {"whole.arff": ("https://e.org/d/image.arff", "b" * 64),
                               "labels.xml": ("https://e.org/d/image.xml", "c" * 64)}
    assert list(raw_files(pair)) == ["train.arff", "test.arff"]
    table = tmp_path / "datasets.tsv"
    row = dict.fromkeys(COLUMNS, "") | {"name": "llog", "arff_url": rda.arff_url,
                                        "arff_sha256": "a" * 64}
    table.write_text("\t".join(COLUMNS) + "\n" + "\t".join(row[c] for c in COLUMNS)
                     + "\n")
    assert raw_file_source(table, "llog", "whole.rda") == (rda.arff_url, "a" * 64)
    with pytest.raises(ValueError, match="'llog' has no whole.arff"):
        raw_file_source(table, "llog", "whole.arff")


def test_edited_raw_file_fails_naming_it(tmp_path):
    raw = tmp_path / "data/raw/d/whole.arff"
    raw.parent.mkdir(parents=True)
    raw.write_bytes(b"@relation good\n")
    good = _sha(b"@relation good\n")
    record = tmp_path / "record.json"
    assert verify_raw_files([(raw, good)], record) == [raw]
    # Unchanged size and mtime: not read again.
    assert verify_raw_files([(raw, good)], record) == []
    # Same size, new content, new mtime: hashed again and rejected.
    st = raw.stat()
    raw.write_bytes(b"@relation evil\n")
    os.utime(raw, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    with pytest.raises(RawFileChanged) as info:
        verify_raw_files([(raw, good)], record)
    message = str(info.value)
    assert message.startswith(f"{raw}: content changed since it was downloaded")
    assert f"sha256 {_sha(b'@relation evil' + bytes([10]))}" in message
    assert f"the datasets table expects {good}" in message


def test_missing_raw_files_are_skipped_and_uppercase_accepted(tmp_path):
    raw = tmp_path / "x.xml"
    raw.write_bytes(b"<labels/>")
    record = tmp_path / "r.json"
    assert verify_raw_files([(tmp_path / "absent", "0" * 64),
                             (raw, _sha(b"<labels/>").upper())], record) == [raw]
    assert file_sha256(raw) == _sha(b"<labels/>")


def test_a_new_expected_checksum_rehashes(tmp_path):
    raw = tmp_path / "x.arff"
    raw.write_bytes(b"abc")
    record = tmp_path / "r.json"
    verify_raw_files([(raw, _sha(b"abc"))], record)
    # The file did not change, the table did: the message says so (issue 29).
    with pytest.raises(RawFileChanged,
                       match=f"the datasets table's sha256 {'1' * 64} differs"):
        verify_raw_files([(raw, "1" * 64)], record)


def test_raw_file_known_by_git_blob_id_is_reverified(tmp_path):
    # Hand-made contents and their ids from `git hash-object --no-filters`.
    good, good_id = (b"@relation toy\n\n@attribute a {0,1}\n@data\n1\n\x00\n",
                     "9bd2a32f677b16b11590abd44db1260160ab499b")
    evil, evil_id = (b"@relation toy\n\n@attribute a {0,1}\n@data\n0\n\x00\n",
                     "66826182f21dbf98a842ae815739081ac5ddba58")
    raw = tmp_path / "train.arff"
    raw.write_bytes(good)
    record = tmp_path / "r.json"
    assert verify_raw_files([(raw, "git-blob:" + good_id.upper())], record) == [raw]
    assert verify_raw_files([(raw, "git-blob:" + good_id)], record) == []
    st = raw.stat()
    raw.write_bytes(evil)
    os.utime(raw, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    with pytest.raises(RawFileChanged) as info:
        verify_raw_files([(raw, "git-blob:" + good_id)], record)
    assert (f"git blob id {evil_id}, the datasets table expects {good_id}"
            in str(info.value))
