"""BR-LR: binary relevance with one logistic regression per label.

Reference: J. Lee and D.-W. Kim, "Efficient multi-label feature selection using
entropy-based label selection", *Entropy* 18(11):405, 2016, Sec. 4.1: the
multi-label classifier is binary relevance with a logistic-regression base
learner ("BRLR") and a confidence threshold of 0.5.

For each label ``l`` a logistic model ``P(y_l = 1 | x) = sigma(w_l . x + b_l)``
is fitted by (penalised) maximum likelihood with scikit-learn's
``LogisticRegression`` (L-BFGS by default); ``predict_proba`` returns these
probabilities and ``predict`` thresholds them: label ``l`` is output when
``P(y_l = 1 | x) >= threshold``.

Choices (tested in ``tests/test_br_lr.py``):

- ``penalty="none"`` (or ``None``) fits the unregularised likelihood (passed to
  scikit-learn as ``C=inf``); ``penalty="l2"`` adds ``||w||^2 / (2 C)``. The
  paper's MATLAB regressor appears unregularised: on yeast (all features,
  80/20 x 10) the unregularised fit gives Hamming / ranking loss 0.207 / 0.176
  and ``C = 1`` gives 0.199 / 0.167, against the paper's 0.216 / 0.184. The
  ``lee2016`` protocol uses ``penalty="none"``. The default here is the same.
- A label constant in the training part (all 0 or all 1) has no model: it
  predicts that constant, with probability exactly 0 or 1.
- Features are used as given (no standardisation); the unregularised optimum
  does not depend on affine rescaling of the features, the L2 one does.
- On linearly separable labels the unregularised optimum is at infinity:
  the solver stops after ``max_iter`` iterations (the convergence warning is
  silenced); the thresholded predictions are still those of a separating
  hyperplane.
- Solver: L-BFGS by default, as in the measurements above. On yeast some
  labels are close to separable and the unregularised weights are
  ill-determined (solvers stopping at different points differ by hundreds in
  some weights), yet the predictions barely move: on the Mulan split the test
  Hamming loss is 0.2130 (L-BFGS, 0.13 s for 14 labels, one thread), 0.2137
  (Newton-CG, 0.52 s) and 0.2134 (Newton-Cholesky, 0.27 s; the IRLS-like
  exact Newton iteration of MATLAB's ``glmfit``).
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.classifiers._base import (
    MultiLabelClassifier,
    check_features,
    check_labels,
    check_n_features,
)
from mlfsbench.estimators.registry import register

__all__ = ["BRLogisticRegression"]

_PENALTIES = ("none", "l2")
_SOLVERS = ("lbfgs", "newton-cg", "newton-cholesky")


@register("classifier", "br-lr")
class BRLogisticRegression(MultiLabelClassifier):
    """Binary relevance logistic regression, threshold 0.5 (Lee & Kim 2016, Sec. 4.1).

    Parameters
    ----------
    penalty : {"none", None, "l2"}, default="none"
        ``"none"``/``None``: unregularised (the ``lee2016`` protocol);
        ``"l2"``: ridge penalty with strength ``1 / C``.
    C : float, default=1.0
        Inverse regularisation strength (only with ``penalty="l2"``).
    solver : {"lbfgs", "newton-cg", "newton-cholesky"}, default="lbfgs"
        scikit-learn solver (see the module docstring).
    max_iter : int, default=1000
        Solver iterations per label.
    tol : float, default=1e-4
        Solver stopping tolerance.
    threshold : float, default=0.5
        A label is predicted when its probability is ``>= threshold``.
    random_state : int, RandomState or None, default=None
        Accepted for the pipeline's interface; the solvers are deterministic.

    Attributes
    ----------
    n_features_in_, n_labels_ : int
    estimators_ : list of (LogisticRegression or None)
        One model per label; ``None`` for a label constant in training.
    constant_ : ndarray of float, shape (n_labels,)
        The training constant of each constant label, ``nan`` otherwise.
    coef_ : ndarray, shape (n_labels, n_features)
        Weights (0 for constant labels).
    intercept_ : ndarray, shape (n_labels,)
        Intercepts (``+-inf`` for constant labels).
    n_iter_ : ndarray of int, shape (n_labels,)
        Solver iterations used per label (0 for constant labels).

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    >>> Y = np.array([[0, 1], [0, 1], [1, 1], [0, 1], [1, 1], [1, 1]])
    >>> clf = BRLogisticRegression().fit(X, Y)
    >>> clf.predict(np.array([[0.5], [4.5]])).tolist()
    [[0, 1], [1, 1]]
    >>> clf.predict_proba(np.array([[2.5]]))[:, 1].tolist()
    [1.0]
    """

    def __init__(self, *, penalty="none", C=1.0, solver="lbfgs", max_iter=1000,
                 tol=1e-4, threshold=0.5, random_state=None):
        self.penalty = penalty
        self.C = C
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.threshold = threshold
        self.random_state = random_state

    def _check_params(self) -> float:
        """Validate parameters; return scikit-learn's ``C``."""
        penalty = "none" if self.penalty is None else self.penalty
        if penalty not in _PENALTIES:
            raise ValueError(f"penalty must be 'none', None or 'l2', got {penalty!r}")
        C = self.C
        if penalty == "l2" and (
            isinstance(C, bool) or not isinstance(C, Real)
            or not (math.isfinite(C) and C > 0)
        ):
            raise ValueError(f"C must be a finite number > 0, got {C!r}")
        if self.solver not in _SOLVERS:
            raise ValueError(f"solver must be one of {_SOLVERS}, got {self.solver!r}")
        it = self.max_iter
        if isinstance(it, bool) or not isinstance(it, Integral) or it < 1:
            raise ValueError(f"max_iter must be an integer >= 1, got {it!r}")
        t = self.threshold
        if isinstance(t, bool) or not isinstance(t, Real) or not 0 < t < 1:
            raise ValueError(f"threshold must be in (0, 1), got {t!r}")
        return math.inf if penalty == "none" else float(C)

    def fit(self, X, Y):
        """Fit one logistic regression per non-constant label.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix, shape (n_samples, n_features)
        Y : array-like or scipy.sparse matrix, shape (n_samples, n_labels)
            0/1 label matrix.

        Returns
        -------
        self
        """
        C = self._check_params()
        X = check_features(X)
        Y = check_labels(Y, X.shape[0])
        n, q = Y.shape
        self.n_features_in_ = X.shape[1]
        self.n_labels_ = q
        positives = Y.sum(axis=0)
        constant = (positives == 0) | (positives == n)
        self.constant_ = np.where(constant, (positives == n).astype(float), np.nan)
        self.estimators_ = []
        self.coef_ = np.zeros((q, X.shape[1]))
        self.intercept_ = np.where(positives == n, np.inf, -np.inf).astype(float)
        self.n_iter_ = np.zeros(q, dtype=np.int64)
        for label in range(q):  # one scikit-learn model per label (BR)
            if constant[label]:
                self.estimators_.append(None)
                continue
            model = LogisticRegression(C=C, l1_ratio=0.0, solver=self.solver,
                                       max_iter=int(self.max_iter), tol=self.tol)
            with warnings.catch_warnings():
                if math.isinf(C):  # separable labels: optimum at infinity
                    warnings.simplefilter("ignore", ConvergenceWarning)
                model.fit(X, Y[:, label])
            self.estimators_.append(model)
            self.coef_[label] = model.coef_[0]
            self.intercept_[label] = model.intercept_[0]
            self.n_iter_[label] = int(np.max(model.n_iter_))
        return self

    def predict_proba(self, X) -> np.ndarray:
        """``P(y_l = 1 | x)`` for every label.

        Returns
        -------
        ndarray, shape (n_samples, n_labels)
            Constant labels give exactly 0 or 1.
        """
        check_is_fitted(self, "estimators_")
        X = check_features(X)
        check_n_features(X, self)
        shape = (X.shape[0], self.n_labels_)
        proba = np.broadcast_to(np.nan_to_num(self.constant_), shape).copy()
        live = np.flatnonzero(np.isnan(self.constant_))
        if live.size:  # all labels' logits in one matrix product
            logits = X @ self.coef_[live].T + self.intercept_[live]
            proba[:, live] = expit(np.asarray(logits))
        return proba

    def predict(self, X) -> np.ndarray:
        """0/1 labels: probability ``>= threshold``.

        Returns
        -------
        ndarray of int64, shape (n_samples, n_labels)
        """
        return (self.predict_proba(X) >= self.threshold).astype(np.int64)
