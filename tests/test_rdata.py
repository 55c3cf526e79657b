"""mldr objects in R data files (languagelog, slashdot of mldr.datasets)."""

from __future__ import annotations

import lzma
import struct
import warnings

import numpy as np
import pandas as pd
import pytest

from mlfsbench.cli import main
from mlfsbench.data import (
    DataFormatError,
    Dataset,
    dataset_statistics,
    load_dataset,
    load_mldr,
    load_mulan,
)
from mlfsbench.data import rdata as mldr_module
from mlfsbench.workflow.stages import prepare

from .badinputs import mldr_rda

# name -> (instances, features, labels, labels that never occur): Lee 2016's
# Table 1 (1 460 x 1 004 x 75; 3 782 x 1 079 x 22).
MLDR = {
    "langlog": (1460, 1004, 75, []),
    "slashdot": (3782, 1079, 22, ["Main", "Meta"]),
}


def _rda(shared_datasets, name):
    return shared_datasets / "mldr.datasets" / "data" / f"{name}.rda"


@pytest.fixture(scope="module", params=sorted(MLDR))
def mldr_file(request, shared_datasets):
    path = _rda(shared_datasets, request.param)
    return request.param, path, load_mldr(path)


def _r_object(path):
    """The mldr object as rdata converts it (for the R-computed metadata)."""
    import rdata

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no constructor for mldr
        [obj] = rdata.read_rda(path).values()
    return obj


def test_mldr_statistics_are_the_papers(mldr_file):
    name, path, ds = mldr_file
    instances, features, labels, never = MLDR[name]
    stats = dataset_statistics(ds)
    assert (stats["instances"], stats["features"], stats["labels"]) == (
        instances, features, labels)
    assert ds.name == name and not ds.is_sparse and not ds.is_regression
    assert ds.Y.dtype == np.uint8 and set(np.unique(ds.Y)) == {0, 1}
    # Constant labels are kept: the papers count them.
    counts = ds.Y.sum(axis=0)
    assert [n for n, s in zip(ds.label_names, counts, strict=True) if s == 0] == never
    # The bookkeeping columns mldr adds are neither features nor labels.
    assert not [n for n in ds.feature_names + ds.label_names if n.startswith(".")]
    # mldr's own measures, computed in R when the object was built.
    measures = {str(k): float(np.ravel(v)[0])
                for k, v in _r_object(path)["measures"].items()}
    assert [measures[f"num.{k}"] for k in ("instances", "inputs", "labels")] == [
        instances, features, labels]
    assert stats["cardinality"] == pytest.approx(measures["cardinality"], rel=1e-12)
    assert stats["density"] == pytest.approx(measures["density"], rel=1e-12)
    assert stats["distinct_labelsets"] == measures["num.labelsets"]


def test_labels_follow_the_objects_label_index(mldr_file):
    name, path, ds = mldr_file
    obj = _r_object(path)
    labels = obj["labels"]
    assert ds.label_names == [str(n) for n in labels.index]
    # The label counts mldr computed in R match our label matrix.
    assert ds.Y.sum(axis=0).tolist() == labels["count"].astype(int).tolist()
    # Each instance's label count is mldr's .labelcount column.
    per_row = obj["dataset"][".labelcount"].astype(int).tolist()
    assert ds.Y.sum(axis=1).tolist() == per_row
    first = {"langlog": ["Errors", "Humor", "Speech_acts"],
             "slashdot": ["Entertainment", "Interviews", "Main"]}[name]
    assert ds.label_names[:3] == first


def test_feature_matrix_equals_an_independent_reading(mldr_file):
    """Read without rdata: xz-decompress the file (the standard library) and
    find each feature column, in order, as R serializes it (XDR): a REALSXP
    header (type 14, length) and the big-endian doubles; then each name."""
    name, path, ds = mldr_file
    raw = path.read_bytes()
    assert raw[:6] == b"\xfd7zXZ\x00"  # xz
    stream = lzma.decompress(raw)
    assert stream[:5] == b"RDX2\n" and stream[5:7] == b"X\n"  # XDR format 2
    n = ds.n_samples
    pos = 0
    for j in range(ds.X.shape[1]):
        blob = struct.pack(">ii", 14, n) + ds.X[:, j].astype(">f8").tobytes()
        found = stream.find(blob, pos)
        assert found >= 0, (name, j, ds.feature_names[j])
        pos = found + len(blob)
    pos = 0
    for feature in ds.feature_names:
        blob = struct.pack(">i", len(feature.encode())) + feature.encode()
        found = stream.find(blob, pos)
        assert found >= 0, (name, feature)
        pos = found + len(blob)
    # The features are the object's 0/1 word indicators.
    assert set(np.unique(ds.X)) == {0.0, 1.0}
    assert ds.feature_types == ["numeric"] * ds.X.shape[1]  # as mldr declares


@pytest.mark.parametrize("name", sorted(MLDR))
def test_describe_prints_the_shape(capsys, shared_datasets, name):
    assert main(["describe", str(_rda(shared_datasets, name))]) == 0
    out = dict(line.split("\t") for line in capsys.readouterr().out.splitlines())
    instances, features, labels, _ = MLDR[name]
    assert (out["dataset"], out["instances"], out["features"], out["labels"]) == (
        name, str(instances), str(features), str(labels))


def test_prepare_stage_reads_an_rda_raw_file(shared_datasets, tmp_path):
    raw = tmp_path / "raw" / "whole.rda"
    raw.parent.mkdir()
    raw.write_bytes(_rda(shared_datasets, "langlog").read_bytes())
    out = tmp_path / "languagelog.npz"
    prepare([raw], None, out, tmp_path / "stats.json", name="languagelog")
    ds = Dataset.load(out)
    assert ds.name == "languagelog" and ds.X.shape == (1460, 1004)
    assert ds.Y.shape == (1460, 75)
    again = load_mldr(raw)
    assert np.array_equal(ds.X, again.X) and np.array_equal(ds.Y, again.Y)


# ------------------------------------------------------------------- errors
def test_rda_without_mldr_object_names_what_it_holds(tmp_path):
    import rdata

    path = tmp_path / "other.rda"
    rdata.write_rda(path, {"x": np.array([1.0, 2.0]),
                           "df": pd.DataFrame({"a": [1.0, 2.0]})})
    with pytest.raises(DataFormatError) as err:
        load_mldr(path)
    assert str(err.value) == (f"{path}: no mldr object; the file holds "
                              f"x (numeric vector of 2), df (data.frame 2 x 1)")


def test_not_an_r_data_file(tmp_path):
    path = tmp_path / "broken.rda"
    path.write_text("@relation x\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"broken\.rda: not a readable R data"):
        load_mldr(path)
    with pytest.raises(DataFormatError, match=r"missing\.rda: cannot read"):
        load_mldr(tmp_path / "missing.rda")


def _fake(monkeypatch, **parts):
    """load_mldr on a hand-made mldr object (the file is not read)."""
    frame = pd.DataFrame({"f1": [0.5, 1.5, np.nan], "a": [1.0, 0.0, 1.0],
                          "f2": [1.0, 2.0, 3.0], "b": [0.0, 0.0, 1.0],
                          ".labelcount": [1.0, 0.0, 2.0]})
    obj = {"dataset": frame,
           "labels": pd.DataFrame({"index": [4, 2]}, index=["b", "a"]),
           "attributes": np.array(["numeric", "{0,1}", "{0,1}", "{0,1}", "numeric"]),
           **parts}
    obj = {k: v for k, v in obj.items() if v is not None}
    monkeypatch.setattr(mldr_module, "_read_objects",
                        lambda path: {"toy": mldr_module._Mldr(obj)})
    return "toy.rda"


def test_hand_made_object_labels_by_index(monkeypatch):
    path = _fake(monkeypatch)
    ds = load_mldr(path)
    # Labels in the order of the labels frame, features in column order,
    # .labelcount dropped (no attributesIndexes: not a label, starts with ".").
    assert ds.label_names == ["b", "a"] and ds.Y.tolist() == [[0, 1], [0, 0], [1, 1]]
    assert ds.feature_names == ["f1", "f2"]
    assert ds.feature_types == ["numeric", "binary"]
    assert np.isnan(ds.X[2, 0]) and ds.X[:, 1].tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(DataFormatError, match=r"toy.rda: .*missing values in .*f1"):
        load_mldr(path, missing="reject")
    ds = load_mldr(_fake(monkeypatch, attributesIndexes=np.array([3])))
    assert ds.feature_names == ["f2"]


@pytest.mark.parametrize(("parts", "message"), [
    ({"labels": pd.DataFrame({"index": [2, 9]}, index=["a", "b"])},
     r"labels\$index must hold column numbers 1..5"),
    ({"labels": pd.DataFrame({"index": [4, 2]}, index=["a", "b"])},
     r"label index and names disagree, e.g. 'a' points at column 'b'"),
    ({"labels": pd.DataFrame({"count": [1]}, index=["a"])},
     r"its 'labels' frame has no 'index' column"),
    ({"labels": pd.DataFrame({"index": [1]}, index=["f1"])},
     r"label 'f1' has values other than 0/1"),
    ({"attributesIndexes": np.array([2, 3])},
     r"column 'a' is both a feature and a label"),
    ({"dataset": None}, r"needs the data.frames 'dataset' and 'labels'"),
])
def test_malformed_mldr_object(monkeypatch, parts, message):
    path = _fake(monkeypatch, **parts)
    with pytest.raises(DataFormatError,
                       match=r"^toy.rda: mldr object 'toy': " + message):
        load_mldr(path)


@pytest.mark.parametrize(("value", "problem"), [
    (1.7e308, "hold values of magnitude >= 1e+150 (first: 1.7e+308 in instance 2)"),
    (np.inf, "hold an infinite value (first: inf in instance 2)"),
    (-np.inf, "hold an infinite value (first: -inf in instance 2)"),
])
def test_rda_values_are_checked_as_the_arff_readers(tmp_path, value, problem):
    """Issue 38, W5: a 1.7e308 feature ran to the end with an overflow
    warning and inf failed at discretize, naming neither file nor feature;
    both readers now refuse them through one check, naming the feature. The
    ARFF reader names an inf's line first; past that check both say the
    same."""
    rda = tmp_path / "t.rda"
    rda.write_bytes(mldr_rda({"f1": [0.5, 1.5, 2.5], "f2": [1.0, value, 3.0]},
                             {"a": [1, 0, 1], "b": [0, 1, 1]}))
    with pytest.raises(DataFormatError) as err:
        load_mldr(rda)
    assert str(err.value).startswith(
        f"{rda}: mldr object 't': feature(s) 'f2' {problem}")
    if np.isinf(value):
        return
    arff = tmp_path / "t.arff"
    arff.write_text("@relation t\n@attribute f1 numeric\n@attribute f2 numeric\n"
                    "@attribute a {0,1}\n@attribute b {0,1}\n@data\n"
                    f"0.5,1,1,0\n1.5,{value!r},0,1\n2.5,3,1,1\n")
    xml = tmp_path / "t.xml"
    xml.write_text('<labels><label name="a"/><label name="b"/></labels>')
    with pytest.raises(DataFormatError) as from_arff:
        load_mulan(arff, xml)
    assert str(from_arff.value) == str(err.value).replace(
        f"{rda}: mldr object 't'", str(arff))


def test_a_small_rda_reads_back_its_values(tmp_path):
    rda = tmp_path / "t.rda"
    rda.write_bytes(mldr_rda({"f1": [0.5, np.nan, 1e149]}, {"a": [1, 0, 1]}))
    ds = load_mldr(rda)
    np.testing.assert_array_equal(ds.X, [[0.5], [np.nan], [1e149]])
    assert ds.Y.tolist() == [[1], [0], [1]]
    assert (ds.feature_names, ds.label_names) == (["f1"], ["a"])


def test_load_dataset_dispatches_by_suffix(test_data, tmp_path):
    arff, xml = test_data / "birds_tiny.arff", test_data / "birds_tiny.xml"
    ours, theirs = load_dataset([arff], xml), load_mulan([arff], xml)
    assert ours.feature_names == theirs.feature_names
    assert np.array_equal(ours.Y, theirs.Y)
    rda = tmp_path / "x.RData"
    with pytest.raises(ValueError, match="expected one file"):
        load_dataset([rda, arff])
    with pytest.raises(ValueError, match="no label XML or targets apply"):
        load_dataset(rda, xml)
    with pytest.raises(DataFormatError, match=r"x\.RData: cannot read"):
        load_dataset([rda])
