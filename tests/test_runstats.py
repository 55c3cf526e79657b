"""Per-stage run statistics from benchmark files (mlfsbench.workflow.runstats)."""

from pathlib import Path

import pytest

from mlfsbench.cli import main
from mlfsbench.workflow.runstats import read_benchmarks, summarize

REPO = Path(__file__).resolve().parents[1]
HEADER = "\t".join(["s", "h:m:s", "max_rss", "max_vms", "max_uss", "max_pss",
                    "io_in", "io_out", "mean_load", "cpu_time"]) + "\n"


def _bench(root: Path, rel: str, s: float, rss: float, cpu: float) -> None:
    path = root / "benchmarks" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{s}\t0:00:01\t{rss}\t0\t0\t0\t0\t0\t0\t{cpu}\n")


@pytest.fixture
def run_dir(tmp_path):
    _bench(tmp_path, "download/emotions/arff.tsv", 0.5, 40.0, 0.1)
    _bench(tmp_path, "prepare/emotions.tsv", 1.5, 120.0, 1.2)
    _bench(tmp_path, "e1/select/emotions/cv/fold0/mim-br.tsv", 2.0, 300.0, 1.5)
    _bench(tmp_path, "e1/select/emotions/cv/fold1/mim-br.tsv", 4.0, 350.0, 3.5)
    _bench(tmp_path, "e2/select/yeast/ho/fold0/ami.tsv", 10.0, 900.0, 9.0)
    _bench(tmp_path, "e1/classify/emotions/cv/fold0/mim-br/mlknn.tsv", 3.0, 200.0, 2.0)
    _bench(tmp_path, "e1/evaluate/emotions/cv/fold0/mim-br/mlknn.tsv", 0.7, 90.0, 0.5)
    _bench(tmp_path, "e1/aggregate.tsv", 0.4, 80.0, 0.3)
    return tmp_path


def test_benchmark_files_map_to_rules_and_experiments(run_dir):
    jobs = read_benchmarks(run_dir, REPO / "rules")
    got = {row.path.split("benchmarks/")[1]: (row.rule, row.experiment)
           for row in jobs.itertuples()}
    assert got == {
        "download/emotions/arff.tsv": ("download", "-"),
        "prepare/emotions.tsv": ("prepare", "-"),
        "e1/select/emotions/cv/fold0/mim-br.tsv": ("select", "e1"),
        "e1/select/emotions/cv/fold1/mim-br.tsv": ("select", "e1"),
        "e2/select/yeast/ho/fold0/ami.tsv": ("select", "e2"),
        "e1/classify/emotions/cv/fold0/mim-br/mlknn.tsv": ("classify", "e1"),
        "e1/evaluate/emotions/cv/fold0/mim-br/mlknn.tsv": ("evaluate", "e1"),
        "e1/aggregate.tsv": ("aggregate", "e1"),
    }


def test_summary_sums_time_and_takes_the_largest_job_memory(run_dir):
    jobs = read_benchmarks(run_dir, REPO / "rules")
    by_rule = summarize(jobs, by=["rule"])
    select = by_rule.loc["select"]
    assert select["jobs"] == 3
    assert select["wall_s"] == pytest.approx(16.0)
    assert select["cpu_s"] == pytest.approx(14.0)
    assert select["max_s"] == 10.0 and select["peak_rss_mb"] == 900.0
    both = summarize(jobs)
    assert both.loc[("e1", "select"), "wall_s"] == pytest.approx(6.0)
    assert both.loc[("e1", "select"), "peak_rss_mb"] == 350.0
    assert both["jobs"].sum() == 8


def test_runstats_cli_and_bad_file(run_dir, capsys):
    (run_dir / "rules").symlink_to(REPO / "rules")
    assert main(["runstats", "--workdir", str(run_dir), "--by", "experiment"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("| experiment | jobs | wall_s")
    assert "| e2 | 1 | 10.0 | 9.0 | 10.0 | 10.0 | 900 |" in out
    bad = run_dir / "benchmarks" / "e1" / "select" / "broken.tsv"
    bad.write_text("not a benchmark\n")
    assert main(["runstats", "--workdir", str(run_dir)]) == 1
    assert "broken.tsv: not a Snakemake benchmark file" in capsys.readouterr().err
