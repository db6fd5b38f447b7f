"""Existing plasticity measures of a network checkpoint, as small functions and Method wrappers.

Each wrapper scores every checkpoint of an instance (``data["checkpoints"]``, flat parameter
vectors of the MLP in datasets/plasticity_checkpoints.py) and returns ``raw`` (the measure) and
``scores`` (the measure oriented so that larger predicts more plasticity, by the sign the
literature attaches to it: rank collapse, dead units and weight growth signal lost plasticity).

* Effective rank of the last hidden layer's features on real inputs (Roy & Vetterli 2007,
  erank = exp(entropy of the normalised singular values); used for plasticity by Kumar et al.
  2021, Lyle et al. 2022, Dohare et al. 2024). Variant ``kind="srank"``: the smallest k whose
  top-k singular values hold 1 - delta of their sum (Kumar et al. 2021, delta = 0.01).
* Dead-unit fraction: hidden units whose activation is zero on every probe input (Lyle et al.
  2022, Dohare et al. 2024); ``tau > 0`` gives Sokar et al. (2023)'s tau-dormant fraction
  (unit score = mean |h_i| / mean over the layer's units of mean |h_j|, dormant if <= tau).
* Weight norm: the Euclidean norm of all parameters (Lyle et al. 2023, Dohare et al. 2024).
* Real-data gradient norm: mean per-example squared gradient norm on real current-task
  examples with their true labels (the real-data counterpart of local redundancy).
* Validation loss: the checkpoint's current-task validation loss (lower is better); the usual
  checkpoint-selection rule, not a plasticity measure.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.plasticity_checkpoints import forward, per_example_sq_grad_norms


# -- the measures ---------------------------------------------------------------------------------
def effective_rank(features: np.ndarray, kind: str = "erank", delta: float = 0.01) -> float:
    """erank = exp(H(sigma / sum sigma)) (Roy & Vetterli 2007) or srank_delta (Kumar et al.)."""
    s = np.linalg.svd(features, compute_uv=False)
    total = s.sum()
    if total <= 0.0:
        return 0.0
    p = s / total
    if kind == "srank":
        return float(np.searchsorted(np.cumsum(p), 1.0 - delta - 1e-12) + 1)
    p = p[p > 0.0]
    return float(np.exp(-np.sum(p * np.log(p))))


def dormant_fraction(hidden: list, tau: float = 0.0) -> float:
    """Fraction of hidden units (over all layers) with score <= tau; tau = 0: dead units.

    hidden: per-layer activations on the probe inputs, each (n, width).
    """
    dormant, total = 0, 0
    for h in hidden:
        mean_abs = np.abs(h).mean(axis=0)  # (width,)
        if tau == 0.0:
            dormant += int(np.sum(mean_abs == 0.0))
        else:
            layer_mean = mean_abs.mean()
            score = mean_abs / layer_mean if layer_mean > 0 else np.zeros_like(mean_abs)
            dormant += int(np.sum(score <= tau))
        total += h.shape[1]
    return dormant / total


def weight_norm(theta: np.ndarray) -> float:
    return float(np.linalg.norm(theta))


def hidden_activations(theta: np.ndarray, sizes: tuple, X: np.ndarray,
                       activation: str) -> list:
    """[h_1, ..., h_{L-1}], each (n, width)."""
    return forward(theta, sizes, X, activation)[1][1:]


# -- Method wrappers ---------------------------------------------------------------------------
@dataclass
class _Measure(Method):
    sign: ClassVar[float] = 1.0  # +1: larger means more plastic

    def measure(self, theta: np.ndarray, data: dict, k: int) -> float:  # pragma: no cover
        raise NotImplementedError

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        raw = [self.measure(th, data, k) for k, th in enumerate(data["checkpoints"])]
        elapsed = time.perf_counter() - t0
        return {"raw": raw, "scores": [self.sign * r for r in raw], "time_s": elapsed}


@dataclass
class EffectiveRank(_Measure):
    """Effective rank of the last hidden layer's features on the checkpoint's current-task data."""

    name: ClassVar[str] = "effective_rank"
    kind: str = "erank"  # Roy & Vetterli (2007) exp-entropy rank, as in Dohare et al. (2024)
    delta: float = 0.01  # srank threshold (Kumar et al. 2021); used only when kind="srank"

    def measure(self, theta, data, k):
        X = data["probes"][k][0]
        feats = hidden_activations(theta, data["sizes"], X, data["activation"])[-1]
        return effective_rank(feats, self.kind, self.delta)


@dataclass
class DeadUnitFraction(_Measure):
    """Fraction of dead (tau = 0) or tau-dormant hidden units on current-task data."""

    name: ClassVar[str] = "dead_fraction"
    sign: ClassVar[float] = -1.0
    tau: float = 0.0  # dead units (Dohare et al. 2024); Sokar et al. (2023) use tau in (0, 0.1]

    def measure(self, theta, data, k):
        X = data["probes"][k][0]
        return dormant_fraction(hidden_activations(theta, data["sizes"], X, data["activation"]),
                                self.tau)


@dataclass
class WeightNorm(_Measure):
    """Euclidean norm of all parameters."""

    name: ClassVar[str] = "weight_norm"
    sign: ClassVar[float] = -1.0

    def measure(self, theta, data, k):
        return weight_norm(theta)


@dataclass
class GradNorm(_Measure):
    """Mean per-example squared gradient norm on real current-task data with true labels."""

    name: ClassVar[str] = "grad_norm"

    def measure(self, theta, data, k):
        X, y = data["probes"][k]
        return float(per_example_sq_grad_norms(theta, data["sizes"], X, y,
                                               data["activation"]).mean())


@dataclass
class ValidationLoss(_Measure):
    """Current-task validation loss of the checkpoint (selection rule: the lowest)."""

    name: ClassVar[str] = "val_loss"
    sign: ClassVar[float] = -1.0

    def measure(self, theta, data, k):
        return float(data["val_loss"][k])
