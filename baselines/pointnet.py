"""PointNet (Qi et al., CVPR 2017) and Spiking PointNet (Ren et al., NeurIPS 2023), small.

Both: a shared per-point MLP 3 -> H -> H, max-pooling over points (permutation invariant), a
linear classifier. PointNet uses ReLU. Spiking PointNet replaces each ReLU by a LIF neuron
(baselines/spiking_layers.py) run for T time steps with direct encoding (the same coordinates at
every step); max-pooling of spikes is an OR over points; logits are averaged over steps.
Deviations (both): no input/feature T-Nets, no batch norm, widths of 32 (CPU); Spiking PointNet
is trained directly with T steps (not its trained-less-infer-more schedule).

Operation counts per sample (``macs``, ``sops``), for the 45 nm estimate: the ANN costs
N (3H + H^2) + H K MACs; the SNN's first layer sees the same real coordinates at every step,
so it is computed once (N 3 H MACs), and the spiking layers cost spikes x fan-out SOPs.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines.spiking_layers import energy_pj, fast_lif_class, firing_rate
from claimbench.baselines.supervised_training import build_seeded, fit_classifier, predict


@functools.cache
def _classes():
    from torch import nn

    # the shared LIF with its BPTT written out by hand: the same spikes and gradients bit for bit
    # (tests/test_spikenet.py), without autograd's per-time-step graph
    LIF = fast_lif_class()

    class PointNet(nn.Module):
        def __init__(self, H, K):
            super().__init__()
            self.mlp = nn.Sequential(nn.Linear(3, H), nn.ReLU(), nn.Linear(H, H), nn.ReLU())
            self.head = nn.Linear(H, K)

        def forward(self, x):  # x (B, N, 3)
            return self.head(self.mlp(x).amax(1))  # (B, K)

    class SpikingPointNet(nn.Module):
        def __init__(self, H, K, T, beta, threshold):
            super().__init__()
            self.T = T
            self.fc1, self.fc2, self.head = nn.Linear(3, H), nn.Linear(H, H), nn.Linear(H, K)
            self.lif1, self.lif2 = LIF(beta, threshold), LIF(beta, threshold)
            self.pooled_spikes = 0.0

        def forward(self, x):  # x (B, N, 3)
            cur = self.fc1(x).unsqueeze(0).expand(self.T, *x.shape[:2], -1)  # (T, B, N, H)
            s2 = self.lif2(self.fc2(self.lif1(cur)))  # (T, B, N, H)
            pooled = s2.amax(2)  # (T, B, H) spike OR over points
            if not self.training:
                self.pooled_spikes += float(pooled.sum())
            return self.head(pooled).mean(0)  # (B, K)

    return PointNet, SpikingPointNet


@dataclass
class PointNetClassifier(Method):
    name: ClassVar[str] = "pointnet"

    hidden: int = 16  # ours (PointNet: 64-64-64-128-1024), for CPU
    epochs: int = 15  # ours
    lr: float = 1e-2  # ours
    batch_size: int = 32  # ours

    def run(self, data: dict, seed: int) -> dict:
        PointNet, _ = _classes()
        x, y, H, K = data["x_train"], data["y_train"], self.hidden, int(data["n_classes"])
        N = x.shape[1]
        model = build_seeded(lambda: PointNet(H, K), seed)
        loss = fit_classifier(model, x, y, self.epochs, self.lr, self.batch_size, seed)
        macs = N * (3 * H + H * H) + H * K
        return {"pred": predict(model, data["x_test"]), "macs": float(macs), "sops": 0.0,
                "energy_pJ": energy_pj(macs, 0.0), "train_loss": loss}


@dataclass
class SpikingPointNetClassifier(Method):
    name: ClassVar[str] = "spiking_pointnet"

    hidden: int = 16  # as PointNet here
    timesteps: int = 4  # research note (Spiking PointNet is trained with few steps)
    beta: float = 0.5  # ours: LIF decay (snntorch-style leak)
    threshold: float = 0.5  # ours (snntorch default 1.0: too few spikes at init here)
    epochs: int = 15  # as PointNet here
    lr: float = 1e-2  # as PointNet here
    batch_size: int = 32  # as PointNet here

    def run(self, data: dict, seed: int) -> dict:
        _, SNN = _classes()
        x, y, H, K = data["x_train"], data["y_train"], self.hidden, int(data["n_classes"])
        n_test, N = len(data["x_test"]), x.shape[1]
        model = build_seeded(lambda: SNN(H, K, self.timesteps, self.beta, self.threshold), seed)
        loss = fit_classifier(model, x, y, self.epochs, self.lr, self.batch_size, seed)
        model.lif1.reset_counts()
        model.lif2.reset_counts()
        pred = predict(model, data["x_test"])
        macs = N * 3 * H
        sops = (model.lif1.spikes * H + model.pooled_spikes * K) / n_test
        return {"pred": pred, "macs": float(macs), "sops": float(sops),
                "energy_pJ": energy_pj(macs, sops),
                "firing_rate": firing_rate([model.lif1, model.lif2]), "train_loss": loss}
