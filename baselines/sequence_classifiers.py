"""ANN sequence classifiers of one width: an MLP on the time-flattened input, a 1-D CNN and a GRU.

Inputs are (n, T, C) sequences; each model returns class logits and counts its multiply-
accumulates per sample (``macs``) for the 45 nm energy estimate of baselines/spiking_layers.py
(bias additions, activations, pooling and gate nonlinearities are not counted, as in the SNN
literature's estimate).
- ``mlp``: Linear(T*C, H) - ReLU - Linear(H, H) - ReLU - Linear(H, K).
- ``cnn1d``: Conv1d(C, H, k) - ReLU - Conv1d(H, H, k) - ReLU - mean over time - Linear(H, K)
  ('same' padding).
- ``gru``: one GRU layer of H units (Cho et al. 2014), the last state - Linear(H, K).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.spiking_layers import energy_pj
from claimbench.baselines.supervised_training import build_seeded, fit_classifier, predict


def ann_macs(kind: str, T: int, C: int, H: int, K: int, kernel: int) -> int:
    if kind == "mlp":
        return T * C * H + H * H + H * K
    if kind == "cnn1d":
        return T * kernel * C * H + T * kernel * H * H + H * K
    if kind == "gru":
        return T * 3 * (C * H + H * H) + H * K
    raise ValueError(kind)


@functools.cache
def _classes():
    import torch
    from torch import nn

    class MLP(nn.Module):
        def __init__(self, T, C, H, K):
            super().__init__()
            self.net = nn.Sequential(nn.Flatten(), nn.Linear(T * C, H), nn.ReLU(),
                                     nn.Linear(H, H), nn.ReLU(), nn.Linear(H, K))

        def forward(self, x):  # x (B, T, C)
            return self.net(x)

    class CNN1D(nn.Module):
        def __init__(self, C, H, K, kernel):
            super().__init__()
            pad = kernel // 2
            self.conv = nn.Sequential(nn.Conv1d(C, H, kernel, padding=pad), nn.ReLU(),
                                      nn.Conv1d(H, H, kernel, padding=pad), nn.ReLU())
            self.head = nn.Linear(H, K)

        def forward(self, x):  # x (B, T, C)
            h = self.conv(x.transpose(1, 2))  # (B, H, T)
            return self.head(h.mean(-1))

    class GRU(nn.Module):
        def __init__(self, C, H, K):
            super().__init__()
            self.rnn = nn.GRU(C, H, batch_first=True)
            self.head = nn.Linear(H, K)

        def forward(self, x):  # x (B, T, C)
            _, h = self.rnn(x)  # h (1, B, H)
            return self.head(h[0])

    return MLP, CNN1D, GRU


@dataclass
class SequenceANN(Method):
    """Shared fields; subclasses fix ``kind``."""

    name: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    hidden: int = 32  # ours: the SNN's width (same-width comparison, research note)
    kernel: int = 5  # ours (cnn1d only)
    epochs: int = 20  # ours (scaled down), as the SNN
    lr: float = 1e-2  # ours, as the SNN
    batch_size: int = 50  # ours, as the SNN

    def _build(self, T: int, C: int, K: int):
        MLP, CNN1D, GRU = _classes()
        if self.kind == "mlp":
            return MLP(T, C, self.hidden, K)
        if self.kind == "cnn1d":
            return CNN1D(C, self.hidden, K, self.kernel)
        return GRU(C, self.hidden, K)

    def run(self, data: dict, seed: int) -> dict:
        x, y = data["x_train"], data["y_train"]
        _, T, C = x.shape
        K = int(data["n_classes"])
        model = build_seeded(lambda: self._build(T, C, K), seed)
        loss = fit_classifier(model, x, y, self.epochs, self.lr, self.batch_size, seed)
        pred = predict(model, data["x_test"])
        macs = ann_macs(self.kind, T, C, self.hidden, K, self.kernel)
        return {"pred": pred, "macs": float(macs), "sops": 0.0,
                "energy_pJ": energy_pj(macs, 0.0), "firing_rate": None, "train_loss": loss}


@dataclass
class MLPClassifier(SequenceANN):
    name: ClassVar[str] = "mlp"
    kind: ClassVar[str] = "mlp"


@dataclass
class CNN1DClassifier(SequenceANN):
    name: ClassVar[str] = "cnn1d"
    kind: ClassVar[str] = "cnn1d"


@dataclass
class GRUClassifier(SequenceANN):
    name: ClassVar[str] = "gru"
    kind: ClassVar[str] = "gru"


def accuracy(pred: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(np.asarray(pred) == np.asarray(y)))
