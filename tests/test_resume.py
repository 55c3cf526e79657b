"""A batch job stopped part-way keeps its finished folds: the restart computes
only the others, and writes what an uninterrupted job writes."""

from __future__ import annotations

import json
import logging

import pytest

from mlfsbench.workflow import stages
from mlfsbench.workflow.resume import FoldStore, job_identity

from .test_batches import KEYS, emotions_like

SELECT = {**KEYS, "selector": "mim-br"}
CLASSIFY = {**SELECT, "classifier": "mlknn"}


@pytest.fixture
def files(tmp_path):
    data, split = tmp_path / "syn.npz", tmp_path / "split.npz"
    emotions_like().save(data)
    stages.split(data, {"type": "kfold", "k": 3, "seed": 0}, split)
    stages.select_batch(data, split, [0, 1, 2], tmp_path / "s.json",
                        method="mim-br", params={}, seed=0, keys=SELECT)
    return data, split, tmp_path / "s.json"


class Stop(Exception):
    """The job is killed (here: while computing a fold)."""


def _counting(monkeypatch, name, fail_on=None):
    """Replace ``stages.<name>`` by a wrapper recording the folds it computes
    and raising :class:`Stop` on ``fail_on``."""
    real = getattr(stages, name)
    computed = []

    def wrapper(dataset, split_file, fold, *args):
        if fold == fail_on:
            raise Stop(fold)
        computed.append(fold)
        return real(dataset, split_file, fold, *args)

    monkeypatch.setattr(stages, name, wrapper)
    return computed


def _classify(files, out, version="v1", params=None, predictions=None):
    data, split, selection = files
    return stages.classify_batch(
        data, split, [0, 1, 2], selection, out, classifier="mlknn",
        params={"k": 5} if params is None else params, grid=[1, 4, "all"], seed=0,
        keys=CLASSIFY, version=version, predictions_dir=predictions)


def test_a_restarted_classify_job_computes_only_the_unfinished_folds(
        files, tmp_path, monkeypatch):
    reference = tmp_path / "reference.tsv"
    _classify(files, reference, version=None)
    assert not (tmp_path / "reference.tsv.folds").exists()  # no version: no store
    out = tmp_path / "m.tsv"
    with monkeypatch.context() as m:
        computed = _counting(m, "_classify_one", fail_on=2)
        with pytest.raises(Stop):
            _classify(files, out)
    assert computed == [0, 1] and not out.exists()
    stored = sorted(p.name for p in (tmp_path / "m.tsv.folds").iterdir())
    assert stored == ["fold0.pickle", "fold0.pickle.sha256", "fold1.pickle",
                      "fold1.pickle.sha256", "identity.json"]
    computed = _counting(monkeypatch, "_classify_one")
    _classify(files, out)
    assert computed == [2]
    assert out.read_bytes() == reference.read_bytes()
    assert not (tmp_path / "m.tsv.folds").exists()  # removed with the output


def test_folds_of_another_identity_are_not_used(files, tmp_path, monkeypatch):
    out = tmp_path / "m.tsv"
    with monkeypatch.context() as m:
        _counting(m, "_classify_one", fail_on=2)
        with pytest.raises(Stop):
            _classify(files, out, params={"k": 5})
    # other parameters, other code: every fold again
    for changed in ({"params": {"k": 3}}, {"version": "v2"}):
        with monkeypatch.context() as m:
            computed = _counting(m, "_classify_one", fail_on=2)
            with pytest.raises(Stop):
                _classify(files, out, **changed)
        assert computed == [0, 1], changed
    # an edited input (the selection: its checksum) too
    data, split, selection = files
    text = json.loads(selection.read_text())
    text["records"][0]["ranking"] = text["records"][0]["ranking"][::-1]
    edited = tmp_path / "edited.json"
    stages.write_json(edited, text, checksum=True)
    computed = _counting(monkeypatch, "_classify_one")
    stages.classify_batch(data, split, [0, 1, 2], edited, out, classifier="mlknn",
                          params={"k": 3}, grid=[1, 4, "all"], seed=0,
                          keys=CLASSIFY, version="v2")
    assert computed == [0, 1, 2]


def test_a_damaged_stored_fold_is_computed_again(files, tmp_path, monkeypatch,
                                                 caplog):
    out = tmp_path / "m.tsv"
    with monkeypatch.context() as m:
        _counting(m, "_classify_one", fail_on=2)
        with pytest.raises(Stop):
            _classify(files, out)
    stored = tmp_path / "m.tsv.folds" / "fold1.pickle"
    stored.write_bytes(stored.read_bytes()[:-3] + b"xyz")
    computed = _counting(monkeypatch, "_classify_one")
    with caplog.at_level(logging.WARNING):
        _classify(files, out)
    assert computed == [1, 2]
    assert "fold1.pickle: not usable" in caplog.text


def test_a_fold_whose_kept_predictions_are_gone_is_computed_again(
        files, tmp_path, monkeypatch):
    out, pred = tmp_path / "m.tsv", tmp_path / "m.predictions"
    with monkeypatch.context() as m:
        _counting(m, "_classify_one", fail_on=2)
        with pytest.raises(Stop):
            _classify(files, out, predictions=pred)
    (pred / "fold0.npz").unlink()
    computed = _counting(monkeypatch, "_classify_one")
    _classify(files, out, predictions=pred)
    assert computed == [0, 2]
    assert sorted(p.name for p in pred.glob("*.npz")) == [
        "fold0.npz", "fold1.npz", "fold2.npz"]


def test_a_restarted_select_job_keeps_the_finished_records(files, tmp_path,
                                                           monkeypatch):
    data, split, reference = files

    def select(out):
        return stages.select_batch(data, split, [0, 1, 2], out, method="mim-br",
                                   params={}, seed=0, keys=SELECT, version="v1")

    out = tmp_path / "again.json"
    with monkeypatch.context() as m:
        computed = _counting(m, "_select_one", fail_on=1)
        with pytest.raises(Stop):
            select(out)
    assert computed == [0]
    first = json.loads((tmp_path / "again.json.folds" / "identity.json").read_text())
    assert first["stage"] == "select" and first["version"] == "v1"
    computed = _counting(monkeypatch, "_select_one")
    result = select(out)
    assert computed == [1, 2]
    expected = json.loads(reference.read_text())
    for mine, theirs in zip(result["records"], expected["records"], strict=True):
        mine.pop("seconds"), theirs.pop("seconds")
        assert mine == theirs


def test_the_identity_names_every_input_by_its_checksum(files, tmp_path):
    data, split, selection = files
    identity = job_identity("classify", "abc", {"dataset": data, "split": split,
                                                "codes": None}, seed=0)
    recorded = (tmp_path / "syn.npz.sha256").read_text().split()[0]
    assert identity["inputs"] == {
        "dataset": recorded,
        "split": (tmp_path / "split.npz.sha256").read_text().split()[0],
        "codes": None}
    a = FoldStore.open(tmp_path / "x.tsv", identity)
    b = FoldStore.open(tmp_path / "x.tsv", {**identity, "seed": 1})
    assert a.key != b.key


def test_a_job_failing_before_any_fold_is_done_leaves_no_store(files, tmp_path,
                                                               monkeypatch):
    out = tmp_path / "m.tsv"
    _counting(monkeypatch, "_classify_one", fail_on=0)
    with pytest.raises(Stop):
        _classify(files, out)
    assert not (tmp_path / "m.tsv.folds").exists()
