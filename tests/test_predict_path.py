"""``predict_path``: every classifier over a K grid in one call.

The contract: one ``(Y_pred, Y_score)`` pair per column set, equal to a fresh
``clone(clf).fit(X_train[:, cols], Y_train)`` then ``predict`` and
``predict_proba`` of ``X_test[:, cols]``: exactly for the k-NN learners (which
search neighbours once per set), within the solver's tolerance for BR-LR
(warm-started along the path).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone

from mlfsbench.data import load_mulan
from mlfsbench.estimators import registry
from mlfsbench.estimators.classifiers import br_lr
from mlfsbench.estimators.classifiers._base import PathMixin
from mlfsbench.estimators.classifiers.br_lr import BRLogisticRegression
from mlfsbench.estimators.neighbours import EuclideanIndex

KNN = {
    "mlknn": {"k": 7},
    "brknn-a": {"k": 5},
    "brknn-b": {"k": 5},
    "knn-reg": {"k": 4},
}


def _per_k_loop(clf, X_train, Y_train, X_test, sets):
    """Today's classify loop, a fresh ``clone`` fitted per column set: the
    default ``PathMixin.predict_path`` that the classifiers override."""
    return PathMixin.predict_path(clf, X_train, Y_train, X_test, sets)


def _load(shared_datasets, name):
    folder = shared_datasets / "multi-label" / name
    return load_mulan([folder / f"{name}.arff"], folder / f"{name}.xml", name=name)


@pytest.fixture(scope="module")
def yeast_fold(shared_datasets):
    """Yeast, 300 training and 200 test rows, rounded to one decimal (ties)."""
    ds = _load(shared_datasets, "yeast")
    X = np.round(np.asarray(ds.X, dtype=float), 1)
    rng = np.random.RandomState(0)
    rows = rng.permutation(X.shape[0])
    train, test = rows[:300], rows[300:500]
    X_train = np.vstack([X[train], X[train[:20]]])  # duplicated training rows
    Y_train = np.vstack([ds.Y[train], ds.Y[train[:20]]])
    ranking = rng.permutation(X.shape[1])[:25]
    sets = [np.sort(ranking[:k]) for k in range(1, 26)]
    return X_train, Y_train, X[test], sets


@pytest.fixture(scope="module")
def genbase_fold(shared_datasets):
    """Genbase: sparse binary features, so most distances tie."""
    ds = _load(shared_datasets, "genbase")
    X = sp.csr_matrix(ds.X, dtype=float)
    rng = np.random.RandomState(1)
    rows = rng.permutation(X.shape[0])
    train, test = rows[:400], rows[400:]
    ranking = np.argsort(-np.asarray(X[train].sum(axis=0)).ravel(), kind="stable")
    sets = [np.sort(ranking[:k]) for k in (1, 2, 3, 5, 8, 13, 21, 34)]
    return X[train], ds.Y[train], X[test], sets


def _has_distance_ties(X_train, X_query, cols, k):
    """Some query has its k-th and (k+1)-th nearest at the same distance."""
    Xtr = X_train[:, cols].toarray() if sp.issparse(X_train) else X_train[:, cols]
    Xq = X_query[:, cols].toarray() if sp.issparse(X_query) else X_query[:, cols]
    d = np.sort(((Xq[:, None, :] - Xtr[None, :, :]) ** 2).sum(axis=2), axis=1)
    return bool((d[:, k - 1] == d[:, k]).any())


@pytest.mark.parametrize("name", sorted(KNN))
@pytest.mark.parametrize("fold", ["yeast_fold", "genbase_fold"])
def test_knn_path_equals_per_k_loop_exactly(name, fold, request):
    X_train, Y_train, X_test, sets = request.getfixturevalue(fold)
    if name == "knn-reg":
        Y_train = Y_train * np.linspace(0.5, 3.0, Y_train.shape[1])  # real targets
    clf = registry.create("classifier", name, KNN[name], random_state=3)
    assert _has_distance_ties(X_train, X_test, sets[3], clf.k)
    expected = _per_k_loop(clf, X_train, Y_train, X_test, sets)
    got = clf.predict_path(X_train, Y_train, X_test, sets)
    assert len(got) == len(sets)
    for (pred, score), (ref_pred, ref_score) in zip(got, expected, strict=True):
        assert_array_equal(pred, ref_pred)
        assert_array_equal(score, ref_score)
    assert not hasattr(clf, "index_")  # the path leaves the estimator unfitted


def _granules(n_labels, sets):
    """Three granules: two share the last and a middle set (as the grid point
    ``all`` is shared by Li 2017's granules), one with two own sets (a path of
    accumulated keys on exact features), one with a single own set."""
    return [(np.array([0, 2]), [sets[0], sets[3], sets[4], sets[-1]]),
            (np.array([1]), [sets[1], sets[4], sets[-1]]),
            (np.arange(3, n_labels), [sets[2]])]


@pytest.mark.parametrize("name", sorted(KNN))
@pytest.mark.parametrize("fold", ["yeast_fold", "genbase_fold"])
@pytest.mark.parametrize("scale", [True, False])
def test_knn_granules_equal_fresh_fits_per_granule(name, fold, scale, request):
    """Shared searches (``predict_granules``) give, bit for bit, each
    granule's fresh fits on its own labels (the loop of the per-K default)."""
    X_train, Y_train, X_test, sets = request.getfixturevalue(fold)
    if name == "knn-reg":
        Y_train = Y_train * np.linspace(0.5, 3.0, Y_train.shape[1])  # real targets
    clf = registry.create("classifier", name, {**KNN[name], "scale": scale},
                          random_state=3)
    granules = _granules(Y_train.shape[1], sets)
    got = clf.predict_granules(X_train, Y_train, X_test, granules)
    assert len(got) == len(granules)
    for (labels, g_sets), path in zip(granules, got, strict=True):
        expected = _per_k_loop(clf, X_train, Y_train[:, labels], X_test, g_sets)
        assert len(path) == len(g_sets)
        for (pred, score), (ref_pred, ref_score) in zip(path, expected,
                                                        strict=True):
            assert pred.shape == (X_test.shape[0], len(labels))
            assert_array_equal(pred, ref_pred)
            assert_array_equal(score, ref_score)
    # the default (one predict_path per granule) is the same too
    default = PathMixin.predict_granules(clf, X_train, Y_train, X_test, granules)
    for path, ref in zip(got, default, strict=True):
        for (pred, score), (ref_pred, ref_score) in zip(path, ref, strict=True):
            assert_array_equal(pred, ref_pred)
            assert_array_equal(score, ref_score)


def test_granules_search_a_shared_set_once(yeast_fold, monkeypatch):
    X_train, Y_train, X_test, sets = yeast_fold
    calls = _count_calls(monkeypatch, EuclideanIndex)
    clf = registry.create("classifier", "mlknn", {"k": 7}, random_state=3)
    clf.predict_granules(X_train, Y_train, X_test, _granules(Y_train.shape[1], sets))
    # 6 distinct sets (0, 1, 2, 3 own; 4 and the last shared): a training and
    # a test search each, where the per-granule loop makes 8 x 2
    assert len(calls) == 12


def test_mlknn_path_with_a_generator_seed(yeast_fold):
    """A RandomState seed: each set's coin starts from the seed's state, as a
    fresh clone's does (clone copies the generator)."""
    X_train, Y_train, X_test, sets = yeast_fold
    clf = registry.create("classifier", "mlknn", {"k": 7},
                          random_state=np.random.RandomState(5))
    expected = _per_k_loop(clf, X_train, Y_train, X_test, sets[:6])
    got = clf.predict_path(X_train, Y_train, X_test, sets[:6])
    for (pred, _), (ref_pred, _) in zip(got, expected, strict=True):
        assert_array_equal(pred, ref_pred)


def _count_calls(monkeypatch, cls) -> list:
    """A list that grows by one at each ``cls.kneighbors`` call."""
    calls = []
    original = cls.kneighbors

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, "kneighbors", counted)
    return calls


@pytest.fixture
def count_searches(monkeypatch):
    """Count EuclideanIndex.kneighbors calls."""
    return _count_calls(monkeypatch, EuclideanIndex)


@pytest.mark.parametrize(("name", "per_fit", "per_set"),
                         [("mlknn", 3, 2), ("brknn-a", 2, 1), ("brknn-b", 2, 1),
                          ("knn-reg", 2, 1)])
def test_one_test_search_per_set(yeast_fold, count_searches, name, per_fit, per_set):
    """ML-kNN's per-K fit searched the training part, then predict and
    predict_proba each searched the test part again; the path searches the
    test part once."""
    X_train, Y_train, X_test, sets = yeast_fold
    clf = registry.create("classifier", name, KNN[name], random_state=0)
    _per_k_loop(clf, X_train, Y_train, X_test, sets)
    assert len(count_searches) == per_fit * len(sets)
    count_searches.clear()
    clf.predict_path(X_train, Y_train, X_test, sets)
    assert len(count_searches) == per_set * len(sets)


@pytest.mark.parametrize(("penalty", "C"), [("l2", 1.0), ("none", 1.0)])
def test_br_lr_path_equals_per_k_loop_within_tolerance(yeast_fold, penalty, C):
    X_train, Y_train, X_test, sets = yeast_fold
    if penalty == "none":  # rare labels are separable: no finite optimum
        Y_train = Y_train[:, Y_train.sum(axis=0) >= 30]
    clf = BRLogisticRegression(penalty=penalty, C=C, tol=1e-7)
    expected = _per_k_loop(clf, X_train, Y_train, X_test, sets[::4])
    got = clf.predict_path(X_train, Y_train, X_test, sets[::4])
    for (pred, score), (ref_pred, ref_score) in zip(got, expected, strict=True):
        assert_allclose(score, ref_score, atol=2e-3)
        clear = np.abs(ref_score - 0.5) > 2e-3
        assert_array_equal(pred[clear], ref_pred[clear])


def test_br_lr_path_warm_starts(yeast_fold, monkeypatch):
    """Each K after the first starts from the previous K's weights, which
    saves solver iterations (a fifth here; half on the 50/50 yeast fold of
    bench/bench_grid.py at K = 1..50)."""
    X_train, Y_train, X_test, sets = yeast_fold
    clf = BRLogisticRegression(penalty="l2")
    cold = [int(clone(clf).fit(X_train[:, cols], Y_train).n_iter_.sum())
            for cols in sets[:12]]
    starts, warm = [], []
    solve = br_lr.fit_logistic_batch

    def recorded(X, Y, W0=None, **kwargs):
        starts.append(W0 is not None)
        W, n_iter = solve(X, Y, W0, **kwargs)
        warm.append(int(n_iter.sum()))
        return W, n_iter

    monkeypatch.setattr(br_lr, "fit_logistic_batch", recorded)
    clf.predict_path(X_train, Y_train, X_test, sets[:12])
    assert starts == [False] + [True] * 11
    assert warm[0] == cold[0]
    assert sum(warm[1:]) < 0.9 * sum(cold[1:])


def test_br_lr_other_solvers_use_the_per_k_loop(yeast_fold):
    X_train, Y_train, X_test, sets = yeast_fold
    clf = BRLogisticRegression(solver="newton-cholesky")
    expected = _per_k_loop(clf, X_train, Y_train, X_test, sets[:3])
    got = clf.predict_path(X_train, Y_train, X_test, sets[:3])
    for (pred, score), (ref_pred, ref_score) in zip(got, expected, strict=True):
        assert_array_equal(pred, ref_pred)
        assert_array_equal(score, ref_score)


@pytest.mark.parametrize("name", [*sorted(KNN), "br-lr"])
def test_path_validates_its_inputs(name):
    rng = np.random.RandomState(0)
    X = rng.normal(size=(30, 4))
    Y = (rng.uniform(size=(30, 3)) < 0.5).astype(int)
    clf = registry.create("classifier", name, KNN.get(name, {"k": 3}) if name
                          != "br-lr" else {}, random_state=0)
    sets = [np.array([0]), np.array([0, 2])]
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        clf.predict_path(bad, Y, X, sets)
    with pytest.raises(ValueError, match="NaN"):
        clf.predict_path(X, Y, bad, sets)
    with pytest.raises(ValueError, match="features"):
        clf.predict_path(X, Y, X[:, :3], sets)
    with pytest.raises(ValueError, match="out of range"):
        clf.predict_path(X, Y, X, [np.array([4])])
    with pytest.raises(ValueError, match="column_sets"):
        clf.predict_path(X, Y, X, [np.array([], dtype=int)])
    # lists are accepted and give the same numbers as arrays
    as_lists = clf.predict_path(X.tolist(), Y.tolist(), X.tolist(), sets)
    as_arrays = clf.predict_path(X, Y, X, sets)
    for (a, b), (c, d) in zip(as_lists, as_arrays, strict=True):
        assert_array_equal(a, c)
        assert_array_equal(b, d)
    if name != "knn-reg":
        with pytest.raises(ValueError, match="2-D"):
            clf.predict_path(X, Y[:, 0], X, sets)


@pytest.fixture
def keyed_searches(monkeypatch):
    """Count KeyedIndex.kneighbors calls (searches on accumulated keys)."""
    from mlfsbench.estimators.neighbours import KeyedIndex

    return _count_calls(monkeypatch, KeyedIndex)


@pytest.mark.parametrize("form", ["sparse", "dense"])
@pytest.mark.parametrize("order", ["nested", "shuffled"])
@pytest.mark.parametrize("single", [True, False])
def test_accumulated_keys_equal_per_k_loop(genbase_fold, keyed_searches, form,
                                           order, single, monkeypatch):
    """Binary features: the path accumulates the keys along the subsets
    (sparse updates for rare columns, one BLAS update otherwise, a restart
    when a subset does not contain the previous one), in single or double
    precision, and still equals the per-K loop exactly, ties included."""
    from mlfsbench.estimators.neighbours import index as neighbours

    monkeypatch.setattr(neighbours, "SINGLE_KEYS", single)
    keys = neighbours.NestedKeys(genbase_fold[0], genbase_fold[2])
    assert keys._train_keys.dtype == (np.float32 if single else np.float64)
    X_train, Y_train, X_test, sets = genbase_fold
    if form == "dense":
        X_train, X_test = X_train.toarray(), X_test.toarray()
    if order == "shuffled":  # 34, 1, 21, 2, ...: some are not supersets
        sets = [sets[i] for i in (7, 0, 6, 1, 5, 2, 4, 3)]
    clf = registry.create("classifier", "mlknn", KNN["mlknn"], random_state=3)
    expected = _per_k_loop(clf, X_train, Y_train, X_test, sets)
    keyed_searches.clear()
    got = clf.predict_path(X_train, Y_train, X_test, sets)
    assert len(keyed_searches) == 2 * len(sets)  # training (LOO) and test
    for (pred, score), (ref_pred, ref_score) in zip(got, expected, strict=True):
        assert_array_equal(pred, ref_pred)
        assert_array_equal(score, ref_score)


@pytest.mark.parametrize("ready", [False, True])
@pytest.mark.parametrize("update", ["sparse", "dense"])
def test_single_precision_keys_update(genbase_fold, monkeypatch, ready, update):
    """Binary columns, rare (the sparse update) or not (one BLAS product),
    into float32 keys: the integers of the dense product, exactly; ready
    keys are the finished ``n (|t|^2 - 2 q.t) + t``, and a second subset
    adds to the first."""
    from mlfsbench.estimators.neighbours import index as neighbours

    monkeypatch.setattr(neighbours, "READY_KEYS", ready)
    X_train, _, X_test, _ = genbase_fold
    counts = np.diff(X_train.tocsc().indptr)
    if update == "sparse":
        first = np.flatnonzero((counts > 0) & (counts <= 3))[:5]
    else:
        first = np.argsort(-counts, kind="stable")[:5]
    keys = neighbours.NestedKeys(X_train, X_test)
    assert keys._single and keys._ready == ready and first.size == 5
    assert (64 * keys._pairs(first) < keys._train_keys.size) == (update == "sparse")
    n = X_train.shape[0]
    for cols in (first, np.union1d(first, np.argsort(-counts)[5:8])):
        train, test = keys.rows(cols)
        T, Q = X_train[:, cols].toarray(), X_test[:, cols].toarray()
        assert train.keys.dtype == np.float32
        sq = (T * T).sum(axis=1)
        want_train, want_test = -2.0 * T @ T.T, -2.0 * Q @ T.T
        if ready:
            want_train = n * (want_train + sq) + np.arange(n)
            want_test = n * (want_test + sq) + np.arange(n)
        assert_array_equal(train.keys, want_train)
        assert_array_equal(test.keys, want_test)
        assert_array_equal(train.index.sq_norms, sq)


def test_keys_are_accumulated_only_for_exact_features(yeast_fold, genbase_fold,
                                                      keyed_searches, monkeypatch):
    from mlfsbench.estimators.neighbours import index as neighbours

    clf = registry.create("classifier", "brknn-a", KNN["brknn-a"])
    clf.predict_path(*yeast_fold[:3], yeast_fold[3][:3])  # tenths, scaled
    assert keyed_searches == []
    monkeypatch.setattr(neighbours, "NESTED_KEYS_MIB", 0)  # a fold too large
    clf.predict_path(*genbase_fold[:3], genbase_fold[3][:3])
    assert keyed_searches == []
    monkeypatch.setattr(neighbours, "NESTED_KEYS_MIB", 256)
    clf.predict_path(*genbase_fold[:3], genbase_fold[3][:3])
    assert len(keyed_searches) == 3


def test_exact_values():
    from mlfsbench.estimators.neighbours import exact_values

    assert exact_values(np.array([[0.0, 3.0], [-2.0, 1024.0]]))
    assert not exact_values(np.array([[0.0, 1025.0]]))
    assert not exact_values(np.array([[0.1, 1.0]]))
    assert exact_values(sp.csr_matrix((2, 3)))
    assert not exact_values(sp.csr_matrix(np.array([[0.0, 2.5]])))


@pytest.mark.parametrize("bound", [10.0, np.inf])
def test_keyed_index_orders_by_key_then_column(bound):
    """Integer keys crowded with ties: the (key * n + column) search and the
    plain one (a bound too large for it) both return the stable-sort order
    of the keys, own row excluded in the leave-one-out search."""
    from mlfsbench.estimators.neighbours import KeyedIndex, KeyedRows

    rng = np.random.default_rng(5)
    n, m = 300, 40
    sq = rng.integers(0, 3, n).astype(float)
    index = KeyedIndex(sq, 4, bound=bound)
    assert index._scale == (n if bound < 100 else 1.0)
    train = KeyedRows(rng.integers(-2, 1, (n, n)).astype(float) * 2, index)
    test = KeyedRows(rng.integers(-2, 1, (m, n)).astype(float) * 2, index)
    ref = test.keys + sq
    assert_array_equal(index.kneighbors(test, 7),
                       np.argsort(ref, axis=1, kind="stable")[:, :7])
    loo = train.keys + sq
    np.fill_diagonal(loo, np.inf)
    assert_array_equal(index.kneighbors(train, 5, exclude_self=True),
                       np.argsort(loo, axis=1, kind="stable")[:, :5])


def test_ready_keys_are_searched_in_place_and_left_as_found(genbase_fold, monkeypatch):
    """Ready keys give the neighbours of the keys made per search, and a
    leave-one-out search (which marks each row's own entry) leaves them as it
    found them."""
    from mlfsbench.estimators.neighbours import index as neighbours

    X_train, _, X_test, _ = genbase_fold
    cols = np.argsort(-np.diff(X_train.tocsc().indptr), kind="stable")[:12]
    found = {}
    for ready in (False, True):
        monkeypatch.setattr(neighbours, "READY_KEYS", ready)
        train, test = neighbours.NestedKeys(X_train, X_test).rows(cols)
        before = train.keys.copy()
        loo = train.index.kneighbors(train, 5, exclude_self=True)
        assert_array_equal(train.keys, before)
        assert not (loo == np.arange(len(loo))[:, None]).any()
        found[ready] = loo, test.index.kneighbors(test, 5)
    for a, b in zip(found[False], found[True], strict=True):
        assert_array_equal(a, b)


def test_br_lr_glmfit_path_is_cold_per_k(yeast_fold):
    # glmfit's result is the iterate where a label stops, or the 101st on a
    # separable label: a warm start would stop elsewhere (another iterate
    # within TolX) or end at another 101st iterate, so every K is a fresh
    # fit from glmfit's start, bit for bit the per-K loop (and the fits of
    # a small K stop before glmfit's limit, the largest ones some at it)
    X_train, Y_train, X_test, sets = yeast_fold
    clf = BRLogisticRegression(solver="irls-glmfit")
    picked = [sets[0], sets[4], sets[24]]
    expected = _per_k_loop(clf, X_train, Y_train, X_test, picked)
    got = clf.predict_path(X_train, Y_train, X_test, picked)
    for (pred, score), (ref_pred, ref_score) in zip(got, expected, strict=True):
        assert_array_equal(pred, ref_pred)
        assert_array_equal(score, ref_score)
    iters = [BRLogisticRegression(solver="irls-glmfit").fit(X_train[:, cols], Y_train)
             .n_iter_ for cols in picked]
    assert iters[0].max() < 20 and iters[2].max() == 101
