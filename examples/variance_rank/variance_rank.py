"""A feature selector of one's own, set against the studies of mlfsbench.

``VarianceRank`` ranks the features by their variance on the training part
of each fold (the labels are not used: a baseline that any label-aware
method should beat). With ``scale=True`` each feature is first scaled to
[0, 1] by its training range, so a feature's unit does not decide its rank.

It subclasses mlfsbench's selector base class, which gives it the
scikit-learn contract (parameter validation, ``clone``, input checks); the
entry point in pyproject.toml registers it under the name ``variance-rank``.
docs/challenge.md shows the one command that runs it against the papers.
"""

import numpy as np

from mlfsbench.estimators.selectors import BaseMultiLabelSelector


def column_variance(X, scale: bool = False) -> np.ndarray:
    """The variance of each column of ``X`` (dense or sparse), after scaling
    it to [0, 1] by its range when ``scale``; a constant column scores 0.

    >>> column_variance(np.array([[0.0, 10.0], [2.0, 30.0]]))
    array([  1., 100.])
    >>> column_variance(np.array([[0.0, 10.0], [2.0, 30.0]]), scale=True)
    array([0.25, 0.25])
    """
    if hasattr(X, "toarray"):  # sparse: E[x^2] - E[x]^2, zeros implicit
        mean = np.asarray(X.mean(axis=0)).ravel()
        square = np.asarray(X.multiply(X).mean(axis=0)).ravel()
        variance = np.maximum(square - mean**2, 0.0)
        low = np.minimum(np.asarray(X.min(axis=0).toarray()).ravel(), 0.0)
        high = np.maximum(np.asarray(X.max(axis=0).toarray()).ravel(), 0.0)
    else:
        X = np.asarray(X, dtype=float)
        variance = X.var(axis=0)
        low, high = X.min(axis=0), X.max(axis=0)
    if scale:
        span = high - low
        variance = np.divide(variance, span**2, out=np.zeros_like(variance),
                             where=span > 0)
    return variance


class VarianceRank(BaseMultiLabelSelector):
    """Rank features by their training variance (labels unused).

    Parameters
    ----------
    scale : bool, default=False
        Scale each feature to [0, 1] by its training range first.
    n_features_to_select, random_state
        As every mlfsbench selector (the ranking is complete either way; the
        workflow cuts it at each K of the study's grid).
    """

    input_kind = "continuous"  # reads the raw features, not discretized codes

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "scale": ["boolean"],
    }

    def __init__(self, *, scale=False, n_features_to_select=None, random_state=None):
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)
        self.scale = scale

    def _fit(self, X, Y):
        return column_variance(X, self.scale)
