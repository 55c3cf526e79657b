"""Scale study: how each method's cost grows with instances, features, labels.

Not part of the reproduction. IMDB (MEKA's ``Imdb.arff.bz2``: 120 919
instances, 1 001 binary word features, 28 labels given by the relation's
``-C 28``) is read through :func:`mlfsbench.data.load_mulan`, then subsampled to
nested random subsets of ``--sizes`` instances (seed 0). Each (method, size)
runs in a fresh subprocess, one BLAS thread (as a workflow job), under a wall
limit (``--limit`` seconds, killed beyond it):

- a selector is fitted on the subsample (discrete selectors on the 0/1 codes,
  ``rf-br`` on the features as they are);
- a classifier is fitted on the first 80 % of the subsample and predicts the
  other 20 % (every feature).

The worker reports wall seconds of the fit (and prediction) and the peak
resident memory of its process (``ru_maxrss``), with the resident memory after
loading its data for reference. On one size (``--vary-at``) the features
(most frequent first) and the labels (first columns) are also varied.

Outputs: ``--out`` (TSV, one row per run), ``<out>.exponents.tsv`` (the growth
exponent of each method along each axis: least squares slope of log time on
log size over the runs that finished, with peak memory's too) and ``--plot``
(PNG, time against n, log-log). ``--quick`` is a smoke run on a small Mulan
dataset for the tests.

Usage::

    .venv/bin/python bench/scale_imdb.py [--shared PATH] [--sizes 2000 8000 32000]
        [--methods ...] [--limit 600] [--out bench/results/scale_imdb.tsv]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import add_shared_argument

HERE = Path(__file__).resolve().parent
IMDB = Path("meka") / "src" / "main" / "data" / "Imdb.arff.bz2"
SELECTORS = ["lee2016", "mim-br", "ppt-mi", "fimf", "rf-br", "pmu",
             "group-jmi-rand"]
CLASSIFIERS = ["mlknn", "br-lr"]
FIELDS = ["method", "kind", "axis", "n", "p", "q", "status", "seconds",
          "peak_mb", "data_mb"]


# ------------------------------------------------------------------ worker
def _worker(specs: list[dict]) -> None:
    """Every run of one method in this process, one JSON line each.

    Before each run the peak resident memory is reset to the current one
    (``/proc/self/clear_refs``), so ``peak_mb - data_mb`` is what the run
    added to the loaded data.
    """
    import gc

    import scipy.sparse as sp
    from threadpoolctl import threadpool_limits

    from mlfsbench.data import Dataset
    from mlfsbench.estimators import registry

    for spec in specs:
        ds = Dataset.load(spec["data"])  # the subsample of n instances
        X = sp.csr_matrix(ds.X) if ds.is_sparse else np.asarray(ds.X)
        X = X[:, np.asarray(spec["features"])]
        Y = ds.Y[:, : spec["q"]]
        name, kind = spec["method"], spec["kind"]
        if (kind == "selector"
                and registry.get("selector", name).input_kind == "discrete"):
            X = _codes(X)

        def run(X, Y, name=name, kind=kind):
            if kind == "selector":
                registry.create("selector", name, None, random_state=0).fit(X, Y)
            else:
                cut = int(0.8 * X.shape[0])
                model = registry.create("classifier", name, None, random_state=0)
                model.fit(X[:cut], Y[:cut])
                model.predict(X[cut:])

        with threadpool_limits(limits=1):
            run(X[:64], Y[:64])  # warm-up: imports and first calls, not timed
            gc.collect()
            data_mb = _reset_peak()
            start = time.perf_counter()
            run(X, Y)
            seconds = time.perf_counter() - start
        print(json.dumps({"index": spec["index"], "seconds": seconds,
                          "peak_mb": _status_mb("VmHWM"), "data_mb": data_mb}),
              flush=True)
        del ds, X, Y


def _status_mb(field: str) -> float:
    """``VmHWM`` (peak) or ``VmRSS`` (current) of this process in MB."""
    import resource

    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _reset_peak() -> float:
    """Reset the peak resident memory to the current one (Linux); return it.

    Where the reset is not available the peak stays the process's peak so
    far (a run's ``peak_mb`` then bounds it from above).
    """
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
    except OSError:
        pass
    return _status_mb("VmRSS")


def _codes(X):
    """Integer codes: 0/1 features as they are, others in 5 equal-width bins."""
    import scipy.sparse as sp

    values = X.data if sp.issparse(X) else np.asarray(X)
    if np.isin(values, (0.0, 1.0)).all():
        return X.astype(np.int64)
    from mlfsbench.estimators.discretizers.unsupervised import make_discretizer

    dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    return make_discretizer("equal-width", 5).fit_transform(dense)


# ------------------------------------------------------------------ driver
def run_method(specs: list[dict], limit: float) -> dict[int, dict]:
    """:func:`_worker` in a subprocess; each run ``ok``, ``timeout``, ``error``
    or ``skipped``.

    A run past ``limit`` seconds kills the worker; the later runs of larger
    ``n`` are skipped, the others continue in a new worker.
    """
    import queue
    import threading

    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    results: dict[int, dict] = {}
    todo = list(specs)
    while todo:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump(todo, fh)
        proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", fh.name],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, lines),
                         daemon=True).start()
        for spec in list(todo):
            try:
                line = lines.get(timeout=limit + 120)  # + loading and warm-up
            except queue.Empty:
                proc.kill()
                results[spec["index"]] = {"status": "timeout", "seconds": limit}
                todo.remove(spec)
                for other in list(todo):
                    if other["axis"] == "n" and other["n"] > spec["n"]:
                        results[other["index"]] = {"status": "skipped"}
                        todo.remove(other)
                break
            if line is None:  # the worker failed on this run
                tail = proc.stderr.read().strip().splitlines()[-1:] or ["?"]
                print(f"   error: {tail[0]}", file=sys.stderr)
                results[spec["index"]] = {"status": "error"}
                todo.remove(spec)
                break
            out = json.loads(line)
            if out["seconds"] > limit:
                out["status"] = "timeout"
            results[out.pop("index")] = {"status": "ok", **out}
            todo.remove(spec)
        proc.wait()
        os.unlink(fh.name)
    return results


def _pump(stream, lines) -> None:
    """Put every line of ``stream`` on the queue ``lines``, then ``None``."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def fit_exponent(sizes, values) -> float:
    """Least-squares slope of ``log(values)`` on ``log(sizes)`` (NaN if < 2)."""
    sizes, values = np.asarray(sizes, float), np.asarray(values, float)
    ok = np.isfinite(values) & (values > 0)
    if np.unique(sizes[ok]).size < 2:
        return float("nan")
    return float(np.polyfit(np.log(sizes[ok]), np.log(values[ok]), 1)[0])


def exponents(rows: list[dict]) -> list[dict]:
    """Growth exponent of time and peak memory per (method, axis).

    Every finished run counts, also one that finished past the limit (its
    status is ``timeout`` but its time and peak were measured).
    """
    out = []
    for method in dict.fromkeys(r["method"] for r in rows):
        for axis, size in (("n", "n"), ("p", "p"), ("q", "q")):
            runs = [r for r in rows if r["method"] == method
                    and r["axis"] in (axis, "n" if axis != "n" else "")
                    and np.isfinite(r["peak_mb"])]  # finished, within the limit or not
            if axis != "n":  # the varied runs and the base run of that size
                base = {r["n"] for r in rows if r["axis"] == axis}
                runs = [r for r in runs if r["n"] in base]
            x = [r[size] for r in runs]
            if len(set(x)) < 2:
                continue
            out.append({
                "method": method, "axis": axis, "points": len(set(x)),
                "time_exponent": round(fit_exponent(
                    x, [r["seconds"] for r in runs]), 3),
                "memory_exponent": round(fit_exponent(
                    x, [r["peak_mb"] - r["data_mb"] for r in runs]), 3),
            })
    return out


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 5))
    for method in dict.fromkeys(r["method"] for r in rows):
        runs = sorted((r["n"], r["seconds"]) for r in rows
                      if r["method"] == method and r["axis"] == "n"
                      and np.isfinite(r["peak_mb"]))
        if runs:
            n, s = zip(*runs, strict=True)
            ax.plot(n, s, marker="o", label=method)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("instances n (IMDB subsample)")
    ax.set_ylabel("wall seconds (one thread)")
    ax.set_title("Cost against instances (all features, all labels)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "<name>")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--arff", type=Path,
                        help="dataset instead of IMDB (with --xml for Mulan)")
    parser.add_argument("--xml", type=Path)
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000, 32000])
    parser.add_argument("--methods", nargs="+", default=SELECTORS + CLASSIFIERS)
    parser.add_argument("--vary-at", type=int, default=None,
                        help="size at which features and labels are varied "
                             "(default: the second size)")
    parser.add_argument("--fractions", type=float, nargs="*", default=[0.25, 0.5],
                        help="fractions of the features / labels at --vary-at")
    parser.add_argument("--limit", type=float, default=600.0,
                        help="wall seconds per run")
    parser.add_argument("--out", type=Path,
                        default=HERE / "results" / "scale_imdb.tsv")
    parser.add_argument("--plot", type=Path,
                        default=HERE / "results" / "scale_imdb.png")
    parser.add_argument("--replot", action="store_true",
                        help="only redo the exponents and the plot from --out")
    args = parser.parse_args(argv)
    if args.worker:
        with open(args.worker, encoding="utf-8") as fh:
            _worker(json.load(fh))
        return 0
    if args.replot:
        with open(args.out, encoding="utf-8") as fh:
            rows = [{k: (v if k in ("method", "kind", "axis", "status")
                         else float(v) if k in ("seconds", "peak_mb", "data_mb")
                         else int(v)) for k, v in r.items()}
                    for r in csv.DictReader(fh, delimiter="\t")]
        return _summarize(rows, args)

    from mlfsbench.data import load_mulan
    from mlfsbench.estimators import registry

    arff = args.arff or args.shared / IMDB
    start = time.perf_counter()
    ds = load_mulan(arff, args.xml)
    n_all, p_all = ds.X.shape
    q_all = ds.Y.shape[1]
    print(f"{ds.name}: {n_all} x {p_all}, {q_all} labels "
          f"(read in {time.perf_counter() - start:.1f} s)", flush=True)
    sizes = [min(s, n_all) for s in args.sizes]
    vary_at = args.vary_at or sizes[min(1, len(sizes) - 1)]
    nnz = np.asarray((ds.X != 0).sum(axis=0)).ravel()
    by_frequency = np.argsort(-nnz, kind="stable")
    kinds = {m: ("selector" if m in registry.names("selector") else "classifier")
             for m in args.methods}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    order = np.random.default_rng(0).permutation(n_all)
    with tempfile.TemporaryDirectory() as tmp:
        data = {}
        for n in sorted(set(sizes) | {vary_at}):
            data[n] = Path(tmp) / f"n{n}.npz"
            _subsample(ds, order[:n]).save(data[n])
        plan = [("n", n, p_all, q_all) for n in sizes]
        for f in args.fractions:
            plan.append(("p", vary_at, max(1, int(round(f * p_all))), q_all))
            plan.append(("q", vary_at, p_all, max(1, int(round(f * q_all)))))
        for method in args.methods:
            # the small varied runs first, then n upwards (a limit stops n)
            runs = sorted(plan, key=lambda r: (r[0] == "n", r[1]))
            specs = [{"index": i, "axis": axis, "data": str(data[n]), "n": n,
                      "features": sorted(by_frequency[:p].tolist()), "q": q,
                      "method": method, "kind": kinds[method]}
                     for i, (axis, n, p, q) in enumerate(runs)]
            results = run_method(specs, args.limit)
            for i, (axis, n, p, q) in enumerate(runs):
                row = {"method": method, "kind": kinds[method], "axis": axis,
                       "n": n, "p": p, "q": q, "seconds": float("nan"),
                       "peak_mb": float("nan"), "data_mb": float("nan"),
                       **results[i]}
                rows.append(row)
                print(f"{method:15s} {axis} n={n:6d} p={p:5d} q={q:3d} "
                      f"{row['status']:8s} {row['seconds']:9.2f} s "
                      f"{row['peak_mb'] - row['data_mb']:8.0f} MB over the data",
                      flush=True)
                _write(args.out, rows, FIELDS)
    return _summarize(rows, args)


def _summarize(rows: list[dict], args) -> int:
    """Write the exponents TSV and the plot of finished runs ``rows``."""
    slopes = exponents(rows)
    _write(args.out.with_suffix(".exponents.tsv"), slopes,
           ["method", "axis", "points", "time_exponent", "memory_exponent"])
    for s in slopes:
        print(f"{s['method']:15s} {s['axis']}: time ~ {s['axis']}^"
              f"{s['time_exponent']}, memory above data ~ {s['axis']}^"
              f"{s['memory_exponent']}")
    plot(rows, args.plot)
    return 0


def _subsample(ds, rows):
    """The dataset's instances ``rows`` (nested random subsets)."""
    from mlfsbench.data import Dataset

    return Dataset(name=ds.name, X=ds.X[rows], Y=ds.Y[rows],
                   feature_names=ds.feature_names, label_names=ds.label_names,
                   feature_types=ds.feature_types,
                   is_test=np.asarray(ds.is_test)[rows])


def _write(path: Path, rows: list[dict], fields: list[str]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, delimiter="\t",
                           extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.3f}" if isinstance(v, float) else v)
                        for k, v in r.items()})


if __name__ == "__main__":
    sys.exit(main())
