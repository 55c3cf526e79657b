r"""IG-BR, IG-LP, RF-BR and RF-LP (Spolaôr, Cherman, Monard & Lee 2013).

N. Spolaôr, E. A. Cherman, M. C. Monard, H. D. Lee (2013). "A Comparison of
Multi-label Feature Selection Methods using the Problem Transformation
Approach." ENTCS 292, pp. 135-151.

Two single-label importance measures on two problem transformations
(Section 4):

- **IG**: information gain, Eq. 7, ``IG(D, X_j) = H(D) - sum_v |D_v|/|D|
  H(D_v)`` in bits (the mutual information of the feature and the class).
  Spolaôr et al. ran Weka's ``InfoGainAttributeEval`` with default settings,
  which discretizes numeric features with Fayyad & Irani's MDL method
  supervised on the class; so do these selectors by default
  (``discretization="mdl"``, :mod:`mlfsbench.estimators.discretizers.mdl`), each BR
  label and the LP
  class getting its own discretization. ``discretization="none"`` takes ``X``
  as nominal codes (what Weka does with nominal attributes, e.g. the 0/1 words
  of text datasets) and computes IG directly. ``discretization="auto"`` (what
  ``config/papers/spolaor2013.yaml`` uses) does each feature as Weka would
  for a Mulan ARFF: a nominal attribute (the text datasets declare their
  words ``{0,1}``) as nominal codes, every numeric feature through MDL. The
  types come from ``fit(..., feature_types=...)`` (the prepared dataset's
  ``feature_types``, passed by the select stage); without them a feature
  whose values are all 0 or 1 is taken as nominal (:func:`nominal_columns`).
  The difference matters: MDL refuses the single 0/1 cut of a
  weakly informative word, giving IG 0, so with ``"mdl"`` no enron word
  reaches the 0.01 threshold, whereas the paper's Table 3 reports 99.55 %
  (IG-BR) and 0 % (IG-LP) feature reduction on enron. Without types, a
  numeric feature that happens to take only the values 0 and 1 is also
  taken as nominal (Weka would MDL-discretize it; no dataset here has one).
- **RF**: ReliefF (Robnik-Šikonja & Kononenko 2003; Weka defaults: k = 10
  nearest hits and misses, every instance sampled, numeric diff normalised by
  the range), see :mod:`mlfsbench.estimators.selectors._relief`.
- **BR**: the measure is computed on each label's binary problem and averaged
  over the labels. **LP**: on the label-powerset class (one class per distinct
  training labelset, :class:`mlfsbench.estimators.transformations.lp.LabelPowerset`).

Selection (Section 4): the features whose score is greater than or equal to a
threshold (0.01 in the paper), or, when ``n_features_to_select`` is given, the
top K. ``feature_reduction_`` is the paper's Eq. 10, ``100 - 100 |X'| / M``
for the selected subset ``X'`` of the ``M`` features. The ranking
(``ranking_``) is the order of the scores either way, so the workflow can
also evaluate every subset size.

All four take continuous ``X`` (``input_kind = "continuous"``).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.discretizers.mdl import mdl_information_gain
from mlfsbench.estimators.information.entropy import (
    check_codes,
    mutual_information_matrix,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import (
    BaseMultiLabelSelector,
    binary_columns,
    positive_count,
)
from mlfsbench.estimators.selectors._relief import mean_over_columns, relieff_scores
from mlfsbench.estimators.transformations.br import BinaryRelevance
from mlfsbench.estimators.transformations.lp import LabelPowerset

DISCRETIZATIONS = ("mdl", "none", "auto")


class ThresholdSelectorMixin:
    """Support by score threshold unless ``n_features_to_select`` is set.

    Sets ``feature_reduction_`` (Spolaôr et al. 2013, Eq. 10) after ``fit``.
    """

    def _get_support_mask(self):
        check_is_fitted(self, "ranking_")
        if self.n_features_to_select is not None or self.threshold is None:
            return super()._get_support_mask()
        return np.asarray(self.scores_ >= float(self.threshold))

    def fit(self, X, Y, feature_types=None):
        """Score and rank the features; report the feature reduction."""
        super().fit(X, Y, feature_types=feature_types)
        selected = int(self._get_support_mask().sum())
        self.n_selected_ = selected
        self.feature_reduction_ = 100.0 - 100.0 * selected / self.n_features_in_
        return self


def nominal_columns(X, feature_types=None) -> np.ndarray:
    """Mask of the features ``discretization="auto"`` takes as nominal codes.

    With ``feature_types`` (from the prepared dataset): the features of a
    nominal type whose values are non-negative integers (a nominal feature
    whose missing values were imputed by a mean is numeric now). Without
    them: the features whose values are all 0 or 1.

    >>> X = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 0.5]])
    >>> nominal_columns(X).tolist()
    [True, True, False]
    >>> nominal_columns(X, np.array(["numeric", "binary", "ordinal"])).tolist()
    [False, True, False]
    """
    if feature_types is None:
        return binary_columns(X)
    values = X.tocsc() if sp.issparse(X) else np.asarray(X)
    nominal = np.asarray(feature_types) != "numeric"
    for j in np.flatnonzero(nominal):
        col = values[:, [j]].data if sp.issparse(values) else values[:, j]
        nominal[j] = bool(np.all((col >= 0) & (col == np.round(col))))
    return nominal


def _information_gain(X, targets, discretization, better_encoding,
                      feature_types=None):
    """IG of every feature for each column of ``targets`` (class codes)."""
    if discretization not in DISCRETIZATIONS:
        raise ValueError(
            f"discretization must be one of {DISCRETIZATIONS}, got {discretization!r}"
        )
    if discretization == "none":
        return mutual_information_matrix(check_codes(X, "X"), targets)
    if discretization == "auto":
        binary = nominal_columns(X, feature_types)
        if binary.all():
            return mutual_information_matrix(check_codes(X, "X"), targets)
        if binary.any():  # both results are (n_features, n_targets)
            nominal = mutual_information_matrix(
                check_codes(X[:, np.flatnonzero(binary)], "X"), targets)
            out = np.empty((X.shape[1], nominal.shape[1]))
            out[binary] = nominal
            out[~binary] = mdl_information_gain(
                X[:, np.flatnonzero(~binary)], targets,
                better_encoding=better_encoding,
            )
            return out
    return mdl_information_gain(X, targets, better_encoding=better_encoding)


class _SpolaorBase(ThresholdSelectorMixin, BaseMultiLabelSelector):
    input_kind = "continuous"

    def _label_powerset(self, Y) -> np.ndarray:
        """LP class codes of ``Y``; sets ``n_classes_`` (distinct labelsets)."""
        classes = LabelPowerset().fit_transform(Y)
        self.n_classes_ = int(classes.max()) + 1 if classes.size else 0
        return classes


class _InformationGainBase(_SpolaorBase):
    """Parameters shared by IG-BR and IG-LP."""

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "threshold": [Real, None],
        "discretization": [StrOptions(set(DISCRETIZATIONS))],
        "better_encoding": ["boolean"],
    }

    def __init__(self, *, threshold=0.01, discretization="mdl",
                 better_encoding=False, n_features_to_select=None,
                 random_state=None):
        super().__init__(
            n_features_to_select=n_features_to_select, random_state=random_state
        )
        self.threshold = threshold
        self.discretization = discretization
        self.better_encoding = better_encoding

    def _information_gain(self, X, targets):
        return _information_gain(
            X, targets, self.discretization, self.better_encoding,
            self.feature_types_,
        )


class _ReliefFBase(_SpolaorBase):
    """Parameters shared by RF-BR and RF-LP."""

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


@register("selector", "ig-br")
class InformationGainBR(_InformationGainBase):
    """IG-BR: information gain per BR label, averaged (Spolaôr et al. 2013).

    Parameters
    ----------
    threshold : float or None, default=0.01
        Features scoring at least this much are selected when
        ``n_features_to_select`` is None (``None``: all).
    discretization : {"mdl", "none", "auto"}, default="mdl"
        MDL discretization of each feature supervised on each label (Weka's
        default), ``X`` taken as nominal integer codes, or ``"auto"``: 0/1
        features as nominal, the others MDL (see the module docstring).
    better_encoding : bool, default=False
        MDL cost variant, see
        :func:`mlfsbench.estimators.discretizers.mdl.mdl_cut_points`.
    n_features_to_select : int or None, default=None
        Top-K selection instead of the threshold.
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        Mean over labels of ``IG(X_j; y_k)`` in bits.
    ig_ : ndarray (n_features, n_labels)
        Per-label information gain.
    feature_reduction_ : float
        Eq. 10, percent of features not selected.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, (200, 2))
    >>> X = np.column_stack([Y[:, 0] + rng.random(200) * 0.5, rng.random(200)])
    >>> sel = InformationGainBR().fit(X, Y)
    >>> sel.ranking_.tolist(), sel.get_support().tolist()
    ([0, 1], [True, False])
    >>> sel.feature_reduction_
    50.0
    """

    def _fit(self, X, Y):
        self.ig_ = self._information_gain(X, BinaryRelevance().fit_transform(Y))
        return mean_over_columns(self.ig_)


@register("selector", "ig-lp")
class InformationGainLP(_InformationGainBase):
    """IG-LP: information gain with the label-powerset class.

    Parameters
    ----------
    threshold : float or None, default=0.01
        Features scoring at least this much are selected when
        ``n_features_to_select`` is None (``None``: all).
    discretization : {"mdl", "none", "auto"}, default="mdl"
        MDL discretization supervised on the LP class, ``X`` taken as
        nominal integer codes, or ``"auto"`` (0/1 features nominal, the
        others MDL).
    better_encoding : bool, default=False
        MDL cost variant, see
        :func:`mlfsbench.estimators.discretizers.mdl.mdl_cut_points`.
    n_features_to_select : int or None, default=None
    random_state : None
        Unused.

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        ``IG(X_j; LP class)`` in bits.
    n_classes_ : int
        Distinct training labelsets.
    feature_reduction_ : float
        Eq. 10.

    Examples
    --------
    >>> Y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 25)
    >>> X = np.column_stack([Y @ [2, 1] + 0.1, Y[:, 1] * 3.0])  # 2 bits, 1 bit
    >>> sel = InformationGainLP().fit(X, Y)
    >>> sel.scores_.round(6).tolist(), sel.n_classes_
    ([2.0, 1.0], 4)
    """

    def _fit(self, X, Y):
        return self._information_gain(X, self._label_powerset(Y)[:, None])[:, 0]


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
        return self._relieff(X, self._label_powerset(Y))[:, 0]
