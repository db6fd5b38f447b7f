"""What a declaration can and cannot decide, before anything runs: foils that cannot be foils,
designs whose units cannot reach their Holm level, claims placed in the abstract but not filed as
the paper's. The contract tests call these on every benchmark."""
from __future__ import annotations

import math

from ..api import Benchmark, Claim, fields_of
from ..checks import (Better, BetterDiff, Equivalent, Growth, Rank, Ratio, Slope, SlopeDiff,
                      Value, other_roles)
from .dispatch import subject_of
from .evidence import _matches
from .outcome import ALPHA

UNJUDGED = ("exact", "not_run")  # kinds outside the Holm family


def role_conflicts(claim: Claim) -> list[str]:
    """Foils the check already names in another role (Y against Y)."""
    if claim.check.kind == "not_run":
        return []
    roles = other_roles(claim.check, subject_of(claim))
    return [f for f in claim.foils if f in roles]


def equal_mutants(bench: Benchmark, claim: Claim) -> list[str]:
    """Foils whose class and parameters equal the subject's in some grid (the subject under a new
    label)."""
    subject, out = subject_of(claim), []
    for g in bench.grids.values():
        configs = {c.label: c for c in bench.method_configs(g)}
        s = configs.get(subject)
        for f in claim.foils:
            c = configs.get(f)
            if s is not None and c is not None and c.cls is s.cls and dict(c.params) == dict(s.params):
                out.append(f)
    return sorted(set(out))


def misplaced(claim: Claim) -> bool:
    """Placed in the abstract but not filed as the paper's claim (nor as ours by construction)."""
    return "abstract" in claim.where.lower() and claim.source != "paper" \
        and claim.basis != "construction"


def _rows(bench: Benchmark, grid: str) -> list[dict]:
    """One pseudo-row per dataset config of the grid (its full parameters), for scoping."""
    out = []
    for c in bench.grids[grid].datasets:
        try:
            params = fields_of(c.build())
        except Exception:  # a config that cannot be built here: its overrides alone
            params = dict(c.params)
        out.append({"dataset": c.label, "dataset_params": params})
    return out


def units(bench: Benchmark, where, grid: str = "quick") -> int:
    """Units of replication the grid gives a scope."""
    g = bench.grids[grid]
    rows = [r for r in _rows(bench, grid) if _matches(r, dict(where or {}))]
    if not bench.unit:
        return len(rows) * g.seeds
    keys = {tuple(repr(r["dataset_params"].get(u)) for u in bench.unit if u != "seed")
            for r in rows}
    return len(keys) * g.seeds if rows else 0


def p_floor(bench: Benchmark, claim: Claim, grid: str = "quick") -> float:
    """The smallest p-value the grid's units allow this claim's test to reach."""
    c = claim.check
    n = units(bench, getattr(c, "where", {}), grid)
    if isinstance(c, Better):
        return 0.5 ** n
    if isinstance(c, Value):
        if c.stat == "mean":
            return 0.0 if n >= 2 else 1.0
        lo, hi = c.bounds()
        existential = (c.stat == "max" and math.isinf(hi)) or (c.stat == "min" and math.isinf(lo))
        return 0.0 if existential else 0.5 ** n
    if isinstance(c, (Ratio, Equivalent)):
        return 0.0 if n >= 2 else 1.0
    if isinstance(c, Slope):
        return 0.0 if n >= 3 else 1.0
    if isinstance(c, (SlopeDiff, BetterDiff)):
        m = units(bench, c.other_where if c.other_where is not None else c.where, grid)
        return 0.0 if min(n, m) >= 2 else 1.0
    if isinstance(c, Growth):
        return 1.0 / math.factorial(n) if n else 1.0
    if isinstance(c, Rank):
        ranked = set(c.among) | {c.method} if c.among else {
            m.label for m in bench.method_configs(bench.grids[grid])}
        others = len(ranked) - 1
        return min(1.0, max(1, others) * 0.5 ** n)
    return 0.0


def family_size(bench: Benchmark, grid: str = "quick") -> int:
    return sum(1 for c in bench.claims if c.check.kind not in UNJUDGED
               and (not c.grids or grid in c.grids))


def undecidable(bench: Benchmark, grid: str = "quick") -> list[tuple[str, float, float]]:
    """(claim id, p floor, worst-case Holm level) of every claim judged on ``grid`` whose units
    cannot reach its worst-case Holm level alpha / family size."""
    level = ALPHA / max(1, family_size(bench, grid))
    out = []
    for c in bench.claims:
        if c.check.kind in UNJUDGED or (c.grids and grid not in c.grids):
            continue
        floor = p_floor(bench, c, grid)
        if floor >= level:
            out.append((c.id, floor, level))
    return out
