r"""CIFE: conditional infomax feature extraction (Lin & Tang 2006).

D. Lin, X. Tang (2006), "Conditional Infomax Learning: An Integrated
Framework for Feature Extraction and Fusion", *ECCV*, pp. 68-82. Brown et al.
(2012) derive it as the conditional-likelihood criterion
:math:`I(X_k; Y \mid S)` under their two independence assumptions (the
selected features pairwise independent, and independent given the class),
the linear criterion with both weights 1:

.. math::

    J_{cife}(X_k) = I(X_k; Y) - \sum_{X_j \in S} I(X_k; X_j)
        + \sum_{X_j \in S} I(X_k; X_j \mid Y).

After a label transformation (:mod:`mlfsbench.estimators.selectors._pairwise`)
:math:`Y` is the LP or PPT class, or, for BR, the criterion is summed over
the labels (the redundancy :math:`\sum_j I(X_k; X_j)` counted once per
label). FEAST computes it as ``BetaGamma`` with :math:`\beta = \gamma = 1`.

Incremental update: selecting ``X_s`` subtracts, per target,
:math:`I(X_k; X_s) - I(X_k; X_s \mid Y_i) = I(X_k; Y_i) - I(X_k; Y_i \mid X_s)`
from every candidate's criterion (one
:func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`
call per step).
"""

from __future__ import annotations

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._pairwise import (
    ATTRS_DOC,
    PARAMS_DOC,
    PairwiseCriterionSelector,
)


@register("selector", "cife")
class CIFE(PairwiseCriterionSelector):
    __doc__ = f"""CIFE after BR, LP or PPT (Lin & Tang 2006; Brown et al. 2012).

    ``J(X_k) = I(X_k;Y) - sum_(X_j in S) [I(X_k;X_j) - I(X_k;X_j|Y)]``,
    summed over the labels for BR; see
    :mod:`mlfsbench.estimators.selectors.cife`.

    Parameters
    ----------{PARAMS_DOC}
    Attributes
    ----------{ATTRS_DOC}
    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2)
    >>> Y = np.column_stack([X[:, 0] ^ X[:, 1], X[:, 0]])
    >>> sel = CIFE().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 1, 2], [1.0, 1.0, 2.0])
    """

    def _criterion(self, terms):
        rel = self.relevance_

        def update(s):
            return rel - terms.conditional(s).sum(axis=1)

        return (lambda acc, t: rel - acc), update
