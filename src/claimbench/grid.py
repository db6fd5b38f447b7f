"""Expanding a benchmark's grid into cells, with seeds derived from a stable hash."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .api import Benchmark, Config


def stable_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=repr)


def stable_hash(*parts: Any, n: int = 16) -> str:
    return hashlib.blake2b(stable_json(parts).encode(), digest_size=n).hexdigest()


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from a stable hash of ``parts`` (never Python's salted ``hash()``)."""
    return int(stable_hash(*parts, n=8), 16) >> 1


@dataclass(frozen=True)
class Cell:
    slug: str
    dataset: Config
    method: Config
    rep: int  # replicate index 0..seeds-1
    external: bool = False
    method_ref: str = ""  # "file.py:Class" for an external method
    model: str = ""  # the method's model identity (JSON) for a method with a model field

    # Computed once per cell (the fields are frozen): the harness reads them several times a
    # cell, on both sides of the pipe.
    @cached_property
    def data_seed(self) -> int:
        # Depends on the dataset and replicate only: every method sees the same instance.
        return derive_seed(self.slug, self.dataset.label, self.dataset.params, self.rep)

    @cached_property
    def method_seed(self) -> int:
        # Common random numbers across methods, distinct from the data stream.
        return derive_seed("method", self.data_seed)

    @cached_property
    def identity(self) -> str:
        parts = (self.slug, self.dataset.label, self.dataset.params,
                 self.method.label, self.method.params, self.rep, self.external)
        # Only methods with a model carry its identity, so every other key is unchanged.
        return stable_hash(*parts, self.model) if self.model else stable_hash(*parts)


def expand(bench: Benchmark, grid_name: str, *, seeds: int | None = None,
           methods: tuple[Config, ...] | None = None, datasets: tuple[Config, ...] | None = None,
           external: bool = False, method_ref: str = "") -> list[Cell]:
    grid = bench.grids[grid_name]
    n_seeds = grid.seeds if seeds is None else seeds
    mcfgs = bench.method_configs(grid) if methods is None else methods
    dcfgs = grid.datasets if datasets is None else datasets
    # Dataset-major, seed, then method: consecutive cells share an instance (worker cache).
    return [Cell(bench.slug, d, m, r, external, method_ref)
            for d in dcfgs for r in range(n_seeds) for m in mcfgs]


def grid_rows(bench: Benchmark, rows: list[dict], grid: str | None = None) -> tuple[str, list[dict]]:
    """The stored rows that belong to one grid of ``bench``, and that grid's name.

    A row belongs when its dataset (label and parameters) and its method (label and parameters)
    are configs the grid declares now, at any seed; rows of a BYO (external) method always
    belong. This drops rows a store keeps from earlier declarations (a method whose parameters
    changed under the same label) and keeps two grids that reuse a label with other parameters
    (a smaller smoke model) apart. ``grid=None`` picks the grid with the most rows, the larger
    grid on a tie.
    """
    def keys(g: str):
        gr = bench.grids[g]
        ds = {(c.label, stable_json(c.params)) for c in gr.datasets}
        ms = {(c.label, stable_json(c.params)) for c in bench.method_configs(gr)}
        return ds, ms

    def select(g: str) -> list[dict]:
        ds, ms = keys(g)
        return [r for r in rows if r.get("external") or (
            (r["dataset"], stable_json(r["dataset_params"])) in ds
            and (r["method"], stable_json(r["method_params"])) in ms)]

    if grid is not None:
        return grid, newest_model(select(grid))
    best = max(("full", "quick", "smoke"), key=lambda g: len(select(g)))
    return best, newest_model(select(best))


def newest_model(rows: list[dict]) -> list[dict]:
    """Rows of a method config whose model's identity changed (new weights behind one ``hf:``
    path, another server) are never pooled: keep the identity of its newest row."""
    newest: dict[tuple, tuple[float, str]] = {}
    for r in rows:
        if r.get("model"):
            key = (r["method"], stable_json(r["method_params"]))
            t = r.get("finished_at") or 0.0
            if key not in newest or t > newest[key][0]:
                newest[key] = (t, r["model"])
    if not newest:
        return rows
    return [r for r in rows if not r.get("model")
            or newest[(r["method"], stable_json(r["method_params"]))][1] == r["model"]]
