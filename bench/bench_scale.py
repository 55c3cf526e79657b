"""Scale: a Delicious-size sparse dataset through prepare → select → classify.

Generates a synthetic sparse multi-label ARFF shaped like Delicious (16 105
instances × 500 binary features × 983 labels, label density ≈ 0.019, feature
density ≈ 0.02) with its Mulan label XML, registers it in a datasets table
with its sha256 (``file://`` URLs), and runs one experiment on it in a fresh
copy of the workflow: MIM-BR on equal-width codes and ML-kNN on the sparse
features, one 80/20 hold-out, K = 10, 50 and all. Prints wall seconds and peak
memory (max RSS from the rules' ``benchmark:`` files) per stage, against the
4 GiB per job the cluster profile assumes, and the ratio of the largest peak
to that limit.

Usage::

    .venv/bin/python bench/bench_scale.py [--instances N]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_workflow import REPO, snakemake  # noqa: E402

from mlfsbench.workflow.runner import copy_workflow  # noqa: E402

LIMIT_MB = 4096


def write_sparse_arff(path: Path, n: int, d: int, q: int, seed: int = 0) -> None:
    """Sparse ARFF: ``d`` binary features, then ``q`` binary labels."""
    rng = np.random.default_rng(seed)
    # Labels depend on a few features each, so the selection has a signal.
    X = rng.random((n, d)) < 0.02
    W = rng.random((d, q)) < 0.001
    Y = (X.astype(np.int32) @ W.astype(np.int32)) > 0
    Y |= rng.random((n, q)) < 0.01  # label density about 0.02
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("@relation delicious-like\n")
        for j in range(d):
            fh.write(f"@attribute f{j} {{0,1}}\n")
        for k in range(q):
            fh.write(f"@attribute l{k} {{0,1}}\n")
        fh.write("@data\n")
        for i in range(n):
            cols = np.concatenate([np.flatnonzero(X[i]), d + np.flatnonzero(Y[i])])
            fh.write("{" + ",".join(f"{c} 1" for c in cols) + "}\n")


def write_xml(path: Path, q: int) -> None:
    labels = "".join(f'<label name="l{k}"></label>\n' for k in range(q))
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<labels xmlns='
                    f'"http://mulan.sourceforge.net/labels">\n{labels}</labels>\n')


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--instances", type=int, default=16105)
    parser.add_argument("--features", type=int, default=500)
    parser.add_argument("--labels", type=int, default=983)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mlfs-scale-") as tmp:
        tmp = Path(tmp)
        data = tmp / "mirror"
        data.mkdir()
        arff, xml = data / "big.arff", data / "big.xml"
        write_sparse_arff(arff, args.instances, args.features, args.labels)
        write_xml(xml, args.labels)
        workdir = copy_workflow(REPO, tmp / "wf")
        columns = ["name", "arff_url", "arff_sha256", "train_url", "train_sha256",
                   "test_url", "test_sha256", "xml_url", "xml_sha256"]
        row = ["big", arff.as_uri(), sha256(arff), "", "", "", "", xml.as_uri(),
               sha256(xml)]
        (workdir / "config" / "big.tsv").write_text(
            "\t".join(columns) + "\n" + "\t".join(row) + "\n")
        config = {"datasets_table": "config/big.tsv", "experiments": {"scale": {
            "datasets": ["big"],
            "splits": {"ho": {"type": "holdout", "test_size": 0.2, "repeats": 1,
                              "seed": 0, "stratify": False}},
            "selectors": [{"name": "mim-br"}],
            "classifiers": [{"name": "mlknn"}],
            "n_features": [10, 50, "all"],
            "stats": {"metrics": ["hamming_loss"]}}}}
        (workdir / "config" / "scale.yaml").write_text(yaml.safe_dump(config))
        start = time.perf_counter()
        snakemake(workdir, "--cores", "2", "--configfile", "config/scale.yaml")
        wall = time.perf_counter() - start
        rows = []
        for bench in (workdir / "benchmarks").rglob("*.tsv"):
            parts = bench.relative_to(workdir / "benchmarks").parts
            parts = parts[1:] if parts[0] == "scale" else parts
            stage = parts[0].removesuffix(".tsv")
            b = pd.read_csv(bench, sep="\t")
            rows.append({"stage": stage, "s": float(b["s"].iloc[0]),
                         "max_rss_mb": float(b["max_rss"].iloc[0])})
        table = pd.DataFrame(rows).groupby("stage").agg(
            seconds=("s", "sum"), peak_mb=("max_rss_mb", "max"))
        Y = pd.read_csv(workdir / "results/tables/datasets.tsv", sep="\t")
        print(f"synthetic {args.instances} x {args.features} features x "
              f"{args.labels} labels, sparse, label density "
              f"{float(Y['density'].iloc[0]):.3f}; whole run {wall:.1f} s at 2 cores")
        print(table.sort_values("peak_mb", ascending=False).to_string(
            float_format=lambda v: f"{v:.1f}"))
        metrics = pd.read_csv(workdir / "results/scale/tables/summary.tsv", sep="\t",
                              dtype={"n_features": str})
        hl = metrics[metrics["metric"] == "hamming_loss"]
        print("hamming loss by K:", dict(zip(hl["n_features"], hl["mean"].round(4),
                                             strict=True)))
        peak = float(table["peak_mb"].max())
        print(f"ratio peak job memory vs 4 GiB per job: {peak / LIMIT_MB:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
