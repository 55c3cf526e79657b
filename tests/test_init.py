"""``mlfsbench init``: the workflow's files written into a folder (here from
the checkout, as an editable install finds them; tests/test_wheel.py does it
from an installed wheel), never over existing files without ``--force``."""

from __future__ import annotations

import pytest

from mlfsbench import __version__
from mlfsbench.cli import main
from mlfsbench.workflow import bundle
from mlfsbench.workflow.bundle import workflow_files, workflow_source

from .conftest import REPO_ROOT

FILES = workflow_files(REPO_ROOT)


def test_the_workflow_comes_from_the_checkout_here():
    assert workflow_source() == REPO_ROOT
    assert bundle.packaged_root() is None  # an editable install packs nothing
    assert FILES[0] == "Snakefile"
    tops = {f.split("/", 1)[0] for f in FILES}
    assert tops == {"Snakefile", "rules", "scripts", "config", "envs", "profiles",
                    "report"}
    assert {"rules/common.smk", "scripts/select.py", "config/tiny.yaml",
            "config/datasets.tsv", "config/papers/li2017.printed.yaml",
            "report/claims.rst", "profiles/slurm/config.yaml",
            "envs/mlfsbench.yaml"} <= set(FILES)


def test_workflow_files_leave_out_compiled_python_and_the_users_challenges(tmp_path):
    for rel in ("Snakefile", "rules/a.smk", "scripts/s.py",
                "scripts/__pycache__/s.cpython-311.pyc", "config/c.yaml",
                "config/challenges/mine.yaml", "config/papers/p.yaml",
                "envs/e.yaml", "profiles/local/config.yaml", "report/r.rst"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    assert workflow_files(tmp_path) == [
        "Snakefile", "config/c.yaml", "config/papers/p.yaml", "envs/e.yaml",
        "profiles/local/config.yaml", "report/r.rst", "rules/a.smk",
        "scripts/s.py"]
    (tmp_path / "Snakefile").unlink()
    with pytest.raises(FileNotFoundError,
                       match=r"/Snakefile: missing \(not a workflow folder\)$"):
        workflow_files(tmp_path)


def test_init_writes_the_workflow_into_a_new_folder(tmp_path, capsys):
    dest = tmp_path / "a b" / "study"
    assert main(["init", str(dest)]) == 0
    out = capsys.readouterr().out.splitlines()
    count = {top: sum(f.startswith(f"{top}/") for f in FILES)
             for top in ("config", "envs", "profiles", "report", "rules",
                         "scripts")}
    assert out == [
        f"wrote the workflow of mlfsbench {__version__} into {dest}: "
        f"{len(FILES)} files",
        "  Snakefile",
        *(f"  {top}/ ({n} files)" for top, n in count.items()),
        f"next: cd '{dest}' && mlfsbench run --cores all --configfile "
        "config/quick.yaml"]
    assert workflow_files(dest) == FILES
    assert all((dest / f).read_bytes() == (REPO_ROOT / f).read_bytes()
               for f in FILES)


def test_init_refuses_to_overwrite_without_force(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "tiny.yaml").write_text("mine: 1\n")
    (tmp_path / "config" / "mine.yaml").write_text("experiments: {}\n")
    assert main(["init"]) == 1
    assert capsys.readouterr().err == (
        "mlfsbench: error: .: config/tiny.yaml exists already; give --force to "
        "overwrite it with the installed workflow's\n")
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "config", "mine.yaml", "tiny.yaml"]  # nothing written
    assert main(["init", "--force"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"wrote the workflow of mlfsbench {__version__} into .: "
                      f"{len(FILES)} files, 1 of them replaced")
    assert out[-1] == ("next: mlfsbench run --cores all --configfile "
                       "config/quick.yaml")
    assert (tmp_path / "config" / "tiny.yaml").read_bytes() == (
        REPO_ROOT / "config" / "tiny.yaml").read_bytes()
    # a file of the user's that the workflow does not have is left alone
    assert (tmp_path / "config" / "mine.yaml").read_text() == "experiments: {}\n"
    assert main(["init"]) == 1
    assert capsys.readouterr().err == (
        "mlfsbench: error: .: Snakefile, config/config.yaml, config/datasets.tsv "
        f"and {len(FILES) - 3} more exist already; give --force to overwrite "
        "them with the installed workflow's\n")


def test_init_into_a_file_or_the_source_itself_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x")
    assert main(["init", str(tmp_path / "notes.txt")]) == 1
    assert capsys.readouterr().err == (
        f"mlfsbench: error: {tmp_path / 'notes.txt'}: not a folder\n")
    assert main(["init", str(REPO_ROOT), "--force"]) == 1
    assert capsys.readouterr().err == (
        f"mlfsbench: error: {REPO_ROOT}: this is the folder the installed "
        "workflow comes from; nothing to write\n")


def test_a_package_without_its_workflow_says_so(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bundle, "checkout_root", lambda: None)
    assert main(["init", str(tmp_path / "x")]) == 1
    package = REPO_ROOT / "src" / "mlfsbench"
    assert capsys.readouterr().err == (
        f"mlfsbench: error: {package / '_workflow'}: missing, and {package} is "
        "not in a checkout: this mlfsbench was installed without its workflow; "
        "reinstall it from a wheel or a source distribution\n")
    assert not (tmp_path / "x").exists()


def test_run_without_a_workflow_points_to_init(tmp_path, capsys):
    assert main(["run", "--workdir", str(tmp_path), "--cores", "1"]) == 1
    assert capsys.readouterr().err == (
        f"mlfsbench: error: {tmp_path.resolve()}: no workflow here (no "
        "Snakefile); 'mlfsbench init' writes one\n")
