"""What a run was made of: mlfsbench's version and the code's git commit,
its config and the versions of every package."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from mlfsbench import __version__
from mlfsbench.io import write_text
from mlfsbench.workflow.bundle import checkout_root


def package_versions() -> dict[str, str]:
    """Installed distributions and their versions, sorted by name."""
    versions = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            versions[name.lower()] = dist.version
    return dict(sorted(versions.items()))


def _git(directory: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(directory), *args],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def code_version(directory: str | os.PathLike | None = None) -> str:
    """mlfsbench's version, then the git commit of the code that runs and
    whether its tree was dirty.

    ``directory`` defaults to the checkout the package runs from (an
    editable install, :func:`~mlfsbench.workflow.bundle.checkout_root`); an
    installed package (a wheel) has none, and says so: the git repository
    around a virtual environment is not the code's.
    """
    here = Path(directory) if directory is not None else checkout_root()
    version = f"mlfsbench {__version__}"
    commit = None if here is None else _git(here, "rev-parse", "HEAD")
    if here is None or commit is None:
        return f"{version}, not from a git checkout (commit unknown)"
    changed = _git(here, "status", "--porcelain", "--untracked-files=no")
    if changed is None:
        return f"{version}, git {commit} (tree state unknown)"
    if changed:
        n = len(changed.splitlines())
        return (f"{version}, git {commit} (dirty: {n} tracked "
                f"file{'s' * (n != 1)} changed)")
    return f"{version}, git {commit} (clean)"


def write_provenance(config: dict[str, Any], out: str | os.PathLike) -> None:
    """Write the code's commit, the config (YAML) and the Python and package
    versions."""
    lines = [
        "# mlfsbench run provenance",
        f"code: {code_version()}",
        f"python: {sys.version.split()[0]} ({platform.platform()})",
        "",
        "## config",
        yaml.safe_dump(config, sort_keys=True).rstrip(),
        "",
        "## packages",
        *(f"{name}=={version}" for name, version in package_versions().items()),
    ]
    write_text(out, "\n".join(lines) + "\n")
