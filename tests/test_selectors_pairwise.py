"""What CMIM, DISR, ICAP, CIFE and mRMR share: the label transformation
(BR summed over the labels, LP, PPT), the registry entries and the input
handling (``selectors/_pairwise.py``)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfsbench.cli.methods import method_details
from mlfsbench.estimators import registry
from mlfsbench.estimators.transformations.lp import labelset_codes

from .pairwise_reference import fit_with_trace, reference, small_problem

CRITERIA = ["cmim", "disr", "icap", "cife", "mrmr"]
CITATIONS = {
    "cmim": "Fleuret 2004; Brown et al. 2012",
    "disr": "Meyer & Bontempi 2006; Brown et al. 2012",
    "icap": "Jakulin 2005; Brown et al. 2012",
    "cife": "Lin & Tang 2006; Brown et al. 2012",
    "mrmr": "Peng et al. 2005",
}


def create(name, **params):
    return registry.create("selector", name, params)


@pytest.mark.parametrize("name", CRITERIA)
def test_listed_with_citation_and_parameters(name):
    entry = registry.describe()["selector"][name]
    assert method_details("selector", name, entry)["citation"] == CITATIONS[name]
    params = registry.parameters(registry.get("selector", name))
    assert {k: params[k] for k in ("transformation", "p", "reassign")} == {
        "transformation": "br", "p": 6, "reassign": False}
    assert create(name).input_kind == "discrete"


@pytest.mark.parametrize("name", CRITERIA)
def test_br_sums_the_criterion_over_the_labels(name):
    X, Y = small_problem(seed=5)
    sel, trace = fit_with_trace(name, X, Y, transformation="br")
    order = sel.ranking_.tolist()
    for step in (1, 2):  # each label's own criterion, same selected features
        per_label = sum(reference(name, X, Y[:, [i]], order[:step])
                        for i in range(Y.shape[1]))
        rest = np.setdiff1d(np.arange(X.shape[1]), order[:step])
        np.testing.assert_allclose(trace[step][rest], per_label[rest], atol=1e-12)
    assert sel.n_targets_ == 3 and sel.n_kept_ == X.shape[0]


@pytest.mark.parametrize("name", CRITERIA)
def test_one_label_gives_one_selection_under_every_transformation(name):
    X, Y = small_problem(seed=6, q=1)
    br = create(name, transformation="br").fit(X, Y)
    for other in (create(name, transformation="lp"),
                  create(name, transformation="ppt", p=1)):
        other.fit(X, Y)
        np.testing.assert_array_equal(other.ranking_, br.ranking_)
        np.testing.assert_allclose(other.scores_, br.scores_, rtol=1e-12,
                                   equal_nan=True)


@pytest.mark.parametrize("name", CRITERIA)
def test_lp_is_the_labelset_class(name):
    X, Y = small_problem(seed=7)
    lp = create(name, transformation="lp").fit(X, Y)
    br = create(name, transformation="br").fit(X, Y)
    assert lp.n_targets_ == 1
    direct = reference(name, X, labelset_codes(Y)[0][:, None], [])
    np.testing.assert_allclose(lp.relevance_, direct, atol=1e-12)
    assert np.abs(lp.relevance_ - br.relevance_).max() > 0.01


@pytest.mark.parametrize("name", CRITERIA)
def test_ppt_is_lp_on_the_kept_instances(name):
    X, Y = small_problem(seed=8)
    codes, _ = labelset_codes(Y)
    counts = np.bincount(codes)
    p = 15
    kept = counts[codes] >= p
    assert 0 < kept.sum() < len(kept)  # the test prunes something
    ppt = create(name, transformation="ppt", p=p).fit(X, Y)
    lp = create(name, transformation="lp").fit(X[kept], Y[kept])
    assert ppt.n_kept_ == kept.sum()
    np.testing.assert_array_equal(ppt.ranking_, lp.ranking_)
    np.testing.assert_allclose(ppt.scores_, lp.scores_, rtol=1e-12, equal_nan=True)


def test_ppt_reassign_keeps_the_pruned_instances_under_a_subset():
    X, Y = small_problem(seed=8)
    sel = create("cmim", transformation="ppt", p=15, reassign=True).fit(X, Y)
    plain = create("cmim", transformation="ppt", p=15).fit(X, Y)
    assert sel.n_kept_ > plain.n_kept_


@pytest.mark.parametrize("name", CRITERIA)
def test_ppt_keeping_nothing_scores_nothing(name):
    X, Y = small_problem(seed=9)
    sel = create(name, transformation="ppt", p=1000).fit(X, Y)
    assert sel.n_kept_ == 0
    assert sel.relevance_.tolist() == [0.0] * X.shape[1]
    assert sel.ranking_.tolist() == list(range(X.shape[1]))  # ties: by index


@pytest.mark.parametrize("name", CRITERIA)
@pytest.mark.parametrize("transformation", ["br", "ppt"])
def test_sparse_codes_select_as_dense(name, transformation):
    X, Y = small_problem(seed=10)
    dense = create(name, transformation=transformation, p=10).fit(X, Y)
    sparse = create(name, transformation=transformation, p=10).fit(
        sp.csr_matrix(X), Y)
    np.testing.assert_array_equal(sparse.ranking_, dense.ranking_)
    np.testing.assert_allclose(sparse.scores_, dense.scores_, rtol=1e-12,
                               equal_nan=True)


@pytest.mark.parametrize("name", CRITERIA)
def test_greedy_steps_then_relevance(name):
    X, Y = small_problem(seed=11, p=8)
    sel = create(name, n_features_to_select=3).fit(X, Y)
    assert sel.n_selected_ == 3
    assert np.isnan(sel.scores_).sum() == 5
    rest = sel.ranking_[3:]
    assert np.all(np.diff(sel.relevance_[rest]) <= 0)  # by decreasing relevance
    assert sel.get_support().sum() == 3


@pytest.mark.parametrize("name", CRITERIA)
def test_refuses_a_bad_transformation(name):
    X, Y = small_problem()
    with pytest.raises(ValueError, match="'transformation' parameter of"):
        create(name, transformation="ela").fit(X, Y)
