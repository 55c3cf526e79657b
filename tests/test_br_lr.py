"""BR logistic regression (Lee & Kim 2016, Sec. 4.1)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

from mlfsbench.estimators import registry
from mlfsbench.estimators.classifiers.br_lr import BRLogisticRegression


@pytest.fixture
def data():
    """Overlapping classes (no separable label), one constant-0 and one constant-1."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(200, 4))
    logits = X @ np.array([[1.0, -0.5, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 1.5],
                           [0.0, 0.2, -1.0]]) + [0.2, -0.3, 0.0]
    Y = (rng.uniform(size=(200, 3)) < expit(logits)).astype(int)
    Y = np.column_stack([Y, np.zeros(200, int), np.ones(200, int)])
    return X, Y, rng.normal(size=(30, 4))


def _mle(X, y, C=np.inf):
    """(Penalised) maximum likelihood with scipy's BFGS: an independent fit."""
    A = np.column_stack([X, np.ones(len(X))])

    def loss(theta):
        z = A @ theta
        nll = np.sum(np.logaddexp(0, z) - y * z)
        return nll + (0 if np.isinf(C) else theta[:-1] @ theta[:-1] / (2 * C))

    def grad(theta):
        g = A.T @ (expit(A @ theta) - y)
        if not np.isinf(C):
            g[:-1] += theta[:-1] / C
        return g

    res = minimize(loss, np.zeros(A.shape[1]), jac=grad, method="BFGS",
                   options={"gtol": 1e-10, "maxiter": 1000})
    return res.x[:-1], res.x[-1]


@pytest.mark.parametrize(
    "solver", ["batched-lbfgs", "newton-cg", "lbfgs", "newton-cholesky"])
@pytest.mark.parametrize(("penalty", "C"), [("none", 1.0), (None, 1.0), ("l2", 0.05)])
def test_coefficients_match_independent_mle(data, penalty, C, solver):
    X, Y, _ = data
    clf = BRLogisticRegression(penalty=penalty, C=C, solver=solver, tol=1e-10)
    clf.fit(X, Y)
    for label in range(3):
        w, b = _mle(X, Y[:, label], np.inf if penalty in ("none", None) else C)
        np.testing.assert_allclose(clf.coef_[label], w, atol=1e-4)
        np.testing.assert_allclose(clf.intercept_[label], b, atol=1e-4)


def test_l2_shrinks_weights(data):
    X, Y, _ = data
    free = BRLogisticRegression(penalty="none").fit(X, Y)
    ridge = BRLogisticRegression(penalty="l2", C=0.01).fit(X, Y)
    assert (np.linalg.norm(ridge.coef_[:3], axis=1)
            < 0.5 * np.linalg.norm(free.coef_[:3], axis=1)).all()


def test_probabilities_and_threshold(data):
    X, Y, X_test = data
    clf = BRLogisticRegression().fit(X, Y)
    proba = clf.predict_proba(X_test)
    per_label = BRLogisticRegression(solver="lbfgs").fit(X, Y).predict_proba(X_test)
    for label in range(3):
        ref = LogisticRegression(C=np.inf, max_iter=1000)
        ref.fit(X, Y[:, label])
        expected = ref.predict_proba(X_test)[:, 1]
        # solver="lbfgs" is scikit-learn's fit; the batched L-BFGS stops by the
        # same gradient criterion (tol=1e-4) at another point near the optimum
        np.testing.assert_allclose(per_label[:, label], expected, rtol=1e-10)
        np.testing.assert_allclose(proba[:, label], expected, atol=1e-3)
    assert (proba[:, 3] == 0.0).all() and (proba[:, 4] == 1.0).all()
    np.testing.assert_array_equal(clf.predict(X_test), (proba >= 0.5).astype(int))
    strict = BRLogisticRegression(threshold=0.8).fit(X, Y)
    assert strict.predict(X_test).sum() < clf.predict(X_test).sum()


def test_constant_labels_predict_their_constant(data):
    X, Y, X_test = data
    clf = BRLogisticRegression().fit(X, Y)
    per_label = BRLogisticRegression(solver="lbfgs").fit(X, Y)
    assert per_label.estimators_[3] is None and per_label.estimators_[4] is None
    assert clf.predict(X_test)[:, 3].sum() == 0
    assert clf.predict(X_test)[:, 4].sum() == len(X_test)
    assert clf.constant_[3] == 0.0 and clf.constant_[4] == 1.0
    assert np.isnan(clf.constant_[:3]).all()


def test_separable_label_still_classifies():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    Y = np.array([[0], [0], [1], [1]])
    clf = BRLogisticRegression(max_iter=50).fit(X, Y)
    assert clf.predict(np.array([[0.2], [2.8]])).tolist() == [[0], [1]]


@pytest.mark.parametrize("densify", [True, False])
def test_sparse_matches_dense(data, densify, monkeypatch):
    """Sparse features: grouped as dense rows when small, else every row on
    its own (``_DENSIFY = 0``); both give the dense fit."""
    from mlfsbench.estimators.classifiers import _batched_lbfgs as lbfgs

    if not densify:
        monkeypatch.setattr(lbfgs, "_DENSIFY", 0)
        assert lbfgs._unique_rows(sp.csr_matrix(data[0])) is None
    X, Y, X_test = data
    dense = BRLogisticRegression(tol=1e-10).fit(X, Y)
    sparse = BRLogisticRegression(tol=1e-10).fit(sp.csr_matrix(X), Y)
    np.testing.assert_allclose(dense.predict_proba(X_test),
                               sparse.predict_proba(sp.csr_matrix(X_test)), atol=1e-5)


def test_validation(data):
    X, Y, _ = data
    with pytest.raises(ValueError, match="'penalty' parameter"):
        BRLogisticRegression(penalty="l1").fit(X, Y)
    with pytest.raises(ValueError, match="'C' parameter of BRLogisticRegression"):
        BRLogisticRegression(penalty="l2", C=0).fit(X, Y)
    with pytest.raises(ValueError, match="'solver' parameter"):
        BRLogisticRegression(solver="saga").fit(X, Y)
    with pytest.raises(ValueError, match="'threshold' parameter"):
        BRLogisticRegression(threshold=1.0).fit(X, Y)
    with pytest.raises(ValueError, match="features"):
        BRLogisticRegression().fit(X, Y).predict(np.zeros((1, 3)))


def test_registry():
    clf = registry.create("classifier", "br-lr", {"penalty": "l2", "C": 2.0},
                          random_state=3)
    assert isinstance(clf, BRLogisticRegression)
    assert (clf.penalty, clf.C, clf.random_state) == ("l2", 2.0, 3)
    assert registry.parameters(BRLogisticRegression)["penalty"] == "none"


@pytest.mark.parametrize("penalty", ["none", "l2"])
def test_batched_solver_groups_identical_rows(penalty, monkeypatch):
    """Binary features repeat rows: the batched solver fits the distinct rows
    weighted by their counts and reaches scikit-learn's per-label optimum."""
    from mlfsbench.estimators.classifiers import _batched_lbfgs as lbfgs

    rng = np.random.RandomState(4)
    X = (rng.uniform(size=(400, 5)) < 0.4).astype(float)  # <= 32 distinct rows
    logits = X @ rng.normal(size=(5, 6)) - 0.5
    Y = (rng.uniform(size=(400, 6)) < expit(logits)).astype(int)
    grouped = []
    original = lbfgs._unique_rows

    def spy(X):
        out = original(X)
        grouped.append(None if out is None else out[0].shape[0])
        return out

    monkeypatch.setattr(lbfgs, "_unique_rows", spy)
    ours = BRLogisticRegression(penalty=penalty, tol=1e-10).fit(X, Y)
    assert grouped and grouped[0] <= 32
    C = np.inf if penalty == "none" else 1.0
    for label in range(6):
        ref = LogisticRegression(C=C, tol=1e-10, max_iter=1000).fit(X, Y[:, label])
        np.testing.assert_allclose(ours.coef_[label], ref.coef_[0], atol=1e-4)
        np.testing.assert_allclose(ours.intercept_[label], ref.intercept_[0],
                                   atol=1e-4)


def _direct_loss_gradient(X, Y, W, weight, l2):
    """The objective of ``fit_logistic_batch`` written out with scipy/numpy."""
    A = np.column_stack([X, np.ones(len(X))])
    Z = A @ W
    n = weight.sum()
    loss = weight @ (np.logaddexp(0.0, Z) - Y * Z) / n
    loss += 0.5 * l2 * (W[:-1] ** 2).sum(axis=0)
    G = A.T @ (weight[:, None] * (expit(Z) - Y)) / n
    G[:-1] += l2 * W[:-1]
    return loss, G


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("l2", [0.0, 0.3])
def test_blocked_objective_matches_direct_formula(sparse, l2):
    """Loss and gradient through u = tanh(z / 2), by blocks of rows into
    reused buffers, equal the direct formula, also at |z| of hundreds (no
    overflow), and repeated calls (reused buffers) are bitwise identical."""
    from mlfsbench.estimators.classifiers._batched_lbfgs import _Logistic

    rng = np.random.RandomState(1)
    X = rng.normal(size=(300, 4))
    Y = (rng.uniform(size=(300, 6)) < 0.4).astype(float)
    W = rng.normal(size=(5, 6))
    W[:, 0] *= 300.0  # |z| up to about 1000
    weight = rng.randint(1, 4, size=300).astype(float)
    X1 = np.column_stack([X, np.ones(300)])
    rows = sp.csr_matrix(X1) if sparse else X1
    XtY = X1.T @ (weight[:, None] * Y)
    n = weight.sum()
    objective = _Logistic(rows, weight, n, l2, 6, block=64)  # 5 blocks
    loss, G = objective(W, XtY)
    ref_loss, ref_G = _direct_loss_gradient(X, Y, W, weight, l2)
    np.testing.assert_allclose(loss, ref_loss, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(G, ref_G, rtol=1e-10, atol=1e-13)
    only_loss, none = objective(W[:, 1:4], XtY[:, 1:4], gradient=False)
    assert none is None
    np.testing.assert_allclose(only_loss, ref_loss[1:4], rtol=1e-12)
    again = objective(W, XtY)
    np.testing.assert_array_equal(again[0], loss)
    np.testing.assert_array_equal(again[1], G)


def _binary_problem(seed=5, n=600, d=6, q=8):
    rng = np.random.RandomState(seed)
    X = (rng.uniform(size=(n, d)) < 0.3).astype(float)
    Y = (rng.uniform(size=(n, q)) < expit(X @ rng.normal(size=(d, q)) - 1.0))
    return X, Y.astype(np.int64)


def test_batch_is_repeatable_and_row_order_free():
    """Refits reuse nothing between calls (bitwise the same weights), and
    the distinct rows come out in a canonical order: permuting the training
    rows gives bitwise the same fit."""
    from mlfsbench.estimators.classifiers._batched_lbfgs import fit_logistic_batch

    X, Y = _binary_problem()
    W, n_iter = fit_logistic_batch(X, Y)
    W2, n_iter2 = fit_logistic_batch(X, Y)
    np.testing.assert_array_equal(W, W2)
    np.testing.assert_array_equal(n_iter, n_iter2)
    order = np.random.RandomState(0).permutation(len(X))
    W3, n_iter3 = fit_logistic_batch(X[order], Y[order])
    np.testing.assert_array_equal(W, W3)
    np.testing.assert_array_equal(n_iter, n_iter3)


@pytest.mark.parametrize("penalty", ["none", "l2"])
def test_each_label_independent_of_the_batch(penalty):
    """A label's fit does not depend on the other labels of the batch: alone,
    in a subset, or with all labels, the same weights and iterations (up to
    rounding in the shared matrix products)."""
    from mlfsbench.estimators.classifiers._batched_lbfgs import fit_logistic_batch

    X, Y = _binary_problem(q=12)
    l2 = 0.0 if penalty == "none" else 1e-3
    W, n_iter = fit_logistic_batch(X, Y, l2=l2, tol=1e-8)
    for subset in ([3], [0, 7], [11, 2, 5, 9]):
        Ws, n_iter_s = fit_logistic_batch(X, Y[:, subset], l2=l2, tol=1e-8)
        np.testing.assert_allclose(Ws, W[:, subset], rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(n_iter_s, n_iter[subset])


def test_fit_leaves_labels_unchanged_and_accepts_any_integer_dtype(data):
    """The caller's labels are never written; int8 and bool labels give the
    same fit as int64."""
    X, Y, X_test = data
    Y = np.ascontiguousarray(Y, dtype=np.int64)
    before = Y.copy()
    ref = BRLogisticRegression().fit(X, Y)
    np.testing.assert_array_equal(Y, before)
    for dtype in (np.int8, bool):
        other = BRLogisticRegression().fit(X, Y.astype(dtype))
        np.testing.assert_array_equal(other.coef_, ref.coef_)
        np.testing.assert_array_equal(other.intercept_, ref.intercept_)


def test_sparse_blocks_match_dense_blocks(monkeypatch):
    """Low-density features go through sparse row blocks: the same fit as
    the dense products within the solver's tolerance (rare features make
    some weights ill-determined, so the probabilities are compared)."""
    from mlfsbench.estimators.classifiers import _batched_lbfgs as lbfgs

    rng = np.random.RandomState(7)
    X = (rng.uniform(size=(800, 60)) < 0.02).astype(float)  # 2 % nonzero
    Y = (rng.uniform(size=(800, 5)) < expit(X @ rng.normal(size=(60, 5)) - 1.5))
    used = []
    original = lbfgs._Logistic.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        used.append(bool(self.sparse))

    monkeypatch.setattr(lbfgs._Logistic, "__init__", spy)
    W_sparse, it_sparse = lbfgs.fit_logistic_batch(X, Y, tol=1e-8)
    monkeypatch.setattr(lbfgs, "_SPARSE", 0.0)
    W_dense, it_dense = lbfgs.fit_logistic_batch(X, Y, tol=1e-8)
    assert used == [True, False]
    X1 = np.column_stack([X, np.ones(len(X))])
    np.testing.assert_allclose(expit(X1 @ W_sparse), expit(X1 @ W_dense), atol=1e-6)
    assert abs(int(it_sparse.sum()) - int(it_dense.sum())) <= 2


@pytest.mark.parametrize("sparse", [False, True])
def test_batch_without_features_fits_the_rates(sparse):
    """No feature columns: each label's intercept is its log-odds, reached at
    the start (0 iterations)."""
    from mlfsbench.estimators.classifiers._batched_lbfgs import fit_logistic_batch

    X = np.zeros((6, 0))
    Y = np.array([[0, 1], [1, 0], [0, 1], [1, 1], [0, 0], [1, 1]])
    W, n_iter = fit_logistic_batch(sp.csr_matrix(X) if sparse else X, Y)
    np.testing.assert_allclose(W, [[0.0, np.log(2.0)]], atol=1e-12)
    np.testing.assert_array_equal(n_iter, [0, 0])


def test_binary_row_keys_group_and_order_as_the_float_bytes():
    """The packed-bit keys of 0/1 rows give the groups, counts and order of
    the float64 byte keys (so the fit is bitwise the same)."""
    from mlfsbench.estimators.classifiers import _batched_lbfgs as lbfgs

    rng = np.random.RandomState(7)
    X = (rng.uniform(size=(500, 13)) < 0.3).astype(float)
    keys = lbfgs._binary_keys(X)
    assert keys is not None and keys.itemsize == 2  # 13 bits in 2 bytes
    rows, counts = lbfgs._unique_rows(X)
    raw = X.view(np.dtype((np.void, 8 * 13))).ravel()
    _, first, ref_counts = np.unique(raw, return_index=True, return_counts=True)
    np.testing.assert_array_equal(rows, X[first])
    np.testing.assert_array_equal(counts, ref_counts)
    # anything but 0.0 and 1.0 (-0.0 included) keeps the byte keys
    for bad in (2.0, -0.0, 0.5):
        Z = X.copy()
        Z[3, 4] = bad
        assert lbfgs._binary_keys(Z) is None
    assert lbfgs._binary_keys(X.astype(np.float32)) is None


def test_label_chunks_of_the_sparse_objective_are_bitwise_equal(monkeypatch):
    """The sparse products go by chunks of labels; every loss and gradient
    entry equals the one computed without chunks, bit for bit."""
    from mlfsbench.estimators.classifiers import _batched_lbfgs as lbfgs

    rng = np.random.RandomState(8)
    X = (rng.uniform(size=(700, 40)) < 0.05).astype(float)  # 5 %: sparse blocks
    Y = (rng.uniform(size=(700, 300)) < 0.2).astype(np.int8)
    X1 = lbfgs._with_intercept(X)
    W = rng.normal(size=(41, 300))
    XtY = lbfgs._cross(X, Y)
    chunked = lbfgs._Logistic(X1, None, 700, 0.0, 300)
    assert chunked.sparse and lbfgs._LABEL_CHUNK < 300
    f, G, c = chunked(W, XtY, curvature=True)
    monkeypatch.setattr(lbfgs, "_LABEL_CHUNK", 10**6)
    whole = lbfgs._Logistic(X1, None, 700, 0.0, 300)
    f0, G0, c0 = whole(W, XtY, curvature=True)
    assert np.array_equal(f, f0) and np.array_equal(G, G0) and np.array_equal(c, c0)
    ref_f, ref_G = _direct_loss_gradient(X, Y, W, np.ones(700), 0.0)
    np.testing.assert_allclose(f, ref_f, rtol=1e-12)
    np.testing.assert_allclose(G, ref_G, rtol=1e-9, atol=1e-12)
