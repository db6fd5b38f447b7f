"""Follow the regularized leader (FTRL) self-play in two-player normal-form games.

Each player keeps the cumulative utility vector of its actions and plays
``x = argmax_{x in simplex} eta * <U, x> - R(x)`` (lazy, dual-averaging form):

* ``regularizer="entropic"``: ``R`` = negative entropy, ``x = softmax(eta * U)``; on the
  simplex this is exactly multiplicative weights update (MWU / Hedge) with step ``eta``;
* ``regularizer="euclidean"``: ``R = |x|^2 / 2``, ``x = Proj_simplex(eta * U)`` (lazy
  projected gradient ascent).

Update orders (``alternating``):

* simultaneous: ``x_t = Q(eta U1_t)``, ``y_t = Q(eta U2_t)`` with ``U1_{t+1} = U1_t + A y_t``,
  ``U2_{t+1} = U2_t + B^T x_t``;
* alternating (Gauss-Seidel): player 2 already sees the current ``x_t``:
  ``y_t = Q(eta (U2_t + B^T x_t))``.

Game data (a dict, see :mod:`claimbench.datasets.potential_games`): payoff matrices ``A``
(row player) and ``B`` (column player), the potential ``P``, the start profile ``start``
played for ``prefix`` rounds before time 1 (the history every player begins with), and
the accuracy ``eps``. Time ``t = 1, 2, ...`` counts iterates after that prefix; the output
``t_eps`` is the first ``t`` whose iterate ``(x_t, y_t)`` is an ``eps``-Nash equilibrium
(neither player gains more than ``eps`` by a unilateral deviation), or ``cap`` when none
is within ``cap`` iterates (``censored = 1``: then ``cap`` is only a lower bound).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def choice_map(regularizer: str):
    """``Q(z) = argmax_x <z, x> - R(x)`` over the simplex for the named regularizer."""
    if regularizer == "entropic":
        return softmax
    if regularizer == "euclidean":
        from claimbench.baselines.simplex import project_simplex

        # Projection is shift-invariant: centring keeps the cumulative sums' magnitude out.
        return lambda z: project_simplex(z - z.max())
    raise ValueError(f"unknown regularizer {regularizer!r}")


def nash_gap(A: np.ndarray, B: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """Largest unilateral gain: ``max(max(Ay) - x^T A y, max(B^T x) - x^T B y)``."""
    u1 = A @ y
    u2 = B.T @ x
    return float(max(u1.max() - x @ u1, u2.max() - u2 @ y))


def log_times(cap: int, n: int = 60) -> set[int]:
    """About ``n`` log-spaced iterate indices in [1, cap] at which traces are recorded."""
    return {int(v) for v in np.unique(np.round(np.geomspace(1, max(cap, 1), n)))}


def prefix_history(data: dict) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative utilities after ``prefix`` rounds at the start profile."""
    A, B = data["A"], data["B"]
    i0, j0 = data["start"]
    w = float(data["prefix"])
    return w * A[:, j0].astype(float), w * B[i0, :].astype(float)


def run_ftrl(data: dict, eta: float, regularizer: str, alternating: bool, cap: int,
             lazy: bool = True) -> dict:
    """Self-play FTRL until the first eps-Nash iterate or ``cap`` iterates.

    ``lazy=False`` (alternating play only) is the greedy counterpart used as a foil: after the
    first iterate each player steps from its current strategy, Q(x_t + eta u_t) (online mirror
    descent), instead of Q(eta U_{t+1}) on the cumulative utility. With the entropic map the two
    coincide (MWU)."""
    if not lazy and not alternating:
        raise ValueError("run_ftrl: lazy=False is defined for alternating play only")
    A, B, P, eps = data["A"], data["B"], data["P"], float(data["eps"])
    Q = choice_map(regularizer)
    U1, U2 = prefix_history(data)  # (m,), (n,)
    marks = log_times(cap)
    trace: list[tuple[float, float, float]] = []  # (t, potential, Nash gap) at log-spaced t
    t_eps = None
    phi_prev = None
    drop_max = 0.0  # largest decrease of the potential between consecutive (half-)steps
    x = y = None
    start = time.perf_counter()
    t = 0
    for t in range(1, cap + 1):
        greedy = not lazy and x is not None
        x_new = Q(x + eta * u1) if greedy else Q(eta * U1)  # (m,)
        if alternating:
            if y is not None:
                # Half step: only player 1 moved, against the previous y.
                phi_half = float(x_new @ P @ y)
                drop_max = max(drop_max, phi_prev - phi_half)
                phi_prev = phi_half
            u2 = B.T @ x_new  # (n,)
            U2 = U2 + u2
            y_new = Q(y + eta * u2) if greedy else Q(eta * U2)
        else:
            y_new = Q(eta * U2)
            u2 = B.T @ x_new
            U2 = U2 + u2
        x, y = x_new, y_new
        u1 = A @ y  # (m,)
        U1 = U1 + u1
        phi = float(x @ P @ y)
        if phi_prev is not None:
            drop_max = max(drop_max, phi_prev - phi)
        phi_prev = phi
        gap = max(float(u1.max() - x @ u1), float(u2.max() - u2 @ y))
        if t in marks:
            trace.append((float(t), phi, gap))
        if gap <= eps:
            t_eps = t
            break
    elapsed = time.perf_counter() - start
    if not trace or trace[-1][0] != float(t):
        trace.append((float(t), phi, gap))
    tr_t, tr_phi, tr_gap = (list(c) for c in zip(*trace))
    return {
        "t_eps": float(t_eps if t_eps is not None else cap),
        "censored": 0.0 if t_eps is not None else 1.0,
        "iterations": float(t),
        "x": x, "y": y,
        "final_potential": phi,
        "final_gap": gap,
        "potential_drop_max": float(max(drop_max, 0.0)),
        "time_s": elapsed,
        "traces": {"potential": {"x": tr_t, "y": tr_phi},
                   "nash_gap": {"x": tr_t, "y": tr_gap}},
    }


@dataclass
class FTRL(Method):
    """FTRL self-play (entropic = lazy MWU, or Euclidean), simultaneous or alternating."""

    name: ClassVar[str] = "ftrl"
    regularizer: str = "entropic"  # or "euclidean"; paper: any permutation-invariant R
    eta: float = 10.0  # learning rate; paper: any (even vanishing); our choice, see benchmark note
    alternating: bool = False  # paper's lower bound: simultaneous updates
    cap: int = 100_000  # iterate budget (our choice); t_eps = cap when censored

    def run(self, data: dict, seed: int) -> dict:
        return run_ftrl(data, self.eta, self.regularizer, self.alternating, int(self.cap))
