"""The ``mlfsbench`` command line on real Mulan files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mlfsbench.cli import main
from mlfsbench.cli._common import parse_params

BIN = Path(sys.executable).parent


@pytest.fixture
def emotions(shared_datasets):
    base = shared_datasets / "multi-label" / "emotions"
    return base / "emotions.arff", base / "emotions.xml"


def run_json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_describe_json(capsys, emotions):
    arff, xml = emotions
    out = run_json(capsys, ["describe", str(arff), "--xml", str(xml), "--json"])
    assert out["instances"] == 593
    assert out["features"] == 72
    assert out["labels"] == 6
    assert round(out["cardinality"], 3) == 1.868
    assert out["distinct_labelsets"] == 27


def test_select_json_matches_library(capsys, emotions):
    from mlfsbench.data import load_mulan
    from mlfsbench.estimators.discretizers.unsupervised import make_discretizer
    from mlfsbench.estimators.information.entropy import mutual_information_matrix

    arff, xml = emotions
    out = run_json(capsys, ["select", str(arff), "--xml", str(xml), "--method",
                            "mim-br", "--n-features", "5", "--json"])
    assert len(out["features"]) == 5
    ds = load_mulan([arff], xml)
    Xd = make_discretizer("equal-width", 5).fit_transform(ds.X)
    scores = mutual_information_matrix(Xd, ds.Y).sum(axis=1)
    best = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:5]
    # The stage's record: ranking (indices, best first), features, scores by
    # feature index.
    assert out["ranking"] == best
    assert out["features"] == [ds.feature_names[i] for i in best]
    assert out["scores"] == pytest.approx(list(scores), abs=1e-12)
    assert out["method"] == "mim-br" and "indices" not in out


def test_evaluate_json(capsys, shared_datasets):
    base = shared_datasets / "multi-label" / "yeast"
    out = run_json(capsys, [
        "evaluate", "--train", str(base / "yeast-train.arff"), "--test",
        str(base / "yeast-test.arff"), "--xml", str(base / "yeast.xml"),
        "--classifier", "mlknn", "--param", "k=10", "--json"])
    # ML-kNN (k=10) on the Mulan yeast split: Hamming loss about 0.19-0.20.
    assert 0.18 < out["hamming_loss"] < 0.21
    assert 0.15 < out["ranking_loss"] < 0.19
    for key in ("subset_accuracy", "micro_f1", "macro_f1", "one_error",
                "average_precision", "coverage"):
        assert key in out


def test_evaluate_feature_subset(capsys, shared_datasets):
    base = shared_datasets / "multi-label" / "emotions"
    argv = ["evaluate", "--train", str(base / "emotions-train.arff"), "--test",
            str(base / "emotions-test.arff"), "--xml", str(base / "emotions.xml"),
            "--classifier", "mlknn", "--json"]
    full = run_json(capsys, argv)
    one = run_json(capsys, [*argv, "--features", "Mean_Acc1298_Mean_Mem40_Centroid"])
    assert full["hamming_loss"] != one["hamming_loss"]


def test_methods_lists_registered(capsys):
    out = run_json(capsys, ["methods", "--json"])
    assert "mim-br" in out["selector"]
    assert out["classifier"]["mlknn"]["parameters"]["k"] == 10


@pytest.mark.parametrize("argv, message", [
    (["select", "missing.arff", "--method", "mim-br"], "missing.arff"),
    (["methods-x"], None),
])
def test_errors_exit_nonzero_with_one_line(argv, message):
    proc = subprocess.run([str(BIN / "mlfsbench"), *argv], capture_output=True,
                          text=True)
    assert proc.returncode != 0
    if message:
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], proc.stderr


def test_unknown_method_is_a_clear_error(capsys, emotions):
    arff, xml = emotions
    assert main(["select", str(arff), "--xml", str(xml), "--method", "nope"]) == 1
    err = capsys.readouterr().err
    assert "unknown selector 'nope'" in err and "mim-br" in err


def test_parse_params_rejects_bad_items():
    with pytest.raises(ValueError, match="key=value"):
        parse_params(["k"])


def test_select_multi_target_with_rrelieff(capsys, shared_datasets):
    arff = shared_datasets / "multi-target" / "atp1d.arff"
    out = run_json(capsys, ["select", str(arff), "--targets", "-6", "--method",
                            "rrelieff", "--n-features", "3", "--json"])
    assert len(out["features"]) == 3
    assert not any(f.startswith("LBL+") for f in out["features"])
    top = [out["scores"][i] for i in out["ranking"]]
    assert top == sorted(top, reverse=True)


def test_select_on_sparse_arff_with_missing_value(capsys, test_data):
    # sparse_tiny.arff has '?' in a sparse row (issue 14.3): imputed, not NaN.
    out = run_json(capsys, ["select", str(test_data / "sparse_tiny.arff"),
                            "--method", "mim-br", "--json"])
    assert sorted(out["features"]) == ["flag", "kind=a", "kind=b", "kind=c", "w0",
                                       "w1", "w4"]


@pytest.mark.parametrize("argv, message", [
    (["--n-features", "-3"], "--n-features must be a positive integer, got -3"),
    (["--n-features", "0"], "--n-features must be a positive integer, got 0"),
    (["--param", "n_features_to_select=-3"],
     "selector 'mim-br': n_features_to_select must be a positive integer or "
     "null, got -3"),
])
def test_select_rejects_non_positive_feature_counts(capsys, test_data, argv,
                                                    message):
    assert main(["select", str(test_data / "sparse_tiny.arff"), "--method",
                 "mim-br", *argv]) == 1
    assert capsys.readouterr().err == f"mlfsbench: error: {message}\n"


def test_describe_json_multi_target_has_null_not_nan(capsys, shared_datasets):
    arff = shared_datasets / "multi-target" / "atp1d.arff"
    assert main(["describe", str(arff), "--targets", "-6", "--json"]) == 0
    text = capsys.readouterr().out
    out = json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c}"))
    assert out["cardinality"] is None and out["density"] is None
    assert out["labels"] == 6


def test_accept_xml_flag(capsys, test_data):
    arff = test_data / "emotions_c6_xml5.arff"
    xml = test_data / "emotions_c6_xml5.xml"
    assert main(["describe", str(arff), "--xml", str(xml)]) == 1
    assert "declares 6 labels" in capsys.readouterr().err
    out = run_json(capsys, ["describe", str(arff), "--xml", str(xml),
                            "--accept-xml", "--json"])
    assert out["labels"] == 5 and out["features"] == 3


def test_knnmi_on_a_single_labelset_names_file_and_cause(capsys, test_data):
    path = test_data / "single_labelset.arff"
    assert main(["select", str(path), "--method", "knnmi-rank"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"mlfsbench: error: {path}: selector 'knnmi-rank': ")
    assert "(1 distinct labelset(s) in 12 instances)" in err
    assert "too few distinct labelsets" in err


def test_knnmi_with_constant_features_runs(capsys, test_data):
    # Classes smaller than the p-selection folds used to fail inside
    # StratifiedKFold ("n_splits=20 cannot be greater than ...").
    import numpy as np

    from mlfsbench.estimators import registry

    rng = np.random.default_rng(0)
    Y = (rng.random((30, 2)) > 0.5).astype(np.uint8)
    sel = registry.create("selector", "knnmi-rank", {}, random_state=0)
    sel.fit(np.ones((30, 4)), Y)
    assert sorted(sel.ranking_) == [0, 1, 2, 3]
