"""Run every benchmark of this folder, one after the other, and echo them.

Each ``bench_*.py`` measures one of our implementations against a named
baseline in the same run and prints the ratio; see the scripts' docstrings.
Usage: ``python bench/run_all.py [--shared PATH] [--only NAME ...]``.
The slowest are ``bench_grid`` (the per-K loop of ML-kNN, BRkNN-b and BR-LR on
yeast and bibtex against ``predict_path``) and ``bench_delicious`` (983
scikit-learn logistic regressions as the baseline): several minutes each.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", help="folder of the Mulan datasets mirror")
    parser.add_argument("--only", nargs="+", help="benchmark names, e.g. bench_mi")
    args = parser.parse_args()
    status = 0
    for script in sorted(HERE.glob("bench_*.py")):
        if args.only and script.stem not in args.only:
            continue
        print(f"== {script.stem}", flush=True)
        cmd = [sys.executable, str(script)]
        if args.shared:
            cmd += ["--shared", args.shared]
        status |= subprocess.call(cmd)
    return status


if __name__ == "__main__":
    sys.exit(main())
