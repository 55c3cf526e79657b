r"""Nearest-neighbour mutual information between continuous features and a class.

The estimator of Doquire & Verleysen (2013, Section 2.2), introduced by
Gomez-Verdejo, Verleysen & Fleury (2009) for classification. It plugs the
Kozachenko--Leonenko entropy estimator (Eq. 4)

.. math::

    \hat H(X) = -\psi(K) + \psi(N) + \log c_d
                + \frac{d}{N} \sum_{n=1}^{N} \log \epsilon(n, K)

into :math:`I(X;Y) = H(X) - \sum_l \frac{n_l}{N} H(X \mid Y = y_l)` (Eq. 6),
which gives (Eq. 7)

.. math::

    \hat I(X;Y) = \psi(N) - \frac{1}{N} \sum_{i=1}^{N} \psi(n_{y_i})
        + \frac{d}{N} \Big[ \sum_{n=1}^{N} \log \epsilon(n, K)
        - \sum_{l=1}^{L} \sum_{n \in \mathcal{Y}_l} \log \epsilon_l(n, K) \Big],

where :math:`\epsilon(n, K)` is twice the Euclidean distance from sample
:math:`n` to its :math:`K`-th nearest neighbour among all samples,
:math:`\epsilon_l(n, K)` the same among the samples of its own class
:math:`y_l` (of size :math:`n_l`), :math:`d` the number of features and
:math:`\psi` the digamma function. The factor 2 and the unit-ball volume
:math:`c_d` cancel in the difference; the code works with squared distances,
:math:`d \log \epsilon = \tfrac{d}{2} \log \epsilon^2 + \text{const}`.

Conventions
-----------
Units
    **Nats** (natural logarithms), unlike
    :mod:`mlfsbench.estimators.information.entropy` whose
    plug-in quantities are in bits; divide by ``ln 2`` to compare.
Classes
    Every class needs more than ``K`` samples (``ValueError`` otherwise): the
    pruned problem transformation with ``p > K`` guarantees it (Section 3).
Scaling
    :func:`prepare_features` standardizes each feature to zero mean and unit
    variance on the data it is given (the training part); a constant feature
    becomes all zeros.
Duplicate points (the guard)
    Equal points would make :math:`\epsilon = 0` and :math:`\log \epsilon = -\infty`
    (or ``nan`` as :math:`-\infty + \infty`). Two measures are taken:

    1. ``noise`` (default ``1e-10``, in standardized units): a seeded Gaussian
       jitter of that standard deviation is added once to every standardized
       value, as Kraskov et al. (2004) and scikit-learn's
       ``mutual_info_classif`` do. Ties are then broken at a scale far below
       any real difference, and the estimate stays consistent for discrete or
       mixed features: an atom shared by :math:`m` samples, :math:`m_l` of
       them in class :math:`l`, contributes :math:`\log(m_l / m)` per sample,
       the plug-in value (so a discrete feature that determines the class gets
       :math:`\approx H(Y)`, an independent one :math:`\approx 0`).
    2. Squared distances are floored at the smallest normal double
       (``numpy.finfo(float).tiny``) before the logarithm, so that even with
       ``noise=0`` every term is finite (a point whose ``K`` nearest
       neighbours coincide with it then contributes ``log(tiny)`` to both
       sums, i.e. zero when they are of its own class).

Computation
-----------
The neighbour searches themselves (KD-tree, sorted windows, partitions, the
candidate lists) are in :mod:`mlfsbench.estimators.neighbours`.

- :func:`knn_mutual_information` -- one subset, with KD-trees
  (:class:`scipy.spatial.cKDTree`), whole set and one tree per class.
- :func:`knn_mutual_information_univariate` -- every single feature at once:
  in one dimension the ``K`` nearest neighbours of a point together with the
  point are ``K + 1`` consecutive sorted values, so the ``K``-th neighbour
  distance is the smallest over the ``K + 1`` such windows of the largest
  distance to a window end (``O(N K)`` after a sort, vectorized over
  features).
- :class:`ForwardKnnMI` -- the greedy forward search: keeps the selected
  subset's squared-distance matrix :math:`D_S` and scores every candidate
  :math:`j` by :math:`D_{S \cup j} = D_S + (x_j - x_j^\top)^2` without
  computing the full matrix: per step, the ``M`` nearest neighbours of each
  point under :math:`D_S` are sorted once; the ``K``-th smallest candidate
  distance among the first ``m`` of them, :math:`u`, is the exact answer
  whenever :math:`u \le` the :math:`(m+1)`-th smallest :math:`D_S` distance
  (adding a feature never decreases a distance). Every (candidate, point)
  pair starts with ``m = 2K + 2``; pairs failing the bound are redone with
  ``m`` doubled (iterative deepening up to ``M``), and the few left use the
  full row. Candidates are vectorized in chunks and chunks run in threads
  (``n_jobs``). Memory: ``8 N^2`` bytes for :math:`D_S` plus the lists
  (``16 N M`` bytes).
- :func:`backward_elimination` -- exact leave-one-feature-out distances.

References
----------
- G. Doquire, M. Verleysen (2013). "Mutual information-based feature
  selection for multilabel classification." Neurocomputing 122, 148-155.
- V. Gomez-Verdejo, M. Verleysen, J. Fleury (2009). "Information-theoretic
  feature selection for functional data classification." Neurocomputing 72,
  3580-3589.
- L. F. Kozachenko, N. N. Leonenko (1987). "Sample estimate of the entropy of
  a random vector." Probl. Inf. Transm. 23, 95-101.
- A. Kraskov, H. Stoegbauer, P. Grassberger (2004). "Estimating mutual
  information." Phys. Rev. E 69, 066138.

Examples
--------
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 600)
>>> informative = y + 0.05 * rng.standard_normal(600)   # two separated blobs
>>> noise = rng.standard_normal(600)
>>> X = np.column_stack([informative, noise])
>>> mi = knn_mutual_information_univariate(X, y, random_state=0)
>>> round(float(mi[0]), 2), abs(float(mi[1])) < 0.05   # H(y) = ln 2 = 0.69 nats
(0.69, True)
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy.special import digamma
from sklearn.utils import check_random_state

from mlfsbench.estimators.information.entropy import encode_codes
from mlfsbench.estimators.neighbours import (
    kth_distances_1d,
    kth_neighbour_sq_distances,
    kth_smallest,
    sorted_neighbours,
)

__all__ = [
    "DEFAULT_K",
    "DEFAULT_NOISE",
    "ForwardKnnMI",
    "backward_elimination",
    "forward_selection",
    "knn_mutual_information",
    "knn_mutual_information_univariate",
    "mi_from_log_sums",
    "prepare_features",
    "squared_distances",
    "standardize",
    "univariate_prepared",
]

DEFAULT_K = 4
DEFAULT_NOISE = 1e-10
_TINY = np.finfo(np.float64).tiny
# Elements of the (samples x neighbours x candidates) block built per chunk.
_CHUNK_ELEMENTS = 1 << 21


# --------------------------------------------------------------------------
# Input preparation
# --------------------------------------------------------------------------


def standardize(X) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Zero-mean, unit-variance columns; constant columns become zeros.

    Returns ``(Z, mean, scale)`` with ``Z = (X - mean) / scale`` and
    ``scale = 1`` for a constant column.

    >>> Z, mean, scale = standardize(np.array([[1.0, 5.0], [3.0, 5.0]]))
    >>> Z.tolist(), mean.tolist(), scale.tolist()
    ([[-1.0, 0.0], [1.0, 0.0]], [2.0, 5.0], [1.0, 1.0])
    """
    X = _check_matrix(X)
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[~(scale > 0)] = 1.0
    return (X - mean) / scale, mean, scale


def prepare_features(X, *, standardize_features: bool = True,
                     noise: float = DEFAULT_NOISE, random_state=None) -> np.ndarray:
    """Standardize ``X`` and add the tie-breaking jitter (see the module notes).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite continuous features (the training part).
    standardize_features : bool, default=True
        Standardize each column (:func:`standardize`) first.
    noise : float, default=1e-10
        Standard deviation of the Gaussian jitter added to every value
        (``0``: none).
    random_state : None, int or RandomState
        Seed of the jitter.

    Returns
    -------
    Z : ndarray of shape (n_samples, n_features), float64

    Examples
    --------
    >>> Z = prepare_features(np.array([[0.0], [0.0], [2.0]]), random_state=0)
    >>> len(np.unique(Z)), bool(np.abs(Z[0] - Z[1]) < 1e-8)
    (3, True)
    """
    if standardize_features:
        Z, _, _ = standardize(X)
    else:
        Z = _check_matrix(X).copy()
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise}")
    if noise > 0:
        rng = check_random_state(random_state)
        Z += noise * rng.standard_normal(Z.shape)
    return np.ascontiguousarray(Z)


def _check_matrix(X) -> np.ndarray:
    if hasattr(X, "toarray"):
        X = X.toarray()
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X must be finite (no NaN or infinity); impute first")
    return X


def _check_classes(y, n_samples: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Class codes ``0..L-1`` and class sizes; every class needs > k samples."""
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n_samples:
        raise ValueError(
            f"y must be 1-D with {n_samples} class values, got shape {y.shape}"
        )
    codes = encode_codes(y)
    counts = np.bincount(codes)
    if counts.min() <= k:
        raise ValueError(
            f"every class needs more than k={k} samples for the within-class "
            f"neighbours; the smallest has {counts.min()} (prune rare classes "
            "with p > k)"
        )
    return codes, counts


# --------------------------------------------------------------------------
# Eq. 7 from the neighbour distances
# --------------------------------------------------------------------------


def _log_sq(r2) -> np.ndarray:
    """Logarithm of squared distances floored at the smallest normal double."""
    return np.log(np.maximum(r2, _TINY))


def _psi_term(counts: np.ndarray) -> float:
    """``psi(N) - (1/N) sum_i psi(n_{y_i})`` of Eq. 7."""
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    return float(digamma(n) - np.dot(counts, digamma(counts)) / n)


def mi_from_log_sums(log_all, log_class, counts, d: int):
    r"""Eq. 7 from sums over samples of log squared neighbour distances.

    Parameters
    ----------
    log_all, log_class : float or ndarray
        :math:`\sum_n \log \epsilon^2(n, K)` over all samples, with the
        neighbours taken in the whole set and within the sample's class (any
        half-distance convention cancels).
    counts : array-like of int
        Class sizes :math:`n_l`.
    d : int
        Dimension of the feature subset.

    Returns
    -------
    float or ndarray
        The estimate in nats.

    Examples
    --------
    Neighbours as close within the class as in the whole set (separated
    classes): the digamma terms alone, about ``H(Y) = ln 2`` for two classes
    of 50; within-class neighbours twice as far in 1-D (class density half the
    overall one, as for a feature independent of the class): about zero.

    >>> round(float(mi_from_log_sums(-3.0, -3.0, [50, 50], 1)), 4)
    0.6982
    >>> round(float(mi_from_log_sums(-300.0, -300.0 + 100 * np.log(4), [50, 50], 1)),
    ...       3)
    0.005
    """
    counts = np.asarray(counts)
    n = counts.sum()
    diff = np.asarray(log_all, dtype=float) - np.asarray(log_class, dtype=float)
    return _psi_term(counts) + 0.5 * d * diff / n


# --------------------------------------------------------------------------
# One subset: KD-trees
# --------------------------------------------------------------------------


def knn_mutual_information(X, y, *, k: int = DEFAULT_K,
                           standardize_features: bool = True,
                           noise: float = DEFAULT_NOISE, random_state=None,
                           n_jobs: int | None = None) -> float:
    """Eq. 7: mutual information (nats) of a feature subset with a class.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The subset's continuous features, treated as one random vector.
    y : array-like of shape (n_samples,)
        Class of each sample (any hashable values); every class needs more
        than ``k`` samples.
    k : int, default=4
        Number of nearest neighbours ``K``.
    standardize_features, noise, random_state
        See :func:`prepare_features`.
    n_jobs : int or None
        Threads of the KD-tree queries (``None``: 1, ``-1``: all cores).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> y = rng.integers(0, 2, 500)
    >>> X = rng.standard_normal((500, 2)) + 4 * y[:, None]   # well separated
    >>> round(knn_mutual_information(X, y, random_state=0), 2)
    0.69
    """
    Z = prepare_features(X, standardize_features=standardize_features,
                         noise=noise, random_state=random_state)
    codes, counts = _check_classes(y, Z.shape[0], k)
    workers = _n_threads(n_jobs)
    log_all = _log_sq(kth_neighbour_sq_distances(Z, k, workers=workers)).sum()
    log_class = sum(
        _log_sq(kth_neighbour_sq_distances(Z[codes == c], k, workers=workers)).sum()
        for c in range(len(counts))
    )
    return float(mi_from_log_sums(log_all, log_class, counts, Z.shape[1]))


# --------------------------------------------------------------------------
# Every single feature: sorted windows
# --------------------------------------------------------------------------


def _sum_log_kth_1d(Z: np.ndarray, k: int) -> np.ndarray:
    """Per column, the sum over rows of log squared k-th neighbour distance."""
    best = kth_distances_1d(Z, k)
    return _log_sq(best * best).sum(axis=0)


def univariate_prepared(Z: np.ndarray, codes: np.ndarray, counts: np.ndarray,
                         k: int) -> np.ndarray:
    """Eq. 7 for every column of prepared features ``Z`` (d = 1).

    ``Z`` from :func:`prepare_features`; ``codes`` the class of each sample
    (``0 .. m-1``) and ``counts`` the samples per class, each above ``k``.
    The building block of :func:`knn_mutual_information_univariate` and of
    the selectors that prepare (jitter, standardize) the data once.
    """
    log_all = _sum_log_kth_1d(Z, k)
    order = np.argsort(codes, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)])
    Zs = Z[order]
    log_class = np.zeros(Z.shape[1])
    for a, b in zip(starts[:-1], starts[1:], strict=True):
        log_class += _sum_log_kth_1d(Zs[a:b], k)
    return mi_from_log_sums(log_all, log_class, counts, 1)


def knn_mutual_information_univariate(X, y, *, k: int = DEFAULT_K,
                                      standardize_features: bool = True,
                                      noise: float = DEFAULT_NOISE,
                                      random_state=None) -> np.ndarray:
    """Eq. 7 for every single feature of ``X`` (nats), all at once.

    Same parameters as :func:`knn_mutual_information`; returns an array of
    shape (n_features,). Equal to calling :func:`knn_mutual_information` on
    each column with the same jittered data (up to rounding).

    Examples
    --------
    A discrete feature equal to the class gets ``H(Y) = ln 2`` (the jitter
    makes its atoms tiny blobs), a constant one zero:

    >>> y = np.repeat([0, 1], 500)
    >>> X = np.column_stack([y, np.ones(1000)])
    >>> np.round(knn_mutual_information_univariate(X, y, random_state=0), 2)
    array([0.69, 0.01])
    """
    Z = prepare_features(X, standardize_features=standardize_features,
                         noise=noise, random_state=random_state)
    codes, counts = _check_classes(y, Z.shape[0], k)
    return univariate_prepared(Z, codes, counts, k)


# --------------------------------------------------------------------------
# Full squared-distance matrices
# --------------------------------------------------------------------------


def squared_distances(Z, features: Sequence[int] | None = None) -> np.ndarray:
    """Squared Euclidean distances over ``features``, summed feature by feature.

    The diagonal is ``+inf`` so that a point is never its own neighbour. The
    sum is accumulated one feature at a time in the order given (exactly what
    :class:`ForwardKnnMI` does incrementally).

    >>> squared_distances(np.array([[0.0, 0.0], [3.0, 4.0]])).tolist()
    [[inf, 25.0], [25.0, inf]]
    """
    Z = np.asarray(Z, dtype=np.float64)
    n = Z.shape[0]
    D = np.zeros((n, n))
    for j in range(Z.shape[1]) if features is None else features:
        _add_feature(D, Z[:, j])
    np.fill_diagonal(D, np.inf)
    return D


def _add_feature(D: np.ndarray, z: np.ndarray) -> None:
    """``D += (z_a - z_b)^2`` in place, one row block at a time."""
    step = max(1, _CHUNK_ELEMENTS // max(1, z.size))
    for a in range(0, z.size, step):
        diff = z[a : a + step, None] - z[None, :]
        diff *= diff
        D[a : a + step] += diff


class _Blocks:
    """Samples sorted by class: codes, sizes and block boundaries."""

    def __init__(self, codes: np.ndarray, counts: np.ndarray):
        self.codes = codes
        self.counts = counts
        self.starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)

    def slices(self):
        return [slice(a, b) for a, b in zip(self.starts[:-1], self.starts[1:],
                                            strict=True)]


def _mi_full(D: np.ndarray, blocks: _Blocks, k: int, d: int) -> float:
    """Eq. 7 from a full squared-distance matrix (diagonal +inf)."""
    log_all = _log_sq(kth_smallest(D, k)).sum()
    log_class = 0.0
    for s in blocks.slices():
        log_class += _log_sq(kth_smallest(D[s, s], k)).sum()
    return float(mi_from_log_sums(log_all, log_class, blocks.counts, d))


def _n_threads(n_jobs) -> int:
    if n_jobs is None:
        return 1
    n_jobs = int(n_jobs)
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return max(1, n_jobs)


def _sort_by_class(Z, y, k):
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim != 2:
        raise ValueError(f"Z must be 2-D, got shape {Z.shape}")
    codes, counts = _check_classes(y, Z.shape[0], k)
    order = np.argsort(codes, kind="stable")
    return np.ascontiguousarray(Z[order]), _Blocks(codes[order], counts)


# --------------------------------------------------------------------------
# Greedy forward search
# --------------------------------------------------------------------------


class ForwardKnnMI:
    """Incremental Eq. 7 for a growing feature subset (forward search state).

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_features)
        Prepared features (:func:`prepare_features`).
    y : array-like of shape (n_samples,)
        Classes, each with more than ``k`` samples.
    k : int, default=4
        Number of nearest neighbours.
    n_jobs : int or None
        Threads over candidate chunks (``None``: 1, ``-1``: all cores).
    n_neighbours : int or None
        Scale of the neighbour lists: the lists hold ``M = 8 m`` neighbours
        per point, with ``m = n_neighbours`` or, for ``None``,
        ``m = 2 k N^{1/(d+1)}`` for a subset of size ``d`` (about the number
        of ``d``-dimensional neighbours still candidates once a dimension is
        added, for uniform data), clipped to ``[2k + 2, N - 1]``. Any value
        gives the same, exact, result; only the speed changes.

    Attributes
    ----------
    selected : list of int
        The current subset, in order of addition.
    D2 : ndarray of shape (n_samples, n_samples) or None
        Squared distances over ``selected`` (rows in class order, diagonal
        ``+inf``); memory ``8 N^2`` bytes.
    n_fallback_rows : int
        Rows recomputed on the full distance row so far (diagnostic).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.random((300, 4))
    >>> y = (Z[:, 1] > Z[:, 3]).astype(int)       # needs features 1 and 3
    >>> search = ForwardKnnMI(Z, y)
    >>> search.scores([0, 1, 2, 3]).round(2)
    array([ 0.02,  0.21, -0.03,  0.21])
    >>> search.add(3)
    >>> search.scores([0, 1, 2]).round(2)   # feature 1 completes the pair
    array([0.16, 0.61, 0.15])
    """

    def __init__(self, Z, y, *, k: int = DEFAULT_K, n_jobs: int | None = None,
                 n_neighbours: int | None = None):
        self.k = int(k)
        self.Z, self.blocks = _sort_by_class(Z, y, self.k)
        self.n_jobs = n_jobs
        self.n_neighbours = n_neighbours
        self.selected: list[int] = []
        self.D2: np.ndarray | None = None
        self.n_fallback_rows = 0
        self._lists = None

    @property
    def n_samples(self) -> int:
        return self.Z.shape[0]

    def add(self, j: int) -> None:
        """Add feature ``j`` to the subset (updates ``D2`` in place)."""
        j = int(j)
        if j in self.selected:
            raise ValueError(f"feature {j} is already selected")
        if self.D2 is None:
            self.D2 = np.zeros((self.n_samples, self.n_samples))
            np.fill_diagonal(self.D2, np.inf)
        _add_feature(self.D2, self.Z[:, j])
        self.selected.append(j)
        self._lists = None

    def mi(self) -> float:
        """Eq. 7 of the current subset (``0`` for the empty subset)."""
        if not self.selected:
            return 0.0
        return _mi_full(self.D2, self.blocks, self.k, len(self.selected))

    def scores(self, candidates: Sequence[int]) -> np.ndarray:
        """Eq. 7 of ``selected + [j]`` for every ``j`` in ``candidates``."""
        candidates = np.asarray(candidates, dtype=np.intp).reshape(-1)
        if candidates.size == 0:
            return np.empty(0)
        if not self.selected:
            return univariate_prepared(self.Z[:, candidates], self.blocks.codes,
                                        self.blocks.counts, self.k)
        if self._lists is None:
            self._lists = self._neighbour_lists()
        size = max(1, _CHUNK_ELEMENTS // (self.n_samples * (2 * self.k + 2)))
        chunks = [candidates[a : a + size] for a in range(0, candidates.size, size)]
        threads = min(_n_threads(self.n_jobs), len(chunks))
        if threads > 1:
            with ThreadPoolExecutor(threads) as pool:
                parts = list(pool.map(self._score_chunk, chunks))
        else:
            parts = [self._score_chunk(c) for c in chunks]
        return np.concatenate(parts)

    def scores_full(self, candidates: Sequence[int]) -> np.ndarray:
        """Reference for :meth:`scores`: full matrices, one candidate at a time."""
        out = []
        for j in np.asarray(candidates, dtype=np.intp).reshape(-1):
            D = np.array(self.D2) if self.selected else _diag_inf(self.n_samples)
            _add_feature(D, self.Z[:, j])
            out.append(_mi_full(D, self.blocks, self.k, len(self.selected) + 1))
        return np.array(out)

    # ---------------------------------------------------------------- internals
    def _levels(self) -> tuple[int, int]:
        """``(m, M)``: the list scale and the list length ``M = 8 m``."""
        n, d = self.n_samples, len(self.selected)
        if self.n_neighbours is not None:
            m1 = int(self.n_neighbours)
        else:
            m1 = math.ceil(2 * self.k * n ** (1.0 / (d + 1)))
        m1 = int(min(max(m1, 2 * self.k + 2), n - 1))
        return m1, int(min(8 * m1, n - 1))

    def _neighbour_lists(self):
        """Sorted nearest neighbours under ``D2``: whole set and within class.

        Each list holds, per row, the ``M2`` nearest neighbours sorted by
        distance plus one more column: the ``(M2+1)``-th distance, or ``+inf``
        once the row's candidates are exhausted. Entry ``vals[:, M]`` is thus a
        lower bound of every distance not among the first ``M`` columns.
        """
        _, m2 = self._levels()
        whole = sorted_neighbours(self.D2, m2)
        n = self.n_samples
        slices = self.blocks.slices()
        width = max(min(m2, s.stop - s.start - 1) for s in slices) + 1
        idx = np.repeat(np.arange(n)[:, None], width, axis=1)
        vals = np.full((n, width), np.inf)
        for s in slices:
            b_idx, b_vals = sorted_neighbours(self.D2[s, s], m2)
            idx[s, : b_idx.shape[1]] = b_idx + s.start
            vals[s, : b_idx.shape[1]] = b_vals
        return whole, (idx, vals)

    def _score_chunk(self, chunk: np.ndarray) -> np.ndarray:
        Zt = np.ascontiguousarray(self.Z[:, chunk].T)  # (c, n)
        whole, within = self._lists
        r_all = self._kth(Zt, *whole, within_class=False)
        r_cls = self._kth(Zt, *within, within_class=True)
        return mi_from_log_sums(_log_sq(r_all).sum(axis=1),
                                _log_sq(r_cls).sum(axis=1),
                                self.blocks.counts, len(self.selected) + 1)

    def _kth(self, Zt, idx, vals, *, within_class: bool) -> np.ndarray:
        """k-th neighbour squared distances (c, n) for each candidate row of Zt.

        Iterative deepening: every (candidate, row) pair first uses the
        ``2k + 2`` nearest listed neighbours; a pair whose result exceeds the
        bound ``vals[row, m]`` is redone with twice as many, and so on up to
        the list length; the pairs still undecided use the full row.
        """
        k = self.k
        width = idx.shape[1] - 1
        m = min(2 * k + 2, width)
        G = Zt[:, idx[:, :m]]  # (c, n, m): candidate values of the neighbours
        G -= Zt[:, :, None]
        G *= G
        G += vals[:, :m]
        u = kth_smallest(G, k)
        cols, rows = np.nonzero(u > vals[:, m])
        flat_z = Zt.ravel()
        n = Zt.shape[1]
        while rows.size and m < width:
            m = min(2 * m, width)
            G = idx[rows, :m]  # flat positions of the neighbours' values
            G += (cols * n)[:, None]
            G = flat_z.take(G)
            G -= flat_z.take(cols * n + rows)[:, None]
            G *= G
            G += vals[rows, :m]
            part = kth_smallest(G, k)
            u[cols, rows] = part
            fail = part > vals[rows, m]
            cols, rows = cols[fail], rows[fail]
        if rows.size:
            self.n_fallback_rows += int(rows.size)
            step = max(1, _CHUNK_ELEMENTS // n)
            for a in range(0, rows.size, step):
                c, r = cols[a : a + step], rows[a : a + step]
                full = Zt[c] - Zt[c, r][:, None]
                full *= full
                full += self.D2[r]
                if within_class:
                    codes = self.blocks.codes
                    full[codes[r][:, None] != codes[None, :]] = np.inf
                u[c, r] = kth_smallest(full, k)
        return u


def _diag_inf(n: int) -> np.ndarray:
    D = np.zeros((n, n))
    np.fill_diagonal(D, np.inf)
    return D


def forward_selection(Z, y, *, k: int = DEFAULT_K, n_steps: int | None = None,
                      n_jobs: int | None = None, n_neighbours: int | None = None):
    """Greedy forward selection on Eq. 7 (Doquire & Verleysen 2013, Section 3).

    Starts from the empty subset; each step adds the unselected feature whose
    addition gives the subset of highest estimated mutual information (ties:
    the lower feature index).

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_features)
        Prepared features (:func:`prepare_features`).
    y : array-like of shape (n_samples,)
        Classes, each with more than ``k`` samples.
    k : int, default=4
    n_steps : int or None
        Features to add (``None``: all).
    n_jobs, n_neighbours
        See :class:`ForwardKnnMI`.

    Returns
    -------
    order : ndarray of int
        Selected features in order of addition.
    path : ndarray of float
        ``path[t]``: Eq. 7 (nats) of ``order[: t + 1]``.
    univariate : ndarray of shape (n_features,)
        Eq. 7 of every single feature (the first step's scores).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.random((400, 5))
    >>> y = (Z[:, 2] > 0.5).astype(int) + 2 * (Z[:, 4] > 0.5)
    >>> order, path, _ = forward_selection(Z, y, n_steps=2)
    >>> sorted(order.tolist()), bool(path[1] > path[0])
    ([2, 4], True)
    """
    Z = np.asarray(Z, dtype=np.float64)
    f = Z.shape[1]
    n_steps = f if n_steps is None else min(int(n_steps), f)
    search = ForwardKnnMI(Z, y, k=k, n_jobs=n_jobs, n_neighbours=n_neighbours)
    remaining = list(range(f))
    order, path = [], []
    univariate = None
    for _ in range(n_steps):
        scores = search.scores(remaining)
        if univariate is None:
            univariate = scores.copy()
        best = int(np.argmax(scores))
        order.append(remaining.pop(best))
        path.append(float(scores[best]))
        search.add(order[-1])
    if univariate is None:
        univariate = search.scores(remaining)
    return np.array(order, dtype=np.intp), np.array(path), univariate


# --------------------------------------------------------------------------
# Backward elimination
# --------------------------------------------------------------------------


def backward_elimination(Z, y, *, k: int = DEFAULT_K, n_jobs: int | None = None):
    """Backward elimination on Eq. 7 (Doquire & Verleysen 2013, Sections 3, 5.1).

    Starts from all features; each step removes the feature whose removal
    leaves the subset of highest estimated mutual information (ties: the lower
    feature index), until one feature is left.

    Leave-one-out distances are computed exactly, without subtracting a
    feature's contribution (which would cancel the jitter-level distances of
    duplicated points): the subset is split into chunks of about
    ``sqrt(d)`` features; per chunk the distances over the features outside it
    are summed once, then each member's leave-one-out matrix adds the other
    members. Cost per step ``O(d^{1.5} N^2)``, memory ``O(N^2)`` per thread;
    meant for moderate numbers of features (it must run all ``f - 1`` steps
    to rank the top features).

    Returns
    -------
    removed : ndarray of int
        Features in order of removal (``f - 1`` of them).
    path : ndarray of float
        ``path[t]``: Eq. 7 of the subset left after the ``t``-th removal.
    last : int
        The feature never removed.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.random((300, 4))
    >>> y = ((Z[:, 0] > 0.5) == (Z[:, 3] > 0.5)).astype(int)   # XOR of 0 and 3
    >>> removed, path, last = backward_elimination(Z, y)
    >>> sorted([last, int(removed[-1])])
    [0, 3]
    """
    Z, blocks = _sort_by_class(Z, y, k)
    threads = _n_threads(n_jobs)
    subset = list(range(Z.shape[1]))
    removed, path = [], []
    while len(subset) > 1:
        size = max(1, math.isqrt(len(subset) - 1) + 1)
        chunks = [subset[a : a + size] for a in range(0, len(subset), size)]

        def score(chunk, subset=subset):
            base = _diag_inf(Z.shape[0])
            for i in subset:
                if i not in chunk:
                    _add_feature(base, Z[:, i])
            out = []
            for j in chunk:
                D = base.copy()
                for i in chunk:
                    if i != j:
                        _add_feature(D, Z[:, i])
                out.append(_mi_full(D, blocks, k, len(subset) - 1))
            return out

        if threads > 1 and len(chunks) > 1:
            with ThreadPoolExecutor(min(threads, len(chunks))) as pool:
                parts = list(pool.map(score, chunks))
        else:
            parts = [score(c) for c in chunks]
        scores = np.concatenate(parts)
        best = int(np.argmax(scores))
        removed.append(subset.pop(best))
        path.append(float(scores[best]))
    return np.array(removed, dtype=np.intp), np.array(path), int(subset[0])
