# One-command entry points. `make reproduce` runs the default experiment;
# `make test` runs every check CI runs. Both create .venv/ from the pins first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= all
SNAKEMAKE_ARGS ?=

.PHONY: venv reproduce quick league report test lint unit bench lock conda-env

$(BIN)/activate: envs/requirements.lock pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python >= 3.11 required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r envs/requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(BIN)/activate

venv: $(BIN)/activate

# A dataset that cannot be obtained leaves the rest to run (and the report
# to be written); the run then exits non-zero, its last lines naming it.
reproduce: venv
	$(BIN)/mlfsbench run --cores $(CORES) --report results/report.html $(SNAKEMAKE_ARGS)

quick: venv
	$(BIN)/mlfsbench run --cores $(CORES) --configfile config/quick.yaml --report results/report.html $(SNAKEMAKE_ARGS)

# The league (config/league.yaml): every method under every study's protocol;
# what the reproduction ran is reused. Its page: results/league/league.html.
league: venv
	$(BIN)/mlfsbench league --cores $(CORES) $(SNAKEMAKE_ARGS)

report: venv
	$(BIN)/snakemake --report results/report.html $(SNAKEMAKE_ARGS)

lint: venv
	$(BIN)/ruff check src tests scripts bench setup.py
	$(BIN)/snakefmt --check Snakefile rules
	$(BIN)/mypy src/mlfsbench/workflow src/mlfsbench/report
	$(BIN)/snakemake --lint --configfile config/tiny.yaml
	$(BIN)/snakemake --lint

unit: venv
	$(BIN)/pytest -m "not workflow and not slow"

test: venv lint
	$(BIN)/pytest

bench: venv
	$(BIN)/python bench/run_all.py

lock:
	$(PYTHON) -m venv /tmp/mlfsbench-lock && /tmp/mlfsbench-lock/bin/pip install -q -r envs/requirements.in
	(echo "# Full pinned environment (Python 3.11). Generated from envs/requirements.in by \`make lock\`."; \
	 /tmp/mlfsbench-lock/bin/pip freeze --all | grep -v "^pip==") > envs/requirements.lock
	$(MAKE) conda-env

# envs/mlfsbench.yaml, for `snakemake --sdm conda`: the lock's pins inline and
# the package at its version (tests/test_conda_env.py checks they agree).
# Snakemake copies the file into .snakemake/conda/, so it names no path.
conda-env:
	version=$$($(PYTHON) -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])"); \
	(echo "# Conda environment of the rules under \`snakemake --sdm conda\` (\`conda:\` of"; \
	 echo "# every rule). Written by \`make conda-env\` (and \`make lock\`) from"; \
	 echo "# envs/requirements.lock: the same pins, inline, and mlfsbench itself at the"; \
	 echo "# version of pyproject.toml, from an index or from a folder of wheels named"; \
	 echo "# by PIP_FIND_LINKS (docs/cluster.md). Snakemake copies this file into"; \
	 echo "# .snakemake/conda/ before creating the environment: it names no path."; \
	 echo "name: mlfsbench"; \
	 echo "channels:"; echo "  - conda-forge"; echo "  - nodefaults"; \
	 echo "dependencies:"; echo "  - python=3.11"; echo "  - pip"; echo "  - pip:"; \
	 grep -v "^#" envs/requirements.lock | sed "s/^/      - /"; \
	 echo "      - mlfsbench==$$version") > envs/mlfsbench.yaml
