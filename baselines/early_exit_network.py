"""A multi-exit MLP (early-exit network) with a confidence-threshold exit rule.

Backbone: E fully connected ReLU blocks of growing width, h_1 = relu(W_1 x + b_1) and
h_i = relu(W_i [h_{i-1}, x] + b_i): every block also reads the input (a dense skip, in the spirit
of MSDNet's dense connectivity), so a narrow cheap first block does not bottleneck the deeper,
wider and stronger ones. After block i a linear classifier ("exit", "head") gives logits z_i. All heads are trained jointly with the unweighted mean of their cross-entropy
losses (the plain multi-exit training used by MSDNet / SDN-style EENNs).

Exit rule: a sample stops at the first exit i whose confidence c_i >= threshold (the last exit
always answers). Threshold 0 stops everything at the first exit, a threshold above every
confidence sends everything to the last. Sweeping the threshold gives the cost-accuracy curve;
the cost of stopping at exit i is the FLOPs of blocks 1..i plus heads 1..i (an early-exit
network evaluates every head it passes), normalised by the cost of running to the last exit.

The curve's area is the trapezoid integral of accuracy over cost on [cost of exit 1, 1],
divided by the width of that interval: the mean accuracy over the reachable budgets.

torch is imported inside functions; the model is built functionally from tensors initialised
with a local ``torch.Generator`` (no global seeding). Trained weights go through the harness's
content-hashed checkpoint cache, so cells that evaluate the same network train it once.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method

# ---------------------------------------------------------------------------------------------
# exit rule, cost, curve


def exit_costs(d_in: int, widths: tuple[int, ...], n_classes: int) -> np.ndarray:
    """(E,) cumulative FLOPs (multiply-adds x 2) up to and including exit i, divided by the last."""
    fan_in = [d_in] + [w + d_in for w in widths[:-1]]  # block i > 1 reads [h_{i-1}, x]
    block = np.array([2.0 * f * w for f, w in zip(fan_in, widths)])  # (E,)
    head = np.array([2.0 * w * n_classes for w in widths])  # (E,)
    cum = np.cumsum(block + head)  # (E,)
    return cum / cum[-1]


def exit_indices(conf: np.ndarray, threshold: float) -> np.ndarray:
    """(N,) index of the first exit with conf >= threshold, the last exit when none is."""
    conf = np.asarray(conf)  # (E, N)
    ok = conf >= threshold  # (E, N)
    ok[-1] = True
    return ok.argmax(axis=0)


def cost_accuracy_curve(conf: np.ndarray, correct: np.ndarray, costs: np.ndarray,
                        n_thresholds: int = 201) -> tuple[np.ndarray, np.ndarray]:
    """(mean cost, accuracy) over a threshold sweep, sorted by cost.

    Thresholds: 0, +inf and the quantiles of the intermediate exits' confidences, so every
    method's curve is sampled where its own confidences change the exit decisions.
    """
    conf = np.asarray(conf, dtype=float)  # (E, N)
    correct = np.asarray(correct, dtype=bool)  # (E, N)
    inner = conf[:-1].ravel()
    levels = np.quantile(inner, np.linspace(0.0, 1.0, n_thresholds)) if inner.size else []
    thresholds = np.unique(np.concatenate([[-np.inf, 0.0], levels, [np.inf]]))
    n = conf.shape[1]
    cost, acc = [], []
    for t in thresholds:
        idx = exit_indices(conf, t)  # (N,)
        cost.append(costs[idx].mean())
        acc.append(correct[idx, np.arange(n)].mean())
    cost, acc = np.array(cost), np.array(acc)
    order = np.lexsort((acc, cost))
    return cost[order], acc[order]


def curve_area(cost: np.ndarray, acc: np.ndarray, lo: float | None = None,
               hi: float = 1.0) -> float:
    """Mean accuracy over budgets in [lo, hi]: trapezoid integral / (hi - lo).

    ``lo`` defaults to the cheapest point of the curve (the cost of the first exit).
    """
    cost, acc = np.asarray(cost, float), np.asarray(acc, float)
    lo = float(cost.min()) if lo is None else lo
    grid = np.unique(np.concatenate([[lo, hi], cost[(cost > lo) & (cost < hi)]]))
    a = np.interp(grid, cost, acc)  # (G,)
    if hi <= lo:
        return float(a.mean())
    return float(np.sum(0.5 * (a[1:] + a[:-1]) * np.diff(grid)) / (hi - lo))


def accuracy_at_cost(cost: np.ndarray, acc: np.ndarray, budget: float) -> float | None:
    """Accuracy of the curve at a mean-cost budget (linear interpolation); None below exit 1."""
    if budget < np.min(cost) - 1e-12:
        return None
    return float(np.interp(budget, cost, acc))


# ---------------------------------------------------------------------------------------------
# model


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def _init_params(torch, d_in: int, widths: tuple[int, ...], n_classes: int, gen) -> list:
    """[W_1, b_1, V_1, c_1, ..., W_E, b_E, V_E, c_E] with PyTorch's default Linear init."""
    params = []
    prev = 0
    for w in widths:
        for fan_in, fan_out in ((prev + d_in, w), (w, n_classes)):
            bound = 1.0 / np.sqrt(fan_in)
            W = torch.empty(fan_in, fan_out).uniform_(-bound, bound, generator=gen)
            b = torch.empty(fan_out).uniform_(-bound, bound, generator=gen)
            params += [W.requires_grad_(), b.requires_grad_()]
        prev = w
    return params


def _forward(torch, params: list, x) -> list:
    """Per-exit logits [(N, C)] * E."""
    out, h = [], x[:, :0]
    for i in range(0, len(params), 4):
        W, b, V, c = params[i:i + 4]
        h = torch.relu(torch.cat([h, x], dim=1) @ W + b)
        out.append(h @ V + c)
    return out


def train_multi_exit(X: np.ndarray, y: np.ndarray, n_classes: int, widths: tuple[int, ...],
                     epochs: int, lr: float, batch_size: int, weight_decay: float,
                     label_smoothing: float, seed: int):
    """Train all heads jointly; return ``predict(X) -> (E, N, C) logits`` (numpy).

    Trained once per (data, configuration, seed) through the checkpoint cache
    (``claimbench.checkpoints.cached_train``): plain_ee, temp_scaled and eefp differ only after
    training, and the proxy study's swapped-proxies foil draws the very same perturbed networks,
    so a cell whose network was already trained loads its float32 weights instead of retraining
    (bit-identical predictions; the training's generator is local and not used afterwards)."""
    import sys

    import torch

    from claimbench.checkpoints import array_digest, cached_train

    widths = tuple(int(w) for w in widths)
    key = {"model": "multi_exit_mlp", "data": array_digest(X, y), "n_classes": int(n_classes),
           "widths": list(widths), "epochs": int(epochs), "lr": float(lr),
           "batch_size": int(batch_size), "weight_decay": float(weight_decay),
           "label_smoothing": float(label_smoothing), "seed": int(seed)}

    def build():
        gen = torch.Generator().manual_seed(0)  # shapes only: the weights are loaded or fitted
        m = torch.nn.Module()
        for i, t in enumerate(_init_params(torch, X.shape[1], widths, n_classes, gen)):
            m.register_buffer(f"p{i}", t.detach().clone())
        return m

    def fit(m) -> dict:
        trained = _train_params(X, y, n_classes, widths, epochs, lr, batch_size, weight_decay,
                                label_smoothing, seed)
        with torch.no_grad():
            for i, t in enumerate(trained):
                getattr(m, f"p{i}").copy_(t)
        return {}

    m, _, _ = cached_train(key, build, fit, sources=(sys.modules[__name__],))
    params = [getattr(m, f"p{i}") for i in range(4 * len(widths))]

    def predict(Xn: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            z = _forward(torch, params, torch.as_tensor(Xn, dtype=torch.float32))
        return np.stack([zi.numpy().astype(np.float64) for zi in z])  # (E, N, C)

    return predict


def _train_params(X: np.ndarray, y: np.ndarray, n_classes: int, widths: tuple[int, ...],
                  epochs: int, lr: float, batch_size: int, weight_decay: float,
                  label_smoothing: float, seed: int) -> list:
    """The joint training itself (uncached): the trained parameter tensors."""
    import torch
    import torch.nn.functional as F

    gen = torch.Generator().manual_seed(int(seed) % (2**63 - 1))
    params = _init_params(torch, X.shape[1], tuple(widths), n_classes, gen)
    opt = torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)
    Xt = torch.as_tensor(X, dtype=torch.float32)
    yt = torch.as_tensor(y, dtype=torch.long)
    n = len(yt)
    for _ in range(epochs):
        perm = torch.randperm(n, generator=gen)
        for s in range(0, n, batch_size):
            idx = perm[s:s + batch_size]
            logits = torch.cat(_forward(torch, params, Xt[idx]))  # (E * B, C)
            # one call = the mean over exits of the per-exit mean cross-entropy (equal batch sizes)
            loss = F.cross_entropy(logits, yt[idx].repeat(len(widths)),
                                   label_smoothing=label_smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return [p.detach() for p in params]


@dataclass
class PlainEarlyExit(Method):
    """Multi-exit MLP, all heads trained jointly; exit confidence = max softmax probability."""

    name: ClassVar[str] = "plain_ee"
    widths: tuple = (8, 16, 32, 64)  # our choice: 4 exits of growing cost (paper: MSDNet / ViT)
    epochs: int = 40  # our choice: tiny CPU budget (~200 Adam steps on digits)
    lr: float = 1e-2  # our choice (Adam)
    batch_size: int = 256  # our choice: few steps, the per-step overhead dominates on CPU
    weight_decay: float = 0.0  # our choice
    label_smoothing: float = 0.0  # plain cross-entropy

    def fit_network(self, data: dict, seed: int):
        return train_multi_exit(data["X_train"], data["y_train"], data["n_classes"], self.widths,
                                self.epochs, self.lr, self.batch_size, self.weight_decay,
                                self.label_smoothing, seed)

    def costs(self, data: dict) -> np.ndarray:
        return exit_costs(data["X_train"].shape[1], tuple(self.widths), data["n_classes"])

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        predict = self.fit_network(data, seed)
        probs = softmax(predict(data["X_test"]))  # (E, N, C)
        return {"probs": probs, "conf": probs.max(axis=-1), "costs": self.costs(data),
                "time_s": time.perf_counter() - t0}
