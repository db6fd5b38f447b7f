"""Seeded paths of stochastic (partial) differential equations driven by observed Brownian noise.

Three equations, each returned as (initial condition, Brownian increments) -> solution path:

* ``ou``: Ornstein-Uhlenbeck dX = theta (mu - X) dt + sigma dW. Stepped by its exact transition
  driven by the observed increments, X_{n+1} = mu + (X_n - mu) e^{-theta dt}
  + sigma sqrt((1 - e^{-2 theta dt}) / (2 theta dt)) dW_n, so every marginal has exactly the
  closed-form law N(mu + (x0 - mu) e^{-theta t}, sigma^2 (1 - e^{-2 theta t}) / (2 theta));
  it tends to the exact path solution given W as dt -> 0 (strong order 1, like Euler-Maruyama).
* ``gbm``: geometric Brownian motion dX = mu X dt + sigma X dW, by its exact path solution
  X_t = x0 exp((mu - sigma^2 / 2) t + sigma W_t) with W the cumulative sum of the increments.
* ``phi41``: the 1-D stochastic Allen-Cahn (Phi^4_1) equation du = (nu u_xx + 3u - u^3) dt
  + sigma dW(t, x) on the periodic interval [0, 1), by a semi-implicit Euler-Maruyama step
  (Laplacian implicit in Fourier space, reaction and noise explicit). The noise is a Q-Wiener
  process with ``n_modes`` spatial modes, W(t, x) = sum_j e_j(x) beta_j(t), e_0 = 1,
  e_1 = sqrt(2) cos(2 pi x), e_2 = sqrt(2) sin(2 pi x), ... (trace class, not space-time white).

The training set is grouped: ``n_train_ic`` initial conditions with ``paths_per_ic`` paths each
(so a law-matching learner can be given paths without their noise). The test set has
``n_test_ic`` initial conditions with ``test_paths_per_ic`` paired paths each, plus (truth
only) ``n_law`` further independent paths per test initial condition for the marginal laws.
Solutions are observed at ``n_obs`` equispaced times t_k = k T / n_obs, k = 1..n_obs; the
noise is given on the ``n_fine`` solver steps (``n_fine`` a multiple of ``n_obs``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

# Equation parameters (ours: moderate noise, nonlinear regime for gbm / phi41).
EQUATIONS = {
    "ou": dict(theta=2.0, mu=1.0, sigma=0.5, T=1.0, n_fine=64, n_obs=16, n_x=1, n_modes=1),
    "gbm": dict(mu=0.5, sigma=0.6, T=1.0, n_fine=64, n_obs=16, n_x=1, n_modes=1),
    "phi41": dict(nu=0.01, sigma=1.0, T=0.5, n_fine=20, n_obs=5, n_x=16, n_modes=2),
}


def spec_of(equation: str) -> dict:
    if equation not in EQUATIONS:
        raise ValueError(f"unknown equation {equation!r}")
    return {"equation": equation, **EQUATIONS[equation]}


def obs_index(spec: dict) -> np.ndarray:
    """Fine-step indices (1-based count of steps taken) of the observation times."""
    stride = spec["n_fine"] // spec["n_obs"]
    return stride * np.arange(1, spec["n_obs"] + 1)


def obs_times(spec: dict) -> np.ndarray:
    return spec["T"] * np.arange(1, spec["n_obs"] + 1) / spec["n_obs"]


def spatial_modes(spec: dict) -> np.ndarray:
    """(n_modes, n_x) orthonormal (in L2[0,1]) Fourier modes e_j on the grid x_i = i / n_x."""
    x = np.arange(spec["n_x"]) / spec["n_x"]
    rows = [np.ones_like(x)]
    k = 1
    while len(rows) < spec["n_modes"]:
        rows.append(np.sqrt(2) * np.cos(2 * np.pi * k * x))
        if len(rows) < spec["n_modes"]:
            rows.append(np.sqrt(2) * np.sin(2 * np.pi * k * x))
        k += 1
    return np.stack(rows)


def sample_noise(spec: dict, rng: np.random.Generator, n: int) -> np.ndarray:
    """(n, n_fine, n_modes) increments of independent standard Brownian motions."""
    dt = spec["T"] / spec["n_fine"]
    return rng.standard_normal((n, spec["n_fine"], spec["n_modes"])) * np.sqrt(dt)


def sample_initial(spec: dict, rng: np.random.Generator, n: int) -> np.ndarray:
    """(n,) initial values for SDEs, (n, n_x) initial fields for phi41."""
    eq = spec["equation"]
    if eq == "ou":
        return rng.uniform(0.0, 2.0, n)
    if eq == "gbm":
        return rng.uniform(0.5, 1.5, n)
    # smooth random field: a0 + a1 cos 2 pi x + b1 sin 2 pi x + a2 cos 4 pi x
    x = np.arange(spec["n_x"]) / spec["n_x"]
    c = rng.uniform(-0.5, 0.5, (n, 4))  # (n, 4)
    basis = np.stack([np.ones_like(x), np.cos(2 * np.pi * x), np.sin(2 * np.pi * x),
                      np.cos(4 * np.pi * x)])  # (4, n_x)
    return c @ basis  # (n, n_x)


def solve_fine(spec: dict, x0: np.ndarray, dW: np.ndarray) -> np.ndarray:
    """Solution on every fine step, (n, n_fine + 1[, n_x]), row 0 the initial condition."""
    eq, T, n_fine = spec["equation"], spec["T"], spec["n_fine"]
    dt = T / n_fine
    if eq == "gbm":
        W = np.concatenate([np.zeros((len(x0), 1)), np.cumsum(dW[..., 0], axis=1)], axis=1)
        t = np.arange(n_fine + 1) * dt
        mu, s = spec["mu"], spec["sigma"]
        return x0[:, None] * np.exp((mu - 0.5 * s**2) * t[None, :] + s * W)  # (n, n_fine+1)
    if eq == "ou":
        th, mu, s = spec["theta"], spec["mu"], spec["sigma"]
        decay = np.exp(-th * dt)
        scale = s * np.sqrt((1 - np.exp(-2 * th * dt)) / (2 * th * dt))
        out = np.empty((len(x0), n_fine + 1))
        out[:, 0] = x0
        for n in range(n_fine):
            out[:, n + 1] = mu + (out[:, n] - mu) * decay + scale * dW[:, n, 0]
        return out
    if eq == "phi41":
        modes = spatial_modes(spec)  # (J, n_x)
        n_x = spec["n_x"]
        k = 2 * np.pi * np.fft.rfftfreq(n_x, d=1.0 / n_x)  # (n_x//2+1,)
        implicit = 1.0 / (1.0 + dt * spec["nu"] * k**2)
        out = np.empty((len(x0), n_fine + 1, n_x))
        out[:, 0] = x0
        for n in range(n_fine):
            u = out[:, n]
            rhs = u + dt * (3 * u - u**3) + spec["sigma"] * dW[:, n] @ modes  # (n, n_x)
            out[:, n + 1] = np.fft.irfft(np.fft.rfft(rhs, axis=-1) * implicit, n=n_x, axis=-1)
        return out
    raise ValueError(eq)


def solve(spec: dict, x0: np.ndarray, dW: np.ndarray) -> np.ndarray:
    """Solution at the observation times, (n, n_obs[, n_x])."""
    return solve_fine(spec, x0, dW)[:, obs_index(spec)]


def ou_moments(x0: float, t: np.ndarray, theta: float, mu: float, sigma: float):
    mean = mu + (x0 - mu) * np.exp(-theta * t)
    var = sigma**2 * (1 - np.exp(-2 * theta * t)) / (2 * theta)
    return mean, var


def gbm_moments(x0: float, t: np.ndarray, mu: float, sigma: float):
    mean = x0 * np.exp(mu * t)
    var = x0**2 * np.exp(2 * mu * t) * (np.exp(sigma**2 * t) - 1)
    return mean, var


@dataclass
class StochasticEquations(Dataset):
    name: ClassVar[str] = "stochastic_equations"
    equation: str = "ou"  # "ou", "gbm" or "phi41"
    n_train_ic: int = 64  # ours (the note's plan: ~2000 paths; reduced for CPU)
    paths_per_ic: int = 16
    n_test_ic: int = 16
    test_paths_per_ic: int = 8
    n_law: int = 256  # independent paths per test initial condition for the marginal laws

    def make(self, seed: int) -> Instance:
        spec = spec_of(self.equation)
        rng = np.random.default_rng(seed)
        x0_tr = np.repeat(sample_initial(spec, rng, self.n_train_ic), self.paths_per_ic, axis=0)
        dW_tr = sample_noise(spec, rng, len(x0_tr))
        ic_te = sample_initial(spec, rng, self.n_test_ic)
        x0_te = np.repeat(ic_te, self.test_paths_per_ic, axis=0)
        dW_te = sample_noise(spec, rng, len(x0_te))
        law_x0 = np.repeat(ic_te, self.n_law, axis=0)
        law = solve(spec, law_x0, sample_noise(spec, rng, len(law_x0)))
        data = {
            "spec": spec,
            "train_x0": x0_tr, "train_dW": dW_tr, "train_paths": solve(spec, x0_tr, dW_tr),
            "train_group": np.repeat(np.arange(self.n_train_ic), self.paths_per_ic),
            "test_x0": x0_te, "test_dW": dW_te,
            "test_group": np.repeat(np.arange(self.n_test_ic), self.test_paths_per_ic),
            "law_ic": ic_te, "n_law": self.n_law,
        }
        truth = {"test_paths": solve(spec, x0_te, dW_te),
                 "law_paths": law.reshape(self.n_test_ic, self.n_law, *law.shape[1:])}
        return Instance(data=data, truth=truth)
