"""The code version of every rule, derived from what its script imports.

The Snakemake dry runs that show which jobs an edit reruns are in
tests/test_workflow.py (``test_code_edits_rerun_the_jobs_that_depend_on_them``);
these tests check the derivation itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlfsbench.workflow.versions import (
    reached,
    rule_version,
)

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "scripts"
JMI = "mlfsbench.estimators.selectors.jmi"
MIM = "mlfsbench.estimators.selectors.mim"


def of_script(name: str) -> list[str]:
    return reached(script=SCRIPTS / name)


def test_an_estimator_reaches_what_it_imports_only():
    modules = reached((JMI, None))
    assert JMI in modules
    assert "mlfsbench.estimators.information.entropy" in modules
    assert "mlfsbench.evaluation.metrics" not in modules
    assert MIM not in modules
    assert rule_version(str(SCRIPTS / "select.py"), JMI) != \
        rule_version(str(SCRIPTS / "select.py"), MIM)


def test_each_stage_follows_the_names_its_function_uses():
    # one stages module, but only the classify jobs use the metrics
    assert "mlfsbench.evaluation.metrics" in of_script("classify.py")
    for script in ("select.py", "split.py", "prepare.py", "discretize.py"):
        assert "mlfsbench.evaluation.metrics" not in of_script(script), script
    assert "mlfsbench.data.split" in of_script("split.py")
    assert "mlfsbench.data.split" not in of_script("select.py")
    # selectors are reached by registry name: the job adds its own
    select = of_script("select.py")
    assert not [m for m in select if m.startswith("mlfsbench.estimators.selectors.")
                and not m.endswith("._base")]
    # logging writes no output
    assert not [s for s in SCRIPTS.glob("*.py")
                if "mlfsbench.workflow.logutil" in of_script(s.name)]


def test_the_cd_diagram_concerns_the_stats_rule_only():
    drawing = [s.name for s in sorted(SCRIPTS.glob("*.py"))
               if "mlfsbench.report.cd_diagram" in of_script(s.name)]
    # and the challenge pages and the league page
    assert drawing == ["challenge.py", "league.py", "stats.py"]
    claims = of_script("claims.py")
    assert "mlfsbench.report.claims.evaluate" in claims
    # every rule of the package: a rule's edit reruns the claims jobs
    assert "mlfsbench.report.claims.rules.value" in claims
    assert "mlfsbench.report.compare" in claims  # stats among a subset
    users = [s.name for s in sorted(SCRIPTS.glob("*.py"))
             if any(m.startswith("mlfsbench.report.claims")
                    for m in of_script(s.name))]
    # the summary page links each claim to its evidence through the claims
    # module's reading of a claim's quantity
    assert users == ["claims.py", "summary.py"]


def test_a_script_reaches_only_the_modules_it_names(tmp_path):
    script = tmp_path / "adapter.py"
    script.write_text("from mlfsbench.report.names import display_name\n"
                      "print(display_name('a', None))\n")
    assert reached(script=script) == ["mlfsbench.report.names"]
    # a name used through `module.attribute` reaches that definition only
    script.write_text("from mlfsbench import io\nio.format_table\n")
    assert reached(script=script) == ["mlfsbench.io"]
    script.write_text("import mlfsbench.data.split as s\ns.n_folds\n")
    assert reached(script=script) == ["mlfsbench.data.split"]
    before = rule_version(str(script))
    script.write_text("import mlfsbench.data.split as s\n# a comment\ns.n_folds\n")
    rule_version.cache_clear()
    assert rule_version(str(script)) == before
    script.write_text("import mlfsbench.data.split as s\ns.n_folds()\n")
    rule_version.cache_clear()
    assert rule_version(str(script)) != before


RULE = re.compile(r"^rule (\w+):\n(.*?)(?=^rule |\Z)", re.M | re.S)


@pytest.mark.parametrize("smk", sorted((REPO / "rules").glob("*.smk")),
                         ids=lambda p: p.name)
def test_every_rule_versions_the_script_it_runs(smk):
    """Each rule's ``code=`` names its own script (download excepted: its
    output is protected and identified by its checksum)."""
    for name, body in RULE.findall(smk.read_text()):
        script = re.search(r'script:\s*"\.\./scripts/(\w+\.py)"', body)
        assert script, name
        code = re.search(r'code=code\("(\w+\.py)"', body)
        if name == "download":
            assert code is None
            continue
        assert code, f"rule {name} passes no code="
        assert code[1] == script[1], name


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """A package of two modules standing in for ``mlfsbench`` (its modules
    ``mlfsbench.a`` and ``mlfsbench.b``), and a script that uses ``a.run``;
    ``version()`` is the script's rule version, caches cleared."""
    from mlfsbench.workflow import versions

    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    script = tmp_path / "job.py"
    script.write_text("from mlfsbench.a import run\nrun()\n")

    def clear():
        for f in (versions.module_file, versions._parsed, versions.rule_version):
            f.cache_clear()

    monkeypatch.setattr(versions, "_ROOT", root)
    clear()

    def version(*estimators):
        clear()
        return versions.rule_version(str(script), *estimators)

    yield root, version
    monkeypatch.undo()
    clear()


A = '''SCALE = 2


def helper(x):
    return SCALE * x


def run():
    return helper(1)


def unused():
    return 0
'''


def test_a_version_follows_the_definitions_reached_not_whole_modules(fake_package):
    root, version = fake_package
    (root / "a.py").write_text(A)
    before = version()
    # an unreached definition of a reached module: nothing reruns
    (root / "a.py").write_text(A.replace("return 0", "return 1"))
    assert version() == before
    # a reached one, or a constant it reads: the jobs rerun
    (root / "a.py").write_text(A.replace("SCALE * x", "SCALE + x"))
    assert version() != before
    (root / "a.py").write_text(A.replace("SCALE = 2", "SCALE = 3"))
    assert version() != before
    # a statement that defines no name counts with every definition
    (root / "a.py").write_text(A + "\nprint('loaded')\n")
    assert version() != before
    # a documentation edit: nothing
    documented = A.replace("def run():\n", 'def run():\n    """Run."""\n')
    (root / "a.py").write_text(documented)
    assert version() == before


def test_a_definition_moved_to_another_module_reruns_nothing(fake_package):
    root, version = fake_package
    (root / "a.py").write_text(A)
    before = version()
    # helper and the constant it reads move to b; a imports them
    (root / "b.py").write_text("SCALE = 2\n\n\ndef helper(x):\n    return SCALE * x\n")
    moved = A.replace("SCALE = 2\n\n\ndef helper(x):\n    return SCALE * x\n", "")
    (root / "a.py").write_text("from mlfsbench.b import helper\n" + moved)
    assert version() == before
    # ... and edited there: the jobs rerun
    (root / "b.py").write_text("SCALE = 2\n\n\ndef helper(x):\n    return SCALE - x\n")
    assert version() != before


def test_an_estimators_module_counts_whole(fake_package):
    root, version = fake_package
    (root / "a.py").write_text(A)
    est = "def fit():\n    return 1\n\n\ndef spare():\n    return 2\n"
    (root / "est.py").write_text(est)
    before = version("mlfsbench.est")
    (root / "est.py").write_text(est.replace("return 2", "return 3"))
    assert version("mlfsbench.est") != before
