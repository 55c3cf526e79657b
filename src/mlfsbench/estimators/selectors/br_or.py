r"""BR+OR: the multi-class odds ratio (MOR) of feature presence over labels.

The binary-relevance odds-ratio baseline of Lee & Kim (2016, Section 2), which
cites Chen, Huang, Tian & Qu (2009) for the score. Chen et al. define the
odds ratio of a term :math:`t` for class :math:`C_i` against the rest,

.. math::

    \mathrm{OR}(t, C_i) = \log \frac{P(t \mid C_i)\,(1 - P(t \mid \bar C_i))}
        {(1 - P(t \mid C_i))\,P(t \mid \bar C_i)},

and their multi-class odds ratio sums its *absolute* values over the classes,
:math:`\mathrm{MOR}(t) = \sum_i |\mathrm{OR}(t, C_i)|`. Under binary
relevance every label :math:`l` is one such one-vs-rest problem, so with the
2x2 counts :math:`a = \#(f, l)`, :math:`b = \#(f, \neg l)`,
:math:`c = \#(\neg f, l)`, :math:`d = \#(\neg f, \neg l)` ("present" = a
non-zero code, e.g. a word occurring in a document):

.. math::

    \mathrm{OR}(f, l) = \log \frac{(a + \alpha)(d + \alpha)}{(b + \alpha)(c + \alpha)},
    \qquad J(f) = \sum_{l \in L} |\mathrm{OR}(f, l)|,

with additive smoothing :math:`\alpha` of every cell (default 0.5, the
Haldane-Anscombe correction, so that empty cells give finite values; natural
logarithm).

A feature that is constant in the training part (never or always present)
has no 2x2 table to speak of: :math:`P(f \mid l) = P(f \mid \neg l)` is 0
or 1, the odds ratio is 0/0, and the feature carries no information about
any label, so it scores 0. Smoothing the cells instead
would give it :math:`\log((n - n_l + \alpha)/(n_l + \alpha))` per label,
the label's own odds, which is largest for the rarest labels: with that
reading all 50 features the baseline selected on genbase were constant in
the training part and BR-LR predicted no label. The same holds for a
constant label (no one-vs-rest problem): its terms are 0.

``absolute=False`` sums the signed values instead (features indicating the
presence of labels first), this project's earlier reading.
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

    Pairs whose feature or label is constant (a zero margin of the 2x2
    table: the odds ratio is undefined) are 0.

    >>> X = np.array([[1], [1], [0], [0]]); Y = np.array([[1], [0], [0], [0]])
    >>> float(log_odds_ratio_matrix(X, Y, alpha=0.5)[0, 0].round(4))  # 1.5*2.5/(1.5*.5)
    1.6094
    >>> float(log_odds_ratio_matrix(np.zeros((4, 1)), Y)[0, 0])  # never present
    0.0
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
    undefined = (nf == 0) | (nf == n) | (nl == 0) | (nl == n)  # (p, q) by broadcast
    out[undefined] = 0.0
    return out


@register("selector", "br-or")
class BROddsRatio(BaseMultiLabelSelector):
    """BR+OR: rank features by the multi-class odds ratio (Chen et al. 2009).

    Parameters
    ----------
    alpha : float, default=0.5
        Additive smoothing of every cell of the 2x2 tables.
    absolute : bool, default=True
        Sum ``|OR(f, l)|`` (Chen et al.'s MOR); ``False`` sums the signed
        values.
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
    >>> X[:, 1] = 0  # never present: no information, scores 0
    >>> BROddsRatio().fit(X, Y).scores_.round(4).tolist()
    [3.2189, 0.0]
    """

    input_kind = "discrete"

    def __init__(self, *, alpha=0.5, absolute=True, n_features_to_select=None,
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
