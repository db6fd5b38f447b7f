"""Bandit optimal transport instances: known discrete marginals, an unknown cost seen through noise.

Each round the learner plays a coupling pi_t of (mu, nu) and observes <c*, pi_t> + noise. The
cost c* lives in ``truth`` only; ``data`` carries an environment whose ``pull`` answers with the
noisy pairing. The noise of round t is drawn once per instance (common random numbers: every
method of a grid sees the same noise for its t-th pull), so each round must be pulled once.

Costs (both rescaled to [0, 1] on the support grid, so ||c*||_{L2(mu x nu)} <= 1):
* ``smooth``: c(x, y) = |x - y|^2 + 0.3 sin(3x) cos(2y) (analytic; the research note's choice).
* ``rough``: i.i.d. Uniform[0, 1] entries (no regularity at all: a flat spectrum in any
  smooth basis).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

COSTS = ("smooth", "rough")


@dataclass
class TransportBandit:
    """What the learner sees: marginals, supports, horizon, noise level, and a pull oracle."""

    mu: np.ndarray  # (n,)
    nu: np.ndarray  # (m,)
    x: np.ndarray  # (n,) support of mu in [0, 1]
    y: np.ndarray  # (m,) support of nu in [0, 1]
    horizon: int
    noise_sd: float
    cost_bound: float  # sup |c*|, known to the learner (sets the confidence radius)
    _cost: np.ndarray  # (n, m) hidden from the learner: reached only through pull
    _noise: np.ndarray  # (horizon,)

    def pull(self, t: int, plan: np.ndarray) -> float:
        """Noisy cost of coupling ``plan`` at round t (0-based)."""
        return float(np.sum(self._cost * plan) + self._noise[t])

    def pull_many(self, t: int, k: int, plan: np.ndarray) -> np.ndarray:
        """The same coupling played at rounds t, ..., t + k - 1: k noisy costs, shape (k,)."""
        return np.sum(self._cost * plan) + self._noise[t:t + k]


def smooth_cost(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    X, Y = x[:, None], y[None, :]
    return (X - Y) ** 2 + 0.3 * np.sin(3 * X) * np.cos(2 * Y)  # (n, m)


def _rescale01(c: np.ndarray) -> np.ndarray:
    span = c.max() - c.min()
    return (c - c.min()) / span if span > 0 else np.zeros_like(c)


def _marginal(rng: np.random.Generator, n: int) -> np.ndarray:
    # Half uniform, half Dirichlet(1): random weights with no atom below 1/(2n).
    return 0.5 / n + 0.5 * rng.dirichlet(np.ones(n))


def exact_ot(mu: np.ndarray, nu: np.ndarray, cost: np.ndarray) -> tuple[float, np.ndarray]:
    import ot

    plan = ot.emd(mu, nu, cost)
    return float(np.sum(plan * cost)), plan


@dataclass
class BanditTransport(Dataset):
    """Seeded bandit-OT instance; ``T`` is the horizon so regret can be fitted against it."""

    name: ClassVar[str] = "bandit_transport"
    n: int = 4  # atoms of mu and of nu (our choice: the paper is theory-only)
    cost: str = "smooth"  # "smooth" or "rough"
    T: int = 1000  # horizon (our choice)
    noise_sd: float = 0.1  # Gaussian noise sd (research note's proposal; paper: sub-Gaussian)

    def make(self, seed: int) -> Instance:
        if self.cost not in COSTS:
            raise ValueError(f"cost {self.cost!r} not in {COSTS}")
        rng = np.random.default_rng(seed)
        x = np.sort(rng.random(self.n))
        y = np.sort(rng.random(self.n))
        mu, nu = _marginal(rng, self.n), _marginal(rng, self.n)
        if self.cost == "smooth":
            c = _rescale01(smooth_cost(x, y))
        else:
            c = rng.random((self.n, self.n))
        noise = self.noise_sd * rng.standard_normal(self.T)  # (T,)
        value, plan = exact_ot(mu, nu, c)
        env = TransportBandit(mu, nu, x, y, self.T, self.noise_sd, 1.0, c, noise)
        truth = {"cost": c, "ot_value": value, "ot_plan": plan}
        return Instance(data=env, truth=truth)


# -- regret from a method's outputs (used by the benchmark's metrics) ---------------------------
def regret_curve(truth: dict, outputs: dict) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative regret R(t) = <c*, sum_{s<=t} pi_s> - t OT(c*) at the method's checkpoints."""
    t = np.asarray(outputs["checkpoints"], dtype=float)  # (K,)
    cum = np.asarray(outputs["cum_plans"], dtype=float)  # (K, n, m)
    played = np.einsum("kij,ij->k", cum, truth["cost"])
    return t, played - t * truth["ot_value"]


def checkpoint_rounds(T: int, k: int = 40) -> np.ndarray:
    """Log-spaced rounds 1..T (plus 0.9 T) at which the cumulative plan is recorded."""
    pts = np.unique(np.concatenate([np.geomspace(1, T, k).round(), [max(1, int(0.9 * T)), T]]))
    return pts.astype(int)


class PlayLog:
    """Accumulates the played couplings; reports their running sum at the checkpoints only.

    Regret is linear in the plays, R(t) = <c*, sum_s pi_s> - t OT, so the running sum at a few
    rounds is all the metrics need, and the learner never touches c*.
    """

    def __init__(self, T: int, shape: tuple[int, int]):
        self.rounds = checkpoint_rounds(T)
        self.cum = np.zeros(shape)
        self.saved: list[list[list[float]]] = []
        self._t = 0
        self._next = 0

    def add(self, plan: np.ndarray) -> None:
        self.cum += plan
        self._t += 1
        if self._next < len(self.rounds) and self._t == self.rounds[self._next]:
            self.saved.append(self.cum.tolist())
            self._next += 1

    def add_many(self, plan: np.ndarray, k: int) -> None:
        """The same coupling for k consecutive rounds."""
        end = self._t + k
        while self._next < len(self.rounds) and self.rounds[self._next] <= end:
            self.saved.append((self.cum + (self.rounds[self._next] - self._t) * plan).tolist())
            self._next += 1
        self.cum += k * plan
        self._t = end

    def outputs(self) -> dict:
        return {"checkpoints": self.rounds[: len(self.saved)].tolist(), "cum_plans": self.saved}
