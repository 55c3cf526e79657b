r"""Supervised MDL discretization (Fayyad & Irani 1993).

The entropy-minimisation discretization of U. M. Fayyad and K. B. Irani
("Multi-Interval Discretization of Continuous-Valued Attributes for
Classification Learning", IJCAI 1993, pp. 1022-1027), the supervised default
of Weka's ``InfoGainAttributeEval`` (``weka.filters.supervised.attribute.
Discretize``), which Spolaôr et al. (2013) used for IG-BR and IG-LP.

For a set :math:`S` of :math:`N` training values of one feature with classes
:math:`c`, every cut point :math:`T` between two consecutive distinct values
(at their midpoint) splits :math:`S` into :math:`S_1 = \{x \le T\}` and
:math:`S_2`. The cut minimising the class information entropy of the partition

.. math::

    E(T; S) = \frac{|S_1|}{N} H(S_1) + \frac{|S_2|}{N} H(S_2)

is accepted if and only if its gain passes the MDL criterion

.. math::

    \mathrm{Gain}(T; S) = H(S) - E(T; S) > \frac{\log_2(N - 1)}{N}
        + \frac{\Delta(T; S)}{N}, \qquad
    \Delta(T; S) = \log_2(3^k - 2) - [k H(S) - k_1 H(S_1) - k_2 H(S_2)],

with :math:`k, k_1, k_2` the numbers of classes present in :math:`S, S_1,
S_2`; the procedure then recurses on :math:`S_1` and :math:`S_2`. Entropies are
in bits. Ties between equally good cuts go to the lowest cut (Weka's strict
``<``). With ``better_encoding=True`` the first term uses the number of
candidate cut points of :math:`S` instead of :math:`N - 1` (Weka's ``-E``
option); the default is the paper's criterion, which is also Weka's default.

Implementation: the training values of a block of features are sorted once
and grouped into (feature, distinct value) groups; the class counts of the
groups come from one sparse product for all class vectors (all BR labels at
once), and their cumulative sums give the class counts of any run of groups.
The recursion is level-synchronous: all open segments of all features are
scored together, every candidate cut of a level in one vectorized pass.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from mlfsbench.estimators.discretizers.unsupervised import apply_cut_points
from mlfsbench.estimators.information.entropy import encode_codes, xlog2x

__all__ = [
    "MDLDiscretizer",
    "mdl_cut_points",
    "mdl_information_gain",
]

_LOG2_3 = float(np.log2(3.0))
_MAX_CELLS = 1 << 22  # entries of the per-block work arrays


# --------------------------------------------------------------------------
# Grouping of the training values
# --------------------------------------------------------------------------


class _Groups:
    """Distinct values of a block of features, in sorted order per feature.

    Attributes: ``values`` (G,) the distinct values, feature after feature;
    ``start``/``end`` (p_block,) the group range of each feature;
    ``member`` (n, G) sparse 0/1 indicator of the group of each sample.
    """

    def __init__(self, B: np.ndarray):
        n, p = B.shape
        flat = B.T.ravel()  # feature-major
        col = np.repeat(np.arange(p), n)
        order = np.lexsort((flat, col))
        v, c = flat[order], col[order]
        new = np.ones(v.shape[0], dtype=bool)
        new[1:] = (c[1:] != c[:-1]) | (v[1:] != v[:-1])
        gid_sorted = np.cumsum(new) - 1
        gid = np.empty_like(gid_sorted)
        gid[order] = gid_sorted
        self.values = v[new]
        group_col = c[new]
        G = self.values.shape[0]
        self.start = np.searchsorted(group_col, np.arange(p), side="left")
        self.end = np.searchsorted(group_col, np.arange(p), side="right")
        rows = np.tile(np.arange(n), p)
        self.member = sp.csr_matrix(
            (np.ones(n * p), (rows, gid)), shape=(n, G)
        )
        self.size = np.asarray(self.member.sum(axis=0)).ravel()

    def prefix(self, counts: np.ndarray) -> np.ndarray:
        """Cumulative class counts: row ``g`` = counts of groups ``< g``."""
        P = np.zeros((counts.shape[0] + 1, counts.shape[1]))
        np.cumsum(counts, axis=0, out=P[1:])
        return P


def _blocks(X, n_classes: int):
    """Yield ``(columns, dense float block)`` of at most ``_MAX_CELLS`` cells."""
    n, p = X.shape
    width = max(1, _MAX_CELLS // max(1, n * max(n_classes, 2)))
    Xc = sp.csc_matrix(X) if sp.issparse(X) else None
    for lo in range(0, p, width):
        cols = np.arange(lo, min(p, lo + width))
        if Xc is not None:
            B = Xc[:, cols].toarray().astype(float)
        else:
            B = np.asarray(X[:, cols], dtype=float)
        yield cols, B


def _check_X(X):
    if sp.issparse(X):
        data = X.data
    else:
        X = np.asarray(X, dtype=float)
        data = X
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got {X.shape}")
    if not np.isfinite(data).all():
        raise ValueError("X must be finite (impute missing values first)")
    return X


# --------------------------------------------------------------------------
# The recursion
# --------------------------------------------------------------------------


def _segment_stats(P, a, b):
    """Counts, sizes, entropy-times-size and classes present of runs [a, b)."""
    S = P[b] - P[a]
    N = S.sum(axis=1)
    NH = xlog2x(N) - xlog2x(S).sum(axis=1)  # N * H(S)
    k = (S > 0.5).sum(axis=1)
    return N, NH, k


def _mdl_cuts(P, start, end, better_encoding=False) -> np.ndarray:
    """Accepted cut positions (group indices ``t``: cut between ``t-1``, ``t``).

    ``P`` are the prefix class counts of the groups; each feature's groups are
    ``[start_j, end_j)``.
    """
    a = np.asarray(start, dtype=np.intp)
    b = np.asarray(end, dtype=np.intp)
    accepted = []
    while a.size:
        keep = b - a >= 2
        a, b = a[keep], b[keep]
        if not a.size:
            break
        lens = b - a - 1
        offs = np.cumsum(lens) - lens
        seg = np.repeat(np.arange(a.size), lens)
        t = a[seg] + 1 + (np.arange(seg.size) - offs[seg])
        L = P[t] - P[a[seg]]
        R = P[b[seg]] - P[t]
        nL, nR = L.sum(axis=1), R.sum(axis=1)
        # |S1| H(S1) + |S2| H(S2)  (= N * E(T; S))
        ent = (xlog2x(nL) - xlog2x(L).sum(axis=1)) + (
            xlog2x(nR) - xlog2x(R).sum(axis=1)
        )
        best_val = np.minimum.reduceat(ent, offs)
        hits = np.flatnonzero(ent <= best_val[seg])
        _, first = np.unique(seg[hits], return_index=True)
        best = hits[first]  # first (lowest) minimising cut of each segment
        tb = t[best]

        N, NH, k = _segment_stats(P, a, b)
        n1, NH1, k1 = _segment_stats(P, a, tb)
        n2, NH2, k2 = _segment_stats(P, tb, b)
        H = NH / N
        H1 = NH1 / n1
        H2 = NH2 / n2
        gain = H - ent[best] / N
        # log2(3^k - 2) without overflow for many classes
        log_term = k * _LOG2_3 + np.log2(1.0 - 2.0 * np.power(3.0, -k.astype(float)))
        delta = log_term - (k * H - k1 * H1 - k2 * H2)
        cost = np.log2(lens.astype(float)) if better_encoding else np.log2(N - 1.0)
        ok = gain > (cost + delta) / N
        accepted.append(tb[ok])
        a = np.concatenate([a[ok], tb[ok]])
        b = np.concatenate([tb[ok], b[ok]])
    if not accepted:
        return np.empty(0, dtype=np.intp)
    return np.sort(np.concatenate(accepted))


def _information_gain(P, start, end, cuts) -> np.ndarray:
    """IG in bits of each feature discretized at ``cuts`` (group indices)."""
    p = len(start)
    bounds = np.unique(np.concatenate([start, end, cuts]))
    lo, hi = bounds[:-1], bounds[1:]
    lo, hi = lo[lo < hi], hi[lo < hi]
    feature = np.searchsorted(np.asarray(start), lo, side="right") - 1
    nb, NHb, _ = _segment_stats(P, lo, hi)
    n, NH, _ = _segment_stats(P, np.asarray(start), np.asarray(end))
    cond = np.bincount(feature, weights=NHb, minlength=p)
    with np.errstate(invalid="ignore", divide="ignore"):
        ig = np.where(n > 0, (NH - cond) / n, 0.0)
    return np.maximum(ig, 0.0)


def _class_counts(groups: _Groups, y: np.ndarray, n_classes: int) -> np.ndarray:
    onehot = sp.csr_matrix(
        (np.ones(y.shape[0]), (np.arange(y.shape[0]), y)),
        shape=(y.shape[0], n_classes),
    )
    return np.asarray((groups.member.T @ onehot).toarray())


def _targets(y) -> tuple[np.ndarray, list[int], bool]:
    """Class codes (n, t), number of classes per column, all-binary flag."""
    y = np.asarray(y)
    if y.ndim == 1:
        y = y.reshape(-1, 1)
    if y.ndim != 2:
        raise ValueError(f"y must be 1-D or 2-D, got shape {y.shape}")
    binary = y.dtype.kind in "biu" and bool(np.isin(y, (0, 1)).all())
    if binary:
        return y.astype(np.int64), [2] * y.shape[1], True
    codes = np.column_stack([encode_codes(y[:, j]) for j in range(y.shape[1])])
    return codes, [int(codes[:, j].max()) + 1 for j in range(y.shape[1])], False


def _run(X, y, better_encoding, want_cuts, want_gain):
    X = _check_X(X)
    codes, n_classes, binary = _targets(y)
    if codes.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} samples but y has {codes.shape[0]}")
    n_t = codes.shape[1]
    p = X.shape[1]
    cuts = [[[] for _ in range(p)] for _ in range(n_t)] if want_cuts else None
    gain = np.zeros((p, n_t)) if want_gain else None
    for cols, B in _blocks(X, max(n_classes) if n_classes else 2):
        groups = _Groups(B)
        if binary:
            pos = np.asarray((groups.member.T @ sp.csr_matrix(codes)).toarray())
        for t in range(n_t):
            if binary:
                counts = np.column_stack([groups.size - pos[:, t], pos[:, t]])
            else:
                counts = _class_counts(groups, codes[:, t], n_classes[t])
            P = groups.prefix(counts)
            found = _mdl_cuts(P, groups.start, groups.end, better_encoding)
            if want_gain:
                gain[cols, t] = _information_gain(P, groups.start, groups.end, found)
            if want_cuts:
                feat = np.searchsorted(groups.start, found, side="right") - 1
                mids = (groups.values[found - 1] + groups.values[found]) / 2.0
                for j, m in zip(feat, mids, strict=True):
                    cuts[t][cols[j]].append(float(m))
    return cuts, gain


def _pad(cuts_per_feature) -> np.ndarray:
    width = max([len(c) for c in cuts_per_feature], default=0)
    out = np.full((len(cuts_per_feature), max(width, 1)), np.inf)
    for j, c in enumerate(cuts_per_feature):
        out[j, : len(c)] = sorted(c)
    return out


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def mdl_cut_points(X, y, *, better_encoding: bool = False) -> np.ndarray:
    """Fayyad-Irani MDL cut points of every feature, supervised by ``y``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Finite numeric training values.
    y : array-like of shape (n_samples,)
        Class of each sample (any discrete values: an LP class, one BR label).
    better_encoding : bool, default=False
        Use the number of candidate cut points instead of ``N - 1`` in the MDL
        cost (Weka's ``-E``).

    Returns
    -------
    cuts : ndarray of shape (n_features, max(1, n_cuts))
        Increasing cut points per feature (midpoints between consecutive
        distinct training values), padded with ``+inf``; the layout of
        :func:`mlfsbench.estimators.discretizers.unsupervised.apply_cut_points`.

    Examples
    --------
    >>> x = np.arange(12.0).reshape(-1, 1)
    >>> mdl_cut_points(x, [0] * 6 + [1] * 6)
    array([[5.5]])
    >>> mdl_cut_points(x, [0, 1] * 6)  # no cut pays for itself
    array([[inf]])
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}")
    cuts, _ = _run(X, y, better_encoding, want_cuts=True, want_gain=False)
    return _pad(cuts[0])


def mdl_information_gain(X, Y, *, better_encoding: bool = False) -> np.ndarray:
    """Information gain of each feature after MDL discretization, per target.

    For every column ``t`` of ``Y`` (a class vector) each feature is
    discretized by :func:`mdl_cut_points` supervised on that column and its
    information gain ``IG = H(C) - sum_v |D_v|/|D| H(C | v)`` (Spolaôr et al.
    2013, Eq. 7; bits) is computed from the class counts of its intervals. A
    feature with no accepted cut is a single interval: IG 0 (as in Weka).
    Equals ``mutual_information_matrix(apply_cut_points(X, cuts), Y[:, t])``
    with the cuts of column ``t``, without building the codes.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    Y : array-like of shape (n_samples,) or (n_samples, n_targets)
        One class vector per column (e.g. the BR labels, or the LP class).
    better_encoding : bool, default=False
        See :func:`mdl_cut_points`.

    Returns
    -------
    ig : ndarray of shape (n_features, n_targets)

    Examples
    --------
    >>> x = np.arange(12.0).reshape(-1, 1)
    >>> mdl_information_gain(x, np.array([[0, 0]] * 6 + [[1, 0]] * 3 + [[1, 1]] * 3))
    array([[1.        , 0.81127812]])
    """
    _, gain = _run(X, Y, better_encoding, want_cuts=False, want_gain=True)
    return gain


class MDLDiscretizer(TransformerMixin, BaseEstimator):
    """Supervised Fayyad-Irani MDL discretization (see the module docstring).

    Unlike the unsupervised discretizers of
    :mod:`mlfsbench.estimators.discretizers.unsupervised`,
    ``fit`` needs the class vector ``y``; codes follow the same convention
    (a value equal to a cut point goes to the lower interval).

    Parameters
    ----------
    better_encoding : bool, default=False
        See :func:`mdl_cut_points`.

    Attributes
    ----------
    cut_points_ : ndarray of shape (n_features, max(1, n_cuts))
        ``+inf``-padded cut points.
    n_bins_ : ndarray of shape (n_features,)
        Intervals per feature (1 when no cut was accepted).

    Examples
    --------
    >>> x = np.arange(12.0).reshape(-1, 1)
    >>> d = MDLDiscretizer().fit(x, [0] * 6 + [1] * 6)
    >>> d.transform([[0.0], [5.5], [5.6], [99.0]]).ravel().tolist()
    [0, 0, 1, 1]
    """

    def __init__(self, *, better_encoding=False):
        self.better_encoding = better_encoding

    def fit(self, X, y):
        """Compute the cut points of every feature supervised on ``y``."""
        self.cut_points_ = mdl_cut_points(
            X, y, better_encoding=self.better_encoding
        )
        self.n_bins_ = np.isfinite(self.cut_points_).sum(axis=1) + 1
        self.n_features_in_ = self.cut_points_.shape[0]
        return self

    def transform(self, X):
        """Integer codes of ``X`` under the fitted cut points."""
        check_is_fitted(self, "cut_points_")
        X = _check_X(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features; fitted on {self.n_features_in_}"
            )
        return apply_cut_points(X, self.cut_points_)
