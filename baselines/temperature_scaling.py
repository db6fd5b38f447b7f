"""Temperature scaling (Guo et al., 2017), one temperature per exit of an early-exit network.

For logits z of one classifier, T > 0 minimises the validation negative log-likelihood
    NLL(T) = -mean_n log softmax(z_n / T)[y_n],
searched over log T (bounded, scipy's ``minimize_scalar``). Scaling by T keeps every prediction;
it reorders samples by max-softmax confidence only mildly (the max probability depends on the
whole logit vector, so two samples can swap), and across exits it moves the confidences
relative to each other, which changes where a shared-threshold exit rule stops.

Also here: the expected calibration error (equal-width bins, Naeini et al. 2015 / Guo et al.
2017): ECE = sum_b |B_b|/N * |acc(B_b) - conf(B_b)|.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.early_exit_network import PlainEarlyExit, softmax


def expected_calibration_error(conf: np.ndarray, correct: np.ndarray, n_bins: int = 15) -> float:
    """ECE with ``n_bins`` equal-width bins on [0, 1] (bin b = (b/n, (b+1)/n], 0 in the first)."""
    conf = np.clip(np.asarray(conf, float), 0.0, 1.0)  # (N,)
    correct = np.asarray(correct, float)  # (N,)
    bins = np.clip(np.ceil(conf * n_bins).astype(int) - 1, 0, n_bins - 1)  # (N,)
    total = 0.0
    for b in np.unique(bins):
        m = bins == b
        total += m.mean() * abs(correct[m].mean() - conf[m].mean())
    return float(total)


def nll(logits: np.ndarray, labels: np.ndarray, T: float) -> float:
    z = logits / T
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))  # (N, C)
    return float(-logp[np.arange(len(labels)), labels].mean())


def fit_temperature(logits: np.ndarray, labels: np.ndarray, log_bound: float = 4.0) -> float:
    """argmin_T NLL(T) over log T in [-log_bound, log_bound]."""
    from scipy.optimize import minimize_scalar

    logits = np.asarray(logits, float)  # (N, C)
    labels = np.asarray(labels, int)  # (N,)
    res = minimize_scalar(lambda s: nll(logits, labels, np.exp(s)),
                          bounds=(-log_bound, log_bound), method="bounded",
                          options={"xatol": 1e-6})
    return float(np.exp(res.x))


@dataclass
class TemperatureScaledEarlyExit(PlainEarlyExit):
    """The plain multi-exit network with one temperature per exit fitted on the validation split."""

    name: ClassVar[str] = "temp_scaled"

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        predict = self.fit_network(data, seed)
        val = predict(data["X_val"])  # (E, Nv, C)
        temps = np.array([fit_temperature(v, data["y_val"]) for v in val])  # (E,)
        probs = softmax(predict(data["X_test"]) / temps[:, None, None])  # (E, N, C)
        return {"probs": probs, "conf": probs.max(axis=-1), "costs": self.costs(data),
                "temperatures": temps.tolist(), "time_s": time.perf_counter() - t0}

