"""The quick suite's CPU budget and each benchmark's share of it.

The brief: the quick grids of every paper fit 30 minutes of wall time on 2 cores, and a
benchmark that needs more says why. The share is the budget's CPU split evenly over the
registered benchmarks; a benchmark whose committed quick cells (``reports/cost.json``) took more
declares ``cost_note``: which claims read its expensive cells and why a smaller scale would not
show the paper's effect. ``make perf`` prints the notes beside the CPU table.
"""
from __future__ import annotations

import json
from pathlib import Path

from .committed import COST

SUITE_WALL_S = 30 * 60  # the brief: the quick suite fits 30 minutes ...
SUITE_CORES = 2  # ... on 2 cores


def share_cpu_s(n_benchmarks: int) -> float:
    """One benchmark's even share of the suite's CPU budget, in CPU-seconds."""
    if n_benchmarks < 1:
        raise ValueError(f"n_benchmarks={n_benchmarks}; need at least 1")
    return SUITE_WALL_S * SUITE_CORES / n_benchmarks


def committed_cpu_s(path: Path = COST) -> dict[str, float]:
    """slug -> CPU-seconds of its committed quick cells ({} before the first report)."""
    return json.loads(path.read_text()) if path.exists() else {}


def over_share(slugs: list[str], cpu: dict[str, float]) -> dict[str, float]:
    """slug -> CPU-seconds, for the benchmarks whose quick cells took more than their share."""
    share = share_cpu_s(len(slugs))
    return {s: cpu[s] for s in slugs if cpu.get(s, 0.0) > share}


def readers(bench) -> dict[str, list[str]]:
    """Method label of the quick grid -> ids of the claims and premises that read its cells (as
    subject, foil or a method their check names; a rank over every method reads them all; a
    claim judged on other grids only reads none). A label no one reads feeds only the tables."""
    from .checks import methods_read
    from .claims.dispatch import subject_of

    labels = [c.label for c in bench.method_configs(bench.grids["quick"])]
    out: dict[str, list[str]] = {label: [] for label in labels}
    for c in bench.claims:
        if c.check.kind == "not_run" or (c.grids and "quick" not in c.grids):
            continue  # judged on another grid only: it reads no quick cell
        named = {subject_of(c), *c.foils} | methods_read(c.check, labels)
        for label in labels:
            if label in named:
                out[label].append(c.id)
    for p in bench.premises:
        named = methods_read(p.check, labels)
        for label in labels:
            if label in named:
                out[label].append(p.id)
    return out
