"""Send cells to a Dask cluster. The coordinator (this process) still writes the store.

Each Dask task runs its cell in a forked child through the same pool as the local executor,
so a hanging cell is killed at the timeout, a crash or an abort is a ``crashed`` row, and the
memory cap applies per cell, exactly as on one machine. Cells travel in a portable form: an
external method (``file.py:Class``) is re-loaded from its path on the worker.
"""
from __future__ import annotations

from typing import Iterator, Sequence

from .api import Config
from .grid import Cell


def _portable(cell: Cell) -> tuple:
    method = (cell.method.label, cell.method.params, cell.method_ref) if cell.external \
        else cell.method
    return (cell.slug, cell.dataset, method, cell.rep, cell.external, cell.method_ref)


def _restore(t: tuple) -> Cell:
    slug, dataset, method, rep, external, ref = t
    if external:
        from .runner import load_external

        label, params, ref = method
        method = Config(load_external(ref), params, label)
    return Cell(slug, dataset, method, rep, external, ref)


def _task(bench, portable: tuple, timeout: float | None, max_memory_mb: float | None) -> dict:
    import multiprocessing as mp

    from .pool import run_pool

    cell = _restore(portable)
    # Dask's worker processes are daemonic, and multiprocessing refuses children of a
    # daemon; our child is short-lived and always reaped by run_pool, so lift the flag.
    proc = mp.current_process()
    was = proc._config.get("daemon")
    proc._config["daemon"] = False
    try:
        ((_, res),) = list(run_pool([cell], {cell.slug: bench}, [0], 1, timeout, max_memory_mb))
    finally:
        if was is not None:
            proc._config["daemon"] = was
    return res


def run_dask(cells: Sequence[Cell], benches: dict, *, jobs: int = 2, timeout: float | None = None,
             max_memory_mb: float | None = None, scheduler: str | None = None
             ) -> Iterator[tuple[int, dict]]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - dask ships with the project's dependencies
        from .errors import UserError

        raise UserError("--executor dask needs dask[distributed]: pip install 'dask[distributed]'") from exc
    cluster = None
    if scheduler:
        client = Client(scheduler, timeout=30)
    else:
        cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        shared = {slug: client.scatter(b, broadcast=True) for slug, b in benches.items()}
        futures = {}
        for i, cell in enumerate(cells):
            # pure=False: identical cells submitted again must run again, not be deduplicated.
            fut = client.submit(_task, shared[cell.slug], _portable(cell), timeout,
                                max_memory_mb, pure=False)
            futures[fut] = i
        for fut in as_completed(futures):
            i = futures[fut]
            try:
                res = fut.result()
            except Exception as exc:  # the Dask worker itself died (KilledWorker and the like)
                res = {"status": "crashed", "error": f"dask: {type(exc).__name__}: {exc}",
                       "metrics": {}, "traces": {}, "wall_s": None, "cpu_s": None,
                       "peak_mem_mb": None}
            yield i, res
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
