r"""MIM-BR: mutual information maximisation on binary relevance.

Each feature is scored by the sum over labels of its mutual information with
that label: the information-gain criterion of Yang & Pedersen (1997) applied to
every label of a binary-relevance decomposition, MIM (Brown et al. 2012) in the
single-label case, and the feature ranking of Lee & Kim (2016), who sum it over
a selected subset of the labels (here: all labels):

.. math::

    J(f) = \sum_{k=1}^{q} I(f; y_k).

- Y. Yang, J. O. Pedersen (1997). "A Comparative Study on Feature Selection in
  Text Categorization." ICML, pp. 412-420.
- J. Lee, D.-W. Kim (2016). "Efficient multi-label feature selection using
  entropy-based label selection." Entropy 18(11), 405.
- G. Brown, A. Pocock, M.-J. Zhao, M. Lujan (2012). "Conditional Likelihood
  Maximisation: A Unifying Framework for Information Theoretic Feature
  Selection." JMLR 13, pp. 27-66.
"""

from __future__ import annotations

from mlfsbench.estimators.information.entropy import mutual_information_matrix
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector


@register("selector", "mim-br")
class MIMBR(BaseMultiLabelSelector):
    """Rank features by the sum of their mutual information with each label.

    Score of feature ``f``: ``sum_k I(f; y_k)`` in bits, all feature-label pairs
    computed at once by
    :func:`mlfsbench.estimators.information.entropy.mutual_information_matrix`
    on discretized features (Yang & Pedersen 1997; Lee & Kim 2016). Ties are
    broken by the lower feature index.

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Number of top-ranked features kept by ``get_support``/``transform``
        (``None``: all).
    random_state : None
        Unused (the method is deterministic); kept for the common interface.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        ``sum_k I(X_j; Y_k)`` in bits.
    ranking_ : ndarray of shape (n_features,)
        Feature indices, best first.
    mi_ : ndarray of shape (n_features, n_labels)
        The per-label mutual information ``I(X_j; Y_k)`` in bits.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]])
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> sel = MIMBR(n_features_to_select=2).fit(X, Y)
    >>> sel.scores_.tolist()
    [1.0, 1.0, 1.0]
    >>> sel.ranking_.tolist()
    [0, 1, 2]
    >>> sel.transform(X).shape
    (4, 2)
    """

    input_kind = "discrete"

    def _fit(self, X, Y):
        self.mi_ = mutual_information_matrix(X, Y)
        return self.mi_.sum(axis=1)
