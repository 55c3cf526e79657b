"""The files that say how to cite and license the project agree with the
package and with the papers it reproduces."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path

import pytest
import yaml

import mlfsbench

REPO = Path(__file__).resolve().parents[1]
PAPERS = REPO.parent / "shared" / "papers"


def citation() -> dict:
    return yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))


def test_one_version_and_licence_everywhere():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    cff = citation()
    assert cff["version"] == project["version"] == mlfsbench.__version__
    assert cff["license"] == project["license"] == "BSD-3-Clause"
    assert (REPO / "LICENSE").read_text().startswith("BSD 3-Clause License")
    assert f"({mlfsbench.__version__})" in (REPO / "CHANGELOG.md").read_text()


def _words(text: str) -> str:
    """Lower-case ASCII words (accents dropped) joined by one space."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z]+", text.lower()))


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the papers' texts are not here")
def test_each_reference_is_one_of_the_five_papers():
    """Each reference's title opens one paper's text (its first 1 000
    characters: the papers cite each other further on) and its first
    author's family name is in it; each paper has one reference."""
    texts = {p.name: _words(p.read_text(encoding="utf-8"))
             for p in PAPERS.glob("*.txt")}
    matched = []
    for ref in citation()["references"]:
        title = _words(ref["title"])
        family = _words(ref["authors"][0]["family-names"]).replace(" ", "")
        hits = [name for name, text in texts.items()
                if title in text[:1000] and family in text.replace(" ", "")]
        assert len(hits) == 1, (ref["title"], hits)
        matched += hits
    assert sorted(matched) == sorted(texts)
