"""Checksummed, retried downloads against local mirrors of the shared datasets."""

from __future__ import annotations

import csv
import hashlib
import http.server
import socket
import time

import pytest

from mlfsbench.data import PUBLIC_BASE, DownloadError, download, resolve_url

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
