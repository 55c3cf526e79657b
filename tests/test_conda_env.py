"""envs/mlfsbench.yaml, the rules' conda environment (``--sdm conda``),
checked without conda (CI has none): it names no path (Snakemake copies it
into .snakemake/conda/ before creating the environment, so a path relative
to it, such as ``-r requirements.lock`` or ``-e ..``, would point into that
folder), and it pins what envs/requirements.lock pins, and mlfsbench at
pyproject.toml's version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
ENV = REPO / "envs" / "mlfsbench.yaml"
LOCK = REPO / "envs" / "requirements.lock"


def pip_lines() -> list[str]:
    env = yaml.safe_load(ENV.read_text())
    (pip,) = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    return [str(line) for line in pip]


def test_the_env_names_no_path():
    for line in pip_lines():
        assert not line.startswith("-"), line  # -r FILE, -e DIR, --find-links
        assert "/" not in line and "\\" not in line and ".." not in line, line
        assert re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[A-Za-z0-9_.+!\-]+", line), line


def test_the_env_pins_the_lock_and_the_package_version():
    lock = [line for line in LOCK.read_text().splitlines()
            if line and not line.startswith("#")]
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "version"]
    assert pip_lines() == [*lock, f"mlfsbench=={version}"]
    # the same Python as the lock was made with
    python = re.search(r"\(Python (\d+\.\d+)\)", LOCK.read_text().splitlines()[0])[1]
    env = yaml.safe_load(ENV.read_text())
    assert f"python={python}" in env["dependencies"]
    assert env["channels"] == ["conda-forge", "nodefaults"]


def test_every_rule_uses_the_env():
    rules = {}
    for path in sorted((REPO / "rules").glob("*.smk")):
        text = path.read_text()
        for block in re.split(r"\n(?=rule \w+:)", text):
            name = re.match(r"rule (\w+):", block)
            if name:
                rules[name[1]] = re.findall(r"conda:\s*\n\s*\"([^\"]+)\"", block)
    assert len(rules) > 20
    assert {r: c for r, c in rules.items() if c != ["../envs/mlfsbench.yaml"]} == {}
