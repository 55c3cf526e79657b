"""The artificial problems of Doquire & Verleysen (2013), Sec. 5.1.

G. Doquire and M. Verleysen, "Mutual information-based feature selection for
multilabel classification", *Neurocomputing* 122:148-155, 2013. The claims
stage (:mod:`mlfsbench.report.claims`, rule ``artificial``) runs a selector on
fresh draws of these problems (:func:`mlfsbench.evaluation.artificial.run_problem`);
the tests share them too. This module only generates data: it knows no
method.
Feature indices are 0-based (the paper's f1 is 0).
"""

from __future__ import annotations

import numpy as np


def problem1(seed: int, n: int = 1000) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 9: f1..f10 uniform, f11..f15 derived; 4 labels.

    Returns continuous ``X`` (n, 15) and 0/1 ``Y`` (n, 4) of int.

    >>> X, Y = problem1(0, n=5)
    >>> X.shape, Y.shape
    ((5, 15), (5, 4))
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


def problem2(seed: int, n: int = 1000) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 10: 8 uniform features; labels are XNORs of pairs of f1..f4.

    Returns continuous ``X`` (n, 8) and 0/1 ``Y`` (n, 4) of int.
    """
    rng = np.random.default_rng(seed)
    F = rng.random((n, 8))
    h = F > 0.5
    Y = np.column_stack([h[:, 0] == h[:, 1], h[:, 2] == h[:, 3],
                         h[:, 0] == h[:, 3], h[:, 1] == h[:, 2]]).astype(int)
    return F, Y


PROBLEMS = {1: problem1, 2: problem2}
