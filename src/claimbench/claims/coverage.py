"""Which of the abstract's checkable statements (a benchmark's ``headlines``) are checked."""
from __future__ import annotations

from ..api import Benchmark
from .result import ClaimResult


def coverage(bench: Benchmark) -> tuple[int, int]:
    """(headlines mapped to at least one claim, headlines declared)."""
    ids = {c.id for c in bench.claims}
    return sum(1 for h in bench.headlines if any(c in ids for c in h.claims)), len(bench.headlines)


def coverage_text(bench: Benchmark) -> str:
    k, n = coverage(bench)
    return f"{k} of {n}" if n else "not declared"


def headline_rows(bench: Benchmark, results: list[ClaimResult]) -> list[list[str]]:
    """One row per headline: its words, the claims that check it, their verdicts."""
    by_id = {r.claim: r for r in results}
    rows = []
    for h in bench.headlines:
        mapped = [c for c in h.claims if c in by_id]
        if not mapped:
            rows.append([h.quote, "—", "not checked"])
            continue
        verdicts = []
        for c in mapped:
            r = by_id[c]
            v = r.verdict + (" (post hoc)" if r.post_hoc else "")
            verdicts.append(f"{c}: {v}")
        rows.append([h.quote, ", ".join(mapped), "; ".join(verdicts)])
    return rows
