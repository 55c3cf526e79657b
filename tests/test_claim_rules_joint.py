"""The claim constructs of issue 34 (Spolaôr 2013, Doquire 2013, Sechidis
2019): ``null`` in a scoring reading's override, ``joint`` winner/better,
``worse_aggregate: mean`` on curves, ``mean-rank`` with ``among``,
``max_fraction`` and the artificial checks ``cover`` and ``max_score``.

Every table is invented and every verdict computed by hand in the comments.
``SWING`` is +1, -1, ... over 10 folds: mean 0, s.d. sqrt(10/9).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import yaml

from mlfsbench.io import METRIC_COLUMNS
from mlfsbench.report.claims import (
    BEYOND_NOISE,
    NO_SPREAD,
    NOT_REPRODUCED,
    REPRODUCED,
    WITHIN_NOISE,
    Results,
    evaluate_claim,
)
from mlfsbench.report.claims._base import share_ok
from mlfsbench.report.claims.evaluate import _merged, load_claims
from mlfsbench.report.claims.rules import joint_figures as _joint
from mlfsbench.report.claims.rules.artificial import cover_length, holds

N = 10
SWING = np.array([1.0, -1.0] * (N // 2))


def results(cells) -> Results:
    """``cells``: (dataset, selector, K, metric) -> a value per fold."""
    rows = [(d, "cv", str(i), sel, "c", str(k), metric, float(v))
            for (d, sel, k, metric), values in cells.items()
            for i, v in enumerate(np.atleast_1d(values))]
    return Results("nowhere", metrics=pd.DataFrame(rows, columns=METRIC_COLUMNS))


def claim(rule, **kw):
    return {"id": "c", "statement": "s", "source": "Fig. 2", "reading": "r",
            "rule": rule, **kw}


# ------------------------------------------------------------ share bounds
def test_share_ok_with_an_upper_bound():
    assert share_ok(10, 20, 0.3, 0.7)
    assert share_ok(6, 20, 0.3, 0.7) and share_ok(14, 20, 0.3, 0.7)
    assert not share_ok(15, 20, 0.3, 0.7)  # 0.75 > 0.7
    assert not share_ok(5, 20, 0.3, 0.7)  # 0.25 < 0.3
    assert share_ok(20, 20, 1.0)  # the default upper bound is 1


# ------------------------------------------------- null in reading overrides
def test_null_removes_a_claim_key_and_a_quantity_key():
    c = claim("better", quantity={"metric": "accuracy", "better": ["a"],
                                  "worse": ["b", "c"], "worse_aggregate": "mean"},
              min_fraction=0.5)
    m = _merged(c, {"rule": "winner", "min_fraction": None, "paper": "a",
                    "quantity": {"methods": ["a", "b", "c"], "better": None,
                                 "worse": None, "worse_aggregate": None}})
    assert m["rule"] == "winner" and m["paper"] == "a"
    assert "min_fraction" not in m
    assert m["quantity"] == {"metric": "accuracy", "methods": ["a", "b", "c"]}
    assert c["quantity"]["better"] == ["a"]  # the claim itself is untouched


def _claims_file(tmp_path, override):
    data = {"study": "s", "paper": "p", "experiment": "e",
            "claims": [claim("better", quantity={"metric": "accuracy",
                                                 "better": ["a"], "worse": ["b"]})],
            "readings": {"r": {"about": "a", "favoured": "x", "evidence": "e",
                               "options": {"x": {}, "y": {"claims": {"c": override}}}}}}
    path = tmp_path / "s.claims.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_a_merged_claim_with_nulls_is_validated(tmp_path):
    ok = {"rule": "winner", "paper": "a",
          "quantity": {"methods": ["a", "b"], "better": None, "worse": None}}
    assert load_claims(_claims_file(tmp_path, ok))["claims"][0]["id"] == "c"
    # removing `worse` leaves a better claim the rule's schema refuses
    bad = {"quantity": {"worse": None}}
    with pytest.raises(ValueError, match=r"under reading r=y.*worse"):
        load_claims(_claims_file(tmp_path, bad))


# ------------------------------------------------------------ joint figures
# Hamming loss (a loss: best corner (0, 0)) at the threshold's subset; the
# share kept is 1 - feature_reduction/100:
#   a: HL .03, FR 95 -> (.03, .05), d = sqrt(.0009 + .0025) = .058310
#   b: HL .01, FR 80 -> (.01, .20), d = sqrt(.0001 + .04)   = .200250
#   c: HL .05, FR 60 -> (.05, .40), d = sqrt(.0025 + .16)   = .403113
# The measure alone names b; the corner names a; Pareto leaves a and b
# undominated (c is dominated by a).
def joint_results():
    cells = {}
    for m, hl, fr in (("a", .03, 95), ("b", .01, 80), ("c", .05, 60), ("e", .031, 95)):
        cells[("medical", m, "selected", "hamming_loss")] = hl + 0.002 * SWING
        cells[("medical", m, "selected", "feature_reduction")] = fr + 1.0 * SWING
    return results(cells)


def q_joint(**kw):
    return {"metric": "hamming_loss", "dataset": "medical", "n_features": "selected",
            "joint": "feature_reduction", **kw}


def test_corner_distance_and_its_propagated_sd():
    # sd_x = .002 sqrt(10/9), sd_y = .01 sqrt(10/9); for a:
    # sd_d^2 = (.03^2 sd_x^2 + .05^2 sd_y^2) / .0034
    #        = (3.6e-9 + 2.5e-7) (10/9) / .0034 = 8.2876e-5 -> sd_d = .0091036
    pts = _joint.points(joint_results(), "hamming_loss", "medical", ["a", "b", "c"],
                        "selected", greater=False)
    assert pts["a"].x == pytest.approx(0.03) and pts["a"].y == pytest.approx(0.05)
    assert pts["a"].d == pytest.approx(0.0583095, abs=1e-7)
    assert pts["a"].sd_d == pytest.approx(0.0091036, abs=1e-7)
    assert pts["b"].d == pytest.approx(0.2002498, abs=1e-7)
    assert pts["c"].d == pytest.approx(0.4031129, abs=1e-7)
    # a gain's corner is (1, 0): (.8, .6) -> sqrt(.04 + .36)
    d = _joint.corner(0.8, 0.6, 0, 0, greater=True)[0]
    assert d == pytest.approx(math.sqrt(.4))


def test_joint_winner_corner_pareto_and_measure_alone():
    r = joint_results()
    methods = ["a", "b", "c"]
    corner = evaluate_claim(claim("winner", quantity=q_joint(methods=methods,
                                                             joint_score="corner"),
                                  paper="a"), r)
    assert corner["verdict"] == REPRODUCED
    assert "a (0.0300, 0.0500, d 0.0583)" in corner["ours"]
    # d(b) - d(a) = .14194; half = t(.975, 9) sqrt(.0091036^2/10 + .0105283^2/10)
    # = 2.2622 x .0044012 = .009957: beyond
    assert corner["robust"] == BEYOND_NOISE
    measure = {k: v for k, v in q_joint(methods=methods).items() if k != "joint"}
    assert evaluate_claim(claim("winner", quantity=measure, paper="a"),
                          r)["verdict"] == NOT_REPRODUCED  # b has the lowest loss
    pareto = evaluate_claim(claim("winner", quantity=q_joint(methods=methods,
                                                             joint_score="pareto"),
                                  paper="a"), r)
    assert pareto["verdict"] == REPRODUCED and "a=b" in pareto["ours"]
    assert pareto["robust"] == _joint.PARETO_ROBUST
    # no joint_score: Pareto (the default); c is dominated
    assert evaluate_claim(claim("winner", quantity=q_joint(methods=methods), paper="c"),
                          r)["verdict"] == NOT_REPRODUCED


def test_joint_winner_within_noise():
    # e: (.031, .05), d = .058830; d(e) - d(a) = .00052, half about .0092
    row = evaluate_claim(claim("winner", quantity=q_joint(methods=["a", "e"],
                                                          joint_score="corner"),
                               paper="a"), joint_results())
    assert row["verdict"] == REPRODUCED and row["robust"] == WITHIN_NOISE


def test_joint_better_corner_and_pareto():
    r = joint_results()

    def verdict(a, b, how):
        return evaluate_claim(claim("better", quantity=q_joint(
            better=[a], worse=[b], joint_score=how)), r)["verdict"]

    assert verdict("b", "c", "corner") == REPRODUCED
    assert verdict("b", "a", "corner") == NOT_REPRODUCED
    # a dominates c, not b
    assert verdict("a", "c", "pareto") == REPRODUCED
    assert verdict("a", "b", "pareto") == NOT_REPRODUCED


# --------------------------------------------------- worse_aggregate: mean
def aggregate_claim(k="best", **kw):
    return claim("better", quantity={"metric": "accuracy", "dataset": "yeast",
                                     "better": ["auto"], "worse": ["p5", "p6"],
                                     "worse_aggregate": "mean", "n_features": k, **kw})


def test_average_curve_on_one_split():
    # accuracy at K = 1, 2, 3 on a single split:
    #   auto .50 .60 .55 (best .60, mean .55)
    #   p5   .40 .62 .50;  p6 .58 .50 .52
    #   average curve .49 .56 .51: best .56, mean .52
    # auto .60 > .56: holds; the mean of each one's best, (.62 + .58)/2 = .60,
    # would not be beaten strictly.
    curves = {"auto": [.50, .60, .55], "p5": [.40, .62, .50], "p6": [.58, .50, .52]}
    r = results({("yeast", m, k + 1, "accuracy"): v
                 for m, c in curves.items() for k, v in enumerate(c)})
    row = evaluate_claim(aggregate_claim("best"), r)
    assert row["verdict"] == REPRODUCED
    assert "average of the others 0.5600" in row["ours"]
    assert row["robust"] == NO_SPREAD
    # .55 > .52
    assert evaluate_claim(aggregate_claim("mean"), r)["verdict"] == REPRODUCED
    # every pair instead: p5's best .62 beats auto's .60
    every = aggregate_claim("best")
    del every["quantity"]["worse_aggregate"]
    assert evaluate_claim(every, r)["verdict"] == NOT_REPRODUCED


def test_average_curve_best_chosen_on_the_other_folds():
    # three folds, K = 1, 2:
    #   auto: (.5, .7), (.6, .8), (.4, .6): K = 2 best on any two folds -> .7, .8, .6
    #   p5: (.68, .5) on every fold; p6: (.4, .72) on every fold
    #   average: (.54, .61) on every fold -> K = 2 -> .61 on every fold
    # auto .70 > .61: holds. Paired differences .09, .19, -.01: mean .09,
    # s.d. .1, half = t(.975, 2) .1/sqrt(3) = 4.3027 x .057735 = .2484: within.
    # (Each worse method's own best, .68 and .72, averages to .70: not beaten.)
    auto = [(.5, .7), (.6, .8), (.4, .6)]
    cells = {}
    for k in (1, 2):
        cells[("yeast", "auto", k, "accuracy")] = [f[k - 1] for f in auto]
        cells[("yeast", "p5", k, "accuracy")] = [(.68, .5)[k - 1]] * 3
        cells[("yeast", "p6", k, "accuracy")] = [(.4, .72)[k - 1]] * 3
    row = evaluate_claim(aggregate_claim("best"), results(cells))
    assert row["verdict"] == REPRODUCED
    assert "auto 0.7000" in row["ours"]
    assert "average of the others 0.6100" in row["ours"]
    assert row["robust"] == WITHIN_NOISE and row["n"] == "3"


# -------------------------------------------------- mean-rank with among
def test_better_on_rank_scores_is_lower_is_better_among_the_figure():
    # accuracy (greater is better) on one split, K = 1, 2:
    #   K = 1: g .9, r1 .8, r2 .7 -> ranks g 1, r1 2, r2 3
    #   K = 2: r1 .9, r2 .8, g .7 -> ranks r1 1, r2 2, g 3
    # among the three: r1 1.5, g 2.0 -> r1 better (lower rank);
    # among r1 and g alone: 1.5 each -> not better.
    values = {"g": (.9, .7), "r1": (.8, .9), "r2": (.7, .8)}
    r = results({("oes97", m, k, "accuracy"): v[k - 1] for m, v in values.items()
                 for k in (1, 2)})
    q = {"metric": "accuracy", "dataset": "oes97", "better": ["r1"], "worse": ["g"],
         "n_features": "mean-rank"}
    assert evaluate_claim(claim("better", quantity={**q, "among": ["g", "r1", "r2"]}),
                          r)["verdict"] == REPRODUCED
    assert evaluate_claim(claim("better", quantity=q), r)["verdict"] == NOT_REPRODUCED


# ------------------------------------------------------------ max_fraction
def test_better_with_max_fraction():
    # a beats b on d1 (.8 > .7), not on d2 (.6 < .7): 1 of 2 = .5
    r = results({("d1", "a", 5, "accuracy"): .8, ("d1", "b", 5, "accuracy"): .7,
                 ("d2", "a", 5, "accuracy"): .6, ("d2", "b", 5, "accuracy"): .7})
    q = {"metric": "accuracy", "better": ["a"], "worse": ["b"], "n_features": 5}
    for most, verdict in ((0.7, REPRODUCED), (0.4, NOT_REPRODUCED)):
        c = claim("better", quantity=q, min_fraction=0.3, max_fraction=most)
        assert evaluate_claim(c, r)["verdict"] == verdict


# ------------------------------------------------------- artificial checks
def test_cover_and_max_score_checks():
    groups = [[10], [4, 14], [2, 12], [3, 13]]
    # positions: 10 at 1, 14 at 0, 12 at 5, 3 at 3 -> the prefix of 6 covers all
    ranking = [14, 10, 0, 3, 1, 12, 2, 4, 13]
    assert cover_length(ranking, groups) == 6
    q = {"groups": groups, "range": [6, 8]}
    assert holds("cover", ranking, None, q)
    assert not holds("cover", [14, 10, 2, 3] + [0, 1, 12], None, q)  # 4 features cover
    assert holds("max_score", [0, 1], [0.053, 0.01], {"threshold": 0.1})
    assert not holds("max_score", [0, 1], [0.12, 0.01], {"threshold": 0.1})


def test_artificial_max_fraction(monkeypatch):
    # 4 draws; the "position" check (one of f1, f2 fourth) holds in 2 of them
    import mlfsbench.evaluation.artificial as art

    rankings = [[4, 14, 10, 0], [4, 14, 10, 1], [4, 14, 10, 7], [4, 14, 10, 8]]
    monkeypatch.setattr(art, "run_problem", lambda *a, **k: (rankings, [None] * 4))
    q = {"problem": 1, "method": "chi2-lp", "check": "position", "features": [0, 1],
         "k": 4, "repeats": 4}
    row = evaluate_claim(claim("artificial", quantity=q, min_fraction=0.3,
                               max_fraction=0.7), Results("nowhere"))
    assert row["verdict"] == REPRODUCED and row["ours"] == "holds in 2 of 4 draws"
    row = evaluate_claim(claim("artificial", quantity=q, min_fraction=0.3,
                               max_fraction=0.4), Results("nowhere"))
    assert row["verdict"] == NOT_REPRODUCED
