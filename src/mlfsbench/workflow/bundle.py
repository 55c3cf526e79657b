"""Where the workflow's files are: the Snakefile, the rules, the scripts the
rules run, the configs (studies, claims, printed tables, the datasets
table), the report's captions, the cluster profiles and the environment
files (:data:`WORKFLOW_FILES`).

In a checkout they sit at the top of the repository, beside ``src/``. A
wheel carries a copy of them inside the package, in ``mlfsbench/_workflow/``
(``setup.py`` puts it there when it builds the wheel), so that ``pip install
mlfsbench`` gives the whole tool: ``mlfsbench init`` writes them from either
place into a folder where ``mlfsbench run`` then runs.

This module imports only the standard library: ``setup.py`` loads it by its
path to learn which files to pack.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

#: What a workflow folder holds besides its outputs, at its top.
WORKFLOW_FILES = ("Snakefile", "rules", "scripts", "config", "envs", "profiles",
                  "report")

#: Never part of the workflow: compiled Python, and the challengers' configs
#: that ``mlfsbench challenge`` writes into a workflow folder (a user's own).
IGNORED = ("__pycache__", "*.pyc", "config/challenges")

#: The workflow's folder inside the installed package.
PACKAGED = "_workflow"


def _ignored(rel: str) -> bool:
    """Whether the path ``rel`` (relative to the workflow folder) or one of
    its parents is :data:`IGNORED`.

    >>> [_ignored(p) for p in ("scripts/__pycache__/a.pyc", "config/tiny.yaml",
    ...                        "config/challenges/x.yaml", "rules/common.smk")]
    [True, False, True, False]
    """
    parts = rel.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return any(fnmatch.fnmatchcase(part, pattern) or prefix == pattern
               for part, prefix in zip(parts, prefixes, strict=True)
               for pattern in IGNORED)


def workflow_files(root: str | os.PathLike) -> list[str]:
    """The workflow's files under ``root``, as sorted POSIX paths relative to
    it (the files of :data:`WORKFLOW_FILES`' folders, none :data:`IGNORED`).

    Raises FileNotFoundError naming the first of :data:`WORKFLOW_FILES` that
    ``root`` lacks.
    """
    root = Path(root)
    found = []
    for name in WORKFLOW_FILES:
        top = root / name
        if top.is_file():
            found.append(name)
        elif top.is_dir():
            found += [p.relative_to(root).as_posix() for p in top.rglob("*")
                      if p.is_file()]
        else:
            raise FileNotFoundError(f"{top}: missing (not a workflow folder)")
    return sorted(p for p in found if not _ignored(p))


def checkout_root() -> Path | None:
    """The repository this package runs from (an editable install of a
    checkout: ``<repository>/src/mlfsbench``), or None for an installed
    package."""
    root = Path(__file__).resolve().parents[3]
    if (root / "Snakefile").is_file() and (root / "src" / "mlfsbench").is_dir():
        return root
    return None


def packaged_root() -> Path | None:
    """The workflow inside the installed package (from a wheel), or None."""
    root = Path(__file__).resolve().parents[1] / PACKAGED
    return root if (root / "Snakefile").is_file() else None


def workflow_source() -> Path:
    """The folder whose workflow ``mlfsbench init`` writes out: the installed
    package's copy, or else the checkout's top."""
    root = packaged_root() or checkout_root()
    if root is None:
        package = Path(__file__).resolve().parents[1]
        raise FileNotFoundError(
            f"{package / PACKAGED}: missing, and {package} is not in a checkout: "
            "this mlfsbench was installed without its workflow; reinstall it "
            "from a wheel or a source distribution")
    return root
