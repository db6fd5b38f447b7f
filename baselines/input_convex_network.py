"""Input-convex network utility for one additive buyer (Rochet-Chone approach).

The buyer's utility is a one-hidden-layer input-convex network
    u(x) = sum_h a_h softplus(beta z_h) / beta,   z_h = (v_h . x) / a_h + c_h,
with a_h > 0 and v_h >= 0, so u is convex and increasing. The allocation is q(x) = grad u(x) =
sum_h sigmoid(beta z_h) v_h and the price t(x) = <x, q(x)> - u(x) (envelope theorem), hence the
mechanism is IC; u > 0 gives IR. Feasibility q in [0,1]^n holds because for every good k,
(v_1k, ..., v_Hk, slack_k) is a softmax column, so sum_h v_hk <= 1.
Parameters: alpha (a_h = softplus(alpha_h)), theta ((H+1, n) softmax logits, row 0 = slack), c.
Revenue E[t(x)] is maximised by Adam with the closed-form gradients in ``revenue_and_grads``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.optim import Adam


def _softplus(z):
    return np.logaddexp(0.0, z)


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def unpack(params: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a (H,), v (H, n), c (H,)) from raw parameters."""
    a = _softplus(np.asarray(params["alpha"])) + 1e-6
    th = np.asarray(params["theta"])  # (H+1, n)
    e = np.exp(th - th.max(axis=0, keepdims=True))
    v = (e / e.sum(axis=0, keepdims=True))[1:]  # (H, n)
    return a, v, np.asarray(params["c"])


def utility_allocation_price(x: np.ndarray, params: dict, beta: float):
    a, v, c = unpack(params)
    m = x @ v.T  # (N, H)
    z = m / a[None, :] + c[None, :]
    s = _sigmoid(beta * z)
    u = (a[None, :] * _softplus(beta * z) / beta).sum(axis=1)  # (N,)
    q = s @ v  # (N, n)
    return u, q, (x * q).sum(axis=1) - u


def icnn_revenue(values: np.ndarray, params: dict, beta: float, chunk: int = 50_000) -> float:
    tot = 0.0
    for s in range(0, len(values), chunk):
        tot += utility_allocation_price(values[s:s + chunk], params, beta)[2].sum()
    return float(tot / len(values))


def revenue_and_grads(x: np.ndarray, params: dict, beta: float, with_revenue: bool = True):
    """Mean revenue and its gradients w.r.t. alpha, theta, c. With ``with_revenue=False`` the
    revenue (no gradient needs it; the training loop records it every few steps only) is not
    computed and None is returned in its place."""
    a, v, c = unpack(params)
    N = len(x)
    m = x @ v.T  # (N, H)
    z = m / a[None, :] + c[None, :]
    s = _sigmoid(beta * z)
    sp = _softplus(beta * z) / beta
    g = beta * s * (1.0 - s)  # d sigmoid(beta z) / dz
    rev = float(((s * m).sum(1) - (a[None, :] * sp).sum(1)).mean()) if with_revenue else None
    d_c = (g * m - a[None, :] * s).mean(axis=0)  # (H,)
    d_m = g * m / a[None, :]  # (N, H)
    d_a = (-sp - g * m * m / a[None, :] ** 2 + s * m / a[None, :]).mean(axis=0)  # (H,)
    d_v = d_m.T @ x / N  # (H, n)
    d_alpha = d_a * _sigmoid(np.asarray(params["alpha"]))
    th = np.asarray(params["theta"])
    e = np.exp(th - th.max(axis=0, keepdims=True))
    P = e / e.sum(axis=0, keepdims=True)  # (H+1, n) incl. slack row
    G = np.vstack([np.zeros((1, x.shape[1])), d_v])  # (H+1, n)
    d_theta = P * (G - (G * P).sum(axis=0, keepdims=True))
    return rev, {"alpha": d_alpha, "theta": d_theta, "c": d_c}


@dataclass
class ICNNAuction(Method):
    name: ClassVar[str] = "icnn"
    n_hidden: int = 32  # our choice
    beta: float = 20.0  # our choice: softplus sharpness (larger = closer to max-affine)
    n_steps: int = 3000  # our choice
    lr: float = 0.02  # our choice (Adam)

    def applies_to(self, dataset) -> str | None:
        return None if getattr(dataset, "task", "") == "auction" else "auction baseline"

    def run(self, data: dict, seed: int) -> dict:
        rng = np.random.default_rng(seed)
        x = np.asarray(data["values"], float)
        n = x.shape[1]
        H = self.n_hidden
        t0 = time.perf_counter()
        params = {
            "alpha": rng.normal(0.0, 0.1, H),
            "theta": rng.normal(0.0, 0.5, (H + 1, n)),
            "c": -rng.uniform(0.2, 1.0 * n, H),
        }
        keys = ("alpha", "theta", "c")
        opt = Adam(self.lr)
        trace_x, trace_y = [], []
        every = max(1, self.n_steps // 50)  # trace period
        for t in range(1, self.n_steps + 1):
            rev, grads = revenue_and_grads(x, params, self.beta, with_revenue=t % every == 0)
            opt.step(params, {k: -grads[k] for k in keys})  # ascent on revenue
            if t % every == 0:
                trace_x.append(float(t))
                trace_y.append(rev)
        return {
            "mechanism": {"kind": "icnn", "params": {k: params[k].tolist() for k in keys},
                          "beta": self.beta},
            "train_revenue": icnn_revenue(x, params, self.beta),
            "time_s": time.perf_counter() - t0,
            "traces": {"revenue_vs_step": {"x": trace_x, "y": trace_y}},
        }
