"""Regret Matching+ and Predictive Regret Matching+ for matrix games (one family).

RM+ (Tammelin 2014) keeps thresholded cumulative regrets ``R_t = [R_{t-1} + r_t]^+``
and plays ``x_t = R_{t-1} / |R_{t-1}|_1`` (uniform when zero). PRM+ (Farina,
Kroer & Sandholm, AAAI 2021) adds a prediction ``m_t`` of the next regret
vector, here the last observed one: ``x_t ∝ [R_{t-1} + m_t]^+``.

Regret vectors: the minimizer with loss ``l = A y`` gets ``r = <l, x> 1 - l``;
the maximizer with utility ``u = A^T x`` gets ``r = u - <u, y> 1``.

* ``alternation``: players take turns in the sequence x_1, y_1, x_2, y_2, ...;
  each strategy is chosen after its regrets absorbed the opponent's previous
  move and is scored against the opponent's next one (x_t against y_t, y_t
  against x_{t+1}), as in alternating CFR+ (Tammelin 2014; Burch et al. 2019).
  Without it both players are scored against the same-round strategy.
* ``averaging``: the reported point is the weighted average with weights t
  ("linear"), 1 ("uniform") or the last iterate ("last").

Both matrix-vector products of an iteration are reused to keep running averages
of ``A y`` and ``A^T x``, so the duality gap of the averaged pair costs O(n + m)
per iteration (exact up to round-off; the final pair is re-checked directly).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.matrix_games import GapTrace, duality_gap


def _normalize(v: np.ndarray) -> np.ndarray:
    pos = np.maximum(v, 0.0)
    s = pos.sum()
    return pos / s if s > 0 else np.full(v.size, 1.0 / v.size)


class RegretMatchingState:
    """Resumable (P)RM+ self-play on ``A``; ``step()`` returns the gap of the reported point."""

    def __init__(self, A: np.ndarray, predictive: bool = True, alternation: bool = True,
                 averaging: str = "linear"):
        if averaging not in ("linear", "uniform", "last"):
            raise ValueError(f"averaging {averaging!r}")
        self.A, self.predictive, self.alternation, self.averaging = A, predictive, alternation, averaging
        n, m = A.shape
        self.Rx, self.Ry = np.zeros(n), np.zeros(m)
        self.mx, self.my = np.zeros(n), np.zeros(m)
        self.x, self.y = np.full(n, 1.0 / n), np.full(m, 1.0 / m)
        self.u = A.T @ self.x  # A^T x_t for the x about to be scored
        self.products = 1  # products with A or A^T so far (the work measure of matrix_games)
        self.sx, self.sy = np.zeros(n), np.zeros(m)  # weighted sums of strategies
        self.su, self.sl = np.zeros(m), np.zeros(n)  # weighted sums of A^T x_t and A y_t
        self.wsum = 0.0
        self.t = 0
        self.last_gap = float("inf")

    def _play(self, R: np.ndarray, m: np.ndarray) -> np.ndarray:
        return _normalize(R + m) if self.predictive else _normalize(R)

    def step(self) -> float:
        A = self.A
        self.t += 1
        x = self._play(self.Rx, self.mx) if self.t > 1 else self.x  # x_t
        u = A.T @ x if self.t > 1 else self.u  # (m,) A^T x_t
        self.products += 2 if self.t > 1 else 1  # A^T x_t (cached at t = 1) and A y_t below
        if not self.alternation:
            y = self._play(self.Ry, self.my)  # y_t, chosen without seeing x_t
        else:
            # y_t is chosen after y's regrets absorbed x_t (the sequence x_1, y_1, x_2, ...
            # where each strategy is scored against the opponent's next one).
            if self.t > 1:
                self._update_y(u)
            y = self._play(self.Ry, self.my)
        ly = A @ y  # (n,) A y_t
        rx = float(ly @ x) - ly  # (n,) regret of x_t against y_t
        self.Rx = np.maximum(self.Rx + rx, 0.0)
        if self.predictive:
            self.mx = rx
        if not self.alternation:
            self.y = y
            self._update_y(u)
        self.x, self.y, self.u = x, y, u
        self.last_gap = float(u.max() - ly.min())
        if self.averaging == "last":
            return self.last_gap
        w = float(self.t) if self.averaging == "linear" else 1.0
        self.wsum += w
        self.sx += w * x
        self.sy += w * y
        self.su += w * u
        self.sl += w * ly
        return float(self.su.max() - self.sl.min()) / self.wsum

    def _update_y(self, u: np.ndarray) -> None:
        """Score the current ``self.y`` against utility ``u`` (the opponent's newest x)."""
        ry = u - float(u @ self.y)  # (m,)
        self.Ry = np.maximum(self.Ry + ry, 0.0)
        if self.predictive:
            self.my = ry

    def point(self) -> tuple[np.ndarray, np.ndarray]:
        if self.averaging == "last":
            return self.x.copy(), self.y.copy()
        return self.sx / self.wsum, self.sy / self.wsum


@dataclass
class RegretMatchingPlus(Method):
    """(P)RM+ self-play; the defaults are PRM+ with alternation and linear averaging."""

    name: ClassVar[str] = "regret_matching_plus"
    predictive: bool = True  # PRM+, the paper's first-order baseline (abstract)
    alternation: bool = True  # PRM+ with alternation, as used for game solving (Farina et al. 2021)
    averaging: str = "linear"  # linear averaging (Farina et al. 2021; paper's PRM+ setup, unverified)
    tol_gap: float = 1e-8  # stop at the finest gap the benchmark reports (our choice)
    max_iters: int = 1_000_000  # iteration cap (our choice)
    max_time_s: float = 5.0  # wall-time cap (our choice, sized for the CPU grids)
    max_work: float = float("inf")  # cap in products with A (matrix_games; our choice per grid)

    def run(self, data, seed: int) -> dict:
        A = data["A"]
        trace = GapTrace()
        state = RegretMatchingState(A, self.predictive, self.alternation, self.averaging)
        checks = 0
        while state.t < self.max_iters:
            gap = state.step()
            trace.work = state.products + 2 * checks
            now = trace.record(gap, state.t)
            if gap <= self.tol_gap:
                x, y = state.point()
                checks += 1
                if duality_gap(A, x, y) <= self.tol_gap:  # running sums agree with a direct check
                    break
            if now >= self.max_time_s or trace.work >= self.max_work:
                break
        x, y = state.point()
        return trace.outputs(x, y, state.t, self.max_time_s, self.max_iters)
