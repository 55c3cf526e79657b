r"""Entropy-based label subset (Lee & Kim 2016, Section 3.2).

Lee & Kim approximate the uncertainty of the label set by the sum of the
label entropies, :math:`\tilde E_1(L) = \sum_{l \in L} H(l)` (their Eq. 28), so
the subset :math:`Y` of a fixed size that keeps most of it consists of the
:math:`|Y|` labels of largest entropy (Algorithm 1, line 7). This module holds
that transformation; the entropies come from
:func:`mlfsbench.estimators.information.entropy.column_entropies` (also the
:math:`H(f)` of the features in their Algorithm 1).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.information.entropy import column_entropies
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import Count, Number, check_label_matrix

DEFAULT_FRACTION = 0.2

#: ``order`` values: the method's labels of largest entropy, or the
#: "opposing method" of Lee & Kim's Section 4.4 (smallest entropies).
ORDERS = ("highest", "lowest")


def resolve_n_labels(n_labels, total: int) -> int:
    """Number of labels meant by ``n_labels`` (see :class:`EntropyLabelSubset`).

    >>> resolve_n_labels(None, 159), resolve_n_labels(0.5, 10), resolve_n_labels(3, 2)
    (32, 5, 2)
    """
    if n_labels is None:
        n_labels = DEFAULT_FRACTION
    if isinstance(n_labels, bool) or not isinstance(
        n_labels, numbers.Integral | numbers.Real
    ):
        raise ValueError(f"n_labels must be an int, a float or None, got {n_labels!r}")
    if isinstance(n_labels, numbers.Integral):
        if n_labels < 0:
            raise ValueError(f"n_labels must be >= 0, got {n_labels}")
        return min(int(n_labels), total)
    if not 0.0 <= float(n_labels) <= 1.0:
        raise ValueError(f"a fractional n_labels must lie in [0, 1], got {n_labels}")
    if total == 0:
        return 0
    return min(max(int(np.floor(float(n_labels) * total + 0.5)), 1), total)


@register("transformation", "entropy-labels")
class EntropyLabelSubset(TransformerMixin, BaseEstimator):
    """Keep the ``|Y|`` labels of largest entropy (Lee & Kim 2016, Sec. 3.2).

    Labels are sorted by decreasing plug-in entropy of their training column
    (ties: lower label index first) and the first ``|Y|`` are kept, in that
    order. With ``order="lowest"`` they are sorted by increasing entropy
    (ties: lower index first): the "opposing method, which chooses labels
    with the smallest entropies to compose Y" of Lee & Kim's Section 4.4
    (Figs. 7-8).

    Parameters
    ----------
    n_labels : int, float or None, default=None
        ``|Y|``. An int is a number of labels (capped at the number of
        labels; 0 keeps none); a float in [0, 1] a fraction of the labels,
        rounded half up and at least 1; ``None`` means 0.2, i.e. 20% of the
        labels (the range in which Lee & Kim's Figures 2-3 stop improving; their
        Table 2 tunes it per dataset).
    order : {"highest", "lowest"}, default="highest"
        Keep the labels of largest entropy (the method, Eq. 28) or of
        smallest entropy (Section 4.4's comparison).

    Attributes
    ----------
    entropies_ : ndarray of shape (n_labels_total,)
        ``H(l)`` in bits of every training label.
    order_ : ndarray of shape (n_labels_total,)
        Labels by decreasing entropy (``L*`` of Algorithm 1, line 7); by
        increasing entropy with ``order="lowest"``.
    selected_ : ndarray of shape (n_selected,)
        The kept labels, ``order_[:|Y|]``.

    Examples
    --------
    >>> Y = np.array([[1, 0, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1]])
    >>> t = EntropyLabelSubset(n_labels=2).fit(Y)
    >>> t.order_.tolist(), t.selected_.tolist()
    ([2, 0, 1], [2, 0])
    >>> t.transform(Y).tolist()
    [[1, 1], [0, 1], [0, 1], [1, 0]]
    >>> EntropyLabelSubset(n_labels=1, order="lowest").fit(Y).selected_.tolist()
    [0]
    """

    _parameter_constraints: dict = {
        "n_labels": [Count(numbers.Integral, 0, None, closed="left"),
                     Number(numbers.Real, 0, 1, closed="both"), None],
        "order": [StrOptions(set(ORDERS))],
    }

    def __init__(self, *, n_labels=None, order="highest"):
        self.n_labels = n_labels
        self.order = order

    def fit(self, Y, y=None):
        """Compute label entropies and pick the ``|Y|`` labels of largest
        (``order="lowest"``: smallest) entropy."""
        self._validate_params()
        Y = check_label_matrix(Y)
        k = resolve_n_labels(self.n_labels, Y.shape[1])
        self.entropies_ = column_entropies(Y)
        sign = -1.0 if self.order == "highest" else 1.0
        self.order_ = np.argsort(sign * self.entropies_, kind="stable")
        self.selected_ = self.order_[:k]
        return self

    def transform(self, Y):
        """The kept label columns, in decreasing order of entropy."""
        check_is_fitted(self, "selected_")
        Y = check_label_matrix(Y)
        if Y.shape[1] != len(self.entropies_):
            raise ValueError(
                f"Y has {Y.shape[1]} labels; fitted on {len(self.entropies_)}"
            )
        return Y[:, self.selected_]
