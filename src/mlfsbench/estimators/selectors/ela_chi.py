r"""ELA+CHI: chi-squared statistic on the entropy-based label assignment.

The labels are transformed by ELA (Chen et al. 2007,
:class:`mlfsbench.estimators.transformations.ela.EntropyBasedLabelAssignment`): instance
``i`` is copied once per relevant label with weight ``1/|Y_i|``. Each feature
is scored by Pearson's chi-squared statistic of its contingency table against
the resulting single-label class, computed on the weighted copies
(Lee & Kim 2016, Section 2, baseline "ELA + CHI"):

.. math::

    \chi^2(f) = \sum_{v, c} \frac{(O_{vc} - E_{vc})^2}{E_{vc}}, \qquad
    O_{vc} = \sum_i w_{i,c} [f_i = v], \quad
    E_{vc} = \frac{O_{v\cdot} O_{\cdot c}}{N},

with :math:`N = \sum_{v,c} O_{vc}` the total weight (the number of instances
with at least one label); cells with :math:`E_{vc} = 0` contribute nothing.
All weighted tables come from one sparse product of the feature-value
indicators with the copy-weight matrix; the copies are never materialised.

- W. Chen, J. Yan, B. Zhang, Z. Chen, Q. Yang (2007). "Document Transformation
  for Multi-label Feature Selection in Text Categorization." ICDM.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import StrOptions

from mlfsbench.estimators.information.entropy import check_codes, value_indicators
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector
from mlfsbench.estimators.transformations.ela import EntropyBasedLabelAssignment


def weighted_tables(X, W) -> np.ndarray:
    """``T[j, v, c] = sum_i W[i, c] * [X[i, j] == v]`` for integer codes ``X``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Non-negative integer codes (sparse: implicit zeros are code 0).
    W : array-like or sparse matrix of shape (n_samples, n_classes)
        Weight of each sample in each class.

    Returns
    -------
    ndarray of shape (n_features, max_code + 1, n_classes)

    Examples
    --------
    >>> weighted_tables(np.array([[0], [1], [1]]), np.array([[1.0], [0.5], [0.5]]))[0]
    array([[1.],
           [1.]])
    """
    X = check_codes(X, "X")
    W = sp.csr_matrix(W, dtype=float)
    p = X.shape[1]
    # sparse input: code 0 = everything not stored, from the class totals
    A, column_of, value_of = value_indicators(X, zero=not sp.issparse(X))
    V = int(value_of.max()) + 1 if value_of.size else 1
    # column-major like the product, so that the sums below add in one order
    flat = np.zeros((p * V, W.shape[1]), order="F")
    flat[column_of * V + value_of] = (sp.csr_matrix(A).T @ W).toarray()
    T = flat.reshape(p, V, W.shape[1])
    if sp.issparse(X):
        total = np.asarray(W.sum(axis=0)).ravel()
        T[:, 0, :] = total[None, :] - T[:, 1:, :].sum(axis=1)
    return T

def chi2_from_tables(T: np.ndarray) -> np.ndarray:
    """Pearson's chi-squared of each ``(values x classes)`` table ``T[j]``.

    Uses ``chi2 = N * sum O^2 / (O_v. O_.c) - N`` over the cells with
    non-zero expected count (equal to the usual sum).

    >>> chi2_from_tables(np.array([[[10.0, 0.0], [0.0, 10.0]]]))
    array([20.])
    """
    row = T.sum(axis=2)  # (p, V)
    col = T.sum(axis=1)  # (p, c)
    N = row.sum(axis=1)  # (p,)
    denom = row[:, :, None] * col[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(denom > 0, T**2 / denom, 0.0)
    chi2 = N * ratio.sum(axis=(1, 2)) - N
    return np.maximum(chi2, 0.0)


@register("selector", "ela-chi")
class ELAChi2(BaseMultiLabelSelector):
    """ELA+CHI: chi-squared of each feature against the ELA class.

    Parameters
    ----------
    empty : {"drop", "label"}, default="drop"
        ELA's treatment of instances with no label (see
        :class:`~mlfsbench.estimators.transformations.ela.EntropyBasedLabelAssignment`).
    n_features_to_select : int or None, default=None
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        Weighted chi-squared statistics.

    Examples
    --------
    >>> X = np.array([[1], [0], [1], [0]])
    >>> Y = np.array([[1, 0], [0, 1], [1, 1], [0, 1]])
    >>> ELAChi2().fit(X, Y).scores_.round(4).tolist()  # table [[0, 2], [1.5, .5]]
    [2.4]
    """

    input_kind = "discrete"

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "empty": [StrOptions({"drop", "label"})],
    }

    def __init__(self, *, empty="drop", n_features_to_select=None,
                 random_state=None):
        super().__init__(
            n_features_to_select=n_features_to_select, random_state=random_state
        )
        self.empty = empty

    def _fit(self, X, Y):
        ela = EntropyBasedLabelAssignment(empty=self.empty).fit(Y)
        return chi2_from_tables(weighted_tables(X, ela.weight_matrix(Y)))
