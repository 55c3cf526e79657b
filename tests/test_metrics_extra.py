"""RRMSE, feature reduction, and a check of normalized coverage."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import coverage_error, mean_squared_error, r2_score

from mlfsbench.evaluation.metrics import (
    coverage,
    feature_reduction,
    normalized_coverage,
    rrmse,
)


@pytest.fixture
def regression():
    rng = np.random.RandomState(0)
    Y = rng.normal(size=(40, 3)) * [1.0, 5.0, 0.1] + [0.0, 10.0, -3.0]
    P = Y + rng.normal(size=(40, 3)) * [0.5, 1.0, 0.2]
    return Y, P


def test_rrmse_hand_values():
    Y = np.array([[1.0, 0.0], [3.0, 4.0]])
    P = np.array([[2.0, 1.0], [2.0, 3.0]])
    # target 0: errors 1, 1 vs deviations from the test mean 2: 1, 1 -> 1
    # target 1: errors 1, 1 vs deviations from 2: 2, 2 -> sqrt(2 / 8) = 0.5
    assert rrmse(Y, P, per_target=True).tolist() == [1.0, 0.5]
    assert rrmse(Y, P) == 0.75
    # training means 0 and 0: deviations 1, 3 and 0, 4
    np.testing.assert_allclose(rrmse(Y, P, train_mean=[0.0, 0.0], per_target=True),
                               [np.sqrt(2 / 10), np.sqrt(2 / 16)])


def test_rrmse_against_sklearn(regression):
    Y, P = regression
    train_mean = np.array([0.3, 9.0, -2.9])
    mse = mean_squared_error(Y, P, multioutput="raw_values")
    ref = mean_squared_error(Y, np.broadcast_to(train_mean, Y.shape),
                             multioutput="raw_values")
    np.testing.assert_allclose(rrmse(Y, P, train_mean, per_target=True),
                               np.sqrt(mse / ref))
    # with the test mean as reference, RRMSE_t = sqrt(1 - R^2_t)
    r2 = r2_score(Y, P, multioutput="raw_values")
    np.testing.assert_allclose(rrmse(Y, P, per_target=True), np.sqrt(1 - r2))
    assert rrmse(Y, P) == pytest.approx(np.mean(np.sqrt(1 - r2)))


def test_rrmse_of_the_mean_predictor_is_one(regression):
    Y, _ = regression
    m = np.array([1.0, 2.0, 3.0])
    assert rrmse(Y, np.broadcast_to(m, Y.shape), train_mean=m) == pytest.approx(1.0)
    assert rrmse(Y, Y) == 0.0


def test_rrmse_one_dimensional_and_errors():
    assert rrmse([1.0, 2.0, 3.0], [1.0, 2.0, 4.0]) == pytest.approx(np.sqrt(1 / 2))
    with pytest.raises(ValueError, match="same"):
        rrmse(np.zeros((3, 2)), np.zeros((3, 1)))
    with pytest.raises(ValueError, match="undefined"):
        rrmse([[1.0], [1.0]], [[1.0], [2.0]])
    with pytest.raises(ValueError, match="train_mean"):
        rrmse([[1.0], [2.0]], [[1.0], [2.0]], train_mean=[1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        rrmse([[np.nan], [2.0]], [[1.0], [2.0]])


def test_feature_reduction_eq10():
    assert feature_reduction(25, 100) == 75.0
    assert feature_reduction(0, 50) == 100.0
    assert feature_reduction(50, 50) == 0.0
    # enron, 1001 features: IG-BR keeps 0.45 % -> 99.55 % reduction (Table 3)
    assert feature_reduction(4.5045, 1001) == pytest.approx(99.55, abs=1e-3)
    np.testing.assert_allclose(feature_reduction([10, 20], 40), [75.0, 50.0])
    with pytest.raises(ValueError):
        feature_reduction(11, 10)
    with pytest.raises(ValueError):
        feature_reduction(1, 0)


def test_normalized_coverage_is_coverage_over_q():
    rng = np.random.RandomState(2)
    T = (rng.uniform(size=(30, 6)) < 0.3).astype(int)
    T[T.sum(axis=1) == 0, 0] = 1
    S = rng.uniform(size=(30, 6))  # no ties: sklearn's coverage_error applies
    assert coverage(T, S) == pytest.approx(coverage_error(T, S) - 1)
    assert normalized_coverage(T, S) == pytest.approx((coverage_error(T, S) - 1) / 6)
