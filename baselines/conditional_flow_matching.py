"""Conditional flow matching (rectified-flow paths) for inverse design, labels concatenated into
design coordinates ("CFM-concat"), plus the MLP velocity field, trainer and ODE sampler that
flow-matching methods for tabular designs share.

Flow matching (Lipman et al., 2023; rectified flow, Liu et al., 2023): for paired endpoints
(z0, z1) and t ~ U(0, 1), z_t = (1 - t) z0 + t z1 and a network v(z_t, t) regresses z1 - z0
(mean squared error). Sampling integrates dz/dt = v from t = 0 to 1 (torchdiffeq ``odeint``,
fixed-step midpoint rule, ``ode_steps`` steps: 2 network calls a step).

CFM adapted to an inverse problem by pairing labels with design parameters (the baseline of
de Campos et al., arXiv 2603.15925): a flow on R^P between a design x (t = 1) and a source
whose K "label coordinates" hold the (standardised, times ``label_scale``) label y of that
design and whose other P - K coordinates hold N(0, 1) noise (t = 0). Which K design
coordinates the labels are paired with is arbitrary: the ordering. Inverse design of a target
y* integrates (y* in the label coordinates, fresh noise elsewhere) from t = 0 to 1. The
method has no intrinsic reliability score.

Orderings: ordering r permutes the design coordinates by a permutation that depends only on
(r, P) (r = 0: identity), so every method of a grid sees the same orderings; CFM-concat then
pairs the labels with the first K permuted coordinates. The method trains ``orderings``
models, reports the designs of ordering 0 and the median round-trip statistics of each.
``ConcatCFM.fit(..., member=m)`` trains ensemble member m > 0 with its own seed
(``baselines/cfm_ensemble.py``); member 0 is the single model.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.grid import derive_seed


@functools.cache
def torch_classes():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class VelocityMLP(nn.Module):
        """v(z, t): an MLP on [z, t] with SiLU activations."""

        def __init__(self, dim: int, width: int, depth: int):
            super().__init__()
            layers, d = [], dim + 1
            for _ in range(depth):
                layers += [nn.Linear(d, width), nn.SiLU()]
                d = width
            layers.append(nn.Linear(d, dim))
            self.net = nn.Sequential(*layers)
            # a plain list (not registered: the state dict keeps its keys net.i.*)
            self._linears = [m for m in layers if isinstance(m, nn.Linear)]

        def forward(self, z, t):
            tt = t.reshape(-1, 1).expand(z.shape[0], 1)  # (B, 1)
            h = torch.cat([z, tt], dim=-1)  # (B, D + 1)
            # the layers' own functions (nn.Linear -> F.linear, nn.SiLU -> F.silu) called
            # directly: the same ops and autograd graph, without the module calls' overhead
            # (issue 27: CPU)
            for lin in self._linears[:-1]:
                h = F.silu(F.linear(h, lin.weight, lin.bias))  # (B, width)
            out = self._linears[-1]
            return F.linear(h, out.weight, out.bias)  # (B, D)

        def aux_loss(self):
            return torch.zeros(())

    return {"VelocityMLP": VelocityMLP}


def ordering_perm(r: int, P: int) -> np.ndarray:
    """The permutation of P design coordinates for ordering r (identity for r = 0)."""
    if r == 0:
        return np.arange(P)
    return np.random.default_rng(derive_seed("ordering", r, P)).permutation(P)


def standardise(y: np.ndarray):
    mu, sd = y.mean(0), y.std(0) + 1e-8
    return mu, sd


@dataclass
class FlowConfig:
    """What decides a trained velocity field (besides data and seed)."""

    width: int = 128
    depth: int = 3
    train_steps: int = 400
    batch_size: int = 256
    lr: float = 2e-3


def train_flow(source_fn, target: np.ndarray, fc: FlowConfig, seed: int, key: dict, sources=()):
    """Train v on pairs (source_fn(idx, gen), target[idx]) through the checkpoint cache.

    ``source_fn(idx, gen) -> (B, D)`` tensor of source points for training rows ``idx``
    (noise drawn from ``gen``); ``target`` (n, D). Returns the model (eval mode)."""
    import torch

    from claimbench.baselines import conditional_flow_matching as me
    from claimbench.baselines.lm_training import TrainConfig, train
    from claimbench.checkpoints import cached_train

    tgt = torch.as_tensor(np.asarray(target, dtype=np.float32))  # (n, D)
    D = tgt.shape[1]
    cfg = TrainConfig(steps=fc.train_steps, batch_size=fc.batch_size, lr=fc.lr,
                      weight_decay=0.0, warmup=min(50, fc.train_steps // 10), log_every=50)

    def batch_fn(step, gen):
        idx = torch.randint(0, len(tgt), (fc.batch_size,), generator=gen)  # (B,)
        z0 = source_fn(idx, gen)  # (B, D)
        t = torch.rand(fc.batch_size, generator=gen)  # (B,)
        return z0, tgt[idx], t

    def loss_fn(model, batch):
        z0, z1, t = batch
        zt = (1 - t)[:, None] * z0 + t[:, None] * z1  # (B, D)
        return ((model(zt, t) - (z1 - z0)) ** 2).mean()

    def build():
        torch.manual_seed(derive_seed("init", seed))  # local init seed; restored below
        return torch_classes()["VelocityMLP"](D, fc.width, fc.depth)

    def fit(model):
        return train(model, batch_fn, cfg, derive_seed("train", seed), loss_fn=loss_fn)

    state = torch.random.get_rng_state()
    try:
        full_key = {"flow": dataclasses.asdict(fc), "seed": int(seed), **key}
        model, hist, _ = cached_train(full_key, build, fit, sources=(me, *sources))
    finally:
        torch.random.set_rng_state(state)
    model.eval()
    return model, hist


def integrate(model, z0, t0: float, t1: float, steps: int):
    """z(t1) from z(t0) = z0 (N, D) numpy, fixed-step midpoint rule of torchdiffeq."""
    import torch
    from torchdiffeq import odeint

    z = torch.as_tensor(np.asarray(z0, dtype=np.float32))  # (N, D)
    ts = torch.tensor([t0, t1], dtype=torch.float32)
    h = abs(t1 - t0) / steps
    with torch.no_grad():
        out = odeint(lambda t, y: model(y, t), z, ts, method="midpoint",
                     options={"step_size": h})  # (2, N, D)
    return out[-1].numpy().astype(np.float64)


@dataclass
class ConcatCFM(Method):
    """CFM with the labels paired with K design coordinates (ordering-dependent)."""

    name: ClassVar[str] = "cfm_concat"
    width: int = 128  # ours (note's plan: 3x256 MLPs; halved for the CPU budget)
    depth: int = 3  # research note's plan: 3 hidden layers
    train_steps: int = 400  # ours: CPU budget
    batch_size: int = 256  # ours
    lr: float = 2e-3  # ours (AdamW, warm-up, cosine)
    ode_steps: int = 16  # ours: midpoint steps (32 network calls)
    label_scale: float = 1.0  # multiplier on standardised labels (the paper's scaling axis)
    orderings: int = 3  # research note's plan: 3 random coordinate choices
    n_candidates: int = 8  # research note's plan: best-of-8

    def flow_config(self) -> FlowConfig:
        return FlowConfig(self.width, self.depth, self.train_steps, self.batch_size, self.lr)

    def fit(self, data, seed: int, r: int, member: int = 0):
        """The trained velocity of ordering r (and ensemble ``member``; 0 = the single model)
        with its permutation and label standardisation."""
        import torch

        x = np.asarray(data["x"], dtype=np.float64)
        y = np.asarray(data["y"], dtype=np.float64)
        P, K = x.shape[1], y.shape[1]
        if K > P:
            raise ValueError("CFM-concat needs at least as many design coordinates as labels")
        mu, sd = standardise(y)
        perm = ordering_perm(r, P)
        ys = torch.as_tensor(((y - mu) / sd * self.label_scale).astype(np.float32))  # (n, K)

        def source_fn(idx, gen):
            z0 = torch.randn((len(idx), P), generator=gen)  # (B, P)
            z0[:, :K] = ys[idx]
            return z0

        key = {"method": "cfm_concat", "label_scale": self.label_scale, "ordering": r,
               "data": data["key"]}
        if member:  # member 0 keeps the single model's key and seed (shared cache entry)
            key["member"] = member
            seed = derive_seed("member", seed, member)
        model, hist = train_flow(source_fn, x[:, perm], self.flow_config(), seed, key)
        return model, hist, perm, mu, sd

    def design(self, data, seed: int, r: int):
        """Designs (n_targets, n_candidates, P) for ordering r."""
        model, hist, perm, mu, sd = self.fit(data, seed, r)
        P, K = np.asarray(data["x"]).shape[1], np.asarray(data["y"]).shape[1]
        yt = (np.asarray(data["y_targets"]) - mu) / sd * self.label_scale  # (n_t, K)
        nt, k = len(yt), self.n_candidates
        rng = np.random.default_rng(derive_seed("noise", seed, r))
        z0 = rng.standard_normal((nt * k, P))  # (n_t k, P)
        z0[:, :K] = np.repeat(yt, k, axis=0)
        xp = integrate(model, z0, 0.0, 1.0, self.ode_steps)  # (n_t k, P), permuted coords
        designs = np.empty_like(xp)
        designs[:, perm] = xp
        return designs.reshape(nt, k, P), float(hist["loss"][-1])

    def run(self, data, seed):
        per = [self.design(data, seed, r) for r in range(self.orderings)]
        return {"designs": per[0][0], "designs_by_ordering": [d for d, _ in per],
                "train_loss": per[0][1]}
