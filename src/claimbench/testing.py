"""Helpers for tests: run a benchmark grid in-process, without a store."""
from __future__ import annotations

from .api import Benchmark
from .grid import expand
from .worker import execute, limit_threads


def run_grid_inline(bench: Benchmark, grid_name: str = "smoke", seeds: int | None = None) -> list[dict]:
    """Run every cell of a grid in this process, exactly as a worker would; one dict per cell
    with the cell, its status, metrics, traces and the method's raw outputs."""
    limit_threads()  # as in the runner's workers: BLAS oversubscription distorts timings
    return [{"cell": cell, **execute(bench, cell, keep_outputs=True)}
            for cell in expand(bench, grid_name, seeds=seeds)]
