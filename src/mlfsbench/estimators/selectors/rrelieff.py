r"""RReliefF for multi-target regression (Sechidis et al. 2019, Section 5 baseline).

Sechidis, Spyromitros-Xioufis & Vlahavas (2019, "Information Theoretic
Multi-Target Feature Selection via Output Space Quantization", Entropy 21(9),
855), Section 5: "we apply RReliefF separately for each target to get an
importance weight per feature and target and then rank the features based on
their average importance weight across all targets", with 10 or 50
neighbours. RReliefF is the regression ReliefF of Robnik-Šikonja & Kononenko
(2003, Figure 5), implemented in :func:`mlfsbench.estimators.selectors._relief.
rrelieff_scores`:

.. math::

    W_t[A] = \frac{N_{dC\&dA}[A]}{N_{dC}} - \frac{N_{dA}[A] - N_{dC\&dA}[A]}
        {m - N_{dC}}, \qquad J(A) = \frac{1}{|T|} \sum_{t} W_t[A].

Unlike every other selector, the targets ``Y`` are continuous: :meth:`fit`
accepts any finite real matrix (one column per target).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import (
    BaseMultiLabelSelector,
    mean_over_columns,
)
from mlfsbench.estimators.selectors._relief import rrelieff_scores
from mlfsbench.estimators.validation import positive_count


def check_target_matrix(Y) -> np.ndarray:
    """Validate continuous targets: 2-D (n_samples, n_targets), finite.

    A 1-D vector is refused, as by every selector (one target is
    ``y.reshape(-1, 1)``): a 1-D ``Y`` is more often a mistake (a single
    label column, a flattened matrix) than a choice.

    >>> check_target_matrix([1.0, 2.0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Y must be 2-D (n_samples, n_targets), got shape (2,); one target ...
    """
    Y = np.asarray(Y.toarray() if sp.issparse(Y) else Y, dtype=float)
    if Y.ndim != 2:
        hint = "; one target is Y.reshape(-1, 1)" if Y.ndim == 1 else ""
        raise ValueError(
            f"Y must be 2-D (n_samples, n_targets), got shape {Y.shape}{hint}"
        )
    if not np.isfinite(Y).all():
        raise ValueError("Y must be finite")
    return Y


@register("selector", "rrelieff")
class RReliefF(BaseMultiLabelSelector):
    """RReliefF per target, averaged over targets (multi-target regression).

    Parameters
    ----------
    n_neighbors : int, default=10
        ``k`` nearest neighbours (Sechidis et al. use 10 and 50).
    sigma : float or None, default=None
        ``None``: neighbours weigh ``1/k`` (Weka's default); a number: the
        rank-based weights ``exp(-(rank/sigma)^2)`` of the paper's Eq. 8.
    n_samples : int or None, default=None
        Instances sampled; ``None``: all.
    n_features_to_select : int or None, default=None
    random_state : int or None, default=None
        Seeds the sample when ``n_samples`` is set.

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        Mean RReliefF weight over targets.
    weights_ : ndarray (n_features, n_targets)
        Per-target weights.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((150, 3))
    >>> Y = np.column_stack([X[:, 2], X[:, 2] ** 2]) + 0.01 * rng.random((150, 2))
    >>> RReliefF().fit(X, Y).ranking_[0]
    np.int64(2)
    """

    input_kind = "continuous"

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "n_neighbors": [positive_count()],
        "sigma": [Interval(Real, 0, None, closed="neither"), None],
        "n_samples": [positive_count(), None],
    }

    def __init__(self, *, n_neighbors=10, sigma=None, n_samples=None,
                 n_features_to_select=None, random_state=None):
        super().__init__(
            n_features_to_select=n_features_to_select, random_state=random_state
        )
        self.n_neighbors = n_neighbors
        self.sigma = sigma
        self.n_samples = n_samples

    def _check_targets(self, Y) -> np.ndarray:
        return check_target_matrix(Y)

    def _fit(self, X, Y):
        """Score the features of ``X`` against continuous targets ``Y``."""
        self.weights_ = rrelieff_scores(
            X, Y, n_neighbors=self.n_neighbors, sigma=self.sigma,
            n_samples=self.n_samples, random_state=self.random_state,
        )
        return mean_over_columns(self.weights_)
