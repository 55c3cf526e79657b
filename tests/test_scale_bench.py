"""The scale study (bench/scale_imdb.py) and the label-groups benchmark, in a
quick mode on emotions; the memory requests of the rules."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlfsbench.workflow.resources import MEASURED, UNKNOWN_MB, request_mb

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_request_grows_with_size_attempt_and_threads():
    small = request_mb("select", 0.5)
    assert small == int(np.ceil(1.5 * (MEASURED["select"][0]
                                       + MEASURED["select"][1] * 0.5)))
    assert request_mb("select", 20.0) > small
    assert request_mb("select", 0.5, attempt=2, threads=3) == 6 * small
    assert request_mb("select", None) == UNKNOWN_MB
    assert request_mb("download", 1.0) == 500  # the floor
    assert request_mb("select", 1e6) == 16000  # the ceiling
    with pytest.raises(ValueError, match="no measured peak"):
        request_mb("nonsense", 1.0)


def test_every_data_rule_asks_through_the_table():
    rules = Path(__file__).resolve().parents[1] / "rules"
    for rule in ("split", "discretize", "transform", "select", "classify"):
        text = (rules / f"{rule}.smk").read_text(encoding="utf-8")
        assert f'mem_mb=mem_mb_of("{rule}")' in text, rule


@pytest.mark.slow
def test_scale_study_quick(shared_datasets, tmp_path):
    folder = shared_datasets / "multi-label" / "emotions"
    out = tmp_path / "scale.tsv"
    subprocess.run(
        [sys.executable, str(BENCH / "scale_imdb.py"),
         "--arff", str(folder / "emotions.arff"), "--xml",
         str(folder / "emotions.xml"), "--sizes", "150", "300",
         "--methods", "mim-br", "mlknn", "--fractions", "0.5", "--limit", "120",
         "--out", str(out), "--plot", str(tmp_path / "scale.png")],
        check=True, capture_output=True, text=True)
    with open(out, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    # 2 methods x (2 sizes + features halved + labels halved)
    assert [(r["method"], r["axis"], r["n"], r["p"], r["q"]) for r in rows] == [
        (m, *rest) for m in ("mim-br", "mlknn") for rest in (
            ("p", "300", "36", "6"), ("q", "300", "72", "3"),
            ("n", "150", "72", "6"), ("n", "300", "72", "6"))]
    assert all(r["status"] == "ok" and float(r["seconds"]) > 0
               and float(r["peak_mb"]) >= float(r["data_mb"]) > 0 for r in rows)
    with open(out.with_suffix(".exponents.tsv"), encoding="utf-8") as fh:
        slopes = list(csv.DictReader(fh, delimiter="\t"))
    assert {(s["method"], s["axis"]) for s in slopes} == {
        (m, a) for m in ("mim-br", "mlknn") for a in "npq"}
    assert (tmp_path / "scale.png").stat().st_size > 0


@pytest.mark.slow
def test_label_groups_bench_quick(shared_datasets):
    done = subprocess.run(
        [sys.executable, str(BENCH / "bench_label_groups.py"), "--shared",
         str(shared_datasets), "--dataset", "emotions", "--target", "0"],
        check=True, capture_output=True, text=True)
    assert "equal selections and medoids: True" in done.stdout


def test_exponent_is_the_log_log_slope():
    sys.path.insert(0, str(BENCH))
    try:
        from scale_imdb import fit_exponent
    finally:
        sys.path.remove(str(BENCH))
    n = np.array([1e3, 4e3, 1.6e4])
    assert fit_exponent(n, 3e-6 * n**2) == pytest.approx(2.0)
    assert fit_exponent(n, 0.5 * n) == pytest.approx(1.0)
    assert np.isnan(fit_exponent(n[:1], n[:1]))


def test_prepared_mb_is_the_uncompressed_arrays(tmp_path):
    from mlfsbench.workflow.resources import prepared_mb

    path = tmp_path / "d.npz"
    np.savez_compressed(path, X=np.zeros((1024, 128)))  # 1 MiB of float64
    assert prepared_mb(path) == pytest.approx(1.0, rel=0.01)
    assert path.stat().st_size < 2**16  # compressed: far smaller
    assert prepared_mb(tmp_path / "missing.npz") is None


def test_plan_mem_mb_of_reads_the_prepared_dataset(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from mlfsbench.workflow.plan import mem_mb_of
    from mlfsbench.workflow.resources import prepared_mb

    monkeypatch.chdir(tmp_path)
    mem_mb = mem_mb_of("classify")
    wildcards = SimpleNamespace(dataset="d")
    assert mem_mb(wildcards, 1) == UNKNOWN_MB  # not prepared yet
    (tmp_path / "data" / "prepared").mkdir(parents=True)
    np.savez_compressed("data/prepared/d.npz", X=np.zeros((2048, 256)))  # 4 MiB
    size = prepared_mb("data/prepared/d.npz")
    assert size == pytest.approx(4.0, rel=0.01)
    assert mem_mb(wildcards, 2, threads=3) == request_mb(
        "classify", size, attempt=2, threads=3) == 6 * request_mb("classify", size)
