"""XAttention's block selection: antidiagonal scoring plus a cumulative-mass threshold.

Xu, Guo, Han et al., "XAttention: Block Sparse Attention with Antidiagonal Scoring", arXiv
2503.16428 (a baseline of PBS-Attn, whose eval configs use stride 8, threshold 0.9). The sum of
an antidiagonal of every stride x stride sub-block of Q K^T is computed cheaply by reshaping:
    Q~_a = concat_i Q[a s + s - 1 - i],  K~_c = concat_i K[c s + i]   (i = 0..s-1, d s wide),
so Q~_a . K~_c = sum_i Q[a s + s - 1 - i] . K[c s + i]. Block scores are the causal softmax of
Q~ K~^T / (sqrt(d) s), summed over each (b/s x b/s) tile and divided by b/s (rows sum to 1).
Per query block the fewest key blocks reaching ``tau`` are kept, plus the diagonal block and
the first (sink) block, as in the reference's forced selections. Selected blocks are computed
exactly (``block_sparse_attention``); the scoring costs 2 d s FLOPs per causal reshaped pair
(``overhead_flops``). Deviation: the reference evaluates the scores in query chunks with a
Triton kernel and forces diagonal and sink blocks before the cumulative count; here they are
added after it (the same rule as the MeanPooling baseline).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines import block_sparse_attention as bsa
from claimbench.baselines.mean_pooling_block_selection import (pad_rows, select_by_cumulative_mass,
                                                               selected_attention)


def antidiagonal_block_scores(q, k, b: int, stride: int):
    """Normalized antidiagonal block scores (H, nb, nb) of causal prefill attention."""
    torch = bsa._torch()
    if b % stride:
        raise ValueError(f"block {b} must be a multiple of stride {stride}")
    H, T, d = q.shape
    qp, kp = pad_rows(q, b), pad_rows(k, b)  # (H, nb*b, d)
    n = qp.shape[1] // stride
    qr = torch.cat([qp[:, stride - 1 - i::stride] for i in range(stride)], dim=-1)  # (H, n, d*s)
    kr = torch.cat([kp[:, i::stride] for i in range(stride)], dim=-1)  # (H, n, d*s)
    logits = (qr @ kr.transpose(-1, -2)) / (math.sqrt(d) * stride)  # (H, n, n)
    a = torch.arange(n)
    logits = logits.masked_fill(a[None, :] > a[:, None], float("-inf"))
    p = torch.softmax(logits.float(), dim=-1)  # (H, n, n)
    r = b // stride
    nb = n // r
    return p.view(H, nb, r, nb, r).sum((2, 4)) / r  # (H, nb, nb)


@dataclass
class XAttentionBlockSelection(Method):
    name: ClassVar[str] = "xattention"
    block_size: int = 64  # ours, as the other methods (reference: 128)
    stride: int = 8  # PBS-Attn eval config: stride=8
    tau: float = 0.9  # PBS-Attn eval config: threshold=0.9
    repeats: int = 1

    def select(self, q, k):
        torch = bsa._torch()
        scores = antidiagonal_block_scores(q, k, self.block_size, self.stride)  # (H, nb, nb)
        nb = scores.shape[-1]
        mask = select_by_cumulative_mass(scores, self.tau)
        mask[..., 0] = True
        return mask | torch.eye(nb, dtype=torch.bool)

    def run(self, data: dict, seed: int) -> dict:
        mask, out, secs, (H, T, d) = selected_attention(self.select, data, self.block_size, self.repeats)
        n = bsa.n_blocks(T, self.block_size) * self.block_size // self.stride
        return {"out": out.numpy(), "block_mask": mask.numpy(), "block_size": self.block_size,
                "overhead_flops": H * (n * (n + 1) // 2) * 2 * d * self.stride, "seconds": secs}
