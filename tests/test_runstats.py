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


JOBS = [
    ("shared/download/emotions/arff.tsv", 0.5, 40.0, 0.1),
    ("shared/prepare/emotions.tsv", 1.5, 120.0, 1.2),
    ("shared/select/emotions/kfold-k2-seed0/folds0-0/seed0/mim-br.tsv",
     2.0, 300.0, 1.5),
    ("shared/select/emotions/kfold-k2-seed0/folds1-1/seed0/mim-br.tsv",
     4.0, 350.0, 3.5),
    ("shared/select/yeast/holdout-t0.5-r1-seed0/folds0-0/seed0/ami.tsv",
     10.0, 900.0, 9.0),
    ("shared/classify/emotions/kfold-k2-seed0/folds0-1/seed0/mim-br/mlknn/g.tsv",
     3.0, 200.0, 2.0),
    ("e1/stats/hamming_loss.tsv", 0.7, 90.0, 0.5),
    ("e1/aggregate.tsv", 0.4, 80.0, 0.3),
]


@pytest.fixture
def run_dir(tmp_path):
    for rel, s, rss, cpu in JOBS:
        _bench(tmp_path, rel, s, rss, cpu)
    return tmp_path


def test_benchmark_files_map_to_rules_and_experiments(run_dir):
    jobs = read_benchmarks(run_dir)
    got = {row.path.split("benchmarks/")[1]: (row.rule, row.experiment)
           for row in jobs.itertuples()}
    rules = ["download", "prepare", "select", "select", "select", "classify",
             "stats", "aggregate"]
    experiments = ["-"] * 6 + ["e1", "e1"]
    assert got == {rel: (rule, e) for (rel, *_), rule, e in
                   zip(JOBS, rules, experiments, strict=True)}


def test_summary_sums_time_and_takes_the_largest_job_memory(run_dir):
    jobs = read_benchmarks(run_dir)
    by_rule = summarize(jobs, by=["rule"])
    select = by_rule.loc["select"]
    assert select["jobs"] == 3
    assert select["wall_s"] == pytest.approx(16.0)
    assert select["cpu_s"] == pytest.approx(14.0)
    assert select["max_s"] == 10.0 and select["peak_rss_mb"] == 900.0
    both = summarize(jobs)
    assert both.loc[("-", "select"), "wall_s"] == pytest.approx(16.0)
    assert both.loc[("e1", "stats"), "peak_rss_mb"] == 90.0
    assert both["jobs"].sum() == 8


def test_runstats_cli_and_bad_file(run_dir, capsys):
    assert main(["runstats", "--workdir", str(run_dir), "--by", "experiment"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("| experiment | jobs | wall_s")
    assert "| e1 | 2 | 1.1 | 0.8 | 0.6 | 0.7 | 90 |" in out
    bad = run_dir / "benchmarks" / "shared" / "select" / "broken.tsv"
    bad.write_text("not a benchmark\n")
    assert main(["runstats", "--workdir", str(run_dir)]) == 1
    assert "broken.tsv: not a Snakemake benchmark file" in capsys.readouterr().err


def test_jobs_grouped_by_method(run_dir, capsys):
    # issue 30: where the time goes, per selector and classifier
    jobs = read_benchmarks(run_dir)
    got = {row.path.split("benchmarks/")[1]: (row.method, row.dataset)
           for row in jobs.itertuples()}
    methods = ["-", "-", "mim-br", "mim-br", "ami", "mlknn", "-", "-"]
    datasets = ["emotions"] * 4 + ["yeast", "emotions", "-", "-"]
    assert got == {rel: (m, d) for (rel, *_), m, d in
                   zip(JOBS, methods, datasets, strict=True)}
    assert main(["runstats", "--workdir", str(run_dir), "--by", "method"]) == 0
    out = capsys.readouterr().out
    assert "| select | mim-br | 2 | 6.0 | 5.0 | 3.0 | 4.0 | 350 |" in out
    assert "| classify | mlknn | 1 | 3.0 | 2.0 | 3.0 | 3.0 | 200 |" in out
    assert main(["runstats", "--workdir", str(run_dir), "--by", "method-dataset"]) == 0
    assert "| select | ami | yeast | 1 | 10.0 | 9.0 |" in capsys.readouterr().out


def _two_experiments(tmp_path: Path) -> Path:
    """A config of two experiments on emotions that share mim-br's jobs;
    only the second runs ppt-mi."""
    base = ("    datasets: [emotions]\n"
            "    splits: {cv2: {type: kfold, k: 2, seed: 0}}\n"
            "    classifiers: [{name: mlknn, params: {k: 10, s: 1.0}}]\n"
            "    n_features: [1, 5]\n    seed: 0\n")
    mim = "      - {name: mim-br, discretize: {strategy: equal-width, bins: 5}}\n"
    ppt = "      - {name: ppt-mi, discretize: {strategy: equal-width, bins: 5}}\n"
    text = (f"datasets_table: {REPO / 'config' / 'datasets.tsv'}\n"
            "experiments:\n"
            f"  e1:\n{base}    selectors:\n{mim}"
            f"  e2:\n{base}    selectors:\n{mim}{ppt}")
    path = tmp_path / "two.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shared_jobs_are_split_equally_among_their_experiments(tmp_path, capsys):
    from mlfsbench.workflow.runstats import plan_of_config

    config = _two_experiments(tmp_path)
    plan = plan_of_config(config, tmp_path)
    selects = {e: [j for j in plan.outputs(e, "select")] for e in ("e1", "e2")}
    shared_select = selects["e1"][0].keys
    own_select = [j.keys for j in selects["e2"] if j.keys != shared_select][0]

    def select_path(k):
        return (f"shared/select/{k['dataset']}/{k['split']}/{k['batch']}/"
                f"seed{k['seed']}/{k['selector']}.tsv")

    _bench(tmp_path, "shared/prepare/emotions.tsv", 4.0, 100.0, 2.0)
    _bench(tmp_path, select_path(shared_select), 6.0, 300.0, 6.0)
    _bench(tmp_path, select_path(own_select), 5.0, 200.0, 5.0)
    _bench(tmp_path, "shared/prepare/yeast.tsv", 1.0, 50.0, 1.0)  # nobody's
    _bench(tmp_path, "e1/aggregate.tsv", 0.5, 80.0, 0.5)
    assert main(["runstats", "--workdir", str(tmp_path), "--by", "experiment",
                 "--configfile", str(config), "--tsv"]) == 0
    rows = {line.split("\t")[0]: line.split("\t")[1:]
            for line in capsys.readouterr().out.splitlines()[1:]}
    # e1: half of prepare (2) + half of the shared selection (3) + 0.5
    # e2: half of prepare (2) + half of the shared selection (3) + its own 5
    assert rows["e1"][:2] == ["3", "5.50"]
    assert rows["e2"][:2] == ["3", "10.00"]
    assert rows["-"][:2] == ["1", "1.00"]  # used by no experiment of the config
    # the total counts each job once: 5 jobs, 16.5 s, the experiments' sum
    assert rows["total"][:2] == ["5", "16.50"]
    assert rows["total"][-1] == "300.00"
    # without a config the shared jobs stay under "-"
    assert main(["runstats", "--workdir", str(tmp_path), "--by", "rule"]) == 0
    out = capsys.readouterr().out
    assert "| total | 5 | 16.5 |" in out
