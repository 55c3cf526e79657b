"""One table of measures (evaluation.metrics.MEASURES), and a light DAG time."""

from __future__ import annotations

import re
import subprocess
import sys

import pandas as pd

from mlfsbench.evaluation import metrics as M
from mlfsbench.report import compare

from .conftest import REPO_ROOT


def test_every_measure_has_a_direction_and_a_task():
    # the measures and their scoring variants, each variant its measure's way
    assert set(M.GREATER_IS_BETTER) == set(M.MEASURES) | set(M.VARIANTS)
    assert not set(M.VARIANTS) & set(M.METRICS)
    for name, info in M.VARIANTS.items():
        assert name.startswith(info["of"] + "~")
        assert M.GREATER_IS_BETTER[name] is M.GREATER_IS_BETTER[info["of"]]
    assert M.GREATER_IS_BETTER["one_error~label-order"] is False
    assert M.GREATER_IS_BETTER["macro_f1~absent-skip"] is True
    assert {m["task"] for m in M.MEASURES.values()} == {
        "classification", "regression", "selection"}
    assert M.GREATER_IS_BETTER["rrmse"] is False
    assert M.GREATER_IS_BETTER["feature_reduction"] is True
    assert M.GREATER_IS_BETTER["hamming_loss"] is False
    assert M.GREATER_IS_BETTER["micro_f1"] is True
    # METRICS: the classification rows, in the order evaluate() returns them
    out = M.evaluate([[1, 0], [0, 1]], [[1, 0], [1, 1]], [[0.9, 0.2], [0.6, 0.7]])
    assert list(out) == list(M.METRICS) == [
        n for n, m in M.MEASURES.items() if m["task"] == "classification"]


def test_ranks_follow_the_table_direction():
    # the better method ranks 1 whether the measure is a loss or a gain
    for metric, values in {"rrmse": [0.5, 0.9], "feature_reduction": [90.0, 10.0],
                           "hamming_loss": [0.1, 0.2], "micro_f1": [0.8, 0.3]}.items():
        summary = pd.DataFrame({
            "dataset": "d", "selector": ["good", "bad"], "classifier": "c",
            "n_features": 5, "metric": metric, "mean": values,
        })
        ranks = compare.mean_rank_table(summary, metric)
        assert ranks.loc["d"].to_dict() == {"bad": 2.0, "good": 1.0}, metric


def test_common_smk_imports_neither_compare_nor_scipy_stats():
    text = (REPO_ROOT / "rules" / "common.smk").read_text()
    imports = re.findall(r"^from mlfsbench[\w.]* import (?:\([^)]*\)|.*)$", text,
                         flags=re.MULTILINE)
    assert any("GREATER_IS_BETTER" in line for line in imports)
    code = "\n".join(imports) + (
        "\nimport sys\nprint(sorted(m for m in ('scipy.stats', 'matplotlib', "
        "'mlfsbench.report.compare', 'mlfsbench.estimators.selectors') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"
