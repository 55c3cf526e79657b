r"""LRFS: label-redundancy feature selection (Zhang et al. 2019).

Zhang et al. (2019), "Distinguishing two types of labels for multi-label
feature selection", *Pattern Recognition* 95. The paper
separates, for a candidate feature ``f`` and a label ``l_j``, the information
``f`` carries about ``l_j`` that another label ``l_i`` already carries (label
redundancy) from the rest; the relevance of ``f`` counts only the rest,
:math:`I(f; l_j \mid l_i)`, over every ordered pair of distinct labels, and
the redundancy with the selected features is mRMR's mean. Greedy forward
selection of

.. math::

    J(f_k) = \sum_{l_i \in L} \sum_{l_j \in L,\, j \ne i} I(f_k; l_j \mid l_i)
        - \frac{1}{|S|} \sum_{f_s \in S} I(f_k; f_s).

The paper is not in the shared collection: the criterion is written as its
later citations and a public re-implementation state it, and its equation
number could not be checked. With one label the double sum is empty and every
feature's relevance is 0.

Computation (plug-in MI in bits on discretized features): the relevance
once, one
:func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`
call per conditioning label ``l_i`` (all features and labels ``l_j`` at
once, the targets' tables built once in
:class:`~mlfsbench.estimators.information.entropy.FixedTargets`); each
greedy step one
:func:`~mlfsbench.estimators.information.entropy.mutual_information_matrix`
column :math:`I(f_k; f_s)` added to a running sum.

Greedy-search conventions (:mod:`mlfsbench.estimators.selectors._greedy`):
the first feature is the one of highest relevance; ``n_features_to_select``
steps (``None``: 50, or all features if fewer); ties within ``1e-10``
relative go to the lower index; the ranking continues with the other
features by decreasing relevance (the double sum above); ``scores_`` holds
the criterion at the step a feature was selected, NaN for the others.
"""

from __future__ import annotations

import numpy as np

from mlfsbench.estimators.information.entropy import (
    FixedTargets,
    conditional_mutual_information_matrix,
    mutual_information_matrix,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._greedy import RelevanceGreedySelector, column


def label_redundancy_relevance(XI, Y) -> np.ndarray:
    """:math:`\\sum_i \\sum_{j \\ne i} I(f; l_j \\mid l_i)` for every feature.

    ``XI`` is the :class:`~mlfsbench.estimators.information.entropy.CodeIndicators`
    of the features, ``Y`` the 0/1 label matrix.

    >>> from mlfsbench.estimators.information.entropy import CodeIndicators
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> X = np.column_stack([Y[:, 0], Y[:, 0] ^ Y[:, 1]])
    >>> label_redundancy_relevance(CodeIndicators(X), Y).tolist()
    [1.0, 2.0]
    """
    Y = np.asarray(Y)
    targets = FixedTargets(Y)
    total = np.zeros(XI.shape[1])
    for i in range(Y.shape[1]):
        cmi = conditional_mutual_information_matrix(XI, targets, Y[:, i])
        total += cmi.sum(axis=1) - cmi[:, i]  # I(f; l_i | l_i) = 0 left out
    return total


@register("selector", "lrfs")
class LRFS(RelevanceGreedySelector):
    """LRFS (Zhang et al. 2019): relevance net of label redundancy, less mRMR's.

    ``J(f) = sum_i sum_(j != i) I(f; l_j | l_i) - mean_(s in S) I(f; s)``,
    greedy; see :mod:`mlfsbench.estimators.selectors.lrfs`.

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Number of greedy steps (``None``: 50, or all features if fewer); the
        ranking then continues with the other features by relevance.
    random_state : None
        Unused (deterministic); kept for the common interface.

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features,)
        Selection order, then the remaining features by relevance.
    scores_ : ndarray of shape (n_features,)
        Criterion value (bits) at the step a feature was selected; NaN for
        features not selected greedily.
    relevance_ : ndarray of shape (n_features,)
        ``sum_i sum_(j != i) I(f; l_j | l_i)`` in bits.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 2)
    >>> X = np.column_stack([Y[:, 0], Y[:, 0] ^ Y[:, 1], Y[:, 0]])
    >>> sel = LRFS().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([1, 0, 2], [1.0, 2.0, 0.5])
    """

    def _setup(self, X, XI, Y, mi):
        self.relevance_ = rel = label_redundancy_relevance(XI, Y)

        def update(s):
            return mutual_information_matrix(XI, column(X, s))[:, 0]

        return (lambda acc, t: rel - acc / t if t else rel), update
