"""Random two-player zero-sum matrix games and the shared game utilities.

Convention (as in arXiv 2512.12910): the row player picks ``x`` in the simplex
of dimension n and minimizes ``x^T A y``; the column player picks ``y`` in the
m-simplex and maximizes it. ``duality_gap`` is the usual certificate
``max_j (A^T x)_j - min_i (A y)_i >= 0``, zero exactly at a Nash equilibrium.

Families (``dist``):
* ``gaussian``: i.i.d. N(0, 1) entries;
* ``uniform``: i.i.d. U[0, 1] entries;
* ``biased``: N(0, 1) plus ``bias * (c_i + d_j)`` with ``c, d ~ U[0, 1]``; the row
  offsets make some rows costly for the minimizer and the column offsets make
  some columns attractive to the maximizer, which shrinks the equilibrium
  supports (use with ``m != n`` for a rectangular family).

``GapTrace`` records the gap of a run against time, iterations and work, and the
first time, iteration and work at which each accuracy target is hit; every game
solver here returns its outputs in the format ``GapTrace.outputs`` builds.

Work is counted in matrix-vector products with ``A`` (n m multiply-adds each), a
machine-independent cost: a first-order iteration costs its products, a dense
factorisation or solve its multiply-adds divided by n m (``dense_products``).
Solvers stop at a work cap, so what a run reaches does not depend on the
machine's speed (issue 29).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

TARGETS = (1e-4, 1e-8)  # accuracy targets reported by the benchmark (Sec. 5 plots gap down to ~1e-10)


def target_key(target: float) -> str:
    return f"{target:.0e}"


def dense_products(multiply_adds: float, A: np.ndarray) -> float:
    """Work of a dense linear-algebra step in units of one product with ``A``."""
    n, m = A.shape
    return float(multiply_adds) / float(n * m)


def norm2_products(A: np.ndarray) -> float:
    """Work of ||A||_2 by an SVD: about 2 n m min(n, m) multiply-adds (bidiagonalisation)."""
    return 2.0 * min(A.shape)


def duality_gap(A: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """``max(A^T x) - min(A y)`` for the min-max game ``min_x max_y x^T A y``."""
    # the ufunc reductions np.max / np.min call, without their wrappers (called every iteration)
    return float(np.maximum.reduce(A.T @ x) - np.minimum.reduce(A @ y))


def game_matrix(n: int, m: int, dist: str, bias: float, rng: np.random.Generator) -> np.ndarray:
    if dist == "gaussian":
        return rng.standard_normal((n, m))
    if dist == "uniform":
        return rng.uniform(0.0, 1.0, (n, m))
    if dist == "biased":
        c = rng.uniform(0.0, 1.0, n)  # (n,)
        d = rng.uniform(0.0, 1.0, m)  # (m,)
        return rng.standard_normal((n, m)) + bias * (c[:, None] + d[None, :])
    raise ValueError(f"unknown dist {dist!r}")


@dataclass
class RandomMatrixGame(Dataset):
    """A random n x m payoff matrix; truth holds the LP (HiGHS) value and equilibrium."""

    name: ClassVar[str] = "random_matrix_game"
    n: int = 100  # rows; paper: random matrix games (sizes not retrieved), our choice
    m: int = 0  # columns; 0 means square (m = n)
    dist: str = "gaussian"  # gaussian | uniform | biased (our families; paper: random matrix games)
    bias: float = 2.0  # strength of the row/column offsets of the "biased" family (our choice)

    def make(self, seed: int) -> Instance:
        from claimbench.baselines.linear_program import solve_matrix_game_lp

        rng = np.random.default_rng(seed)
        m = self.m or self.n
        A = game_matrix(self.n, m, self.dist, self.bias, rng)  # (n, m)
        x, y, value = solve_matrix_game_lp(A)
        return Instance(data={"A": A}, truth={"value": value, "x": x, "y": y})


class GapTrace:
    """Gap against wall time and iterations, thinned on the fly, with first-hit times.

    A point is stored when the gap fell by 10% since the last stored point or
    the iteration count grew by 10%, so traces of 1e5-iteration runs stay short.
    """

    def __init__(self, targets: tuple[float, ...] = TARGETS):
        self.t0 = time.perf_counter()
        self.targets = tuple(targets)
        self.hit_time: dict[str, float | None] = {target_key(t): None for t in self.targets}
        self.hit_iter: dict[str, int | None] = {target_key(t): None for t in self.targets}
        self.hit_work: dict[str, float | None] = {target_key(t): None for t in self.targets}
        self.work = 0.0  # products with A so far (see the module docstring); solvers add to it
        self.times: list[float] = []
        self.iters: list[float] = []
        self.gaps: list[float] = []
        self.best = float("inf")
        self._last_gap = float("inf")
        self._last_iter = 0
        # (target, key) formatted once: record() runs every iteration of every solver
        self._keyed = tuple((t, target_key(t)) for t in self.targets)

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def record(self, gap: float, it: int) -> float:
        """Register the gap after iteration ``it``; returns the elapsed time."""
        now = self.elapsed()
        self.best = min(self.best, gap)
        for t, key in self._keyed:
            if gap <= t and self.hit_time[key] is None:
                self.hit_time[key], self.hit_iter[key] = now, it
                self.hit_work[key] = self.work
        if gap <= 0.9 * self._last_gap or it >= 1.1 * self._last_iter or it <= 10:
            self.times.append(now)
            self.iters.append(float(it))
            self.gaps.append(max(float(gap), 0.0))
            self._last_gap, self._last_iter = gap, it
        return now

    def outputs(self, x: np.ndarray, y: np.ndarray, iters: int, time_cap_s: float,
                iters_cap: int, **extra) -> dict:
        total = self.elapsed()
        return {
            "x": x, "y": y, "time_s": total, "iters": int(iters),
            "time_cap_s": float(time_cap_s), "iters_cap": int(iters_cap), "work": self.work,
            "time_to_gap": dict(self.hit_time), "iters_to_gap": dict(self.hit_iter),
            "work_to_gap": dict(self.hit_work),
            "traces": {"gap_vs_time": {"x": list(self.times), "y": list(self.gaps)},
                       "gap_vs_iter": {"x": list(self.iters), "y": list(self.gaps)}},
            **extra,
        }
