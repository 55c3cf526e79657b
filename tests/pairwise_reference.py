"""The pairwise criteria's tests' shared problem and reference (CMIM, DISR,
ICAP, CIFE, mRMR after BR, LP or PPT).

- :func:`hand_problem`: eight rows, five binary features, one label; the
  entropies of its second step are written out below from counts read off
  the table (:data:`STEP2`), so each criterion's test can state its values
  by hand.
- :func:`reference`: every criterion computed from its written equation,
  one contingency table per term, with this module's own plug-in entropy
  (:func:`entropy_bits`), nothing from the package's information module.
- :func:`assert_matches_reference`: a selector's criterion at every greedy
  step against :func:`reference`.
"""

from __future__ import annotations

import itertools
from math import log2

import numpy as np

from mlfsbench.estimators import registry


def H(*counts) -> float:
    """Entropy in bits of the distribution with these counts (hand formulas)."""
    n = sum(counts)
    return -sum(c / n * log2(c / n) for c in counts if c)


def entropy_bits(*columns) -> float:
    """Plug-in joint entropy in bits of the given sample columns."""
    _, counts = np.unique(np.column_stack(columns), axis=0, return_counts=True)
    return H(*counts.tolist())


def mi(x, y) -> float:
    return entropy_bits(x) + entropy_bits(y) - entropy_bits(x, y)


def cmi(x, y, z) -> float:
    return (entropy_bits(x, z) + entropy_bits(y, z) - entropy_bits(x, y, z)
            - entropy_bits(z))


def hand_problem():
    """Rows ``(a, b, c)`` in 000..111; ``y = a XOR b``; features
    ``[a, b, f2, f3, c]`` with ``f2`` = ``y`` wrong on row 0 and ``f3`` =
    ``y`` wrong on rows 0 and 7::

        row  a b c | y f2 f3
         0   0 0 0 | 0  1  1
         1   0 0 1 | 0  0  0
         2   0 1 0 | 1  1  1
         3   0 1 1 | 1  1  1
         4   1 0 0 | 1  1  1
         5   1 0 1 | 1  1  1
         6   1 1 0 | 0  0  0
         7   1 1 1 | 0  0  1
    """
    a, b, c = np.array(list(itertools.product([0, 1], repeat=3))).T
    y = a ^ b
    f2 = y.copy()
    f2[0] = 1
    f3 = f2.copy()
    f3[7] = 1
    return np.column_stack([a, b, f2, f3, c]), y[:, None].astype(np.uint8)


# Step 1: the relevance. I(a;y) = I(b;y) = I(c;y) = 0 (a, b, c are
# pairwise independent of y = a XOR b); f2 = 1 on 5 rows, (f2, y) counts
# (1,1): 4, (1,0): 1, (0,0): 3; f3 = 1 on 6 rows, (f3, y) counts 4, 2, 2.
RELEVANCE = [0.0, 0.0, 1 + H(5, 3) - H(4, 1, 3), 1 + H(6, 2) - H(4, 2, 2), 0.0]
FIRST = 2  # f2, the most relevant

# Step 2, with f2 selected: per candidate, the joint counts read off the
# table -- (k, f2): a -> (0,1) 3, (0,0) 1, (1,1) 2, (1,0) 2; f3 -> (1,1) 5,
# (0,0) 2, (1,0) 1; c -> 3, 2, 2, 1. (k, f2, y): a -> 1, 1, 2, 2, 2;
# f3 -> 1, 2, 4, 1; c -> 1, 2, 2, 2, 1. (k, y): a, c -> 2, 2, 2, 2;
# f3 -> 4, 2, 2. b is a with its role swapped (same counts). H(f2) = H(5, 3),
# H(f2, y) = H(4, 1, 3), H(y) = 1.
_H_K = {0: 1.0, 1: 1.0, 3: H(6, 2), 4: 1.0}
_H_KF2 = {0: H(3, 1, 2, 2), 1: H(3, 1, 2, 2), 3: H(5, 2, 1), 4: H(3, 2, 2, 1)}
_H_KF2Y = {0: H(1, 1, 2, 2, 2), 1: H(1, 1, 2, 2, 2), 3: H(1, 2, 4, 1),
           4: H(1, 2, 2, 2, 1)}
_H_KY = {0: 2.0, 1: 2.0, 3: H(4, 2, 2), 4: 2.0}
STEP2 = {}
for _k in (0, 1, 3, 4):
    STEP2[_k] = {
        "I(k;y)": RELEVANCE[_k],
        "I(k;f2)": _H_K[_k] + H(5, 3) - _H_KF2[_k],
        "I(k;f2|y)": _H_KY[_k] + H(4, 1, 3) - _H_KF2Y[_k] - 1.0,
        "I(k;y|f2)": _H_KF2[_k] + H(4, 1, 3) - _H_KF2Y[_k] - H(5, 3),
        "H(k,f2,y)": _H_KF2Y[_k],
    }


def reference(name: str, X, T, selected, *, variant: str = "equation") -> np.ndarray:
    """The criterion of every feature from its written equation, summed over
    the columns of ``T`` (one per target)."""
    out = np.zeros(X.shape[1])
    for k in range(X.shape[1]):
        xk = X[:, k]
        for i in range(T.shape[1]):
            y = T[:, i]
            rel = mi(xk, y)
            if not selected:
                out[k] += rel
            elif name == "cmim":
                low = min(cmi(xk, y, X[:, j]) for j in selected)
                out[k] += min(low, rel) if variant == "feast" else low
            elif name == "cife":
                out[k] += rel - sum(mi(xk, X[:, j]) - cmi(xk, X[:, j], y)
                                    for j in selected)
            elif name == "icap":
                out[k] += rel - sum(max(0.0, mi(xk, X[:, j]) - cmi(xk, X[:, j], y))
                                    for j in selected)
            elif name == "mrmr":
                out[k] += rel - np.mean([mi(xk, X[:, j]) for j in selected])
            elif name == "disr":
                for j in selected:
                    h = entropy_bits(xk, X[:, j], y)
                    joint = entropy_bits(xk, X[:, j]) + entropy_bits(y) - h
                    out[k] += joint / h if h > 0 else 0.0
            else:
                raise ValueError(name)
    return out


def small_problem(seed=0, n=120, p=6, q=3):
    """Random discrete features and labels depending on the first ``q``."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, p))
    Y = ((X[:, :q] + rng.integers(0, 3, (n, q))) > 2).astype(np.uint8)
    return X, Y


def fit_with_trace(name, X, Y, **params):
    """The fitted selector and the criterion vector of every greedy step."""
    sel = registry.create("selector", name, params)
    trace: list = []
    sel._validate_params()
    sel.fit(X, Y)
    sel._fit(X, Y, trace=trace)  # the same search again, recording each step
    return sel, trace


def assert_matches_reference(name, X, Y, **params):
    """Every step's criterion of the available features equals the equation."""
    from mlfsbench.estimators.selectors._pairwise import transformed_targets

    sel, trace = fit_with_trace(name, X, Y, **params)
    rows, T = transformed_targets(Y, params.get("transformation", "br"),
                                  p=params.get("p", 6))
    Xk = X if rows is None else X[rows]
    order = sel.ranking_.tolist()
    assert len(trace) == sel.n_selected_
    for step, J in enumerate(trace):
        expected = reference(name, Xk, T, order[:step],
                             variant=params.get("variant", "equation"))
        available = np.setdiff1d(np.arange(X.shape[1]), order[:step])
        np.testing.assert_allclose(J[available], expected[available],
                                   rtol=1e-10, atol=1e-12)
        assert sel.scores_[order[step]] == J[order[step]]
    return sel
