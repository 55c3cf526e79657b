"""k-nearest-neighbour regression of every target, for multi-target data.

Reference: K. Sechidis, E. Spyromitros-Xioufis and I. Vlahavas, "Information
theoretic multi-target feature selection via output space quantization",
*Entropy* 21(9):855, 2019, Sec. 5: "a nearest neighbors regression model [that]
predict[s] each target independently", with 10 neighbours, evaluated by the
average relative root mean squared error (:func:`mlfsbench.evaluation.metrics.rrmse`).

For a query ``x`` with the ``k`` nearest training instances ``N(x)``
(Euclidean distance), target ``t`` is predicted by the neighbours' mean::

    y_hat_t(x) = (1 / k) * sum_{j in N(x)} y_jt

The neighbours depend only on ``x``, so predicting each target independently
and predicting all targets from one search give the same numbers; one search
is done.

Choices (the paper does not say): uniform weights; features min-max scaled on
the training part when ``scale=True`` (default, the convention of the other
k-NN learners here;
:func:`mlfsbench.estimators.classifiers._base.minmax_scale_factors`).

Interface note. It is registered as a ``"classifier"`` so the workflow can
create it by name, but it is a regressor: ``predict`` returns real-valued
predictions and ``predict_proba`` returns **the same predictions** (there are
no class probabilities); the pipeline must not cast them to 0/1 and must score
them with :func:`~mlfsbench.evaluation.metrics.rrmse`, not the multi-label measures.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.classifiers._base import ScaledNeighboursMixin
from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import (
    check_n_train,
    check_targets,
    positive_count,
)

__all__ = ["KNNRegressor"]


@register("classifier", "knn-reg")
class KNNRegressor(ScaledNeighboursMixin, RegressorMixin, BaseEstimator):
    """Multi-target k-NN regression, the mean of the k nearest targets (Sechidis 2019).

    Parameters
    ----------
    k : int, default=10
        Number of neighbours (Sechidis et al. 2019, Sec. 5).
    scale : bool, default=True
        Min-max scale features on the training part.
    random_state : int, RandomState or None, default=None
        Accepted for the pipeline's interface; the model is deterministic.

    Attributes
    ----------
    n_features_in_, n_targets_ : int
    train_mean_ : ndarray, shape (n_targets,)
        Training mean of each target (the reference predictor of RRMSE).

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0]])
    >>> Y = np.array([[1.0, 0.0], [3.0, 0.0], [5.0, 1.0], [7.0, 9.0]])
    >>> reg = KNNRegressor(k=2).fit(X, Y)
    >>> reg.predict(np.array([[0.4], [9.0]])).tolist()
    [[2.0, 0.0], [6.0, 5.0]]
    >>> bool((reg.predict_proba(np.array([[0.4]])) == reg.predict([[0.4]])).all())
    True
    """

    _parameter_constraints: dict = {
        "k": [positive_count()],
        "scale": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, *, k=10, scale=True, random_state=None):
        self.k = k
        self.scale = scale
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        tags.input_tags.sparse = True
        return tags

    def _check_y(self, Y, n_samples: int) -> np.ndarray:
        Y, one_target = check_targets(Y, n_samples)
        check_n_train(n_samples, self.k, self.k)
        return Y[:, 0] if one_target else Y

    def _fit_scaled(self, Xs, Y: np.ndarray) -> None:
        self._one_target = Y.ndim == 1
        Y = Y[:, np.newaxis] if self._one_target else Y
        self.n_targets_ = Y.shape[1]
        self._index(Xs)
        self._Y = Y
        self.train_mean_ = Y.mean(axis=0)

    def _mean_targets(self, Xs) -> np.ndarray:
        pred = self._Y[self._query_neighbours(Xs, self.k)].mean(axis=1)
        return pred[:, 0] if self._one_target else pred

    def _predict_scaled(self, Xs):
        pred = self._mean_targets(Xs)
        return pred, pred

    def fit(self, X, Y):
        """Store the (scaled) training set.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix, shape (n_samples, n_features)
        Y : array-like, shape (n_samples, n_targets) or (n_samples,)
            Real-valued targets, finite. The workflow passes 2-D targets.

        Returns
        -------
        self
        """
        return super().fit(X, Y)

    def predict(self, X) -> np.ndarray:
        """Mean target values of the ``k`` nearest training instances.

        Returns
        -------
        ndarray of float, shape (n_samples, n_targets)
            Shape (n_samples,) when ``fit`` got a 1-D ``Y`` (scikit-learn's
            convention).
        """
        check_is_fitted(self, "index_")
        return self._mean_targets(self._check_query(X))

    def predict_proba(self, X) -> np.ndarray:
        """The predictions of :meth:`predict` (a regressor has no probabilities).

        Present so the workflow's classify stage, which stores ``predict`` and
        ``predict_proba``, can run a regressor unchanged.
        """
        return self.predict(X)
