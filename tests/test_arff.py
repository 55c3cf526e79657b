"""Mulan ARFF/XML loading and dataset statistics."""

from __future__ import annotations

import shutil
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.data import (
    DataFormatError,
    Dataset,
    dataset_statistics,
    load_mulan,
    parse_label_xml,
)

NAN = np.nan

# Published statistics (Mulan / Tsoumakas et al.): instances, features,
# labels, cardinality, density, distinct labelsets.
PUBLISHED = {
    "emotions": (593, 72, 6, 1.868, 0.311, 27),
    "yeast": (2417, 103, 14, 4.237, 0.303, 198),
    "scene": (2407, 294, 6, 1.074, 0.179, 15),
    "medical": (978, 1449, 45, 1.245, 0.028, 94),
    "enron": (1702, 1001, 53, 3.378, 0.064, 753),
    "genbase": (662, 1185, 27, 1.252, 0.046, 32),
    "bibtex": (7395, 1836, 159, 2.402, 0.015, 2856),
}
SPARSE = {"medical", "enron", "bibtex"}
CASES = [
    pytest.param(name, kind, marks=[pytest.mark.slow] if name == "bibtex" else [],
                 id=f"{name}-{kind}")
    for name in PUBLISHED
    for kind in ("whole", "union")
    if not (name == "scene" and kind == "whole")  # scene ships train/test only
]


def _load_shared(root, name, kind):
    folder = root / "multi-label" / name
    paths = ([folder / f"{name}.arff"] if kind == "whole"
             else [folder / f"{name}-train.arff", folder / f"{name}-test.arff"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # genbase's identifier warning
        return load_mulan(paths, folder / f"{name}.xml", name=name)


def _attribute_names(path):
    """Attribute names of an ARFF header (plain names only, as in Mulan files)."""
    names = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.lower().startswith("@data"):
                break
            if line.lower().startswith("@attribute"):
                names.append(line.split()[1])
    return names


# ---------------------------------------------------------------- real datasets
@pytest.mark.parametrize(("name", "kind"), CASES)
def test_published_statistics(shared_datasets, name, kind):
    ds = _load_shared(shared_datasets, name, kind)
    stats = dataset_statistics(ds)
    got = (stats["instances"], stats["features"], stats["labels"],
           round(stats["cardinality"], 3), round(stats["density"], 3),
           stats["distinct_labelsets"])
    assert got == PUBLISHED[name]
    assert sp.issparse(ds.X) == (name in SPARSE)
    assert ds.X.dtype == np.float64
    assert ds.Y.dtype == np.uint8
    n_test = int(ds.is_test.sum())
    assert (n_test > 0) == (kind == "union")
    if kind == "union":  # the test file's rows come last
        assert ds.is_test[-n_test:].all() and not ds.is_test[:-n_test].any()


def test_medical_labels_are_last_attributes_despite_meka_option(shared_datasets):
    folder = shared_datasets / "multi-label" / "medical"
    arff = folder / "medical.arff"
    with open(arff, encoding="utf-8") as fh:
        assert "-C 45" in fh.readline()  # the relation claims the first 45
    attributes = _attribute_names(arff)
    ds = load_mulan(arff, folder / "medical.xml")
    assert ds.label_names == parse_label_xml(folder / "medical.xml")
    assert ds.label_names == attributes[-45:]
    assert ds.feature_names == attributes[:-45]
    # Trusting the relation instead would take the first 45 words as labels.
    meka = load_mulan(arff)
    assert meka.label_names == attributes[:45]


def test_yeast_labels_follow_xml_order(shared_datasets):
    ds = _load_shared(shared_datasets, "yeast", "whole")
    xml = parse_label_xml(shared_datasets / "multi-label" / "yeast" / "yeast.xml")
    assert ds.label_names == xml
    assert xml[:4] == ["Class1", "Class2", "Class3", "Class6"]  # not ARFF order


def test_genbase_drops_protein_and_codes_yes_as_one(shared_datasets):
    folder = shared_datasets / "multi-label" / "genbase"
    with pytest.warns(UserWarning, match="identifier attribute 'protein'"):
        ds = load_mulan(folder / "genbase.arff", folder / "genbase.xml")
    assert "protein" not in ds.feature_names
    assert not any(n.startswith("protein=") for n in ds.feature_names)
    assert set(ds.feature_types) == {"binary"}
    assert set(np.unique(ds.X)) == {0.0, 1.0}
    # Motifs are rare: declared {YES,NO}, YES must still be 1.
    assert ds.X.mean() < 0.1
    with open(folder / "genbase.arff", encoding="utf-8") as fh:
        data = fh.read().split("@data", 1)[1]
    assert ds.X.sum() == data.count("YES")  # the labels are 0/1


def test_genbase_union_still_drops_protein(shared_datasets):
    # One protein (the split boundary) is in both files: identifiers are
    # judged per file.
    ds = _load_shared(shared_datasets, "genbase", "union")
    assert ds.X.shape[1] == 1185


def test_whole_equals_union_up_to_row_order(shared_datasets):
    whole = _load_shared(shared_datasets, "emotions", "whole")
    union = _load_shared(shared_datasets, "emotions", "union")
    assert whole.feature_names == union.feature_names

    def rows(ds):
        both = np.hstack([ds.X, ds.Y])
        return both[np.lexsort(both.T[::-1])]

    np.testing.assert_array_equal(rows(whole), rows(union))


# ---------------------------------------------------------- hand-written dense
def test_tiny_dense_features_labels_and_names(test_data):
    with pytest.warns(UserWarning, match=r"birds_tiny\.arff.*identifier.*'id'"):
        ds = load_mulan(test_data / "birds_tiny.arff", test_data / "birds_tiny.xml")
    assert isinstance(ds, Dataset)
    assert ds.name == "birds_tiny"
    assert ds.feature_names == ["colour=red", "colour=green", "colour=blue",
                                "windy", "size", "present", "temp"]
    assert ds.feature_types == ["onehot"] * 3 + ["binary"] * 3 + ["numeric"]
    expected_X = np.array([
        # red green blue windy size present temp
        [1, 0, 0, 1, 0, 1, 1.5],
        [0, 1, 0, 0, 1, 0, NAN],
        [1, 0, 0, 0, NAN, 0, -2],
        [0, 0, 1, 1, 0, 1, 0],
    ])
    np.testing.assert_array_equal(ds.X, expected_X)
    # XML order; escaped quote in ARFF matches the plain XML name.
    assert ds.label_names == ["robin", "Swainson's Thrush", "wren"]
    np.testing.assert_array_equal(ds.Y, [[0, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1]])
    assert not ds.is_test.any()


def test_tiny_dense_ordinal(test_data):
    with pytest.warns(UserWarning):
        ds = load_mulan(test_data / "birds_tiny.arff", test_data / "birds_tiny.xml",
                        nominal="ordinal")
    assert ds.feature_names == ["colour", "windy", "size", "present", "temp"]
    assert ds.feature_types == ["ordinal", "binary", "binary", "binary", "numeric"]
    np.testing.assert_array_equal(ds.X[:, 0], [0, 1, 0, 2])


def test_missing_reject_names_file_and_attributes(test_data):
    with pytest.warns(UserWarning), \
            pytest.raises(DataFormatError, match=r"birds_tiny\.arff") as info:
        load_mulan(test_data / "birds_tiny.arff", test_data / "birds_tiny.xml",
                   missing="reject")
    message = str(info.value)
    assert "size" in message and "temp" in message
    assert "windy" not in message


def test_string_attribute_kept_is_an_error(test_data):
    with pytest.raises(DataFormatError, match=r"birds_tiny\.arff.*'?id'?"):
        load_mulan(test_data / "birds_tiny.arff", test_data / "birds_tiny.xml",
                   drop_identifiers=False)


def test_bad_arguments(test_data):
    with pytest.raises(ValueError, match="nominal"):
        load_mulan(test_data / "meka_first.arff", nominal="dummy")
    with pytest.raises(ValueError, match="missing"):
        load_mulan(test_data / "meka_first.arff", missing="impute")
    with pytest.raises(ValueError, match="got 3"):
        load_mulan([test_data / "meka_first.arff"] * 3)


# ----------------------------------------------------------------------- sparse
def test_tiny_sparse_stays_sparse_with_implicit_values(test_data):
    ds = load_mulan(test_data / "sparse_tiny.arff")  # MEKA '-C -2'
    assert sp.isspmatrix_csr(ds.X) and ds.X.dtype == np.float64
    assert ds.feature_names == ["w0", "w1", "kind=a", "kind=b", "kind=c", "flag",
                                "w4"]
    assert ds.feature_types == ["numeric", "numeric", "onehot", "onehot", "onehot",
                                "binary", "numeric"]
    expected = np.array([
        # w0 w1 a b c flag w4  (implicit kind = a, implicit flag = YES = 1)
        [1.5, 0, 1, 0, 0, 1, 0],
        [0, 2, 0, 1, 0, 1, NAN],
        [0, 0, 0, 0, 1, 0, 0],
        [0, 0, 1, 0, 0, 1, 0],  # '{}': every value implicit
    ])
    np.testing.assert_array_equal(ds.X.toarray(), expected)
    assert ds.label_names == ["l1", "l2"]
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1], [1, 1], [0, 0]])
    assert ds.X.nnz == 10  # only non-zeros (and the NaN) are stored


def test_tiny_sparse_ordinal(test_data):
    ds = load_mulan(test_data / "sparse_tiny.arff", nominal="ordinal")
    assert sp.isspmatrix_csr(ds.X)
    np.testing.assert_array_equal(ds.X.toarray()[:, 2], [0, 1, 2, 0])


# --------------------------------------------------------------------- MEKA -C
def test_meka_first_attributes_are_labels(test_data):
    ds = load_mulan(test_data / "meka_first.arff")
    assert ds.label_names == ["A", "B"]
    assert ds.feature_names == ["x1", "x2"]
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1], [1, 1]])
    np.testing.assert_array_equal(ds.X, [[0.5, 1], [1.5, 2], [2.5, 3]])


def test_without_xml_or_meka_option_is_an_error(tmp_path, test_data):
    path = tmp_path / "plain.arff"
    text = (test_data / "meka_first.arff").read_text()
    path.write_text(text.replace("'meka_first: -C 2 -split-percentage 50'", "plain"))
    with pytest.raises(DataFormatError, match=r"plain\.arff.*-C"):
        load_mulan(path)


# ----------------------------------------------------------------------- errors
def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HEADER = """@relation t
@attribute x numeric
@attribute a {0,1}
@attribute b {NO,YES}
@data
"""


def test_missing_label_value_names_file_and_label(tmp_path):
    path = _write(tmp_path, "gap.arff", HEADER + "1,0,YES\n2,?,NO\n")
    xml = _write(tmp_path, "gap.xml",
                 '<labels xmlns="x"><label name="a"/><label name="b"/></labels>')
    with pytest.raises(DataFormatError, match=r"gap\.arff.*'a'.*instance 2"):
        load_mulan(path, xml)


def test_xml_label_absent_from_arff(tmp_path):
    path = _write(tmp_path, "t.arff", HEADER + "1,0,YES\n")
    xml = _write(tmp_path, "t.xml",
                 '<labels><label name="a"/><label name="Robin"/></labels>')
    with pytest.raises(DataFormatError, match=r"t\.arff.*'Robin'.*t\.xml"):
        load_mulan(path, xml)


def test_non_binary_label_is_an_error(tmp_path):
    path = _write(tmp_path, "t.arff",
                  HEADER.replace("{NO,YES}", "{lo,hi}") + "1,0,hi\n")
    xml = _write(tmp_path, "t.xml", '<labels><label name="b"/></labels>')
    with pytest.raises(DataFormatError, match=r"t\.arff.*'b'.*\{lo,hi\}"):
        load_mulan(path, xml)


def test_numeric_label_outside_zero_one(tmp_path):
    path = _write(tmp_path, "t.arff", HEADER + "1,0,YES\n2,1,NO\n")
    xml = _write(tmp_path, "t.xml", '<labels><label name="x"/></labels>')
    with pytest.raises(DataFormatError, match=r"t\.arff.*'x'.*value 2"):
        load_mulan(path, xml)


def test_train_test_headers_must_match(tmp_path):
    train = _write(tmp_path, "t-train.arff", HEADER + "1,0,YES\n")
    test = _write(tmp_path, "t-test.arff",
                  HEADER.replace("@attribute x numeric", "@attribute y numeric")
                  + "1,0,YES\n")
    xml = _write(tmp_path, "t.xml", '<labels><label name="a"/></labels>')
    with pytest.raises(DataFormatError, match=r"t-test\.arff.*attribute 1.*'y'"):
        load_mulan([train, test], xml)


def test_train_test_concatenation(tmp_path):
    train = _write(tmp_path, "t-train.arff", HEADER + "1,0,YES\n2,1,NO\n")
    test = _write(tmp_path, "t-test.arff", HEADER + "3,1,YES\n")
    xml = _write(tmp_path, "t.xml",
                 '<labels><label name="b"/><label name="a"/></labels>')
    ds = load_mulan([train, test], xml)
    assert ds.name == "t"
    np.testing.assert_array_equal(ds.X, [[1], [2], [3]])
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1], [1, 1]])
    np.testing.assert_array_equal(ds.is_test, [False, False, True])


def test_invalid_arff_names_file(tmp_path):
    path = _write(tmp_path, "broken.arff", HEADER + "1,2,MAYBE\n")
    with pytest.raises(DataFormatError, match=r"broken\.arff"):
        load_mulan(path)


def test_prepared_dataset_round_trip(tmp_path, test_data):
    ds = load_mulan(test_data / "sparse_tiny.arff")
    ds.save(tmp_path / "d.npz")
    back = Dataset.load(tmp_path / "d.npz")
    np.testing.assert_array_equal(back.X.toarray(), ds.X.toarray())
    assert back.feature_types == ds.feature_types


# -------------------------------------------------------------------------- XML
def test_nested_label_xml_in_document_order(test_data):
    assert parse_label_xml(test_data / "hierarchy.xml") == [
        "animal", "bird", "robin", "fish", "plant"]


@pytest.mark.parametrize("text", [
    "<labels><label name='a'>",            # not well-formed
    "<classes><label name='a'/></classes>",  # not a label file
    "<labels></labels>",                     # no labels
    "<labels><label/></labels>",             # nameless label
    "<labels><label name='a'/><label name='a'/></labels>",  # repeated
])
def test_bad_label_xml_names_file(tmp_path, text):
    path = _write(tmp_path, "bad.xml", text)
    with pytest.raises(DataFormatError, match=r"bad\.xml"):
        parse_label_xml(path)


# ------------------------------------------------------------------- statistics
def test_statistics_small_example():
    Y = np.array([[1, 0, 0], [1, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=np.uint8)
    ds = Dataset("toy", np.zeros((4, 2)), Y, ["f1", "f2"], ["a", "b", "c"])
    assert dataset_statistics(ds) == {
        "instances": 4, "features": 2, "labels": 3, "cardinality": 1.0,
        "density": 1 / 3, "distinct_labelsets": 3, "binary_features": True,
    }


def test_copy_of_shared_file_loads_identically(tmp_path, shared_datasets):
    # The loader depends on content only, not on the location or name.
    folder = shared_datasets / "multi-label" / "emotions"
    shutil.copy(folder / "emotions.arff", tmp_path / "x.arff")
    a = load_mulan(tmp_path / "x.arff", folder / "emotions.xml")
    b = load_mulan(folder / "emotions.arff", folder / "emotions.xml")
    assert a.name == "x"
    np.testing.assert_array_equal(a.X, b.X)


def test_multi_target_atp1d_targets_are_the_last_six(shared_datasets):
    ds = load_mulan(shared_datasets / "multi-target" / "atp1d.arff", targets=-6)
    assert ds.X.shape == (337, 411) and ds.Y.shape == (337, 6)
    assert ds.is_regression and ds.Y.dtype == np.float64
    assert ds.label_names[0] == "LBL+ALLminpA+fut_001"
    assert not any(name.startswith("LBL+") for name in ds.feature_names)


# ------------------------------------------- issue 14.1: labels as features
def test_meka_count_and_xml_disagree_is_an_error(test_data):
    path = test_data / "emotions_c6_xml5.arff"
    with pytest.raises(DataFormatError) as info:
        load_mulan(path, test_data / "emotions_c6_xml5.xml")
    message = str(info.value)
    assert message.startswith(f"{path}: the relation's MEKA option '-C -6' "
                              f"declares 6 labels but ")
    assert "emotions_c6_xml5.xml names 5" in message
    assert "labels by '-C -6' only: 'angry-aggresive'" in message
    assert "--accept-xml" in message


def test_accept_xml_takes_the_xml_labels(test_data):
    ds = load_mulan(test_data / "emotions_c6_xml5.arff",
                    test_data / "emotions_c6_xml5.xml", accept_xml=True)
    assert ds.feature_names == ["f1", "f2", "angry-aggresive"]
    assert len(ds.label_names) == 5


def test_feature_named_like_a_label_up_to_case_is_a_feature(tmp_path):
    """Issue 38, V1: names are case-sensitive, as in Weka and Mulan (before,
    the file was refused); the warning names both spellings."""
    path = _write(tmp_path, "clash.arff", HEADER.replace("x numeric", "A numeric")
                  + "7,0,YES\n8,1,NO\n")
    xml = _write(tmp_path, "clash.xml",
                 '<labels xmlns="x"><label name="a"/><label name="b"/></labels>')
    with pytest.warns(UserWarning) as caught:
        ds = load_mulan(path, xml)
    assert [str(w.message) for w in caught] == [
        f"{path}: feature(s) 'A' (label 'a') differ from a label of {xml} only "
        f"in case; kept as features (names are case-sensitive, as in Weka and "
        f"Mulan)"]
    assert (ds.feature_names, ds.label_names) == (["A"], ["a", "b"])
    assert ds.X.tolist() == [[7], [8]] and ds.Y.tolist() == [[0, 1], [1, 0]]


# ---------------------------------------- issue 16.3: names with escapes
def test_escaped_quoted_and_unquoted_names_match_the_xml(test_data):
    ds = load_mulan(test_data / "escaped_names.arff",
                    test_data / "escaped_names.xml")
    assert ds.feature_names == ["size cm", "weight kg"]
    assert ds.label_names == ["TAG_m'usica", "TAG_dise\\~no", "Swainson's Thrush",
                              'say "hi"', "two words"]
    np.testing.assert_array_equal(ds.Y, [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0],
                                         [1, 1, 0, 0, 1]])
    np.testing.assert_array_equal(ds.X, [[1.5, 2], [2.5, 3], [3.5, 4]])


def test_xml_may_spell_a_name_with_or_without_escapes(tmp_path, test_data):
    xml = _write(tmp_path, "plain.xml", (
        '<labels xmlns="x"><label name="TAG_m\'usica"/>'
        '<label name="TAG_dise\\~no"/><label name="Swainson\\\'s Thrush"/>'
        '<label name="say \\&quot;hi\\&quot;"/><label name="two words"/></labels>'))
    ds = load_mulan(test_data / "escaped_names.arff", xml)
    assert ds.label_names == ["TAG_m'usica", "TAG_dise\\~no", "Swainson's Thrush",
                              'say "hi"', "two words"]


def test_xml_naming_one_attribute_twice_is_an_error(tmp_path, test_data):
    xml = _write(tmp_path, "twice.xml", (
        '<labels xmlns="x"><label name="TAG_m\'usica"/>'
        '<label name="TAG_m\\\'usica"/></labels>'))
    with pytest.raises(DataFormatError, match=r"twice\.xml: several labels name"):
        load_mulan(test_data / "escaped_names.arff", xml)


# ------------------------------------------ issue 14.9: ambiguous ARFF
def test_names_equal_after_unescaping_are_rejected_with_lines(tmp_path):
    path = _write(tmp_path, "dup.arff", "@relation 'd: -C 1'\n@attribute l {0,1}\n"
                  "@attribute \"x'y\" numeric\n@attribute 'x\\'y' numeric\n"
                  "@data\n1,2,3\n")
    with pytest.raises(DataFormatError,
                       match=r"dup\.arff: lines 3 and 4 declare the same attribute "
                             r"name \"x'y\""):
        load_mulan(path)


def test_repeated_index_in_a_sparse_row_is_rejected_with_line(tmp_path, test_data):
    text = (test_data / "sparse_tiny.arff").read_text()
    text = text.replace("{2 c,3 NO,5 1,6 1}", "{2 c,3 NO,5 1,6 1,3 YES}")
    path = _write(tmp_path, "rep.arff", text)
    with pytest.raises(DataFormatError,
                       match=r"rep\.arff: line 15: sparse row gives attribute "
                             r"index\(es\) 3 more than once"):
        load_mulan(path)


def test_sparse_quoted_values_with_commas_are_not_indices(tmp_path):
    path = _write(tmp_path, "q.arff", "@relation 'q: -C 1'\n@attribute l {0,1}\n"
                  "@attribute s {'a,1 x','b'}\n@attribute n numeric\n@data\n"
                  "{0 1,1 'a,1 x',2 5}\n{1 b}\n")
    ds = load_mulan(path)
    np.testing.assert_array_equal(ds.X.toarray(), [[0, 5], [1, 0]])


# ------------------------------------------------------- issue 14: messages
def test_truncated_file_error_is_short(tmp_path):
    row = ",".join(["1.2345678"] * 300)
    path = _write(tmp_path, "cut.arff", "@relation 'c: -C 1'\n@attribute l {0,1}\n"
                  + "".join(f"@attribute f{i} numeric\n" for i in range(300))
                  + "@data\n1," + row + "\n0," + row[:620] + "\n")
    with pytest.raises(DataFormatError) as info:
        load_mulan(path)
    message = str(info.value)
    assert message.startswith(f"{path}: invalid ARFF (")
    assert "line 305: 64 value(s), starting '0,1.2345678" in message
    assert len(message) < 250 + len(str(path))


def test_multi_target_without_targets_mentions_targets(tmp_path):
    path = _write(tmp_path, "mt.arff", "@relation mt\n@attribute x numeric\n"
                  "@attribute y1 numeric\n@data\n1,0.5\n2,1.5\n")
    with pytest.raises(DataFormatError, match=r"mt\.arff.*--targets"):
        load_mulan(path)
    path = _write(tmp_path, "mt2.arff", "@relation 'mt: -C -1'\n@attribute x numeric\n"
                  "@attribute y1 numeric\n@data\n1,0.5\n2,1.5\n")
    with pytest.raises(DataFormatError, match=r"mt2\.arff: label 'y1' has value 0.5.*"
                                              r"--targets"):
        load_mulan(path)


def test_delicious_labels_with_escapes_load(shared_datasets):
    # delicious declares TAG_m\'usica and TAG_dise\~no unquoted; its XML spells
    # them the same way (issue 16.3).
    folder = shared_datasets / "multi-label" / "delicious"
    if not folder.is_dir():
        pytest.skip("delicious not in the shared datasets")
    ds = load_mulan([folder / "delicious-train.arff", folder / "delicious-test.arff"],
                    folder / "delicious.xml")
    assert ds.X.shape == (16105, 500) and ds.Y.shape == (16105, 983)
    assert "TAG_m'usica" in ds.label_names and "TAG_dise\\~no" in ds.label_names
    assert int(ds.Y[:, ds.label_names.index("TAG_m'usica")].sum()) == 43
