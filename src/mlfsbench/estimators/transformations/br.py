"""Binary relevance (BR): one binary problem per label.

BR (Tsoumakas, Katakis & Vlahavas 2009, "Mining multi-label data"; Spolaôr et
al. 2013, Section 2.2) decomposes a multi-label problem with ``q`` labels into
``q`` independent binary problems: in problem ``k`` an instance is positive
when label ``k`` is relevant to it and negative otherwise. Label dependence is
ignored by construction.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.validation import check_label_matrix


@register("transformation", "br")
class BinaryRelevance(TransformerMixin, BaseEstimator):
    """Binary relevance: the label columns, one binary target per label.

    ``fit`` records the number of labels; ``transform(Y)`` returns the
    ``(n_samples, n_labels)`` 0/1 matrix whose column ``k`` is the target of
    binary problem ``k`` (``uint8``; 1 = label relevant). :meth:`problems`
    yields the same columns one at a time.

    Attributes
    ----------
    n_labels_ : int
        Number of labels (= binary problems) seen in ``fit``.
    positives_ : ndarray of shape (n_labels,)
        Positive training instances per problem.

    Examples
    --------
    >>> Y = np.array([[1, 0, 1], [0, 0, 1]])
    >>> br = BinaryRelevance().fit(Y)
    >>> br.transform(Y)[:, 2].tolist()
    [1, 1]
    >>> [y.tolist() for y in br.problems(Y)]
    [[1, 0], [0, 0], [1, 1]]
    >>> br.positives_.tolist()
    [1, 0, 2]
    """

    def fit(self, Y, y=None):
        """Record the number of labels and the positives of each problem."""
        Y = check_label_matrix(Y)
        self.n_labels_ = Y.shape[1]
        self.positives_ = Y.sum(axis=0, dtype=np.int64)
        return self

    def transform(self, Y):
        """The binary targets, one column per label (``uint8``)."""
        check_is_fitted(self, "n_labels_")
        Y = check_label_matrix(Y)
        if Y.shape[1] != self.n_labels_:
            raise ValueError(
                f"Y has {Y.shape[1]} labels; BinaryRelevance was fitted on "
                f"{self.n_labels_}"
            )
        return Y.copy()

    def problems(self, Y):
        """Yield the target vector of each binary problem in label order."""
        T = self.transform(Y)
        for k in range(T.shape[1]):
            yield T[:, k]
