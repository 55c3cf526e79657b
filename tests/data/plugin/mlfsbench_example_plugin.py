"""Three methods of another package, registered through entry points.

The selector subclasses mlfsbench's base class, so it inherits the estimator
contract; the classifier and the transformation are plain scikit-learn
estimators.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from mlfsbench.estimators.selectors import BaseMultiLabelSelector


def _labels(Y):
    Y = np.asarray(Y)
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (n_samples, n_labels), got shape {Y.shape}")
    if not np.isin(Y, (0, 1)).all():
        raise ValueError("Y must contain only 0/1 values")
    return Y.astype(np.uint8)


class VarianceRank(BaseMultiLabelSelector):
    """Rank features by their variance (labels unused)."""

    input_kind = "continuous"

    def __init__(self, *, n_features_to_select=None, random_state=None):
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)

    def _fit(self, X, Y):
        X = X.toarray() if hasattr(X, "toarray") else X
        return np.asarray(X, dtype=float).var(axis=0)


class LabelPrior(ClassifierMixin, BaseEstimator):
    """Predict each label's training frequency for every instance."""

    def __init__(self, *, threshold=0.5, random_state=None):
        self.threshold = threshold
        self.random_state = random_state

    def fit(self, X, Y):
        validate_data(self, X, accept_sparse=True)
        self.prior_ = _labels(Y).mean(axis=0)
        return self

    def predict_proba(self, X):
        check_is_fitted(self, "prior_")
        X = validate_data(self, X, accept_sparse=True, reset=False)
        return np.tile(self.prior_, (X.shape[0], 1))

    def predict(self, X):
        return (self.predict_proba(X) >= self.threshold).astype(np.uint8)


class LabelComplement(TransformerMixin, BaseEstimator):
    """Swap the relevant and irrelevant labels."""

    def fit(self, Y, y=None):
        self.n_labels_ = _labels(Y).shape[1]
        return self

    def transform(self, Y):
        check_is_fitted(self, "n_labels_")
        return 1 - _labels(Y)
