"""Nelder-Mead simplex (Nelder & Mead 1965) via ``scipy.optimize.minimize``, with restarts.

Bounded Nelder-Mead as scipy implements it (points clipped to the box), started at a
uniform point; when it converges before the budget is spent it restarts from a fresh uniform
point (our choice: every portfolio member spends the same budget). Interface:
:mod:`claimbench.baselines.black_box`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines.black_box import run_solver


@dataclass
class NelderMead(Method):
    name: ClassVar[str] = "nelder_mead"
    adaptive: bool = False  # scipy's dimension-adaptive coefficients (Gao & Han 2012); off = classic
    xatol: float = 1e-8  # our choice: tighter than scipy's 1e-4 so precision is not capped
    fatol: float = 1e-10  # our choice
    restarts: bool = True  # our choice

    def minimize(self, obj, rng) -> None:
        from scipy.optimize import minimize

        bounds = list(zip(obj.lower, obj.upper))
        while True:
            x0 = obj.random_points(rng, 1)[0]
            minimize(obj.scalar, x0, method="Nelder-Mead", bounds=bounds,
                     options={"maxfev": obj.remaining, "xatol": self.xatol, "fatol": self.fatol,
                              "adaptive": self.adaptive})
            if not self.restarts or obj.remaining <= 0:
                return

    def run(self, data, seed: int) -> dict:
        return run_solver(self, data, seed)
