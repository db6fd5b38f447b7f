"""Softmax (cross-entropy) surrogate for learning to defer to one or several experts.

Sources: Mozannar & Sontag, "Consistent Estimators for Learning to Defer to an Expert",
ICML 2020 (arXiv 2006.01862), single expert; its multi-expert extension by Verma, Barrejon &
Nalisnick, "Learning to Defer to Multiple Experts: Consistent Surrogate Losses, Confidence
Calibration, and Conformal Ensembles", AISTATS 2023 (arXiv 2210.16955).

A scorer g: x -> R^(K+J) has K class outputs and one "defer to expert j" output per expert;
psi = softmax(g). With labels y and expert predictions m_j:

  (1) L_CE(g; x, y, m) = -log psi_y(x) - sum_j 1[m_j = y] log psi_{K+j}(x).
  (2) Deferral rule: a = argmax_{i < K+J} g_i(x); predict class a when a < K, else defer to
      expert a - K (the system answers m_{a-K}(x)). The classifier alone is argmax_{k<K} g_k.
  With J = 0 (or no correct expert) (1) is the ordinary cross-entropy.

This module also holds what every multi-expert L2D surrogate here shares: a one-hidden-layer
ReLU network written in numpy with its backward pass, the minibatch training loop (Adam from
:mod:`claimbench.optim`) and
the deferral rule, and the :class:`L2DSurrogate` method base class; a surrogate subclass only
supplies ``loss_and_grad(g, y, correct, K) -> (mean loss, d loss / d g)``.

Deviations (shared by all surrogates in the benchmark): a small MLP (64 hidden units) trained
by Adam on CPU instead of the WideResNet/ResNet of the papers; no early stopping.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.optim import Adam


# -- the surrogate -------------------------------------------------------------------------
def log_softmax(g: np.ndarray) -> np.ndarray:
    z = g - g.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def weighted_ce(g: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray]:
    """-sum_i w_i log softmax(g)_i, averaged over rows; gradient (sum w) psi - w per row."""
    lp = log_softmax(g)  # (B, K+J)
    n = g.shape[0]
    loss = float(-(w * lp).sum() / n)
    grad = (w.sum(axis=1, keepdims=True) * np.exp(lp) - w) / n
    return loss, grad


def softmax_l2d_loss(g: np.ndarray, y: np.ndarray, correct: np.ndarray,
                     n_classes: int) -> tuple[float, np.ndarray]:
    """Eq. (1): g (B, K+J) scores, y (B,) labels, correct (B, J) = 1[m_j = y]."""
    w = np.zeros_like(g)
    w[np.arange(g.shape[0]), y] = 1.0
    w[:, n_classes:] = correct
    return weighted_ce(g, w)


def defer_decision(g: np.ndarray, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (2): (argmax over classes + experts, argmax over classes only)."""
    return g.argmax(axis=1), g[:, :n_classes].argmax(axis=1)


def system_predictions(decision: np.ndarray, m: np.ndarray, n_classes: int) -> np.ndarray:
    """The system's answer: the class when decision < K, else the chosen expert's prediction."""
    dec = np.asarray(decision)
    j = np.clip(dec - n_classes, 0, max(m.shape[1] - 1, 0))
    expert = m[np.arange(dec.shape[0]), j] if m.shape[1] else dec
    return np.where(dec < n_classes, dec, expert)


# -- network and optimizer ------------------------------------------------------------------
def init_mlp(d_in: int, hidden: int, d_out: int, rng: np.random.Generator) -> dict:
    """torch.nn.Linear's default init: uniform on +-1/sqrt(fan_in) for weights and biases."""
    b1, b2 = 1.0 / np.sqrt(d_in), 1.0 / np.sqrt(hidden)
    return {"W1": rng.uniform(-b1, b1, (d_in, hidden)), "c1": rng.uniform(-b1, b1, hidden),
            "W2": rng.uniform(-b2, b2, (hidden, d_out)), "c2": rng.uniform(-b2, b2, d_out)}


def mlp_forward(p: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = np.maximum(x @ p["W1"] + p["c1"], 0.0)  # (B, H)
    return h @ p["W2"] + p["c2"], h  # (B, K+J), (B, H)


def mlp_backward(p: dict, x: np.ndarray, h: np.ndarray, dg: np.ndarray) -> dict:
    dh = (dg @ p["W2"].T) * (h > 0)  # (B, H)
    return {"W1": x.T @ dh, "c1": dh.sum(0), "W2": h.T @ dg, "c2": dg.sum(0)}


def _is_weight(key: str) -> bool:
    """L2 weight decay applies to the weight matrices W1, W2, not the biases."""
    return key.startswith("W")


# -- the shared method ------------------------------------------------------------------------
@dataclass
class L2DSurrogate(Method):
    """Train the (K+J)-output MLP with a surrogate, then apply the deferral rule (2).

    Every surrogate of the benchmark shares these fields, so all see the same architecture,
    optimizer, epochs and minibatch order (the order depends on the seed only).
    """

    name: ClassVar[str] = ""

    hidden: int = 64  # our choice (research note: 64-128 hidden units)
    epochs: int = 50  # research note's plan (paper: 200 epochs of a WideResNet)
    lr: float = 1e-3  # our choice: Adam's default
    batch_size: int = 128  # our choice (paper: 128 on CIFAR-100)
    weight_decay: float = 0.0  # our choice

    def loss_and_grad(self, g: np.ndarray, y: np.ndarray, correct: np.ndarray,
                      n_classes: int) -> tuple[float, np.ndarray]:  # pragma: no cover
        raise NotImplementedError

    def expert_acc_hat(self, g: np.ndarray, n_classes: int) -> np.ndarray:
        """Estimated P(m_j = y | x) per row and expert: psi_{K+j} / sum_k psi_k. The softmax
        surrogates' targets are (P(.|x), t_1, ..., t_J) / (1 + sum_j t_j), so the ratio is t_j
        (CE: t_j = P(m_j = y | x), Verma et al. 2023; PiCCE: the share of the expert it picks)."""
        p = np.exp(log_softmax(g))  # (B, K+J)
        return p[:, n_classes:] / p[:, :n_classes].sum(axis=1, keepdims=True)  # (B, J)

    def class_prob_hat(self, g: np.ndarray, n_classes: int) -> np.ndarray:
        """Estimated P(k | x): psi_k / sum_{k'<K} psi_k'. The class part of every softmax
        surrogate here has target P(. | x) / (1 + sum_j t_j), so the renormalised class
        outputs are P(. | x) at the minimiser, whatever the defer targets t_j are."""
        return np.exp(log_softmax(g[:, :n_classes]))  # (B, K)

    def train(self, x: np.ndarray, y: np.ndarray, correct: np.ndarray, n_classes: int,
              seed: int) -> tuple[dict, list[float]]:
        rng = np.random.default_rng(seed)
        n, n_out = x.shape[0], n_classes + correct.shape[1]
        params = init_mlp(x.shape[1], self.hidden, n_out, rng)
        opt = Adam(self.lr, weight_decay=self.weight_decay, decays=_is_weight)
        losses = []
        for _ in range(self.epochs):
            order = rng.permutation(n)
            total = 0.0
            for s in range(0, n, self.batch_size):
                idx = order[s:s + self.batch_size]
                g, h = mlp_forward(params, x[idx])
                loss, dg = self.loss_and_grad(g, y[idx], correct[idx], n_classes)
                # The loss is a mean over the batch; weight by its size for an epoch mean.
                total += loss * idx.shape[0]
                opt.step(params, mlp_backward(params, x[idx], h, dg))
            losses.append(total / n)
        return params, losses

    def run(self, data: dict, seed: int) -> dict:
        x, y, m = data["x_train"], data["y_train"], data["m_train"]
        n_classes = int(data["n_classes"])
        correct = (m == y[:, None]).astype(float)  # (n, J)
        t0 = time.perf_counter()
        params, losses = self.train(x, y, correct, n_classes, seed)
        g_test, _ = mlp_forward(params, data["x_test"])  # (n_test, K+J)
        decision, clf_pred = defer_decision(g_test, n_classes)
        acc_hat = self.expert_acc_hat(g_test, n_classes)  # (n_test, J)
        class_prob = self.class_prob_hat(g_test, n_classes)  # (n_test, K)
        elapsed = time.perf_counter() - t0
        g_train, _ = mlp_forward(params, x)
        train_clf_acc = float((g_train[:, :n_classes].argmax(1) == y).mean())
        return {"decision": decision, "clf_pred": clf_pred, "acc_hat": acc_hat,
                "class_prob": class_prob, "time_s": elapsed,
                "train_loss": losses[-1], "train_clf_acc": train_clf_acc,
                "traces": {"train_loss_vs_epoch": {"x": list(range(1, len(losses) + 1)),
                                                   "y": losses, "xlabel": "epoch",
                                                   "ylabel": "surrogate loss (train)"}}}


@dataclass
class SoftmaxL2D(L2DSurrogate):
    """Multi-expert cross-entropy surrogate (1) (Verma et al. 2023; Mozannar & Sontag 2020)."""

    name: ClassVar[str] = "softmax_l2d"

    def loss_and_grad(self, g, y, correct, n_classes):
        return softmax_l2d_loss(g, y, correct, n_classes)
