"""Global-best particle swarm optimisation with constriction (Kennedy & Eberhart 1995;
Clerc & Kennedy 2002):

    v <- w v + c1 r1 (p_i - x) + c2 r2 (g - x),   x <- clip(x + v),
    w = 0.7298, c1 = c2 = 1.49618.

Swarm size ``10 + 2 sqrt(d)`` (SPSO 2007), synchronous updates (one batch per iteration),
velocities clamped to the box width. Interface: :mod:`claimbench.baselines.black_box`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.black_box import run_solver


@dataclass
class ParticleSwarm(Method):
    name: ClassVar[str] = "particle_swarm"
    w: float = 0.7298  # Clerc & Kennedy 2002 constriction
    c1: float = 1.49618  # Clerc & Kennedy 2002
    c2: float = 1.49618  # Clerc & Kennedy 2002
    swarm: int | None = None  # None: 10 + 2 sqrt(d) (SPSO 2007)

    def minimize(self, obj, rng) -> None:
        d = obj.dim
        n = self.swarm or int(10 + 2 * math.sqrt(d))
        width = obj.upper - obj.lower  # (d,)
        x = obj.random_points(rng, n)  # (n, d)
        v = rng.uniform(-width, width, size=(n, d)) * 0.25  # (n, d)
        fx = obj(x)
        p, fp = x.copy(), fx.copy()
        while True:
            g = p[int(np.argmin(fp))]  # (d,)
            r1, r2 = rng.random((n, d)), rng.random((n, d))
            v = np.clip(self.w * v + self.c1 * r1 * (p - x) + self.c2 * r2 * (g - x), -width, width)
            x = np.clip(x + v, obj.lower, obj.upper)
            fx = obj(x)
            better = fx < fp
            p[better], fp[better] = x[better], fx[better]

    def run(self, data, seed: int) -> dict:
        return run_solver(self, data, seed)
