"""The artificial problems of Doquire & Verleysen (2013), shared by the tests.

The generators live in :mod:`mlfsbench.data.artificial` (the claims stage runs
them too); the discretized variants are the tests' own.

G. Doquire and M. Verleysen, "Mutual information-based feature selection for
multilabel classification", *Neurocomputing* 122:148-155, 2013, Sec. 5.1.
Test modules import them relatively (``from .problems import problem1``).
"""

from __future__ import annotations

import numpy as np

from mlfsbench.data.artificial import problem1, problem2
from mlfsbench.estimators.discretizers.unsupervised import make_discretizer

__all__ = ["problem1", "problem2", "equal_width_codes", "problem1_codes",
           "problem2_codes"]


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
