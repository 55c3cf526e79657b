"""MIM on binary relevance: known answers and the estimator contract.

``sklearn.utils.estimator_checks.parametrize_with_checks`` is not used: its
checks fit selectors with a 1-D ``y`` and continuous ``X``, while the common
selector interface requires a 2-D 0/1 label matrix (``check_label_matrix`` in
the base class) and MIM-BR requires integer codes, so most checks fail for
reasons that are part of the design (32 of 46 checks with scikit-learn 1.9).
The contract those checks cover is tested directly below instead: clone and
parameters, ``fit`` returning ``self``, idempotent refits, pickling, support
mask and ``transform``, sparse input, input validation.
"""

import math
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.metrics import mutual_info_score

from mlfsbench.estimators import registry
from mlfsbench.estimators.discretizers.unsupervised import EqualWidthDiscretizer
from mlfsbench.estimators.information.entropy import mutual_information
from mlfsbench.estimators.selectors import MIMBR, BaseMultiLabelSelector


def informative_problem(seed=0, n=800, n_noise=12):
    """Labels, and features of which four carry label information.

    Returns X, Y and the column indices of the informative features in the
    order of their expected scores (best first).
    """
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, 3))
    flip = rng.random(n) < 0.2
    informative = [
        Y[:, 0] * 2 + Y[:, 1],  # determines two labels: 2 bits
        Y[:, 2],  # one label exactly: ~1 bit
        np.where(flip, 1 - Y[:, 0], Y[:, 0]),  # one label with 20% noise
        np.where(rng.random(n) < 0.5, Y[:, 1], rng.integers(0, 2, n)),  # weaker
    ]
    noise = [rng.integers(0, 4, n) for _ in range(n_noise)]
    columns = informative + noise
    order = rng.permutation(len(columns))  # hide the informative columns
    X = np.column_stack([columns[i] for i in order])
    position = np.argsort(order)
    return X, Y, position[:4].tolist()


# ---------------------------------------------------------------- known answers


def test_informative_features_rank_first():
    X, Y, expected = informative_problem()
    sel = MIMBR(n_features_to_select=4).fit(X, Y)
    assert sel.ranking_[:4].tolist() == expected
    assert set(np.flatnonzero(sel.get_support())) == set(expected)


def test_scores_are_sums_of_hand_computed_mutual_information():
    # f0 copies y0 (1 bit) and is independent of y1 (0 bits);
    # f1 against y0 is the table [[3, 1], [1, 3]] and is independent of y1.
    y0 = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    y1 = np.array([0, 1, 0, 1, 0, 1, 0, 1])
    f0 = y0
    f1 = np.array([0, 0, 0, 1, 1, 1, 1, 0])
    X = np.column_stack([f0, f1])
    Y = np.column_stack([y0, y1])
    sel = MIMBR().fit(X, Y)
    table = 0.75 * math.log2(1.5) + 0.25 * math.log2(0.5)
    np.testing.assert_allclose(sel.scores_, [1.0, table], rtol=0, atol=1e-15)
    assert sel.ranking_.tolist() == [0, 1]
    np.testing.assert_allclose(sel.mi_, [[1.0, 0.0], [table, 0.0]], atol=1e-15)


def test_scores_equal_sum_of_per_label_mi_on_random_data():
    X, Y, _ = informative_problem(seed=1, n=300)
    sel = MIMBR().fit(X, Y)
    ours = [sum(mutual_information(X[:, j], Y[:, k]) for k in range(Y.shape[1]))
            for j in range(X.shape[1])]
    sklearn_bits = [
        sum(mutual_info_score(X[:, j], Y[:, k]) for k in range(Y.shape[1]))
        / math.log(2)
        for j in range(X.shape[1])
    ]
    np.testing.assert_allclose(sel.scores_, ours, rtol=0, atol=1e-12)
    np.testing.assert_allclose(sel.scores_, sklearn_bits, rtol=0, atol=1e-12)


def test_ties_keep_lower_index_first():
    y = np.array([0, 1, 0, 1])
    X = np.column_stack([np.zeros(4, int), y, y, np.zeros(4, int)])
    sel = MIMBR().fit(X, y.reshape(-1, 1))
    assert sel.ranking_.tolist() == [1, 2, 0, 3]


def test_sparse_input_equals_dense():
    X, Y, _ = informative_problem(seed=2)
    dense = MIMBR().fit(X, Y)
    for fmt in (sp.csr_matrix, sp.csc_matrix):
        sparse = MIMBR().fit(fmt(X), Y)
        np.testing.assert_allclose(sparse.scores_, dense.scores_, atol=1e-13)
        assert np.array_equal(sparse.ranking_, dense.ranking_)


def test_after_discretization_of_continuous_features():
    rng = np.random.default_rng(3)
    Y = rng.integers(0, 2, (400, 2))
    X = rng.normal(size=(400, 6))
    X[:, 4] += 3 * Y[:, 0]  # informative after binning
    Xd = EqualWidthDiscretizer(bins=5).fit_transform(X)
    assert MIMBR().fit(Xd, Y).ranking_[0] == 4


# ---------------------------------------------------------------- estimator contract


def test_registered_and_discrete():
    assert registry.get("selector", "mim-br") is MIMBR
    assert issubclass(MIMBR, BaseMultiLabelSelector)
    assert MIMBR.input_kind == "discrete"
    sel = registry.create("selector", "mim-br", {"n_features_to_select": 3})
    assert sel.n_features_to_select == 3


def test_params_and_clone():
    sel = MIMBR(n_features_to_select=5, random_state=1)
    assert sel.get_params() == {"n_features_to_select": 5, "random_state": 1}
    twin = clone(sel)
    assert twin is not sel and twin.get_params() == sel.get_params()
    assert not hasattr(twin, "scores_")
    with pytest.raises(TypeError):
        MIMBR(5)  # parameters are keyword-only


def test_fit_returns_self_and_sets_attributes():
    X, Y, _ = informative_problem()
    sel = MIMBR()
    assert sel.fit(X, Y) is sel
    assert sel.scores_.shape == (X.shape[1],)
    assert sel.mi_.shape == (X.shape[1], Y.shape[1])
    assert sorted(sel.ranking_.tolist()) == list(range(X.shape[1]))
    assert sel.n_features_in_ == X.shape[1]


def test_refit_is_idempotent_and_does_not_change_params():
    X, Y, _ = informative_problem()
    sel = MIMBR(n_features_to_select=2)
    params = sel.get_params()
    first = sel.fit(X, Y).scores_.copy()
    second = sel.fit(X, Y).scores_
    assert np.array_equal(first, second)
    assert sel.get_params() == params


def test_support_and_transform():
    X, Y, expected = informative_problem()
    sel = MIMBR(n_features_to_select=3).fit(X, Y)
    mask = sel.get_support()
    assert mask.dtype == bool and mask.sum() == 3
    assert sorted(sel.get_support(indices=True).tolist()) == sorted(expected[:3])
    Xt = sel.transform(X)
    assert Xt.shape == (X.shape[0], 3)
    assert np.array_equal(Xt, X[:, mask])
    assert MIMBR().fit(X, Y).transform(X).shape == X.shape  # None keeps all
    assert MIMBR(n_features_to_select=100).fit(X, Y).get_support().all()


def test_pickle_round_trip():
    X, Y, _ = informative_problem()
    sel = MIMBR(n_features_to_select=2).fit(X, Y)
    again = pickle.loads(pickle.dumps(sel))
    assert np.array_equal(again.ranking_, sel.ranking_)
    assert np.array_equal(again.transform(X), sel.transform(X))


def test_unfitted_transform_raises():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        MIMBR().transform(np.zeros((2, 2), int))


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "X, match",
    [
        (np.array([[0.1, 1.0], [0.5, 2.0]]), "integer codes"),
        (np.array([[-1, 0], [1, 0]]), "non-negative"),
        (np.array([[np.nan, 0], [1, 0]]), "NaN"),
    ],
)
def test_rejects_non_codes(X, match):
    with pytest.raises(ValueError, match=match):
        MIMBR().fit(X, np.array([[0], [1]]))


def test_rejects_bad_labels():
    X = np.zeros((4, 2), int)
    with pytest.raises(ValueError, match="0/1"):
        MIMBR().fit(X, np.array([[0], [1], [2], [0]]))
    with pytest.raises(ValueError, match="samples"):
        MIMBR().fit(X, np.zeros((3, 1), int))
