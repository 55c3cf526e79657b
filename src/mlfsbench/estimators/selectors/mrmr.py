r"""mRMR: minimum redundancy, maximum relevance, difference form (Peng et al. 2005).

H. Peng, F. Long, C. Ding (2005), "Feature Selection Based on Mutual
Information: Criteria of Max-Dependency, Max-Relevance, and Min-Redundancy",
*IEEE TPAMI* 27(8):1226-1238. The incremental search of the "MID"
(mutual-information difference) form adds the candidate of largest relevance
less its mean redundancy with the selected features; Brown et al. (2012)
write it as the linear criterion with redundancy weight :math:`1/|S|` and no
conditional term,

.. math::

    J_{mrmr}(X_k) = I(X_k; Y) - \frac{1}{|S|} \sum_{X_j \in S} I(X_k; X_j).

After a label transformation (:mod:`mlfsbench.estimators.selectors._pairwise`)
:math:`Y` is the LP or PPT class, or, for BR, the criterion is summed over
the ``q`` labels, :math:`\sum_i I(X_k; Y_i) - \frac{q}{|S|} \sum_j I(X_k;
X_j)`: ``q`` times the mean relevance over the labels less the mean
redundancy, the criterion of Li et al. (2017, Eq. 16) with one granule
holding every label (``granular-mrmr`` with ``granules=1`` selects the same
features; tested). FEAST's ``mRMR_D`` computes the single-class criterion.

Incremental update: selecting ``X_s`` adds :math:`I(X_k; X_s)` (one
:func:`~mlfsbench.estimators.information.entropy.mutual_information_matrix`
column) to a running sum, divided by ``|S|`` when scoring.
"""

from __future__ import annotations

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._pairwise import (
    ATTRS_DOC,
    PARAMS_DOC,
    PairwiseCriterionSelector,
)


@register("selector", "mrmr")
class MRMR(PairwiseCriterionSelector):
    __doc__ = f"""mRMR (difference form) after BR, LP or PPT (Peng et al. 2005).

    ``J(X_k) = I(X_k;Y) - mean_(X_j in S) I(X_k;X_j)``, summed over the labels
    for BR; see :mod:`mlfsbench.estimators.selectors.mrmr`.

    Parameters
    ----------{PARAMS_DOC}
    Attributes
    ----------{ATTRS_DOC}
    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2)
    >>> Y = np.column_stack([X[:, 0] ^ X[:, 1], X[:, 0]])
    >>> sel = MRMR().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 2, 1], [1.0, 0.0, 1.0])
    """

    def _criterion(self, terms):
        rel = self.relevance_
        q = terms.n_targets

        def update(s):
            return q * terms.redundancy(s)

        return (lambda acc, t: rel - acc / t if t else rel), update
