r"""DISR: double input symmetrical relevance (Meyer & Bontempi 2006).

P. E. Meyer, G. Bontempi (2006), "On the Use of Variable Complementarity for
Feature Selection in Cancer Classification", *EvoWorkshops*, LNCS 3907,
pp. 91-102. The joint information of the candidate and each selected feature
about the class, normalised by their joint entropy with the class (the
symmetrical relevance of the pair); in the notation of Brown et al. (2012),
who list it among the non-linear low-order criteria,

.. math::

    J_{disr}(X_k) = \sum_{X_j \in S} \frac{I(X_k X_j; Y)}{H(X_k X_j Y)}.

After a label transformation (:mod:`mlfsbench.estimators.selectors._pairwise`)
:math:`Y` is the LP or PPT class, or, for BR, the criterion is summed over
the labels, each term normalised by its own :math:`H(X_k X_j Y_i)`. The sum
is empty with nothing selected; the first feature is the one of highest
relevance (as in FEAST's ``DISR.c``). A term whose joint entropy is 0 (the
pair and the class all constant) counts 0.

Incremental update: selecting ``X_s`` adds, per target,
:math:`I(X_k X_s; Y) = I(X_s; Y) + I(X_k; Y \mid X_s)` (chain rule) over

.. math::

    H(X_k X_s Y) = H(X_k) + H(X_s) - I(X_k; X_s) + H(Y) - I(X_k X_s; Y),

from one
:func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`
call and one
:func:`~mlfsbench.estimators.information.entropy.mutual_information_matrix`
column per step (the entropies once).
"""

from __future__ import annotations

import numpy as np

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._pairwise import (
    ATTRS_DOC,
    PARAMS_DOC,
    PairwiseCriterionSelector,
)


@register("selector", "disr")
class DISR(PairwiseCriterionSelector):
    __doc__ = f"""DISR after BR, LP or PPT (Meyer & Bontempi 2006; Brown et al. 2012).

    ``J(X_k) = sum_(X_j in S) I(X_k X_j; Y) / H(X_k X_j Y)``, summed over the
    labels for BR; see :mod:`mlfsbench.estimators.selectors.disr`.

    Parameters
    ----------{PARAMS_DOC}
    Attributes
    ----------{ATTRS_DOC}
    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2)
    >>> Y = np.column_stack([X[:, 0] ^ X[:, 1], X[:, 0]])
    >>> sel = DISR().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 1, 2], [1.0, 1.0, 2.0])
    """

    def _criterion(self, terms):
        rel = self.relevance_
        mi = terms.mi
        h_x = terms.feature_entropies()
        h_t = terms.target_entropies()

        def update(s):
            joint = mi[s] + terms.conditional(s)  # I(X_k X_s; T_i)
            h_pair = h_x + h_x[s] - terms.redundancy(s)  # H(X_k X_s)
            h_all = h_pair[:, None] + h_t[None, :] - joint  # H(X_k X_s T_i)
            ratio = np.zeros_like(joint)
            np.divide(joint, h_all, out=ratio, where=h_all > 0)
            return ratio.sum(axis=1)

        return (lambda acc, t: acc if t else rel), update
