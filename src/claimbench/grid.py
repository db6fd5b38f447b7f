"""Expanding a benchmark's grid into cells, with seeds derived from a stable hash."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
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

    @property
    def data_seed(self) -> int:
        # Depends on the dataset and replicate only: every method sees the same instance.
        return derive_seed(self.slug, self.dataset.label, self.dataset.params, self.rep)

    @property
    def method_seed(self) -> int:
        # Common random numbers across methods, distinct from the data stream.
        return derive_seed("method", self.data_seed)

    @property
    def identity(self) -> str:
        return stable_hash(self.slug, self.dataset.label, self.dataset.params,
                           self.method.label, self.method.params, self.rep, self.external)


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
