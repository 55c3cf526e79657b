"""Group-JMI-Rand's faster paths (issue #30) give the baseline's numbers, bit for bit.

The baseline is Group-JMI-Rand as of commit 962426a, before the speed-up
(``selectors/jmi.py`` with that commit's label quantization and information
measures), the reference of ``bench/bench_label_groups.py``. Its outputs on
these tests' inputs are stored in ``tests/data/group_jmi_references.npz``
(the tests need no git history); ``bench/make_group_jmi_references.py``
makes them again from that commit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.data import load_mulan
from mlfsbench.estimators.discretizers.unsupervised import make_discretizer
from mlfsbench.estimators.information.entropy import (
    CodeIndicators,
    FixedTargets,
    conditional_mutual_information_matrix,
)
from mlfsbench.estimators.selectors.jmi import GroupJMIRand, jmi_forward
from mlfsbench.estimators.transformations.label_groups import (
    LabelGroups,
    _distinct_packed,
    _hamming_packed,
    _hamming_square,
    _packed_rows,
    distinct_rows,
    k_medoids,
    target_distances,
)

REFERENCES = Path(__file__).resolve().parent / "data" / "group_jmi_references.npz"
K_MEDOIDS_SEEDS = range(4)
K_MEDOIDS_KS = [1, 2, 5, 16]
LABEL_GROUP_CASES = [(70, (0.25, 0.75)), (40, 0.1), (300, 0.95)]
CRITERIA = ["paper", "released-code"]


@pytest.fixture(scope="module")
def baseline():
    """The baseline's outputs, by name (see the module docstring)."""
    with np.load(REFERENCES, allow_pickle=False) as stored:
        return dict(stored)


def pack_medoids(medoids) -> dict:
    """A list of medoid matrices as two arrays (for the references file)."""
    return {"medoids": np.concatenate([m.ravel() for m in medoids]),
            "medoid_shapes": np.array([m.shape for m in medoids])}


def stored_medoids(baseline, key: str) -> list:
    flat, shapes = baseline[f"{key}/medoids"], baseline[f"{key}/medoid_shapes"]
    ends = np.cumsum([r * c for r, c in shapes])
    return [part.reshape(shape) for part, shape in
            zip(np.split(flat, ends[:-1]), shapes, strict=True)]


def cal500_like(n=240, p=30, q=70, seed=0):
    """Many correlated labels with repeated labelsets (tied distances and
    counts > 1) and 5-bin feature codes driven by the same latent factors."""
    rng = np.random.default_rng(seed)
    latent = rng.random((n // 2, 3))
    latent = np.vstack([latent, latent[rng.integers(0, n // 2, n - n // 2)]])
    loads = rng.random((3, q))
    Y = (rng.random((n, q)) < (latent @ loads) / 3).astype(np.uint8)
    Y[n - 20:] = Y[:20]  # exact duplicates
    X = np.floor(5 * np.clip(latent @ rng.random((3, p)) / 3
                             + 0.3 * rng.random((n, p)), 0, 0.999)).astype(np.int64)
    return X, Y


def k_medoids_input(seed):
    """The distinct labelsets of few columns (many tied distances), counts."""
    _, Y = cal500_like(seed=seed)
    return distinct_rows(Y[:, :12 + 20 * seed])[:2]


def emotions(shared_datasets):
    folder = shared_datasets / "multi-label" / "emotions"
    ds = load_mulan(folder / "emotions.arff", folder / "emotions.xml")
    X = make_discretizer("equal-width", 5).fit_transform(np.asarray(ds.X, float))
    return X, ds.Y


@pytest.mark.parametrize("d", [1, 7, 62, 63, 64, 65, 130, 300])
def test_packed_rows_give_distinct_rows_and_hamming_distances(d):
    rng = np.random.default_rng(d)
    Z = (rng.random((150, d)) < 0.3).astype(np.uint8)
    Z[100:] = Z[:50]
    words = _packed_rows(Z)
    first, counts, inverse = _distinct_packed(words)
    rows, counts_ref, inverse_ref, _ = distinct_rows(Z)
    np.testing.assert_array_equal(Z[first], rows)
    np.testing.assert_array_equal(counts, counts_ref)
    np.testing.assert_array_equal(inverse, inverse_ref)
    D = _hamming_packed(words[first], words[first])
    assert np.array_equal(D.astype(float), target_distances(rows, rows))
    assert D.max() <= d and D.dtype.kind in "iu"
    E = _hamming_square(rows)
    assert np.array_equal(E, D) and E.dtype.kind in "iu"


@pytest.mark.parametrize("seed", K_MEDOIDS_SEEDS)
@pytest.mark.parametrize("k", K_MEDOIDS_KS)
def test_k_medoids_equal_to_baseline_with_ties(baseline, seed, k):
    distinct, counts = k_medoids_input(seed)
    assert np.array_equal(distinct, baseline[f"k_medoids/{seed}/rows"])
    assert np.array_equal(counts, baseline[f"k_medoids/{seed}/counts"])
    D = target_distances(distinct, distinct)
    key = f"k_medoids/{seed}/{k}"
    expected = baseline[f"{key}/weighted"].tolist()
    for D_in in (D, D.astype(np.uint8), D.astype(np.int64)):
        got = k_medoids(D_in, k, counts, random_state=seed)
        assert got.tolist() == expected
    # unit weights, and double precision sums (counts too large for single)
    assert (k_medoids(D.astype(np.uint8), k, random_state=seed).tolist()
            == baseline[f"{key}/unit"].tolist())
    big = counts * 100_000
    assert (k_medoids(D.astype(np.uint8), k, big, random_state=seed).tolist()
            == baseline[f"{key}/big"].tolist())


def label_groups_input(q, pot):
    # q=300, pot=0.95: distances of 255 and more (no byte path)
    _, Y = cal500_like(n=120 if q == 300 else 240, q=q, seed=q)
    return Y, dict(pot=pot, noc=(2, 16), m=12, random_state=3)


@pytest.mark.parametrize("q, pot", LABEL_GROUP_CASES)
def test_label_groups_equal_to_baseline(baseline, q, pot):
    Y, params = label_groups_input(q, pot)
    ours = LabelGroups(**params).fit(Y)
    key = f"label_groups/{q}"
    ref = stored_medoids(baseline, key)
    assert len(ours.medoids_) == len(ref) == 12
    for a, b in zip(ours.medoids_, ref, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    np.testing.assert_array_equal(ours.transform(Y), baseline[f"{key}/codes"])
    np.testing.assert_array_equal(ours.transform(Y[::3]),
                                  baseline[f"{key}/codes_every_third"])


def test_fixed_targets_give_the_general_paths_numbers():
    rng = np.random.default_rng(5)
    X, _ = cal500_like(seed=5)
    X[:, 2] += 1  # a feature never 0: empty x = 0 cells only
    T = rng.integers(0, 9, (X.shape[0], 6))
    T[:, 1] *= 2  # codes with gaps
    T[:, 2] = 0  # a constant target
    T[:, 3] = rng.integers(0, 2, X.shape[0])
    for Xd in (X, sp.csr_matrix(X * (rng.random(X.shape) < 0.2))):  # dense, sparse
        XI, FT = CodeIndicators(Xd), FixedTargets(T)
        dense = np.asarray(Xd.todense()) if sp.issparse(Xd) else Xd
        for z in (dense[:, 0], dense[:, 7] * 3, np.zeros(X.shape[0], int),
                  rng.integers(0, 4, X.shape[0])):
            expected = conditional_mutual_information_matrix(XI, T, z)
            got = conditional_mutual_information_matrix(XI, FT, z)
            assert np.array_equal(got, expected)
            assert expected.shape == (X.shape[1], 6) and expected.max() > 0.01
    # dense target indicators past 2**26 entries: the general path
    wide = T.copy()
    wide[0, 4] = 2**26 // X.shape[0] + 1
    z = X[:, 1]
    assert np.array_equal(
        conditional_mutual_information_matrix(X, FixedTargets(wide), z),
        conditional_mutual_information_matrix(X, wide, z))
    with pytest.raises(ValueError, match="samples"):
        conditional_mutual_information_matrix(X, FixedTargets(T[:5]), X[:, 0])


JMI_GROUPS = dict(pot=(0.25, 0.75), noc=(4, 16), random_state=0)


@pytest.mark.parametrize("normalize", [False, True])
def test_jmi_forward_equal_to_baseline(baseline, normalize):
    X, Y = cal500_like(seed=2)
    T = LabelGroups(**JMI_GROUPS).fit_transform(Y)
    assert np.array_equal(T, baseline["jmi_forward/groups"])  # the same input
    # quantized groups; every label (Single-JMI)
    for name, targets in (("groups", T), ("labels", Y)):
        ours = jmi_forward(X, targets, 20, normalize=normalize)
        key = f"jmi_forward/{name}/{normalize}"
        assert ours[0] == baseline[f"{key}/selected"].tolist()
        assert len(set(ours[0])) == 20
        assert np.array_equal(ours[1], baseline[f"{key}/step_scores"])
        assert np.array_equal(ours[2], baseline[f"{key}/relevance"])


def fit_outputs(sel) -> dict:
    """What the tests compare of a fitted Group-JMI-Rand (and store)."""
    return {"ranking": sel.ranking_, "scores": sel.scores_,
            "relevance": sel.relevance_, **pack_medoids(sel.label_groups_.medoids_)}


def assert_same_fit(ours, baseline, key):
    assert np.array_equal(ours.ranking_, baseline[f"{key}/ranking"])
    assert np.array_equal(ours.scores_, baseline[f"{key}/scores"], equal_nan=True)
    assert np.array_equal(ours.relevance_, baseline[f"{key}/relevance"])
    for a, b in zip(ours.label_groups_.medoids_, stored_medoids(baseline, key),
                    strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("criterion", CRITERIA)
def test_group_jmi_rand_equal_to_baseline_on_cal500_like_data(baseline, criterion):
    X, Y = cal500_like(seed=1)
    ours = GroupJMIRand(criterion=criterion, random_state=4).fit(X, Y)
    assert_same_fit(ours, baseline, f"group_jmi_rand/cal500_like/{criterion}")
    assert np.isfinite(ours.scores_).sum() == 30


@pytest.mark.parametrize("criterion", CRITERIA)
def test_group_jmi_rand_equal_to_baseline_on_emotions(baseline, shared_datasets,
                                                      criterion):
    X, Y = emotions(shared_datasets)
    ours = GroupJMIRand(criterion=criterion, random_state=0).fit(X, Y)
    assert_same_fit(ours, baseline, f"group_jmi_rand/emotions/{criterion}")
    assert np.isfinite(ours.scores_).sum() == 50
