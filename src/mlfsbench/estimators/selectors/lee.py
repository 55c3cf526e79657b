r"""Multi-label selectors of Lee & Kim: AMI, PMU, FIMF and SCLS.

The papers are not in the shared collection; each method follows its published
definition, written below (``L`` the labels, ``S`` the features already
selected, all MI plug-in estimates in bits on discretized features).
:math:`I(X;Y;Z) = I(X;Y) - I(X;Y|Z)` is the three-way interaction information
(McGill 1954) used by Lee & Kim as "multivariate mutual information"; it equals
:math:`H(X)+H(Y)+H(Z)-H(X,Y)-H(X,Z)-H(Y,Z)+H(X,Y,Z)`.

AMI -- J. Lee, H. Lim, D.-W. Kim (2012), "Approximating mutual information for
multi-label feature selection", *Electronics Letters* 48(15):929-930. Greedy:

.. math:: J(f) = \sum_{l \in L} I(f; l) - \sum_{s \in S} I(f; s).

PMU -- J. Lee, D.-W. Kim (2013), "Feature selection for multi-label
classification using multivariate mutual information", *Pattern Recognition
Letters* 34(3):349-357. Greedy, interactions limited to three variables:

.. math:: J(f) = \sum_{l \in L} I(f; l)
    - \sum_{s \in S} \sum_{l \in L} I(f; s; l)
    - \sum_{i < j} I(f; l_i; l_j).

FIMF -- J. Lee, D.-W. Kim (2015), "Fast multi-label feature selection based on
information-theoretic feature ranking", *Pattern Recognition* 48(9):2761-2771.
A ranking (no search): only the ``|Q|`` features and ``|K|`` labels of highest
entropy ("promising" subsets) enter the label-interaction term,

.. math:: V(f) = \sum_{l \in L} I(f; l) - \sum_{l_i, l_j \in K,\, i<j}
    I(f; l_i; l_j), \quad f \in Q,

and features outside ``Q`` are ranked after those in ``Q``.

SCLS -- J. Lee, D.-W. Kim (2017), "SCLS: Multi-label feature selection based on
scalable criterion for large label set", *Pattern Recognition* 66:342-352.
Greedy; the relevance of ``f`` is scaled by the share of its entropy not
already explained by each selected feature (scalable relevance evaluation):

.. math:: J(f) = \sum_{l \in L} I(f; l)
    - \sum_{s \in S} \frac{I(f; s)}{H(f)} \sum_{l \in L} I(f; l)

(a constant feature, ``H(f) = 0``, has zero relevance and gets ``J = 0``).

Incremental updates: after selecting ``s`` every candidate's redundancy term
gains ``I(f; s)`` (AMI, SCLS; one MI column) or
``sum_l I(f; s; l) = sum_l I(f; l) - sum_l I(f; l | s)`` (PMU; one call of
:func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`).
The label pair term ``sum_{i<j} I(f; l_i; l_j) = (|L| - 1) sum_l I(f; l) - sum_{i<j}
I(f; (l_i, l_j))`` is fixed and computed once.

Greedy-search conventions (cap, completion of the ranking by relevance
``sum_l I(f; l)``, ties, ``scores_``): :mod:`mlfsbench.estimators.selectors._greedy`.
"""

from __future__ import annotations

import numpy as np

from mlfsbench.estimators.information.entropy import (
    column_entropies,
    conditional_mutual_information_matrix,
    mutual_information_matrix,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector
from mlfsbench.estimators.selectors._greedy import (
    RelevanceGreedySelector,
    column,
    label_pair_joint_mi,
)

_PARAMS_DOC = """
    n_features_to_select : int or None, default=None
        Number of greedy steps (``None``: 50, or all features if fewer); the
        ranking then continues with the other features by relevance.
    random_state : None
        Unused (deterministic); kept for the common interface.
"""

_EXAMPLE_DOC = """
    >>> X = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1]])
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])"""

_ATTRS_DOC = """
    ranking_ : ndarray of shape (n_features,)
        Selection order, then the remaining features by relevance.
    scores_ : ndarray of shape (n_features,)
        Criterion value at the step a feature was selected; NaN for features
        not selected greedily.
    relevance_ : ndarray of shape (n_features,)
        ``sum_l I(f; l)`` in bits.
"""


def label_interaction(X, Y, mi, labels=None) -> np.ndarray:
    """``sum_{i<j} I(f; l_i; l_j)`` over pairs of ``labels`` for every feature.

    ``mi`` is the (n_features, n_labels) matrix ``I(f; l)``.
    """
    labels = np.arange(Y.shape[1]) if labels is None else np.asarray(labels)
    if len(labels) < 2:
        return np.zeros(X.shape[1])
    single = (len(labels) - 1) * mi[:, labels].sum(axis=1)
    return single - label_pair_joint_mi(X, Y, labels)


@register("selector", "ami")
class AMI(RelevanceGreedySelector):
    __doc__ = f"""AMI (Lee, Lim & Kim 2012): label relevance minus feature redundancy.

    ``J(f) = sum_l I(f; l) - sum_(s in S) I(f; s)``, greedy; see
    :mod:`mlfsbench.estimators.selectors.lee`.

    Parameters
    ----------{_PARAMS_DOC}
    Attributes
    ----------{_ATTRS_DOC}
    Examples
    --------{_EXAMPLE_DOC}
    >>> sel = AMI().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 2, 1], [1.0, 0.0, 1.0])
    """

    def _setup(self, X, Y, mi):
        rel = self.relevance_

        def update(s):
            return mutual_information_matrix(X, column(X, s))[:, 0]

        return (lambda acc, t: rel - acc), update


@register("selector", "pmu")
class PMU(RelevanceGreedySelector):
    __doc__ = f"""PMU (Lee & Kim 2013): multivariate MI limited to three variables.

    ``J(f) = sum_l I(f;l) - sum_(s in S) sum_l I(f;s;l) - sum_(i<j) I(f;l_i;l_j)``,
    greedy; see :mod:`mlfsbench.estimators.selectors.lee`.

    Parameters
    ----------{_PARAMS_DOC}
    Attributes
    ----------{_ATTRS_DOC}    label_interaction_ : ndarray of shape (n_features,)
        ``sum_(i<j) I(f; l_i; l_j)``.

    Examples
    --------{_EXAMPLE_DOC}
    >>> sel = PMU().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 2, 1], [1.0, 0.0, 1.0])
    """

    def _setup(self, X, Y, mi):
        rel = self.relevance_
        self.label_interaction_ = label_interaction(X, Y, mi)
        base = rel - self.label_interaction_

        def update(s):
            cmi = conditional_mutual_information_matrix(X, Y, column(X, s))
            return rel - cmi.sum(axis=1)

        return (lambda acc, t: base - acc), update


@register("selector", "scls")
class SCLS(RelevanceGreedySelector):
    __doc__ = f"""SCLS (Lee & Kim 2017): relevance scaled by non-redundant entropy.

    ``J(f) = rel(f) - sum_(s in S) I(f;s) / H(f) * rel(f)`` with
    ``rel(f) = sum_l I(f; l)``, greedy; see :mod:`mlfsbench.estimators.selectors.lee`.

    Parameters
    ----------{_PARAMS_DOC}
    Attributes
    ----------{_ATTRS_DOC}    entropy_ : ndarray of shape (n_features,)
        ``H(f)`` in bits.

    Examples
    --------{_EXAMPLE_DOC}
    >>> sel = SCLS().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.scores_.tolist()
    ([0, 2, 1], [1.0, 0.0, 1.0])
    """

    def _setup(self, X, Y, mi):
        rel = self.relevance_
        self.entropy_ = H = column_entropies(X)
        safe = np.where(H > 0, H, 1.0)

        def update(s):
            red = mutual_information_matrix(X, column(X, s))[:, 0]
            return np.where(H > 0, red / safe, 0.0)

        return (lambda acc, t: rel - acc * rel), update


@register("selector", "fimf")
class FIMF(BaseMultiLabelSelector):
    """FIMF (Lee & Kim 2015): fast ranking on promising features and labels.

    ``V(f) = sum_l I(f; l) - sum_(l_i, l_j in K, i<j) I(f; l_i; l_j)`` for the
    ``promising_features`` features of highest entropy (``Q``), with ``K`` the
    ``promising_labels`` labels of highest entropy; see
    :mod:`mlfsbench.estimators.selectors.lee`. Entropy ties go to the lower index.

    Parameters
    ----------
    promising_features : int or None, default=None
        ``|Q|``; ``None``: every feature (as Lee & Kim 2016 ran FIMF to score
        all features). Features outside ``Q`` follow, by decreasing entropy.
    promising_labels : int or None, default=None
        ``|K|``; ``None``: every label.
    n_features_to_select : int or None, default=None
        Number of top-ranked features kept by ``get_support`` (the ranking
        does not depend on it).
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features,)
    scores_ : ndarray of shape (n_features,)
        ``V(f)`` for ``f`` in ``Q``; NaN outside ``Q``.
    promising_features_ : ndarray
        Indices of ``Q``.
    promising_labels_ : ndarray
        Indices of ``K``.

    Examples
    --------
    >>> X = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1]])
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> FIMF().fit(X, Y).scores_.tolist()
    [1.0, 1.0, 1.0]
    >>> FIMF(promising_features=1).fit(X[:, [1, 0, 2]], Y).ranking_.tolist()
    [0, 1, 2]
    """

    input_kind = "discrete"

    def __init__(self, *, promising_features=None, promising_labels=None,
                 n_features_to_select=None, random_state=None):
        self.promising_features = promising_features
        self.promising_labels = promising_labels
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)

    def _fit(self, X, Y):
        p, q = X.shape[1], Y.shape[1]
        nq = p if self.promising_features is None else int(self.promising_features)
        nk = q if self.promising_labels is None else int(self.promising_labels)
        if nq < 0 or nk < 0:
            raise ValueError("promising_features and promising_labels must be >= 0")
        h_f = column_entropies(X)
        h_l = column_entropies(Y)
        by_entropy = np.argsort(-h_f, kind="mergesort")
        Q = np.sort(by_entropy[: min(nq, p)])
        K = np.sort(np.argsort(-h_l, kind="mergesort")[: min(nk, q)])
        self.promising_features_, self.promising_labels_ = Q, K
        scores = np.full(p, np.nan)
        if Q.size:
            XQ = X[:, Q]
            mi = mutual_information_matrix(XQ, Y)
            scores[Q] = mi.sum(axis=1) - label_interaction(XQ, Y, mi, K)
        in_q = np.zeros(p, dtype=bool)
        in_q[Q] = True
        ranked_q = Q[np.argsort(-scores[Q], kind="mergesort")]
        rest = by_entropy[~in_q[by_entropy]]
        return scores, np.concatenate([ranked_q, rest])
