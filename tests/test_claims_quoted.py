"""Every shipped claim quotes its paper (issue 34): the sentence, where it
stands, and no claim counted twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlfsbench.report.claims import load_claims

REPO = Path(__file__).resolve().parents[1]
PAPERS = ["doquire2013", "lee2016", "li2017", "sechidis2019", "spolaor2013"]
TEXTS = {p: next((REPO.parent / "shared" / "papers").glob(f"{p}_*.txt"), None)
         for p in PAPERS}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]{4,}", text.lower())


@pytest.mark.parametrize("paper", PAPERS)
def test_every_shipped_claim_quotes_the_paper_and_names_where(paper):
    data = load_claims(REPO / "config" / "papers" / f"{paper}.claims.yaml")
    for c in data["claims"]:
        assert c.get("quote", "").strip(), c["id"]
        assert re.search(r"(Sec\.|Table|Fig|Eq\.|Abstract|Conclusion|Algorithm)",
                         c["source"]), (c["id"], c["source"])
    # no two claims judge the same quantity with the same rule and outcome
    seen = {}
    for c in data["claims"]:
        key = (c["rule"], repr(sorted((c.get("quantity") or {}).items())),
               repr(c.get("paper")), c.get("experiment", data["experiment"]))
        assert key not in seen, f"{c['id']} repeats {seen[key]}"
        seen[key] = c["id"]


@pytest.mark.parametrize("paper", PAPERS)
def test_the_quotes_are_the_papers_words(paper):
    """Most of a quote's words occur in the paper's text (the extracted
    text renders formulas and symbols differently, so not all)."""
    text = TEXTS[paper]
    if text is None:
        pytest.skip("the papers' texts are not next to the repository")
    vocabulary = set(_words(text.read_text(encoding="utf-8")))
    data = load_claims(REPO / "config" / "papers" / f"{paper}.claims.yaml")
    for c in data["claims"]:
        words = _words(c["quote"])
        if not words:
            continue
        found = sum(w in vocabulary for w in words) / len(words)
        assert found >= 0.9, (c["id"], round(found, 2))
