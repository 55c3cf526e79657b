r"""Joint mutual information (JMI) criteria for multi-target data.

Sechidis, Spyromitros-Xioufis & Vlahavas (2019), "Information Theoretic
Multi-Target Feature Selection via Output Space Quantization", *Entropy*
21(9):855, and Sechidis, Nikolaou & Brown (2014, S+SSPR). With
:math:`X_\theta` the features selected so far, each step adds the candidate
maximizing

.. math::

    J^{Joint}(X_k) &= \sum_{X_j \in X_\theta} I(X_j X_k; \mathbf Y)
        && \text{(Eq. 1, } \mathbf Y \text{ the label-powerset class)} \\
    J^{Single}(X_k) &= \sum_{X_j \in X_\theta} \sum_{i} I(X_j X_k; Y_i)
        && \text{(Eq. 2, every label separately)} \\
    J^{Group}(X_k) &= \sum_{X_j \in X_\theta} \sum_{i} I(X_j X_k; \widetilde Y_i)
        && \text{(Eq. 3, the quantized label groups)}

(Algorithm 1 for Group-JMI, whose targets :math:`\widetilde Y_i` come from
:class:`mlfsbench.estimators.transformations.label_groups.LabelGroups`). All three are
one
function, :func:`jmi_forward`, of a matrix of discrete targets ``T``.

MI is the plug-in estimate on discretized features (the paper: equal-width,
5 bins -- the discretize stage's default). The sum over :math:`X_\theta` is
empty at the first step; the first feature is the one of highest relevance
:math:`\sum_i I(X_k; T_i)` (Section 2.1's :math:`J_{CMI}` with no selected
feature).

Incremental update: when :math:`X_s` is selected, every candidate's criterion
gains :math:`\sum_i I(X_s X_k; T_i) = \sum_i I(X_s; T_i) + \sum_i I(X_k; T_i |
X_s)` (chain rule, Eq. 6 of the paper), computed for all candidates at once by
:func:`mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`:
one pass
over the data per step instead of one contingency table per (candidate,
selected feature, target) triple. The targets are wrapped once in
:class:`~mlfsbench.estimators.information.entropy.FixedTargets`, which builds
each step's tables from indicators made once (the same numbers, bit for bit).

Equivalences (tested, exact to the last bit because the targets are then
identical codes):

- Group-JMI with one group holding every label (``m=1, pot=1.0``) and NoC at
  least the number of distinct training labelsets equals Joint-JMI: each
  labelset is its own cluster, numbered as its label-powerset class.
- Group-JMI with the groups ``[[0], [1], ..., [q-1]]`` (parameter ``groups``)
  and ``noc >= 2`` equals Single-JMI: each label is its own target. (Random
  groups of size 1, ``pot = 1/q, m = q``, draw labels independently and may
  repeat one, so they equal Single-JMI only when the draws happen to cover
  every label once.)

**The authors' released code** (``Group_JMI_Rand.m`` of the repository
``sechidis/2019-Entropy-Multi-target-feature-selection``) does not compute
Eq. 3: it divides every term by the square root of the two entropies,

.. math::

    J^{Group}_{released}(X_k) = \sum_{X_j \in X_\theta} \sum_i
        \frac{I(X_j X_k; \widetilde Y_i)}
             {\sqrt{H(X_j X_k)\, H(\widetilde Y_i)}},

and picks the first feature by
:math:`\sum_i I(X_k; \widetilde Y_i) / \sqrt{H(X_k) H(\widetilde Y_i)}`.
``criterion="released-code"`` of :class:`GroupJMI` and :class:`GroupJMIRand`
(and :func:`jmi_forward`'s ``normalize=True``) computes that; a term whose
denominator is 0 (a constant feature pair or target) counts 0, where MATLAB
would give NaN. ``criterion="paper"`` (the default) is Eq. 3.
``H(X_j X_k) = H(X_j) + H(X_k) - I(X_j; X_k)`` comes from one MI column per
step.

Greedy-search conventions (cap of 50 steps by default, ranking completed by
relevance, tie rule, ``scores_``): :mod:`mlfsbench.estimators.selectors._greedy`.
With the released-code criterion the ranking is completed by the normalized
relevance (its first-step score).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils._param_validation import StrOptions

from mlfsbench.estimators.information.entropy import (
    CodeIndicators,
    FixedTargets,
    column_entropies,
    conditional_mutual_information_matrix,
    mutual_information_matrix,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector
from mlfsbench.estimators.selectors._greedy import (
    check_discrete_features,
    column,
    greedy_forward,
    greedy_outcome,
    n_greedy_steps,
)
from mlfsbench.estimators.transformations.label_groups import (
    METRICS,
    LabelGroups,
    check_real_targets,
)
from mlfsbench.estimators.transformations.lp import labelset_codes


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` elementwise, 0 where ``den`` is 0."""
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def jmi_forward(X, T, n_steps: int, *, normalize: bool = False,
                trace: list | None = None):
    """Greedy forward selection with :math:`\\sum_{j \\in S} \\sum_i I(X_j X_k; T_i)`.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Discrete feature codes.
    T : array-like of shape (n_samples, n_targets)
        Discrete target codes (labels, the LP class, or quantized groups).
    n_steps : int
        Number of features to select.
    normalize : bool, default=False
        Divide every term by :math:`\\sqrt{H(X_j X_k) H(T_i)}` (and the
        first step's :math:`I(X_k; T_i)` by :math:`\\sqrt{H(X_k) H(T_i)}`):
        the criterion of the authors' released ``Group_JMI_Rand.m``.
    trace : list, optional
        Receives the criterion vector of every step (for tests).

    Returns
    -------
    selected : list of int
    step_scores : list of float
        Criterion of each selected feature at its step (relevance at step 1).
    relevance : ndarray of shape (n_features,)
        :math:`\\sum_i I(X_k; T_i)` (normalized when ``normalize``).

    Examples
    --------
    >>> X = np.array([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2)
    >>> T = np.bitwise_xor(X[:, :1], X[:, 1:2])  # T = x0 XOR x1 (= x2)
    >>> selected, _, relevance = jmi_forward(X, T, 2)
    >>> selected, relevance.tolist()
    ([2, 0], [0.0, 0.0, 1.0])
    >>> jmi_forward(X, T, 2, normalize=True)[0]  # I(x2 x0; T) / sqrt(2 * 1)
    [2, 0]
    """
    X = check_discrete_features(X)
    T = np.asarray(T)
    if T.ndim == 1:
        T = T.reshape(-1, 1)
    XI = CodeIndicators(X)  # built once for every step
    TF = FixedTargets(T)  # likewise the targets' (same numbers, faster)
    mi = mutual_information_matrix(XI, T)  # (p, t)
    if not normalize:
        relevance = mi.sum(axis=1)

        def update(s: int) -> np.ndarray:
            cmi = conditional_mutual_information_matrix(XI, TF, column(X, s))
            return relevance[s] + cmi.sum(axis=1)
    else:
        h_x = column_entropies(X)
        h_t = column_entropies(T)
        relevance = _ratio(mi, np.sqrt(np.outer(h_x, h_t))).sum(axis=1)

        def update(s: int) -> np.ndarray:
            xs = column(X, s)
            joint_mi = mi[s] + conditional_mutual_information_matrix(XI, TF, xs)
            h_pair = h_x[s] + h_x - mutual_information_matrix(XI, xs)[:, 0]
            h_pair = np.maximum(h_pair, 0.0)  # rounding below 0 when constant
            return _ratio(joint_mi, np.sqrt(np.outer(h_pair, h_t))).sum(axis=1)

    selected, step_scores = greedy_forward(
        X.shape[1], n_steps, lambda acc, t: acc, update,
        first_scores=relevance, trace=trace,
    )
    return selected, step_scores, relevance


class _JMISelector(BaseMultiLabelSelector):
    """Shared ``_fit`` of the JMI selectors: targets, then :func:`jmi_forward`."""

    input_kind = "discrete"

    def _targets(self, Y) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _normalize(self) -> bool:
        """Whether to use the released code's normalized terms."""
        return False

    def _fit(self, X, Y):
        T = self._targets(Y)
        n_steps = n_greedy_steps(self.n_features_to_select, X.shape[1])
        selected, step_scores, relevance = jmi_forward(
            X, T, n_steps, normalize=self._normalize())
        self.relevance_ = relevance
        return greedy_outcome(self, X.shape[1], selected, step_scores, relevance)


_PARAMS_DOC = """
    n_features_to_select : int or None, default=None
        Number of greedy steps (``None``: 50, or all features if fewer); the
        ranking then continues with the other features by relevance.
    random_state : int, RandomState or None
"""

_EXAMPLE_DOC = """
    >>> X = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 1]] * 3)
    >>> Y = np.column_stack([X[:, 0] ^ X[:, 1], X[:, 2]])"""

_ATTRS_DOC = """
    ranking_ : ndarray of shape (n_features,)
        Selection order, then the remaining features by relevance.
    scores_ : ndarray of shape (n_features,)
        Criterion value at the step a feature was selected (its relevance for
        the first one); NaN for features not selected greedily.
    relevance_ : ndarray of shape (n_features,)
        Sum over targets of ``I(X_k; T_i)`` in bits.
"""


@register("selector", "single-jmi")
class SingleJMI(_JMISelector):
    __doc__ = f"""Single-JMI: JMI summed over the labels (Sechidis 2019, Eq. 2).

    Every label is a separate target (binary-relevance view). See
    :mod:`mlfsbench.estimators.selectors.jmi`.

    Parameters
    ----------{_PARAMS_DOC}
    Attributes
    ----------{_ATTRS_DOC}
    Examples
    --------{_EXAMPLE_DOC}
    >>> SingleJMI().fit(X, Y).ranking_.tolist()
    [2, 0, 1]
    """

    def _targets(self, Y):
        return Y


@register("selector", "joint-jmi")
class JointJMI(_JMISelector):
    __doc__ = f"""Joint-JMI: JMI with the label-powerset class (Sechidis 2019, Eq. 1).

    The target is the joint variable of all labels, one class per distinct
    training labelset (:func:`mlfsbench.estimators.transformations.lp.labelset_codes`).

    Parameters
    ----------{_PARAMS_DOC}
    Attributes
    ----------{_ATTRS_DOC}
    Examples
    --------{_EXAMPLE_DOC}
    >>> JointJMI().fit(X, Y).ranking_.tolist()
    [2, 0, 1]
    """

    def _targets(self, Y):
        return labelset_codes(Y)[0][:, None]


_CRITERIA = ("paper", "released-code")

_CRITERION_DOC = """
    criterion : {"paper", "released-code"}, default="paper"
        ``"paper"``: Eq. 3. ``"released-code"``: every term divided by
        ``sqrt(H(X_j X_k) H(T_i))`` and the first feature by the normalized
        relevance, as the authors' ``Group_JMI_Rand.m`` computes (see
        :mod:`mlfsbench.estimators.selectors.jmi`)."""

_TARGET_METRIC_DOC = """
    target_metric : {"hamming", "euclidean"}, default="hamming"
        Distance of the k-medoids clustering of each group's target vectors:
        ``"hamming"`` for 0/1 labels (multi-label data), ``"euclidean"`` for
        real-valued targets (multi-target regression, Sechidis 2019, Section
        5: "using the Euclidean distance for clustering, since we have
        continuous variables"). With ``"euclidean"``, ``Y`` may be any
        finite real matrix; the features are still discrete codes."""


class _GroupJMIBase(_JMISelector):
    """Quantized label groups as targets; the parameters both variants share."""

    _parameter_constraints: dict = {
        **_JMISelector._parameter_constraints,
        "target_metric": [StrOptions(set(METRICS))],
    }

    def __init__(self, *, pot, noc, m, criterion, target_metric,
                 n_features_to_select, random_state):
        self.pot = pot
        self.noc = noc
        self.m = m
        self.criterion = criterion
        self.target_metric = target_metric
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)

    def _explicit_groups(self):
        return None

    def _normalize(self) -> bool:
        if self.criterion not in _CRITERIA:
            raise ValueError(
                f"criterion must be one of {_CRITERIA}, got {self.criterion!r}")
        return self.criterion == "released-code"

    def _check_targets(self, Y) -> np.ndarray:
        """0/1 labels for Hamming clustering, finite reals for Euclidean."""
        if self.target_metric == "euclidean":
            return check_real_targets(Y)
        try:
            return super()._check_targets(Y)
        except ValueError as exc:
            raise ValueError(
                f"{exc}; real-valued targets (multi-target regression) take "
                f"target_metric='euclidean'") from None

    def _targets(self, Y):
        self.label_groups_ = LabelGroups(
            pot=self.pot, noc=self.noc, m=self.m, groups=self._explicit_groups(),
            metric=self.target_metric, random_state=self.random_state,
        )
        return self.label_groups_.fit_transform(Y)


@register("selector", "group-jmi")
class GroupJMI(_GroupJMIBase):
    __doc__ = f"""Group-JMI: JMI over quantized label groups (Sechidis 2019, Eq. 3).

    Algorithm 1: ``m`` random groups of ``pot * q`` labels, each quantized by
    k-medoids (``target_metric``: Hamming or Euclidean) into ``noc`` clusters
    (:class:`~mlfsbench.estimators.transformations.label_groups.LabelGroups`), then
    forward selection with Eq. 3.

    Parameters
    ----------
    pot : float or (float, float), default=0.5
        Proportion of targets per group, or a range drawn from per group.
    noc : int or (int, int), default=8
        Number of clusters per group, or an inclusive range.
    m : int or None, default=None
        Number of groups (``None``: the number of labels, Algorithm 1).
    groups : list of lists of int, optional
        Explicit label groups (then ``pot`` and ``m`` are
        unused).{_CRITERION_DOC}{_TARGET_METRIC_DOC}{_PARAMS_DOC}
    Attributes
    ----------{_ATTRS_DOC}    label_groups_ : LabelGroups
        The fitted output transformation (groups, NoC, medoids).

    Examples
    --------{_EXAMPLE_DOC}
    >>> GroupJMI(groups=[[0], [1]], noc=2).fit(X, Y).ranking_.tolist()
    [2, 0, 1]
    """

    def __init__(self, *, pot=0.5, noc=8, m=None, groups=None, criterion="paper",
                 target_metric="hamming", n_features_to_select=None,
                 random_state=None):
        self.groups = groups
        super().__init__(pot=pot, noc=noc, m=m, criterion=criterion,
                         target_metric=target_metric,
                         n_features_to_select=n_features_to_select,
                         random_state=random_state)

    def _explicit_groups(self):
        return self.groups


@register("selector", "group-jmi-rand")
class GroupJMIRand(_GroupJMIBase):
    __doc__ = f"""Group-JMI-Rand: PoT ~ U[0.25, 0.75], NoC ~ U{{4..16}} per group.

    Sechidis 2019, Section 3.4: Group-JMI whose groups each draw their own
    PoT and NoC from these ranges (seeded by ``random_state``).

    Parameters
    ----------
    pot : (float, float), default=(0.25, 0.75)
    noc : (int, int), default=(4, 16)
    m : int or None, default=None
        Number of groups (``None``: the number of
        labels).{_CRITERION_DOC}{_TARGET_METRIC_DOC}{_PARAMS_DOC}
    Attributes
    ----------{_ATTRS_DOC}    label_groups_ : LabelGroups

    Examples
    --------{_EXAMPLE_DOC}
    >>> sel = GroupJMIRand(random_state=0).fit(X, Y)
    >>> sel.ranking_.tolist(), sel.label_groups_.noc_.tolist()
    ([2, 0, 1], [9, 7])
    """

    def __init__(self, *, pot=(0.25, 0.75), noc=(4, 16), m=None, criterion="paper",
                 target_metric="hamming", n_features_to_select=None,
                 random_state=None):
        super().__init__(pot=pot, noc=noc, m=m, criterion=criterion,
                         target_metric=target_metric,
                         n_features_to_select=n_features_to_select,
                         random_state=random_state)
