r"""Entropy-based label assignment (ELA; Chen et al. 2007).

ELA turns a multi-label data set into a weighted single-label one: each
instance :math:`i` with label set :math:`Y_i` is copied once per relevant label
:math:`l \in Y_i`; the copy has target :math:`l` and weight

.. math::

    w_{i,l} = \frac{1}{|Y_i|},

so the copies of one instance share its unit weight. Among all weightings of
the copies, the uniform one maximises the entropy of the instance's label
assignment, hence the name (Chen, Yan, Zhang, Chen & Yang 2007, "Document
Transformation for Multi-label Feature Selection in Text Categorization",
ICDM, pp. 451-456; the weighting is the one ELA+CHI uses in Lee & Kim 2016,
Section 2).

Instances with no relevant label have no copy under the definition above;
``empty="drop"`` (default) keeps it that way (they carry no weight), while
``empty="label"`` gives each of them one copy of weight 1 whose target is an
extra pseudo-label ``n_labels`` ("no label").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import check_label_matrix

EMPTY_POLICIES = ("drop", "label")


class LabelCopies(NamedTuple):
    """The weighted single-label copies produced by ELA.

    Attributes
    ----------
    sample : ndarray of shape (n_copies,)
        Row of the original instance of each copy (non-decreasing).
    label : ndarray of shape (n_copies,)
        Target of the copy: a label index (or ``n_labels`` for the pseudo-label
        of label-less instances when ``empty="label"``).
    weight : ndarray of shape (n_copies,)
        ``1 / |Y_i|`` (1 for a pseudo-label copy).
    """

    sample: np.ndarray
    label: np.ndarray
    weight: np.ndarray


@register("transformation", "ela")
class EntropyBasedLabelAssignment(TransformerMixin, BaseEstimator):
    """ELA: one copy per relevant label, weighted ``1/|Y_i|``.

    Parameters
    ----------
    empty : {"drop", "label"}, default="drop"
        Instances without any relevant label: no copy (``"drop"``), or one copy
        of weight 1 with the extra target ``n_labels`` (``"label"``).

    Attributes
    ----------
    n_labels_ : int
        Number of labels seen in ``fit``.
    n_classes_ : int
        Number of single-label targets: ``n_labels_`` (+1 with
        ``empty="label"``).

    Examples
    --------
    >>> Y = np.array([[1, 1, 0], [0, 0, 1], [0, 0, 0]])
    >>> copies = EntropyBasedLabelAssignment().fit_transform(Y)
    >>> copies.sample.tolist(), copies.label.tolist(), copies.weight.tolist()
    ([0, 0, 1], [0, 1, 2], [0.5, 0.5, 1.0])
    >>> EntropyBasedLabelAssignment(empty="label").fit_transform(Y).label.tolist()
    [0, 1, 2, 3]
    """

    _parameter_constraints: dict = {
        "empty": [StrOptions(set(EMPTY_POLICIES))],
    }

    def __init__(self, *, empty="drop"):
        self.empty = empty

    def fit(self, Y, y=None):
        """Validate ``Y`` and record the number of labels."""
        if self.empty not in EMPTY_POLICIES:
            raise ValueError(
                f"empty must be one of {EMPTY_POLICIES}, got {self.empty!r}"
            )
        Y = check_label_matrix(Y)
        self.n_labels_ = Y.shape[1]
        self.n_classes_ = self.n_labels_ + (self.empty == "label")
        return self

    def weight_matrix(self, Y) -> sp.csr_matrix:
        """Copy weights as a sparse ``(n_samples, n_classes_)`` matrix.

        Entry ``(i, l)`` is the weight of the copy of instance ``i`` with
        target ``l``; each row sums to 1 except the rows of label-less
        instances under ``empty="drop"``, which are empty.
        """
        check_is_fitted(self, "n_labels_")
        Y = check_label_matrix(Y)
        if Y.shape[1] != self.n_labels_:
            raise ValueError(
                f"Y has {Y.shape[1]} labels; ELA was fitted on {self.n_labels_}"
            )
        size = Y.sum(axis=1, dtype=np.int64)
        W = sp.csr_matrix(Y, dtype=float)
        W.data /= np.repeat(size, np.diff(W.indptr))
        if self.empty == "label":
            none = (size == 0).astype(float)
            W = sp.hstack([W, sp.csr_matrix(none[:, None])], format="csr")
            W.eliminate_zeros()
        return W

    def transform(self, Y) -> LabelCopies:
        """The weighted copies of every instance (see :class:`LabelCopies`)."""
        W = self.weight_matrix(Y).tocoo()
        order = np.lexsort((W.col, W.row))
        return LabelCopies(
            sample=W.row[order].astype(np.intp),
            label=W.col[order].astype(np.intp),
            weight=W.data[order],
        )
