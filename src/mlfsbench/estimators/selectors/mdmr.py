r"""MDMR: max-dependency and min-redundancy multi-label feature selection.

Y. Lin, Q. Hu, J. Liu, J. Duan (2015), "Multi-label feature selection based on
max-dependency and min-redundancy", *Neurocomputing* 168:92-103 (not in the
shared papers; implemented from the published criterion). With ``L`` the
labels and ``S`` the features already selected, greedy forward selection of

.. math::

    J(f) = \sum_{l \in L} I(f; l) - \frac{1}{|S|} \sum_{s \in S}
        \Bigl( I(f; s) - \sum_{l \in L} I(f; l \mid s) \Bigr):

the dependency of ``f`` on the labels minus its mean redundancy with the
selected features, where the redundancy with ``s`` is the information ``f``
shares with ``s`` less the label information ``f`` still brings once ``s`` is
known. The first feature maximizes :math:`\sum_l I(f; l)` (empty mean = 0).

Incremental update: selecting ``s`` adds ``I(f; s) - sum_l I(f; l | s)`` to a
running sum for every candidate (one :func:`mutual_information_matrix` column
and one :func:`conditional_mutual_information_matrix` call), divided by
``|S|`` when scoring. Plug-in MI in bits on discretized features. Greedy-search
conventions: :mod:`mlfsbench.estimators.selectors._greedy`.
"""

from __future__ import annotations

from mlfsbench.estimators.information.entropy import (
    conditional_mutual_information_matrix,
    mutual_information_matrix,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._greedy import RelevanceGreedySelector, column


@register("selector", "mdmr")
class MDMR(RelevanceGreedySelector):
    """MDMR (Lin et al. 2015): max-dependency, min-redundancy.

    ``J(f) = sum_l I(f;l) - mean_(s in S) [I(f;s) - sum_l I(f;l|s)]``, greedy;
    see :mod:`mlfsbench.estimators.selectors.mdmr`.

    Parameters and attributes: those of
    :class:`~mlfsbench.estimators.selectors.multivariate_mi.AMI` (greedy steps, ranking,
    step scores, ``relevance_``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1]])
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> sel = MDMR().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 2, 1], [1.0, 1.0, 2.0])
    """

    def _setup(self, X, XI, Y, mi):
        rel = self.relevance_

        def update(s):
            xs = column(X, s)
            red = mutual_information_matrix(XI, xs)[:, 0]
            cmi = conditional_mutual_information_matrix(XI, Y, xs)
            return red - cmi.sum(axis=1)

        def criterion(acc, t):
            return rel - acc / t if t else rel

        return criterion, update
