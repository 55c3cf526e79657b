"""The scikit-learn estimator contract, checked for every registered method.

Parametrized over the registry (built-ins and entry-point plugins alike), so a
new selector, classifier or transformation is checked without a new test:
parameter constraints, input validation (lists and DataFrames accepted,
``feature_names_in_`` set, NaN and 1-D label matrices refused), ``clone``,
idempotent refits, pickling, read-only input and invariance to the order of
the training rows.

``sklearn.utils.estimator_checks.parametrize_with_checks`` does not fit: its
checks pass a 1-D ``y`` and arbitrary ``X``, while every method here needs a
2-D label matrix (and discrete selectors integer codes); see
``tests/test_selectors_mim.py``.
"""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import RegressorMixin, clone

from mlfsbench.estimators import registry
from mlfsbench.estimators.selectors import fit_selector

SELECTORS = registry.names("selector")
CLASSIFIERS = registry.names("classifier")
TRANSFORMATIONS = registry.names("transformation")

# The kNN MI estimators add seeded jitter of 1e-10 to every value (ties between
# distances), drawn in row order: permuting the rows moves the estimates by
# about 1e-9 relative, never the ranking here.
ROW_ORDER_RTOL = {"knnmi-forward": 1e-6, "knnmi-backward": 1e-6, "knnmi-rank": 1e-6}

# Parameters that fit the small problem: a fixed number of PPT classes instead
# of tuning it by 20-fold cross-validation.
SMALL = {
    "knnmi-forward": {"p": 5},
    "knnmi-backward": {"p": 5},
    "knnmi-rank": {"p": 5},
}


def problem(n=60, seed=0):
    """Labels, integer codes and continuous features with known structure."""
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, 3)).astype(np.uint8)
    Y[:4] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]  # every label present
    codes = rng.integers(0, 3, (n, 6))
    codes[:, 0] = Y[:, 0] * 2 + Y[:, 1]
    codes[:, 2] = Y[:, 2]
    X = np.column_stack([
        Y[:, 0] + rng.normal(0, 0.3, n),
        rng.random(n),
        Y[:, 1] * 2.0 + Y[:, 2] + rng.normal(0, 0.3, n),
        rng.normal(0, 1, n),
        rng.random(n),
        Y[:, 2] + rng.normal(0, 0.5, n),
    ])
    return X, codes, Y


def selector(name, **params):
    return registry.create("selector", name, {**SMALL.get(name, {}), **params},
                           random_state=0)


def selector_data(sel, seed=0):
    X, codes, Y = problem(seed=seed)
    return (codes if sel.input_kind == "discrete" else X), Y


def assert_same_selection(a, b, rtol=1e-10):
    np.testing.assert_array_equal(a.ranking_, b.ranking_)
    np.testing.assert_allclose(a.scores_, b.scores_, rtol=rtol, atol=1e-12,
                               equal_nan=True)


# ------------------------------------------------------------------ selectors


def test_the_registry_lists_methods_of_every_kind():
    assert {"mim-br", "ig-br", "rrelieff", "group-jmi"} <= set(SELECTORS)
    assert {"mlknn", "br-lr", "knn-reg"} <= set(CLASSIFIERS)
    assert {"br", "lp", "ela"} <= set(TRANSFORMATIONS)


@pytest.mark.parametrize("name", SELECTORS)
@pytest.mark.parametrize("bad", [-1, 0, 2.7, True, "3"])
def test_selector_rejects_a_bad_n_features_to_select(name, bad):
    sel = selector(name)
    X, Y = selector_data(sel)
    sel.set_params(n_features_to_select=bad)
    with pytest.raises(ValueError, match="'n_features_to_select' parameter"):
        sel.fit(X, Y)


@pytest.mark.parametrize("name, param, bad", [
    ("ppt-mi", "p", 0), ("ppt-mi", "reassign", "yes"), ("ela-chi", "empty", "keep"),
    ("chi2-lp", "discretization", "mdl"), ("ig-br", "discretization", "weka"),
    ("ig-lp", "better_encoding", 1), ("rf-lp", "n_neighbors", 0),
    ("rf-br", "threshold", "0.01"), ("rrelieff", "sigma", -1.0),
    ("rrelieff", "n_samples", 2.5), ("lee2016", "n_labels", 1.5),
    ("knnmi-rank", "k", 0), ("knnmi-forward", "p", "best"),
    ("knnmi-backward", "n_folds", 1), ("knnmi-rank", "noise", -1e-10),
    ("cmim", "variant", "fast"), ("disr", "transformation", "ela"),
    ("icap", "p", 0), ("cife", "reassign", "yes"), ("mrmr", "transformation", "BR"),
    ("rfs", "gamma", 0.0), ("rfs", "max_iter", 0), ("rfs", "tol", -1e-6),
])
def test_selector_rejects_a_bad_parameter_of_its_own(name, param, bad):
    sel = selector(name)
    X, Y = selector_data(sel)
    sel.fit(X, Y)  # the defaults are valid
    with pytest.raises(ValueError, match=f"'{param}' parameter of"):
        sel.set_params(**{param: bad}).fit(X, Y)


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_keeps_n_features_to_select(name):
    sel = selector(name, n_features_to_select=np.int64(2))
    X, Y = selector_data(sel)
    sel.fit(X, Y)
    assert sel.get_support().sum() == 2
    assert set(sel.get_support(indices=True)) == set(sel.ranking_[:2].tolist())
    assert sel.transform(X).shape == (X.shape[0], 2)


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_accepts_lists(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    assert_same_selection(clone(sel).fit(X.tolist(), Y.tolist()), sel.fit(X, Y))


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_rejects_nan(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    X = X.astype(float)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        sel.fit(X, Y)


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_rejects_1d_labels(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    with pytest.raises(ValueError, match="2-D"):
        sel.fit(X, Y[:, 0])


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_rejects_mismatched_samples(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    with pytest.raises(ValueError, match="samples"):
        sel.fit(X, Y[:-1])


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_feature_names_from_a_dataframe(name):
    sel = selector(name, n_features_to_select=2)
    X, Y = selector_data(sel)
    names = [f"f{j}" for j in range(X.shape[1])]
    frame = pd.DataFrame(X, columns=names)
    from_frame = clone(sel).fit(frame, pd.DataFrame(Y))
    assert from_frame.feature_names_in_.tolist() == names
    assert from_frame.n_features_in_ == X.shape[1]
    assert_same_selection(from_frame, sel.fit(X, Y))
    kept = from_frame.get_feature_names_out().tolist()
    assert kept == [names[j] for j in sorted(from_frame.ranking_[:2])]
    assert not hasattr(sel, "feature_names_in_")  # plain arrays have no names


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_clone_refit_and_pickle(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    params = sel.get_params()
    twin = clone(sel)
    assert twin.get_params() == params and not hasattr(twin, "ranking_")
    first = sel.fit(X, Y)
    ranking, scores = first.ranking_.copy(), first.scores_.copy()
    sel.fit(*selector_data(sel, seed=1))  # a refit forgets the first data
    again = sel.fit(X, Y)
    np.testing.assert_array_equal(again.ranking_, ranking)
    np.testing.assert_array_equal(again.scores_, scores)
    assert sel.get_params() == params
    restored = pickle.loads(pickle.dumps(sel))
    assert_same_selection(restored, sel)
    np.testing.assert_array_equal(restored.get_support(), sel.get_support())


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_reads_read_only_input(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    expected = clone(sel).fit(X, Y)
    X, Y = X.copy(), Y.copy()
    X.setflags(write=False)
    Y.setflags(write=False)
    assert_same_selection(sel.fit(X, Y), expected)


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_ignores_the_order_of_the_rows(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    order = np.random.default_rng(5).permutation(X.shape[0])
    assert_same_selection(clone(sel).fit(X[order], Y[order]), sel.fit(X, Y),
                          rtol=ROW_ORDER_RTOL.get(name, 1e-10))


@pytest.mark.parametrize("name", SELECTORS)
def test_selector_checks_feature_types(name):
    sel = selector(name)
    X, Y = selector_data(sel)
    types = ["numeric"] * X.shape[1]
    fitted = fit_selector(sel, X, Y, feature_types=types)
    assert fitted.feature_types_.tolist() == types
    with pytest.raises(ValueError, match="feature_types has 2 entries"):
        sel.fit(X, Y, feature_types=types[:2])
    with pytest.raises(ValueError, match="unknown feature type"):
        sel.fit(X, Y, feature_types=["text"] * X.shape[1])


def test_fit_selector_leaves_out_feature_types_a_fit_does_not_take():
    class Plain:
        def fit(self, X, Y):
            self.seen = np.shape(X)
            return self

    assert fit_selector(Plain(), np.zeros((2, 3)), np.zeros((2, 1)),
                        feature_types=["numeric"] * 3).seen == (2, 3)


def test_ig_auto_uses_the_feature_types():
    # a numeric feature taking only the values 0 and 1: guessed nominal without
    # types, MDL-discretized with them (one cut, the same split of the data)
    rng = np.random.default_rng(0)
    Y = rng.integers(0, 2, (200, 2))
    noisy = np.where(rng.random(200) < 0.1, 1 - Y[:, 0], Y[:, 0]).astype(float)
    weak = np.where(rng.random(200) < 0.45, 1 - Y[:, 1], Y[:, 1]).astype(float)
    X = np.column_stack([noisy, weak])
    guess = selector("ig-br", discretization="auto").fit(X, Y)
    nominal = selector("ig-br", discretization="none").fit(X, Y)
    mdl = selector("ig-br", discretization="mdl").fit(X, Y)
    np.testing.assert_array_equal(guess.scores_, nominal.scores_)
    typed = selector("ig-br", discretization="auto").fit(
        X, Y, feature_types=["numeric", "numeric"])
    np.testing.assert_array_equal(typed.scores_, mdl.scores_)
    assert mdl.scores_[1] == 0.0 < nominal.scores_[1]  # MDL refuses the weak cut
    declared = selector("ig-br", discretization="auto").fit(
        X, Y, feature_types=["binary", "numeric"])
    np.testing.assert_array_equal(declared.scores_,
                                  [nominal.scores_[0], mdl.scores_[1]])


# ---------------------------------------------------------------- classifiers


def classifier(name):
    return registry.create("classifier", name, {}, random_state=0)


def classifier_data(seed=0):
    X, _, Y = problem(seed=seed)
    rng = np.random.default_rng(seed + 10)
    return X[:40], Y[:40], X[40:] + rng.normal(0, 0.01, X[40:].shape)


def outputs(model, X_test):
    return model.predict(X_test), model.predict_proba(X_test)


def assert_same_outputs(a, b):
    for x, y in zip(a, b, strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_accepts_lists(name):
    X, Y, X_test = classifier_data()
    expected = outputs(classifier(name).fit(X, Y), X_test)
    model = classifier(name).fit(X.tolist(), Y.tolist())
    assert_same_outputs(outputs(model, X_test.tolist()), expected)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_rejects_nan(name):
    X, Y, X_test = classifier_data()
    X = X.copy()
    X[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        classifier(name).fit(X, Y)
    model = classifier(name).fit(*classifier_data()[:2])
    X_test = X_test.copy()
    X_test[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        model.predict(X_test)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_rejects_1d_labels(name):
    X, Y, X_test = classifier_data()
    if issubclass(registry.get("classifier", name), RegressorMixin):
        # Real-valued targets, not labels: a 1-D y is one target, as for any
        # scikit-learn regressor, and comes back 1-D (a documented choice).
        model = classifier(name).fit(X, Y[:, 0].astype(float))
        assert model.predict(X_test).shape == (len(X_test),)
        return
    with pytest.raises(ValueError, match="2-D"):
        classifier(name).fit(X, Y[:, 0])


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_feature_names_from_a_dataframe(name):
    X, Y, X_test = classifier_data()
    names = [f"f{j}" for j in range(X.shape[1])]
    model = classifier(name).fit(pd.DataFrame(X, columns=names), Y)
    assert model.feature_names_in_.tolist() == names
    assert model.n_features_in_ == X.shape[1]
    assert_same_outputs(
        outputs(model, pd.DataFrame(X_test, columns=names)),
        outputs(classifier(name).fit(X, Y), X_test),
    )


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_clone_refit_and_pickle(name):
    X, Y, X_test = classifier_data()
    model = classifier(name)
    params = model.get_params()
    assert clone(model).get_params() == params
    expected = outputs(model.fit(X, Y), X_test)
    other_X, other_Y, _ = classifier_data(seed=1)
    model.fit(other_X, other_Y)
    assert_same_outputs(outputs(model.fit(X, Y), X_test), expected)
    assert model.get_params() == params
    assert_same_outputs(outputs(pickle.loads(pickle.dumps(model)), X_test), expected)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_reads_read_only_input(name):
    X, Y, X_test = classifier_data()
    expected = outputs(classifier(name).fit(X, Y), X_test)
    X, Y, X_test = X.copy(), Y.copy(), X_test.copy()
    for a in (X, Y, X_test):
        a.setflags(write=False)
    assert_same_outputs(outputs(classifier(name).fit(X, Y), X_test), expected)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_ignores_the_order_of_the_rows(name):
    X, Y, X_test = classifier_data()
    order = np.random.default_rng(5).permutation(X.shape[0])
    assert_same_outputs(outputs(classifier(name).fit(X[order], Y[order]), X_test),
                        outputs(classifier(name).fit(X, Y), X_test))


# ------------------------------------------------------------ transformations


def transformation(name):
    cls = registry.get("transformation", name)
    seed = {"random_state": 0} if "random_state" in registry.parameters(cls) else {}
    return registry.create("transformation", name, {}, **seed)


def arrays(out):
    """A transformation's output as a flat list of arrays."""
    if isinstance(out, np.ndarray):
        return [out]
    if hasattr(out, "toarray"):
        return [out.toarray()]
    return [a for part in out for a in arrays(part)]


def assert_same_arrays(a, b):
    a, b = arrays(a), arrays(b)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name", TRANSFORMATIONS)
def test_transformation_accepts_lists_and_refuses_bad_labels(name):
    _, _, Y = problem()
    expected = transformation(name).fit(Y).transform(Y)
    assert_same_arrays(transformation(name).fit(Y.tolist()).transform(Y.tolist()),
                       expected)
    with pytest.raises(ValueError, match="2-D"):
        transformation(name).fit(Y[:, 0])
    bad = Y.astype(float)
    bad[1, 1] = np.nan
    with pytest.raises(ValueError, match="0/1|NaN"):
        transformation(name).fit(bad)


@pytest.mark.parametrize("name", TRANSFORMATIONS)
def test_transformation_clone_refit_pickle_and_read_only(name):
    _, _, Y = problem()
    model = transformation(name)
    params = model.get_params()
    assert clone(model).get_params() == params
    expected = model.fit(Y).transform(Y)
    model.fit(problem(seed=1)[2])
    assert_same_arrays(model.fit(Y).transform(Y), expected)
    assert model.get_params() == params
    assert_same_arrays(pickle.loads(pickle.dumps(model)).transform(Y), expected)
    frozen = Y.copy()
    frozen.setflags(write=False)
    assert_same_arrays(transformation(name).fit(frozen).transform(frozen), expected)


@pytest.mark.parametrize("name", TRANSFORMATIONS)
def test_transformation_ignores_the_order_of_the_rows(name):
    _, _, Y = problem()
    order = np.random.default_rng(5).permutation(Y.shape[0])
    assert_same_arrays(transformation(name).fit(Y[order]).transform(Y),
                       transformation(name).fit(Y).transform(Y))


# ------------------------------------------------- feature types in the stage


def test_select_stage_passes_the_datasets_feature_types(tmp_path):
    from mlfsbench.data import Dataset
    from mlfsbench.workflow import stages
    from mlfsbench.workflow.folds import load_fold

    rng = np.random.default_rng(0)
    Y = rng.integers(0, 2, (200, 2)).astype(np.uint8)
    weak = np.where(rng.random(200) < 0.45, 1 - Y[:, 1], Y[:, 1]).astype(float)
    X = np.column_stack([weak, weak])  # the same 0/1 values, two declared types
    Dataset(name="typed", X=X, Y=Y, feature_names=["numeric01", "word"],
            label_names=["a", "b"], feature_types=["numeric", "binary"],
            ).save(tmp_path / "typed.npz")
    stages.split(tmp_path / "typed.npz", {"type": "kfold", "k": 2, "seed": 0},
                 tmp_path / "split.npz")
    out = stages.select_batch(tmp_path / "typed.npz", tmp_path / "split.npz", [0],
                              tmp_path / "s.json", method="ig-br",
                              params={"discretization": "auto", "threshold": None},
                              seed=0, keys={"dataset": "typed", "split": "k2",
                                            "selector": "ig-br"})
    rec = out["records"][0]
    scores = dict(zip(["numeric01", "word"], rec["scores"], strict=True))
    # one column, two types: the numeric one through MDL, the word as nominal
    # codes (as Weka reads them); without the types both would be nominal
    train, _ = load_fold(tmp_path / "split.npz", 0)
    mdl = selector("ig-br", discretization="mdl").fit(X[train], Y[train])
    nominal = selector("ig-br", discretization="none").fit(X[train], Y[train])
    assert scores["numeric01"] == mdl.scores_[0]
    assert scores["word"] == nominal.scores_[1] != mdl.scores_[0]
