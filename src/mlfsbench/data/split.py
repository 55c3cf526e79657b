"""Resampling protocols for multi-label data: stratified k-fold, hold-out, given.

Stratification follows the *iterative stratification* of

    K. Sechidis, G. Tsoumakas, I. Vlahavas (2011). "On the Stratification of
    Multi-label Data." ECML PKDD 2011, LNCS 6913, pp. 145-158
    (Algorithm 1),

which spreads the positive examples of every label over the subsets in the
desired proportions, rarest labels first. A split is a pair ``(train, test)``
of sorted ``intp`` index arrays; everything is deterministic given the seed
(``numpy.random.default_rng(seed)``).

A protocol is described by a small dict (the ``split`` entry of the config)::

    {"type": "kfold", "k": 10, "seed": 0}                    # stratify=True
    {"type": "holdout", "test_size": 0.5, "repeats": 30, "seed": 0}
    {"type": "given"}                                        # dataset's own test part

``kfold`` and ``holdout`` accept ``"stratify": false`` for plain random splits.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

__all__ = [
    "given_split",
    "holdout_splits",
    "iterative_stratification",
    "kfold_splits",
    "make_splits",
    "n_folds",
]

Split = tuple[np.ndarray, np.ndarray]


# --------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------


def _label_matrix(Y) -> sp.csr_matrix:
    """Validate a 0/1 label matrix and return it as boolean CSR."""
    Y = sp.csr_matrix(Y) if sp.issparse(Y) else sp.csr_matrix(np.asarray(Y))
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (n_samples, n_labels), got shape {Y.shape}")
    if Y.nnz and not np.isin(Y.data, (0, 1)).all():
        raise ValueError("Y must contain only 0/1 values")
    Y = Y.astype(bool)
    Y.eliminate_zeros()
    return Y


def _check_int(value, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    return int(value)


def _check_test_size(test_size) -> float:
    if isinstance(test_size, bool) or not isinstance(test_size, numbers.Real):
        raise ValueError(f"test_size must be a number in (0, 1), got {test_size!r}")
    if not 0.0 < float(test_size) < 1.0:
        raise ValueError(f"test_size must be in (0, 1), got {test_size}")
    return float(test_size)


def _check_proportions(proportions) -> np.ndarray:
    r = np.asarray(proportions, dtype=float)
    if r.ndim != 1 or r.size < 2 or not np.isfinite(r).all() or (r <= 0).any():
        raise ValueError(
            f"proportions must be at least two positive numbers, got {proportions!r}"
        )
    if not np.isclose(r.sum(), 1.0):
        raise ValueError(f"proportions must sum to 1, got {r.sum()}")
    return r / r.sum()


def _folds_to_splits(folds: np.ndarray, n_splits: int) -> list[Split]:
    return [
        (np.flatnonzero(folds != f), np.flatnonzero(folds == f))
        for f in range(n_splits)
    ]


# --------------------------------------------------------------------------
# Iterative stratification (Sechidis et al. 2011, Algorithm 1)
# --------------------------------------------------------------------------


def _pick(values: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """The candidates with the largest ``values``."""
    v = values[candidates]
    return candidates[v == v.max()]


def _iterative_stratification(
    Y: sp.csr_matrix, proportions: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Subset index (0 .. len(proportions)-1) of every example.

    Algorithm 1 of Sechidis et al. (2011) with desired proportions ``r_j``:

    1. desired examples per subset ``c_j = n r_j`` and per label and subset
       ``c_j^i = |D^i| r_j`` (``D^i``: examples with label ``i``);
    2. while labelled examples remain, take the label ``l`` with the fewest
       remaining examples (ties at random) and give each of its remaining
       examples (in a seeded random order) to the subset with the largest
       ``c_j^l``, ties by the largest ``c_j``, further ties at random; then
       decrement ``c_j`` and ``c_j^i`` for every label ``i`` of the example;
    3. examples without labels go to the subset with the largest ``c_j``
       (ties at random).
    """
    n, q = Y.shape
    k = proportions.size
    indptr, indices = Y.indptr, Y.indices
    by_label = Y.tocsc()
    label_count = np.diff(by_label.indptr)

    desired = n * proportions  # c_j
    desired_label = label_count[:, None] * proportions[None, :]  # c_j^i
    remaining = label_count.astype(np.int64)  # |D^i| among unassigned examples
    rank = np.empty(n, dtype=np.intp)
    rank[rng.permutation(n)] = np.arange(n)  # random processing order
    folds = np.full(n, -1, dtype=np.intp)
    all_subsets = np.arange(k)

    while True:
        active = np.flatnonzero(remaining > 0)
        if active.size == 0:
            break
        fewest = active[remaining[active] == remaining[active].min()]
        label = fewest[0] if fewest.size == 1 else rng.choice(fewest)
        members = by_label.indices[
            by_label.indptr[label] : by_label.indptr[label + 1]
        ]
        members = members[folds[members] < 0]
        for i in members[np.argsort(rank[members], kind="stable")]:
            best = _pick(desired_label[label], all_subsets)
            if best.size > 1:
                best = _pick(desired, best)
            j = best[0] if best.size == 1 else rng.choice(best)
            labels = indices[indptr[i] : indptr[i + 1]]
            folds[i] = j
            desired[j] -= 1
            desired_label[labels, j] -= 1
            remaining[labels] -= 1

    unlabelled = np.flatnonzero(folds < 0)
    for i in unlabelled[np.argsort(rank[unlabelled], kind="stable")]:
        best = _pick(desired, all_subsets)
        j = best[0] if best.size == 1 else rng.choice(best)
        folds[i] = j
        desired[j] -= 1
    return folds


def iterative_stratification(
    Y, n_splits: int | None = None, random_state=None, *, proportions=None
) -> np.ndarray:
    """Assign every example to a fold by iterative stratification.

    Implements Algorithm 1 of Sechidis, Tsoumakas & Vlahavas (2011), "On the
    Stratification of Multi-label Data" (ECML PKDD): labels are processed from
    the rarest, and each example goes to the fold that still lacks the most
    examples of that label (ties: the fold lacking the most examples overall,
    then a seeded random choice). Unlabelled examples fill the folds lacking
    the most examples. With ``proportions`` the folds get unequal desired sizes
    (the algorithm's ``r_j``), as used by :func:`holdout_splits`.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels)
        0/1 label matrix.
    n_splits : int, optional
        Number of equal folds (>= 2). Optional when ``proportions`` is given.
    random_state : int, numpy Generator or None
        Seed of ``numpy.random.default_rng``; breaks ties and orders examples.
    proportions : sequence of float, optional
        Desired fraction of the examples in each fold (positive, sum to 1).

    Returns
    -------
    folds : ndarray of shape (n_samples,), dtype intp
        Fold index ``0 .. n_splits-1`` of each example.

    Examples
    --------
    >>> Y = np.array([[1, 0]] * 4 + [[0, 1]] * 4 + [[0, 0]] * 2)
    >>> folds = iterative_stratification(Y, 2, random_state=0)
    >>> np.bincount(folds).tolist()
    [5, 5]
    >>> [np.bincount(folds[Y[:, i] == 1]).tolist() for i in range(2)]
    [[2, 2], [2, 2]]
    """
    if proportions is None:
        if n_splits is None:
            raise ValueError("give n_splits or proportions")
        n_splits = _check_int(n_splits, "n_splits", 2)
        r = np.full(n_splits, 1.0 / n_splits)
    else:
        r = _check_proportions(proportions)
        if n_splits is not None and _check_int(n_splits, "n_splits", 2) != r.size:
            raise ValueError(
                f"n_splits={n_splits} but {r.size} proportions were given"
            )
    Y = _label_matrix(Y)
    if Y.shape[0] < r.size:
        raise ValueError(
            f"cannot split {Y.shape[0]} samples into {r.size} folds"
        )
    return _iterative_stratification(Y, r, np.random.default_rng(random_state))


def _random_folds(n: int, n_splits: int, rng: np.random.Generator) -> np.ndarray:
    folds = np.empty(n, dtype=np.intp)
    folds[rng.permutation(n)] = np.arange(n) % n_splits
    return folds


# --------------------------------------------------------------------------
# Protocols
# --------------------------------------------------------------------------


def kfold_splits(
    Y, n_splits: int, random_state=None, *, stratify: bool = True
) -> list[Split]:
    """k-fold cross-validation splits, iteratively stratified by default.

    Parameters
    ----------
    Y : array-like or sparse matrix of shape (n_samples, n_labels)
        0/1 label matrix.
    n_splits : int
        Number of folds (>= 2).
    random_state : int, numpy Generator or None
    stratify : bool, default=True
        ``False``: plain random k-fold (fold sizes differ by at most one).

    Returns
    -------
    splits : list of (train, test) pairs of sorted intp index arrays
        Test parts partition ``0 .. n_samples-1``.

    Examples
    --------
    >>> Y = np.eye(3, dtype=int).repeat(3, axis=0)  # 3 examples of each label
    >>> splits = kfold_splits(Y, 3, random_state=0)
    >>> [Y[test].sum(axis=0).tolist() for _, test in splits]  # one of each label
    [[1, 1, 1], [1, 1, 1], [1, 1, 1]]
    """
    n_splits = _check_int(n_splits, "n_splits", 2)
    Y = _label_matrix(Y)
    n = Y.shape[0]
    if n < n_splits:
        raise ValueError(f"cannot split {n} samples into {n_splits} folds")
    rng = np.random.default_rng(random_state)
    if stratify:
        r = np.full(n_splits, 1.0 / n_splits)
        folds = _iterative_stratification(Y, r, rng)
    else:
        folds = _random_folds(n, n_splits, rng)
    return _folds_to_splits(folds, n_splits)


def holdout_splits(
    Y, test_size: float, n_repeats: int = 1, random_state=None, stratify: bool = True
) -> list[Split]:
    """Repeated hold-out: ``n_repeats`` independent train/test partitions.

    Stratified repeats run iterative stratification (Sechidis et al. 2011,
    Algorithm 1) with two subsets of desired proportions ``test_size`` and
    ``1 - test_size``, so the test size is close to, not always exactly,
    ``test_size * n``. Unstratified repeats draw exactly
    ``round(test_size * n)`` test examples (at least one, at most ``n - 1``).
    Repeat ``i`` uses the ``i``-th child of the seed
    (``Generator.spawn``), so it does not depend on ``n_repeats``.

    Examples
    --------
    >>> Y = np.array([[1, 0]] * 6 + [[0, 1]] * 4)
    >>> splits = holdout_splits(Y, 0.5, n_repeats=3, random_state=0)
    >>> [(len(train), len(test)) for train, test in splits]
    [(5, 5), (5, 5), (5, 5)]
    """
    test_size = _check_test_size(test_size)
    n_repeats = _check_int(n_repeats, "n_repeats", 1)
    Y = _label_matrix(Y)
    n = Y.shape[0]
    if n < 2:
        raise ValueError(f"cannot hold out a test part from {n} sample(s)")
    r = np.array([test_size, 1.0 - test_size])
    splits = []
    for rng in np.random.default_rng(random_state).spawn(n_repeats):
        if stratify:
            is_test = _iterative_stratification(Y, r, rng) == 0
        else:
            n_test = min(max(round(test_size * n), 1), n - 1)
            is_test = np.zeros(n, dtype=bool)
            is_test[rng.permutation(n)[:n_test]] = True
        n_test = int(is_test.sum())
        if n_test in (0, n):
            raise ValueError(
                f"hold-out with test_size {test_size} of {n} instances: repeat "
                f"{len(splits)} has {n_test} test and {n - n_test} training "
                f"instances; use a test_size between {1 / n:.3g} and "
                f"{1 - 1 / n:.3g}"
            )
        splits.append((np.flatnonzero(~is_test), np.flatnonzero(is_test)))
    return splits


def given_split(is_test) -> list[Split]:
    """The dataset's own train/test partition, as a one-element list.

    Examples
    --------
    >>> [(tr.tolist(), te.tolist()) for tr, te in given_split([0, 1, 0, 1])]
    [([0, 2], [1, 3])]
    """
    is_test = np.asarray(is_test)
    if is_test.ndim != 1:
        raise ValueError(f"is_test must be 1-D, got shape {is_test.shape}")
    if is_test.dtype != bool:
        if not np.isin(is_test, (0, 1)).all():
            raise ValueError("is_test must be boolean (or 0/1)")
        is_test = is_test.astype(bool)
    if not is_test.any() or is_test.all():
        raise ValueError(
            "a given split needs both training and test instances; this dataset "
            "has no separate test part (use a kfold or holdout split)"
        )
    return [(np.flatnonzero(~is_test), np.flatnonzero(is_test))]


# --------------------------------------------------------------------------
# Protocol specs
# --------------------------------------------------------------------------

_SPEC_KEYS = {
    "kfold": {"type", "k", "seed", "stratify"},
    "holdout": {"type", "test_size", "repeats", "seed", "stratify"},
    "given": {"type"},
}


def _check_spec(spec: dict) -> dict:
    """Validate a protocol spec and fill in the defaults."""
    if not isinstance(spec, dict) or "type" not in spec:
        raise ValueError(f"a split spec must be a dict with a 'type', got {spec!r}")
    kind = spec["type"]
    if kind not in _SPEC_KEYS:
        raise ValueError(
            f"unknown split type {kind!r}; expected one of {', '.join(_SPEC_KEYS)}"
        )
    unknown = sorted(set(spec) - _SPEC_KEYS[kind])
    if unknown:
        raise ValueError(
            f"split type {kind!r} has no key(s) {', '.join(unknown)}; allowed: "
            f"{', '.join(sorted(_SPEC_KEYS[kind]))}"
        )
    out = dict(spec)
    if kind == "given":
        return out
    out.setdefault("seed", 0)
    out.setdefault("stratify", True)
    if not isinstance(out["stratify"], bool):
        raise ValueError(f"stratify must be true or false, got {out['stratify']!r}")
    if kind == "kfold":
        if "k" not in out:
            raise ValueError("a kfold split spec needs 'k'")
        out["k"] = _check_int(out["k"], "k", 2)
    else:
        if "test_size" not in out:
            raise ValueError("a holdout split spec needs 'test_size'")
        out["test_size"] = _check_test_size(out["test_size"])
        out["repeats"] = _check_int(out.get("repeats", 1), "repeats", 1)
    return out


def n_folds(spec: dict) -> int:
    """Number of (train, test) pairs a spec produces, without the data.

    Examples
    --------
    >>> n_folds({"type": "kfold", "k": 10, "seed": 0})
    10
    >>> n_folds({"type": "holdout", "test_size": 0.3, "repeats": 30})
    30
    >>> n_folds({"type": "given"})
    1
    """
    spec = _check_spec(spec)
    if spec["type"] == "kfold":
        return spec["k"]
    if spec["type"] == "holdout":
        return spec["repeats"]
    return 1


def make_splits(spec: dict, Y, is_test=None) -> list[Split]:
    """The (train, test) index pairs of a protocol spec (see module docstring).

    Parameters
    ----------
    spec : dict
        ``{"type": "kfold", "k", "seed"=0, "stratify"=True}``,
        ``{"type": "holdout", "test_size", "repeats"=1, "seed"=0,
        "stratify"=True}`` or ``{"type": "given"}``.
    Y : array-like or sparse matrix of shape (n_samples, n_labels)
        0/1 label matrix.
    is_test : array-like of bool, optional
        Required for ``"given"``: which instances form the test part.

    Returns
    -------
    splits : list of (train, test) pairs of sorted intp index arrays
        ``len(splits) == n_folds(spec)``.

    Examples
    --------
    >>> Y = np.array([[1, 0], [0, 1]] * 5)
    >>> len(make_splits({"type": "kfold", "k": 5, "seed": 1}, Y))
    5
    """
    spec = _check_spec(spec)
    if spec["type"] == "given":
        if is_test is None:
            raise ValueError("a 'given' split needs is_test")
        splits = given_split(is_test)
        n = _label_matrix(Y).shape[0]
        if len(np.asarray(is_test)) != n:
            raise ValueError(f"is_test has {len(is_test)} entries but Y has {n} rows")
        return splits
    if spec["type"] == "kfold":
        return kfold_splits(Y, spec["k"], spec["seed"], stratify=spec["stratify"])
    return holdout_splits(
        Y, spec["test_size"], spec["repeats"], spec["seed"], stratify=spec["stratify"]
    )
