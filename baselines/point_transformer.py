"""A light Point Transformer (Zhao et al., ICCV 2021): kNN vector self-attention on point features.

Per-point embedding MLP 3 -> H -> H, one point-transformer block, max-pooling, linear classifier.
The block (Zhao et al. eq. 3): for point i and its k nearest neighbours j (by coordinates),

    y_i = sum_j softmax_j( gamma(phi(f_i) - psi(f_j) + delta_ij) ) (.) (alpha(f_j) + delta_ij),
    delta_ij = theta(p_i - p_j),

with phi, psi, alpha linear, theta and gamma two-layer MLPs (ReLU), the softmax over the k
neighbours per channel (vector attention), then a linear output projection and a residual.
Deviations: one block and no transition-down stages (CPU), widths of 32, gamma a single linear
layer with ReLU after the subtraction.

``attention_ops`` counts the block's multiplications and softmax exponentials analytically, and
``macs`` the whole network's multiply-accumulates per sample (45 nm energy estimate).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines.spiking_layers import energy_pj
from claimbench.baselines.supervised_training import build_seeded, fit_classifier, predict


def knn_indices(x, k: int):
    """Indices (B, N, k) of each point's k nearest neighbours (itself included) in x (B, N, 3)."""
    import torch

    d = torch.cdist(x, x)  # (B, N, N)
    return d.topk(k, dim=-1, largest=False).indices


def gather_neighbours(f, idx):
    """f (..., B, N, C), idx (B, N, k) -> (..., B, N, k, C)."""
    import torch

    B, N, k = idx.shape
    flat = idx.reshape(B, N * k)  # (B, N k)
    lead = f.shape[:-3]
    g = f.reshape(-1, B, N, f.shape[-1])  # (L, B, N, C)
    out = g[:, torch.arange(B)[:, None], flat]  # (L, B, N k, C)
    return out.reshape(*lead, B, N, k, f.shape[-1])


def attention_ops(N: int, k: int, H: int) -> dict:
    """Multiplications and softmax exponentials of one vector-attention block, per sample."""
    mults = (3 * N * H * H  # phi, psi, alpha
             + N * k * (3 * H + H * H)  # theta (position MLP)
             + N * k * H * H  # gamma
             + N * k * H  # softmax weights (.) values
             + N * H * H)  # output projection
    return {"mults": mults, "softmax": N * k * H}


@functools.cache
def _classes():
    import torch
    from torch import nn

    class PointTransformer(nn.Module):
        def __init__(self, H, K, k):
            super().__init__()
            self.k = k
            self.embed = nn.Sequential(nn.Linear(3, H), nn.ReLU(), nn.Linear(H, H), nn.ReLU())
            self.phi, self.psi, self.alpha = nn.Linear(H, H), nn.Linear(H, H), nn.Linear(H, H)
            self.theta = nn.Sequential(nn.Linear(3, H), nn.ReLU(), nn.Linear(H, H))
            self.gamma = nn.Linear(H, H)
            self.out = nn.Linear(H, H)
            self.head = nn.Linear(H, K)

        def forward(self, x):  # x (B, N, 3)
            idx = knn_indices(x, self.k)  # (B, N, k)
            f = self.embed(x)  # (B, N, H)
            delta = self.theta(x.unsqueeze(2) - gather_neighbours(x, idx))  # (B, N, k, H)
            logits = self.gamma(torch.relu(self.phi(f).unsqueeze(2)
                                           - gather_neighbours(self.psi(f), idx) + delta))
            w = torch.softmax(logits, dim=2)  # (B, N, k, H) over neighbours, per channel
            y = (w * (gather_neighbours(self.alpha(f), idx) + delta)).sum(2)  # (B, N, H)
            f = f + self.out(y)
            return self.head(f.amax(1))  # (B, K)

    return PointTransformer


@dataclass
class PointTransformerClassifier(Method):
    name: ClassVar[str] = "point_transformer"

    hidden: int = 16  # ours, as PointNet here
    k: int = 16  # research note (Zhao et al. use k = 16)
    epochs: int = 15  # ours, as PointNet here
    lr: float = 1e-2  # ours, as PointNet here
    batch_size: int = 32  # ours, as PointNet here

    def run(self, data: dict, seed: int) -> dict:
        PT = _classes()
        x, y, H, K = data["x_train"], data["y_train"], self.hidden, int(data["n_classes"])
        N = x.shape[1]
        model = build_seeded(lambda: PT(H, K, self.k), seed)
        loss = fit_classifier(model, x, y, self.epochs, self.lr, self.batch_size, seed)
        ops = attention_ops(N, self.k, H)
        macs = N * (3 * H + H * H) + ops["mults"] + H * K
        return {"pred": predict(model, data["x_test"]), "macs": float(macs), "sops": 0.0,
                "energy_pJ": energy_pj(macs, 0.0),
                "attn_real_ops": float(ops["mults"] + ops["softmax"]), "train_loss": loss}
