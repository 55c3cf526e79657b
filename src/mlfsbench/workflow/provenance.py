"""What a run was made of: its config and the versions of every package."""

from __future__ import annotations

import os
import platform
import sys
from importlib import metadata
from typing import Any

import yaml

from mlfsbench.io import write_text


def package_versions() -> dict[str, str]:
    """Installed distributions and their versions, sorted by name."""
    versions = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            versions[name.lower()] = dist.version
    return dict(sorted(versions.items()))


def write_provenance(config: dict[str, Any], out: str | os.PathLike) -> None:
    """Write the config (YAML) and the Python and package versions."""
    lines = [
        "# mlfsbench run provenance",
        f"python: {sys.version.split()[0]} ({platform.platform()})",
        "",
        "## config",
        yaml.safe_dump(config, sort_keys=True).rstrip(),
        "",
        "## packages",
        *(f"{name}=={version}" for name, version in package_versions().items()),
    ]
    write_text(out, "\n".join(lines) + "\n")
