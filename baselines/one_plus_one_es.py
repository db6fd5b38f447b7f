"""(1+1)-ES with the 1/5th success rule (Rechenberg 1973; Kern et al. 2004, Alg. 1).

    y = x + sigma * N(0, I);  if f(y) <= f(x): x = y, sigma *= exp(1/3)
                              else:            sigma *= exp(-1/12)

(the two factors balance exactly at a success rate of 1/5). Starts at a uniform point with
sigma = ``sigma0`` * box width; restarts from a fresh uniform point when sigma falls below
``sigma_min`` * box width, until the budget is spent. Interface:
:mod:`claimbench.baselines.black_box`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.black_box import run_solver


@dataclass
class OnePlusOneES(Method):
    name: ClassVar[str] = "one_plus_one_es"
    sigma0: float = 0.2  # fraction of the box width; our choice (common default 0.2-0.3)
    sigma_min: float = 1e-10  # restart threshold, fraction of the box width; our choice
    restarts: bool = True  # our choice: spend the whole budget

    def minimize(self, obj, rng) -> None:
        width = float(np.max(obj.upper - obj.lower))
        up, down = math.exp(1.0 / 3.0), math.exp(-1.0 / 12.0)
        while True:
            x = obj.random_points(rng, 1)[0]  # (d,)
            fx = obj(x[None, :])[0]
            sigma = self.sigma0 * width
            while sigma > self.sigma_min * width:
                y = np.clip(x + sigma * rng.standard_normal(x.size), obj.lower, obj.upper)
                fy = obj(y[None, :])[0]
                if fy <= fx:
                    x, fx, sigma = y, fy, sigma * up
                else:
                    sigma *= down
            if not self.restarts:
                return

    def run(self, data, seed: int) -> dict:
        return run_solver(self, data, seed)
