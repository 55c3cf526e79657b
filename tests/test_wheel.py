"""``pip install`` of a built wheel into a fresh environment outside the repository.

The wheel is built from a copy of the sources (``pip wheel --no-deps
--no-build-isolation``: no network, nothing written into the checkout) and
installed with ``--no-deps`` into a new virtual environment. That environment
finds the dependencies in this one's site-packages through a ``.pth`` line
(the pinned environment, offline); a ``.pth`` line does not run the ``.pth``
files of the folder it adds, so this checkout's editable install stays
invisible and ``mlfsbench`` is imported from the wheel (checked). The
commands then run in a folder that is not the repository.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from mlfsbench.cli import main

from .conftest import REPO_ROOT

pytestmark = pytest.mark.slow


def run(*cmd, cwd=None) -> str:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, f"{cmd}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO_ROOT / name, src)
    shutil.copytree(REPO_ROOT / "src", src / "src",
                    ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    out = tmp_path_factory.mktemp("wheels")
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
        "--no-build-isolation", "--no-index", "--wheel-dir", out, src)
    (built,) = out.glob("mlfsbench-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(tmp_path_factory, wheel) -> Path:
    env = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", env)
    python = env / "bin" / "python"
    purelib = Path(run(python, "-c", "import sysconfig; "
                       "print(sysconfig.get_paths()['purelib'])").strip())
    (purelib / "pinned-environment.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
        "--no-deps", "--no-index", wheel)
    return env


def test_wheel_holds_the_package_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"mlfsbench/data/schemas/datasets.schema.yaml",
            "mlfsbench/workflow/schemas/config.schema.yaml",
            "mlfsbench/report/schemas/claims.schema.yaml",
            "mlfsbench/py.typed", "mlfsbench/cli/__init__.py",
            "mlfsbench/estimators/selectors/mim.py"} <= names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "mlfsbench = mlfsbench.cli:main" in zipfile.ZipFile(wheel).read(
        entry_points).decode()


def test_installed_commands_work_outside_the_repository(venv, tmp_path,
                                                        shared_datasets, capsys):
    python, cli = venv / "bin" / "python", venv / "bin" / "mlfsbench"
    where = run(python, "-c", "import mlfsbench; print(mlfsbench.__file__)",
                cwd=tmp_path)
    assert Path(where.strip()).is_relative_to(venv)  # the wheel, not the checkout

    def both(*args):
        """The installed command's JSON and the checkout's, for one call."""
        installed = json.loads(run(cli, *args, "--json", cwd=tmp_path))
        assert main([*map(str, args), "--json"]) == 0
        here = json.loads(capsys.readouterr().out)
        return installed, here

    base = shared_datasets / "multi-label" / "emotions"
    arff, xml = base / "emotions.arff", base / "emotions.xml"
    installed, here = both("describe", arff, "--xml", xml)
    assert installed == here and installed["instances"] == 593

    installed, here = both("select", arff, "--xml", xml, "--method", "mim-br",
                           "--n-features", "4")
    for key in ("features", "scores"):
        assert installed[key] == here[key]
    assert len(installed["features"]) == 4

    installed, here = both("evaluate", "--train", base / "emotions-train.arff",
                           "--test", base / "emotions-test.arff", "--xml", xml,
                           "--classifier", "br-lr")
    installed.pop("seconds"), here.pop("seconds")
    assert installed == here and 0 < installed["hamming_loss"] < 0.5

    table = tmp_path / "ranks.csv"
    table.write_text("dataset,a,b,c\nd1,0.1,0.2,0.3\nd2,0.2,0.1,0.3\n"
                     "d3,0.1,0.3,0.2\nd4,0.1,0.2,0.4\n")
    installed, here = both("stats", table)
    assert installed == here
    assert installed["average_ranks"] == {"a": 1.25, "b": 2.0, "c": 2.75}  # losses

    installed, here = both("methods")
    assert installed == here and "mim-br" in installed["selector"]

    # the datasets table is validated against the schema shipped in the wheel
    datasets = REPO_ROOT / "config" / "datasets.tsv"
    count = run(python, "-c", "from mlfsbench.data import read_datasets_table; "
                f"print(len(read_datasets_table({str(datasets)!r})))", cwd=tmp_path)
    from mlfsbench.data import read_datasets_table

    assert int(count) == len(read_datasets_table(datasets)) > 0
