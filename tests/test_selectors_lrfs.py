"""LRFS: label-redundancy feature selection (Zhang et al. 2019)."""

from __future__ import annotations

import numpy as np
import pytest

from mlfsbench.estimators import registry

from .pairwise_reference import H, cmi, fit_with_trace, mi, small_problem


def reference(X, Y, selected):
    """J(f) = sum_i sum_(j != i) I(f; l_j | l_i) - mean_(s in S) I(f; s)."""
    q = Y.shape[1]
    J = np.array([sum(cmi(X[:, k], Y[:, j], Y[:, i])
                      for i in range(q) for j in range(q) if j != i)
                  for k in range(X.shape[1])])
    if selected:
        J -= np.array([np.mean([mi(X[:, k], X[:, s]) for s in selected])
                       for k in range(X.shape[1])])
    return J


def hand_problem():
    """Labels (l0, l1) over 00, 01, 10, 11 twice; features l0, l0 XOR l1,
    and l0 wrong on row 0: [1, 0, 1, 1, 0, 0, 1, 1]."""
    Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 2, dtype=np.uint8)
    x2 = Y[:, 0].copy()
    x2[0] = 1
    return np.column_stack([Y[:, 0], Y[:, 0] ^ Y[:, 1], x2]), Y


def test_hand_values_and_picks():
    X, Y = hand_problem()
    sel, trace = fit_with_trace("lrfs", X, Y)
    # l0: I(l0; l1 | l0) = 0, I(l0; l0 | l1) = H(l0 | l1) = 1.
    # l0 XOR l1: determined by either label given the other: 1 + 1.
    # x2: (x2, l0) counts 1, 3, 4; (x2, l1) counts 3, 2, 2, 1; (x2, l0, l1)
    # counts 1, 2, 2, 2, 1; H(l0, l1) = 2, H(l0) = H(l1) = 1.
    x2_l1_given_l0 = H(1, 3, 4) + 2 - H(1, 2, 2, 2, 1) - 1
    x2_l0_given_l1 = H(3, 2, 2, 1) + 2 - H(1, 2, 2, 2, 1) - 1
    np.testing.assert_allclose(trace[0], [1.0, 2.0, x2_l1_given_l0 + x2_l0_given_l1],
                               atol=1e-12)
    assert trace[0][2] == pytest.approx(H(1, 3), abs=1e-12)  # = h(1/4)
    # step 2 (l0 XOR l1 selected): I(l0; XOR) = 0; I(x2; XOR) from (x2, XOR)
    # counts 3, 2, 2, 1, H(x2) = H(5, 3)
    i_x2_xor = H(5, 3) + 1 - H(3, 2, 2, 1)
    np.testing.assert_allclose(trace[1][[0, 2]], [1.0, trace[0][2] - i_x2_xor],
                               atol=1e-12)
    assert sel.ranking_.tolist() == [1, 0, 2]
    assert sel.scores_[1] == 2.0


def test_every_step_is_the_equation():
    X, Y = small_problem(seed=12, p=7, q=3)
    sel, trace = fit_with_trace("lrfs", X, Y)
    order = sel.ranking_.tolist()
    for step, J in enumerate(trace):
        rest = np.setdiff1d(np.arange(X.shape[1]), order[:step])
        np.testing.assert_allclose(J[rest], reference(X, Y, order[:step])[rest],
                                   atol=1e-12)


def test_one_label_has_no_relevance():
    X, Y = small_problem(seed=13, q=1)
    sel = registry.create("selector", "lrfs", {}).fit(X, Y)
    assert sel.relevance_.tolist() == [0.0] * X.shape[1]
