r"""Second-order information criteria on a transformed multi-label target.

The greedy criteria that Brown, Pocock, Zhao & Luján (2012) unify as
low-order approximations of the conditional likelihood -- CMIM, DISR, ICAP,
CIFE and mRMR, one module each -- are defined for one class ``Y``. A
multi-label problem reaches them through a label transformation
(``transformation`` parameter):

- ``"lp"``: the label-powerset class, one class per distinct training
  labelset (:func:`mlfsbench.estimators.transformations.lp.labelset_codes`);
- ``"ppt"``: LP without the labelsets seen fewer than ``p`` times, whose
  instances are discarded (``reassign=False``, as Doquire & Verleysen 2013 do)
  or re-introduced under a frequent subset (``reassign=True``, Read 2008;
  :class:`mlfsbench.estimators.transformations.lp.PrunedProblemTransformation`);
- ``"br"``: binary relevance, every label ``Y_i`` a class of its own, and the
  criterion is **summed over the labels** in one greedy search:
  :math:`J^{BR}(X_k) = \sum_i J(X_k; Y_i)`.

Why a sum over the labels for BR (and not one selection per label): that is
what the literature the project reproduces does with a BR view of an
information criterion. Sechidis, Nikolaou & Brown (2014) derive the BR
("full independence of the labels") versions of the criteria from a
composite likelihood, the product of the labels' likelihoods, whose greedy
maximisation adds the single-label criteria of the labels -- Single-JMI,
:math:`\sum_{X_j \in S} \sum_i I(X_j X_k; Y_i)` (Sechidis et al. 2019,
Eq. 2; ``single-jmi``); MIM-BR, :math:`\sum_i I(X_k; Y_i)` (Yang & Pedersen
1997, ``mim-br``); Li et al. (2017, Eqs. 13-16, ``granular-mrmr``) score mRMR
with the mean MI over the labels of a granule; Spolaôr et al. (2013) average
information gain over the BR labels (``ig-br``). All of them score a feature
once against every label and rank by the combined score; none selects per
label and merges. A mean over the labels ranks like the sum (it is the sum
divided by ``q``); the sum is used as ``mim-br`` and ``single-jmi`` do.

What one step costs: every criterion here is built from three plug-in
quantities (bits, discretized features, Cover & Thomas 2006):

- the relevance :math:`I(X_k; T_i)` of every feature to every target (once);
- :math:`I(X_k; T_i \mid X_s)` for every candidate ``k`` and target ``i``
  when ``X_s`` is selected: one call of
  :func:`~mlfsbench.estimators.information.entropy.conditional_mutual_information_matrix`
  with the targets wrapped once in
  :class:`~mlfsbench.estimators.information.entropy.FixedTargets`, a pass over
  the data for all candidates at once, as the JMI update;
- :math:`I(X_k; X_s)` (mRMR, DISR): one
  :func:`~mlfsbench.estimators.information.entropy.mutual_information_matrix`
  column.

The conditional redundancy the criteria write as
:math:`I(X_k; X_j \mid Y)` comes from the same quantities through the
symmetry of the interaction information (McGill 1954),

.. math::

    I(X_k; X_j) - I(X_k; X_j \mid Y) = I(X_k; Y) - I(X_k; Y \mid X_j),

an identity of entropies that the plug-in estimates satisfy exactly (up to
rounding): the tests check every criterion against its written form computed
one contingency table at a time.

Greedy-search conventions (:mod:`mlfsbench.estimators.selectors._greedy`):
the first feature is the one of highest relevance :math:`\sum_i I(X_k; T_i)`
(every criterion reduces to it, or is undefined, with nothing selected);
``n_features_to_select`` steps (``None``: 50, or all features if fewer); ties
within ``1e-10`` relative go to the lower feature index; the ranking
continues with the features not selected by decreasing relevance;
``scores_`` holds the criterion at the step a feature was selected, NaN for
the others.

- G. Brown, A. Pocock, M.-J. Zhao, M. Luján (2012). "Conditional Likelihood
  Maximisation: A Unifying Framework for Information Theoretic Feature
  Selection." JMLR 13, pp. 27-66.
- K. Sechidis, N. Nikolaou, G. Brown (2014). "Information Theoretic Feature
  Selection in Multi-label Data through Composite Likelihood." S+SSPR.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils._param_validation import StrOptions

from mlfsbench.estimators.information.entropy import (
    FixedTargets,
    column_entropies,
    conditional_mutual_information_matrix,
    mutual_information_matrix,
)
from mlfsbench.estimators.selectors._greedy import RelevanceGreedySelector, column
from mlfsbench.estimators.transformations.lp import (
    PrunedProblemTransformation,
    labelset_codes,
)
from mlfsbench.estimators.validation import positive_count

#: The label transformations a pairwise criterion is applied after.
TRANSFORMATIONS = ("br", "lp", "ppt")


def transformed_targets(Y, transformation: str, *, p: int = 6,
                        reassign: bool = False):
    """The targets of a criterion after a label transformation.

    Returns ``(rows, T)``: the training rows that keep a target (``None``:
    all) and the target codes, one column per target: the labels (BR), the
    label-powerset class (LP) or the PPT class of the kept rows (PPT).

    Examples
    --------
    >>> Y = np.array([[1, 0]] * 3 + [[0, 1]] * 2 + [[1, 1]])
    >>> transformed_targets(Y, "lp")[1].ravel().tolist()
    [1, 1, 1, 0, 0, 2]
    >>> rows, T = transformed_targets(Y, "ppt", p=2)
    >>> rows.tolist(), T.ravel().tolist()
    ([0, 1, 2, 3, 4], [1, 1, 1, 0, 0])
    """
    if transformation == "br":
        return None, np.asarray(Y)
    if transformation == "lp":
        return None, labelset_codes(Y)[0][:, None]
    if transformation == "ppt":
        classes = PrunedProblemTransformation(p=p, reassign=reassign).fit_transform(Y)
        rows = np.flatnonzero(classes >= 0)
        return rows, classes[rows][:, None]
    raise ValueError(
        f"transformation must be one of {TRANSFORMATIONS}, got {transformation!r}")


class PairTerms:
    """The per-step quantities of the pairwise criteria, for all candidates.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Discrete feature codes.
    XI : CodeIndicators
        Their indicators (built once by the selector).
    T : ndarray of shape (n_samples, n_targets)
        Target codes.
    mi : ndarray of shape (n_features, n_targets)
        The relevance :math:`I(X_k; T_i)`.
    """

    def __init__(self, X, XI, T, mi):
        self.X, self.XI, self.mi = X, XI, mi
        self.targets = FixedTargets(T)  # the targets' tables built once
        self.n_targets = T.shape[1]
        self._T = T

    def conditional(self, s: int) -> np.ndarray:
        """:math:`I(X_k; T_i \\mid X_s)`, shape (n_features, n_targets)."""
        return conditional_mutual_information_matrix(
            self.XI, self.targets, column(self.X, s))

    def redundancy(self, s: int) -> np.ndarray:
        """:math:`I(X_k; X_s)`, shape (n_features,)."""
        return mutual_information_matrix(self.XI, column(self.X, s))[:, 0]

    def feature_entropies(self) -> np.ndarray:
        """:math:`H(X_k)`, shape (n_features,)."""
        return column_entropies(self.X)

    def target_entropies(self) -> np.ndarray:
        """:math:`H(T_i)`, shape (n_targets,)."""
        return column_entropies(self._T)


class PairwiseCriterionSelector(RelevanceGreedySelector):
    """A second-order criterion after a label transformation (module docstring).

    Subclasses implement :meth:`_criterion`, returning the ``(criterion,
    update)`` pair of :func:`mlfsbench.estimators.selectors._greedy.greedy_forward`
    from a :class:`PairTerms`. ``criterion(acc, 0)`` must be the relevance.
    """

    _parameter_constraints: dict = {
        **RelevanceGreedySelector._parameter_constraints,
        "transformation": [StrOptions(set(TRANSFORMATIONS))],
        "p": [positive_count()],
        "reassign": ["boolean"],
    }

    def __init__(self, *, transformation="br", p=6, reassign=False,
                 n_features_to_select=None, random_state=None):
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)
        self.transformation = transformation
        self.p = p
        self.reassign = reassign

    def _criterion(self, terms: PairTerms):  # pragma: no cover - abstract
        raise NotImplementedError

    def _setup(self, X, XI, T, mi):
        return self._criterion(PairTerms(X, XI, T, mi))

    def _fit(self, X, Y, trace=None):
        rows, T = transformed_targets(Y, self.transformation, p=self.p,
                                      reassign=self.reassign)
        self.n_kept_ = X.shape[0] if rows is None else int(rows.size)
        self.n_targets_ = int(T.shape[1])
        return super()._fit(X if rows is None else X[rows], T, trace=trace)


PARAMS_DOC = """
    transformation : {"br", "lp", "ppt"}, default="br"
        The label transformation: binary relevance (the criterion summed over
        the labels), label powerset, or pruned label powerset (see
        :mod:`mlfsbench.estimators.selectors._pairwise`).
    p : int, default=6
        PPT only: labelsets seen fewer than ``p`` times are pruned.
    reassign : bool, default=False
        PPT only: a pruned instance takes its most frequent kept
        sub-labelset instead of being discarded (Read 2008).
    n_features_to_select : int or None, default=None
        Number of greedy steps (``None``: 50, or all features if fewer); the
        ranking then continues with the other features by relevance.
    random_state : None
        Unused (deterministic); kept for the common interface.
"""

ATTRS_DOC = """
    ranking_ : ndarray of shape (n_features,)
        Selection order, then the remaining features by relevance.
    scores_ : ndarray of shape (n_features,)
        Criterion value (bits) at the step a feature was selected (its
        relevance for the first one); NaN for features not selected greedily.
    relevance_ : ndarray of shape (n_features,)
        :math:`\\sum_i I(X_k; T_i)` in bits over the transformed targets.
    n_targets_ : int
        Targets after the transformation (the labels for BR, else 1).
    n_kept_ : int
        Training instances the criterion was computed on (PPT discards the
        instances of pruned labelsets).
"""
