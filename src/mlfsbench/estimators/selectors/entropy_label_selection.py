r"""Entropy-based label selection (Lee & Kim 2016; registered as ``lee2016``).

The method family: a feature ranking by dependency on the labels in which only
the labels of largest entropy get an exact mutual information and the others
an entropy bound. Lee & Kim's greedy multivariate-MI selectors (AMI, PMU,
FIMF, SCLS) are :mod:`mlfsbench.estimators.selectors.multivariate_mi`.

J. Lee, D.-W. Kim (2016). "Efficient Multi-Label Feature Selection Using
Entropy-Based Label Selection." Entropy 18(11), 405.

The dependency of feature :math:`f` on the labels is
:math:`C(f) = \sum_{l \in L} M(f; l)` (Eq. 9). Each term is bounded by
:math:`K(f, l) = \min(H(f), H(l))` (Eq. 10), which needs no joint entropy. For
the promising label subset :math:`Y`, the :math:`|Y|` labels of largest entropy
(Section 3.2, Eq. 28 and Theorem 2), Algorithm 1 scores

.. math::

    \tilde C_{|Y|}(f) = \sum_{l \in Y} M(f; l) + \sum_{l \in Y^c} \min(H(f), H(l))
    \qquad \text{(Definition 1, Eq. 12; Algorithm 1, line 9)}

and ranks the features by decreasing score (ties: lower feature index). By
Theorem 1, :math:`C(f) \le \tilde C_{|Y|}(f) \le \tilde C_0(f)`, the score
decreasing towards :math:`C(f)` as :math:`|Y|` grows (Lemma 1): with
:math:`|Y| = |L|` the ranking is the exact :math:`\sum_l M(f; l)` ranking
(MIM-BR), with :math:`|Y| = 0` the ranking by :math:`H(f)` (Proposition 1).

Implementation: the feature and label entropies by one counting pass each
(:func:`mlfsbench.estimators.information.entropy.column_entropies`); the
:math:`|F| \times |Y|` mutual informations by
:func:`mlfsbench.estimators.information.entropy.mutual_information_matrix` (sparse
products); the
bound terms of all :math:`|F| \times |Y^c|` pairs by sorting the remaining
label entropies once, so :math:`\sum_l \min(H(f), H(l))` is a prefix sum
looked up with ``searchsorted`` (:math:`O((|F| + |L|) \log |L|)`). Entropies
and mutual information are plug-in estimates in bits on discrete features.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from mlfsbench.estimators.information.entropy import (
    column_entropies,
    mutual_information_matrix,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector
from mlfsbench.estimators.transformations.entropy_labels import (
    ORDERS,
    EntropyLabelSubset,
)
from mlfsbench.estimators.validation import Count


def sum_of_min(h_features: np.ndarray, h_labels: np.ndarray) -> np.ndarray:
    """``sum_l min(h_f, h_l)`` for every ``h_f``, via one sort and a prefix sum.

    >>> sum_of_min(np.array([0.5, 2.0]), np.array([1.0, 0.2, 3.0]))
    array([1.2, 3.2])
    """
    hl = np.sort(np.asarray(h_labels, dtype=float))
    prefix = np.concatenate([[0.0], np.cumsum(hl)])
    below = np.searchsorted(hl, h_features, side="right")  # labels with h_l <= h_f
    return prefix[below] + h_features * (hl.size - below)


@register("selector", "lee2016")
class EntropyLabelSelection(BaseMultiLabelSelector):
    """Lee & Kim (2016) Algorithm 1: exact MI on top-entropy labels, bound elsewhere.

    Parameters
    ----------
    n_labels : int, float or None, default=None
        ``|Y|``, the number of labels whose mutual information is computed
        exactly: an int (capped at ``|L|``; 0 allowed), a float in [0, 1] (a
        fraction of the labels, at least 1), or ``None`` for 20% of the labels
        (the paper tunes it per dataset in its Table 2, e.g. 32 of 159 labels
        for bibtex); see
        :class:`~mlfsbench.estimators.transformations.entropy_labels.EntropyLabelSubset`.
    label_order : {"highest", "lowest"}, default="highest"
        ``Y`` from the labels of largest entropy (the method) or, for the
        "opposing method" of Section 4.4 (Figs. 7-8), of smallest entropy;
        the other labels get the bound.
    n_features_to_select : int or None, default=None
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        ``C~_|Y|(f)`` in bits.
    selected_labels_ : ndarray (|Y|,)
        The promising labels ``Y``, by decreasing entropy (increasing with
        ``label_order="lowest"``).
    label_entropies_, feature_entropies_ : ndarray
        ``H(l)`` and ``H(f)`` in bits.
    mi_ : ndarray (n_features, |Y|)
        ``M(f; l)`` for the labels of ``Y``.

    Examples
    --------
    >>> X = np.array([[0, 1], [0, 0], [1, 1], [1, 0]])
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 0]])
    >>> sel = EntropyLabelSelection(n_labels=1).fit(X, Y)
    >>> sel.selected_labels_.tolist(), sel.scores_.round(4).tolist()
    ([0], [1.8113, 0.8113])
    """

    input_kind = "discrete"

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "n_labels": [Count(Integral, 0, None, closed="left"),
                     Interval(Real, 0, 1, closed="both"), None],
        "label_order": [StrOptions(set(ORDERS))],
    }

    def __init__(self, *, n_labels=None, label_order="highest",
                 n_features_to_select=None, random_state=None):
        super().__init__(
            n_features_to_select=n_features_to_select, random_state=random_state
        )
        self.n_labels = n_labels
        self.label_order = label_order

    def _fit(self, X, Y):
        labels = EntropyLabelSubset(n_labels=self.n_labels,
                                    order=self.label_order).fit(Y)
        chosen = labels.selected_
        rest = labels.order_[chosen.size:]
        self.selected_labels_ = chosen
        self.label_entropies_ = labels.entropies_
        self.feature_entropies_ = column_entropies(X)
        if chosen.size:
            self.mi_ = mutual_information_matrix(X, Y[:, chosen])
        else:
            self.mi_ = np.zeros((X.shape[1], 0))
        bound = sum_of_min(self.feature_entropies_, labels.entropies_[rest])
        return self.mi_.sum(axis=1) + bound
