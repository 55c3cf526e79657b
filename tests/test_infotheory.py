"""Plug-in entropies and mutual information (bits), checked by hand and vs sklearn."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import mutual_info_score

from mlfsbench.estimators.information.entropy import (
    check_codes,
    conditional_entropy,
    conditional_mutual_information,
    encode_codes,
    entropy,
    entropy_from_counts,
    joint_entropy,
    mutual_information,
    mutual_information_matrix,
)

LN2 = math.log(2)


def table_sample(table):
    """Samples (x, y) realising a contingency table of counts exactly."""
    table = np.asarray(table)
    xs, ys = [], []
    for (i, j), c in np.ndenumerate(table):
        xs += [i] * int(c)
        ys += [j] * int(c)
    return np.array(xs), np.array(ys)


# ---------------------------------------------------------------- entropy


def test_entropy_of_fair_coin_is_one_bit():
    assert entropy([0, 0, 1, 1]) == 1.0


def test_entropy_of_three_values_by_hand():
    # p = (1/2, 1/4, 1/4): H = 1/2*1 + 2 * 1/4*2 = 1.5 bits
    assert entropy([7, 7, 3, 9]) == pytest.approx(1.5, abs=1e-15)
    # p = (1/3, 1/3, 1/3): H = log2 3
    assert entropy(["a", "b", "c"]) == pytest.approx(math.log2(3), abs=1e-15)
    # p = (1/6, 2/6, 3/6)
    x = [0, 1, 1, 2, 2, 2]
    by_hand = -(1 / 6 * math.log2(1 / 6) + 2 / 6 * math.log2(2 / 6)
                + 3 / 6 * math.log2(3 / 6))
    assert entropy(x) == pytest.approx(by_hand, abs=1e-14)


def test_entropy_of_constant_is_zero_and_empty_is_zero():
    assert entropy([4, 4, 4]) == 0.0
    assert entropy_from_counts([0, 0]) == 0.0


def test_entropy_from_counts_rejects_negative():
    with pytest.raises(ValueError, match="non-negative"):
        entropy_from_counts([1, -1])


def test_entropy_rejects_nan():
    with pytest.raises(ValueError, match="NaN"):
        entropy([0.0, np.nan])


def test_joint_and_conditional_entropy():
    x = [0, 0, 1, 1]
    y = [0, 1, 0, 1]
    assert joint_entropy(x, y) == 2.0
    assert joint_entropy(x, x) == 1.0
    assert conditional_entropy(x, y) == 1.0
    assert conditional_entropy(x, [3, 3, 5, 5]) == 0.0
    # a 2-D argument is the joint variable of its columns
    assert entropy(np.column_stack([x, y])) == 2.0


def test_joint_entropy_requires_equal_lengths():
    with pytest.raises(ValueError, match="same number of samples"):
        joint_entropy([0, 1], [0, 1, 1])


def test_encode_codes():
    assert encode_codes([10, -3, 10, 5]).tolist() == [2, 0, 2, 1]
    assert encode_codes(np.array([[1, 0], [0, 1], [1, 0]])).tolist() == [1, 0, 1]


# ---------------------------------------------------------------- mutual information


def test_mutual_information_of_hand_built_2x2_tables():
    # Table [[3, 1], [1, 3]], n = 8: p(x,y) = 3/8 on the diagonal, 1/8 off it,
    # marginals 1/2. I = 2 * 3/8 log2(3/8 / 1/4) + 2 * 1/8 log2(1/8 / 1/4)
    x, y = table_sample([[3, 1], [1, 3]])
    by_hand = 0.75 * math.log2(1.5) + 0.25 * math.log2(0.5)
    assert mutual_information(x, y) == pytest.approx(by_hand, abs=1e-15)
    # Table [[2, 0], [1, 1]], n = 4: p(0,0)=1/2, p(1,0)=1/4, p(1,1)=1/4,
    # p(x) = (1/2, 1/2), p(y) = (3/4, 1/4).
    x, y = table_sample([[2, 0], [1, 1]])
    by_hand = (0.5 * math.log2(0.5 / (0.5 * 0.75))
               + 0.25 * math.log2(0.25 / (0.5 * 0.75))
               + 0.25 * math.log2(0.25 / (0.5 * 0.25)))
    assert mutual_information(x, y) == pytest.approx(by_hand, abs=1e-15)


def test_mutual_information_identities_on_random_data():
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = rng.integers(0, 4, 200)
        y = (x + rng.integers(0, 3, 200)) % 5
        i_xy = mutual_information(x, y)
        assert i_xy == pytest.approx(mutual_information(y, x), abs=1e-12)
        chain = entropy(x) + entropy(y) - joint_entropy(x, y)
        assert i_xy == pytest.approx(chain, abs=1e-12)
        assert i_xy == pytest.approx(entropy(x) - conditional_entropy(x, y), abs=1e-12)
        assert -1e-12 <= i_xy <= min(entropy(x), entropy(y)) + 1e-12
        assert mutual_information(x, x) == pytest.approx(entropy(x), abs=1e-12)


def test_mutual_information_of_independent_variables_is_zero():
    # the product of uniform marginals realised exactly
    x, y = table_sample(np.full((3, 4), 5))
    assert mutual_information(x, y) == 0.0


def test_mutual_information_matches_sklearn():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 5, 300)
    y = rng.integers(0, 3, 300)
    expected = mutual_info_score(x, y) / LN2
    assert mutual_information(x, y) == pytest.approx(expected, abs=1e-12)


def test_conditional_mutual_information_xor():
    x = np.array([0, 0, 1, 1] * 3)
    y = np.array([0, 1, 0, 1] * 3)
    z = x ^ y
    assert mutual_information(x, y) == 0.0
    assert conditional_mutual_information(x, y, z) == pytest.approx(1.0)
    assert conditional_mutual_information(x, y, np.zeros(12)) == 0.0


# ---------------------------------------------------------------- all pairs


def random_codes(seed, n=400, p=30, q=6, levels=4):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, (n, p))
    Y = rng.integers(0, 2, (n, q))
    X[:, 0] = Y[:, 0]  # some dependence
    X[:, 1] = (Y[:, 1] + rng.integers(0, 2, n)) * (rng.random(n) < 0.7)
    X[:, 2] = 0  # constant feature
    X[:, 3] = np.where(rng.random(n) < 0.05, 7, 0)  # sparse, non-contiguous code
    return X, Y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matrix_equals_per_pair_computation(seed):
    X, Y = random_codes(seed)
    mi = mutual_information_matrix(X, Y)
    assert mi.shape == (X.shape[1], Y.shape[1])
    direct = np.array([[mutual_information(X[:, j], Y[:, k])
                        for k in range(Y.shape[1])] for j in range(X.shape[1])])
    np.testing.assert_allclose(mi, direct, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_matrix_equals_sklearn_mutual_info_score(seed):
    X, Y = random_codes(seed)
    mi = mutual_information_matrix(X, Y)
    ref = np.array([[mutual_info_score(X[:, j], Y[:, k]) / LN2
                     for k in range(Y.shape[1])] for j in range(X.shape[1])])
    np.testing.assert_allclose(mi, ref, rtol=0, atol=1e-12)


def test_matrix_constant_feature_is_exactly_zero():
    X, Y = random_codes(3)
    mi = mutual_information_matrix(X, Y)
    assert (mi[2] == 0).all()


def test_matrix_sparse_input_equals_dense():
    X, Y = random_codes(4)
    dense = mutual_information_matrix(X, Y)
    for fmt in (sp.csr_matrix, sp.csc_matrix, sp.coo_matrix):
        np.testing.assert_allclose(
            mutual_information_matrix(fmt(X), Y), dense, rtol=0, atol=1e-13
        )
    np.testing.assert_allclose(
        mutual_information_matrix(sp.csr_matrix(X), sp.csr_matrix(Y)),
        dense, rtol=0, atol=1e-13,
    )


def test_matrix_sparse_with_explicit_zeros():
    X, Y = random_codes(5)
    S = sp.csr_matrix(X)
    S.data[::3] = 0  # explicit zeros stored in the structure
    np.testing.assert_allclose(
        mutual_information_matrix(S, Y), mutual_information_matrix(S.toarray(), Y),
        rtol=0, atol=1e-13,
    )


def test_matrix_multi_valued_labels_and_float_codes():
    rng = np.random.default_rng(6)
    X = rng.integers(0, 3, (100, 4)).astype(float)
    Y = rng.integers(0, 4, (100, 3))
    mi = mutual_information_matrix(X, Y)
    ref = np.array([[mutual_info_score(X[:, j], Y[:, k]) / LN2 for k in range(3)]
                    for j in range(4)])
    np.testing.assert_allclose(mi, ref, rtol=0, atol=1e-12)


def test_matrix_1d_inputs_and_shape_checks():
    x = np.array([0, 0, 1, 1])
    assert mutual_information_matrix(x, x).tolist() == [[1.0]]
    with pytest.raises(ValueError, match="samples"):
        mutual_information_matrix(np.zeros((3, 2), int), np.zeros((4, 1), int))


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.array([[0.5, 1.0]]), "non-integral"),
        (np.array([[-1, 0]]), "non-negative"),
        (np.array([[np.nan, 0]]), "NaN"),
        (np.array([["a", "b"]]), "integer codes"),
    ],
)
def test_check_codes_rejects_non_codes(bad, match):
    with pytest.raises(ValueError, match=match):
        check_codes(bad)
    with pytest.raises(ValueError, match=match):
        mutual_information_matrix(bad, np.zeros((1, 1), int))


def test_check_codes_sparse_negative():
    with pytest.raises(ValueError, match="non-negative"):
        check_codes(sp.csr_matrix(np.array([[0, -2]])))


@pytest.mark.parametrize("sparse", [False, True])
def test_code_indicators_give_the_same_bits(sparse):
    """Indicators built once (the greedy selectors' steps) change nothing."""
    from mlfsbench.estimators.information.entropy import (
        CodeIndicators,
        conditional_mutual_information_matrix,
        mutual_information_matrix,
    )

    rng = np.random.default_rng(4)
    X = rng.integers(0, 4, (300, 40)) * (rng.random((300, 40)) < 0.3)
    Y = (rng.random((300, 6)) < 0.3).astype(int)
    Xin = sp.csr_matrix(X) if sparse else X
    prepared = CodeIndicators(Xin)
    assert_array_equal(mutual_information_matrix(prepared, Y),
                       mutual_information_matrix(Xin, Y))
    z = X[:, 3]
    assert_array_equal(conditional_mutual_information_matrix(prepared, Y, z),
                       conditional_mutual_information_matrix(Xin, Y, z))
    # a wide right-hand side takes the sparse product, a narrow one the dense:
    # the counts are exact either way
    wide = rng.integers(0, 2, (300, 300))
    full = mutual_information_matrix(prepared, wide)
    narrow = mutual_information_matrix(prepared, wide[:, :200])
    assert_array_equal(full[:, :200], narrow)
    assert_allclose(full[:, 0], [mutual_information(X[:, j], wide[:, 0])
                                 for j in range(40)], atol=1e-12)
