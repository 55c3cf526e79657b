"""The Bayesian signed-rank test: how probable it is that one method is
better than another, equivalent to it, or worse, over datasets.

Benavoli, Corani, Mangili, Zaffalon & Ruggeri (2014), "A Bayesian Wilcoxon
signed-rank test based on the Dirichlet process", ICML, and Benavoli,
Corani, Demšar & Zaffalon (2017), "Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis", JMLR 18(77),
Sec. 4.3. The differences ``z_1..z_n`` of two methods on ``n`` datasets,
with a pseudo-observation ``z_0 = 0`` of prior weight ``s`` (0.5), have
Dirichlet process posterior weights ``w ~ Dir(s, 1, ..., 1)``. For one draw
of ``w``, the probability mass of the pairs whose mean lies beyond the
region of practical equivalence (rope, ``[-r, r]``) on each side is

    theta_left  = sum_ij w_i w_j I(z_i + z_j < -2r)
    theta_rope  = sum_ij w_i w_j I(|z_i + z_j| <= 2r)
    theta_right = sum_ij w_i w_j I(z_i + z_j > 2r)

(a sum equal to a bound counts half on each side of it, as in the
reference implementation). The reported probabilities are the shares of
draws in which each of the three is the largest. The draws of ``w`` depend
on the number of datasets and the seed only, so every pair of methods of a
table is judged on the same draws.

Here a difference is oriented so that a positive value favours the first
method whatever the metric (a loss is negated): ``p_first``, ``p_rope``,
``p_second``. The draws come from a seeded generator, so a result is the
same on every run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: Default region of practical equivalence: one point of a measure in [0, 1]
#: (the tutorial's 1 % on accuracies).
ROPE = 0.01
#: Default number of posterior draws (the tutorial's and baycomp's 50 000).
N_SAMPLES = 50_000
#: Prior weight of the pseudo-observation at 0 (the tutorial's s = 0.5).
PRIOR = 0.5


@dataclass(frozen=True)
class SignedRank:
    """Posterior probabilities that the first method is better, that the two
    are equivalent within ``rope``, and that the second is better."""

    p_first: float
    p_rope: float
    p_second: float
    rope: float
    n_datasets: int

    def as_dict(self) -> dict[str, float | int]:
        return {"p_first": self.p_first, "p_rope": self.p_rope,
                "p_second": self.p_second, "rope": self.rope,
                "n_datasets": self.n_datasets}


def _side(sums: np.ndarray, bound: float) -> np.ndarray:
    """1 where ``sums > bound``, 1/2 where equal, else 0."""
    return (sums > bound) + 0.5 * (sums == bound)


def posterior_thetas(differences, rope: float, weights: np.ndarray) -> np.ndarray:
    """``(theta_first, theta_rope, theta_second)`` for each row of
    ``weights`` (draws of the Dirichlet weights of ``[0, *differences]``),
    shape ``(n_draws, 3)``.

    >>> w = np.array([[0.0, 0.5, 0.5]])
    >>> posterior_thetas([0.2, 0.3], 0.01, w).tolist()  # every pair favours the first
    [[1.0, 0.0, 0.0]]
    """
    z = np.concatenate(([0.0], np.asarray(differences, dtype=float)))
    sums = z[:, None] + z[None, :]
    first = _side(sums, 2 * rope)
    second = _side(-sums, 2 * rope)
    # sum_ij w_i w_j A_ij for each draw: (w @ A) . w
    t_first = np.einsum("sj,sj->s", weights @ first, weights)
    t_second = np.einsum("sj,sj->s", weights @ second, weights)
    return np.column_stack([t_first, 1.0 - t_first - t_second, t_second])


@lru_cache(maxsize=8)
def draws(n_datasets: int, *, prior: float = PRIOR, n_samples: int = N_SAMPLES,
          random_state: int = 0) -> np.ndarray:
    """The posterior's Dirichlet weights of ``[z_0, z_1..z_n]``, shape
    ``(n_samples, n_datasets + 1)``: the same for every pair of methods
    compared on ``n_datasets`` (drawn once per process, read-only)."""
    rng = np.random.default_rng(random_state)
    out = rng.dirichlet(np.concatenate(([prior], np.ones(n_datasets))), n_samples)
    out.flags.writeable = False
    return out


def signed_rank(first, second, *, rope: float = ROPE, higher_is_better: bool = True,
                prior: float = PRIOR, n_samples: int = N_SAMPLES,
                random_state: int = 0) -> SignedRank:
    """The Bayesian signed-rank test of two methods' scores on the same
    datasets (one value per dataset: a mean over folds).

    Parameters
    ----------
    first, second : array-like, shape (n_datasets,)
    rope : float, default=0.01
        Half-width of the region of practical equivalence, in the metric's
        units; 0: no rope (``p_rope`` is 0).
    higher_is_better : bool, default=True
        False for a loss: the differences are negated, so that ``p_first``
        is the probability that the first method is better.
    prior, n_samples, random_state
        The pseudo-observation's weight, the number of posterior draws, the
        seed of the draws.

    Examples
    --------
    >>> r = signed_rank([0.80, 0.75, 0.90, 0.70], [0.70, 0.70, 0.85, 0.60])
    >>> r.p_first > 0.9, r.p_second
    (True, 0.0)
    >>> signed_rank([0.1, 0.2], [0.1, 0.2]).p_rope  # identical: equivalent
    1.0
    """
    a = np.asarray(first, dtype=float)
    b = np.asarray(second, dtype=float)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(f"first and second need one value per dataset each, "
                         f"got shapes {a.shape} and {b.shape}")
    if a.size < 1 or not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("first and second need at least one dataset and "
                         "finite values")
    if not rope >= 0:
        raise ValueError(f"rope must be >= 0, got {rope!r}")
    diff = a - b if higher_is_better else b - a
    weights = draws(diff.size, prior=prior, n_samples=n_samples,
                    random_state=random_state)
    thetas = posterior_thetas(diff, rope, weights)
    if rope == 0:  # two outcomes: the rope's mass is the ties' only
        thetas = thetas[:, [0, 2]]
        wins = np.bincount(np.argmax(thetas, axis=1), minlength=2) / n_samples
        p_first, p_rope, p_second = float(wins[0]), 0.0, float(wins[1])
    else:
        wins = np.bincount(np.argmax(thetas, axis=1), minlength=3) / n_samples
        p_first, p_rope, p_second = map(float, wins)
    return SignedRank(p_first, p_rope, p_second, float(rope), int(diff.size))
