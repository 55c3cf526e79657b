"""BR-LR: binary relevance with one logistic regression per label.

Reference: J. Lee and D.-W. Kim, "Efficient multi-label feature selection using
entropy-based label selection", *Entropy* 18(11):405, 2016, Sec. 4.1: the
multi-label classifier is binary relevance with a logistic-regression base
learner ("BRLR") and a confidence threshold of 0.5.

For each label ``l`` a logistic model ``P(y_l = 1 | x) = sigma(w_l . x + b_l)``
is fitted by (penalised) maximum likelihood, with the objective of
scikit-learn's ``LogisticRegression``; ``predict_proba`` returns these
probabilities and ``predict`` thresholds them: label ``l`` is output when
``P(y_l = 1 | x) >= threshold``. By default all labels of a fold are fitted
at once by :func:`fit_logistic_batch` (a batched L-BFGS whose labels share
the matrix products, in :mod:`._batched_lbfgs`); ``solver="irls-glmfit"``
runs MATLAB glmfit's IRLS (:func:`fit_logistic_glmfit`, in :mod:`._glmfit`);
``solver="lbfgs"`` and the Newton solvers fit one scikit-learn model per
label.

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
- Solver: L-BFGS, as in the measurements above; the batched L-BFGS stops
  by scikit-learn's criteria (largest gradient entry ``<= tol``, relative
  loss decrease ``<= 64 eps``, ``max_iter``) and gives the same test Hamming
  loss on the Mulan split of yeast (0.2130) in 6 iterations per label on
  average instead of 32 (0.02 s against 0.10 s, one thread). On delicious
  (one 80/20 fold, 983 labels, the 50 most frequent words) it fits all
  labels in 0.6 s against 15 s for scikit-learn per label, with 99.996 %
  equal test predictions; all 500 features take 5.0-5.6 s (see
  :func:`fit_logistic_batch` for what makes it fast). On yeast some
  labels are close to separable and the unregularised weights are
  ill-determined (solvers stopping at different points differ by hundreds in
  some weights), yet the predictions barely move: on the Mulan split the test
  Hamming loss is 0.2130 (L-BFGS, 0.13 s for 14 labels, one thread), 0.2137
  (Newton-CG, 0.52 s) and 0.2134 (Newton-Cholesky, 0.27 s; the IRLS-like
  exact Newton iteration of MATLAB's ``glmfit``).
- ``solver="irls-glmfit"`` (a reading of the paper's MATLAB classifier,
  issue #26): MATLAB ``glmfit``'s IRLS itself, with its iteration limit
  (100), its convergence test on the coefficients (``TolX`` 1e-6) and its
  bounded linear predictor (:func:`fit_logistic_glmfit`); on separable labels
  it stops at the limit and many test probabilities tie at the bound, which
  the ranking loss counts as errors. One enron fold (80/20, 2-bin codes),
  all 1 001 features: Hamming / ranking loss 0.2051 / 0.3484 with the
  batched L-BFGS, 0.1632 / 0.4722 with glmfit's IRLS (all 53 labels at the
  limit, 1 342 distinct test scores of 18 020), against Lee 2016's printed
  baseline 0.165 / 0.478 (Tables 5-6); at the 50 features the ``lee2016``
  selector ranks first, 0.0553 / 0.0861 against 0.0557 / 0.0889 (paper
  0.055 / 0.096). Its cost grows as labels x solves x rows x features^2
  where QR is needed: the weighted least squares of all running labels go
  through their normal equations at once where the scaled Gram matrix is
  well conditioned (Gram matrices from one sparse product over the nonzero
  pairs, one Cholesky per label), through glmfit's QR elsewhere; the enron
  fit above needs QR throughout (about 15 min per fold on one thread), the
  all-features fits of bibtex and delicious hours
  (``bench/bench_br_lr_glmfit.py``, docs/journal/2026-11-27-br-lr-glmfit.md).
"""

from __future__ import annotations

import math
import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp
from scipy.special import expit
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from mlfsbench.estimators.classifiers._base import MultiLabelClassifier
from mlfsbench.estimators.classifiers._batched_lbfgs import fit_logistic_batch
from mlfsbench.estimators.classifiers._glmfit import LOGIT_BOUND, fit_logistic_glmfit
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import (
    Number,
    check_features,
    check_labels,
    check_n_features,
    positive_count,
)

__all__ = ["BRLogisticRegression", "fit_logistic_batch", "fit_logistic_glmfit"]

_PENALTIES = ("none", "l2")
_SOLVERS = ("batched-lbfgs", "lbfgs", "newton-cg", "newton-cholesky", "irls-glmfit")


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
    solver : {"batched-lbfgs", "lbfgs", "newton-cg", "newton-cholesky", \
"irls-glmfit"}, default="batched-lbfgs"
        ``"batched-lbfgs"``: :func:`fit_logistic_batch`, all labels in one
        L-BFGS run sharing the matrix products, warm-started along
        :meth:`predict_path`; ``"irls-glmfit"``: MATLAB ``glmfit``'s IRLS
        (:func:`fit_logistic_glmfit`: its iteration limit and tolerance, its
        bounded linear predictor, so that separable labels leave tied
        scores), unregularised only; its probabilities are those of
        ``glmval`` (the linear predictor bounded to ``+-LOGIT_BOUND``);
        the others: one scikit-learn ``LogisticRegression`` per label with
        that solver (see the module docstring).
    max_iter : int, default=1000
        Solver iterations per label (not used by ``"irls-glmfit"``, which
        keeps glmfit's 100).
    tol : float, default=1e-4
        Solver stopping tolerance (not used by ``"irls-glmfit"``: glmfit's
        ``TolX`` 1e-6).
    threshold : float, default=0.5
        A label is predicted when its probability is ``>= threshold``.
    random_state : int, RandomState or None, default=None
        Accepted for the pipeline's interface; the solvers are deterministic.

    Attributes
    ----------
    n_features_in_, n_labels_ : int
    estimators_ : list of (LogisticRegression or None)
        Only with a scikit-learn ``solver``: one model per label, ``None`` for
        a label constant in training.
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

    _parameter_constraints: dict = {
        "penalty": [StrOptions(set(_PENALTIES)), None],
        "C": [Number(Real, 0, math.inf, closed="neither")],
        "solver": [StrOptions(set(_SOLVERS))],
        "max_iter": [positive_count()],
        "tol": [Number(Real, 0, None, closed="left")],
        "threshold": [Number(Real, 0, 1, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, *, penalty="none", C=1.0, solver="batched-lbfgs", max_iter=1000,
                 tol=1e-4, threshold=0.5, random_state=None):
        self.penalty = penalty
        self.C = C
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.threshold = threshold
        self.random_state = random_state

    def _check_params(self) -> float:
        """Validate the parameters (``_parameter_constraints``); return
        scikit-learn's ``C`` (infinite without a penalty)."""
        self._validate_params()
        if self.solver == "irls-glmfit" and self.penalty not in (None, "none"):
            raise ValueError("solver='irls-glmfit' (MATLAB glmfit) fits the "
                             "unregularised likelihood: use penalty='none'")
        return math.inf if self.penalty in (None, "none") else float(self.C)

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
        # feature_names_in_ (from a DataFrame) and n_features_in_, as sklearn
        validate_data(self, X, reset=True, skip_check_array=True)
        X = check_features(X)
        Y = check_labels(Y, X.shape[0])
        return self._fit(X, Y, C)

    def _fit(self, X, Y: np.ndarray, C: float, W0=None, live_labels=None):
        """Fit checked data; ``W0`` warm-starts the batched solver.

        ``live_labels``: the non-constant label columns of ``Y`` as a sparse
        int8 matrix, when already made (:meth:`predict_path`, once a path).
        """
        n, q = Y.shape
        self.n_features_in_ = X.shape[1]
        self.n_labels_ = q
        positives = Y.sum(axis=0)
        constant = (positives == 0) | (positives == n)
        self.constant_ = np.where(constant, (positives == n).astype(float), np.nan)
        self.coef_ = np.zeros((q, X.shape[1]))
        self.intercept_ = np.where(positives == n, np.inf, -np.inf).astype(float)
        self.n_iter_ = np.zeros(q, dtype=np.int64)
        live = np.flatnonzero(~constant)
        if self.solver == "batched-lbfgs":
            l2 = 0.0 if math.isinf(C) else 1.0 / (C * n)
            start = None if W0 is None else W0[:, live]
            # the live labels as int8: no 8-byte copy of a large label matrix
            Y8 = live_labels
            if Y8 is None:
                Y8 = Y.astype(np.int8)
                Y8 = Y8 if live.size == q else Y8[:, live]
            W, n_iter = fit_logistic_batch(X, Y8, start, l2=l2,
                                           tol=self.tol, max_iter=int(self.max_iter))
            self.coef_[live] = W[:-1].T
            self.intercept_[live] = W[-1]
            self.n_iter_[live] = n_iter
            return self
        if self.solver == "irls-glmfit":
            W, n_iter = fit_logistic_glmfit(X, Y[:, live])
            self.coef_[live] = W[:-1].T
            self.intercept_[live] = W[-1]
            self.n_iter_[live] = n_iter
            return self
        self.estimators_ = []
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

    def predict_path(self, X_train, Y_train, X_test, column_sets):
        """Fit and predict once per feature subset, warm-started along the path.

        Same contract as
        :meth:`~mlfsbench.estimators.classifiers._base.PathMixin.predict_path`.
        With ``solver="batched-lbfgs"`` each subset's solver starts from the
        previous subset's weights (0 for a new column) and stops by the same
        criteria as a fresh fit, so the results equal the per-subset fits
        within the solver's tolerance; the fold is validated once. Other
        solvers run the per-subset loop; ``"irls-glmfit"`` on purpose: its
        result is the iterate where a label stops (or the 101st, on a
        separable label), which a warm start would move, so each subset is
        fitted from glmfit's own start (``tests/test_predict_path.py``).
        Nothing else is shared across subsets: each fit's weights, hence its
        Gram matrices, are its own.
        """
        if self.solver != "batched-lbfgs":
            return super().predict_path(X_train, Y_train, X_test, column_sets)
        C = self._check_params()
        X_train, X_test, sets = self._path_inputs(X_train, X_test, column_sets)
        Y = check_labels(Y_train, X_train.shape[0])
        # the live labels, as the solver reads them (a sparse int8 matrix),
        # once for the whole path
        positives = Y.sum(axis=0)
        live = np.flatnonzero((positives > 0) & (positives < Y.shape[0]))
        live_labels = sp.csc_matrix(Y[:, live].astype(np.int8))
        out, prev_cols, prev = [], None, None
        for cols in sets:
            model = clone(self)
            W0 = None
            if prev is not None:  # carry the weights of columns seen before
                W0 = np.zeros((len(cols) + 1, Y.shape[1]))
                where = {c: i for i, c in enumerate(prev_cols.tolist())}
                for i, c in enumerate(cols.tolist()):
                    if c in where:
                        W0[i] = prev.coef_[:, where[c]]
                W0[-1] = np.where(np.isfinite(prev.intercept_), prev.intercept_, 0.0)
            model._fit(X_train[:, cols], Y, C, W0, live_labels)
            proba = model.predict_proba(X_test[:, cols])  # once, as predict would
            out.append(((proba >= self.threshold).astype(np.int64), proba))
            prev_cols, prev = cols, model
        return out

    def predict_proba(self, X) -> np.ndarray:
        """``P(y_l = 1 | x)`` for every label.

        Returns
        -------
        ndarray, shape (n_samples, n_labels)
            Constant labels give exactly 0 or 1.
        """
        check_is_fitted(self, "coef_")
        validate_data(self, X, reset=False, skip_check_array=True)
        X = check_features(X)
        check_n_features(X, self)
        # all labels' logits in one matrix product; a constant label has
        # zero weights and intercept +-inf, so its logit is +-inf and expit
        # gives exactly 1 or 0 (no scatter into the live columns: on bibtex's
        # test half, 159 labels, 10 -> 4 ms per call)
        logits = np.asarray(X @ self.coef_.T)
        logits += self.intercept_
        if self.solver == "irls-glmfit":  # glmval: bounded linear predictor
            bound = np.where(np.isnan(self.constant_), LOGIT_BOUND, np.inf)
            np.clip(logits, -bound, bound, out=logits)
        return expit(logits, out=logits)

    def predict(self, X) -> np.ndarray:
        """0/1 labels: probability ``>= threshold``.

        Returns
        -------
        ndarray of int64, shape (n_samples, n_labels)
        """
        return (self.predict_proba(X) >= self.threshold).astype(np.int64)
