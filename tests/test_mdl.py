"""Fayyad-Irani MDL discretization: hand-made cuts and a direct implementation."""

import math

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.estimators.discretizers.mdl import (
    MDLDiscretizer,
    mdl_cut_points,
    mdl_information_gain,
)
from mlfsbench.estimators.discretizers.unsupervised import apply_cut_points
from mlfsbench.estimators.information.entropy import entropy, mutual_information_matrix

# ------------------------------------------------------------- direct version


def direct_fayyad_irani(x, y, better_encoding=False):
    """Textbook recursion: one segment at a time, every boundary tried in turn."""
    order = np.argsort(x, kind="stable")
    x = np.asarray(x, float)[order]
    y = np.asarray(y)[order]
    cuts = []

    def split(lo, hi):
        xs, ys = x[lo:hi], y[lo:hi]
        N = hi - lo
        best, best_e = None, math.inf
        candidates = 0
        for i in range(1, N):
            if xs[i - 1] == xs[i]:
                continue
            candidates += 1
            e = i / N * entropy(ys[:i]) + (N - i) / N * entropy(ys[i:])
            if e < best_e - 1e-12:
                best, best_e = i, e
        if best is None:
            return
        h = entropy(ys)
        h1, h2 = entropy(ys[:best]), entropy(ys[best:])
        k, k1, k2 = (len(np.unique(v)) for v in (ys, ys[:best], ys[best:]))
        delta = math.log2(3**k - 2) - (k * h - k1 * h1 - k2 * h2)
        cost = math.log2(candidates) if better_encoding else math.log2(N - 1)
        if h - best_e > (cost + delta) / N:
            cuts.append((xs[best - 1] + xs[best]) / 2)
            split(lo, lo + best)
            split(lo + best, hi)

    split(0, len(x))
    return sorted(cuts)


def padded(cuts):
    return np.array([cuts]) if cuts else np.array([[np.inf]])


# -------------------------------------------------------------- hand-made cuts


def test_two_pure_blocks_give_one_cut():
    # H(S)=1, E=0, Delta = log2(7) - 2, threshold (log2(11) + Delta)/12 ~ 0.356
    x = np.arange(12.0)[:, None]
    np.testing.assert_array_equal(mdl_cut_points(x, [0] * 6 + [1] * 6), [[5.5]])


def test_three_pure_blocks_give_two_cuts():
    x = np.arange(18.0)[:, None]
    y = [0] * 6 + [1] * 6 + [2] * 6
    np.testing.assert_array_equal(mdl_cut_points(x, y), [[5.5, 11.5]])


def test_alternating_classes_are_not_cut():
    x = np.arange(12.0)[:, None]
    np.testing.assert_array_equal(mdl_cut_points(x, [0, 1] * 6), [[np.inf]])


def test_mdl_threshold_is_where_the_paper_puts_it():
    # 2 + 2 samples, pure halves: gain 1, Delta = log2(7) - 2,
    # threshold (log2(3) + log2(7) - 2) / 4 = 0.6967... < 1 -> accepted
    np.testing.assert_array_equal(
        mdl_cut_points(np.array([[0.0], [1.0], [2.0], [3.0]]), [0, 0, 1, 1]),
        [[1.5]],
    )
    # 1 + 1 samples: gain 1, threshold (0 + log2(7) - 2) / 2 = 0.4037 -> accepted
    np.testing.assert_array_equal(
        mdl_cut_points(np.array([[0.0], [1.0]]), [0, 1]), [[0.5]]
    )
    # 3 + 1 samples: gain H(.25) = 0.811, Delta = log2(7) - 2 * 0.811
    # threshold (log2(3) + 1.185) / 4 = 0.6925 -> accepted; 7 + 1 is rejected:
    # gain H(1/8) = 0.5436, threshold (log2(7) + log2(7) - 2 * 0.5436) / 8 = 0.566
    assert mdl_cut_points(np.arange(4.0)[:, None], [0, 0, 0, 1]).tolist() == [[2.5]]
    assert mdl_cut_points(np.arange(8.0)[:, None], [0] * 7 + [1]).tolist() == [
        [np.inf]
    ]


def test_ties_in_values_are_never_split():
    x = np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0])[:, None]
    y = [0, 0, 1, 1, 1, 1, 1, 1]
    cuts = mdl_cut_points(x, y)
    assert set(cuts[np.isfinite(cuts)]) <= {0.5, 1.5}
    assert cuts.tolist() == padded(direct_fayyad_irani(x[:, 0], y)).tolist()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("better_encoding", [False, True])
def test_matches_direct_implementation_on_random_data(seed, better_encoding):
    rng = np.random.default_rng(seed)
    n = 150
    y = rng.integers(0, 3, n)
    X = np.column_stack([
        y + rng.normal(0, 0.4, n),  # informative, many cuts
        rng.integers(0, 5, n).astype(float),  # heavy ties
        np.where(y == 2, rng.random(n) + 1, rng.random(n)),  # one useful cut
        rng.random(n),  # noise
    ])
    cuts = mdl_cut_points(X, y, better_encoding=better_encoding)
    for j in range(X.shape[1]):
        expected = direct_fayyad_irani(X[:, j], y, better_encoding)
        got = cuts[j][np.isfinite(cuts[j])].tolist()
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert np.isfinite(cuts[0]).sum() >= 2


def test_information_gain_equals_mi_of_mdl_codes():
    rng = np.random.default_rng(7)
    n = 300
    Y = rng.integers(0, 2, (n, 3))
    X = np.column_stack([
        Y[:, 0] + rng.normal(0, 0.3, n),
        Y[:, 1] * 2 + Y[:, 2] + rng.normal(0, 0.3, n),
        rng.random(n),
    ])
    ig = mdl_information_gain(X, Y)
    for t in range(3):
        codes = apply_cut_points(X, mdl_cut_points(X, Y[:, t]))
        expected = mutual_information_matrix(codes, Y[:, t])[:, 0]
        np.testing.assert_allclose(ig[:, t], expected, atol=1e-12)
    assert ig[0, 0] > 0.5 and ig[2].max() == 0.0  # noise gets no accepted cut
    # a multi-class target (the LP class of labels 1 and 2)
    lp = Y[:, 1] * 2 + Y[:, 2]
    codes = apply_cut_points(X, mdl_cut_points(X, lp))
    np.testing.assert_allclose(
        mdl_information_gain(X, lp)[:, 0],
        mutual_information_matrix(codes, lp)[:, 0],
        atol=1e-12,
    )


def test_sparse_input_gives_same_cuts():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 120)
    X = np.where(rng.random((120, 5)) < 0.7, 0.0, rng.random((120, 5)) + y[:, None])
    np.testing.assert_array_equal(
        mdl_cut_points(sp.csr_matrix(X), y), mdl_cut_points(X, y)
    )


def test_discretizer_estimator():
    x = np.arange(18.0)[:, None]
    d = MDLDiscretizer().fit(x, ["a"] * 6 + ["b"] * 6 + ["c"] * 6)
    assert d.n_bins_.tolist() == [3]
    assert d.transform([[5.5], [6.0], [11.5], [40.0]]).ravel().tolist() == [0, 1, 1, 2]
    with pytest.raises(ValueError, match="features"):
        d.transform(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="finite"):
        MDLDiscretizer().fit([[np.nan], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="samples"):
        mdl_cut_points(np.zeros((3, 1)), [0, 1])
