"""ReliefF's shared path (``relieff_scores(..., shared_path=True)``, the default
on 0/1 features) against the path it replaced (``shared_path=False``).

The shared path sums the diffs of each weight group as exact integers and
takes the larger class's neighbours of every BR label from the rows' nearest
instances overall; the float operations come in another order, so the scores
agree to 1e-12 of the largest (not bit for bit) and the rankings are the same
up to features whose scores tie within that (the old path's order among exact
ties is its rounding's).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.data import load_mulan
from mlfsbench.estimators.selectors import _relief
from mlfsbench.estimators.selectors._base import rank_scores
from mlfsbench.estimators.selectors._relief import (
    binary_csr,
    prepare_features,
    relieff_scores,
    sparse_binary_csr,
)
from mlfsbench.estimators.transformations.lp import labelset_codes


def assert_same_scores(new, old):
    """Scores within 1e-12 of the largest, per target; rankings equal up to ties."""
    assert new.shape == old.shape
    for t in range(old.shape[1]):
        tol = 1e-12 * np.abs(old[:, t]).max()
        np.testing.assert_allclose(new[:, t], old[:, t], rtol=0, atol=tol)
    for s_new, s_old in ((new.mean(axis=1), old.mean(axis=1)),):
        tol = 1e-12 * np.abs(s_old).max()
        r_new, r_old = rank_scores(s_new), rank_scores(s_old)
        # each ranking orders the other's scores, but for ties within tol
        assert (np.diff(s_old[r_new]) <= tol).all()
        assert (np.diff(s_new[r_old]) <= tol).all()
        differ = r_new != r_old
        assert np.abs(s_old[r_new[differ]] - s_old[r_old[differ]]).max(
            initial=0.0) <= tol


def _tied_problem(seed, n=160, p=12):
    """Binary features (distances tie everywhere) and BR labels of every kind:
    balanced to the instance, rare (below k), common, constant, and a
    label-powerset class with classes of one member and of many."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, p)) < 0.25).astype(float)
    X[:, 3] = X[:, 2]  # identical columns: equal scores in both paths
    Y = (rng.random((n, 6)) < [0.3, 0.03, 0.9, 0.0, 0.1, 0.6]).astype(int)
    Y[:, 0] = np.arange(n) % 2
    lp, _ = labelset_codes(Y)
    return X, Y, lp


@pytest.mark.parametrize("narrow", [False, True])
@pytest.mark.parametrize("block_rows", [None, 7])
@pytest.mark.parametrize("k, n_samples", [(1, None), (5, None), (10, None),
                                          (3, 37)])
def test_shared_path_equals_pairwise_path_with_ties(k, n_samples, block_rows,
                                                    narrow, monkeypatch):
    """Every row sampled (distances reused across blocks) or some; one block
    or blocks of 7 rows; a prefix of k + 1 columns (the larger class's next
    members mostly from the distances) or 32; dense and sparse input; BR
    labels, the LP class and both together."""
    X, Y, lp = _tied_problem(k)
    if block_rows:
        monkeypatch.setattr(_relief, "_SHARED_BLOCK_CELLS", block_rows * len(X))
    if narrow:
        monkeypatch.setattr(_relief, "_SHARED_WIDTH", 1)
    for classes in (Y, lp, np.column_stack([Y, lp])):
        kw = {"n_neighbors": k, "n_samples": n_samples, "random_state": 2}
        old = relieff_scores(X, classes, shared_path=False, **kw)
        for Xin in (X, sp.csr_matrix(X), sp.csc_matrix(X * 3.0)):
            new = relieff_scores(Xin, classes, **kw)
            assert_same_scores(new, old)
            assert new[2].tolist() == new[3].tolist()
        assert np.abs(old).max() > 0.01


def test_shared_path_small_block_budget_keeps_the_scores():
    """A tiny sparse budget slices the pair products row by row."""
    X, Y, lp = _tied_problem(5)
    classes = np.column_stack([Y, lp])
    old = relieff_scores(X, classes, shared_path=False, n_neighbors=4)
    new = relieff_scores(X, classes, n_neighbors=4, max_sparse_cells=1)
    assert_same_scores(new, old)


def test_sparse_binary_csr_is_the_scaled_pattern_or_none():
    rng = np.random.default_rng(0)
    X = (rng.random((30, 8)) < 0.3) * rng.choice([1.0, 5.0], 8)
    X[:, 4] = 0.0
    got = sparse_binary_csr(sp.csc_matrix(X))
    want = binary_csr(prepare_features(X))
    assert (got != want).nnz == 0 and got.data.tolist() == [1.0] * got.nnz
    assert np.array_equal(got.indices, want.indices)
    assert sparse_binary_csr(X) is None  # dense: scaled densely
    mixed = X.copy()
    mixed[0, 0], mixed[1, 0] = 1.0, 2.0  # three values
    assert sparse_binary_csr(sp.csr_matrix(mixed)) is None
    shifted = X.copy()
    shifted[:, 1] -= 1.0  # minimum -1
    assert sparse_binary_csr(sp.csr_matrix(shifted)) is None
    assert sparse_binary_csr(sp.csr_matrix(np.full((3, 2), np.inf))) is None


@pytest.fixture(scope="module")
def medical(shared_datasets):
    folder = shared_datasets / "multi-label" / "medical"
    ds = load_mulan(folder / "medical.arff", folder / "medical.xml")
    n = int(0.9 * ds.X.shape[0])
    return ds.X[:n], np.asarray(ds.Y[:n].todense() if sp.issparse(ds.Y)
                                else ds.Y[:n])


def test_shared_path_equals_pairwise_path_on_medical(medical):
    """Medical (0/1 words, 45 labels): RF-BR's and RF-LP's scores to 1e-12 of
    the largest; rankings equal up to ties within that (the old path orders
    exact ties by its rounding, hundreds of them here)."""
    X, Y = medical
    lp, _ = labelset_codes(Y)
    for classes in (Y, lp):
        new = relieff_scores(X, classes)
        old = relieff_scores(X, classes, shared_path=False)
        assert_same_scores(new, old)
        assert np.abs(old).max() > 0.01


def test_cells_by_mask_and_by_sort_agree():
    rng = np.random.default_rng(1)
    key = rng.integers(0, 50, 30)
    small = _relief._cells(key, 50)  # a mask over 50
    large = _relief._cells(key, 10**7)  # sorted
    for got in (small, large):
        np.testing.assert_array_equal(got[0], np.unique(key))
        np.testing.assert_array_equal(got[0][got[1]], key)


@pytest.mark.parametrize("n", [2, 5, 11])
def test_shared_path_on_fewer_instances_than_neighbours(n):
    """Every class smaller than k (a constant label's hits are all the other
    rows; a two-class label's both classes in closed form)."""
    rng = np.random.default_rng(n)
    X = (rng.random((n, 6)) < 0.4).astype(float)
    X[0, 0] = 1.0
    Y = np.column_stack([np.zeros(n, int), np.arange(n) % 2,
                         rng.integers(0, 2, n)])
    lp, _ = labelset_codes(Y)
    for classes in (Y, lp, Y[:, 0]):
        old = relieff_scores(X, classes, n_neighbors=10, shared_path=False)
        new = relieff_scores(sp.csr_matrix(X), classes, n_neighbors=10)
        assert_same_scores(new, old)
        assert np.abs(old).max() > 0
