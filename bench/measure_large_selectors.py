"""Selectors of Lee 2016 and Spolaôr 2013 on the large Mulan sets.

Fits each selector once, as the workflow's select job would, on one training
part of a real dataset (corel5k, delicious, cal500, ...): Lee 2016's first
80/20 hold-out or Spolaôr 2013's first 10-fold CV training part, with the
experiment file's parameters and discretization. Each fit runs in its own
process; the parent polls that process's resident memory and prints the fit's
wall and CPU seconds (CPU: the figure a busy machine does not change) and the
process's peak RSS (MB) against the 4 GiB a cluster job gets. A fit
above ``--timeout`` seconds or ``--max-mb`` MB is stopped and reported as
such. ``--folds 0 1 ...`` fits on those training parts instead of the first,
and the table then ends with each selector's mean feature reduction (Spolaôr
2013's Eq. 10: 100 - 100 |selected| / M, over the folds).

Usage::

    .venv/bin/python bench/measure_large_selectors.py [--shared PATH] \\
        [--datasets corel5k delicious] [--study lee2016 spolaor2013] \\
        [--selectors ig-br ...] [--folds 0 1 2 ...]

``PATH`` is a local copy of the Mulan repository's ``data/`` folder holding
the files of ``config/datasets.tsv`` (default: as the other scripts here).
Not a ``bench_*`` script: it compares with no baseline and takes minutes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, as a select job
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import psutil  # noqa: E402
import yaml  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import add_shared_argument  # noqa: E402

from mlfsbench.data import PUBLIC_BASE, load_mulan, read_datasets_table  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
LIMIT_MB = 4096
SPLITS = {"lee2016": ("lee2016", "ho80"), "spolaor2013": ("spolaor2013", "cv10")}


def _local(url: str, mulan_dir: Path) -> Path:
    return mulan_dir / url.removeprefix(PUBLIC_BASE)


def load(name: str, mulan_dir: Path):
    spec = next(s for s in read_datasets_table(REPO / "config" / "datasets.tsv")
                if s.name == name)
    files = {role: _local(url, mulan_dir) for role, (url, _) in spec.files().items()}
    arff = [files["arff"]] if "arff" in files else [files["train"], files["test"]]
    return load_mulan(arff, files.get("xml"), name=name, targets=spec.targets)


def _experiment(study: str) -> dict:
    path = REPO / "config" / "papers" / f"{study}.yaml"
    return yaml.safe_load(path.read_text())["experiments"][study]


def _fit(study: str, name: str, entry: dict, mulan_dir: str, fold: int,
         queue) -> None:
    """Child process: load, split, discretize, fit; report to ``queue``."""
    from mlfsbench.data.split import make_splits
    from mlfsbench.estimators import registry
    from mlfsbench.estimators.discretizers.unsupervised import make_discretizer
    from mlfsbench.workflow.folds import fold_data
    from mlfsbench.workflow.ids import entry_params, input_kind

    ds = load(name, Path(mulan_dir))
    experiment, split = SPLITS[study]
    spec = _experiment(experiment)["splits"][split]
    train, test = make_splits(spec, ds.Y)[fold]
    X, _ = fold_data(ds, train, test)
    params = entry_params(entry, name)
    disc = entry.get("discretize") or {"strategy": "equal-width", "bins": 5}
    kind = input_kind({**entry, "params": params})
    if kind == "discrete" and disc.get("strategy", "none") != "none":
        X = make_discretizer(disc["strategy"], disc["bins"]).fit_transform(X)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    selector = registry.create("selector", entry["name"], params, random_state=0)
    start, cpu = time.perf_counter(), time.process_time()
    selector.fit(X, ds.Y[train])
    seconds = time.perf_counter() - start
    queue.put({"seconds": seconds, "cpu_seconds": time.process_time() - cpu,
               "rss_before_fit_mb": before,
               "n_selected": int(selector.get_support().sum()),
               "n_features": int(X.shape[1]), "n_train": len(train)})


def measure(study: str, name: str, entry: dict, mulan_dir: Path, fold: int,
            timeout: float, max_mb: float) -> dict:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_fit, args=(study, name, entry, str(mulan_dir), fold,
                                          queue))
    start = time.perf_counter()
    proc.start()
    watched = psutil.Process(proc.pid)
    peak, cpu, status = 0.0, 0.0, "ok"
    while proc.is_alive():
        try:
            peak = max(peak, watched.memory_info().rss / 2**20)
            cpu = sum(watched.cpu_times()[:2])
        except psutil.NoSuchProcess:
            break
        if peak > max_mb:
            status = f"stopped above {max_mb:.0f} MB"
        elif time.perf_counter() - start > timeout:
            # CPU seconds of the whole process so far, loading included.
            status = f"stopped after {timeout:.0f} s ({cpu:.0f} CPU s)"
        if status != "ok":
            proc.kill()
            break
        time.sleep(0.05)
    proc.join()
    result = queue.get(timeout=5) if status == "ok" and proc.exitcode == 0 else {}
    if status == "ok" and proc.exitcode != 0:
        status = f"failed (exit {proc.exitcode})"
    return {"study": study, "dataset": name, "selector": entry.get("id") or
            entry["name"], "fold": fold, "status": status, "peak_mb": round(peak),
            **result}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_shared_argument(parser, "corel5k")
    parser.add_argument("--datasets", nargs="+", default=["corel5k", "delicious"])
    parser.add_argument("--study", nargs="+", default=list(SPLITS))
    parser.add_argument("--selectors", nargs="*", default=None)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--max-mb", type=float, default=6144)
    parser.add_argument("--folds", nargs="+", type=int, default=[0])
    args = parser.parse_args(argv)
    print("study\tdataset\tselector\tfold\tfit_s\tcpu_s\tpeak_mb\tof_4GiB"
          "\tselected\tstatus", flush=True)
    reductions: dict[tuple[str, str], list[float]] = {}
    for study in args.study:
        for entry in _experiment(study)["selectors"]:
            sel = entry.get("id") or entry["name"]
            if args.selectors and sel not in args.selectors:
                continue
            for name in args.datasets:
                for fold in args.folds:
                    r = measure(study, name, entry, args.shared, fold,
                                args.timeout, args.max_mb)
                    seconds = f"{r['seconds']:.2f}" if "seconds" in r else "-"
                    cpu = f"{r['cpu_seconds']:.2f}" if "cpu_seconds" in r else "-"
                    selected = r.get("n_selected", "-")
                    print(f"{study}\t{name}\t{sel}\t{fold}\t{seconds}\t{cpu}\t"
                          f"{r['peak_mb']}\t{r['peak_mb'] / LIMIT_MB:.2f}\t"
                          f"{selected}\t{r['status']}", flush=True)
                    print(json.dumps(r), file=sys.stderr, flush=True)
                    if "n_selected" in r:
                        reductions.setdefault((name, sel), []).append(
                            100 - 100 * r["n_selected"] / r["n_features"])
    if len(args.folds) > 1:
        print("\ndataset\tselector\tfolds\tfeature_reduction_mean\tstd")
        for (name, sel), values in reductions.items():
            mean = sum(values) / len(values)
            std = (sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)) ** .5
            print(f"{name}\t{sel}\t{len(values)}\t{mean:.2f}\t{std:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
