"""Helpers for tests: run a benchmark grid in-process, without a store."""
from __future__ import annotations

from .api import Benchmark
from .grid import expand


def run_grid_inline(bench: Benchmark, grid_name: str = "smoke", seeds: int | None = None) -> list[dict]:
    """Run every cell of a grid in this process; return one dict per cell (metrics and outputs)."""
    from .worker import limit_threads

    limit_threads()  # as in the runner's workers: BLAS oversubscription distorts timings
    rows = []
    cache: dict = {}
    for cell in expand(bench, grid_name, seeds=seeds):
        key = (cell.dataset, cell.rep)
        if key not in cache:
            cache.clear()
            dataset = cell.dataset.build()
            cache[key] = (dataset, dataset.make(cell.data_seed))
        dataset, inst = cache[key]
        method = cell.method.build()
        reason = method.applies_to(dataset)
        if reason:
            rows.append({"cell": cell, "status": "not_applicable", "reason": reason, "metrics": {}})
            continue
        out = method.run(inst.data, cell.method_seed)
        metrics = {m.name: m.fn(inst, out) for m in bench.metrics}
        rows.append({"cell": cell, "status": "ok", "metrics": metrics, "outputs": out})
    return rows
