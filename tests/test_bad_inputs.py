"""The bad-input corpus (:mod:`tests.badinputs`) through ``mlfsbench
describe``, ``load_mulan`` (``load_mldr`` for R data), ``mlfsbench select``
and the workflow's prepare stage: a one-line error naming the file and the
problem, or the right values (and the expected warning, no other).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import yaml

from mlfsbench.cli import main
from mlfsbench.data import load_mldr, load_mulan
from mlfsbench.data.rdata import is_r_data

from .badinputs import CASES, Case

BY_ID = {case.id: case for case in CASES}
REPO = Path(__file__).resolve().parents[1]


def test_the_corpus_has_at_least_98_distinct_cases():
    assert len(CASES) >= 98
    assert len(BY_ID) == len(CASES)
    assert sum(case.error is not None for case in CASES) >= 55
    assert sum(case.warning is not None for case in CASES) >= 2


def _argv(case: Case, folder: Path) -> list[str]:
    arffs, xml = case.write(folder)
    return [*map(str, arffs), *(["--xml", str(xml)] if xml else []), *case.extra]


def _one_line_error(capsys, folder: Path, case: Case) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"mlfsbench: error: {folder}/"), err  # names the file
    assert re.search(case.cli_error or case.error, err), err
    return err


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_describe(case, tmp_path, capsys):
    argv = ["describe", *_argv(case, tmp_path), "--json"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = main(argv)
    if case.error or case.cli_error:
        assert code == 1
        _one_line_error(capsys, tmp_path, case)
        return
    assert code == 0, capsys.readouterr().err
    _expected_warning(caught, case)
    out = json.loads(capsys.readouterr().out)
    Y = np.asarray(case.Y)
    assert (out["instances"], out["labels"]) == Y.shape
    assert out["features"] == np.asarray(case.X).shape[1]
    assert out["cardinality"] == pytest.approx(Y.sum() / len(Y))


def _expected_warning(caught, case: Case) -> None:
    """The case's one warning, naming the file, or none."""
    messages = [str(w.message) for w in caught]
    if case.warning is None:
        assert messages == []
        return
    assert len(messages) == 1, messages
    assert re.search(case.warning, messages[0]), messages[0]


def _load(paths, xml):
    if not isinstance(paths, list) and is_r_data(paths):
        assert xml is None
        return load_mldr(paths)
    return load_mulan(paths, xml)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_load_mulan(case, tmp_path):
    arffs, xml = case.write(tmp_path)
    paths = arffs[0] if len(arffs) == 1 else arffs
    if case.error:
        with pytest.raises(ValueError, match=case.error):
            _load(paths, xml)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ds = _load(paths, xml)
    _expected_warning(caught, case)
    if case.warning is not None:
        assert str(paths) in str(caught[0].message)
    X = ds.dense_X()
    np.testing.assert_array_equal(X, np.asarray(case.X, dtype=float))
    np.testing.assert_array_equal(ds.Y, np.asarray(case.Y, dtype=np.uint8))
    assert ds.name in ("t", "m")
    if case.features is not None:
        assert ds.feature_names == case.features
    if case.labels is not None:
        assert ds.label_names == case.labels


SELECT = ["integer-feature-keeps-reals", "gzip-latin-1", "meka-bzip2",
          "missing-feature", "nan-in-integer", "inf-in-numeric", "empty-data",
          "integer-label-0.4", "quoted-nan-in-numeric",
          "word-apple-beside-category-Apple", "rda-plain", "rda-inf",
          "rda-1.7e308", "no-features"]


@pytest.mark.parametrize("case_id", SELECT)
def test_select(case_id, tmp_path, capsys):
    case = BY_ID[case_id]
    code = main(["select", *_argv(case, tmp_path), "--method", "mim-br",
                 "--discretize", "equal-width", "--bins", "2", "--json"])
    if case.error or case.cli_error:
        assert code == 1
        _one_line_error(capsys, tmp_path, case)
        return
    assert code == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    width = np.asarray(case.X).shape[1]
    assert sorted(out["ranking"]) == list(range(width))


# ----------------------------------------------- an edited prepared dataset
@pytest.mark.parametrize("case_id", ["plain", "sparse", "rda-plain"])
def test_edited_prepared_file_is_refused(case_id, tmp_path):
    """Issue 38, W4: the case prepared as the workflow prepares it, then X[0, 0]
    edited in the ``.npz``: the split stage refuses the file, naming it and
    the ``rm -f`` that rebuilds it (before, the edited value was used)."""
    from mlfsbench.io import CacheIntegrityError
    from mlfsbench.workflow.stages import prepare, split

    case = BY_ID[case_id]
    arffs, xml = case.write(tmp_path)
    out = tmp_path / "prepared" / "t.npz"
    out.parent.mkdir()
    prepare(arffs, xml, out, name="t")
    spec = {"type": "kfold", "k": 3, "seed": 0}
    split(out, spec, tmp_path / "folds.npz")
    with np.load(out) as z:
        arrays = {k: z[k] for k in z.files}
    X = arrays["X_data" if "X_data" in arrays else "X"]
    assert X.flat[0] == np.asarray(case.X)[0, 0]
    X.flat[0] += 1000
    with open(out, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    with pytest.raises(CacheIntegrityError) as err:
        split(out, spec, tmp_path / "again.npz")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{out}: changed since its job wrote it (sha256 ")
    assert f"rm -f '{out}' '{out}.sha256' and rerun the workflow" in message
    assert not (tmp_path / "again.npz").exists()


# ------------------------------------------------------- the workflow's prepare
WORKFLOW = [("gzip-latin-1", None), ("integer-feature-keeps-reals", None),
            ("inf-in-numeric", r"line 7: attribute 'f1' has an infinite value"),
            ("empty-data", r"no instances"), ("rda-plain", None),
            ("rda-inf", r"mldr object 't': feature\(s\) 'f2' hold an infinite "
                        r"value")]


@pytest.mark.workflow
@pytest.mark.slow
@pytest.mark.parametrize(("case_id", "error"), WORKFLOW)
def test_prepare_stage(case_id, error, tmp_path):
    """A datasets-table row pointing at the case's files (``file://``): the
    prepare job writes the right dataset or fails with the error in its log."""
    from mlfsbench.data import Dataset
    from mlfsbench.workflow.runner import copy_workflow

    case = BY_ID[case_id]
    arffs, xml = case.write(tmp_path / "case")
    workdir = copy_workflow(REPO, tmp_path / "wf")

    def sha(path):
        return hashlib.sha256(path.read_bytes()).hexdigest()

    table = (workdir / "config/datasets.tsv").read_text().splitlines()[0]
    columns = table.split("\t")
    row = dict.fromkeys(columns, "") | {
        "name": "corpus", "arff_url": arffs[0].as_uri(), "arff_sha256": sha(arffs[0])}
    if xml is not None:
        row |= {"xml_url": xml.as_uri(), "xml_sha256": sha(xml)}
    (workdir / "config/corpus.tsv").write_text(
        table + "\n" + "\t".join(row[c] for c in columns) + "\n")
    config = yaml.safe_load((workdir / "config/tiny.yaml").read_text())
    config["datasets_table"] = "config/corpus.tsv"
    config["experiments"]["tiny"]["datasets"] = ["corpus"]
    (workdir / "config/corpus.yaml").write_text(yaml.safe_dump(config))
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "snakemake"), "data/prepared/corpus.npz",
         "--cores", "1", "--configfile", "config/corpus.yaml"],
        cwd=workdir, capture_output=True, text=True, timeout=600)
    if error is None:
        assert proc.returncode == 0, proc.stderr
        ds = Dataset.load(workdir / "data/prepared/corpus.npz")
        np.testing.assert_array_equal(ds.dense_X(), np.asarray(case.X, dtype=float))
        np.testing.assert_array_equal(ds.Y, np.asarray(case.Y))
        return
    assert proc.returncode != 0
    log = (workdir / "logs/prepare/corpus.log").read_text()
    whole = "whole.rda" if arffs[0].suffix == ".rda" else "whole.arff"
    assert re.search(rf"data/raw/corpus/{whole}: " + error, log), log
    assert not (workdir / "data/prepared/corpus.npz").exists()
