"""Checksummed downloads of dataset files, optionally from a mirror.

:func:`download` streams a URL (``http(s)://`` or ``file://``) into a
temporary file next to the destination, hashing while it goes, and renames it
over the destination only once the length and the checksum are right: its
sha256 or, for a file known only by its id in a git repository, its git blob
id (:func:`git_blob_id`; written ``git-blob:<40 hex digits>``). Transient
failures (connection errors, timeouts, HTTP 5xx and 429, truncated bodies) are
retried with exponential backoff; anything else fails at once. Every failure
raises :class:`DownloadError` and leaves neither the destination nor a
temporary file behind.

A mirror (an ``http://`` base, a ``file://`` base or a local directory)
holds the files of several public repositories, each in its folder
(:data:`MIRROR_FOLDERS`: Mulan's ``data/`` at the mirror's root,
``fcharte/mldr.datasets`` under ``mldr.datasets/``, ...); it replaces the
public base of every URL it covers, see :func:`resolve_url`.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit

from mlfsbench.io import atomic_path

log = logging.getLogger(__name__)

PUBLIC_BASE = "https://raw.githubusercontent.com/tsoumakas/mulan/master/data/"
_GITHUB_RAW = "https://raw.githubusercontent.com/"
MIRROR_FOLDERS = {
    PUBLIC_BASE: "",
    _GITHUB_RAW + "fcharte/mldr.datasets/master/": "mldr.datasets/",
    _GITHUB_RAW + "Waikato/meka/master/": "meka/",
    _GITHUB_RAW + "mrapp-ke/Boomer-Datasets/main/": "Boomer-Datasets/",
    # Git LFS files of the same repository are served from another host.
    "https://media.githubusercontent.com/media/mrapp-ke/Boomer-Datasets/main/":
        "Boomer-Datasets/",
}
"""Public base URL -> its folder in a mirror: Mulan's ``data/`` at the root,
another repository ``owner/name`` in the folder ``name/`` (a mirror's
``MANIFEST.tsv`` names each file's upstream as ``owner/name:path``)."""
MIRROR_ENV = "MLFS_MIRROR"
CHUNK_SIZE = 1 << 16
_RE_SHA256 = re.compile(r"^[0-9a-f]{64}$")
GIT_BLOB = "git-blob:"
"""Prefix of a checksum that is a git blob id rather than a sha256."""
_RE_GIT_BLOB = re.compile(r"^git-blob:[0-9a-f]{40}$")
_PERMANENT_OS_ERRORS = (FileNotFoundError, IsADirectoryError, NotADirectoryError,
                        PermissionError)


class DownloadError(RuntimeError):
    """A download failed; the message names the dataset and the URL."""


class _TransientError(Exception):
    """A failure worth retrying (wrapped into DownloadError at the end)."""


class _PermanentError(Exception):
    """A failure that retrying cannot fix."""


def resolve_url(url: str, mirror: str | None = None,
                public_base: str | None = None) -> str:
    """The URL to fetch: ``url`` with its public base replaced by a mirror's
    folder for it.

    Parameters
    ----------
    url : str
        The public URL of a file.
    mirror : str, optional
        Base URL of a mirror (``http://host:port/path/``, ``file:///dir/``) or
        a local directory. ``None`` or ``""`` falls back to the
        ``MLFS_MIRROR`` environment variable (unset or empty: no mirror).
    public_base : str, optional
        The one prefix the mirror's root stands in for; default: every base
        of :data:`MIRROR_FOLDERS`, each mapped to its folder.

    Returns
    -------
    str
        The mirror URL when ``url`` starts with a covered base and a mirror
        is set, else ``url`` unchanged.

    Examples
    --------
    >>> resolve_url(PUBLIC_BASE + "multi-label/yeast/yeast.xml",
    ...             "http://127.0.0.1:8000/mulan")
    'http://127.0.0.1:8000/mulan/multi-label/yeast/yeast.xml'
    >>> resolve_url("https://raw.githubusercontent.com/fcharte/mldr.datasets/"
    ...             "master/data/langlog.rda", "file:///srv/mirror/")
    'file:///srv/mirror/mldr.datasets/data/langlog.rda'
    >>> resolve_url("https://example.org/x.arff", "file:///srv/mulan/")
    'https://example.org/x.arff'
    """
    if not mirror:
        mirror = os.environ.get(MIRROR_ENV, "")
    bases = MIRROR_FOLDERS if public_base is None else {public_base: ""}
    base = next((b for b in bases if url.startswith(b)), None)
    if not mirror or base is None:
        return url
    if "://" not in mirror:
        mirror = Path(mirror).resolve().as_uri()
    return mirror.rstrip("/") + "/" + bases[base] + url[len(base):].lstrip("/")


def absolute_file_url(url: str) -> str:
    """A relative ``file:`` URL resolved against the working directory.

    ``file://cases/toy.arff`` would otherwise read ``cases`` as a host name
    and open ``/toy.arff``; any other URL is returned unchanged.

    >>> absolute_file_url("file://cases/toy.arff") == (
    ...     (Path.cwd() / "cases" / "toy.arff").as_uri())
    True
    >>> absolute_file_url("file:///srv/x.arff"), absolute_file_url("http://h/x")
    ('file:///srv/x.arff', 'http://h/x')
    """
    parts = urlsplit(url)
    if parts.scheme != "file" or (parts.netloc in ("", "localhost")
                                  and parts.path.startswith("/")):
        return url
    relative = unquote(parts.netloc + parts.path)
    return (Path.cwd() / relative).as_uri()


def git_blob_id(path: str | os.PathLike) -> str:
    """The git blob id of a file: the sha1 of ``b"blob <size>\\0"`` + its bytes.

    That is the id ``git hash-object`` prints and a repository's trees list,
    so a file of a public repository can be verified by it when no sha256 of
    it is published.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d) / "hello.txt"
    ...     _ = path.write_bytes(b"hello\\n")
    ...     git_blob_id(path)
    'ce013625030ba8dba906f756967f9e9ca394464a'
    """
    path = Path(path)
    header = b"blob %d\0" % path.stat().st_size
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, lambda: hashlib.sha1(header)).hexdigest()


def _fetch_once(url: str, tmp: Path, timeout: float) -> tuple[str, int]:
    """Stream ``url`` into ``tmp``; return its sha256 and its size.

    Raises
    ------
    _TransientError, _PermanentError
        Classified failures.
    """
    digest = hashlib.sha256()
    size = 0
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, \
                open(tmp, "wb") as out:
            length = resp.headers.get("Content-Length")
            expected = int(length) if length and length.isdigit() else None
            while chunk := resp.read(CHUNK_SIZE):
                digest.update(chunk)
                out.write(chunk)
                size += len(chunk)
    except urllib.error.HTTPError as exc:
        cls = _TransientError if exc.code >= 500 or exc.code == 429 else \
            _PermanentError
        raise cls(f"HTTP {exc.code} {exc.reason}") from exc
    except urllib.error.URLError as exc:
        cls = _PermanentError if isinstance(exc.reason, _PERMANENT_OS_ERRORS) \
            else _TransientError
        raise cls(f"{exc.reason}") from exc
    except http.client.IncompleteRead as exc:
        raise _TransientError(
            f"truncated body ({size + len(exc.partial)} bytes received)"
        ) from exc
    except (TimeoutError, ConnectionError, http.client.HTTPException) as exc:
        raise _TransientError(f"{type(exc).__name__}: {exc}") from exc
    except ValueError as exc:  # unknown URL type and the like
        raise _PermanentError(str(exc)) from exc
    if expected is not None and size != expected:
        raise _TransientError(
            f"truncated body ({size} of {expected} bytes received)"
        )
    return digest.hexdigest(), size


def download(url: str, dest: str | os.PathLike, *, sha256: str, name: str,
             mirror: str | None = None, public_base: str | None = None,
             retries: int = 4, backoff: float = 1.0, timeout: float = 60) -> Path:
    """Download ``url`` to ``dest`` and verify its sha256.

    Parameters
    ----------
    url : str
        Public URL of the file (``http(s)://`` or ``file://``).
    dest : str or os.PathLike
        Destination path; written atomically, parent folders created.
    sha256 : str
        Expected checksum: the file's sha256 (64 hex digits) or, for a file
        identified by its git blob id, ``"git-blob:"`` followed by that id
        (40 hex digits; see :func:`git_blob_id`), as in the datasets table.
    name : str
        Dataset name, for messages.
    mirror, public_base : str, optional
        See :func:`resolve_url`.
    retries : int
        Retries after the first attempt, for transient failures only.
    backoff : float
        Seconds before the first retry, doubled for each further one.
    timeout : float
        Socket timeout in seconds.

    Returns
    -------
    pathlib.Path
        ``dest``.

    Raises
    ------
    DownloadError
        On any failure (after the retries, for transient ones): the message
        names the dataset and the URL, and for a checksum mismatch the
        expected and the actual sha256 (or git blob id). Nothing is left at
        ``dest``.
    """
    dest = Path(dest)
    source = absolute_file_url(resolve_url(url, mirror, public_base))
    where = source if source == url else f"{source} (mirror of {url})"
    expected = sha256.lower()
    if _RE_GIT_BLOB.match(expected):
        kind, expected = "git blob id", expected.removeprefix(GIT_BLOB)
    elif _RE_SHA256.match(expected):
        kind = "sha256"
    else:
        raise DownloadError(f"{name}: {where}: invalid expected sha256 {sha256!r}"
                            f" (nor {GIT_BLOB}<40 hex digits>)")
    if urlsplit(source).scheme not in ("http", "https", "file"):
        raise DownloadError(f"{name}: {where}: unsupported URL scheme")

    for attempt in range(retries + 1):
        log.info("%s: downloading %s (attempt %d of %d)", name, source,
                 attempt + 1, retries + 1)
        try:
            with atomic_path(dest) as tmp:
                actual, size = _fetch_once(source, tmp, timeout)
                if kind == "git blob id":
                    actual = git_blob_id(tmp)
                if actual != expected:
                    raise DownloadError(
                        f"{name}: checksum mismatch for {where}: expected {kind} "
                        f"{expected}, got {actual}"
                    )
        except _PermanentError as exc:
            raise DownloadError(f"{name}: cannot download {where}: {exc}") from exc
        except _TransientError as exc:
            if attempt == retries:
                raise DownloadError(
                    f"{name}: cannot download {where} after {retries + 1} "
                    f"attempt(s): {exc}"
                ) from exc
            delay = backoff * 2**attempt
            log.warning("%s: %s: %s; retrying in %.2f s", name, source, exc, delay)
            time.sleep(delay)
        else:
            log.info("%s: saved %s (%d bytes, %s ok)", name, dest, size, kind)
            return dest
    raise AssertionError("unreachable")  # pragma: no cover
