"""Posted prices for an additive buyer: one price per good (separate) or one for the grand bundle.

The price is chosen by grid search on the training sample (empirical revenue maximisation).
The result is returned as a permutation-symmetric menu so that it is evaluated by the same
hard-max routine as the learned menus: separate pricing at p = {any k goods for k p}, which an
additive buyer resolves by buying exactly the goods worth more than p.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def best_price(totals: np.ndarray, grid: np.ndarray) -> tuple[float, float]:
    """argmax_p p * P(total >= p) on a sample of totals; returns (price, revenue)."""
    s = np.sort(totals)
    share = 1.0 - np.searchsorted(s, grid, side="left") / len(s)  # P(total >= p)
    rev = grid * share
    k = int(rev.argmax())
    return float(grid[k]), float(rev[k])


@dataclass
class PostedPrice(Method):
    name: ClassVar[str] = "posted_price"
    kind: str = "separate"  # "separate" (one price per good) or "bundle" (grand bundle)
    grid_size: int = 4001  # our choice: price grid resolution

    def applies_to(self, dataset) -> str | None:
        return None if getattr(dataset, "task", "") == "auction" else "auction baseline"

    def run(self, data: dict, seed: int) -> dict:
        x = np.asarray(data["values"], float)  # (N, n)
        n = x.shape[1]
        t0 = time.perf_counter()
        hi = float(x.max()) * (n if self.kind == "bundle" else 1)
        grid = np.linspace(0.0, hi, self.grid_size)
        if self.kind == "separate":
            p, _ = best_price(x.ravel(), grid)  # i.i.d. goods share one price
            y = np.array([[0.0] * (n - k) + [1.0] * k for k in range(1, n + 1)])  # (n, n)
            b = p * np.arange(1, n + 1, dtype=float)
        elif self.kind == "bundle":
            p, _ = best_price(x.sum(axis=1), grid)
            y, b = np.ones((1, n)), np.array([p])
        else:
            raise ValueError(f"unknown kind {self.kind!r}")
        return {
            "mechanism": {"kind": "menu", "y": y.tolist(), "b": b.tolist(), "symmetric": True},
            "price": p,
            "time_s": time.perf_counter() - t0,
        }
