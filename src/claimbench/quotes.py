"""The paper's own words: a ``paper`` claim placed in the abstract quotes the ICML 2026 abstract
verbatim (``claimbench/abstracts/<slug>.txt``). Matching ignores case, spacing, quotes, dashes and
TeX (letters, digits and % only); "..." inside a quote splits it into parts that must each
appear. Mirrors the project's shared ``check_quotes.py``."""
from __future__ import annotations

import re
from pathlib import Path

ABSTRACTS = Path(__file__).resolve().parent / "abstracts"
_QUOTE = re.compile(r'"([^"]{8,})"|\u201c([^\u201d]{8,})\u201d')


def norm(s: str) -> str:
    s = s.lower().replace("\u00d7", "x").replace("\\times", "x")
    return re.sub(r"[^a-z0-9%]", "", s)


def abstract(slug: str) -> str | None:
    path = ABSTRACTS / f"{slug}.txt"
    return path.read_text(encoding="utf-8") if path.exists() else None


def quoted(text: str) -> list[str]:
    return [a or b for a, b in _QUOTE.findall(text)]


def missing_words(text: str, source: str) -> list[str]:
    """The quoted spans of ``text`` (each part of at least 8 letters) not in ``source``."""
    src = norm(source)
    out = []
    for span in quoted(text):
        for part in re.split(r"\.\.\.|\u2026", span):
            if len(norm(part)) >= 8 and norm(part) not in src:
                out.append(" ".join(part.split()))
    return out


def misquoted(bench, text: str | None = None) -> list[tuple[str, str]]:
    """(claim id, problem) for every paper claim placed in the abstract that quotes nothing, or
    quotes words the abstract does not contain; headlines must be the abstract's words too."""
    text = abstract(bench.slug) if text is None else text
    if text is None:
        return []
    out = []
    for c in bench.claims:
        if c.source != "paper" or "abstract" not in c.where.lower():
            continue
        if not quoted(c.paper_value):
            out.append((c.id, "quotes nothing of the abstract"))
        for words in missing_words(c.paper_value, text):
            out.append((c.id, f"not in the abstract: {words[:90]!r}"))
    for h in bench.headlines:
        if len(norm(h.quote)) >= 8 and norm(h.quote) not in norm(text):
            out.append(("headline", f"not in the abstract: {h.quote[:90]!r}"))
    return out
