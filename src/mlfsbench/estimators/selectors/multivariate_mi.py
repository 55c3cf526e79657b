r"""Multivariate mutual-information selectors (Lee & Kim): AMI, PMU, FIMF and SCLS.

The method family: relevance ``sum_l I(f; l)`` to every label, less
redundancy and label-interaction terms built from (three-way) multivariate
mutual information. Lee & Kim's entropy-based label selection (Lee & Kim
2016, ``lee2016``) is :mod:`mlfsbench.estimators.selectors.entropy_label_selection`.

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
import scipy.sparse as sp
from scipy.special import xlogy

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


def _xlog2x(c) -> np.ndarray:
    """``c log2 c`` elementwise with ``0 log 0 = 0``."""
    return xlogy(c, c) / np.log(2.0)


def _nonzero_indicators(X):
    """Indicator columns of every non-zero value of every feature.

    Returns ``B`` (CSC, n x r: column ``k`` marks the rows where feature
    ``owner[k]`` takes its ``k``-th non-zero value) and ``owner`` (r,).
    """
    if sp.issparse(X):
        coo = sp.coo_matrix(X)
        rows, cols, vals = coo.row, coo.col, coo.data
    else:
        rows, cols = np.nonzero(X)
        vals = X[rows, cols]
    keep = vals != 0
    rows, cols = rows[keep], cols[keep].astype(np.int64)
    vals = np.asarray(vals[keep], dtype=np.int64)
    width = int(vals.max()) + 1 if vals.size else 1
    keys, col_id = np.unique(cols * width + vals, return_inverse=True)
    B = sp.csc_matrix(
        (np.ones(rows.size), (rows, col_id.ravel())), shape=(X.shape[0], keys.size)
    )
    return B, keys // width


def label_pair_joint_mi_counts(X, Y, labels=None) -> np.ndarray:
    """``sum_{i<j} I(X_f; (Y_i, Y_j))`` over pairs of 0/1 ``labels``, from counts.

    The same quantity as
    :func:`mlfsbench.estimators.selectors._greedy.label_pair_joint_mi`, built
    from the (feature value) x 2 x 2 tables of every feature and label pair:
    with ``B`` the indicators of the features' non-zero values, the rows where
    ``Y_i = 1`` give ``#(f = v, Y_i = 1, Y_j = 1) = B[Y_i = 1]^T Y[Y_i = 1]``
    for all ``j`` at once (sparse, cheap for rare labels); the other three
    cells follow from ``B^T Y`` and the value counts, and value 0 of each
    feature from the pair's totals minus its non-zero values. Then
    ``sum_pairs I = P H(f) + sum_pairs H(Y_i, Y_j) - sum_pairs H(f, Y_i, Y_j)``
    with ``P`` the number of pairs (bits).

    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> Y = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]])
    >>> label_pair_joint_mi_counts(X, Y).tolist()  # each feature: 1 + 1 + 1 bit
    [3.0, 3.0]
    """
    Y = np.asarray(Y)
    if Y.size and not ((Y == 0) | (Y == 1)).all():
        raise ValueError("labels must be 0/1 for the count-based pair term")
    labels = np.arange(Y.shape[1]) if labels is None else np.asarray(labels)
    n, p = X.shape[0], X.shape[1]
    q = len(labels)
    n_pairs = q * (q - 1) // 2
    if n_pairs == 0 or n == 0:
        return np.zeros(p)
    YL = sp.csr_matrix(np.asarray(Y[:, labels], dtype=float))
    B, owner = _nonzero_indicators(X)
    B = B.tocsr()
    r = owner.size
    one_per_feature = r == p and np.array_equal(owner, np.arange(p))
    group = sp.csr_matrix((np.ones(r), (owner, np.arange(r))), shape=(p, r))
    n_v = np.asarray(B.sum(axis=0)).ravel()[:, None]  # (r, 1): #(f = v)
    n_v1 = np.asarray((B.T @ YL).todense())  # (r, q): #(f = v, Y = 1)
    n_1 = np.asarray(YL.sum(axis=0)).ravel()  # (q,)
    YL_csc = YL.tocsc()
    co = np.asarray((YL.T @ YL).todense())  # (q, q): #(Y_i = 1, Y_j = 1)
    pair_entropy = 0.0
    xlogx = np.zeros(p)  # sum over pairs and cells of c log2 c
    for i in range(q - 1):
        rest = np.arange(i + 1, q)
        rows = YL_csc[:, i].indices
        c11 = np.asarray((B[rows].T @ YL[rows][:, rest]).todense())  # (r, m)
        cells = (
            c11,
            n_v1[:, [i]] - c11,
            n_v1[:, rest] - c11,
            n_v - n_v1[:, [i]] - n_v1[:, rest] + c11,
        )
        t11 = co[i, rest]
        totals = (t11, n_1[i] - t11, n_1[rest] - t11, n - n_1[i] - n_1[rest] + t11)
        pair_entropy += sum(_xlog2x(t).sum() for t in totals)
        zero = (
            [t - c for t, c in zip(totals, cells, strict=True)] if one_per_feature
            else [t - group @ c for t, c in zip(totals, cells, strict=True)]
        )
        nonzero = sum(_xlog2x(c).sum(axis=1) for c in cells)
        xlogx += (nonzero if one_per_feature else group @ nonzero)
        xlogx += sum(_xlog2x(c).sum(axis=1) for c in zero)
    h_pairs = n_pairs * np.log2(n) - pair_entropy / n  # sum_pairs H(Y_i, Y_j)
    h_f_pairs = n_pairs * np.log2(n) - xlogx / n  # sum_pairs H(f, Y_i, Y_j)
    return n_pairs * column_entropies(X) + h_pairs - h_f_pairs


def label_interaction(X, Y, mi, labels=None) -> np.ndarray:
    """``sum_{i<j} I(f; l_i; l_j)`` over pairs of ``labels`` for every feature.

    ``mi`` is the (n_features, n_labels) matrix ``I(f; l)``. With 0/1 labels
    the pair term comes from :func:`label_pair_joint_mi_counts` (one set of
    contingency tables for all pairs); otherwise from
    :func:`~mlfsbench.estimators.selectors._greedy.label_pair_joint_mi`.
    """
    labels = np.arange(Y.shape[1]) if labels is None else np.asarray(labels)
    if len(labels) < 2:
        return np.zeros(X.shape[1])
    single = (len(labels) - 1) * mi[:, labels].sum(axis=1)
    Yd = Y.toarray() if sp.issparse(Y) else np.asarray(Y)
    if ((Yd == 0) | (Yd == 1)).all():
        return single - label_pair_joint_mi_counts(X, Yd, labels)
    return single - label_pair_joint_mi(X, Y, labels)


@register("selector", "ami")
class AMI(RelevanceGreedySelector):
    __doc__ = f"""AMI (Lee, Lim & Kim 2012): label relevance minus feature redundancy.

    ``J(f) = sum_l I(f; l) - sum_(s in S) I(f; s)``, greedy; see
    :mod:`mlfsbench.estimators.selectors.multivariate_mi`.

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

    def _setup(self, X, XI, Y, mi):
        rel = self.relevance_

        def update(s):
            return mutual_information_matrix(XI, column(X, s))[:, 0]

        return (lambda acc, t: rel - acc), update


@register("selector", "pmu")
class PMU(RelevanceGreedySelector):
    __doc__ = f"""PMU (Lee & Kim 2013): multivariate MI limited to three variables.

    ``J(f) = sum_l I(f;l) - sum_(s in S) sum_l I(f;s;l) - sum_(i<j) I(f;l_i;l_j)``,
    greedy; see :mod:`mlfsbench.estimators.selectors.multivariate_mi`.

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

    def _setup(self, X, XI, Y, mi):
        rel = self.relevance_
        self.label_interaction_ = label_interaction(X, Y, mi)
        base = rel - self.label_interaction_

        def update(s):
            cmi = conditional_mutual_information_matrix(XI, Y, column(X, s))
            return rel - cmi.sum(axis=1)

        return (lambda acc, t: base - acc), update


@register("selector", "scls")
class SCLS(RelevanceGreedySelector):
    __doc__ = f"""SCLS (Lee & Kim 2017): relevance scaled by non-redundant entropy.

    ``J(f) = rel(f) - sum_(s in S) I(f;s) / H(f) * rel(f)`` with
    ``rel(f) = sum_l I(f; l)``, greedy; see
    :mod:`mlfsbench.estimators.selectors.multivariate_mi`.

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

    def _setup(self, X, XI, Y, mi):
        rel = self.relevance_
        self.entropy_ = H = column_entropies(X)
        safe = np.where(H > 0, H, 1.0)

        def update(s):
            red = mutual_information_matrix(XI, column(X, s))[:, 0]
            return np.where(H > 0, red / safe, 0.0)

        return (lambda acc, t: rel - acc * rel), update


@register("selector", "fimf")
class FIMF(BaseMultiLabelSelector):
    """FIMF (Lee & Kim 2015): fast ranking on promising features and labels.

    ``V(f) = sum_l I(f; l) - sum_(l_i, l_j in K, i<j) I(f; l_i; l_j)`` for the
    ``promising_features`` features of highest entropy (``Q``), with ``K`` the
    ``promising_labels`` labels of highest entropy; see
    :mod:`mlfsbench.estimators.selectors.multivariate_mi`. Entropy ties go to the
    lower index.

    Parameters
    ----------
    promising_features : int or None, default=None
        ``|Q|``; ``None``: every feature (as Lee & Kim 2016 ran FIMF to score
        all features). Features outside ``Q`` follow, by decreasing entropy.
    promising_labels : int or None, default=10
        ``|K|``; ``None``: every label. The default of 10 is the value with
        which Lee & Kim (2016)'s FIMF numbers are approached (see
        docs/papers.md: FIMF's own paper was not available to check it).
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

    def __init__(self, *, promising_features=None, promising_labels=10,
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
