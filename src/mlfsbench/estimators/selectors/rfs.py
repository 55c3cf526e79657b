r"""RFS: robust feature selection by joint :math:`\ell_{2,1}`-norms (Nie et al. 2010).

F. Nie, H. Huang, X. Cai, C. Ding (2010), "Efficient and Robust Feature
Selection via Joint :math:`\ell_{2,1}`-Norms Minimization", *NIPS* 23. With
``X`` the training features (one row per instance) and ``Y`` the 0/1 label
matrix (the multi-label reading of the paper's class-indicator matrix, as
multi-label studies that compare against RFS use it), the feature weights
``W`` (one row per feature, one column per label) minimise

.. math::

    \min_W \; \lVert X W - Y \rVert_{2,1} + \gamma \lVert W \rVert_{2,1},
    \qquad \lVert M \rVert_{2,1} = \sum_i \lVert m^i \rVert_2,

a loss robust to outlying instances (each residual row counts by its norm,
not its square) and a penalty that zeroes whole rows of ``W``. Features are
ranked by :math:`\lVert w^i \rVert_2`, largest first (ties: lower index).

The paper's algorithm writes the problem as :math:`\min_U \lVert U
\rVert_{2,1}` subject to :math:`A U = Y` with :math:`A = [X, \gamma I]` and
:math:`U = [W; E]`, and iterates :math:`U \leftarrow D^{-1} A^\top (A D^{-1}
A^\top)^{-1} Y` with :math:`D` diagonal, :math:`d_{ii} = 1 / (2 \lVert u^i
\rVert_2)`, from :math:`D = I`; the objective decreases at every step.
The same iterate, by the push-through identity
:math:`D_W^{-1} X^\top (X D_W^{-1} X^\top + \gamma^2 D_E^{-1})^{-1} = (X^\top
D_E X + \gamma^2 D_W)^{-1} X^\top D_E`, is

.. math::

    W \leftarrow (X^\top D_R X + \gamma D_W)^{-1} X^\top D_R Y, \qquad
    (D_R)_{ii} = \frac{1}{2 \lVert x_i W - y_i \rVert_2},\;
    (D_W)_{jj} = \frac{1}{2 \lVert w^j \rVert_2},

a ``d x d`` system instead of ``n x n``: this module solves whichever is
smaller (tested equal). A norm below ``1e-12`` is raised to it in ``D``
(Nie et al.'s regularisation of a zero row). Iterations stop when the
objective changes by less than ``tol`` relative, or after ``max_iter``.
The paper is not in the shared collection; its equation numbers could not be
checked.

``X`` is the prepared continuous features (``input_kind = "continuous"``).
The model :math:`XW` has no intercept, so ``X`` and ``Y`` are centred on
their training means first (otherwise the features must also fit the
labels' means, and a feature's weight mixes the two); ``X`` is not rescaled
(the prepare stage's scaling is kept; RFS is not invariant to it).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from mlfsbench.estimators.registry import register
from mlfsbench.estimators.selectors._base import BaseMultiLabelSelector
from mlfsbench.estimators.validation import Count, Number

#: The smallest row norm entering ``D`` (a zero row would divide by 0).
NORM_FLOOR = 1e-12


def l21_norm(M: np.ndarray) -> float:
    """:math:`\\sum_i \\lVert m^i \\rVert_2` (rows).

    >>> l21_norm(np.array([[3.0, 4.0], [0.0, 1.0]]))
    6.0
    """
    return float(np.sqrt((M * M).sum(axis=1)).sum())


def _inverse_norms(M: np.ndarray) -> np.ndarray:
    """``1 / (2 ||m^i||)`` per row, the norm floored at :data:`NORM_FLOOR`."""
    return 0.5 / np.maximum(np.sqrt((M * M).sum(axis=1)), NORM_FLOOR)


def rfs_weights(X, Y, gamma: float, *, max_iter: int = 100, tol: float = 1e-6,
                form: str = "auto"):
    """Nie et al.'s iteration for ``W``; returns ``(W, objectives)``.

    ``form``: ``"features"`` (the ``d x d`` system), ``"samples"`` (the
    paper's ``n x n`` system) or ``"auto"`` (the smaller).

    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> W, obj = rfs_weights(X, np.array([[1.0], [0.0], [1.0], [0.0]]), 0.1)
    >>> np.round(W.ravel(), 3).tolist()
    [1.0, 0.0]
    """
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    n, d = X.shape
    if form == "auto":
        form = "features" if d <= n else "samples"
    objectives = []
    A = np.hstack([X, gamma * np.eye(n)]) if form == "samples" else None
    D_inv = np.ones(d + n) if form == "samples" else None
    W = None
    for it in range(max_iter):
        if form == "samples":
            AD = A * D_inv[None, :]
            U = AD.T @ np.linalg.solve(AD @ A.T, Y)
            W = U[:d]
            D_inv = 1.0 / _inverse_norms(U)
        else:
            if W is None:  # D = I: W from the paper's first step
                d_r, d_w = np.ones(n) / gamma, np.ones(d)
            else:
                d_r, d_w = _inverse_norms(X @ W - Y), _inverse_norms(W)
            XtD = X.T * d_r[None, :]
            W = np.linalg.solve(XtD @ X + gamma * np.diag(d_w), XtD @ Y)
        objectives.append(l21_norm(X @ W - Y) + gamma * l21_norm(W))
        if it and abs(objectives[-2] - objectives[-1]) <= tol * abs(objectives[-2]):
            break
    return W, objectives


@register("selector", "rfs")
class RFS(BaseMultiLabelSelector):
    """RFS (Nie et al. 2010): rank features by the row norms of l2,1 regression.

    ``min_W ||XW - Y||_2,1 + gamma ||W||_2,1``, features by ``||w^i||_2``;
    see :mod:`mlfsbench.estimators.selectors.rfs`.

    Parameters
    ----------
    gamma : float, default=1.0
        Weight of the row-sparsity penalty (Nie et al. searched it over
        powers of 10).
    max_iter : int, default=100
        Iterations at most.
    tol : float, default=1e-6
        Stop when the objective changes by less than this, relative.
    n_features_to_select : int or None, default=None
    random_state : None
        Unused (deterministic).

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        ``||w^i||_2``.
    coef_ : ndarray of shape (n_features, n_labels)
        ``W``.
    objective_ : ndarray
        The objective after each iteration (non-increasing).
    n_iter_ : int

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> Y = (X[:, [0, 0]] + 0.1 * rng.normal(size=(40, 2)) > 0).astype(int)
    >>> RFS(gamma=0.5).fit(X, Y).ranking_.tolist()
    [0, 2, 1]
    """

    input_kind = "continuous"

    _parameter_constraints: dict = {
        **BaseMultiLabelSelector._parameter_constraints,
        "gamma": [Number(Real, 0, None, closed="neither")],
        "max_iter": [Count(Integral, 1, None, closed="left")],
        "tol": [Number(Real, 0, None, closed="left")],
    }

    def __init__(self, *, gamma=1.0, max_iter=100, tol=1e-6,
                 n_features_to_select=None, random_state=None):
        super().__init__(n_features_to_select=n_features_to_select,
                         random_state=random_state)
        self.gamma = gamma
        self.max_iter = max_iter
        self.tol = tol

    def _fit(self, X, Y):
        X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
        Y = np.asarray(Y, dtype=float)
        X = X - X.mean(axis=0)  # no intercept in XW: centre both
        Y = Y - Y.mean(axis=0)
        W, objectives = rfs_weights(X, Y, float(self.gamma),
                                    max_iter=int(self.max_iter), tol=float(self.tol))
        self.coef_ = W
        self.objective_ = np.asarray(objectives)
        self.n_iter_ = len(objectives)
        return np.sqrt((W * W).sum(axis=1))
