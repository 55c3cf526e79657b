"""The runs on Doquire & Verleysen's artificial problems as jobs of their own
(mlfsbench.evaluation.artificial): each run computed once, whichever claims
and readings ask for it, stored exactly, and read back by the claims."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from mlfsbench.evaluation import artificial
from mlfsbench.io import CacheIntegrityError
from mlfsbench.report.claims import evaluate_claim
from mlfsbench.report.claims.results import Results
from mlfsbench.workflow.runstats import plan_of_config

REPO = Path(__file__).resolve().parents[1]

QUANTITY = {"problem": 1, "method": "mim-br", "repeats": 3, "n": 200,
            "check": "first", "features": [4, 14, 10]}


def _claim(**quantity):
    return {"id": "c", "statement": "s", "source": "none", "reading": "r",
            "rule": "artificial", "quantity": {**QUANTITY, **quantity},
            "paper": "3 of 3 draws"}


def test_a_run_is_stored_exactly(tmp_path):
    """Rankings of different lengths and draws without scores come back as
    they were computed, bit for bit."""
    spec = artificial.run_spec(QUANTITY)
    rankings = [np.array([4, 14, 10, 0]), np.array([10, 4]), np.array([3])]
    scores = [np.array([0.1, np.pi, -0.0]), None, np.array([1e-300])]
    path = tmp_path / f"{artificial.run_key(spec)}.npz"
    artificial.save_runs(path, spec, rankings, scores)
    back_r, back_s = artificial.load_runs(path, spec)
    assert [r.tolist() for r in back_r] == [[4, 14, 10, 0], [10, 4], [3]]
    assert back_s[1] is None
    for a, b in [(back_s[0], scores[0]), (back_s[2], scores[2])]:
        assert a.tobytes() == b.tobytes()


def test_a_run_file_is_checked(tmp_path):
    spec = artificial.run_spec(QUANTITY)
    path = tmp_path / "run.npz"
    artificial.save_runs(path, spec, [np.array([1, 0])], [None])
    other = artificial.run_spec({**QUANTITY, "problem": 2})
    with pytest.raises(ValueError, match="run.npz: holds the run"):
        artificial.load_runs(path, other)
    path.write_bytes(path.read_bytes()[:-1] + b"x")
    with pytest.raises(CacheIntegrityError, match="run.npz: changed since"):
        artificial.load_runs(path, spec)


def test_the_claims_read_the_run_the_job_computed(tmp_path, monkeypatch):
    """Given the workflow's runs, a claim reads its run and computes
    nothing; the verdict is the one computing it gives."""
    computed = evaluate_claim(_claim(), Results("nowhere"))
    assert computed["ours"] == "holds in 3 of 3 draws"
    spec = artificial.run_spec(QUANTITY)
    key = artificial.run_key(spec)
    artificial.save_runs(tmp_path / f"{key}.npz", spec, *artificial.run(spec))

    def never(*args, **kwargs):
        raise AssertionError("computed again")

    monkeypatch.setattr(artificial, "run_problem", never)
    runs = {key: str(tmp_path / f"{key}.npz")}
    row = evaluate_claim(_claim(), Results("nowhere", artificial=runs))
    assert (row["verdict"], row["ours"]) == (computed["verdict"], computed["ours"])
    # a run the workflow did not compute is an error, not a silent fit
    with pytest.raises(KeyError, match="'c': the run .* was not computed"):
        evaluate_claim(_claim(problem=2), Results("nowhere", artificial=runs))


def test_the_entry_s_parameters_make_the_run():
    """A claim naming the experiment's entry runs under that entry's
    parameters (this run's readings): another reading of the parameters is
    another run."""
    from mlfsbench.workflow.report_params import artificial_runs

    claims = {"claims": [_claim(entry="e", check="first"),
                         _claim(entry="e", check="top")]}
    one = artificial_runs(claims, {"params": {"e": {"a": 1}}})
    two = artificial_runs(claims, {"params": {"e": {"a": 2}}})
    assert len(one) == len(two) == 1 and set(one) != set(two)
    (spec,) = one.values()
    assert spec["params"] == {"a": 1} and spec["method"] == "mim-br"
    # the entry named by its name, the parameters found under its id
    by_name = artificial_runs(claims, {"params": {"e-1234abcd": {"a": 1}},
                                       "methods": {"e": "e-1234abcd"}})
    assert by_name == one


def test_doquire_s_readings_share_their_runs():
    """config.yaml: Doquire 2013's 13 artificial claims, in its 6 reading
    experiments and doquire2013-pruning's 3, ask for 10 distinct runs (the
    Chi2 reading's two chi2-lp runs are its own); each is one job, and its
    code version includes the selector it fits."""
    plan = plan_of_config(REPO / "config" / "config.yaml", REPO)
    asked = {e: plan.artificial_of(e) for e in plan.experiments}
    asking = {e: runs for e, runs in asked.items() if runs}
    assert set(asking) == {e for e in plan.experiments
                           if e.startswith("doquire2013")}
    assert len(asking) == 9
    keys = set().union(*asking.values())
    assert len(keys) == 10
    assert {len(runs) for runs in asking.values()} == {8, 6}
    liu = asking["doquire2013~chi2-liu-setiono"]
    assert set(liu) != set(asking["doquire2013"])
    assert len(set(liu) & set(asking["doquire2013"])) == 6
    for key in keys:
        assert artificial.run_key(plan.artificial_spec(SimpleNamespace(key=key))) \
            == key
    files = plan.artificial_files(SimpleNamespace(experiment="doquire2013"))
    assert files == sorted(f"results/shared/artificial/{k}.npz"
                           for k in asking["doquire2013"])
    version = plan.code_version(str(REPO / "scripts" / "artificial.py"),
                                "artificial")
    by_method: dict[str, set[str]] = {}
    for key in keys:
        method = plan.artificial_spec(SimpleNamespace(key=key))["method"]
        by_method.setdefault(method, set()).add(version(SimpleNamespace(key=key)))
    # one version per selector fitted, three selectors' modules differ
    assert all(len(v) == 1 for v in by_method.values())
    assert len(set().union(*by_method.values())) >= 2
