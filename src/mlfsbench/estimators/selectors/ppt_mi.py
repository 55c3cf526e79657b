r"""Univariate mutual information on the pruned problem transformation (PPT-MI).

The univariate baseline of Doquire & Verleysen (2013, Section 5): the labels
are transformed by PPT (Read 2008; label powerset, labelsets seen fewer than
``p`` times removed, their instances discarded, Section 3 of the paper) and
every feature is ranked by its mutual information with the PPT class,

.. math::

    J(f) = I(f; O_t),

here with the plug-in estimator on discrete features (bits,
:func:`mlfsbench.estimators.information.entropy.mutual_information_matrix`). The
variant of the
paper with the nearest-neighbour estimator on continuous features (its Eq. 7)
is ``knnmi-rank``.

- G. Doquire, M. Verleysen (2013). "Mutual information-based feature selection
  for multilabel classification." Neurocomputing 122, pp. 148-155.
- J. Read (2008). "A pruned problem transformation method for multi-label
  classification." NZCSRSC, pp. 143-150.
"""

from __future__ import annotations

import numpy as np

from mlfsbench.estimators.information.entropy import mutual_information_matrix
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector
from mlfsbench.estimators.transformations.lp import PrunedProblemTransformation
from mlfsbench.estimators.validation import positive_count


@register("selector", "ppt-mi")
class PPTMutualInformation(BaseMultiLabelSelector):
    """Rank features by ``I(f; PPT class)`` (Doquire & Verleysen 2013).

    Parameters
    ----------
    p : int, default=6
        PPT pruning threshold: labelsets seen fewer than ``p`` times in the
        training labels are removed with their instances.
    reassign : bool, default=False
        Read's variant: a pruned instance takes its most frequent kept
        sub-labelset instead of being discarded (see
        :class:`~mlfsbench.estimators.transformations.lp.PrunedProblemTransformation`).
    n_features_to_select : int or None, default=None
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        ``I(X_j; PPT class)`` in bits on the kept instances.
    n_kept_ : int
        Training instances left after pruning.
    n_classes_ : int
        PPT classes.

    Examples
    --------
    >>> Y = np.array([[1, 0]] * 4 + [[0, 1]] * 4 + [[1, 1]])
    >>> X = np.array([[1, 0]] * 4 + [[0, 0]] * 4 + [[0, 1]])
    >>> sel = PPTMutualInformation(p=2).fit(X, Y)
    >>> sel.scores_.tolist(), sel.n_kept_
    ([1.0, 0.0], 8)
    """

    input_kind = "discrete"

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "p": [positive_count()],
        "reassign": ["boolean"],
    }

    def __init__(self, *, p=6, reassign=False, n_features_to_select=None,
                 random_state=None):
        super().__init__(
            n_features_to_select=n_features_to_select, random_state=random_state
        )
        self.p = p
        self.reassign = reassign

    def _fit(self, X, Y):
        ppt = PrunedProblemTransformation(p=self.p, reassign=self.reassign)
        classes = ppt.fit(Y).transform(Y)
        kept = np.flatnonzero(classes >= 0)
        self.n_kept_ = int(kept.size)
        self.n_classes_ = len(ppt.labelsets_)
        if kept.size == 0:
            return np.zeros(X.shape[1])
        return mutual_information_matrix(X[kept], classes[kept][:, None])[:, 0]
