"""``pip install`` of a built wheel into a fresh environment outside the repository.

The wheel is built as a release would be: a source distribution from a copy
of the files it is made of (nothing written into the checkout), then the
wheel from that (``pip wheel --no-deps --no-build-isolation``: no network).
It is installed with ``--no-deps`` into a new virtual environment, inside a
git repository of its own (a user's project). That environment finds the
dependencies in this one's site-packages through a ``.pth`` line (the pinned
environment, offline); a ``.pth`` line does not run the ``.pth`` files of
the folder it adds, so this checkout's editable install stays invisible and
``mlfsbench`` is imported from the wheel (checked). The commands then run in
a folder that is not the repository: ``mlfsbench init`` writes the workflow
there, and the tiny study runs in it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from mlfsbench import __version__
from mlfsbench.cli import main
from mlfsbench.workflow.bundle import workflow_files
from mlfsbench.workflow.runner import copy_workflow

from .conftest import REPO_ROOT

pytestmark = pytest.mark.slow

#: The files at the top of the repository that the source distribution is
#: built from, besides src/ and the workflow.
TOP = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE",
       "CITATION.cff", "CHANGELOG.md")


def call(*cmd, cwd=None, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)


def run(*cmd, cwd=None, env=None) -> str:
    proc = call(*cmd, cwd=cwd, env=env)
    assert proc.returncode == 0, f"{cmd}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in TOP:
        shutil.copy(REPO_ROOT / name, src)
    shutil.copytree(REPO_ROOT / "src", src / "src",
                    ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    copy_workflow(REPO_ROOT, src, exist_ok=True)
    out = tmp_path_factory.mktemp("sdist")
    run(sys.executable, "-c", "from setuptools import build_meta; "
        f"build_meta.build_sdist({str(out)!r})", cwd=src)
    (built,) = out.glob("mlfsbench-*.tar.gz")
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory, sdist) -> Path:
    out = tmp_path_factory.mktemp("wheels")
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
        "--no-build-isolation", "--no-index", "--wheel-dir", out, sdist)
    (built,) = out.glob("mlfsbench-*.whl")
    return built


def git(repo, *args):
    run("git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.org",
        *args)


@pytest.fixture(scope="module")
def venv(tmp_path_factory, wheel) -> Path:
    project = tmp_path_factory.mktemp("project")
    if shutil.which("git"):
        git(project, "init", "-q")
        git(project, "commit", "-q", "--allow-empty", "-m", "a user's project")
    env = project / ".venv"
    run(sys.executable, "-m", "venv", "--without-pip", env)
    python = env / "bin" / "python"
    purelib = Path(run(python, "-c", "import sysconfig; "
                       "print(sysconfig.get_paths()['purelib'])").strip())
    (purelib / "pinned-environment.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
        "--no-deps", "--no-index", wheel)
    return env


def test_the_sdist_holds_the_workflow_licence_and_citation(sdist):
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"LICENSE", "CITATION.cff", "CHANGELOG.md", "README.md", "setup.py",
            "src/mlfsbench/cli/init.py"} <= names
    assert set(workflow_files(REPO_ROOT)) <= names
    assert not any(n.startswith("tests/") or "__pycache__" in n for n in names)


def test_wheel_holds_the_package_data_and_the_workflow(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    packed = {n.removeprefix("mlfsbench/_workflow/") for n in names
              if n.startswith("mlfsbench/_workflow/")}
    assert packed == set(workflow_files(REPO_ROOT))
    assert {"Snakefile", "rules/common.smk", "scripts/summary.py",
            "config/tiny.yaml", "config/datasets.tsv",
            "config/papers/lee2016.claims.yaml", "report/workflow.rst",
            "profiles/slurm/config.yaml", "envs/requirements.lock"} <= packed
    assert f"mlfsbench-{__version__}.dist-info/licenses/LICENSE" in names
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


def test_init_writes_the_workflow_and_the_tiny_study_runs_there(venv, mirror):
    cli = venv / "bin" / "mlfsbench"
    study = venv.parent / "study"  # in the user's git repository
    study.mkdir()
    proc = call(cli, "run", "--cores", "1", cwd=study)
    assert (proc.returncode, proc.stderr) == (1, (
        f"mlfsbench: error: {study.resolve()}: no workflow here (no Snakefile); "
        "'mlfsbench init' writes one\n"))

    files = workflow_files(REPO_ROOT)
    lines = run(cli, "init", cwd=study).splitlines()
    assert lines[0] == (f"wrote the workflow of mlfsbench {__version__} into .: "
                        f"{len(files)} files")
    configs = sum(f.startswith("config/") for f in files)
    assert lines[1:3] == ["  Snakefile", f"  config/ ({configs} files)"]
    assert lines[-1] == ("next: mlfsbench run --cores all --configfile "
                         "config/quick.yaml")
    assert workflow_files(study) == files  # (no __pycache__ of the install)
    assert all((study / f).read_bytes() == (REPO_ROOT / f).read_bytes()
               for f in files)
    proc = call(cli, "init", cwd=study)
    assert (proc.returncode, proc.stderr) == (1, (
        "mlfsbench: error: .: Snakefile, config/config.yaml, config/datasets.tsv "
        f"and {len(files) - 3} more exist already; give --force to overwrite "
        "them with the installed workflow's\n"))

    env = {**os.environ, "MLFS_MIRROR": mirror}
    out = run(cli, "run", "--cores", "2", "--configfile", "config/tiny.yaml",
              cwd=study, env=env)
    assert out.splitlines()[-1] == "summary: results/summary.html"
    metrics = pd.read_csv(study / "results/tiny/tables/metrics.tsv", sep="\t",
                          dtype={"n_features": str})
    # 1 dataset x 2 folds x 1 selector x 1 classifier x 4 feature counts
    assert (metrics.groupby("metric").size() == 8).all()
    assert set(metrics["n_features"]) == {"1", "5", "20", "all"}
    # the version, and no commit: the git repository around the environment
    # is not the code's
    code = f"mlfsbench {__version__}, not from a git checkout (commit unknown)"
    provenance = (study / "results/tiny/provenance.txt").read_text()
    assert provenance.splitlines()[1] == f"code: {code}"
    assert f"Code: {code}</small>" in (study / "results/summary.html").read_text()
