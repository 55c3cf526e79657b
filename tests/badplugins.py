"""A corpus of bad (and awkward but valid) outputs of a method of another
package: what a careless plugin author's selector or classifier returns.

Each :class:`PluginCase` is a class and what must happen when the workflow's
per-fold functions run it on :data:`X` / :data:`Y`: an error whose message
names the method and the fold (the caller's name) and matches ``error``, or
valid output whose numbers are checked by the tests. Issue 38 (W1, U4)
lists how each passed silently or failed without naming the method.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin

from mlfsbench.estimators.selectors import BaseMultiLabelSelector

# A small problem: 8 features of distinct variance (feature j has standard
# deviation j + 1, so the variance ranking is 7, 6, ..., 0), 3 labels.
TRAIN, TEST = np.arange(0, 40, 2), np.arange(1, 40, 2)
_rng = np.random.default_rng(38)
_Z = _rng.normal(size=(40, 8))
_Z = (_Z - _Z[TRAIN].mean(axis=0)) / _Z[TRAIN].std(axis=0)
X = _Z * np.arange(1, 9)  # training variance (j + 1)^2: no ties
Y = (_rng.random((40, 3)) < 0.4).astype(np.uint8)
BY_VARIANCE = [7, 6, 5, 4, 3, 2, 1, 0]
#: The grid the cases are classified on (its largest K: 5).
GRID = [1, 3, 5]
#: The fold's name as the select and classify stages give it.
FOLD = "d.npz (dataset d, fold 0)"


def variance(X) -> np.ndarray:
    return np.asarray(X, dtype=float).var(axis=0)


class _Ranked(BaseMultiLabelSelector):
    """A plugin on mlfsbench's base class whose ``_fit`` returns
    :meth:`output` of the variances."""

    input_kind = "continuous"

    def _fit(self, X, Y):
        return self.output(variance(X))

    def output(self, scores):  # pragma: no cover - overridden
        raise NotImplementedError


def selector(name: str, output) -> type:
    """A :class:`_Ranked` whose ``_fit`` returns ``output(variances)``."""
    return type(name, (_Ranked,), {"output": staticmethod(output)})


class PlainSelector(BaseEstimator):
    """A plugin that is no subclass of the base class: it sets ``ranking_``
    and ``scores_`` itself, from :meth:`outputs`."""

    input_kind = "continuous"

    def __init__(self, *, random_state=None):
        self.random_state = random_state

    def fit(self, X, Y):
        scores = variance(X)
        self.ranking_, self.scores_ = self.outputs(scores)
        return self

    def outputs(self, scores):
        return np.argsort(-scores, kind="mergesort"), scores

    def get_support(self):
        return np.ones(len(self.scores_), dtype=bool)


def plain(name: str, outputs) -> type:
    return type(name, (PlainSelector,), {"outputs": staticmethod(outputs)})


class PriorClassifier(ClassifierMixin, BaseEstimator):
    """A plugin classifier: each label's training frequency as its score,
    predicted when at least 0.5; :meth:`shape_output` may spoil the pair."""

    def __init__(self, *, random_state=None):
        self.random_state = random_state

    def fit(self, X, Y):
        self.prior_ = np.asarray(Y, dtype=float).mean(axis=0)
        return self

    def predict_proba(self, X):
        score = np.tile(self.prior_, (np.shape(X)[0], 1))
        return self.spoil_scores(score)

    def predict(self, X):
        pred = (np.tile(self.prior_, (np.shape(X)[0], 1)) >= 0.5).astype(np.int64)
        return self.spoil_predictions(pred)

    @staticmethod
    def spoil_scores(score):
        return score

    @staticmethod
    def spoil_predictions(pred):
        return pred


def classifier(name: str, **spoil) -> type:
    return type(name, (PriorClassifier,),
                {k: staticmethod(v) for k, v in spoil.items()})


def _nan_first(s):
    s = s.copy()
    s[[0, 3, 5]] = np.nan
    return s


def _granular_bad():
    class Granular(_Ranked):
        def _fit(self, X, Y):
            scores = variance(X)
            self.granules_ = [np.array([0, 1]), np.array([1, 2])]  # label 1 twice
            self.granule_rankings_ = [np.argsort(-scores)] * 2
            return scores
    return Granular


def _short_path(X_train, Y_train, X_test, column_sets):
    model = PriorClassifier().fit(X_train, Y_train)
    return [(model.predict(X_test), model.predict_proba(X_test))][:1]


@dataclass
class PluginCase:
    """One method: its ``kind`` and class, and the expected outcome: an
    error matching ``error`` after the fold's and the method's names, or
    (``error`` None) valid output (``ranking``: the recorded ranking)."""

    id: str
    kind: str
    cls: type
    error: str | None = None
    ranking: list[int] | None = None
    grid: list[Any] = field(default_factory=lambda: list(GRID))


CASES: list[PluginCase] = [
    # ------------------------------------------------ selectors: valid
    PluginCase("selector-valid", "selector", selector("Valid", lambda s: s),
               ranking=BY_VARIANCE),
    PluginCase("selector-infinite-score-ranks-first", "selector",
               selector("Inf", lambda s: np.where(s == s.min(), np.inf, s)),
               ranking=[0, 7, 6, 5, 4, 3, 2, 1]),
    PluginCase("selector-prefix-as-deep-as-the-grid", "selector",
               selector("Prefix", lambda s: (s, np.argsort(-s)[:5])),
               ranking=BY_VARIANCE[:5]),
    PluginCase("selector-greedy-nan-for-unscored", "selector",
               selector("Greedy", lambda s: (np.where(s > s[4], s, np.nan),
                                             np.argsort(-s))),
               ranking=BY_VARIANCE),
    PluginCase("plain-selector-list-ranking", "selector",
               plain("ListRanking", lambda s: (np.argsort(-s).tolist(),
                                               s.tolist())),
               ranking=BY_VARIANCE),
    # ------------------------------------------------ selectors: errors
    PluginCase("selector-scores-short", "selector",
               selector("ShortScores", lambda s: s[:-3]),
               error=r"its scores \(scores_\) has shape \(5,\); expected one "
                     r"score per feature, shape \(8,\)"),
    PluginCase("selector-ranking-shorter-than-the-grid", "selector",
               selector("ShortRanking", lambda s: (s, np.argsort(-s)[:3])),
               error=r"ranks 3 features, but the grid asks for K = 5 \(points "
                     r"5\); a selector must rank at least as deep as the largest"
                     r" K of the grid"),
    PluginCase("selector-duplicate-index", "selector",
               selector("Duplicate", lambda s: (s, np.r_[7, 7, 6, 5, 4, 3, 2, 1])),
               error=r"its ranking \(ranking_\) names feature 7 twice \(positions"
                     r" 0 and 1\); a ranking names each feature once"),
    PluginCase("selector-negative-index", "selector",
               selector("Negative", lambda s: (s, np.r_[-1, 6, 5, 4, 3, 2, 1, 0])),
               error=r"its ranking \(ranking_\) holds a negative index, -1 "
                     r"\(position 0\); feature indices run from 0 to 7, and a "
                     r"negative one would count from the last feature"),
    PluginCase("selector-index-beyond-the-features", "selector",
               selector("Beyond", lambda s: (s, np.r_[8, 6, 5, 4, 3, 2, 1, 0])),
               error=r"its ranking \(ranking_\) holds index 8 \(position 0\), but"
                     r" there are 8 features \(0 \.\. 7\)"),
    PluginCase("selector-all-nan-scores", "selector",
               selector("AllNaN", lambda s: np.full_like(s, np.nan)),
               error=r"8 of 8 scores are NaN \(features 0, 1, 2, 3, 4 and 3 "
                     r"more\); the ranking is the order of the scores"),
    PluginCase("selector-some-nan-scores", "selector",
               selector("SomeNaN", _nan_first),
               error=r"3 of 8 scores are NaN \(features 0, 3, 5\); the ranking is"
                     r" the order of the scores"),
    PluginCase("selector-scores-two-columns", "selector",
               selector("TwoColumns", lambda s: np.column_stack([s, s])),
               error=r"its scores \(scores_\) has shape \(8, 2\); expected one "
                     r"score per feature, shape \(8,\)"),
    PluginCase("selector-ranking-two-dimensional", "selector",
               selector("Ranking2D", lambda s: (s, np.argsort(-s).reshape(2, 4))),
               error=r"its ranking \(ranking_\) has shape \(2, 4\); expected a 1-D"
                     r" array of feature indices"),
    PluginCase("selector-support-not-the-ranking-s-first", "selector",
               type("OwnSupport", (_Ranked,), {
                   "output": staticmethod(lambda s: s),
                   "_get_support_mask": lambda self: np.arange(8) < 2}),
               error=r"its support \(get_support\(\), 2 features\) is not the "
                     r"first 2 of its ranking \(feature\(s\) 0, 1 are selected "
                     r"but ranked lower\)"),
    PluginCase("plain-selector-all-nan-scores", "selector",
               plain("PlainNaN", lambda s: (np.argsort(-s),
                                            np.full_like(s, np.nan))),
               error=r"its scores \(scores_\) are all NaN: the selector scored "
                     r"no feature"),
    PluginCase("plain-selector-float-ranking", "selector",
               plain("FloatRanking", lambda s: (np.argsort(-s) + 0.5, s)),
               error=r"its ranking \(ranking_\) holds float64 values; expected "
                     r"integer feature indices \(0 \.\. 7\)"),
    PluginCase("plain-selector-no-ranking", "selector",
               plain("NoRanking", lambda s: (None, s)),
               error=r"its ranking \(ranking_\) has shape \(\); expected a 1-D "
                     r"array"),
    PluginCase("plain-selector-text-scores", "selector",
               plain("TextScores", lambda s: (np.argsort(-s), ["high"] * 8)),
               error=r"its scores \(scores_\) is not an array of numbers"),
    PluginCase("selector-granules-overlap", "selector", _granular_bad(),
               error=r"label\(s\) 1 are in more than one granule"),
    # ------------------------------------------------ classifiers: valid
    PluginCase("classifier-valid", "classifier", classifier("Prior")),
    PluginCase("classifier-boolean-predictions", "classifier",
               classifier("BoolPred", spoil_predictions=lambda p: p.astype(bool))),
    PluginCase("classifier-sparse-scores", "classifier",
               classifier("SparseScores", spoil_scores=sp.csr_matrix)),
    # ------------------------------------------------ classifiers: errors
    PluginCase("classifier-predictions-one-dimensional", "classifier",
               classifier("Pred1D", spoil_predictions=lambda p: p[:, 0]),
               error=r"classifier '[a-z0-9-]+': predict returned shape \(20,\); "
                     r"expected \(test instances, labels\) = \(20, 3\)"),
    PluginCase("classifier-scores-per-label-list", "classifier",
               classifier("PerLabel", spoil_scores=lambda s: [
                   np.column_stack([1 - c, c]) for c in s.T]),
               error=r"predict_proba returned shape \(3, 20, 2\); expected \(test "
                     r"instances, labels\) = \(20, 3\)"),
    PluginCase("classifier-one-row-of-scores", "classifier",
               classifier("OneRow", spoil_scores=lambda s: s[0]),
               error=r"predict_proba returned shape \(3,\); expected \(test "
                     r"instances, labels\) = \(20, 3\)"),
    PluginCase("classifier-nan-scores", "classifier",
               classifier("NaNScores", spoil_scores=lambda s: np.where(
                   np.arange(3) == 2, np.nan, s)),
               error=r"predict_proba returned 20 NaN or infinite value\(s\) "
                     r"\(first: test instance 0, label 2\)"),
    PluginCase("classifier-prediction-two", "classifier",
               classifier("Two", spoil_predictions=lambda p: np.full_like(p, 2)),
               error=r"predict returned 2 \(test instance 0, label 0\); "
                     r"predictions are 0 or 1"),
    PluginCase("classifier-negative-prediction", "classifier",
               classifier("Minus", spoil_predictions=lambda p: np.full_like(p, -1)),
               error=r"predict returned -1 \(test instance 0, label 0\); "
                     r"predictions are 0 or 1"),
    PluginCase("classifier-path-too-short", "classifier",
               type("ShortPath", (PriorClassifier,), {
                   "predict_path": staticmethod(_short_path)}),
               error=r"predict_path gave 1 result\(s\) for 3 feature "
                     r"subset\(s\); expected one per feature subset"),
]
