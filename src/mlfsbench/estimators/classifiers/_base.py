"""What the classifiers share: scaling, neighbour counts, the k-NN mixin, the K path.

- Input checks come from :mod:`mlfsbench.estimators.validation`
  (:func:`~mlfsbench.estimators.validation.check_features`,
  :func:`~mlfsbench.estimators.validation.check_labels`, ...), parameters are
  checked by scikit-learn's ``_parameter_constraints`` of each classifier.
- Min-max scaling on the training part (:func:`minmax_scale_factors`,
  :func:`apply_minmax_scale`) and the neighbour label counts of the k-NN
  learners (:func:`neighbour_label_counts`); their neighbour search is
  :mod:`mlfsbench.estimators.neighbours` (:class:`EuclideanIndex`: nearest
  first, equal distances in training order).
- :class:`PathMixin` gives every classifier ``predict_path``: the predictions
  for a sequence of feature subsets (the K grid of the workflow) in one call.
  Its default is the per-K loop; :class:`ScaledNeighboursMixin` (ML-kNN,
  BRkNN, k-NN regression) validates and scales the fold once and searches
  neighbours once per subset, and BR-LR warm-starts its solver along the path.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import validate_data

from mlfsbench.estimators.neighbours import (
    EuclideanIndex,
    KeyedRows,
    NestedKeys,
    SharedIndex,
    SharedRows,
)
from mlfsbench.estimators.validation import check_features, check_n_features

__all__ = [
    "MultiLabelClassifier",
    "PathMixin",
    "ScaledNeighboursMixin",
    "apply_minmax_scale",
    "minmax_scale_factors",
    "neighbour_label_counts",
]


# --------------------------------------------------------------------------
# Scaling and neighbour counts
# --------------------------------------------------------------------------
def minmax_scale_factors(X) -> tuple[np.ndarray, np.ndarray]:
    """Per-feature minimum and inverse range of training features.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix, shape (n_samples, n_features)
        Training features, finite.

    Returns
    -------
    minimum : ndarray, shape (n_features,)
    inv_range : ndarray, shape (n_features,)
        ``1 / (max - min)``; 0 for a constant feature, which therefore
        contributes 0 to every distance (Weka's convention).

    Examples
    --------
    >>> lo, inv = minmax_scale_factors(np.array([[0.0, 5.0], [2.0, 5.0]]))
    >>> lo.tolist(), inv.tolist()
    ([0.0, 5.0], [0.5, 0.0])
    """
    if sp.issparse(X):
        lo = np.asarray(X.min(axis=0).toarray()).ravel().astype(np.float64)
        hi = np.asarray(X.max(axis=0).toarray()).ravel().astype(np.float64)
    else:
        lo = np.asarray(X, dtype=np.float64).min(axis=0)
        hi = np.asarray(X, dtype=np.float64).max(axis=0)
    span = hi - lo
    inv = np.zeros_like(span)
    np.divide(1.0, span, out=inv, where=span > 0)
    return lo, inv


def apply_minmax_scale(X, minimum: np.ndarray, inv_range: np.ndarray):
    """Scale features with training factors from :func:`minmax_scale_factors`.

    Dense input becomes ``(X - minimum) * inv_range``. Sparse input becomes
    ``X * inv_range`` and stays sparse: the shift by the minimum is omitted
    because Euclidean distances do not change under a common translation, so
    the neighbours are the same as with full min-max scaling (and for
    non-negative sparse data, whose minimum is 0, the result *is* min-max
    scaling).

    Examples
    --------
    >>> X = np.array([[1.0, 3.0], [3.0, 3.0]])
    >>> apply_minmax_scale(X, *minmax_scale_factors(X)).tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    >>> S = sp.csr_matrix(X)
    >>> apply_minmax_scale(S, *minmax_scale_factors(S)).toarray().tolist()
    [[0.5, 0.0], [1.5, 0.0]]
    """
    if sp.issparse(X):
        out = sp.csr_matrix(X.multiply(inv_range[np.newaxis, :]), dtype=np.float64)
        out.eliminate_zeros()
        return out
    return (np.asarray(X, dtype=np.float64) - minimum) * inv_range


def neighbour_label_counts(indices: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """For each query and label, how many of its neighbours have the label.

    Parameters
    ----------
    indices : ndarray of int, shape (n_queries, k)
        Indices of training neighbours.
    Y : ndarray, shape (n_train, n_labels)
        Training 0/1 labels.

    Returns
    -------
    ndarray of int64, shape (n_queries, n_labels)
        Values in ``0..k`` (the membership counting vector of Zhang & Zhou,
        Eq. (1)); computed as a sparse (query x training) adjacency product.

    Examples
    --------
    >>> Y = np.array([[1, 0], [1, 1], [0, 1]])
    >>> neighbour_label_counts(np.array([[0, 1], [1, 2]]), Y).tolist()
    [[2, 1], [1, 2]]
    """
    indices = np.asarray(indices)
    m, k = indices.shape
    adjacency = sp.csr_matrix(
        (np.ones(m * k, dtype=np.int64), indices.ravel(), np.arange(0, m * k + 1, k)),
        shape=(m, Y.shape[0]),
    )
    return np.asarray(adjacency @ np.asarray(Y, dtype=np.int64), dtype=np.int64)


# --------------------------------------------------------------------------
# The K path
# --------------------------------------------------------------------------
class PathMixin:
    """``predict_path``: predictions for a sequence of feature subsets.

    The default is the plain loop: for each subset a fresh ``clone(self)`` is
    fitted on those training columns and predicts the same test columns.
    Subclasses override :meth:`predict_path` to share work across subsets and
    return the same numbers (exactly for the k-NN learners, within the
    solver's tolerance for BR-LR).
    """

    def _path_inputs(self, X_train, X_test, column_sets):
        """Validated training and test features and column index arrays."""
        X_train = check_features(X_train, name="X_train")
        X_test = check_features(X_test, name="X_test")
        if X_test.shape[1] != X_train.shape[1]:
            raise ValueError(f"X_test has {X_test.shape[1]} features but X_train "
                             f"has {X_train.shape[1]}")
        sets = []
        for cols in column_sets:
            cols = np.asarray(cols)
            if cols.ndim != 1 or cols.size == 0 or not np.issubdtype(
                cols.dtype, np.integer
            ):
                raise ValueError("column_sets must hold non-empty 1-D integer "
                                 f"index arrays, got {cols!r}")
            if cols.min() < -X_train.shape[1] or cols.max() >= X_train.shape[1]:
                raise ValueError(f"column index out of range for "
                                 f"{X_train.shape[1]} features: {cols!r}")
            sets.append(cols)
        return X_train, X_test, sets

    def predict_path(self, X_train, Y_train, X_test, column_sets):
        """Fit and predict once per feature subset.

        Parameters
        ----------
        X_train : array-like or sparse matrix, shape (n_train, n_features)
        Y_train : array-like, shape (n_train, n_labels)
        X_test : array-like or sparse matrix, shape (n_test, n_features)
        column_sets : sequence of 1-D integer arrays
            Feature columns of each subset (in the workflow
            ``np.sort(ranking[:k])`` for increasing ``k``).

        Returns
        -------
        list of (Y_pred, Y_score)
            One pair per subset, equal to ``clone(self).fit(X_train[:, cols],
            Y_train)`` followed by ``predict(X_test[:, cols])`` and
            ``predict_proba(X_test[:, cols])``. ``self`` is not fitted.
        """
        X_train, X_test, sets = self._path_inputs(X_train, X_test, column_sets)
        out = []
        for cols in sets:
            model = clone(self).fit(X_train[:, cols], Y_train)
            out.append((model.predict(X_test[:, cols]),
                        model.predict_proba(X_test[:, cols])))
        return out

    def predict_granules(self, X_train, Y_train, X_test, granules):
        """:meth:`predict_path` of each label granule on its own feature subsets.

        Parameters
        ----------
        X_train, Y_train, X_test
            As :meth:`predict_path` (``Y_train`` with every label).
        granules : sequence of (labels, column_sets)
            ``labels``: the granule's label columns of ``Y_train`` (``None``:
            all); ``column_sets``: its feature subsets.

        Returns
        -------
        list of lists of (Y_pred, Y_score)
            Per granule, ``predict_path(X_train, Y_train[:, labels], X_test,
            column_sets)``. This default is that loop (the reference of the
            overrides, which share work between granules).
        """
        Y_train = np.asarray(Y_train) if not sp.issparse(Y_train) else Y_train
        return [self.predict_path(X_train, Y_train if labels is None
                                  else Y_train[:, labels], X_test, column_sets)
                for labels, column_sets in granules]


class MultiLabelClassifier(PathMixin, ClassifierMixin, BaseEstimator):
    """Base of the multi-label classifiers: tags (multi-label, sparse input)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.input_tags.sparse = True
        return tags


class ScaledNeighboursMixin(PathMixin):
    """Min-max scaling on the training part, a Euclidean index, the K path.

    For :class:`~mlfsbench.estimators.classifiers.mlknn.MLkNN`,
    :mod:`~mlfsbench.estimators.classifiers.brknn` and
    :mod:`~mlfsbench.estimators.classifiers.knn_reg`. The estimator has
    ``k`` and ``scale`` parameters and implements

    - ``_parameter_constraints``: its parameters, checked by ``fit`` and
      :meth:`predict_path` (scikit-learn's ``_validate_params``);
    - ``_check_y(Y, n_samples)``: validate the training targets;
    - ``_fit_scaled(Xs, Y)``: fit on scaled training features (calls
      :meth:`_index`);
    - ``_predict_scaled(Xs)``: ``(predict, predict_proba)`` of scaled test
      features from one neighbour search.

    Once fitted: ``n_features_in_``, ``index_`` and (when ``scale``)
    ``feature_min_`` / ``feature_inv_range_``.

    On features that are all 0 or 1, ``scale`` changes no output
    (``_params_unused_on``, read by
    :func:`~mlfsbench.estimators.registry.params_unused_on`): min-max scaling
    leaves a column holding both values as it is, and a column constant in
    the training part (scaled to 0) only removes from every distance of a
    query the same term, the query's squared difference to that constant.
    The distances are sums of integers, exact in floating point, so both
    settings find the same neighbours, ties included (training order), and
    give the same predictions.
    """

    _params_unused_on = {"binary_features": ("scale",)}

    def _transform(self, X):
        if not self.scale:
            return X
        return apply_minmax_scale(X, self.feature_min_, self.feature_inv_range_)

    def _index(self, Xs) -> None:
        """Index scaled training features for the Euclidean neighbour search
        (the K path's :class:`KeyedRows` bring their own index)."""
        self.index_ = (Xs.index if isinstance(Xs, KeyedRows | SharedRows)
                       else EuclideanIndex(Xs))

    def _query_neighbours(self, Xs, k: int, *, exclude_self: bool = False):
        """Indices (n_queries, k) of the training neighbours of scaled ``Xs``.

        :meth:`EuclideanIndex.kneighbors`: nearest first, equal distances in
        training order; ``exclude_self`` for the training rows' own
        (leave-one-out) neighbours.
        """
        return self.index_.kneighbors(Xs, int(k), exclude_self=exclude_self)

    def _check_query(self, X):
        """Checked and scaled query features of a fitted estimator."""
        validate_data(self, X, reset=False, skip_check_array=True)
        X = check_features(X)
        check_n_features(X, self)
        return self._transform(X)

    def fit(self, X, Y):
        """Learn the scaling of training ``X``, index it and fit the model.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix, shape (n_samples, n_features)
        Y : array-like, shape (n_samples, n_labels)
            Training labels (targets for the regressor).

        Returns
        -------
        self
        """
        self._validate_params()
        # feature_names_in_ (from a DataFrame) and n_features_in_, as sklearn
        validate_data(self, X, reset=True, skip_check_array=True)
        X = check_features(X)
        Y = self._check_y(Y, X.shape[0])
        self.n_features_in_ = X.shape[1]
        if self.scale:
            self.feature_min_, self.feature_inv_range_ = minmax_scale_factors(X)
        self._fit_scaled(self._transform(X), Y)
        return self

    def predict_path(self, X_train, Y_train, X_test, column_sets):
        """Fit and predict once per feature subset, one neighbour search each.

        Same contract as :meth:`PathMixin.predict_path`, and exactly equal to
        it: the fold is validated once and scaled once (min-max factors are
        per column, so a subset's factors are the full ones restricted to it;
        sparse subsets are scaled per subset, as a fresh fit does); each
        subset then indexes its training columns, does the searches of one
        ``fit`` and a single test search shared by ``predict`` and
        ``predict_proba`` (a per-subset fit does two). For exact features
        (binary words) whose keys fit
        :data:`~mlfsbench.estimators.neighbours.NESTED_KEYS_MIB`, the keys are
        accumulated along the subsets
        (:class:`~mlfsbench.estimators.neighbours.NestedKeys`), the same
        integers as each subset's own product.
        """
        self._validate_params()
        X_train, X_test, sets = self._path_inputs(X_train, X_test, column_sets)
        Y = self._check_y(Y_train, X_train.shape[0])
        fold = self._path_fold(X_train, X_test, keyed=len(sets) > 1)
        nested = NestedKeys(*fold["scaled"]) if fold["keyed"] else None
        return [self._path_point(fold, cols, Y, nested) for cols in sets]

    def predict_granules(self, X_train, Y_train, X_test, granules):
        """:meth:`PathMixin.predict_granules`, equal to it, with shared searches.

        The fold is validated and scaled once for every granule; a feature
        subset that several granules use (the grid point ``all``: every
        column) is searched once, and each granule's model counts its own
        labels over those neighbours
        (:class:`~mlfsbench.estimators.neighbours.SharedIndex`); the other
        subsets go along each granule's path as in :meth:`predict_path`.
        Li 2017's enron fold of 53 granules: ``bench/bench_granules.py``.
        """
        self._validate_params()
        granules = [(labels, self._path_inputs(X_train, X_test, sets)[2])
                    for labels, sets in granules]
        X_train, X_test, _ = self._path_inputs(X_train, X_test, [])
        Y_all = Y_train if sp.issparse(Y_train) else np.asarray(Y_train)
        uses: dict[bytes, int] = {}
        for _, sets in granules:
            for cols in sets:
                key = np.asarray(cols, dtype=np.intp).tobytes()
                uses[key] = uses.get(key, 0) + 1
        fold = self._path_fold(X_train, X_test, keyed=True)
        shared: dict[bytes, tuple] = {}
        out = []
        for labels, sets in granules:
            Y = self._check_y(Y_all if labels is None else Y_all[:, labels],
                              X_train.shape[0])
            keys = [np.asarray(cols, dtype=np.intp).tobytes() for cols in sets]
            n_own = sum(uses[key] == 1 for key in keys)
            nested = (NestedKeys(*fold["scaled"])
                      if n_own > 1 and fold["keyed"] else None)
            path = []
            for key, cols in zip(keys, sets, strict=True):
                rows = None
                if uses[key] > 1:
                    if key not in shared:
                        shared[key] = self._shared_rows(fold, cols)
                    rows = shared[key]
                path.append(self._path_point(fold, cols, Y, nested, rows))
            out.append(path)
        return out

    def _path_fold(self, X_train, X_test, *, keyed: bool) -> dict:
        """The validated fold, scaled once, for :meth:`_path_point`.

        Min-max factors are per column, so a subset's factors are the full
        ones restricted to it (sparse subsets are scaled per subset, as a
        fresh fit does). ``keyed`` (asked for and true): the features are
        exact (binary words) and their keys fit
        :data:`~mlfsbench.estimators.neighbours.NESTED_KEYS_MIB`, so a path
        accumulates them along its subsets
        (:class:`~mlfsbench.estimators.neighbours.NestedKeys` of ``scaled``).
        """
        sparse = sp.issparse(X_train)
        lo = inv = None
        if self.scale:
            lo, inv = minmax_scale_factors(X_train)
        if not sparse:  # elementwise: slicing the scaled fold = scaling a slice
            if self.scale:
                X_train = apply_minmax_scale(X_train, lo, inv)
                X_test = apply_minmax_scale(X_test, lo, inv)
            X_train, X_test = np.asarray(X_train), np.asarray(X_test)
        Str, Ste = X_train, X_test
        if keyed and sparse and self.scale:  # per column: the same as per subset
            Str, Ste = (apply_minmax_scale(X_train, lo, inv),
                        apply_minmax_scale(X_test, lo, inv))
        return {"X_train": X_train, "X_test": X_test, "sparse": sparse,
                "lo": lo, "inv": inv, "scaled": (Str, Ste),
                "keyed": keyed and NestedKeys.fits(Str, Ste)}

    def _shared_rows(self, fold: dict, cols: np.ndarray) -> tuple:
        """Rows of the subset ``cols`` searched once for every granule using
        it (keys of their own: the same neighbours as any path's)."""
        if fold["keyed"]:
            Xtr, Xte = NestedKeys(*fold["scaled"]).rows(cols)
            index = Xtr.index
        else:
            Xtr, Xte = self._subset(fold, cols)
            index = EuclideanIndex(Xtr)
        return SharedIndex(index).rows(Xtr, Xte)

    def _subset(self, fold: dict, cols: np.ndarray) -> tuple:
        """Scaled training and test columns ``cols`` (a fresh fit's features)."""
        Xtr, Xte = fold["X_train"][:, cols], fold["X_test"][:, cols]
        if self.scale and fold["sparse"]:
            Xtr = apply_minmax_scale(Xtr, fold["lo"][cols], fold["inv"][cols])
            Xte = apply_minmax_scale(Xte, fold["lo"][cols], fold["inv"][cols])
        return Xtr, Xte

    def _path_point(self, fold: dict, cols: np.ndarray, Y: np.ndarray,
                    nested: NestedKeys | None, rows: tuple | None = None) -> tuple:
        """``(Y_pred, Y_score)`` of a model fitted on the columns ``cols``."""
        model = clone(self)
        model.n_features_in_ = len(cols)
        if self.scale:
            model.feature_min_ = fold["lo"][cols]
            model.feature_inv_range_ = fold["inv"][cols]
        if rows is not None:
            Xtr, Xte = rows
        elif nested is not None:
            Xtr, Xte = nested.rows(cols)
        else:
            Xtr, Xte = self._subset(fold, cols)
        model._fit_scaled(Xtr, Y)
        return model._predict_scaled(Xte)
