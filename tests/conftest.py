"""Shared test fixtures: the shared Mulan datasets and local HTTP servers."""

from __future__ import annotations

import copy
import functools
import http.server
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
TEST_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def own_registry(monkeypatch):
    """The estimator registry with the built-ins registered; what the test
    registers besides is forgotten afterwards."""
    from mlfsbench.estimators import registry

    registry.describe()  # imports the built-in modules once, for good
    monkeypatch.setattr(registry, "_REGISTRY", copy.deepcopy(registry._REGISTRY))
    return registry


@pytest.fixture(scope="session")
def shared_datasets() -> Path:
    """The shared Mulan mirror: ``$MLFS_SHARED_DATASETS`` or ``../shared/datasets``.

    Fails when the variable points to a folder without ``MANIFEST.tsv``; skips
    when the default folder is absent.
    """
    env = os.environ.get("MLFS_SHARED_DATASETS")
    path = Path(env) if env else REPO_ROOT.parent / "shared" / "datasets"
    if not (path / "MANIFEST.tsv").is_file():
        if env:
            pytest.fail(f"MLFS_SHARED_DATASETS={env} has no MANIFEST.tsv")
        pytest.skip(f"shared datasets not found at {path}")
    return path


@pytest.fixture(scope="session")
def test_data() -> Path:
    """The tiny hand-written ARFF/XML files of ``tests/data``."""
    return TEST_DATA


@dataclass
class Served:
    """A running local HTTP server: its base URL and the paths requested."""

    url: str
    requests: list[str] = field(default_factory=list)


def _recording(handler_class: type) -> type:
    """``handler_class`` that records request paths and logs nothing."""

    class Recording(handler_class):
        def parse_request(self):
            ok = super().parse_request()
            if ok:
                self.server.requests.append(self.path)
            return ok

        def log_message(self, format, *args):
            pass

    return Recording


@pytest.fixture
def http_server() -> Iterator[Callable[..., Served]]:
    """Factory starting HTTP servers on 127.0.0.1 (free port) in threads.

    ``start(directory=...)`` serves a folder; ``start(handler=...)`` uses a
    :class:`http.server.BaseHTTPRequestHandler` subclass, which can read
    ``self.server.requests`` (paths so far, this one included). Servers are
    shut down at teardown.
    """
    running = []

    def start(*, directory: str | os.PathLike | None = None,
              handler: type | None = None) -> Served:
        if (directory is None) == (handler is None):
            raise TypeError("give exactly one of directory and handler")
        if directory is not None:
            factory = functools.partial(
                _recording(http.server.SimpleHTTPRequestHandler),
                directory=str(directory),
            )
        else:
            factory = _recording(handler)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), factory)
        server.requests = []
        thread = threading.Thread(target=server.serve_forever,
                                  kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        running.append((server, thread))
        port = server.server_address[1]
        return Served(f"http://127.0.0.1:{port}/", server.requests)

    yield start
    for server, thread in running:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def mirror(shared_datasets) -> str:
    """The shared datasets as a ``file://`` mirror URL (ending in ``/``), as
    the workflow's ``mirror`` config takes it."""
    if not (shared_datasets / "MANIFEST.tsv").exists():
        pytest.fail(f"no Mulan mirror at {shared_datasets} (set MLFS_SHARED_DATASETS)")
    return shared_datasets.resolve().as_uri() + "/"


@pytest.fixture
def http_mirror(http_server, shared_datasets) -> str:
    """Base URL (ending in ``/``) of a local HTTP server of the shared datasets."""
    return http_server(directory=shared_datasets).url


def plan_of(config: dict, readings: bool = True, facts: dict | None = None):
    """The plan of a config as the workflow builds it (read, schema-checked
    with its defaults filled), from the repository's root; without the
    experiments' readings when ``readings`` is false. The datasets' facts
    are ``facts`` (none by default), not those of a checkout's prepared
    datasets, so that the counts do not depend on what ran here before."""
    from snakemake.utils import validate

    from mlfsbench.workflow.config import CONFIG_SCHEMA
    from mlfsbench.workflow.plan import make_plan, read_config

    config = copy.deepcopy(config)
    read_config(config, "test")
    validate(config, str(CONFIG_SCHEMA))
    if not readings:
        for x in config["experiments"].values():
            x.pop("readings", None)
    return make_plan(config, facts=facts or {})


def jobs_of(output: str) -> list[tuple[str, dict]]:
    """(rule, wildcards) of each job a dry run plans."""
    jobs = []
    for block in re.split(r"\n(?=(?:local)?rule \w+:)", output):
        m = re.match(r"(?:local)?rule (\w+):", block.strip())
        if not m:
            continue
        w = re.search(r"^\s*wildcards: (.*)$", block, flags=re.M)
        wildcards = dict(kv.split("=", 1) for kv in w[1].split(", ")) if w else {}
        jobs.append((m[1], wildcards))
    return jobs


@pytest.fixture
def browser_page():
    """A page of headless Chromium, 1280 x 900 (the first screen of a laptop).

    Skips without Chromium or Playwright, except on CI, which installs both
    (.ci/run) and must check the pages in a browser.
    """
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))),
                    None)
    sync_api = pytest.importorskip("playwright.sync_api")
    if chromium is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must check the report in Chromium (.ci/run installs it)")
        pytest.skip("needs chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            browser.close()
