"""Issue 29's input-format and config cases, one regression test each.

Each test failed before its fix; the ids (S1, U4, ...) are the issue's.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import re

import numpy as np
import pytest

from mlfsbench.data import DataFormatError, load_mulan

XML = '<labels><label name="l1"/><label name="l2"/></labels>'


def _write(folder, name, text, encoding="utf-8"):
    path = folder / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


# ----------------------------------------------------------------------- ARFF
S1_HEAD = """@relation t
@attribute f integer
@attribute l1 {0,1}
@attribute l2 integer
@data
"""


def test_s1_integer_features_keep_their_real_values(tmp_path):
    path = _write(tmp_path, "t.arff", S1_HEAD + "0.8,1,0\n2.8,0,1\n1.5,1,0\n")
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    np.testing.assert_array_equal(ds.X[:, 0], [0.8, 2.8, 1.5])
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1], [1, 0]])


def test_s1_integer_label_must_be_zero_or_one(tmp_path):
    path = _write(tmp_path, "t.arff", S1_HEAD + "0.8,1,0\n2.8,0,1.7\n1.5,1,0\n")
    with pytest.raises(DataFormatError,
                       match=r"t\.arff.*label 'l2'.*1\.7.*instance 2.*line 7"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


def test_s3_nan_in_an_integer_column_is_an_error_naming_it(tmp_path):
    head = S1_HEAD.replace("@attribute f integer",
                           "@attribute f integer\n@attribute c {lo,hi}")
    path = _write(tmp_path, "t.arff", head + "1,hi,1,0\nnan,hi,0,1\n")
    with pytest.raises(DataFormatError,
                       match=r"t\.arff: line 8: attribute 'f'.*'nan'"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


@pytest.mark.parametrize("kind", ["numeric", "integer", "real"])
@pytest.mark.parametrize("value", ["inf", "-Infinity", "+inf"])
def test_u3_infinity_in_a_feature_names_file_attribute_and_line(tmp_path, kind,
                                                                  value):
    head = S1_HEAD.replace("@attribute f integer", f"@attribute f {kind}")
    path = _write(tmp_path, "t.arff", head + f"1,1,0\n{value},0,1\n")
    with pytest.raises(DataFormatError,
                       match=rf"t\.arff: line 7: attribute 'f'.*{re.escape(value)}"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


@pytest.mark.parametrize("sparse", [False, True])
def test_s6_values_that_overflow_the_arithmetic_are_refused(tmp_path, sparse):
    # Near 1e308 every value fell in one equal-width bin and ML-kNN's scaled
    # distances were NaN, with RuntimeWarnings in the logs only.
    head = ("@relation t\n@attribute small numeric\n@attribute huge numeric\n"
            "@attribute l1 {0,1}\n@attribute l2 {0,1}\n@data\n")
    rows = (["{0 1,1 1e308,2 1}", "{0 2,1 -1e308,3 1}", "{1 5,2 1}"] if sparse
            else ["1,1e308,1,0", "2,-1e308,0,1", "3,5,1,0"])
    path = _write(tmp_path, "t.arff", head + "\n".join(rows) + "\n")
    with pytest.raises(DataFormatError) as err:
        load_mulan(path, _write(tmp_path, "t.xml", XML))
    assert str(err.value).startswith(f"{path}: feature(s) 'huge' hold values")
    assert "overflow" in str(err.value)
    ok = _write(tmp_path, "ok.arff", head + "1,1e149,1,0\n2,-1e149,0,1\n")
    assert load_mulan(ok, _write(tmp_path, "t.xml", XML)).X.shape == (2, 2)


def test_u4_utf8_byte_order_mark_is_read(tmp_path):
    path = _write(tmp_path, "t.arff", "\ufeff" + S1_HEAD + "1,1,0\n2,0,1\n")
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    np.testing.assert_array_equal(ds.X[:, 0], [1, 2])


def test_u9_empty_data_section_is_an_error(tmp_path):
    path = _write(tmp_path, "t.arff", S1_HEAD + "% nothing\n\n")
    with pytest.raises(DataFormatError, match=r"t\.arff: no instances"):
        load_mulan(path, _write(tmp_path, "t.xml", XML))


LATIN = """@relation t
@attribute 'caf\u00e9' numeric
@attribute l1 {0,1}
@attribute l2 {0,1}
@data
1.5,1,0
2.5,0,1
"""


@pytest.mark.parametrize("name", ["t.arff.gz", "t.arff.bz2", "t.arff", "t.gz"])
def test_compressed_and_latin1_files_are_read(tmp_path, name):
    raw = LATIN.encode("latin-1")
    if name.endswith(".gz"):
        raw = gzip.compress(raw, mtime=0)
    elif name.endswith(".bz2"):
        raw = bz2.compress(raw)
    path = _write(tmp_path, name, raw)
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    assert ds.feature_names == ["caf\u00e9"]
    assert ds.name == "t"
    np.testing.assert_array_equal(ds.X[:, 0], [1.5, 2.5])
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1]])


def test_compressed_by_content_under_a_plain_name(tmp_path):
    path = _write(tmp_path, "whole.arff", gzip.compress(LATIN.encode(), mtime=0))
    ds = load_mulan(path, _write(tmp_path, "t.xml", XML))
    assert ds.feature_names == ["caf\u00e9"]


def test_meka_c_option_through_a_bz2_file(tmp_path):
    text = ("@relation 'm: -C -2'\n@attribute f numeric\n@attribute g numeric\n"
            "@attribute y1 {0,1}\n@attribute y2 {0,1}\n@data\n"
            "0.5,1,1,0\n1.5,2,0,1\n2.5,3,1,1\n")
    path = _write(tmp_path, "m.arff.bz2", bz2.compress(text.encode()))
    ds = load_mulan(path)
    assert ds.name == "m"
    assert ds.label_names == ["y1", "y2"]
    np.testing.assert_array_equal(ds.X, [[0.5, 1], [1.5, 2], [2.5, 3]])
    np.testing.assert_array_equal(ds.Y, [[1, 0], [0, 1], [1, 1]])


def test_corrupt_gzip_names_the_file(tmp_path):
    path = _write(tmp_path, "t.arff.gz", gzip.compress(LATIN.encode())[:30])
    with pytest.raises(DataFormatError, match=r"t\.arff\.gz: cannot read"):
        load_mulan(path)


# --------------------------------------------------------------- parameters
def test_s2_fraction_one_stays_a_fraction_in_the_workflow():
    from mlfsbench.workflow.ids import cache_id, entry_params, normalize_params

    assert normalize_params("lee2016", {"n_labels": 1.0}) == {"n_labels": 1.0}
    assert isinstance(normalize_params("lee2016", {"n_labels": 1.0})["n_labels"],
                      float)
    assert isinstance(normalize_params("lee2016", {"n_labels": 0.0})["n_labels"],
                      float)
    assert isinstance(normalize_params("lee2016", {"n_labels": 1})["n_labels"], int)
    fraction = {"name": "lee2016", "params": {"n_labels": 1.0}}
    count = {"name": "lee2016", "params": {"n_labels": 1}}
    assert entry_params(fraction, "d") == {"n_labels": 1.0}
    assert cache_id(fraction, "d", "selector") != cache_id(count, "d", "selector")
    # No ambiguity: s is a real (ML-kNN's smoothing), k a count.
    assert normalize_params("mlknn", {"k": 10.0, "s": 1}) == {"k": 10, "s": 1.0}


def test_s2_cli_and_workflow_agree_on_a_fraction(capsys, shared_datasets):
    import json

    from mlfsbench.cli import main
    from mlfsbench.workflow.ids import entry_params

    folder = shared_datasets / "multi-label" / "emotions"
    base = ["select", str(folder / "emotions.arff"), "--xml",
            str(folder / "emotions.xml"), "--method", "lee2016", "--json"]
    rankings = {}
    for value in ("1.0", "6", "1"):
        assert main([*base, "--param", f"n_labels={value}"]) == 0
        rankings[value] = json.loads(capsys.readouterr().out)["ranking"]
    # 1.0 is every label (all 6 of emotions), 1 is one label.
    assert rankings["1.0"] == rankings["6"] != rankings["1"]
    params = entry_params({"name": "lee2016", "params": {"n_labels": 1.0}}, "d")
    assert main([*base, "--param", f"n_labels={params['n_labels']!r}"]) == 0
    assert json.loads(capsys.readouterr().out)["ranking"] == rankings["6"]


# ------------------------------------------------------------------ configs
DUPLICATE_SELECTORS = """datasets_table: config/datasets.tsv
experiments:
  tiny:
    datasets: [emotions]
    splits:
      cv2: {type: kfold, k: 2}
    selectors:
      - name: mim-br
    classifiers:
      - name: mlknn
    selectors:
      - name: ppt-mi
    n_features: [1, all]
"""


def test_s4_repeated_key_in_the_config_file_names_both_lines(tmp_path):
    from mlfsbench.workflow.config import check_config_file

    path = _write(tmp_path, "dup.yaml", DUPLICATE_SELECTORS)
    import yaml

    config = yaml.safe_load(DUPLICATE_SELECTORS)  # what Snakemake loads
    with pytest.raises(ValueError,
                       match=r"dup\.yaml: line 11: key 'selectors' repeats line 7"):
        check_config_file(config, str(path))


def test_s4_repeated_experiment_in_an_experiment_file(tmp_path):
    from mlfsbench.workflow.config import load_experiment_files

    body = DUPLICATE_SELECTORS.split("experiments:\n", 1)[1]
    body = body.replace("    selectors:\n      - name: ppt-mi\n", "")
    path = _write(tmp_path, "x.yaml", "experiments:\n" + body + body)
    with pytest.raises(ValueError, match=r"x\.yaml: line 11: key 'tiny' repeats "
                                         r"line 2"):
        load_experiment_files({"experiment_files": [str(path)]})


def test_s4_repeated_key_in_a_claims_file(tmp_path):
    from mlfsbench.data import read_datasets_table
    from mlfsbench.workflow.checks import check_experiment
    from mlfsbench.yamlfile import load_yaml_text

    from .conftest import REPO_ROOT

    claims = _write(tmp_path, "c.claims.yaml", "study: s\nclaims: []\nstudy: t\n")
    experiment = load_yaml_text(DUPLICATE_SELECTORS.replace(
        "    selectors:\n      - name: ppt-mi\n", ""), "t")["experiments"]["tiny"]
    experiment["claims"] = str(claims)
    table = {s.name: s for s in read_datasets_table(REPO_ROOT / "config" /
                                                    "datasets.tsv")}
    with pytest.raises(ValueError, match=r"c\.claims\.yaml: line 3: key 'study'"):
        check_experiment("tiny", experiment, table)


def test_s4_runner_rejects_a_repeated_key_before_snakemake(tmp_path):
    from mlfsbench.workflow.runner import run

    (tmp_path / "Snakefile").write_text("")
    _write(tmp_path, "dup.yaml", DUPLICATE_SELECTORS)
    with pytest.raises(ValueError, match=r"^dup\.yaml: line 11: key 'selectors'"):
        run(["--cores", "1", "--configfile", "dup.yaml"], workdir=tmp_path)


def _config(**split):
    from mlfsbench.yamlfile import load_yaml_text

    config = load_yaml_text(DUPLICATE_SELECTORS.replace(
        "    selectors:\n      - name: ppt-mi\n", ""), "t")
    if split:
        config["experiments"]["tiny"]["splits"]["cv2"] = split
    return config


@pytest.mark.parametrize(("split", "message"), [
    ({"type": "kfold", "k": 1},
     r"experiments\.tiny\.splits\.cv2\.k: 1 is less than the minimum of 2"),
    ({"type": "kfold", "k": 2, "seed": -1},
     r"experiments\.tiny\.splits\.cv2\.seed: -1 is less than the minimum of 0"),
    ({"type": "holdout", "test_size": 0, "repeats": 2},
     r"experiments\.tiny\.splits\.cv2\.test_size: 0 is less than or equal to"),
    ({"type": "holdout", "test_size": 1, "repeats": 2},
     r"experiments\.tiny\.splits\.cv2\.test_size: 1 is greater than or equal to"),
    ({"type": "kfold"}, r"experiments\.tiny\.splits\.cv2: 'k' is a required"),
    ({"type": "loo"}, r"experiments\.tiny\.splits\.cv2\.type: 'loo' is not one of "
                      r"kfold, holdout, given"),
])
def test_u7_split_errors_are_specific(split, message):
    from mlfsbench.workflow.config import check_config

    with pytest.raises(ValueError, match=r"^c\.yaml: " + message):
        check_config(_config(**split), "c.yaml")


@pytest.mark.parametrize(("key", "name", "suggestion"), [
    ("selectors", "mim_br", "mim-br"),
    ("selectors", "mimbr", "mim-br"),
    ("classifiers", "ml-knn", "mlknn"),
    ("classifiers", "MLkNN", "mlknn"),
])
def test_u7_misspelt_method_names_get_a_suggestion(key, name, suggestion):
    from mlfsbench.workflow.checks import check_methods
    from mlfsbench.workflow.config import check_config

    config = _config()
    config["experiments"]["tiny"][key][0]["name"] = name
    with pytest.raises(ValueError, match=rf"{name!r}.*did you mean '{suggestion}'"):
        check_config(config, "c.yaml")
        check_methods(config["experiments"]["tiny"])


def test_u7_cli_suggests_a_method_name(capsys, shared_datasets):
    from mlfsbench.cli import main

    folder = shared_datasets / "multi-label" / "emotions"
    assert main(["select", str(folder / "emotions.arff"), "--xml",
                 str(folder / "emotions.xml"), "--method", "mimbr"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "unknown selector 'mimbr'; did you mean 'mim-br'?" in err


def test_experiment_named_shared_is_refused():
    from mlfsbench.workflow.config import check_config

    config = _config()
    config["experiments"]["shared"] = config["experiments"].pop("tiny")
    with pytest.raises(ValueError, match=r"c\.yaml: experiment 'shared'.*results/"
                                         r"shared"):
        check_config(config, "c.yaml")


# ------------------------------------------------- splits, raw files, URLs
def test_u2_holdout_with_an_empty_test_part_is_refused():
    from mlfsbench.data.split import holdout_splits, make_splits

    Y = np.array([[1, 0], [0, 1]] * 50)
    with pytest.raises(ValueError, match=r"test_size 0\.001 of 100 instances: "
                                         r"repeat 0 has 0 test and 100 training"):
        holdout_splits(Y, 0.001, 2, random_state=0)
    with pytest.raises(ValueError, match=r"repeat 0 has 0 test"):
        make_splits({"type": "holdout", "test_size": 0.001, "repeats": 1}, Y)
    # Unstratified: at least one test instance, as documented.
    (train, test), = holdout_splits(Y, 0.001, 1, random_state=0, stratify=False)
    assert (len(train), len(test)) == (99, 1)


def test_u2_split_stage_names_dataset_and_protocol(tmp_path):
    import importlib.util

    from mlfsbench.data import Dataset

    from .conftest import REPO_ROOT

    spec = importlib.util.spec_from_file_location(
        "split_script", REPO_ROOT / "scripts" / "split.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data = tmp_path / "emotions.npz"
    Y = np.array([[1, 0], [0, 1]] * 50, dtype=np.uint8)
    Dataset("emotions", np.zeros((100, 1)), Y, ["f"], ["a", "b"]).save(data)
    protocol = {"type": "holdout", "test_size": 0.001, "seed": 0, "stratify": True}
    with pytest.raises(ValueError, match=r"emotions\.npz: split .*'holdout'.*"
                                         r"0\.001.*0 test and 100 training"):
        script.main(str(data), protocol, str(tmp_path / "s.npz"), [0])
    assert not (tmp_path / "s.npz").exists()


def test_u5_edited_table_checksum_says_the_table_changed(tmp_path):
    import hashlib

    from mlfsbench.data.rawfiles import RawFileChanged, verify_raw_files

    raw = _write(tmp_path, "whole.arff", "@relation good\n")
    good = hashlib.sha256(b"@relation good\n").hexdigest()
    record = tmp_path / "record.json"
    verify_raw_files([(raw, good)], record)
    edited = "0" * 64
    with pytest.raises(RawFileChanged) as info:
        verify_raw_files([(raw, edited)], record)
    message = str(info.value)
    assert message.startswith(f"{raw}: the datasets table's sha256 {edited} differs "
                              f"from the one the file was verified against "
                              f"({good})")
    assert "content changed" not in message


def test_u8_relative_file_url_is_resolved_against_the_working_directory(
        tmp_path, monkeypatch):
    import hashlib

    from mlfsbench.data.download import download

    data = b"@relation toy\n"
    (tmp_path / "cases").mkdir()
    _write(tmp_path, "cases/toy.arff", data)
    monkeypatch.chdir(tmp_path)
    sha = hashlib.sha256(data).hexdigest()
    for url in ("file://cases/toy.arff", "file:cases/toy.arff"):
        dest = download(url, tmp_path / "out" / "toy.arff", sha256=sha, name="toy")
        assert dest.read_bytes() == data


# ------------------------------------------------------------------- runner
def _fake_snakemake(folder, body):
    exe = folder / "fake_snakemake.py"
    exe.write_text("import signal, sys, time\n" + body)
    return exe


def _run_with(exe) -> str:
    """Python code running ``mlfsbench run`` with the fake Snakemake ``exe``.

    A run started under nohup inherits an ignored SIGHUP: the runner starts
    with the default disposition, as from a terminal's shell."""
    return ("import signal, sys\n"
            "signal.signal(signal.SIGHUP, signal.SIG_DFL)\n"
            "import mlfsbench.workflow.runner as runner\n"
            f"runner._snakemake_cmd = lambda: [sys.executable, {str(exe)!r}]\n"
            "from mlfsbench.cli import main\n"
            "sys.exit(main(['run', '--cores', '1']))\n")


def test_ctrl_c_of_mlfsbench_run_exits_130_after_cleanup(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    work = tmp_path / "w"
    work.mkdir()
    (work / "Snakefile").write_text("")
    exe = _fake_snakemake(tmp_path, (
        "if '--unlock' in sys.argv: sys.exit(0)\n"
        "def stop(signum, frame):\n"
        "    open('cleaned', 'w').write('yes')\n"
        "    sys.exit(1)\n"  # what Snakemake does after its cleanup
        "signal.signal(signal.SIGINT, stop)\n"
        "open('ready', 'w').write('')\n"
        "time.sleep(60)\n"))
    code = _run_with(exe)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=work,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not (work / "ready").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert (work / "cleaned").read_text() == "yes"
    assert "interrupted" in err


JOB = ("import signal, sys, time\n"
       "def stop(signum, frame):\n"
       "    open('job-stopped', 'w').write(signal.Signals(signum).name)\n"
       "    sys.exit(1)\n"
       "signal.signal(signal.SIGINT, stop)\n"
       "open('job-ready', 'w').write('')\n"
       "time.sleep(60)\n")


@pytest.mark.parametrize(("name", "status"), [("SIGTERM", 143), ("SIGINT", 130),
                                              ("SIGHUP", 129)])
def test_u5_a_signal_to_mlfsbench_run_alone_stops_its_jobs_as_ctrl_c(
        tmp_path, name, status):
    """Issue 38 U5: ``kill -TERM`` of ``mlfsbench run`` (its pid only, not
    its process group) was ignored for more than 90 s while a job ran:
    Snakemake's own stop on SIGTERM waits for the running jobs. The run now
    stops as a terminal's Ctrl-C does, SIGINT to Snakemake and its job."""
    import os
    import signal
    import subprocess
    import sys
    import time

    work = tmp_path / "w"
    work.mkdir()
    (work / "Snakefile").write_text("")
    (tmp_path / "job.py").write_text(JOB)
    # Snakemake's behaviour: SIGTERM waits for the running job; SIGINT
    # cancels, then waits for the job's end (a job it does not stop itself)
    exe = _fake_snakemake(tmp_path, (
        "import subprocess\n"
        "if '--unlock' in sys.argv: sys.exit(0)\n"
        f"job = subprocess.Popen([sys.executable, {str(tmp_path / 'job.py')!r}])\n"
        "got = []\n"
        "signal.signal(signal.SIGTERM, lambda s, f: got.append(s))\n"
        "signal.signal(signal.SIGINT, lambda s, f: got.append(s))\n"
        "while job.poll() is None:\n"
        "    time.sleep(0.05)\n"
        "if signal.SIGINT in got:\n"
        "    open('cleaned', 'w').write(str([signal.Signals(s).name for s in got]))\n"
        "    sys.exit(1)\n"))
    code = _run_with(exe)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=work,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # no terminal's group
    deadline = time.monotonic() + 30
    while not (work / "job-ready").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    start = time.monotonic()
    os.kill(proc.pid, getattr(signal, name))
    try:
        _, err = proc.communicate(timeout=20)  # the job would sleep 60 s
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert time.monotonic() - start < 20
    assert proc.returncode == status, err
    # one SIGINT each, as from a terminal: the job stopped, Snakemake cleaned up
    assert (work / "job-stopped").read_text() == "SIGINT"
    assert (work / "cleaned").read_text() == "['SIGINT']"
    assert f"interrupted by {name}; the run is incomplete" in err


def test_u6_stale_lock_and_config_error_reports_the_config_error(
        tmp_path, monkeypatch, capfd):
    import sys

    from mlfsbench.workflow.runner import run

    exe = _fake_snakemake(tmp_path, (
        "print('ValueError in file rules/common.smk, line 40:', file=sys.stderr)\n"
        "print(\"experiment 'x': dataset 'nope' is not in the datasets table\","
        " file=sys.stderr)\n"
        "sys.exit(1)\n"))
    monkeypatch.setattr("mlfsbench.workflow.runner._snakemake_cmd",
                        lambda: [sys.executable, str(exe)])
    work = tmp_path / "w"
    (work / ".snakemake" / "locks").mkdir(parents=True)
    (work / ".snakemake" / "locks" / "0.input.lock").write_text("x")
    (work / "Snakefile").write_text("")
    assert run(["--cores", "1"], workdir=work) == 1
    err = capfd.readouterr().err
    assert "dataset 'nope' is not in the datasets table" in err
    assert "returned non-zero exit status" not in err


def test_u7_schema_error_names_the_experiment_file(tmp_path):
    from mlfsbench.workflow.config import check_config, load_experiment_files

    body = DUPLICATE_SELECTORS.split("experiments:\n", 1)[1].replace(
        "    selectors:\n      - name: ppt-mi\n", "").replace("k: 2", "k: 1")
    path = _write(tmp_path, "exp.yaml", "experiments:\n" + body)
    config = load_experiment_files({"experiment_files": [str(path)]})
    with pytest.raises(ValueError, match=rf"^{re.escape(str(path))}: experiments\."
                                         r"tiny\.splits\.cv2\.k: 1 is less"):
        check_config(config, "main.yaml")
