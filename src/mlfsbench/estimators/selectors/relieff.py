r"""ReliefF selectors: RF-BR and RF-LP (``rf-br``, ``rf-lp``).

The method family "ReliefF on a problem transformation" of Spolaôr, Cherman,
Monard & Lee (2013, Section 4): ReliefF (Robnik-Šikonja & Kononenko 2003;
Weka defaults: k = 10 nearest hits and misses, every instance sampled,
numeric diff normalised by the range) computed on each label's binary problem
and averaged over the labels (**BR**), or on the label-powerset class, one
class per distinct training labelset (**LP**,
:class:`mlfsbench.estimators.transformations.lp.LabelPowerset`).

The ReliefF (and RReliefF) weights are computed by
:mod:`mlfsbench.estimators.selectors._relief`, their neighbours found by
:mod:`mlfsbench.estimators.neighbours`. RReliefF for numeric targets is
:mod:`mlfsbench.estimators.selectors.rrelieff`; the information-gain members
of the same comparison are :mod:`mlfsbench.estimators.selectors.information_gain`.

N. Spolaôr, E. A. Cherman, M. C. Monard, H. D. Lee (2013). "A Comparison of
Multi-label Feature Selection Methods using the Problem Transformation
Approach." ENTCS 292, pp. 135-151.

Selection (Section 4): the features whose score is greater than or equal to a
threshold (0.01 in the paper), or, when ``n_features_to_select`` is given, the
top K (:class:`~mlfsbench.estimators.selectors._base.ThresholdSelectorMixin`).
``feature_reduction_`` is the paper's Eq. 10, ``100 - 100 |X'| / M`` for the
selected subset ``X'`` of the ``M`` features. The ranking (``ranking_``) is
the order of the scores either way, so the workflow can also evaluate every
subset size. Both take continuous ``X`` (``input_kind = "continuous"``).
"""

from __future__ import annotations

from numbers import Real

import numpy as np  # noqa: F401 (the doctests)

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import (
    BaseMultiLabelSelector,
    ThresholdSelectorMixin,
    mean_over_columns,
)
from mlfsbench.estimators.selectors._relief import relieff_scores
from mlfsbench.estimators.transformations.br import BinaryRelevance
from mlfsbench.estimators.transformations.lp import label_powerset_classes
from mlfsbench.estimators.validation import positive_count


class _ReliefFBase(ThresholdSelectorMixin, BaseMultiLabelSelector):
    """Parameters shared by RF-BR and RF-LP."""

    input_kind = "continuous"

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "threshold": [Real, None],
        "n_neighbors": [positive_count()],
        "n_samples": [positive_count(), None],
    }

    def __init__(self, *, threshold=0.01, n_neighbors=10, n_samples=None,
                 n_features_to_select=None, random_state=None):
        super().__init__(
            n_features_to_select=n_features_to_select, random_state=random_state
        )
        self.threshold = threshold
        self.n_neighbors = n_neighbors
        self.n_samples = n_samples

    def _relieff(self, X, classes):
        return relieff_scores(
            X, classes, n_neighbors=self.n_neighbors,
            n_samples=self.n_samples, random_state=self.random_state,
        )


@register("selector", "rf-br")
class ReliefFBR(_ReliefFBase):
    """RF-BR: ReliefF per BR label, averaged (Spolaôr et al. 2013).

    The distances are shared by all labels, so the neighbours of every
    instance are sorted once; see :func:`mlfsbench.estimators.selectors._relief.
    relieff_scores`.

    Parameters
    ----------
    threshold : float or None, default=0.01
        Features scoring at least this much are selected when
        ``n_features_to_select`` is None (``None``: all).
    n_neighbors : int, default=10
        ``k`` nearest hits and misses.
    n_samples : int or None, default=None
        Instances sampled (``m``); ``None``: all, in order.
    n_features_to_select : int or None, default=None
    random_state : int or None, default=None
        Seeds the sample when ``n_samples`` is set.

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        Mean ReliefF weight over labels.
    relief_ : ndarray (n_features, n_labels)
        Per-label ReliefF weights.
    feature_reduction_ : float
        Eq. 10.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, (100, 2))
    >>> X = np.column_stack([Y[:, 0] + rng.random(100), rng.random(100)])
    >>> ReliefFBR().fit(X, Y).ranking_.tolist()
    [0, 1]
    """

    def _fit(self, X, Y):
        self.relief_ = self._relieff(X, BinaryRelevance().fit_transform(Y))
        return mean_over_columns(self.relief_)


@register("selector", "rf-lp")
class ReliefFLP(_ReliefFBase):
    """RF-LP: ReliefF with the label-powerset class (Spolaôr et al. 2013).

    Misses come from every other labelset class, weighted by
    ``P(C) / (1 - P(class(R)))`` (multi-class ReliefF).

    Parameters
    ----------
    threshold : float or None, default=0.01
        Features scoring at least this much are selected when
        ``n_features_to_select`` is None (``None``: all).
    n_neighbors : int, default=10
    n_samples : int or None, default=None
    n_features_to_select : int or None, default=None
    random_state : int or None, default=None

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        ReliefF weights on the LP class.
    n_classes_ : int
        Distinct training labelsets.
    feature_reduction_ : float
        Eq. 10.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, (100, 2))
    >>> X = np.column_stack([rng.random(100), Y @ [2, 1] + rng.random(100)])
    >>> ReliefFLP().fit(X, Y).ranking_.tolist()
    [1, 0]
    """

    def _fit(self, X, Y):
        classes, self.n_classes_ = label_powerset_classes(Y)
        return self._relieff(X, classes)[:, 0]
