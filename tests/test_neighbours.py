"""The neighbour search: ``smallest_k`` and ``EuclideanIndex``, and its one room.

The rule: the ``k`` nearest training rows, nearest first, equal distances in
training order. Checked against a stable full sort (the definition), against
scikit-learn's search where no distances tie (an independent
implementation), and for its invariances (block size, sparse or dense
storage of the same values, excluded self). No estimator module but
``estimators/neighbours/`` searches for neighbours (an AST check).
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal
from sklearn.neighbors import NearestNeighbors

from mlfsbench.estimators import neighbours
from mlfsbench.estimators.neighbours import EuclideanIndex, _select, index, smallest_k


def _reference(D, k):
    return np.argsort(D, axis=1, kind="stable")[:, :k]


@pytest.fixture(params=["compiled", "numpy"])
def selection(request, monkeypatch):
    """Both selections of :func:`smallest_k`: the compiled one-pass one and
    the NumPy one by group minima."""
    monkeypatch.setattr(_select, "COMPILED_SEARCH", request.param == "compiled")
    return request.param


@pytest.mark.parametrize("kind", ["continuous", "binary-ties", "few-values",
                                  "constant-rows", "float32", "signed-zeros",
                                  "inf-excluded"])
@pytest.mark.parametrize("k", [1, 3, 7, 40])
@pytest.mark.parametrize("shape", [(300, 1500), (40, 1237), (20, 45)])
def test_smallest_k_is_the_stable_sort_prefix(kind, k, shape, selection):
    rng = np.random.default_rng(k)
    D = {
        "continuous": lambda: rng.random(shape),
        "binary-ties": lambda: rng.binomial(1, 0.02, shape).astype(float),
        "few-values": lambda: rng.integers(0, 4, shape).astype(float),
        "constant-rows": lambda: np.full(shape, 2.5),
        "float32": lambda: rng.integers(-50, 50, shape).astype(np.float32),
        # -0.0 and 0.0 are equal distances: column order decides
        "signed-zeros": lambda: rng.choice([-0.0, 0.0, 1.0], shape),
        # rows whose entries are mostly excluded (+inf): they come last, in
        # column order, when fewer than k are finite
        "inf-excluded": lambda: np.where(rng.random(shape) < 0.995, np.inf,
                                         rng.random(shape)),
    }[kind]()
    assert_array_equal(smallest_k(D, k), _reference(D, k))


def test_the_two_selections_agree_on_search_keys():
    """The compiled selection and the NumPy one give the same columns on the
    integer keys of a binary K path (float32, every value distinct), and on
    keys with many equal values."""
    rng = np.random.default_rng(3)
    X = rng.binomial(1, 0.1, (600, 40)).astype(np.float32)
    n = X.shape[0]
    distinct = n * ((X * X).sum(axis=1) - 2.0 * X @ X.T) + np.arange(n)
    tied = (X * X).sum(axis=1) - 2.0 * X @ X.T
    for D in (distinct.astype(np.float32), tied):
        for k in (1, 10, 50):
            compiled = smallest_k(D, k)
            assert_array_equal(compiled, _select._smallest_k_numpy(D, k))
            assert_array_equal(compiled, _reference(D, k))


def test_smallest_k_by_hand(selection):
    D = np.array([[3.0, 1.0, 1.0, 0.0, 1.0],
                  [2.0, 2.0, 2.0, 2.0, 2.0],
                  [np.inf, 5.0, 4.0, 4.0, 0.5]])
    # equal values: the lower column first; inf (an excluded entry) last
    assert smallest_k(D, 3).tolist() == [[3, 1, 2], [0, 1, 2], [4, 2, 3]]
    assert smallest_k(D, 5).tolist()[2] == [4, 2, 3, 1, 0]
    assert smallest_k(D, 9).shape == (3, 5)


def test_smallest_k_with_skewed_groups_and_strided_input(selection):
    """Group minima all near while most entries are far, and a
    non-contiguous input: the result is still the stable-sort prefix."""
    rng = np.random.default_rng(0)
    D = rng.random((50, 4000))
    D[:, :1000] -= 10.0  # one column of every group is near, the rest far
    assert_array_equal(smallest_k(D, 5), _reference(D, 5))
    D = np.ascontiguousarray(rng.random((4000, 60)).T)  # a Fortran-order input
    assert_array_equal(smallest_k(D[:, ::3], 5), _reference(D[:, ::3], 5))


def test_index_matches_scikit_learn_without_ties():
    rng = np.random.default_rng(1)
    X, Q = rng.random((400, 12)), rng.random((150, 12))
    ours = EuclideanIndex(X).kneighbors(Q, 6)
    theirs = NearestNeighbors(n_neighbors=6).fit(X).kneighbors(
        Q, return_distance=False)
    assert_array_equal(ours, theirs)


def test_equidistant_neighbours_in_training_order():
    X = np.array([[1.0], [-1.0], [2.0], [1.0], [-1.0]])
    index = EuclideanIndex(X)
    # from 0: rows 0, 1, 3, 4 are at distance 1; row 2 at distance 2
    assert index.kneighbors(np.array([[0.0]]), 3).tolist() == [[0, 1, 3]]
    assert index.kneighbors(np.array([[0.0]]), 5).tolist() == [[0, 1, 3, 4, 2]]


def test_exclude_self_with_duplicates():
    X = np.array([[0.0], [0.0], [0.0], [5.0]])
    index = EuclideanIndex(X)
    nb = index.kneighbors(X, 2, exclude_self=True)
    assert nb.tolist() == [[1, 2], [0, 2], [0, 1], [0, 1]]
    with pytest.raises(ValueError, match="exclude_self needs the 4 training rows"):
        index.kneighbors(X[:2], 1, exclude_self=True)


@pytest.mark.parametrize("exclude_self", [False, True])
def test_sparse_and_dense_storage_agree_on_binary_data(exclude_self):
    """Binary features: every distance is an exact small integer in both
    products, so the neighbours (ties included) are the same."""
    rng = np.random.default_rng(2)
    X = (rng.random((500, 30)) < 0.05).astype(float)
    Q = X if exclude_self else (rng.random((200, 30)) < 0.05).astype(float)
    dense = EuclideanIndex(X).kneighbors(Q, 7, exclude_self=exclude_self)
    sparse = EuclideanIndex(sp.csr_matrix(X)).kneighbors(
        sp.csr_matrix(Q), 7, exclude_self=exclude_self)
    assert_array_equal(dense, sparse)
    D = ((Q[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    if exclude_self:
        D[np.arange(len(X)), np.arange(len(X))] = np.inf
    assert_array_equal(dense, _reference(D, 7))


def test_blocks_do_not_change_the_neighbours_of_exact_data(monkeypatch):
    """Small integers: every product is exact whatever the BLAS kernel, so
    the blocks cannot change a distance (with real values a different block
    size may change the last bits of a product: see EuclideanIndex)."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, (800, 5)).astype(float)  # many ties
    whole = EuclideanIndex(X).kneighbors(X, 5, exclude_self=True)
    monkeypatch.setattr(index, "SEARCH_MEMORY_MIB", 0)  # one query row a block
    assert_array_equal(EuclideanIndex(X).kneighbors(X, 5, exclude_self=True), whole)


# ------------------------------------------------- one room for the searches
#: What finds neighbours: partial sorts of distances, trees, distance matrices.
SEARCH_NAMES = {"argpartition", "partition", "cKDTree", "KDTree", "BallTree",
                "NearestNeighbors", "cdist", "pdist"}
ROOM = Path(neighbours.__file__).resolve().parent  # the package
ESTIMATORS = ROOM.parent


def neighbour_searches(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` of every use or import of a :data:`SEARCH_NAMES` name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in SEARCH_NAMES:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and node.id in SEARCH_NAMES:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, a.name) for a in node.names
                      if a.name in SEARCH_NAMES]
    return found


def test_the_checker_finds_a_search_outside_the_module():
    source = ("import numpy as np\nfrom scipy.spatial import cKDTree\n"
              "def f(D, k):\n    return np.argpartition(D, k, axis=1)\n")
    assert neighbour_searches(source) == [(2, "cKDTree"), (4, "argpartition")]
    assert neighbour_searches("import numpy as np\nnp.argsort([1, 0])\n") == []


def test_only_the_neighbour_module_searches_for_neighbours():
    """A change to how neighbours are found has one room: no estimator module
    outside the package :mod:`mlfsbench.estimators.neighbours` partitions
    distances, builds a tree or a distance matrix."""
    outside = {}
    for path in sorted(ESTIMATORS.rglob("*.py")):
        if ROOM in path.parents:
            continue
        hits = neighbour_searches(path.read_text(encoding="utf-8"))
        if hits:
            outside[path.relative_to(ESTIMATORS).as_posix()] = hits
    assert outside == {}
    assert any(neighbour_searches(path.read_text(encoding="utf-8"))
               for path in ROOM.glob("*.py"))  # the package itself does search


@pytest.mark.parametrize("exclude_self", [False, True])
@pytest.mark.parametrize("k", [1, 10, 300])
def test_index_adds_the_norms_as_the_keys_are_read(selection, exclude_self, k):
    """The search adds ``|t|^2`` to ``-2 q.t`` while selecting: the
    neighbours of the keys summed first (``keys += |t|^2``, the same float
    additions), near-ties in the last bits included, for both selections
    and for a ``k`` of every row."""
    rng = np.random.default_rng(11)
    X = rng.random((300, 7))
    X[150:] = X[:150] + 1e-13 * rng.standard_normal((150, 7))  # near-ties
    Q = X if exclude_self else rng.random((90, 7))
    index = EuclideanIndex(X)
    keys = Q @ index._minus_2t
    keys += index.sq_norms
    if exclude_self:
        keys[np.arange(len(X)), np.arange(len(X))] = np.inf
    got = index.kneighbors(Q, k, exclude_self=exclude_self)
    assert_array_equal(got, _reference(keys, k))


def test_the_selection_compiles_without_a_writable_cache(monkeypatch):
    """Where Numba finds no place to cache (a read-only install without a
    writable home), the kernel is compiled for the process instead of
    failing, and selects as before."""
    caching = pytest.importorskip("numba.core.caching")
    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])
    monkeypatch.delenv("NUMBA_CACHE_LOCATOR_CLASSES", raising=False)
    monkeypatch.setattr(_select, "_KERNEL", [])
    monkeypatch.setattr(_select, "COMPILED_SEARCH", True)
    D = np.random.default_rng(5).integers(0, 6, (30, 200)).astype(float)
    assert_array_equal(smallest_k(D, 4), _reference(D, 4))
    assert type(_select._KERNEL[0]._cache).__name__ == "NullCache"
