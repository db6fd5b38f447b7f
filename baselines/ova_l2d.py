"""One-vs-all (OvA) surrogate for learning to defer to one or several experts.

Sources: Verma & Nalisnick, "Calibrated Learning to Defer with One-vs-All Classifiers",
ICML 2022 (arXiv 2202.03673), single expert; multi-expert form in Verma, Barrejon &
Nalisnick, AISTATS 2023 (arXiv 2210.16955).

Same (K+J)-output scorer g as the softmax surrogate, each output an independent binary
classifier with the logistic loss phi(z) = log(1 + exp(-z)):

  (1) L_OvA(g; x, y, m) = phi(g_y) + sum_{k != y, k < K} phi(-g_k)
                          + sum_j [ 1[m_j = y] phi(g_{K+j}) + 1[m_j != y] phi(-g_{K+j}) ].
  (2) Deferral rule: argmax over all K+J scores (sigmoid(g_{K+j}) estimates P(m_j = y | x)).

With J = 0, (1) is the plain one-vs-all logistic loss (not the cross-entropy: the documented
limit of this surrogate). Training machinery is shared with baselines/softmax_l2d.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.softmax_l2d import L2DSurrogate


def logistic_loss(z: np.ndarray) -> np.ndarray:
    """phi(z) = log(1 + e^-z), computed without overflow."""
    return np.logaddexp(0.0, -z)


def ova_l2d_loss(g: np.ndarray, y: np.ndarray, correct: np.ndarray,
                 n_classes: int) -> tuple[float, np.ndarray]:
    """Eq. (1), averaged over rows: g (B, K+J), y (B,), correct (B, J) in {0, 1}."""
    n = g.shape[0]
    t = np.zeros_like(g)  # binary targets of the K+J one-vs-all problems
    t[np.arange(n), y] = 1.0
    t[:, n_classes:] = correct
    s = 2.0 * t - 1.0  # +1 for a positive target, -1 for a negative one
    loss = float(logistic_loss(s * g).sum() / n)
    # d phi(s g) / dg = -s sigmoid(-s g)
    grad = -s * (0.5 * (1.0 - np.tanh(0.5 * s * g))) / n
    return loss, grad


@dataclass
class OvAL2D(L2DSurrogate):
    """Multi-expert one-vs-all surrogate (1) (Verma et al. 2023)."""

    name: ClassVar[str] = "ova_l2d"

    def loss_and_grad(self, g, y, correct, n_classes):
        return ova_l2d_loss(g, y, correct, n_classes)

    def class_prob_hat(self, g, n_classes):
        """sigmoid(g_k) estimates P(y = k | x) per class; renormalised over the K classes."""
        s = 0.5 * (1.0 + np.tanh(0.5 * g[:, :n_classes]))  # (B, K)
        return s / s.sum(axis=1, keepdims=True)

    def expert_acc_hat(self, g, n_classes):
        """sigmoid(g_{K+j}) estimates P(m_j = y | x) (rule (2))."""
        return 0.5 * (1.0 + np.tanh(0.5 * g[:, n_classes:]))  # (B, J)
