r"""BR+CC: sum over labels of the absolute Pearson correlation.

The binary-relevance correlation baseline of Lee & Kim (2016, Section 2, after
Jungjit et al. 2013): each feature is scored by

.. math::

    J(f) = \sum_{l \in L} |r(f, l)|, \qquad
    r(f, l) = \frac{\sum_i (f_i - \bar f)(l_i - \bar l)}
        {\sqrt{\sum_i (f_i - \bar f)^2 \sum_i (l_i - \bar l)^2}},

where :math:`r` is Pearson's correlation coefficient; a constant feature or
label has :math:`r = 0`. All feature-label pairs come from one matrix product
(``X_c^T Y`` with centred features and the sparse label matrix, or from the
raw sums when ``X`` is sparse, which is never densified).

- S. Jungjit, M. Michaelis, A. A. Freitas, J. Cinatl (2013). "Two extensions
  to multi-label correlation-based feature selection: A case study in
  bioinformatics." IEEE SMC.
- J. Lee, D.-W. Kim (2016). Entropy 18(11), 405.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector


def pearson_matrix(X, Y) -> np.ndarray:
    """Pearson ``r(X_j, Y_k)`` for all pairs; 0 where a column is constant.

    >>> X = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    >>> pearson_matrix(X, np.array([[0], [1], [1]])).round(4).tolist()
    [[0.866], [0.0]]
    """
    Ys = sp.csr_matrix(np.asarray(Y), dtype=float)  # labels are mostly zeros
    n = Ys.shape[0]
    if X.shape[0] != n:
        raise ValueError(f"X has {X.shape[0]} samples but Y has {n}")
    y_mean = np.asarray(Ys.mean(axis=0)).ravel()
    y_sq = np.asarray(Ys.multiply(Ys).sum(axis=0)).ravel() - n * y_mean**2
    y_norm = np.sqrt(np.maximum(y_sq, 0.0))
    if sp.issparse(X):
        X = sp.csc_matrix(X, dtype=float)
        mean = np.asarray(X.mean(axis=0)).ravel()
        # sum_i (x_i - mean_x)(y_i - mean_y) = x^T y - n mean_x mean_y
        cov = np.asarray((X.T @ Ys).toarray()) - n * np.outer(mean, y_mean)
        raw = np.asarray(X.multiply(X).sum(axis=0)).ravel()
        sq = raw - n * mean**2
        # a constant column leaves only rounding noise of the raw sum of squares
        sq[sq <= 1e-12 * raw] = 0.0
        x_norm = np.sqrt(np.maximum(sq, 0.0))
    else:
        X = np.asarray(X, dtype=float)
        Xc = X - X.mean(axis=0)
        # the centred columns sum to 0, so Xc^T (Y - mean_y) = Xc^T Y: a sparse
        # product with the label matrix
        cov = np.asarray((Ys.T @ Xc).T)
        x_norm = np.sqrt((Xc**2).sum(axis=0))
    denom = x_norm[:, None] * y_norm[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(denom > 0, cov / denom, 0.0)
    return np.clip(r, -1.0, 1.0)


@register("selector", "br-cc")
class BRCorrelation(BaseMultiLabelSelector):
    """BR+CC: rank features by ``sum_l |r(f, l)|`` (Pearson correlation).

    Parameters
    ----------
    n_features_to_select : int or None, default=None
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        Sum of absolute correlations.
    correlation_ : ndarray (n_features, n_labels)
        Signed ``r(X_j, Y_k)``.

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [3.0, 5.0]])
    >>> Y = np.array([[0, 1], [0, 1], [1, 0], [1, 0]])
    >>> BRCorrelation().fit(X, Y).scores_.round(4).tolist()
    [1.7889, 0.7811]
    """

    input_kind = "continuous"

    def _fit(self, X, Y):
        self.correlation_ = pearson_matrix(X, Y)  # X checked 2-D and finite by fit
        return np.abs(self.correlation_).sum(axis=1)
