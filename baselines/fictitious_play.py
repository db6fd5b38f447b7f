"""Fictitious play (FP) self-play in two-player games, simulated event by event.

FP is FTRL without a regularizer (the eta -> infinity limit): each player plays a best
response to the cumulative utility of its actions over the whole history,
``i_t = argmax U1_t``, ties broken towards the lowest index (``np.argmax``).

* simultaneous: ``U1_{t+1} = U1_t + A[:, j_t]``, ``U2_{t+1} = U2_t + B[i_t, :]``;
* alternating: player 2 already sees the current row, ``j_t = argmax(U2_t + B[i_t, :])``.

Between two changes of the pure profile the cumulative vectors grow linearly, so the
next change time is the smallest integer ``r >= 1`` at which another action overtakes
the incumbent: the simulation jumps from change to change and costs O(number of
profile changes), whatever the elapsed time. It is exact up to floating-point rounding
of the cumulative sums (each jump is re-checked on the actual sums).

Inputs and outputs follow :mod:`claimbench.baselines.ftrl` (``t_eps``, ``censored``,
potential trace); the iterate of FP is the current pure profile (its last iterate, not
the empirical average).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.ftrl import prefix_history


def first_switch(U: np.ndarray, a: np.ndarray, cur: int) -> float:
    """Smallest integer r >= 1 with argmax(U + r a) != cur (lowest index wins ties); inf if none."""
    best = math.inf
    for k in range(U.size):
        d = a[k] - a[cur]
        if k == cur or d <= 0:
            continue
        g = U[cur] - U[k]
        # k < cur wins ties, k > cur must be strictly ahead.
        r = math.ceil(g / d) if k < cur else math.floor(g / d) + 1
        best = min(best, max(r, 1))
    if math.isinf(best):
        return best
    r = int(best)
    # Guard the closed form against rounding in U + r a.
    while r > 1 and int(np.argmax(U + (r - 1) * a)) != cur:
        r -= 1
    while int(np.argmax(U + r * a)) == cur:
        r += 1
    return float(r)


def run_fictitious_play(data: dict, alternating: bool, cap: float, max_switches: int = 0) -> dict:
    """Simulate until an eps-Nash profile, time ``cap``, or (if ``max_switches`` > 0) that many
    profile changes; stopped by the switch budget, the run is censored with ``t_eps`` = the time
    reached (a lower bound), since on cycling games (e.g. miscoordination from the diagonal)
    the profile changes at a steady rate and the events until ``cap`` are unbounded."""
    A, B, P, eps = data["A"], data["B"], data["P"], float(data["eps"])
    U1, U2 = prefix_history(data)  # (m,), (n,)
    start = time.perf_counter()
    i = int(np.argmax(U1))
    if alternating:
        U2 = U2 + B[i, :]
    j = int(np.argmax(U2))
    t = 1.0
    tr_t, tr_phi = [t], [float(P[i, j])]
    drop_max, switches, t_eps = 0.0, 0, None
    while True:
        gap = max(float(A[:, j].max() - A[i, j]), float(B[i, :].max() - B[i, j]))
        if gap <= eps:
            t_eps = t
            break
        a, b = A[:, j], B[i, :]
        s = min(first_switch(U1, a, i), first_switch(U2, b, j))
        if math.isinf(s) or t + s > cap or (max_switches and switches >= max_switches):
            break
        U1 = U1 + (s - 1) * a
        U2 = U2 + (s - 1) * b
        U1 = U1 + a
        if alternating:
            i_new = int(np.argmax(U1))
            drop_max = max(drop_max, float(P[i, j] - P[i_new, j]))  # half step
            U2 = U2 + B[i_new, :]
        else:
            U2 = U2 + b
            i_new = int(np.argmax(U1))
        j_new = int(np.argmax(U2))
        before = P[i_new, j] if alternating else P[i, j]
        drop_max = max(drop_max, float(before - P[i_new, j_new]))
        i, j = i_new, j_new
        t += s
        switches += 1
        tr_t.append(t)
        tr_phi.append(float(P[i, j]))
    elapsed = time.perf_counter() - start
    x = np.zeros(A.shape[0]); x[i] = 1.0
    y = np.zeros(A.shape[1]); y[j] = 1.0
    stop = cap if not (max_switches and switches >= max_switches) else t
    return {
        "t_eps": float(t_eps if t_eps is not None else stop),
        "censored": 0.0 if t_eps is not None else 1.0,
        "iterations": float(t_eps if t_eps is not None else stop),
        "switches": float(switches),
        "x": x, "y": y,
        "final_potential": float(P[i, j]),
        "final_gap": gap,
        "potential_drop_max": float(max(drop_max, 0.0)),
        "time_s": elapsed,
        "traces": {"potential": {"x": tr_t, "y": tr_phi}},
    }


@dataclass
class FictitiousPlay(Method):
    """Fictitious play, simultaneous or alternating, with an event-driven exact simulation."""

    name: ClassVar[str] = "fictitious_play"
    alternating: bool = False  # paper: FP as the extreme version of FTRL; update order ours
    cap: float = 1e12  # time budget (ours; jumps make long runs cheap); t_eps = cap if censored
    max_switches: int = 0  # 0: no limit (default); else stop, censored, after this many changes

    def run(self, data: dict, seed: int) -> dict:
        return run_fictitious_play(data, self.alternating, float(self.cap),
                                   int(self.max_switches))
