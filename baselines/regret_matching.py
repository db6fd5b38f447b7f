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

``RegretMatchingPlus.run`` advances in blocks (``RegretMatchingState.steps``) and then makes
the per-iteration checks in order: the iterates, gaps, stopping iteration and point are bit for
bit those of one ``step()`` at a time; only the averaging bookkeeping is vectorised (CPU).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.matrix_games import GapTrace, duality_gap


# The ufunc reductions below are what ndarray.sum / .max / .min call, without their Python
# wrappers: a PRM+ iteration is ~30 tiny numpy calls, so the wrappers were a large share of its
# CPU (issue: quick-grid CPU). The arithmetic is unchanged, so every value is bit for bit the same.
_sum, _max, _min = np.add.reduce, np.maximum.reduce, np.minimum.reduce


def _normalize(v: np.ndarray) -> np.ndarray:
    """[v]^+ / |[v]^+|_1 (uniform when zero); overwrites ``v``, a temporary of the caller."""
    pos = np.maximum(v, 0.0, out=v)
    s = _sum(pos)
    return np.divide(pos, s, out=pos) if s > 0 else np.full(v.size, 1.0 / v.size)


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
        return _normalize(R + m) if self.predictive else _normalize(R.copy())

    def _advance(self) -> tuple:
        """The iterates of one iteration (x_t, y_t, A^T x_t, A y_t); regrets updated."""
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
        # in place: the regret sums are this object's own arrays (same values as a new array)
        np.maximum(np.add(self.Rx, rx, out=self.Rx), 0.0, out=self.Rx)
        if self.predictive:
            self.mx = rx
        if not self.alternation:
            self.y = y
            self._update_y(u)
        self.x, self.y, self.u = x, y, u
        return x, y, u, ly

    def step(self) -> float:
        x, y, u, ly = self._advance()
        self.last_gap = float(_max(u) - _min(ly))
        if self.averaging == "last":
            return self.last_gap
        w = float(self.t) if self.averaging == "linear" else 1.0
        self.wsum += w
        self.sx += w * x
        self.sy += w * y
        self.su += w * u
        self.sl += w * ly
        return float(_max(self.su) - _min(self.sl)) / self.wsum

    def steps(self, count: int) -> tuple[list, list]:
        """``count`` calls of step() at once: the gaps step() would return and the products
        after each iteration ((count,) lists); ``point_at(i)`` is point() after the i-th.

        The same iterates bit for bit: the running sums (sx += w x, ...) are np.add.accumulate
        down the block, which adds row after row in the same order, and max / min are exact in
        any order. Only the bookkeeping is vectorised: a PRM+ iteration is ~30 tiny numpy
        calls, and the averages were a third of them (quick-grid CPU).
        """
        n, m = self.A.shape
        X, L, Y, U = np.empty((count, n)), np.empty((count, n)), np.empty((count, m)), np.empty((count, m))
        products = []
        for i in range(count):
            X[i], Y[i], U[i], L[i] = self._advance()
            products.append(self.products)
        last = np.max(U, axis=1) - np.min(L, axis=1)  # (count,)
        self.last_gap = float(last[-1])
        if self.averaging == "last":
            self._block = (X, Y, None)
            return last.tolist(), products
        t = np.arange(self.t - count + 1, self.t + 1, dtype=float)  # (count,)
        w = t if self.averaging == "linear" else np.ones(count)
        wsum = np.add.accumulate(np.concatenate([[self.wsum], w]))[1:]  # (count,)

        def running(s0: np.ndarray, V: np.ndarray) -> np.ndarray:
            return np.add.accumulate(np.concatenate([s0[None], w[:, None] * V]), axis=0)[1:]

        SX, SY, SU, SL = running(self.sx, X), running(self.sy, Y), running(self.su, U), running(self.sl, L)
        self.sx, self.sy, self.su, self.sl = SX[-1].copy(), SY[-1].copy(), SU[-1].copy(), SL[-1].copy()
        self.wsum = float(wsum[-1])
        self._block = (SX, SY, wsum)
        return ((np.max(SU, axis=1) - np.min(SL, axis=1)) / wsum).tolist(), products

    def point_at(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """point() as it was after the i-th iteration of the last steps() block."""
        SX, SY, wsum = self._block
        if wsum is None:  # averaging "last": the iterates themselves
            return SX[i].copy(), SY[i].copy()
        return SX[i] / wsum[i], SY[i] / wsum[i]

    def _update_y(self, u: np.ndarray) -> None:
        """Score the current ``self.y`` against utility ``u`` (the opponent's newest x)."""
        ry = u - float(u @ self.y)  # (m,)
        np.maximum(np.add(self.Ry, ry, out=self.Ry), 0.0, out=self.Ry)
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
    block: ClassVar[int] = 512  # iterations per RegretMatchingState.steps() call (CPU only)

    def run(self, data, seed: int) -> dict:
        A = data["A"]
        trace = GapTrace()
        state = RegretMatchingState(A, self.predictive, self.alternation, self.averaging)
        checks, point, iters = 0, None, None
        while state.t < self.max_iters and point is None:
            # a block of iterations, then their checks in order as step() by step() would do:
            # the run stops at the same iteration with the same point. Blocks end where the
            # work cap can fall (2 products an iteration), so few iterations are wasted.
            count = min(self.block, self.max_iters - state.t)
            room = (self.max_work - (state.products + 2 * checks)) / 2.0
            if math.isfinite(room):
                count = max(1, min(count, math.ceil(room) + 1))
            gaps, products = state.steps(count)
            for i, gap in enumerate(gaps):
                it = state.t - count + 1 + i
                trace.work = products[i] + 2 * checks
                now = trace.record(gap, it)
                if gap <= self.tol_gap:
                    x, y = state.point_at(i)
                    checks += 1
                    if duality_gap(A, x, y) <= self.tol_gap:  # running sums agree with a direct check
                        point, iters = (x, y), it
                        break
                if now >= self.max_time_s or trace.work >= self.max_work:
                    point, iters = state.point_at(i), it
                    break
        if point is None:
            point, iters = state.point(), state.t
        return trace.outputs(*point, iters, self.max_time_s, self.max_iters)
