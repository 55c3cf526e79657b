r"""BR+OR: sum over labels of the log odds ratio of feature presence.

The binary-relevance odds-ratio baseline of Lee & Kim (2016, Section 2, after
Chen, Huang, Tian & Qu 2009). For feature :math:`f` ("present" when its code
is non-zero, e.g. a word occurring in a document) and label :math:`l`, with
the 2x2 counts :math:`a = \#(f, l)`, :math:`b = \#(f, \neg l)`,
:math:`c = \#(\neg f, l)`, :math:`d = \#(\neg f, \neg l)`:

.. math::

    \mathrm{OR}(f, l) = \log \frac{P(f \mid l)\,(1 - P(f \mid \neg l))}
        {(1 - P(f \mid l))\,P(f \mid \neg l)}
      = \log \frac{(a + \alpha)(d + \alpha)}{(b + \alpha)(c + \alpha)},

with the probabilities estimated with additive smoothing :math:`\alpha`
(default 0.5, the Haldane-Anscombe correction, so that empty cells give
finite values; natural logarithm), and

.. math::

    J(f) = \sum_{l \in L} \mathrm{OR}(f, l).

The sum is of the signed values as in Chen et al., so features indicating the
presence of labels rank first (``absolute=True`` sums ``|OR|`` instead).
All 2x2 tables come from one sparse product ``X_b^T Y``.

- J. Chen, H. Huang, S. Tian, Y. Qu (2009). "Feature selection for text
  classification with Naive Bayes." Expert Syst. Appl. 36, pp. 5432-5435.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from mlfsbench.estimators.information.entropy import check_codes
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector


def log_odds_ratio_matrix(X, Y, alpha: float = 0.5) -> np.ndarray:
    """Smoothed log odds ratio of feature presence for every label.

    >>> X = np.array([[1], [1], [0], [0]]); Y = np.array([[1], [0], [0], [0]])
    >>> float(log_odds_ratio_matrix(X, Y, alpha=0.5)[0, 0].round(4))  # 1.5*2.5/(1.5*.5)
    1.6094
    """
    if alpha < 0:
        raise ValueError(f"alpha must be >= 0, got {alpha}")
    X = check_codes(X, "X")
    Xb = sp.csr_matrix(X != 0, dtype=float) if not sp.issparse(X) else (
        sp.csr_matrix((X != 0).astype(float))
    )
    Y = np.asarray(Y, dtype=float)
    n = Y.shape[0]
    a = np.asarray(Xb.T @ Y)  # (p, q)
    nf = np.asarray(Xb.sum(axis=0)).ravel()[:, None]
    nl = Y.sum(axis=0)[None, :]
    b = nf - a
    c = nl - a
    d = n - nf - nl + a
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (np.log(a + alpha) + np.log(d + alpha)
               - np.log(b + alpha) - np.log(c + alpha))
    return out


@register("selector", "br-or")
class BROddsRatio(BaseMultiLabelSelector):
    """BR+OR: rank features by the summed log odds ratio over labels.

    Parameters
    ----------
    alpha : float, default=0.5
        Additive smoothing of every cell of the 2x2 tables.
    absolute : bool, default=False
        Sum ``|OR(f, l)|`` instead of the signed values.
    n_features_to_select : int or None, default=None
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray (n_features,)
    odds_ratio_ : ndarray (n_features, n_labels)
        ``OR(f, l)`` (natural log).

    Examples
    --------
    >>> X = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    >>> Y = np.array([[1], [1], [0], [0]])
    >>> BROddsRatio().fit(X, Y).scores_.round(4).tolist()  # log(2.5**2/.5**2), 0
    [3.2189, 0.0]
    """

    input_kind = "discrete"

    def __init__(self, *, alpha=0.5, absolute=False, n_features_to_select=None,
                 random_state=None):
        super().__init__(
            n_features_to_select=n_features_to_select, random_state=random_state
        )
        self.alpha = alpha
        self.absolute = absolute

    def _fit(self, X, Y):
        self.odds_ratio_ = log_odds_ratio_matrix(X, Y, float(self.alpha))
        values = np.abs(self.odds_ratio_) if self.absolute else self.odds_ratio_
        return values.sum(axis=1)
