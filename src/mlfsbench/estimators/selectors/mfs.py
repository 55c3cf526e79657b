r"""MFS: the multi-label F-statistic (Kong, Ding, Huang & Zhao 2012).

The F-statistic (between-class over within-class variance, ANOVA) extended to
multi-label data by letting an instance belong to every class (label) it is
relevant to, as in multi-label LDA. With :math:`Y_{ik} \in \{0, 1\}`,
:math:`n_k = \sum_i Y_{ik}` the size of class :math:`k` and for one feature
:math:`x`:

.. math::

    m_k = \frac{1}{n_k} \sum_i Y_{ik} x_i, \qquad
    m = \frac{\sum_k n_k m_k}{\sum_k n_k}, \\
    S_b = \sum_k n_k (m_k - m)^2, \qquad
    S_w = \sum_k \sum_i Y_{ik} (x_i - m_k)^2, \qquad
    F = \frac{N - K}{K - 1} \frac{S_b}{S_w},

where :math:`K` is the number of labels with :math:`n_k > 0` and
:math:`N = \sum_k n_k` the number of (instance, label) memberships (an
instance with two labels counts twice, and an instance without labels not at
all). The factor :math:`(N-K)/(K-1)` is common to all features and does not
change the ranking. A feature constant within every class has :math:`S_w = 0`:
its score is :math:`+\infty` when :math:`S_b > 0` (perfect separation) and 0
otherwise. All sums are matrix products with ``Y``.

- D. Kong, C. Ding, H. Huang, H. Zhao (2012). "Multi-label ReliefF and
  F-statistic feature selections for image annotation." CVPR, pp. 2352-2359.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector


def multilabel_f_statistic(X, Y) -> np.ndarray:
    """Multi-label F-statistic of every feature (see the module docstring).

    >>> X = np.array([[0.0], [0.2], [1.0], [1.2]])
    >>> multilabel_f_statistic(X, np.array([[1, 0], [1, 0], [0, 1], [0, 1]]))
    array([50.])
    """
    X = X.toarray() if sp.issparse(X) else np.asarray(X)
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    nk = Y.sum(axis=0)
    present = nk > 0
    Y, nk = Y[:, present], nk[present]
    K = nk.size
    N = nk.sum()
    p = X.shape[1]
    if K < 2 or N <= K:
        return np.zeros(p)
    m = (Y.T @ X).sum(axis=0) / N  # membership-weighted grand mean
    Xc = X - m
    sums = Y.T @ Xc  # (K, p)
    means = sums / nk[:, None]
    sb = (nk[:, None] * means**2).sum(axis=0)
    sw = (Y.T @ Xc**2).sum(axis=0) - sb
    sw = np.maximum(sw, 0.0)
    factor = (N - K) / (K - 1)
    tiny = 1e-12 * np.maximum((Y.T @ Xc**2).sum(axis=0), 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        F = np.where(sw > tiny, factor * sb / sw, np.where(sb > tiny, np.inf, 0.0))
    return F


@register("selector", "mfs")
class MultiLabelFStatistic(BaseMultiLabelSelector):
    """MFS: rank features by the multi-label F-statistic (Kong et al. 2012).

    Parameters
    ----------
    n_features_to_select : int or None, default=None
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray (n_features,)

    Examples
    --------
    >>> X = np.array([[0.0, 5.0], [0.2, 1.0], [1.0, 4.0], [1.2, 2.0]])
    >>> Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1]])
    >>> MultiLabelFStatistic().fit(X, Y).ranking_.tolist()
    [0, 1]
    """

    input_kind = "continuous"

    def _fit(self, X, Y):
        return multilabel_f_statistic(X, Y)  # X checked 2-D and finite by fit
