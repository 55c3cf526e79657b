r"""ICAP: interaction capping (Jakulin 2005).

A. Jakulin (2005), "Machine Learning Based on Attribute Interactions", PhD
thesis, University of Ljubljana. The redundancy of a candidate with a
selected feature counts only when it exceeds their class-conditional
redundancy -- the interaction information is capped at zero, so a
complementary pair is not rewarded; in the notation of Brown et al. (2012),
who list it among the non-linear low-order criteria,

.. math::

    J_{icap}(X_k) = I(X_k; Y) - \sum_{X_j \in S}
        \max\bigl[0,\; I(X_k; X_j) - I(X_k; X_j \mid Y)\bigr].

After a label transformation (:mod:`mlfsbench.estimators.selectors._pairwise`)
:math:`Y` is the LP or PPT class, or, for BR, the criterion is summed over
the labels, the cap applied per label.

Incremental update: selecting ``X_s`` subtracts, per target,
:math:`\max[0, I(X_k; Y_i) - I(X_k; Y_i \mid X_s)]` (the same difference by the
symmetry of the interaction information) from every candidate's criterion
(one
:func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`
call per step).
"""

from __future__ import annotations

import numpy as np

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._pairwise import (
    ATTRS_DOC,
    PARAMS_DOC,
    PairwiseCriterionSelector,
)


@register("selector", "icap")
class ICAP(PairwiseCriterionSelector):
    __doc__ = f"""ICAP after BR, LP or PPT (Jakulin 2005; Brown et al. 2012).

    ``J(X_k) = I(X_k;Y) - sum_(X_j in S) max[0, I(X_k;X_j) - I(X_k;X_j|Y)]``,
    summed over the labels for BR; see
    :mod:`mlfsbench.estimators.selectors.icap`.

    Parameters
    ----------{PARAMS_DOC}
    Attributes
    ----------{ATTRS_DOC}
    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2)
    >>> Y = np.column_stack([X[:, 0] ^ X[:, 1], X[:, 0]])
    >>> sel = ICAP().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 2, 1], [1.0, 0.0, 1.0])
    """

    def _criterion(self, terms):
        rel = self.relevance_
        mi = terms.mi

        def update(s):
            return np.maximum(mi - terms.conditional(s), 0.0).sum(axis=1)

        return (lambda acc, t: rel - acc), update
