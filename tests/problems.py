"""The artificial problems of Doquire & Verleysen (2013), shared by the tests.

G. Doquire and M. Verleysen, "Mutual information-based feature selection for
multilabel classification", *Neurocomputing* 122:148-155, 2013, Sec. 5.1.
Test modules import them relatively (``from .problems import problem1``).
"""

from __future__ import annotations

import numpy as np

from mlfsbench.estimators.discretizers.unsupervised import make_discretizer


def problem1(seed, n=1000):
    """Eq. 9: f1..f10 uniform, f11..f15 derived; 4 labels (0-based indices).

    Returns continuous ``X`` (n, 15) and 0/1 ``Y`` (n, 4) of int.
    """
    rng = np.random.default_rng(seed)
    F = rng.random((n, 10))
    X = np.column_stack([F, (F[:, 0] - F[:, 1]) / 2, (F[:, 0] + F[:, 1]) / 2,
                         F[:, 2] + 0.1, F[:, 3] - 0.2, 2 * F[:, 4]])
    o1 = F[:, 0] > F[:, 1]
    o2 = F[:, 3] > F[:, 2]
    o3 = o1 != o2
    o4 = F[:, 4] > 0.8
    return X, np.column_stack([o1, o2, o3, o4]).astype(int)


def problem2(seed, n=1000):
    """Eq. 10: 8 uniform features; labels are XNORs of pairs of f1..f4.

    Returns continuous ``X`` (n, 8) and 0/1 ``Y`` (n, 4) of int.
    """
    rng = np.random.default_rng(seed)
    F = rng.random((n, 8))
    h = F > 0.5
    Y = np.column_stack([h[:, 0] == h[:, 1], h[:, 2] == h[:, 3],
                         h[:, 0] == h[:, 3], h[:, 1] == h[:, 2]]).astype(int)
    return F, Y


def equal_width_codes(X):
    """``X`` discretized into 5 equal-width bins (the workflow's discretize stage)."""
    return make_discretizer("equal-width", 5).fit_transform(X)


def problem1_codes(seed, n=1000):
    """:func:`problem1` with ``X`` as 5-bin equal-width codes and ``Y`` uint8."""
    X, Y = problem1(seed, n)
    return equal_width_codes(X), Y.astype(np.uint8)


def problem2_codes(seed, n=1000):
    """:func:`problem2` with ``X`` as 5-bin equal-width codes and ``Y`` uint8."""
    X, Y = problem2(seed, n)
    return equal_width_codes(X), Y.astype(np.uint8)
