"""MP-MoE: Mahalanobis-pruned expert selection for mixture-of-experts routing.

Paper: "Breaking the Echo Chamber: A Dynamic Ensemble Pruning Perspective on MoE" (MP-MoE),
ICML 2026, OpenReview https://openreview.net/forum?id=7FsbfQgti4; code github.com/kxlkxl1999/MP-MoE
(read: README, megatron/core/transformer/moe/OT_pruning.py, router.py, moe_layer.py and the
FLAME-MoE configs; the paper's PDF was not available offline, its statements come from the
research note /work/shared/papers/mp_moe.md and public summaries).

Notation: E experts, k active per token, p in R^E the router's softmax probabilities of a token.

(1) Selection as ensemble pruning: choose S, |S| = k, maximising the Mahalanobis score
        J(S) = p_S^T Sigma_SS^{-1} p_S
    instead of the k largest p_j: experts that are used together (positively co-selected) are
    redundant, rarely used experts (small variance Sigma_jj) are favoured.
(2) Greedy maximisation with an incrementally updated inverse Cholesky factor R
    (R Sigma_SS R^T = I, lower triangular), batched over tokens:
        first j0 = argmax_j p_j^2 / Sigma_jj, R = [Sigma_j0j0^{-1/2}], z = R p_S;
        then for every candidate j not in S: alpha_j = R Sigma_{S,j},
        r_j = (Sigma_jj - ||alpha_j||^2)^{-1/2}, score_j = ||z||^2 + (r_j (p_j - alpha_j^T z))^2
        (= J(S + j) exactly); add the best j*, append z_new = r (p_j* - alpha^T z) to z and the
        row [-r alpha^T R, r] to R. The Schur complement is floored at eps = 1e-12.
(3) Sigma from routing statistics only (no hidden states): over all training forwards so far,
    C = sum_t m_t m_t^T (co-selection counts, m_t the token's 0/1 routing vector), u = sum_t m_t,
    N = number of tokens; Sigma = C/N - u u^T / N^2, symmetrised, diagonal floored at 1e-12,
    recomputed after every training forward; Sigma = I before the first one.
(4) Warm-up: plain top-k for the first 1% of training forwards (counted per layer).
(5) Gates and losses are the surrounding MoE layer's (baselines/sparse_moe.py): gate_j = p_j for
    j in S (FLAME-MoE's pre-softmax router), the Switch load-balancing loss (coefficient 0.01)
    and router z-loss (0.001) of the FLAME-MoE MP-MoE config; the benchmark also runs MP-MoE
    with the load-balancing loss off (``aux_coeff=0``), as the issue asks.

Deviations:
1. Scale: E = 8, k = 2 (FLAME-MoE: 64 experts, top-8, plus a shared expert), a 2-layer d = 64
   tiny transformer with GELU experts (FLAME-MoE: SwiGLU, RMSNorm, 38M-419M parameters), a
   character LM on CPython's help topics (FLAME-MoE: FineWeb-Edu, BPE) for a few hundred steps.
   No shared expert, no expert capacity / token dropping, no expert parallelism.
2. The paper's downstream metrics (BBH, GSM8K, ... accuracy, "+1-3 pp") cannot be run; we use
   validation NLL/perplexity of the LM and MSE of a synthetic mixture regression.
3. Warm-up counts training forwards of each layer; with a few hundred steps 1% is a few steps.
4. Selection and statistics run in float32 on CPU, the routing statistics stay per layer (the
   code all-reduces them over expert/tensor-parallel ranks; one process here).

Mutants for foils (field ``mutant``; "" is the method above, unchanged):
- ``identity_sigma``: Sigma fixed to the identity (the routing statistics removed). Then
  J(S) = sum_{j in S} p_j^2 and the greedy step (2) picks exactly the top-k experts: the
  mutant is top-k routing computed by the MP-MoE code path.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.sparse_moe import MoERouting, Selector, topk_mask

MUTANTS = ("", "identity_sigma")


def mahalanobis_greedy(probs, sigma, k: int, eps: float = 1e-12):
    """(2): bool mask (N, E), k True per row, greedily maximising p_S^T Sigma_SS^-1 p_S."""
    import torch

    N, E = probs.shape
    dtype = probs.dtype
    sigma = sigma.to(dtype)
    diag = sigma.diagonal().clamp_min(eps)  # (E,)
    sel = torch.zeros(N, E, dtype=torch.bool)
    idx = torch.zeros(N, k, dtype=torch.long)
    R = torch.zeros(N, k, k, dtype=dtype)  # inverse Cholesky factor of Sigma_SS, per token
    z = torch.zeros(N, k, dtype=dtype)  # R p_S
    rows = torch.arange(N)
    j = (probs.pow(2) / diag).argmax(1)  # (N,)
    idx[:, 0] = j
    sel[rows, j] = True
    R[:, 0, 0] = diag[j].rsqrt()
    z[:, 0] = R[:, 0, 0] * probs[rows, j]
    z2 = z[:, 0].pow(2)  # (N,) ||z||^2
    for t in range(1, k):
        beta = sigma[idx[:, :t]]  # (N, t, E): Sigma_{S, j} for every candidate j
        Rt = R[:, :t, :t]  # (N, t, t)
        alpha = Rt @ beta  # (N, t, E)
        s = (diag - alpha.pow(2).sum(1)).clamp_min(eps)  # (N, E) Schur complements
        r = s.rsqrt()  # (N, E)
        delta = probs - (alpha * z[:, :t, None]).sum(1)  # (N, E) p_j - alpha_j^T z
        score = (z2[:, None] + (r * delta).pow(2)).masked_fill(sel, float("-inf"))  # (N, E)
        j = score.argmax(1)  # (N,)
        idx[:, t] = j
        sel[rows, j] = True
        a, rj = alpha[rows, :, j], r[rows, j]  # (N, t), (N,)
        z[:, t] = rj * delta[rows, j]
        z2 = z2 + z[:, t].pow(2)
        R[:, t, :t] = -rj[:, None] * (a[:, None, :] @ Rt)[:, 0]  # (N, t)
        R[:, t, t] = rj
    return sel


def mahalanobis_score(p, sigma, S) -> float:
    """(1) for one token, exactly (numpy float64): p_S^T Sigma_SS^-1 p_S."""
    import numpy as np

    S = list(S)
    pS = np.asarray(p, dtype=np.float64)[S]
    return float(pS @ np.linalg.solve(np.asarray(sigma, dtype=np.float64)[np.ix_(S, S)], pS))


def cooccurrence_sigma(C, u, N: int, eps: float = 1e-12):
    """(3): Sigma = C/N - u u^T / N^2, symmetrised, diagonal floored at eps."""
    import torch

    sig = C / N - torch.outer(u, u) / float(N) ** 2  # (E, E)
    sig = 0.5 * (sig + sig.T)
    sig.diagonal().clamp_(min=eps)
    return sig


class MahalanobisSelector(Selector):
    """Per-layer state of (3)-(4) and the selection (2)."""

    def __init__(self, k: int, n_experts: int, warmup: int, mutant: str = "",
                 eps: float = 1e-12) -> None:
        import torch

        super().__init__(k)
        if mutant not in MUTANTS:
            raise ValueError(f"mutant={mutant!r}; valid: {MUTANTS}")
        self.warmup, self.mutant, self.eps = warmup, mutant, eps
        self.C = torch.zeros(n_experts, n_experts)  # co-selection counts
        self.u = torch.zeros(n_experts)  # usage counts
        self.N = 0  # tokens seen
        self.sigma = torch.eye(n_experts)
        self.forwards = 0  # training forwards (warm-up clock)

    def select(self, probs, training: bool):
        import torch

        if training:
            self.forwards += 1
        if self.forwards <= self.warmup:
            return topk_mask(probs, self.k)
        sigma = torch.eye(probs.shape[1]) if self.mutant == "identity_sigma" else self.sigma
        return mahalanobis_greedy(probs, sigma, self.k, self.eps)

    def observe(self, mask) -> None:
        m = mask.float()  # (N, E)
        self.C += m.T @ m
        self.u += m.sum(0)
        self.N += m.shape[0]
        self.sigma = cooccurrence_sigma(self.C, self.u, self.N, self.eps)


@dataclass
class MPMoE(MoERouting):
    name: ClassVar[str] = "mp_moe"
    warmup_frac: float = 0.01  # plain top-k for the first 1% of training (code: OTEP warm-up)
    sigma_eps: float = 1e-12  # Schur-complement and diagonal floor (code: OT_pruning.py, moe_layer.py)
    mutant: str = ""  # "" = the paper's method; see MUTANTS

    def selector(self, layer: int, seed: int) -> Selector:
        return MahalanobisSelector(self.top_k, self.n_experts,
                                   math.ceil(self.warmup_frac * self.steps), self.mutant,
                                   self.sigma_eps)
