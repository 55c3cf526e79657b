"""Provenance: mlfsbench's version, the commit of the code that ran and
whether its tree was dirty."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from mlfsbench import __version__
from mlfsbench.workflow import provenance
from mlfsbench.workflow.provenance import code_version, write_provenance

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t",
                           "-c", "user.email=t@example.org", *args], check=True,
                          capture_output=True, text=True).stdout.strip()


def test_commit_clean_and_dirty(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git(tmp_path, "add", "a.py")
    git(tmp_path, "commit", "-q", "-m", "one")
    sha = git(tmp_path, "rev-parse", "HEAD")
    assert code_version(tmp_path) == f"mlfsbench {__version__}, git {sha} (clean)"
    (tmp_path / "a.py").write_text("x = 2\n")
    assert code_version(tmp_path) == (f"mlfsbench {__version__}, git {sha} "
                                      "(dirty: 1 tracked file changed)")


def test_without_a_checkout_says_so(tmp_path):
    assert code_version(tmp_path) == (f"mlfsbench {__version__}, not from a git "
                                      "checkout (commit unknown)")


def test_the_default_is_the_checkout_the_package_runs_from(monkeypatch):
    repo = Path(__file__).resolve().parents[1]
    sha = git(repo, "rev-parse", "HEAD")
    assert code_version().startswith(f"mlfsbench {__version__}, git {sha} (")
    # an installed package has no checkout (tests/test_wheel.py runs one
    # inside a git repository, whose commit it must not take)
    monkeypatch.setattr(provenance, "checkout_root", lambda: None)
    assert code_version() == (f"mlfsbench {__version__}, not from a git checkout "
                              "(commit unknown)")


def test_provenance_file_names_the_code(tmp_path):
    write_provenance({"seed": 1}, tmp_path / "p.txt")
    lines = (tmp_path / "p.txt").read_text().splitlines()
    assert lines[1].startswith("code: ") and lines[1] == f"code: {code_version()}"
