"""BR-LR with MATLAB glmfit's IRLS (``solver="irls-glmfit"``, issue #26).

Against statsmodels' GLM (binomial, IRLS) on labels that are not separable,
and on a hand-made separable label, where glmfit's iteration limit and
bounded linear predictor leave tied probabilities.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from mlfsbench.estimators.classifiers.br_lr import (
    GLMFIT_MAX_ITER,
    LOGIT_BOUND,
    BRLogisticRegression,
    fit_logistic_glmfit,
)

sm = pytest.importorskip("statsmodels.api")


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
