"""Checksummed, retried downloads against local mirrors of the shared datasets."""

from __future__ import annotations

import csv
import hashlib
import http.server
import socket
import time

import pytest

from mlfsbench.data import PUBLIC_BASE, DownloadError, download, resolve_url
from mlfsbench.data.download import git_blob_id
from mlfsbench.data.rawfiles import file_sha256

FILE = "multi-label/emotions/emotions.xml"
PUBLIC_URL = PUBLIC_BASE + FILE


@pytest.fixture(scope="module")
def manifest(shared_datasets) -> dict[str, str]:
    """path -> sha256 of the shared datasets."""
    with open(shared_datasets / "MANIFEST.tsv", encoding="utf-8") as fh:
        return {r["path"]: r["sha256"] for r in csv.DictReader(fh, delimiter="\t")}


@pytest.fixture
def payload(shared_datasets) -> bytes:
    return (shared_datasets / FILE).read_bytes()


def _assert_nothing_left(folder):
    assert list(folder.iterdir()) == []


# -------------------------------------------------------------------- resolving
@pytest.mark.parametrize(("mirror", "expected"), [
    ("http://127.0.0.1:8000/m", "http://127.0.0.1:8000/m/" + FILE),
    ("http://127.0.0.1:8000/m/", "http://127.0.0.1:8000/m/" + FILE),
    ("http://127.0.0.1:8000/m//", "http://127.0.0.1:8000/m/" + FILE),
    ("file:///srv/mulan/", "file:///srv/mulan/" + FILE),
    ("", PUBLIC_URL),
])
def test_resolve_url_joins_with_one_slash(monkeypatch, mirror, expected):
    monkeypatch.delenv("MLFS_MIRROR", raising=False)
    assert resolve_url(PUBLIC_URL, mirror) == expected


def test_resolve_url_leaves_other_urls_alone():
    other = "https://example.org/data/x.arff"
    assert resolve_url(other, "http://127.0.0.1:1/") == other


GITHUB = "https://raw.githubusercontent.com/"


@pytest.mark.parametrize(("url", "path"), [
    (GITHUB + "fcharte/mldr.datasets/master/data/langlog.rda",
     "mldr.datasets/data/langlog.rda"),
    (GITHUB + "Waikato/meka/master/src/main/data/Imdb.arff.bz2",
     "meka/src/main/data/Imdb.arff.bz2"),
    (GITHUB + "mrapp-ke/Boomer-Datasets/main/image.xml", "Boomer-Datasets/image.xml"),
    ("https://media.githubusercontent.com/media/mrapp-ke/Boomer-Datasets/main/"
     "image.arff", "Boomer-Datasets/image.arff"),
    (PUBLIC_URL, FILE),
])
def test_resolve_url_maps_each_upstream_to_its_folder(url, path):
    http = "http://127.0.0.1:8000/m/"
    assert resolve_url(url, http) == http + path
    assert resolve_url(url, "file:///srv/m") == "file:///srv/m/" + path
    # Another branch of the repository is not what the mirror holds.
    other = url.replace("/master/", "/devel/").replace("/main/", "/devel/")
    assert resolve_url(other, "file:///srv/m") == other


def test_resolve_url_custom_public_base():
    assert resolve_url("https://a.org/base/x/y.arff", "file:///m",
                       public_base="https://a.org/base/") == "file:///m/x/y.arff"


def test_resolve_url_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("MLFS_MIRROR", "http://127.0.0.1:9/env/")
    assert resolve_url(PUBLIC_URL) == "http://127.0.0.1:9/env/" + FILE
    assert resolve_url(PUBLIC_URL, "") == "http://127.0.0.1:9/env/" + FILE
    assert resolve_url(PUBLIC_URL, "file:///given") == "file:///given/" + FILE
    monkeypatch.delenv("MLFS_MIRROR")
    assert resolve_url(PUBLIC_URL) == PUBLIC_URL
    # A plain directory becomes a file:// URL.
    assert resolve_url(PUBLIC_URL, str(tmp_path)) == tmp_path.as_uri() + "/" + FILE


# ---------------------------------------------------------------- HTTP mirrors
def test_download_from_http_mirror(http_mirror, manifest, payload, tmp_path):
    dest = tmp_path / "raw" / "emotions.xml"
    out = download(PUBLIC_URL, dest, sha256=manifest[FILE], name="emotions",
                   mirror=http_mirror)
    assert out == dest
    assert dest.read_bytes() == payload
    assert [p.name for p in dest.parent.iterdir()] == ["emotions.xml"]


def test_download_large_sparse_file(http_mirror, manifest, shared_datasets, tmp_path):
    path = "multi-label/bibtex/bibtex-test.arff"  # > 1 MB: many chunks
    dest = tmp_path / "bibtex-test.arff"
    download(PUBLIC_BASE + path, dest, sha256=manifest[path], name="bibtex",
             mirror=http_mirror)
    assert hashlib.sha256(dest.read_bytes()).hexdigest() == manifest[path]


def test_checksum_mismatch(http_mirror, manifest, tmp_path):
    dest = tmp_path / "emotions.xml"
    wrong = "0" * 64
    with pytest.raises(DownloadError) as info:
        download(PUBLIC_URL, dest, sha256=wrong, name="emotions",
                 mirror=http_mirror, backoff=10)
    message = str(info.value)
    assert "emotions" in message
    assert http_mirror + FILE in message
    assert wrong in message and manifest[FILE] in message
    _assert_nothing_left(tmp_path)


def test_not_found_is_not_retried(http_server, shared_datasets, tmp_path):
    served = http_server(directory=shared_datasets)
    url = PUBLIC_BASE + "multi-label/nope/nope.arff"
    start = time.monotonic()
    with pytest.raises(DownloadError, match=r"nope:.*nope\.arff.*404"):
        download(url, tmp_path / "nope.arff", sha256="0" * 64, name="nope",
                 mirror=served.url, backoff=10)
    assert time.monotonic() - start < 5
    assert served.requests == ["/multi-label/nope/nope.arff"]
    _assert_nothing_left(tmp_path)


def test_truncated_body_is_retried_then_fails(http_server, manifest, tmp_path):
    class Truncated(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"<labels/>")

    served = http_server(handler=Truncated)
    dest = tmp_path / "emotions.xml"
    with pytest.raises(DownloadError, match=r"emotions:.*truncated.*9 of 1000"):
        download(PUBLIC_URL, dest, sha256=manifest[FILE], name="emotions",
                 mirror=served.url, retries=2, backoff=0.01)
    assert len(served.requests) == 3  # transient: first try + 2 retries
    _assert_nothing_left(tmp_path)


@pytest.mark.parametrize("status", [503, 429])
def test_transient_status_then_success(http_server, manifest, payload, tmp_path,
                                       status):
    class FlakyOnce(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if len(self.server.requests) == 1:
                self.send_error(status)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    served = http_server(handler=FlakyOnce)
    dest = tmp_path / "emotions.xml"
    download(PUBLIC_URL, dest, sha256=manifest[FILE], name="emotions",
             mirror=served.url, backoff=0.01)
    assert dest.read_bytes() == payload
    assert len(served.requests) == 2


def test_timeout_is_retried(http_server, manifest, payload, tmp_path):
    class SlowOnce(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if len(self.server.requests) == 1:
                time.sleep(1.0)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(payload)

    served = http_server(handler=SlowOnce)
    dest = tmp_path / "emotions.xml"
    download(PUBLIC_URL, dest, sha256=manifest[FILE], name="emotions",
             mirror=served.url, backoff=0.01, timeout=0.3)
    assert dest.read_bytes() == payload
    assert len(served.requests) == 2


def test_connection_refused_fails_after_retries(manifest, tmp_path):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    mirror = f"http://127.0.0.1:{port}/"
    with pytest.raises(DownloadError, match=r"emotions:.*after 2 attempt") as info:
        download(PUBLIC_URL, tmp_path / "e.xml", sha256=manifest[FILE],
                 name="emotions", mirror=mirror, retries=1, backoff=0.01)
    assert mirror + FILE in str(info.value)
    _assert_nothing_left(tmp_path)


def test_failure_keeps_existing_destination_untouched(http_mirror, tmp_path):
    dest = tmp_path / "emotions.xml"
    dest.write_text("previous")
    with pytest.raises(DownloadError):
        download(PUBLIC_URL, dest, sha256="0" * 64, name="emotions",
                 mirror=http_mirror)
    assert dest.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["emotions.xml"]


# ------------------------------------------------------------------ file mirror
def test_download_from_file_mirror(shared_datasets, manifest, payload, tmp_path):
    mirror = shared_datasets.as_uri() + "/"
    dest = tmp_path / "emotions.xml"
    download(PUBLIC_URL, dest, sha256=manifest[FILE], name="emotions", mirror=mirror)
    assert dest.read_bytes() == payload


@pytest.mark.parametrize("name", ["langlog", "slashdot"])
def test_mldr_files_from_file_and_http_mirrors(shared_datasets, http_server, manifest,
                                               tmp_path, name):
    """The mirror's folder of another upstream (MANIFEST.tsv's path), over
    file:// and over HTTP."""
    path = f"mldr.datasets/data/{name}.rda"
    url = GITHUB + f"fcharte/mldr.datasets/master/data/{name}.rda"
    served = http_server(directory=shared_datasets)
    for mirror in (shared_datasets.as_uri(), served.url):
        dest = tmp_path / mirror.split(":")[0] / "whole.rda"
        download(url, dest, sha256=manifest[path], name=name, mirror=mirror)
        assert file_sha256(dest) == manifest[path]
    assert served.requests == ["/" + path]


def test_file_mirror_from_environment(monkeypatch, shared_datasets, manifest,
                                      payload, tmp_path):
    monkeypatch.setenv("MLFS_MIRROR", shared_datasets.as_uri())
    dest = tmp_path / "emotions.xml"
    download(PUBLIC_URL, dest, sha256=manifest[FILE], name="emotions")
    assert dest.read_bytes() == payload


def test_missing_file_in_file_mirror_is_not_retried(shared_datasets, tmp_path):
    start = time.monotonic()
    with pytest.raises(DownloadError, match=r"nope:.*nope\.arff"):
        download(PUBLIC_BASE + "multi-label/nope/nope.arff", tmp_path / "n.arff",
                 sha256="0" * 64, name="nope", mirror=shared_datasets.as_uri(),
                 backoff=10)
    assert time.monotonic() - start < 5
    _assert_nothing_left(tmp_path)


def test_invalid_expected_checksum(tmp_path):
    with pytest.raises(DownloadError, match=r"emotions:.*invalid expected sha256"):
        download(PUBLIC_URL, tmp_path / "e.xml", sha256="abc", name="emotions",
                 mirror="file:///nowhere/")
    _assert_nothing_left(tmp_path)


# ------------------------------------------------------------- git blob ids
# A hand-made file (CR-free, with a NUL byte) and its id from
# `git hash-object --no-filters`: the independent implementation.
TOY = b"@relation toy\n\n@attribute a {0,1}\n@data\n1\n\x00\n"
TOY_GIT_BLOB = "9bd2a32f677b16b11590abd44db1260160ab499b"
TOY_SHA256 = "fd6e1091d4fec88b4fcba367ab53d3d3f872c3184f195e745b71e4de620d79c5"


@pytest.fixture
def toy_mirror(tmp_path):
    """A ``file://`` mirror holding the toy file where a Mulan file would be."""
    path = tmp_path / "mirror" / "multi-label" / "toy" / "toy-train.arff"
    path.parent.mkdir(parents=True)
    path.write_bytes(TOY)
    return (tmp_path / "mirror").as_uri()


TOY_URL = PUBLIC_BASE + "multi-label/toy/toy-train.arff"


def test_git_blob_id_matches_git(tmp_path):
    path = tmp_path / "toy.arff"
    path.write_bytes(TOY)
    assert git_blob_id(path) == TOY_GIT_BLOB
    assert file_sha256(path) == TOY_SHA256
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert git_blob_id(empty) == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


@pytest.mark.parametrize("checksum", ["git-blob:" + TOY_GIT_BLOB,
                                      "GIT-BLOB:" + TOY_GIT_BLOB.upper(),
                                      TOY_SHA256])
def test_download_verifies_git_blob_id_or_sha256(toy_mirror, tmp_path, checksum):
    dest = tmp_path / "raw" / "train.arff"
    download(TOY_URL, dest, sha256=checksum, name="toy", mirror=toy_mirror)
    assert dest.read_bytes() == TOY


def test_git_blob_id_mismatch(toy_mirror, tmp_path):
    wrong = "1" * 40
    (tmp_path / "raw").mkdir()
    with pytest.raises(DownloadError) as info:
        download(TOY_URL, tmp_path / "raw" / "train.arff", sha256="git-blob:" + wrong,
                 name="toy", mirror=toy_mirror)
    message = str(info.value)
    assert f"expected git blob id {wrong}, got {TOY_GIT_BLOB}" in message
    assert "toy-train.arff" in message
    _assert_nothing_left(tmp_path / "raw")


@pytest.mark.parametrize("checksum", ["git-blob:" + "1" * 39, "sha1:" + "1" * 40,
                                      "1" * 40])
def test_invalid_git_blob_checksum(toy_mirror, tmp_path, checksum):
    with pytest.raises(DownloadError, match=r"toy:.*invalid expected sha256"):
        download(TOY_URL, tmp_path / "t.arff", sha256=checksum, name="toy",
                 mirror=toy_mirror)
    assert not (tmp_path / "t.arff").exists()
