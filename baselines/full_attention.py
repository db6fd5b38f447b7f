"""Full (dense) softmax attention as a method: the reference every sparse-attention method is
compared against (FlashAttention / SDPA in the papers; here ``block_sparse_attention.dense_attention``).

It reports the block mask a dense causal kernel with the same tiling computes, so that
``sparse_attention_metrics.measure`` gives it density 1 and a FLOP speed-up of 1, and the
CPU time of its attention (``seconds``, process time, min over ``repeats``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines import block_sparse_attention as bsa


def timed(fn, repeats: int):
    """``(result, min process-seconds over repeats)``: the minimum is the least disturbed run."""
    best, out = float("inf"), None
    for _ in range(max(1, repeats)):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return out, best


@dataclass
class FullAttention(Method):
    name: ClassVar[str] = "full_attention"
    causal: bool = True
    block_size: int = 64  # the tiling whose mask is reported (FlashAttention-style tiles)
    repeats: int = 1  # timing repeats (min is kept)

    def run(self, data: dict, seed: int) -> dict:
        torch = bsa._torch()
        q, k, v = (torch.as_tensor(data[x]) for x in ("q", "k", "v"))  # (H, T, d) each
        H, Tq, _ = q.shape
        out, secs = timed(lambda: bsa.dense_attention(q, k, v, causal=self.causal), self.repeats)
        if self.causal:
            mask = bsa.causal_block_mask(Tq, k.shape[1], self.block_size, n_heads=H).expand(H, -1, -1)
        else:
            mask = torch.ones(H, bsa.n_blocks(Tq, self.block_size), bsa.n_blocks(k.shape[1], self.block_size),
                              dtype=torch.bool)
        return {"out": out.numpy(), "block_mask": mask.numpy(), "block_size": self.block_size,
                "seconds": secs}
