r"""CMIM: conditional mutual information maximisation (Fleuret 2004).

F. Fleuret (2004), "Fast Binary Feature Selection with Conditional Mutual
Information", *JMLR* 5:1531-1555. Each step adds the candidate whose
information about the class, given the selected feature it is most redundant
with, is largest; in the notation of Brown et al. (2012), who list it among
the non-linear low-order criteria,

.. math::

    J_{cmim}(X_k) = \min_{X_j \in S} I(X_k; Y \mid X_j)
        = I(X_k; Y) - \max_{X_j \in S} \bigl[ I(X_k; X_j) - I(X_k; X_j \mid Y) \bigr].

After a label transformation (:mod:`mlfsbench.estimators.selectors._pairwise`):
:math:`Y` is the LP or PPT class, or, for BR, the criterion is summed over
the labels, :math:`\sum_i \min_{X_j \in S} I(X_k; Y_i \mid X_j)` (the
minimum taken per label). With nothing selected the criterion is the
relevance :math:`\sum_i I(X_k; Y_i)`.

FEAST's ``CMIM.c`` (Fleuret's fast algorithm) starts every candidate's
partial score at :math:`I(X_k; Y)` and lowers it by each
:math:`I(X_k; Y \mid X_j)`, so it computes
:math:`\min(I(X_k; Y), \min_j I(X_k; Y \mid X_j))`: the same as the equation
unless a candidate gains information from *every* selected feature
(:math:`I(X_k; Y \mid X_j) > I(X_k; Y)` for all ``j``, synergy), which is
not rare on real data (yeast's LP class: the two differ from the second
pick). ``variant="equation"`` (the default) computes the equation, as
scikit-feature's ``CMIM`` does; ``variant="feast"`` the capped form, as FEAST
does (for BR the cap is each label's :math:`I(X_k; Y_i)`). Both were checked
against those implementations on yeast
(``docs/journal/2026-11-28-league-selectors.md``); the tests compare them
with the equations computed one contingency table at a time.

Incremental update: the running minimum of :math:`I(X_k; Y_i \mid X_s)` per
candidate and target is lowered by each selected feature's matrix (one
:func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`
call per step).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils._param_validation import StrOptions

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._pairwise import (
    ATTRS_DOC,
    PARAMS_DOC,
    PairwiseCriterionSelector,
)

#: ``variant``: Brown et al.'s equation, or FEAST's form capped by the relevance.
VARIANTS = ("equation", "feast")


@register("selector", "cmim")
class CMIM(PairwiseCriterionSelector):
    __doc__ = f"""CMIM after BR, LP or PPT (Fleuret 2004; Brown et al. 2012).

    ``J(X_k) = min_(X_j in S) I(X_k; Y | X_j)``, summed over the labels for
    BR; see :mod:`mlfsbench.estimators.selectors.cmim`.

    Parameters
    ----------
    variant : {{"equation", "feast"}}, default="equation"
        ``"equation"``: ``min_j I(X_k; Y | X_j)``; ``"feast"``: also capped
        by ``I(X_k; Y)``, as FEAST's ``CMIM.c`` computes (see
        :mod:`mlfsbench.estimators.selectors.cmim`).{PARAMS_DOC}
    Attributes
    ----------{ATTRS_DOC}
    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2)
    >>> Y = np.column_stack([X[:, 0] ^ X[:, 1], X[:, 0]])
    >>> sel = CMIM().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 1, 2], [1.0, 1.0, 1.0])
    """

    _parameter_constraints: dict = {
        **PairwiseCriterionSelector._parameter_constraints,
        "variant": [StrOptions(set(VARIANTS))],
    }

    def __init__(self, *, variant="equation", transformation="br", p=6,
                 reassign=False, n_features_to_select=None, random_state=None):
        super().__init__(transformation=transformation, p=p, reassign=reassign,
                         n_features_to_select=n_features_to_select,
                         random_state=random_state)
        self.variant = variant

    def _criterion(self, terms):
        # min_j I(X_k; T_i | X_j) so far, (n_features, n_targets): a minimum
        # is no sum, so it is kept here rather than in greedy_forward's acc
        state = {"min": terms.mi if self.variant == "feast" else None}

        def update(s):
            c = terms.conditional(s)
            state["min"] = c if state["min"] is None else np.minimum(state["min"], c)
            return np.zeros(c.shape[0])

        def criterion(acc, t):
            return state["min"].sum(axis=1) if t else self.relevance_

        return criterion, update
