"""Issue 29, S7: the cache verifies what it reuses.

Every per-fold result a stage writes under ``results/shared/`` gets its
sha256 in ``<file>.sha256``; every stage that reads one checks it first, so an
edited value stops the stage that would use it, naming the file. A deleted
result is computed again by the next run. Results written before checksums
were recorded are read, with one warning.

The unit tests call the stages on a small synthetic dataset; the workflow
tests (marked ``workflow``) edit, delete and strip a finished tiny run.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlfsbench.data import Dataset
from mlfsbench.io import (
    CacheIntegrityError,
    checksum_path,
    file_sha256,
    read_checked,
    save_npz,
    write_json,
    write_text,
)
from mlfsbench.report.aggregate import transformations_table, write_tables
from mlfsbench.report.selections import runtime_table, stability_table
from mlfsbench.workflow import stages

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
KEYS = {"dataset": "syn", "split": "kfold-k3-seed0"}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def recorded(path: Path) -> str:
    return checksum_path(path).read_text()


# ------------------------------------------------------------------- writing
def test_writers_record_the_sha256_beside_the_file(tmp_path):
    write_text(tmp_path / "t.tsv", "a\tb\n1\t2\n", checksum=True)
    write_json(tmp_path / "r.json", {"x": [1, 2]}, checksum=True)
    save_npz(tmp_path / "a.npz", checksum=True, x=np.arange(5))
    for name in ("t.tsv", "r.json", "a.npz"):
        path = tmp_path / name
        # sha256sum's format: `sha256sum -c a.npz.sha256` checks it in place
        assert recorded(path) == f"{sha256(path)}  {name}\n"
    check = subprocess.run(["sha256sum", "-c", "t.tsv.sha256", "a.npz.sha256"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout == "t.tsv: OK\na.npz: OK\n"
    # the same bytes as without a checksum
    save_npz(tmp_path / "b.npz", x=np.arange(5))
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    assert not checksum_path(tmp_path / "b.npz").exists()
    with np.load(tmp_path / "a.npz") as z:
        assert z["x"].tolist() == [0, 1, 2, 3, 4]


def test_file_sha256_reads_the_bytes_or_takes_the_recorded_checksum(tmp_path):
    write_text(tmp_path / "t.tsv", "a\tb\n1\t2\n", checksum=True)
    path = tmp_path / "t.tsv"
    assert file_sha256(path) == hashlib.sha256(b"a\tb\n1\t2\n").hexdigest()
    # a large file is read in blocks: the same digest as hashing it whole
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(range(256)) * 9000)
    assert file_sha256(big) == hashlib.sha256(big.read_bytes()).hexdigest()
    # recorded=True takes the record beside the file (a job's own checksum),
    # so an edit after the record is not seen; by default the bytes decide
    path.write_text("edited\n")
    assert file_sha256(path) == hashlib.sha256(b"edited\n").hexdigest()
    assert file_sha256(path, recorded=True) == hashlib.sha256(
        b"a\tb\n1\t2\n").hexdigest()
    assert file_sha256(big, recorded=True) == file_sha256(big)  # no record


@pytest.fixture
def batch(tmp_path):
    """A split, codes, selection and metrics table of three folds, written by
    the stages as the workflow writes them, and the transformation stage's
    labels."""
    rng = np.random.default_rng(0)
    U = rng.random((90, 8))
    Y = (U[:, :4] + 0.3 * rng.random((90, 4)) > 0.65).astype(np.uint8)
    data, split = tmp_path / "syn.npz", tmp_path / "folds.npz"
    Dataset(name="syn", X=np.floor(U * 4), Y=Y,
            feature_names=[f"f{i}" for i in range(8)],
            label_names=[f"l{j}" for j in range(4)]).save(data)
    stages.split(data, {"type": "kfold", "k": 3, "seed": 0}, split)
    keys = {**KEYS, "selector": "mim-br", "classifier": "mlknn"}
    stages.discretize_batch(data, split, [0, 1, 2], tmp_path / "d.npz",
                            strategy="equal-width", bins=3)
    stages.select_batch(data, split, [0, 1, 2], tmp_path / "s.json",
                        method="mim-br", params={}, seed=0, keys=keys,
                        discretized=tmp_path / "d.npz")
    stages.classify_batch(data, split, [0, 1, 2], tmp_path / "s.json",
                          tmp_path / "m.tsv", classifier="mlknn",
                          params={"k": 5}, grid=[1, 4], seed=0, keys=keys,
                          predictions_dir=tmp_path / "pred")
    stages.transform_batch(data, split, [0, 1], tmp_path / "l.npz",
                           tmp_path / "l.json", method="br", params={}, seed=0,
                           keys={**KEYS, "transformation": "br"})
    return tmp_path


def test_every_stage_output_has_its_checksum(batch):
    written = ["syn.npz", "folds.npz", "d.npz", "s.json", "m.tsv", "l.npz",
               "l.json", "pred/fold0.npz", "pred/fold2.npz"]
    for name in written:
        path = batch / name
        assert recorded(path) == f"{sha256(path)}  {path.name}\n", name
    assert sorted(p.name for p in batch.glob("*.sha256")) == sorted(
        f"{Path(n).name}.sha256" for n in written if "/" not in n)


def _edit_value(path: Path, row: int = 1) -> tuple[str, str]:
    """Change the value of one row of a metrics table: (old, new) text."""
    lines = path.read_text().splitlines(keepends=True)
    head, old = lines[row].rstrip("\n").rsplit("\t", 1)
    new = "0.001" if old != "0.001" else "0.002"
    lines[row] = f"{head}\t{new}\n"
    path.write_text("".join(lines))
    return old, new


# ---------------------------------------------------------------- verifying
def test_edited_metric_value_stops_the_tables_naming_the_file(batch):
    table = batch / "m.tsv"
    before = sha256(table)
    _edit_value(table)
    after = sha256(table)
    with pytest.raises(CacheIntegrityError) as err:
        write_tables([table], batch / "metrics.tsv", batch / "summary.tsv")
    message = str(err.value)
    assert message.startswith(f"{table}: changed since its job wrote it")
    assert f"sha256 {before[:16]}... recorded in m.tsv.sha256" in message
    assert f"the file's is {after[:16]}..." in message
    assert f"rm -f '{table}' '{table}.sha256'" in message
    assert "mlfsbench run" in message
    assert not (batch / "metrics.tsv").exists()
    assert not (batch / "summary.tsv").exists()


def test_u6_a_failing_aggregate_leaves_the_last_good_tables(batch):
    """Issue 38 U6: Snakemake deletes a job's outputs before it runs and
    when it fails, so a failing aggregate took the experiment's earlier
    tables with it. Each successful one keeps them in tables/last-good/."""
    out = batch / "tables"
    metrics, summary = out / "metrics.tsv", out / "summary.tsv"
    write_tables([batch / "m.tsv"], metrics, summary)
    kept = out / "last-good"
    assert sorted(p.name for p in kept.iterdir()) == ["metrics.tsv", "summary.tsv"]
    assert (kept / "metrics.tsv").read_bytes() == metrics.read_bytes()
    assert (kept / "metrics.tsv").stat().st_ino == metrics.stat().st_ino  # a link
    good = {p.name: p.read_bytes() for p in (metrics, summary)}
    # the next aggregate: Snakemake deletes its outputs, the job fails
    metrics.unlink()
    summary.unlink()
    _edit_value(batch / "m.tsv")
    with pytest.raises(CacheIntegrityError):
        write_tables([batch / "m.tsv"], metrics, summary)
    assert not metrics.exists()
    assert {p.name: p.read_bytes() for p in kept.iterdir()} == good
    # a later success keeps its own tables (the edited value, recorded anew)
    (batch / "m.tsv.sha256").write_text(f"{sha256(batch / 'm.tsv')}  m.tsv\n")
    write_tables([batch / "m.tsv"], metrics, summary)
    assert (kept / "metrics.tsv").read_bytes() == metrics.read_bytes() != good[
        "metrics.tsv"]


def test_intact_tables_read_as_before(batch):
    table = write_tables([batch / "m.tsv"], batch / "metrics.tsv",
                         batch / "summary.tsv")
    plain = pd.read_csv(batch / "m.tsv", sep="\t", dtype={"n_features": str})
    pd.testing.assert_frame_equal(table, plain.sort_values(
        ["metric", "n_features", "fold"], kind="mergesort",
        key=lambda c: c.astype(int) if c.name == "n_features" else c,
    ).reset_index(drop=True))
    assert set(table["fold"]) == {0, 1, 2}


def test_edited_selection_stops_runtime_stability_and_classify(batch):
    path = batch / "s.json"
    data = json.loads(path.read_text())
    data["records"][1]["ranking"][:2] = data["records"][1]["ranking"][1::-1]
    path.write_text(json.dumps(data))
    pattern = rf"^{re.escape(str(path))}: changed since its job wrote it"
    with pytest.raises(CacheIntegrityError, match=pattern):
        runtime_table([path], batch / "runtime.tsv")
    with pytest.raises(CacheIntegrityError, match=pattern):
        stability_table([path], [1, 4], batch / "stability.tsv")
    with pytest.raises(CacheIntegrityError, match=pattern):
        stages.classify_batch(batch / "syn.npz", batch / "folds.npz", [0, 1, 2],
                              path, batch / "m2.tsv", classifier="mlknn",
                              params={"k": 5}, grid=[1, 4], seed=0,
                              keys={**KEYS, "selector": "mim-br",
                                    "classifier": "mlknn"})
    assert not (batch / "runtime.tsv").exists()
    assert not (batch / "m2.tsv").exists()


@pytest.mark.parametrize("name", ["folds.npz", "d.npz"])
def test_edited_split_or_codes_stop_the_batch_jobs(batch, name):
    path = batch / name
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    first = "test_0" if name == "folds.npz" else "X_test_0"
    arrays[first] = arrays[first][::-1].copy()
    save_npz(path, **arrays)  # rewritten without updating its checksum
    with pytest.raises(CacheIntegrityError,
                       match=rf"^{re.escape(str(path))}: changed since its job"):
        stages.select_batch(batch / "syn.npz", batch / "folds.npz", [0, 1, 2],
                            batch / "s2.json", method="mim-br", params={},
                            seed=0, keys={**KEYS, "selector": "mim-br"},
                            discretized=batch / "d.npz")
    assert not (batch / "s2.json").exists()


def _edit_prepared(path: Path) -> None:
    """X[0, 0] += 1000 in a prepared dataset, the file rewritten without
    updating its checksum (issue 38, W4)."""
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["X"][0, 0] += 1000
    save_npz(path, **arrays)


def test_edited_prepared_dataset_stops_every_stage_that_reads_it(batch):
    """Before, the prepared file had no checksum: an edited value changed the
    results without a word (issue 38, W4)."""
    data = batch / "syn.npz"
    before = sha256(data)
    _edit_prepared(data)
    keys = {**KEYS, "selector": "mim-br", "classifier": "mlknn"}
    calls = {
        "split": lambda: stages.split(data, {"type": "kfold", "k": 3, "seed": 0},
                                      batch / "out.npz"),
        "discretize": lambda: stages.discretize_batch(
            data, batch / "folds.npz", [0], batch / "out.npz",
            strategy="equal-width", bins=3),
        "select": lambda: stages.select_batch(
            data, batch / "folds.npz", [0], batch / "out.json", method="mim-br",
            params={}, seed=0, keys=keys, discretized=batch / "d.npz"),
        "classify": lambda: stages.classify_batch(
            data, batch / "folds.npz", [0], batch / "s.json", batch / "out.tsv",
            classifier="mlknn", params={"k": 5}, grid=[1], seed=0, keys=keys),
        "transform": lambda: stages.transform_batch(
            data, batch / "folds.npz", [0], batch / "out.npz", batch / "out.json",
            method="br", params={}, seed=0, keys={**KEYS, "transformation": "br"}),
    }
    for stage, call in calls.items():
        with pytest.raises(CacheIntegrityError) as err:
            call()
        message = str(err.value)
        assert message.startswith(f"{data}: changed since its job wrote it "
                                  f"(sha256 {before[:16]}... recorded in "
                                  f"syn.npz.sha256, the file's is "
                                  f"{sha256(data)[:16]}...); "), stage
        assert message.endswith(f"to recompute it, rm -f '{data}' '{data}.sha256' "
                                f"and rerun the workflow (mlfsbench run, with "
                                f"the same arguments)"), stage
        assert "\n" not in message
    assert not list(batch.glob("out.*"))


def test_prepared_dataset_without_checksum_is_read_with_a_warning(batch, caplog):
    """A prepared file written before checksums were recorded: the same
    dataset, and the warning names it."""
    data = batch / "syn.npz"
    checked = Dataset.load(data)
    checksum_path(data).unlink()
    caplog.set_level(logging.WARNING, logger="mlfsbench.io")
    unchecked = Dataset.load(data)
    np.testing.assert_array_equal(unchecked.X, checked.X)
    np.testing.assert_array_equal(unchecked.Y, checked.Y)
    assert [r.getMessage().split(". ")[0] for r in caplog.records] == [
        f"1 cached result(s) have no recorded checksum (written before checksums "
        f"were recorded, or the .sha256 file was deleted) and are used "
        f"unverified: {data}"]


def test_edited_label_summary_stops_its_table(batch):
    path = batch / "l.json"
    path.write_text(path.read_text().replace('"fold": 1', '"fold": 2'))
    with pytest.raises(CacheIntegrityError, match=re.escape(f"{path}: changed")):
        transformations_table([path], batch / "t.tsv")
    assert not (batch / "t.tsv").exists()


def test_unreadable_checksum_file_is_named(batch):
    checksum_path(batch / "m.tsv").write_text("not a checksum\n")
    with pytest.raises(CacheIntegrityError,
                       match=r"m\.tsv\.sha256: not a sha256 record of m\.tsv.*rm -f"):
        write_tables([batch / "m.tsv"], batch / "metrics.tsv", batch / "s.tsv")


def test_missing_result_is_named(tmp_path):
    with pytest.raises(FileNotFoundError,
                       match=r"gone\.tsv: missing \(a cached result this stage "
                             r"reads\); rerun the workflow"):
        read_checked(tmp_path / "gone.tsv")


def test_results_without_checksum_are_read_with_one_warning(batch, caplog):
    """Results of a cache written before this change: read, one warning per
    stage naming how many and which, the same tables."""
    checked = write_tables([batch / "m.tsv"], batch / "a.tsv", batch / "b.tsv")
    copies = []
    for i in range(4):  # four tables without a checksum
        copy = batch / f"old{i}.tsv"
        shutil.copy(batch / "m.tsv", copy)
        copies.append(copy)
    caplog.set_level(logging.WARNING, logger="mlfsbench.io")
    table = write_tables(copies[:1], batch / "c.tsv", batch / "d.tsv")
    pd.testing.assert_frame_equal(table, checked)
    assert (batch / "c.tsv").read_bytes() == (batch / "a.tsv").read_bytes()
    write_tables(copies, batch / "e.tsv", batch / "f.tsv")
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 2
    assert warnings[0].startswith(
        f"1 cached result(s) have no recorded checksum (written before "
        f"checksums were recorded, or the .sha256 file was deleted) and are "
        f"used unverified: {copies[0]}. ")
    assert warnings[1].startswith("4 cached result(s)")
    assert f"{copies[2]} and 1 more." in warnings[1]
    # not recorded on read: an old file's content is vouched for by nobody
    assert not checksum_path(copies[0]).exists()


# ---------------------------------------------------------------- workflow
TINY = "tiny/tables/metrics.tsv", "tiny/tables/summary.tsv", \
    "tiny/tables/stability.tsv", "tiny/tables/ranks.tsv"
BATCH = "results/shared/emotions/kfold-k2-seed0/folds0-1/seed0"


def _run(workdir: Path, mirror: str, *extra: str) -> subprocess.CompletedProcess:
    cmd = [str(BIN / "mlfsbench"), "run", "--cores", "2", "--configfile",
           "config/tiny.yaml", "--config", f"mirror={mirror}", *extra]
    return subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          timeout=1800)


def _dry_run_rules(workdir: Path, mirror: str) -> list[str]:
    proc = subprocess.run(
        [str(BIN / "snakemake"), "--dry-run", "--cores", "1", "--configfile",
         "config/tiny.yaml", "--config", f"mirror={mirror}"],
        cwd=workdir, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return sorted(m[1] for m in re.finditer(r"^(?:local)?rule (\w+):", proc.stdout,
                                            flags=re.M))


@pytest.fixture(scope="module")
def finished(tmp_path_factory, mirror) -> Path:
    """A finished run of the tiny config (copied by each test)."""
    from mlfsbench.workflow.runner import copy_workflow

    workdir = copy_workflow(REPO, tmp_path_factory.mktemp("s7") / "run")
    proc = _run(workdir, mirror)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return workdir


def _copy(finished: Path, tmp_path: Path) -> Path:
    # copy2 keeps the times, so Snakemake sees the run as finished
    return Path(shutil.copytree(finished, tmp_path / "copy", symlinks=True))


def _same_tables(a: Path, b: Path) -> None:
    for table in TINY:
        assert (a / "results" / table).read_bytes() == \
            (b / "results" / table).read_bytes(), table


@pytest.mark.workflow
def test_run_records_a_checksum_for_each_cached_result(finished):
    results = [p for p in (finished / "results/shared").rglob("*")
               if p.is_file() and p.suffix != ".sha256"]
    assert sorted(p.name for p in results) == [
        "equal-width-5.npz", "folds.npz", "grid-30c598c2.tsv", "grid-b2456dd8.tsv",
        "mim-br-c5f23fb7.json"]
    for path in results:
        assert recorded(path) == f"{sha256(path)}  {path.name}\n", path


@pytest.mark.workflow
def test_edited_cached_value_is_detected_before_the_tables_are_built(
        finished, mirror, tmp_path):
    workdir = _copy(finished, tmp_path)
    (table,) = (workdir / BATCH / "metrics").glob("mim-br-*/*/*.tsv")
    _edit_value(table, row=5)
    # Whatever the rerun triggers, the experiment's tables are rebuilt.
    (workdir / "results/tiny/tables/metrics.tsv").unlink()
    proc = _run(workdir, mirror)
    assert proc.returncode != 0
    relative = table.relative_to(workdir)
    assert f"FAILED aggregate (experiment=tiny): CacheIntegrityError: {relative}: " \
           "changed since its job wrote it" in proc.stdout + proc.stderr
    log = (workdir / "logs/tiny/aggregate.log").read_text()
    assert f"rm -f '{relative}' '{relative}.sha256'" in log
    assert not (workdir / "results/tiny/tables/metrics.tsv").exists()
    # The recovery the message names recomputes that table, the same bytes.
    table.unlink()
    checksum_path(table).unlink()
    proc = _run(workdir, mirror)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _same_tables(workdir, finished)


@pytest.mark.workflow
def test_edited_prepared_dataset_stops_the_run(finished, mirror, tmp_path):
    """Issue 38, W4: X[0, 0] += 1000 in data/prepared/emotions.npz changed the
    Hamming loss (.2041 to .2006) without a word; now the first job that
    reads it (split: the file is newer than its output) stops the run,
    naming the file, and the recovery the message names rebuilds it."""
    workdir = _copy(finished, tmp_path)
    prepared = workdir / "data/prepared/emotions.npz"
    assert recorded(prepared) == f"{sha256(prepared)}  emotions.npz\n"
    _edit_prepared(prepared)
    proc = _run(workdir, mirror)
    assert proc.returncode != 0
    relative = prepared.relative_to(workdir)
    assert re.search(rf"FAILED split \(.*emotions.*\): CacheIntegrityError: "
                     rf"{re.escape(str(relative))}: changed since its job wrote it",
                     proc.stdout + proc.stderr), proc.stdout + proc.stderr
    (log,) = (workdir / "logs/split").rglob("*.log")
    text = log.read_text()
    assert f"{relative}: changed since its job wrote it (sha256 " in text
    assert f"rm -f '{relative}' '{relative}.sha256' and rerun" in text
    for table in TINY:  # the tables of the run before stay as they were
        assert (workdir / "results" / table).read_bytes() == \
            (finished / "results" / table).read_bytes(), table
    prepared.unlink()
    checksum_path(prepared).unlink()
    proc = _run(workdir, mirror)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (workdir / "data/prepared/emotions.npz").read_bytes() == \
        (finished / "data/prepared/emotions.npz").read_bytes()
    _same_tables(workdir, finished)


@pytest.mark.workflow
def test_deleted_selection_is_computed_again(finished, mirror, tmp_path):
    workdir = _copy(finished, tmp_path)
    (selection,) = (workdir / BATCH / "select").glob("*.json")
    selection.unlink()
    # Before: "Nothing to be done" (no table reran, so nothing needed it).
    planned = _dry_run_rules(workdir, mirror)
    assert "select" in planned and planned.count("classify") == 1, planned
    proc = _run(workdir, mirror)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    old = json.loads((finished / selection.relative_to(workdir)).read_text())
    new = json.loads(selection.read_text())
    for record in old["records"] + new["records"]:
        record.pop("seconds")  # the only field that varies: the time of fit
    assert new == old
    assert recorded(selection) == f"{sha256(selection)}  {selection.name}\n"
    _same_tables(workdir, finished)


@pytest.mark.workflow
def test_results_without_checksums_are_still_used(finished, mirror, tmp_path):
    """A cache written before checksums were recorded: reused, not recomputed,
    with a warning in the log of each stage that read such results."""
    workdir = _copy(finished, tmp_path)
    for record in (workdir / "results/shared").rglob("*.sha256"):
        record.unlink()
    (workdir / "results/tiny/tables/metrics.tsv").unlink()
    assert _dry_run_rules(workdir, mirror).count("select") == 0
    proc = _run(workdir, mirror)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    log = (workdir / "logs/tiny/aggregate.log").read_text()
    assert "2 cached result(s) have no recorded checksum" in log
    assert not list((workdir / "results/shared").rglob("*.sha256"))
    _same_tables(workdir, finished)
