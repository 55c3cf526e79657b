"""Label powerset (LP) and the pruned problem transformation (PPT).

LP maps each distinct labelset to one class. PPT (Read, 2008) is LP after
removing the labelsets seen fewer than ``p`` times in the training data; it is
the transformation Doquire & Verleysen (2013, Section 2.3) use before their
mutual-information search, with the removed instances simply discarded.
Read's alternative, re-introducing a pruned instance under its frequent
subsets, is available with ``reassign=True``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import check_label_matrix, positive_count


def labelset_codes(Y) -> tuple[np.ndarray, np.ndarray]:
    """Class of each row of ``Y`` and the distinct labelsets, in sorted order.

    Returns ``(codes, labelsets)`` with ``labelsets[codes[i]] == Y[i]``.

    >>> codes, sets = labelset_codes(np.array([[1, 0], [0, 1], [1, 0]]))
    >>> codes.tolist(), sets.tolist()
    ([1, 0, 1], [[0, 1], [1, 0]])
    """
    Y = check_label_matrix(Y)
    labelsets, codes = np.unique(Y, axis=0, return_inverse=True)
    return codes.reshape(-1).astype(np.intp), labelsets


@register("transformation", "lp")
class LabelPowerset(TransformerMixin, BaseEstimator):
    """Label powerset: one class per distinct training labelset.

    ``transform`` maps a labelset unseen in training to ``-1``.

    >>> lp = LabelPowerset().fit(np.array([[1, 0], [0, 1], [1, 0]]))
    >>> lp.transform(np.array([[1, 0], [1, 1]])).tolist()
    [1, -1]
    """

    def fit(self, Y, y=None):
        _, self.labelsets_ = labelset_codes(Y)
        return self

    def transform(self, Y):
        check_is_fitted(self, "labelsets_")
        return _lookup(self.labelsets_, check_label_matrix(Y))


def label_powerset_classes(Y) -> tuple[np.ndarray, int]:
    """LP class of each row of ``Y`` and the number of distinct labelsets.

    >>> codes, n = label_powerset_classes(np.array([[1, 0], [0, 1], [1, 0]]))
    >>> codes.tolist(), n
    ([1, 0, 1], 2)
    """
    classes = LabelPowerset().fit_transform(Y)
    return classes, int(classes.max()) + 1 if classes.size else 0


def _lookup(labelsets: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Index of each row of ``Y`` in the sorted ``labelsets`` (``-1`` if absent)."""
    if len(labelsets) == 0:
        return np.full(len(Y), -1, dtype=np.intp)
    weights = 1 << np.arange(Y.shape[1] - 1, -1, -1, dtype=object)
    if Y.shape[1] <= 62:
        weights = weights.astype(np.int64)
        keys_sets = labelsets.astype(np.int64) @ weights
        keys = Y.astype(np.int64) @ weights
    else:  # exact integers for very many labels
        keys_sets = np.array([int(k) for k in labelsets.astype(object) @ weights])
        keys = np.array([int(k) for k in Y.astype(object) @ weights])
    order = np.argsort(keys_sets, kind="mergesort")
    pos = np.searchsorted(keys_sets[order], keys)
    pos = np.minimum(pos, len(order) - 1)
    found = keys_sets[order][pos] == keys
    return np.where(found, order[pos], -1).astype(np.intp)


@register("transformation", "ppt")
class PrunedProblemTransformation(TransformerMixin, BaseEstimator):
    """PPT: label powerset without the labelsets seen fewer than ``p`` times.

    Parameters
    ----------
    p : int, default=6
        Pruning threshold: a labelset must occur at least ``p`` times in the
        training labels to become a class.
    reassign : bool, default=False
        ``False`` (Doquire & Verleysen 2013): instances of pruned labelsets get
        class ``-1`` and are discarded by the caller. ``True`` (Read 2008,
        "PPT with re-introduction"): such an instance takes the class of the
        most frequent kept labelset that is a subset of its labelset
        (ties: the larger subset, then the lower class index), or ``-1`` when
        no kept labelset is a subset of it.

    Attributes
    ----------
    labelsets_ : ndarray (n_classes, n_labels)
        The kept labelsets; class ``c`` is ``labelsets_[c]``.
    counts_ : ndarray (n_classes,)
        Their training counts.

    Examples
    --------
    >>> Y = np.array([[1, 0]] * 3 + [[0, 1]] * 2 + [[1, 1]])
    >>> ppt = PrunedProblemTransformation(p=2).fit(Y)
    >>> ppt.transform(Y).tolist()
    [1, 1, 1, 0, 0, -1]
    >>> PrunedProblemTransformation(p=2, reassign=True).fit_transform(Y).tolist()
    [1, 1, 1, 0, 0, 1]
    """

    _parameter_constraints: dict = {
        "p": [positive_count()],
        "reassign": ["boolean"],
    }

    def __init__(self, *, p=6, reassign=False):
        self.p = p
        self.reassign = reassign

    def fit(self, Y, y=None):
        if int(self.p) < 1:
            raise ValueError(f"p must be >= 1, got {self.p}")
        codes, labelsets = labelset_codes(Y)
        counts = np.bincount(codes, minlength=len(labelsets))
        keep = counts >= int(self.p)
        self.labelsets_ = labelsets[keep]
        self.counts_ = counts[keep]
        return self

    def transform(self, Y):
        check_is_fitted(self, "labelsets_")
        Y = check_label_matrix(Y)
        classes = _lookup(self.labelsets_, Y)
        if self.reassign:
            missing = np.flatnonzero(classes < 0)
            if missing.size and len(self.labelsets_):
                # subset[i, c]: kept labelset c is contained in Y[missing[i]]
                sets = self.labelsets_.astype(np.int64)
                outside = (1 - Y[missing].astype(np.int64)) @ sets.T
                subset = outside == 0
                size = sets.sum(axis=1)
                # Rank: count first, then size, then lower class index.
                key = self.counts_ * (Y.shape[1] + 1) + size
                score = np.where(subset, key[None, :], -1)
                best = np.argmax(score, axis=1)
                ok = score[np.arange(len(missing)), best] >= 0
                classes[missing[ok]] = best[ok]
        return classes
