"""Issue 29's input-format and config cases, one regression test each.

Each test failed before its fix; the ids (S1, U4, ...) are the issue's.
"""

from __future__ import annotations

import bz2
import gzip
import re

import numpy as np
import pytest

from mlfsbench.data import DataFormatError, load_mulan

XML = '<labels><label name="l1"/><label name="l2"/></labels>'


def _write(folder, name, text, encoding="utf-8"):
    path = folder / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


# ----------------------------------------------------------------------- ARFF
S1_HEAD = """@relation t
@attribute f integer
@attribute l1 {0,1}
@attribute l2 integer
@data
"""


def test_s1_integer_features_keep_their_real_values(tmp_path):
    path = _write(tmp_path, "t.arff", S1_HEAD + "0.8,1,0\n2.8,0,1\n1.5,1,0\n")
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    np.testing.assert_array_equal(ds.X[:, 0], [0.8, 2.8, 1.5])
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1], [1, 0]])


def test_s1_integer_label_must_be_zero_or_one(tmp_path):
    path = _write(tmp_path, "t.arff", S1_HEAD + "0.8,1,0\n2.8,0,1.7\n1.5,1,0\n")
    with pytest.raises(DataFormatError,
                       match=r"t\.arff.*label 'l2'.*1\.7.*instance 2.*line 7"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


def test_s3_nan_in_an_integer_column_is_an_error_naming_it(tmp_path):
    head = S1_HEAD.replace("@attribute f integer",
                           "@attribute f integer\n@attribute c {lo,hi}")
    path = _write(tmp_path, "t.arff", head + "1,hi,1,0\nnan,hi,0,1\n")
    with pytest.raises(DataFormatError,
                       match=r"t\.arff: line 8: attribute 'f'.*'nan'"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


@pytest.mark.parametrize("kind", ["numeric", "integer", "real"])
@pytest.mark.parametrize("value", ["inf", "-Infinity", "+inf"])
def test_u3_infinity_in_a_feature_names_file_attribute_and_line(tmp_path, kind,
                                                                  value):
    head = S1_HEAD.replace("@attribute f integer", f"@attribute f {kind}")
    path = _write(tmp_path, "t.arff", head + f"1,1,0\n{value},0,1\n")
    with pytest.raises(DataFormatError,
                       match=rf"t\.arff: line 7: attribute 'f'.*{re.escape(value)}"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


def test_u4_utf8_byte_order_mark_is_read(tmp_path):
    path = _write(tmp_path, "t.arff", "\ufeff" + S1_HEAD + "1,1,0\n2,0,1\n")
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    np.testing.assert_array_equal(ds.X[:, 0], [1, 2])


def test_u9_empty_data_section_is_an_error(tmp_path):
    path = _write(tmp_path, "t.arff", S1_HEAD + "% nothing\n\n")
    with pytest.raises(DataFormatError, match=r"t\.arff: no instances"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


LATIN = """@relation t
@attribute 'caf\u00e9' numeric
@attribute l1 {0,1}
@attribute l2 {0,1}
@data
1.5,1,0
2.5,0,1
"""


@pytest.mark.parametrize("name", ["t.arff.gz", "t.arff.bz2", "t.arff", "t.gz"])
def test_compressed_and_latin1_files_are_read(tmp_path, name):
    raw = LATIN.encode("latin-1")
    if name.endswith(".gz"):
        raw = gzip.compress(raw, mtime=0)
    elif name.endswith(".bz2"):
        raw = bz2.compress(raw)
    path = _write(tmp_path, name, raw)
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    assert ds.feature_names == ["caf\u00e9"]
    assert ds.name == "t"
    np.testing.assert_array_equal(ds.X[:, 0], [1.5, 2.5])
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1]])


def test_compressed_by_content_under_a_plain_name(tmp_path):
    path = _write(tmp_path, "whole.arff", gzip.compress(LATIN.encode(), mtime=0))
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    assert ds.feature_names == ["caf\u00e9"]


def test_meka_c_option_through_a_bz2_file(tmp_path):
    text = ("@relation 'm: -C -2'\n@attribute f numeric\n@attribute g numeric\n"
            "@attribute y1 {0,1}\n@attribute y2 {0,1}\n@data\n"
            "0.5,1,1,0\n1.5,2,0,1\n2.5,3,1,1\n")
    path = _write(tmp_path, "m.arff.bz2", bz2.compress(text.encode()))
    ds = load_mulan(path)
    assert ds.name == "m"
    assert ds.label_names == ["y1", "y2"]
    np.testing.assert_array_equal(ds.X, [[0.5, 1], [1.5, 2], [2.5, 3]])
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1], [1, 1]])


def test_corrupt_gzip_names_the_file(tmp_path):
    path = _write(tmp_path, "t.arff.gz", gzip.compress(LATIN.encode())[:30])
    with pytest.raises(DataFormatError, match=r"t\.arff\.gz: cannot read"):
        load_mulan(path)


# --------------------------------------------------------------- parameters
def test_s2_fraction_one_stays_a_fraction_in_the_workflow():
    from mlfsbench.workflow.config import cache_id, entry_params, normalize_params

    assert normalize_params("lee2016", {"n_labels": 1.0}) == {"n_labels": 1.0}
    assert isinstance(normalize_params("lee2016", {"n_labels": 1.0})["n_labels"],
                      float)
    assert isinstance(normalize_params("lee2016", {"n_labels": 0.0})["n_labels"],
                      float)
    assert isinstance(normalize_params("lee2016", {"n_labels": 1})["n_labels"], int)
    fraction = {"name": "lee2016", "params": {"n_labels": 1.0}}
    count = {"name": "lee2016", "params": {"n_labels": 1}}
    assert entry_params(fraction, "d") == {"n_labels": 1.0}
    assert cache_id(fraction, "d", "selector") != cache_id(count, "d", "selector")
    # No ambiguity: s is a real (ML-kNN's smoothing), k a count.
    assert normalize_params("mlknn", {"k": 10.0, "s": 1}) == {"k": 10, "s": 1.0}


def test_s2_cli_and_workflow_agree_on_a_fraction(capsys, shared_datasets):
    import json

    from mlfsbench.cli import main
    from mlfsbench.workflow.config import entry_params

    folder = shared_datasets / "multi-label" / "emotions"
    base = ["select", str(folder / "emotions.arff"), "--xml",
            str(folder / "emotions.xml"), "--method", "lee2016", "--json"]
    rankings = {}
    for value in ("1.0", "6", "1"):
        assert main([*base, "--param", f"n_labels={value}"]) == 0
        rankings[value] = json.loads(capsys.readouterr().out)["ranking"]
    # 1.0 is every label (all 6 of emotions), 1 is one label.
    assert rankings["1.0"] == rankings["6"] != rankings["1"]
    params = entry_params({"name": "lee2016", "params": {"n_labels": 1.0}}, "d")
    assert main([*base, "--param", f"n_labels={params['n_labels']!r}"]) == 0
    assert json.loads(capsys.readouterr().out)["ranking"] == rankings["6"]
