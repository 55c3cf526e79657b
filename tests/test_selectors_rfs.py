"""RFS: joint l2,1-norms feature selection (Nie et al. 2010)."""

from __future__ import annotations

import numpy as np
import pytest

from mlfsbench.estimators import registry
from mlfsbench.estimators.selectors.rfs import l21_norm, rfs_weights


def data(seed=0, n=50, d=6, q=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Y = (X[:, :q] + 0.3 * rng.normal(size=(n, q)) > 0).astype(float)
    return X, Y


def objective(X, Y, W, gamma):
    return l21_norm(X @ W - Y) + gamma * l21_norm(W)


def test_the_first_iterate_is_ridge_with_gamma_squared():
    # D = I: U = A^T (A A^T)^-1 Y with A = [X, gamma I], whose W part is
    # X^T (X X^T + gamma^2 I)^-1 Y = (X^T X + gamma^2 I)^-1 X^T Y
    X, Y = data()
    gamma = 0.7
    ridge = np.linalg.solve(X.T @ X + gamma**2 * np.eye(6), X.T @ Y)
    for form in ("features", "samples"):
        W, obj = rfs_weights(X, Y, gamma, max_iter=1, form=form)
        np.testing.assert_allclose(W, ridge, rtol=1e-10)
        assert obj == [pytest.approx(objective(X, Y, ridge, gamma))]


@pytest.mark.parametrize("shape", [(50, 6), (8, 20)])
def test_both_forms_give_the_papers_iterates(shape):
    X, Y = data(n=shape[0], d=shape[1])
    Wf, of = rfs_weights(X, Y, 1.0, max_iter=8, tol=0.0, form="features")
    Ws, os_ = rfs_weights(X, Y, 1.0, max_iter=8, tol=0.0, form="samples")
    np.testing.assert_allclose(Wf, Ws, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(of, os_, rtol=1e-10)


def test_the_objective_decreases_to_a_minimum():
    X, Y = data(seed=1)
    gamma = 2.0
    W, obj = rfs_weights(X, Y, gamma, max_iter=500, tol=1e-12)
    assert np.all(np.diff(obj) <= 1e-12)
    best = objective(X, Y, W, gamma)
    rng = np.random.default_rng(2)
    for _ in range(50):  # convex: no small step lowers the objective
        step = 1e-3 * rng.normal(size=W.shape)
        assert objective(X, Y, W + step, gamma) >= best - 1e-9


def test_ranks_the_features_the_labels_depend_on_first():
    X, Y = data(seed=3, d=8)
    sel = registry.create("selector", "rfs", {"gamma": 5.0}).fit(X, Y)
    assert set(sel.ranking_[:3].tolist()) == {0, 1, 2}
    assert sel.scores_[3:].max() < 0.2 * sel.scores_[:3].min()
    assert sel.coef_.shape == (8, 3)
    assert sel.objective_.size == sel.n_iter_


def test_centring_makes_it_shift_invariant():
    X, Y = data(seed=4)
    a = registry.create("selector", "rfs", {}).fit(X, Y)
    b = registry.create("selector", "rfs", {}).fit(X + 3.0, Y)
    np.testing.assert_allclose(a.scores_, b.scores_, rtol=1e-8)
