"""MP-MoE: Mahalanobis-pruned expert selection for mixture-of-experts routing.

Paper: "Breaking the Echo Chamber: A Dynamic Ensemble Pruning Perspective on MoE" (MP-MoE),
ICML 2026, OpenReview https://openreview.net/forum?id=7FsbfQgti4; code github.com/kxlkxl1999/MP-MoE
(read: README, megatron/core/transformer/moe/OT_pruning.py, router.py (TopKRouter.routing, the
"otep" and "aux_loss" branches), moe_layer.py and the FLAME-MoE configs; the paper's full text
was not available offline, only its ICML abstract: its statements come from the abstract and the
research note /work/shared/papers/mp_moe.md).

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
(5) Gates (router.py): the authors' MP-MoE masks the unselected experts' logits and takes the
    softmax over the selected set, gate_j = exp(l_j) / sum_{i in S} exp(l_i) (renormalised;
    ``pre_softmax=False`` of the MoE layer, baselines/sparse_moe.py), while their top-k baseline
    (FLAME-MoE, --moe-router-pre-softmax) gates with the full softmax, gate_j = p_j, not
    renormalised (``pre_softmax=True``, the layer's default). The benchmark runs both gates for
    both selections, so that the selection and the renormalisation can be told apart. Losses:
    the Switch load-balancing loss on the full softmax (coefficient 0.01) and the router z-loss
    (0.001) of the FLAME-MoE configs; the benchmark also runs MP-MoE with the load-balancing
    loss off (``aux_coeff=0``), as issue 15 asks.
(6) Diagnostic, not part of the method: on validation tokens each selector scores its chosen
    set against the optimum of J over all C(E, k) subsets (brute force, float64, the layer's
    final Sigma): J(chosen) / J(optimum), reported as its minimum and mean over tokens and layers.

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
5. The authors' arm (``pre_softmax=False``) renormalises the gates during the warm-up too; the
   authors' router gates the warm-up's top-k with the full softmax (2 of 120 quick-grid steps).
6. The arms ``mp_moe`` / ``mp_moe_noaux`` of the benchmark keep the un-normalised gates
   (pre_softmax=True) of the first version, which is not the authors' MP-MoE gate (5).

Mutants for foils (field ``mutant``; "" is the method above, unchanged):
- ``identity_sigma``: the selection uses Sigma = I (so J(S) = sum_{j in S} p_j^2 and the greedy
  picks exactly the top-k experts), while Sigma is still tracked from the routing and (6)
  scores the choice under it: top-k selection judged by MP-MoE's objective.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.sparse_moe import MoERouting, Selector, topk_mask

MUTANTS = ("", "identity_sigma")


def mahalanobis_greedy(probs, sigma, k: int, eps: float = 1e-12):
    """(2): bool mask (N, E), k True per row, greedily maximising p_S^T Sigma_SS^-1 p_S.

    Issue 27 (CPU; the same choices bit for bit, tests/test_mp_moe.py): the last pick's update
    of R and z, which nothing reads, is skipped; with one expert chosen (t = 1) alpha = R Sigma_S,j
    is one product per entry, computed without the batched matmul (which rounds it the same); the
    chosen experts are masked and the mask built by scatter."""
    import torch

    N, E = probs.shape
    dtype = probs.dtype
    sigma = sigma.to(dtype)
    diag = sigma.diagonal().clamp_min(eps)  # (E,)
    idx = torch.zeros(N, k, dtype=torch.long)
    R = torch.zeros(N, k, k, dtype=dtype)  # inverse Cholesky factor of Sigma_SS, per token
    z = torch.zeros(N, k, dtype=dtype)  # R p_S
    rows = torch.arange(N)
    j = (probs.pow(2) / diag).argmax(1)  # (N,)
    idx[:, 0] = j
    R[:, 0, 0] = diag[j].rsqrt()
    z[:, 0] = R[:, 0, 0] * probs[rows, j]
    z2 = z[:, 0].pow(2)  # (N,) ||z||^2
    for t in range(1, k):
        beta = sigma[idx[:, :t]]  # (N, t, E): Sigma_{S, j} for every candidate j
        Rt = R[:, :t, :t]  # (N, t, t)
        alpha = Rt * beta if t == 1 else Rt @ beta  # (N, t, E)
        s = (diag - alpha.pow(2).sum(1)).clamp_min(eps)  # (N, E) Schur complements
        r = s.rsqrt()  # (N, E)
        delta = probs - (alpha * z[:, :t, None]).sum(1)  # (N, E) p_j - alpha_j^T z
        score = (z2[:, None] + (r * delta).pow(2)).scatter_(1, idx[:, :t], float("-inf"))  # (N, E)
        j = score.argmax(1)  # (N,)
        idx[:, t] = j
        if t == k - 1:
            break
        a, rj = alpha[rows, :, j], r[rows, j]  # (N, t), (N,)
        z[:, t] = rj * delta[rows, j]
        z2 = z2 + z[:, t].pow(2)
        R[:, t, :t] = -rj[:, None] * (a[:, None, :] @ Rt)[:, 0]  # (N, t)
        R[:, t, t] = rj
    return torch.zeros(N, E, dtype=torch.bool).scatter_(1, idx, True)  # (N, E)


def mahalanobis_score(p, sigma, S) -> float:
    """(1) for one token, exactly (numpy float64): p_S^T Sigma_SS^-1 p_S."""
    import numpy as np

    S = list(S)
    pS = np.asarray(p, dtype=np.float64)[S]
    return float(pS @ np.linalg.solve(np.asarray(sigma, dtype=np.float64)[np.ix_(S, S)], pS))


def subset_scores(probs, sigma, k: int, eps: float = 1e-12):
    """J(S) for every S of size k (lexicographic, itertools.combinations order), float64:
    (N, C(E, k)). Sigma_SS + eps I is inverted once per subset (C(8, 2) = 28 here); the eps
    keeps a pair that is always co-selected (singular Sigma_SS) finite, as the greedy's floor."""
    import itertools

    import torch

    p = probs.double()  # (N, E)
    subsets = torch.tensor(list(itertools.combinations(range(p.shape[1]), k)))  # (C, k)
    sig = sigma.double()[subsets[:, :, None], subsets[:, None, :]]  # (C, k, k)
    pS = p[:, subsets]  # (N, C, k)
    inv = torch.linalg.inv(sig + eps * torch.eye(k, dtype=sig.dtype))  # (C, k, k)
    return torch.einsum("nci,cij,ncj->nc", pS, inv, pS), subsets


def greedy_ratio(probs, sigma, mask):
    """(6): J(chosen) / max_S J(S) per token (N,), float64, the chosen set given by ``mask``."""
    k = int(mask[0].sum())
    J, subsets = subset_scores(probs, sigma, k)  # (N, C)
    chosen = mask.long()[:, subsets].sum(-1) == k  # (N, C): the one subset equal to the mask
    return J[chosen] / J.max(1).values


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
        self.ratios: list = []  # (6) per-token J(chosen)/J(opt) of evaluation forwards

    def select(self, probs, training: bool):
        import torch

        if training:
            self.forwards += 1
        if self.forwards <= self.warmup:
            return topk_mask(probs, self.k)
        sigma = torch.eye(probs.shape[1]) if self.mutant == "identity_sigma" else self.sigma
        mask = mahalanobis_greedy(probs, sigma, self.k, self.eps)
        if not training:
            self.ratios.append(greedy_ratio(probs, self.sigma, mask))  # (N,)
        return mask

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
        sel = MahalanobisSelector(self.top_k, self.n_experts,
                                  math.ceil(self.warmup_frac * self.steps), self.mutant,
                                  self.sigma_eps)
        if hasattr(self, "_selectors"):  # inside run(): kept for the diagnostic (6)
            self._selectors.append(sel)
        return sel

    def run(self, data, seed: int) -> dict:
        import torch

        self._selectors: list = []  # this run's layers, in order
        out = super().run(data, seed)
        ratios = [t for s in self._selectors for t in s.ratios]
        if ratios:  # none when evaluation ran inside the warm-up (plain top-k)
            r = torch.cat(ratios)  # (layers * tokens,)
            out["greedy_ratio_min"] = float(r.min())
            out["greedy_ratio_mean"] = float(r.mean())
        return out
