"""Equal-width / equal-frequency discretizers and the pass-through."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlfsbench.estimators.discretizers.unsupervised import (
    EqualFrequencyDiscretizer,
    EqualWidthDiscretizer,
    PassthroughDiscretizer,
    apply_cut_points,
    equal_frequency_cut_points,
    equal_width_cut_points,
    make_discretizer,
)


def col(*values):
    return np.array(values, dtype=float).reshape(-1, 1)


# ---------------------------------------------------------------- equal width


def test_equal_width_edges_by_hand():
    d = EqualWidthDiscretizer(bins=5).fit(col(0, 3, 10))
    np.testing.assert_array_equal(d.cut_points_, [[2, 4, 6, 8]])
    assert d.n_bins_.tolist() == [5]
    d = EqualWidthDiscretizer(bins=4).fit(col(-1, 1))
    np.testing.assert_array_equal(d.cut_points_, [[-0.5, 0, 0.5]])


def test_equal_width_cut_points_are_computed_like_weka():
    # Weka: binWidth = (max - min) / bins; cut_i = min + binWidth * i
    lo, hi, bins = 0.1, 0.7, 3
    cuts = equal_width_cut_points(col(lo, 0.3, hi), bins)[0]
    width = (hi - lo) / bins
    assert cuts.tolist() == [lo + width * 1, lo + width * 2]


def test_weka_convention_value_on_cut_point_goes_to_lower_bin():
    d = EqualWidthDiscretizer(bins=5).fit(col(0, 10))
    codes = d.transform(col(0, 2, np.nextafter(2, 3), 4, 8, 10)).ravel()
    # intervals (-inf, 2], (2, 4], (4, 6], (6, 8], (8, inf)
    assert codes.tolist() == [0, 0, 1, 1, 3, 4]


def test_values_beyond_training_range_clip_to_outer_bins():
    d = EqualWidthDiscretizer(bins=3).fit(col(0, 3))
    assert d.transform(col(-100, -0.1, 3.1, 1e9)).ravel().tolist() == [0, 0, 2, 2]


def test_fit_uses_training_data_only():
    train = col(0, 1, 2, 3, 4)
    test = col(-50, 50, 2.5)
    d = EqualWidthDiscretizer(bins=2).fit(train)
    before = d.cut_points_.copy()
    codes = d.transform(test).ravel()
    np.testing.assert_array_equal(d.cut_points_, before)
    assert codes.tolist() == [0, 1, 1]
    # refitting on the test part would give other cut points
    assert EqualWidthDiscretizer(bins=2).fit(test).cut_points_[0, 0] == 0.0
    assert before[0, 0] == 2.0


@pytest.mark.parametrize("cls", [EqualWidthDiscretizer, EqualFrequencyDiscretizer])
def test_constant_feature_gets_one_bin(cls):
    X = np.column_stack([np.full(6, 3.0), np.arange(6.0)])
    d = cls(bins=3).fit(X)
    assert d.n_bins_.tolist() == [1, 3]
    assert np.isinf(d.cut_points_[0]).all()
    out = d.transform(np.array([[-7.0, 0.0], [3.0, 0.0], [99.0, 0.0]]))
    assert out[:, 0].tolist() == [0, 0, 0]


@pytest.mark.parametrize("cls", [EqualWidthDiscretizer, EqualFrequencyDiscretizer])
def test_nan_raises(cls):
    with pytest.raises(ValueError, match="NaN"):
        cls().fit(col(0, np.nan, 1))
    d = cls().fit(col(0, 1, 2))
    with pytest.raises(ValueError, match="NaN"):
        d.transform(col(np.nan))


@pytest.mark.parametrize("bins", [1, 0, 2.5, "5", True])
def test_invalid_bins(bins):
    with pytest.raises(ValueError, match="bins"):
        EqualWidthDiscretizer(bins=bins).fit(col(0, 1))


def test_transform_checks_number_of_features():
    d = EqualWidthDiscretizer().fit(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="features"):
        d.transform(np.zeros((3, 3)))


def test_output_dtype_is_small_unsigned():
    X = np.arange(1000.0).reshape(-1, 1)
    assert EqualWidthDiscretizer(bins=5).fit_transform(X).dtype == np.uint8
    assert EqualWidthDiscretizer(bins=256).fit_transform(X).dtype == np.uint8
    out = EqualWidthDiscretizer(bins=300).fit_transform(X)
    assert out.dtype == np.uint16
    assert out.max() == 299


# ---------------------------------------------------------------- equal frequency


def test_equal_frequency_edges_by_hand():
    X = col(*range(1, 11))  # 1..10, 5 bins of two values
    d = EqualFrequencyDiscretizer(bins=5).fit(X)
    np.testing.assert_array_equal(d.cut_points_, [[2.5, 4.5, 6.5, 8.5]])
    assert np.bincount(d.transform(X).ravel()).tolist() == [2, 2, 2, 2, 2]


def test_equal_frequency_is_insensitive_to_outliers():
    X = col(1, 2, 3, 4, 5, 6, 7, 1000)
    codes = EqualFrequencyDiscretizer(bins=4).fit_transform(X).ravel()
    assert np.bincount(codes).tolist() == [2, 2, 2, 2]


def test_equal_frequency_collapses_duplicate_cut_points():
    # 90% zeros: every ideal boundary lands between 0 and 1
    X = col(*([0] * 18 + [1, 2]))
    d = EqualFrequencyDiscretizer(bins=5).fit(X)
    assert d.n_bins_.tolist() == [2]
    np.testing.assert_array_equal(d.cut_points_[0, :1], [0.5])
    # the mirror case keeps both values apart too
    d = EqualFrequencyDiscretizer(bins=5).fit(col(*([0] * 2 + [1] * 18)))
    assert d.n_bins_.tolist() == [2]
    assert d.transform(col(0, 1)).ravel().tolist() == [0, 1]


def test_equal_frequency_cut_points_lie_between_distinct_values():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, (500, 3)).astype(float)
    cuts = equal_frequency_cut_points(X, 4)
    finite = cuts[np.isfinite(cuts)]
    assert np.all(finite % 1 == 0.5)


# ---------------------------------------------------------------- sparse input


@pytest.mark.parametrize("cls", [EqualWidthDiscretizer, EqualFrequencyDiscretizer])
@pytest.mark.parametrize("fmt", [sp.csr_matrix, sp.csc_matrix])
def test_sparse_non_negative_input_stays_sparse_and_equals_dense(cls, fmt):
    rng = np.random.default_rng(1)
    X = rng.random((60, 8)) * (rng.random((60, 8)) < 0.3)
    X[:, 5] = 0.0
    d_dense = cls(bins=4).fit(X)
    d_sparse = cls(bins=4, sparse_output=True).fit(fmt(X))
    np.testing.assert_array_equal(d_sparse.cut_points_, d_dense.cut_points_)
    out = d_sparse.transform(fmt(X))
    assert sp.issparse(out)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out.toarray(), d_dense.transform(X))


@pytest.mark.parametrize("cls", [EqualWidthDiscretizer, EqualFrequencyDiscretizer])
def test_sparse_input_gives_dense_output_by_default(cls):
    rng = np.random.default_rng(2)
    X = rng.random((50, 300)) * (rng.random((50, 300)) < 0.2)  # > one block
    out = cls(bins=3).fit(sp.csr_matrix(X)).transform(sp.csr_matrix(X))
    assert isinstance(out, np.ndarray) and out.dtype == np.uint8
    np.testing.assert_array_equal(out, cls(bins=3).fit_transform(X))


def test_sparse_input_with_negative_values_gives_dense_output():
    X = np.array([[0.0, -1.0], [2.0, 0.0], [4.0, 1.0]])
    # column 1: cut points -0.5, 0, 0.5, so zero maps to code 1
    d = EqualWidthDiscretizer(bins=4, sparse_output=True).fit(sp.csr_matrix(X))
    out = d.transform(sp.csr_matrix(X))
    assert not sp.issparse(out)
    np.testing.assert_array_equal(out, EqualWidthDiscretizer(bins=4).fit_transform(X))
    assert out[:, 1].tolist() == [0, 1, 3]


def test_apply_cut_points_checks_shape():
    with pytest.raises(ValueError, match="cuts"):
        apply_cut_points(np.zeros((2, 3)), np.zeros((2, 1)))


# ---------------------------------------------------------------- pass-through, factory


def test_passthrough_keeps_integer_codes():
    X = np.array([[0.0, 1.0], [3.0, 0.0]])
    out = PassthroughDiscretizer().fit(X).transform(X)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, X)
    S = sp.csr_matrix(X)
    out = PassthroughDiscretizer().fit(S).transform(S)
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, X)
    out = PassthroughDiscretizer(sparse_output=True).fit(S).transform(S)
    assert sp.issparse(out)
    np.testing.assert_array_equal(out.toarray(), X)


@pytest.mark.parametrize("bad", [[[0.5, 1.0]], [[-1.0, 0.0]], [[np.nan, 0.0]]])
def test_passthrough_rejects_non_codes(bad):
    with pytest.raises(ValueError, match="X must hold"):
        PassthroughDiscretizer().fit(np.array(bad))


def test_passthrough_checks_number_of_features():
    d = PassthroughDiscretizer().fit(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="features"):
        d.transform(np.zeros((2, 3)))


def test_make_discretizer():
    assert isinstance(make_discretizer("equal-width", 3), EqualWidthDiscretizer)
    assert make_discretizer("equal-width", 3).bins == 3
    assert isinstance(make_discretizer("equal-frequency", 7), EqualFrequencyDiscretizer)
    assert isinstance(make_discretizer("none", 5), PassthroughDiscretizer)
    assert make_discretizer("equal-width", 3, sparse_output=True).sparse_output
    with pytest.raises(ValueError, match="unknown discretization strategy"):
        make_discretizer("kmeans", 5)
    with pytest.raises(ValueError, match="bins"):
        make_discretizer("equal-width", 1)


def test_clone_and_params():
    d = EqualFrequencyDiscretizer(bins=7)
    assert clone(d).get_params() == {"bins": 7, "sparse_output": False}


@parametrize_with_checks([EqualWidthDiscretizer(), EqualFrequencyDiscretizer()])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
