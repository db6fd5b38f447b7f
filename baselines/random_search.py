"""Pure random search: uniform samples in the box, keep the best (Brooks 1958).

The reference point of every black-box portfolio: any solver that cannot beat it on a
function has found no exploitable structure there. Evaluates in batches of ``batch``
(vectorised objectives are the cheap case). Interface: :mod:`claimbench.baselines.black_box`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines.black_box import run_solver


@dataclass
class RandomSearch(Method):
    name: ClassVar[str] = "random_search"
    batch: int = 50  # our choice: only changes speed, not the sample law

    def minimize(self, obj, rng) -> None:
        while obj.remaining > 0:
            obj(obj.random_points(rng, min(self.batch, obj.remaining)))

    def run(self, data, seed: int) -> dict:
        return run_solver(self, data, seed)
