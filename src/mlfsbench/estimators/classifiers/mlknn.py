"""ML-kNN: multi-label k-nearest neighbours with Bayesian inference.

Reference: M.-L. Zhang and Z.-H. Zhou, "ML-KNN: A lazy learning approach to
multi-label learning", *Pattern Recognition* 40(7):2038-2048, 2007 (Fig. 1 gives
the algorithm; Eqs. (3)-(5) the estimates implemented below).

For a label ``l`` let ``H1_l`` be "the instance has label ``l``", ``H0_l`` its
negation and ``E_j`` "exactly ``j`` of the ``k`` nearest neighbours have label
``l``". With smoothing ``s`` (Laplace when ``s = 1``), ``n`` training instances
and ``y_il`` their 0/1 labels:

- prior (Fig. 1, steps 1-2): ``P(H1_l) = (s + sum_i y_il) / (2 s + n)``;
- every training instance counts ``c_il``, the number of its ``k`` nearest
  *other* training instances having label ``l`` (leave-one-out; Fig. 1, step 6);
- ``kappa1[j, l]`` (``kappa0[j, l]``) is the number of training instances with
  (without) label ``l`` whose count ``c_il`` is ``j``;
- likelihoods (steps 7-13):
  ``P(E_j | H1_l) = (s + kappa1[j, l]) / (s (k + 1) + sum_j kappa1[j, l])``, and
  likewise for ``H0_l`` with ``kappa0``;
- a test instance with count ``c`` gets label ``l`` when
  ``P(H1_l) P(E_c | H1_l) > P(H0_l) P(E_c | H0_l)`` (step 16, maximum a
  posteriori) and the confidence ``P(H1_l | E_c)`` (step 17) used for ranking.

Because a decision and a confidence depend only on ``(c, l)``, :meth:`MLkNN.fit`
tabulates both for every ``c`` in ``0..k``; prediction is one neighbour search
and a table look-up.

Conventions (those of Mulan's ``MLkNN``, which the experiments in this field
ran):

- Features are min-max scaled with the training part's minimum and range when
  ``scale=True`` (Weka's ``EuclideanDistance`` normalisation); a feature that is
  constant in training contributes 0; test data uses the training minimum and
  range, without clipping. Distances are Euclidean.
- An exact tie ``P(H1)P(E|H1) == P(H0)P(E|H0)`` is decided in exact rational
  arithmetic (the estimates are ratios of counts and ``s``) and broken by a fair
  coin drawn from ``check_random_state(random_state)``, created afresh at each
  :meth:`~MLkNN.predict` call: an integer seed gives the same predictions every
  call; ``None`` draws from NumPy's global generator. The confidence of a tied
  pair is exactly 0.5.
- Neighbours are the ``k`` nearest training instances, and among equal
  distances the earlier training instances
  (:class:`~mlfsbench.estimators.neighbours.EuclideanIndex`): a
  rule of the distances alone (scikit-learn's brute-force search, used here
  before, left the choice among equal distances to ``np.argpartition``'s
  selection algorithm).
- A training instance is never its own neighbour: its leave-one-out
  neighbours are its ``k`` nearest *other* training instances, duplicates of
  it included.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.classifiers._base import (
    MultiLabelClassifier,
    ScaledNeighboursMixin,
    neighbour_label_counts,
)
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import Number, check_labels, positive_count

__all__ = [
    "MLkNN",
    "count_tables",
    "prior_probabilities",
    "likelihood_tables",
]


# --------------------------------------------------------------------------
# Pure building blocks (scaling and neighbour counts: classifiers._base)
# --------------------------------------------------------------------------
def count_tables(counts: np.ndarray, Y: np.ndarray, k: int):
    """Tables ``kappa1[j, l]`` and ``kappa0[j, l]`` of Zhang & Zhou (Fig. 1).

    ``kappa1[j, l]`` is the number of training instances that have label ``l``
    and exactly ``j`` neighbours with label ``l``; ``kappa0`` the same for
    instances without label ``l``. All labels at once, with one ``bincount``.

    Parameters
    ----------
    counts : ndarray of int, shape (n_train, n_labels)
        Leave-one-out neighbour counts, in ``0..k``.
    Y : ndarray, shape (n_train, n_labels)
        Training 0/1 labels.
    k : int

    Returns
    -------
    kappa1, kappa0 : ndarray of int64, shape (k + 1, n_labels)

    Examples
    --------
    >>> k1, k0 = count_tables(np.array([[2], [1], [1]]), np.array([[1], [1], [0]]), 2)
    >>> k1.ravel().tolist(), k0.ravel().tolist()
    ([0, 1, 1], [0, 1, 0])
    """
    counts = np.asarray(counts, dtype=np.int64)
    q = counts.shape[1]
    cell = (counts * q + np.arange(q)).ravel()
    positive = np.asarray(Y).ravel() == 1
    size = (k + 1) * q
    kappa1 = np.bincount(cell[positive], minlength=size).reshape(k + 1, q)
    kappa0 = np.bincount(cell[~positive], minlength=size).reshape(k + 1, q)
    return kappa1.astype(np.int64), kappa0.astype(np.int64)


def prior_probabilities(Y: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """Smoothed priors ``P(H1_l)`` and ``P(H0_l)`` (Zhang & Zhou, Fig. 1).

    ``P(H1_l) = (s + sum_i y_il) / (2 s + n)``; ``P(H0_l)`` is computed as
    ``(s + n - sum_i y_il) / (2 s + n)`` (equal to ``1 - P(H1_l)``).

    Examples
    --------
    >>> p1, p0 = prior_probabilities(np.array([[1, 0], [1, 0], [0, 0]]), 1.0)
    >>> p1.tolist(), p0.tolist()
    ([0.6, 0.2], [0.4, 0.8])
    """
    Y = np.asarray(Y)
    n = Y.shape[0]
    positives = Y.sum(axis=0)
    return (s + positives) / (2 * s + n), (s + n - positives) / (2 * s + n)


def likelihood_tables(kappa: np.ndarray, s: float) -> np.ndarray:
    """Smoothed ``P(E_j | H_l) = (s + kappa[j, l]) / (s (k+1) + sum_j kappa[j, l])``.

    Examples
    --------
    >>> likelihood_tables(np.array([[0], [1], [1]]), 1.0).ravel().tolist()
    [0.2, 0.4, 0.4]
    """
    kappa = np.asarray(kappa, dtype=np.float64)
    return (s + kappa) / (s * kappa.shape[0] + kappa.sum(axis=0))


def _exact_decisions(n_pos, n_neg, kappa1, kappa0, s: float) -> np.ndarray:
    """Sign of ``P(H1)P(E_j|H1) - P(H0)P(E_j|H0)`` in exact arithmetic, (k+1, q).

    With ``s = a / b`` (the exact value of the float), each side is a product
    of ratios of integers; cross-multiplying leaves integer products that
    Python integers hold exactly, so a tie is a true tie of the estimates.
    """
    a, b = float(s).as_integer_ratio()
    kp1 = kappa1.shape[0]

    def ints(values):
        return np.asarray(values, dtype=np.int64).astype(object)

    n_pos, n_neg = ints(n_pos), ints(n_neg)
    side1 = (a + b * n_pos) * (a + b * ints(kappa1)) * (a * kp1 + b * n_neg)
    side0 = (a + b * n_neg) * (a + b * ints(kappa0)) * (a * kp1 + b * n_pos)
    return (side1 > side0).astype(np.int8) - (side1 < side0).astype(np.int8)


# --------------------------------------------------------------------------
# Estimator
# --------------------------------------------------------------------------
@register("classifier", "mlknn")
class MLkNN(ScaledNeighboursMixin, MultiLabelClassifier):
    """ML-kNN multi-label classifier (Zhang & Zhou, 2007).

    See the module docstring for the estimates, the scaling, the exclusion of
    an instance from its own neighbours and the tie rule.

    Parameters
    ----------
    k : int, default=10
        Number of neighbours (Zhang & Zhou recommend 10).
    s : float, default=1.0
        Smoothing parameter, > 0 (1 is Laplace smoothing).
    scale : bool, default=True
        Min-max scale features on the training part (Mulan/Weka default).
    random_state : int, RandomState or None, default=None
        Seeds the coin that breaks exact ties in :meth:`predict`.

    Attributes
    ----------
    n_features_in_ : int
    n_labels_ : int
    feature_min_, feature_inv_range_ : ndarray, shape (n_features,)
        Scaling factors (only when ``scale``).
    prior_true_, prior_false_ : ndarray, shape (n_labels,)
        ``P(H1_l)`` and ``P(H0_l)``.
    kappa_true_, kappa_false_ : ndarray of int, shape (k + 1, n_labels)
        Count tables ``kappa1[j, l]`` and ``kappa0[j, l]``.
    likelihood_true_, likelihood_false_ : ndarray, shape (k + 1, n_labels)
        ``P(E_j | H1_l)`` and ``P(E_j | H0_l)``.
    confidence_table_ : ndarray, shape (k + 1, n_labels)
        ``P(H1_l | E_j)``.
    decision_table_ : ndarray of int8, shape (k + 1, n_labels)
        +1 (predict the label), -1 (do not) or 0 (exact tie, coin flip).

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [0.2], [1.0], [1.1], [1.2]])
    >>> Y = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1]])
    >>> clf = MLkNN(k=2).fit(X, Y)
    >>> clf.prior_true_.tolist()
    [0.5, 0.5]
    >>> clf.predict(np.array([[0.05], [1.15]])).tolist()
    [[1, 0], [0, 1]]
    >>> clf.predict_proba(np.array([[0.05]])).round(3).tolist()
    [[0.8, 0.2]]
    """

    # s > 0 and finite: the smoothing keeps every estimate positive
    _parameter_constraints: dict = {
        "k": [positive_count()],
        "s": [Number(Real, 0, math.inf, closed="neither")],
        "scale": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, *, k=10, s=1.0, scale=True, random_state=None):
        self.k = k
        self.s = s
        self.scale = scale
        self.random_state = random_state

    # -- the steps shared by fit/predict and predict_path ---------------------
    def _check_y(self, Y, n_samples: int) -> np.ndarray:
        Y = check_labels(Y, n_samples)
        k = int(self.k)
        if n_samples < k + 1:
            raise ValueError(f"k={k} needs at least k + 1 = {k + 1} training "
                             f"instances, got n_samples={n_samples}")
        return Y

    def _fit_scaled(self, Xs, Y: np.ndarray) -> None:
        """Tables of Zhang & Zhou, Fig. 1, steps 1-13, from scaled features."""
        n, q = Y.shape
        k, s = int(self.k), float(self.s)
        self.n_labels_ = q
        self._index(Xs)
        others = self._query_neighbours(Xs, k, exclude_self=True)
        counts = neighbour_label_counts(others, Y)

        self.prior_true_, self.prior_false_ = prior_probabilities(Y, s)
        self.kappa_true_, self.kappa_false_ = count_tables(counts, Y, k)
        self.likelihood_true_ = likelihood_tables(self.kappa_true_, s)
        self.likelihood_false_ = likelihood_tables(self.kappa_false_, s)
        joint_true = self.prior_true_ * self.likelihood_true_
        joint_false = self.prior_false_ * self.likelihood_false_
        n_pos = Y.sum(axis=0)
        self.decision_table_ = _exact_decisions(
            n_pos, n - n_pos, self.kappa_true_, self.kappa_false_, s
        )
        confidence = joint_true / (joint_true + joint_false)
        confidence[self.decision_table_ == 0] = 0.5
        self.confidence_table_ = confidence
        self._Y = Y

    def _counts(self, X) -> np.ndarray:
        """Neighbour label counts ``c`` (n_queries, n_labels) for new data."""
        check_is_fitted(self, "decision_table_")
        Xs = self._check_query(X)
        return neighbour_label_counts(self._query_neighbours(Xs, self.k), self._Y)

    def _confidences(self, counts: np.ndarray) -> np.ndarray:
        return np.take_along_axis(self.confidence_table_, counts, axis=0)

    def _decisions(self, counts: np.ndarray) -> np.ndarray:
        decision = np.take_along_axis(self.decision_table_, counts, axis=0)
        Y = (decision > 0).astype(np.int64)
        tied = decision == 0
        n_tied = int(tied.sum())
        if n_tied:
            rng = check_random_state(self.random_state)
            Y[tied] = rng.randint(0, 2, size=n_tied)
        return Y

    def _predict_scaled(self, Xs):
        counts = neighbour_label_counts(self._query_neighbours(Xs, self.k), self._Y)
        return self._decisions(counts), self._confidences(counts)

    # -- API (fit: ScaledNeighboursMixin.fit, then _fit_scaled) ---------------
    def predict_proba(self, X) -> np.ndarray:
        """Confidences ``P(H1_l | E_c)`` (Zhang & Zhou, Fig. 1, step 17).

        Returns
        -------
        ndarray, shape (n_samples, n_labels)
            Not calibrated probabilities; used to rank labels.
        """
        return self._confidences(self._counts(X))

    def predict(self, X) -> np.ndarray:
        """Maximum a posteriori label sets (Zhang & Zhou, Fig. 1, step 16).

        Exact ties are broken by a fair coin from
        ``check_random_state(random_state)``.

        Returns
        -------
        ndarray of int64, shape (n_samples, n_labels)
            0/1 predictions.
        """
        return self._decisions(self._counts(X))
