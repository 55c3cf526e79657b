"""BR-LR with MATLAB glmfit's IRLS (``solver="irls-glmfit"``, issue #26).

Against statsmodels' GLM (binomial, IRLS) on labels that are not separable,
and on a hand-made separable label, where glmfit's iteration limit and
bounded linear predictor leave tied probabilities.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from mlfsbench.estimators.classifiers._glmfit import (
    GLMFIT_MAX_ITER,
    LOGIT_BOUND,
    fit_logistic_glmfit,
)
from mlfsbench.estimators.classifiers.br_lr import BRLogisticRegression

sm = pytest.importorskip("statsmodels.api")


@pytest.fixture(autouse=True)
def _one_thread():
    """One BLAS thread, as the workflow's jobs run (a threaded QR of many
    small matrices is many times slower on a loaded machine)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        yield


@pytest.fixture
def overlapping():
    """Three overlapping (not separable) labels, repeated binary-ish rows."""
    rng = np.random.RandomState(3)
    X = np.column_stack([rng.normal(size=300), rng.randint(0, 2, 300),
                         rng.randint(0, 3, 300).astype(float)])
    logits = X @ np.array([[1.0, -0.5, 0.3], [0.5, 1.0, 0.0], [-0.4, 0.2, 0.6]])
    Y = (rng.uniform(size=(300, 3)) < expit(logits - 0.2)).astype(int)
    return X, Y


def test_coefficients_equal_statsmodels_glm_binomial_irls(overlapping):
    X, Y = overlapping
    W, n_iter = fit_logistic_glmfit(X, Y)
    for label in range(Y.shape[1]):
        res = sm.GLM(Y[:, label], sm.add_constant(X),
                     family=sm.families.Binomial()).fit(method="IRLS", tol=1e-12)
        assert np.abs(W[:-1, label] - res.params[1:]).max() < 1e-6
        assert abs(W[-1, label] - res.params[0]) < 1e-6
    # converged well before glmfit's limit, each label on its own count
    assert (n_iter >= 3).all() and (n_iter < 20).all()
    # one label alone gives the same fit as within the batch
    W1, n1 = fit_logistic_glmfit(X, Y[:, [1]])
    np.testing.assert_allclose(W1[:, 0], W[:, 1], rtol=0, atol=1e-10)
    assert n1[0] == n_iter[1]


def test_classifier_probabilities_equal_statsmodels(overlapping):
    X, Y = overlapping
    Y = np.column_stack([Y, np.zeros(len(Y), int)])  # and a constant label
    clf = BRLogisticRegression(solver="irls-glmfit").fit(X, Y)
    X_test = np.array([[0.3, 1.0, 2.0], [-1.0, 0.0, 0.0]])
    proba = clf.predict_proba(X_test)
    res = sm.GLM(Y[:, 0], sm.add_constant(X), family=sm.families.Binomial()).fit()
    expected = res.predict(sm.add_constant(X_test, has_constant="add"))
    np.testing.assert_allclose(proba[:, 0], expected, atol=1e-8)
    assert (proba[:, 3] == 0.0).all() and clf.n_iter_[3] == 0


def test_separable_label_runs_to_the_limit_and_ties_scores():
    # y = 1 exactly when x > 1.5: separable; glmfit's coefficients grow at
    # every iteration, the linear predictor reaches the bound and the
    # probabilities of all rows on either side tie
    X = np.array([[0.0], [1.0], [2.0], [3.0], [0.5], [2.5]])
    Y = np.array([[0], [0], [1], [1], [0], [1]])
    clf = BRLogisticRegression(solver="irls-glmfit").fit(X, Y)
    assert clf.n_iter_[0] == GLMFIT_MAX_ITER + 1
    points = np.array([[-5.0], [0.0], [1.0], [2.0], [3.0], [9.0]])
    proba = clf.predict_proba(points)[:, 0]
    low, high = expit(-LOGIT_BOUND), expit(LOGIT_BOUND)
    assert LOGIT_BOUND == pytest.approx(36.04365338911715)
    assert proba.tolist() == [low, low, low, high, high, high]
    assert len(set(proba.tolist())) == 2  # six scores, two values
    # the L-BFGS fit leaves them apart (no bound on the linear predictor)
    lbfgs = BRLogisticRegression().fit(X, Y).predict_proba(points)[:, 0]
    assert len(set(lbfgs.tolist())) == 6
    np.testing.assert_array_equal(clf.predict(X), Y)


def test_dependent_column_gets_coefficient_zero(overlapping):
    X, Y = overlapping
    twin = np.column_stack([X, 2.0 * X[:, 1]])  # column 3 = 2 x column 1
    W, _ = fit_logistic_glmfit(twin, Y)
    W0, _ = fit_logistic_glmfit(X, Y)
    zero = np.flatnonzero((W[:-1] == 0).all(axis=1))
    assert zero.size == 1 and zero[0] in (1, 3)
    # the same fitted linear predictor as without the twin
    A = np.column_stack([twin, np.ones(len(X))])
    B = np.column_stack([X, np.ones(len(X))])
    np.testing.assert_allclose(A @ W, B @ W0, atol=1e-8)


def test_glmfit_solver_is_unregularised_only():
    X, Y = np.eye(4, 2), np.array([[0], [1], [0], [1]])
    with pytest.raises(ValueError, match="irls-glmfit"):
        BRLogisticRegression(solver="irls-glmfit", penalty="l2").fit(X, Y)


def test_grouped_identical_rows_equal_statsmodels():
    # discrete features: 12 distinct rows of 400, labels mixed within rows;
    # the grouped solves (weight = count, response from the group's share of
    # positives) give the ungrouped IRLS solution
    rng = np.random.RandomState(5)
    X = np.column_stack([rng.randint(0, 2, 400), rng.randint(0, 3, 400),
                         rng.randint(0, 2, 400)]).astype(float)
    assert len(np.unique(X, axis=0)) == 12
    Y = (rng.uniform(size=(400, 2)) < expit(X @ [[0.8, -0.6], [-0.5, 0.4],
                                                 [0.3, 0.9]] - 0.3)).astype(int)
    W, _ = fit_logistic_glmfit(X, Y)
    for label in range(2):
        res = sm.GLM(Y[:, label], sm.add_constant(X),
                     family=sm.families.Binomial()).fit(method="IRLS", tol=1e-12)
        assert np.abs(W[:-1, label] - res.params[1:]).max() < 1e-6
        assert abs(W[-1, label] - res.params[0]) < 1e-6


# --------------------------------------------------------------------------
# The batched normal equations (solver="cholesky", the default) against
# glmfit's own QR solves (solver="qr", the implementation before them)
# --------------------------------------------------------------------------
def _sparse_twin_design(rng, rows=300, cols=40, density=0.08):
    X = (rng.uniform(size=(rows, cols)) < density).astype(float)
    return np.column_stack([np.ones(rows), X])


@pytest.mark.parametrize(("density", "memory", "route"), [
    (0.08, 2**28, "sparse"),  # sparse pair products
    (0.6, 2**28, "gemm"),  # dense pair products, one product for all labels
    (0.6, 0, "syrk"),  # their matrix too large: one syrk per label
])
def test_gram_matrices_equal_the_direct_products(density, memory, route,
                                                 monkeypatch):
    from mlfsbench.estimators.classifiers import _glmfit

    monkeypatch.setattr(_glmfit, "_PAIRS_MEMORY", memory)
    monkeypatch.setattr(_glmfit, "_GEMM_LABELS", 2)
    rng = np.random.RandomState(0)
    D = _sparse_twin_design(rng, density=density)
    C = rng.uniform(0.1, 2.0, size=(D.shape[0], 3))
    gram = _glmfit._Gram(D)
    assert gram.route == route
    G = gram(C)
    for label in range(3):
        direct = D.T @ (D * C[:, [label]])
        lower = np.tril_indices(D.shape[1])
        np.testing.assert_allclose(G[label][lower], direct[lower], rtol=1e-13)


@pytest.fixture(scope="module")
def yeast_fold(shared_datasets):
    """Lee 2016's yeast protocol, one fold: 80/20 hold-out (seed 0), the
    2-bin equal-width codes of the training part."""
    from mlfsbench.data import load_mulan
    from mlfsbench.data.split import holdout_splits
    from mlfsbench.workflow.folds import discretize_fold

    folder = shared_datasets / "multi-label" / "yeast"
    ds = load_mulan([folder / "yeast-train.arff", folder / "yeast-test.arff"],
                    folder / "yeast.xml", name="yeast")
    train, test = holdout_splits(ds.Y, 0.2, 1, random_state=0)[0]
    X_train, X_test = discretize_fold(ds.X[train], ds.X[test],
                                      strategy="equal-width", bins=2)
    Y = np.asarray(ds.Y)
    return (X_train.astype(float), X_test.astype(float), Y[train], Y[test])


def _scores(W, X):
    return expit(np.clip(X @ W[:-1] + W[-1], -LOGIT_BOUND, LOGIT_BOUND))


def test_batched_cholesky_equals_qr_on_yeast(yeast_fold):
    # all 103 codes, 14 labels: 13 converge in 5-8 solves, one (the rarest)
    # is separable and runs to the limit
    X, X_test, Y, _ = yeast_fold
    W_qr, n_qr = fit_logistic_glmfit(X, Y, solver="qr")
    W, n_iter = fit_logistic_glmfit(X, Y)
    np.testing.assert_array_equal(n_iter, n_qr)  # same stopping iteration
    limit = n_iter == GLMFIT_MAX_ITER + 1
    assert limit.sum() == 1 and (n_iter[~limit] <= 8).all()
    # converged labels: the same coefficients far within glmfit's TolX
    # (1e-6 relative): both solutions are within ~kappa(S) eps <= 1e-10
    rel = np.abs(W - W_qr)[:, ~limit] / np.maximum(np.abs(W_qr[:, ~limit]), 1.0)
    assert rel.max() < 1e-9
    s_qr, s = _scores(W_qr, X_test), _scores(W, X_test)
    assert np.abs(s - s_qr)[:, ~limit].max() < 1e-12
    # the separable label: its weighted designs are ill-conditioned (the
    # rows past the bound weigh sqrt(eps)), its coefficients along the
    # directions only those rows determine are rounding noise in either
    # solver, yet its test scores agree, and so do the predictions
    assert np.abs(s - s_qr)[:, limit].max() < 1e-12
    np.testing.assert_array_equal(s >= 0.5, s_qr >= 0.5)


def test_ill_conditioned_solves_go_to_qr(yeast_fold, monkeypatch):
    from mlfsbench.estimators.classifiers import _glmfit

    X, _, Y, _ = yeast_fold
    rare = [int(np.argmin(Y.sum(axis=0)))]  # the separable label
    for key in _glmfit._stats:
        monkeypatch.setitem(_glmfit._stats, key, 0)
    _, n_iter = fit_logistic_glmfit(X, Y[:, rare], steady=False)
    assert n_iter[0] == GLMFIT_MAX_ITER + 1
    # 101 solves: the early ones by the normal equations, then, once the
    # scaled Gram matrix is past the rcond bound, all the rest by QR
    assert _glmfit._stats["cholesky"] + _glmfit._stats["qr"] == GLMFIT_MAX_ITER + 1
    assert _glmfit._stats["qr"] > 50 and _glmfit._stats["cholesky"] > 5
    # with its steady iterations taken at once: 14 + 32 solves (measured)
    for key in _glmfit._stats:
        monkeypatch.setitem(_glmfit._stats, key, 0)
    _, n_iter = fit_logistic_glmfit(X, Y[:, rare])
    assert n_iter[0] == GLMFIT_MAX_ITER + 1
    assert (_glmfit._stats["cholesky"], _glmfit._stats["qr"]) == (14, 32)


def test_batched_cholesky_keeps_the_separable_ties():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [0.5], [2.5]])
    Y = np.array([[0], [0], [1], [1], [0], [1]])
    points = np.array([[-5.0], [0.0], [1.0], [2.0], [3.0], [9.0]])
    W, n = fit_logistic_glmfit(X, Y)
    W_qr, n_qr = fit_logistic_glmfit(X, Y, solver="qr")
    assert n[0] == n_qr[0] == GLMFIT_MAX_ITER + 1
    low, high = expit(-LOGIT_BOUND), expit(LOGIT_BOUND)
    assert _scores(W, points)[:, 0].tolist() == [low, low, low, high, high, high]
    assert _scores(W_qr, points)[:, 0].tolist() == [low, low, low, high, high, high]


def test_first_solve_is_shared_and_equals_qr(overlapping):
    # one iteration only: the common start's single factorisation against
    # the per-row QR of the first solve
    X, Y = overlapping
    W, n = fit_logistic_glmfit(X, Y, max_iter=0)
    W_qr, n_qr = fit_logistic_glmfit(X, Y, max_iter=0, solver="qr")
    assert n.tolist() == n_qr.tolist() == [1, 1, 1]
    np.testing.assert_allclose(W, W_qr, rtol=1e-12, atol=1e-13)
    # by hand for the intercept-only model: b = (log 3 + 4/3)(2 rate - 1)
    W0, _ = fit_logistic_glmfit(np.zeros((4, 0)), np.array([[1], [1], [1], [0]]),
                                max_iter=0)
    assert W0[-1, 0] == pytest.approx((np.log(3.0) + 4.0 / 3.0) * 0.5, rel=1e-14)


def test_ill_conditioned_design_is_solved_by_qr_throughout(overlapping, monkeypatch):
    # a column within 1e-5 of another: the scaled Gram matrix of the design
    # has condition ~1e10 > 1 / GLM_RCOND, so no solve uses the normal
    # equations and the fit is the QR one
    from mlfsbench.estimators.classifiers import _glmfit

    X, Y = overlapping
    noise = 1e-5 * np.random.RandomState(1).normal(size=len(X))
    near = np.column_stack([X, X[:, 0] + noise])
    for key in _glmfit._stats:
        monkeypatch.setitem(_glmfit._stats, key, 0)
    W, n = fit_logistic_glmfit(near, Y)
    assert _glmfit._stats["cholesky"] == 0 and _glmfit._stats["qr"] == n.sum()
    W_qr, n_qr = fit_logistic_glmfit(near, Y, solver="qr")
    np.testing.assert_array_equal(n, n_qr)
    # the first solve is one QR for all labels (grouped rows) instead of
    # one per label on the original rows: the same solution to rounding,
    # amplified by the conditioning, far within TolX
    rel = np.abs(W - W_qr) / np.maximum(np.abs(W_qr), 1.0)
    assert rel.max() < 1e-7


# --------------------------------------------------------------------------
# Steady iterations taken at once (steady=True, the default) against every
# iteration solved (steady=False)
# --------------------------------------------------------------------------
def _count_solves(fit):
    from mlfsbench.estimators.classifiers import _glmfit

    for key in _glmfit._stats:
        _glmfit._stats[key] = 0
    out = fit()
    return out, sum(_glmfit._stats.values())


def test_steady_iterations_of_a_quasi_separated_label_are_taken_at_once():
    # column 0 is 1 on negatives only: its coefficient runs to -infinity
    # (quasi-complete separation) while the others converge; the rows it
    # moves pass the bound and then move by the same step every iteration
    rng = np.random.RandomState(3)
    X = rng.randint(0, 2, size=(200, 4)).astype(float)
    y = (rng.uniform(size=200) < 0.3 + 0.4 * X[:, 1]).astype(int)
    X[:, 0] = 0.0
    X[np.flatnonzero(y == 0)[:25], 0] = 1.0
    Y = np.column_stack([y, (rng.uniform(size=200) < 0.5).astype(int)])
    (W, n), solves = _count_solves(lambda: fit_logistic_glmfit(X, Y))
    (W1, n1), solves1 = _count_solves(lambda: fit_logistic_glmfit(X, Y, steady=False))
    assert n.tolist() == n1.tolist() and n[0] == GLMFIT_MAX_ITER + 1 and n[1] < 10
    assert solves < 0.7 * solves1  # the steady iterations were not solved
    assert W[0, 0] < -50  # the separating coefficient, taken to the limit
    np.testing.assert_allclose(W, W1, rtol=1e-9, atol=1e-9)
    # past the bound either way, the others equal: the same scores
    np.testing.assert_allclose(_scores(W, X), _scores(W1, X), rtol=0, atol=1e-12)
    # the qr reference solves every iteration
    W_qr, n_qr = fit_logistic_glmfit(X, Y, solver="qr")
    assert n_qr.tolist() == n.tolist()
    np.testing.assert_allclose(_scores(W_qr, X), _scores(W, X), rtol=0, atol=1e-9)


def test_a_completely_separated_label_is_iterated_until_every_row_is_past_the_bound():
    # the separable 1-d problem: every row moves, and crosses the bound at
    # its own iteration; the iterations are steady only once the last one
    # has (after the 41st solve here), and taken at once from there
    X = np.array([[0.0], [1.0], [2.0], [3.0], [0.5], [2.5]])
    Y = np.array([[0], [0], [1], [1], [0], [1]])
    (W, n), solves = _count_solves(lambda: fit_logistic_glmfit(X, Y))
    (W1, n1), solves1 = _count_solves(lambda: fit_logistic_glmfit(X, Y, steady=False))
    assert n.tolist() == n1.tolist() == [GLMFIT_MAX_ITER + 1]
    assert (solves, solves1) == (41, 101)
    eta = np.column_stack([np.ones(6), X]) @ np.array([W1[1, 0], W1[0, 0]])
    assert np.abs(eta).min() >= LOGIT_BOUND  # past the bound at the limit
    np.testing.assert_allclose(W, W1, rtol=1e-12)
    points = np.array([[-5.0], [0.0], [1.0], [2.0], [3.0], [9.0]])
    assert _scores(W, points).tolist() == _scores(W1, points).tolist()


def test_steady_iterations_on_genbase_keep_iterations_and_scores(shared_datasets):
    """Lee 2016's genbase protocol, one fold, the n = 20 codes: every live
    label runs to glmfit's limit; with the steady iterations taken at once,
    the same iterations, scores within 1e-11 and less than half the solves
    (measured: 1 672 of 2 727)."""
    from mlfsbench.data import load_mulan
    from mlfsbench.data.split import holdout_splits
    from mlfsbench.workflow.folds import discretize_fold

    folder = shared_datasets / "multi-label" / "genbase"
    with pytest.warns(UserWarning, match="identifier"):
        ds = load_mulan([folder / "genbase-train.arff", folder / "genbase-test.arff"],
                        folder / "genbase.xml", name="genbase")
    train, test = holdout_splits(ds.Y, 0.2, 1, random_state=0)[0]
    X_train, X_test = discretize_fold(ds.X[train], ds.X[test],
                                      strategy="equal-width", bins=2)
    X_train, X_test = np.asarray(X_train, float), np.asarray(X_test, float)
    Y = np.asarray(ds.Y.toarray() if hasattr(ds.Y, "toarray") else ds.Y)[train]
    live = np.flatnonzero((Y.sum(axis=0) > 0) & (Y.sum(axis=0) < len(Y)))
    cols = np.sort(np.argsort(-X_train.sum(axis=0), kind="stable")[:20])
    (W, n), solves = _count_solves(
        lambda: fit_logistic_glmfit(X_train[:, cols], Y[:, live]))
    (W1, n1), solves1 = _count_solves(
        lambda: fit_logistic_glmfit(X_train[:, cols], Y[:, live], steady=False))
    assert n.tolist() == n1.tolist() and (n == GLMFIT_MAX_ITER + 1).all()
    assert solves1 == 27 * (GLMFIT_MAX_ITER + 1) and solves < 0.7 * solves1
    S, S1 = _scores(W, X_test[:, cols]), _scores(W1, X_test[:, cols])
    np.testing.assert_allclose(S, S1, rtol=0, atol=1e-11)
    assert ((S >= 0.5) == (S1 >= 0.5)).all()
