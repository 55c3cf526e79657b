"""The wheel carries the workflow: ``build_py`` copies the Snakefile, rules,
scripts, configs, report captions, profiles and environment files (kept at
the top of the repository, :mod:`mlfsbench.workflow.bundle`) into the built
package as ``mlfsbench/_workflow/``, from which ``mlfsbench init`` writes
them out. An editable install copies nothing: it runs the checkout's own.
Everything else about the package is in pyproject.toml; MANIFEST.in puts the
same files into the source distribution."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _bundle():
    """:mod:`mlfsbench.workflow.bundle` by its path (it imports only the
    standard library; the package's dependencies need not be installed)."""
    path = HERE / "src" / "mlfsbench" / "workflow" / "bundle.py"
    spec = importlib.util.spec_from_file_location("_mlfsbench_bundle", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithWorkflow(build_py):
    """``build_py``, then the workflow's files into ``mlfsbench/_workflow/``."""

    def run(self):
        super().run()
        if self.editable_mode:
            return
        bundle = _bundle()
        target = Path(self.build_lib, "mlfsbench", bundle.PACKAGED)
        for rel in bundle.workflow_files(HERE):
            self.mkpath(str((target / rel).parent))
            self.copy_file(str(HERE / rel), str(target / rel))


setup(cmdclass={"build_py": BuildPyWithWorkflow})
