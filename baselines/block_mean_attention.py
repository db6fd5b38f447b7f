"""Block-mean attention: the 0-th order Taylor approximation of softmax attention over key blocks.

Keys and values are cut into consecutive blocks B of ``block_size`` tokens. Expanding
exp(q . k_j) to 0-th order around the block's mean key k_B (exp(q . k_j) ~ exp(q . k_B) for every
j in B) turns the block's contribution into n_B exp(q . k_B) v_B, with v_B the mean value:

    out(q) = sum_B n_B exp(s q . k_B) v_B / sum_B n_B exp(s q . k_B),   s = 1 / sqrt(d).

It is pooled attention with a log n_B bias (a partial last block weighs less). Cost: every
query against ceil(Tk / b) means, Tq ceil(Tk / b) 2 (d + dv) FLOPs, i.e. 1 / b of dense attention,
plus Tk (d + dv) additions for the means. Its error grows where the logits q . k_j vary inside
a block (sharp queries: large |q| or keys spread inside a block).

Taylor *sparse* attention (``taylor_sparse_attention``, ``critical_ratio > 0``): each block of
queries computes its ``critical`` key blocks (largest pooled attention, block-mean queries
against block-mean keys) exactly and every other block by its 0-th order term; the softmax is
taken jointly over both, so with every block critical it is dense attention. This is ISA's
cheap path (isa_sparse_attn); no causal mask (the bidirectional DiT attention of that paper).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines import block_sparse_attention as bsa


def block_means(x, block_size: int):
    """Means of consecutive blocks along dim 1 and their token counts: (H, nb, d), (nb,)."""
    torch = bsa._torch()
    H, T, d = x.shape
    nb = bsa.n_blocks(T, block_size)
    pad = nb * block_size - T
    sums = torch.nn.functional.pad(x, (0, 0, 0, pad)).view(H, nb, block_size, d).sum(2)  # (H, nb, d)
    counts = torch.full((nb,), block_size, dtype=x.dtype)
    counts[-1] = T - (nb - 1) * block_size
    return sums / counts[None, :, None], counts


def block_mean_probs(q, k_mean, counts, scale: float | None = None):
    """Softmax of each query over the block means, each block weighted by its size: (H, Tq, nb).
    ``counts`` is (nb,) or, when heads keep different blocks, (H, nb)."""
    torch = bsa._torch()
    s = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    log_n = torch.log(counts) if counts.dim() == 1 else torch.log(counts)[:, None, :]
    logits = (q @ k_mean.transpose(-1, -2)) * s + log_n  # (H, Tq, nb)
    return torch.softmax(logits, dim=-1)


def block_mean_attention(q, k, v, block_size: int, scale: float | None = None):
    """0-th order Taylor (block-mean) attention, no mask: (H, Tq, dv)."""
    k_mean, counts = block_means(k, block_size)  # (H, nb, d), (nb,)
    v_mean, _ = block_means(v, block_size)  # (H, nb, dv)
    return block_mean_probs(q, k_mean, counts, scale) @ v_mean  # (H, Tq, dv)


def critical_blocks(q, k_mean, counts, block_size: int, n_critical: int, scale: float | None = None):
    """Per query block, the ``n_critical`` key blocks of largest pooled attention (block-mean
    queries against block-mean keys): indices (H, nq, n_critical) into the columns of ``k_mean``."""
    torch = bsa._torch()
    q_mean, _ = block_means(q, block_size)  # (H, nq, d)
    pooled = block_mean_probs(q_mean, k_mean, counts, scale)  # (H, nq, nb)
    return torch.topk(pooled, n_critical, dim=-1).indices  # (H, nq, n_critical)


def taylor_sparse_attention(q, k, v, block_size: int, critical, scale: float | None = None):
    """Critical key blocks exact, every other block by its 0-th order Taylor term (its mean):
    (H, Tq, dv). ``critical`` (H, nq, c) lists, per block of ``block_size`` queries, the key
    blocks computed exactly; Tk must be a multiple of ``block_size``."""
    torch = bsa._torch()
    H, Tq, d = q.shape
    Tk, dv = k.shape[1], v.shape[2]
    b, c = block_size, critical.shape[-1]
    if Tk % b:
        raise ValueError(f"Tk={Tk} is not a multiple of block_size={b}")
    s = 1.0 / math.sqrt(d) if scale is None else scale
    nq, nk = bsa.n_blocks(Tq, b), Tk // b
    k_mean, counts = block_means(k, b)  # (H, nk, d), (nk,)
    v_mean, _ = block_means(v, b)  # (H, nk, dv)
    qb = torch.nn.functional.pad(q, (0, 0, 0, nq * b - Tq)).view(H, nq, b, d)
    hi = torch.arange(H)[:, None, None]
    kc = k.view(H, nk, b, d)[hi, critical].reshape(H, nq, c * b, d)  # (H, nq, c*b, d)
    vc = v.view(H, nk, b, dv)[hi, critical].reshape(H, nq, c * b, dv)
    exact = (qb @ kc.transpose(-1, -2)) * s  # (H, nq, b, c*b)
    approx = (qb @ k_mean[:, None].transpose(-1, -2)) * s + torch.log(counts)  # (H, nq, b, nk)
    is_crit = torch.zeros(H, nq, nk, dtype=torch.bool)
    is_crit.scatter_(-1, critical, True)
    approx = approx.masked_fill(is_crit[:, :, None, :], float("-inf"))
    p = torch.softmax(torch.cat([exact, approx], -1), -1)  # (H, nq, b, c*b + nk)
    out = p[..., :c * b] @ vc + p[..., c * b:] @ v_mean[:, None]  # (H, nq, b, dv)
    return out.reshape(H, nq * b, dv)[:, :Tq]


def block_mean_flops(tq: int, tk: int, block_size: int, d: int, dv: int, n_heads: int) -> tuple[int, int]:
    """(attention FLOPs, mean-pooling FLOPs) of block-mean attention for n_heads heads."""
    nb = bsa.n_blocks(tk, block_size)
    return n_heads * tq * nb * 2 * (d + dv), n_heads * tk * (d + dv)


@dataclass
class BlockMeanAttention(Method):
    """Every query takes the 0-th order Taylor path (ISA's cheap path for all queries)."""

    name: ClassVar[str] = "block_mean_attention"
    block_size: int = 32  # key block size b (ours: isa_sparse_attn's block size)
    # fraction of key blocks each query block computes exactly (chosen by pooled attention);
    # 0 = pure 0-th order Taylor attention, > 0 = Taylor sparse attention (ISA's cheap path)
    critical_ratio: float = 0.0

    def run(self, data: dict, seed: int) -> dict:
        torch = bsa._torch()
        q, k, v = (torch.as_tensor(data[x]) for x in ("q", "k", "v"))  # (H, T, d) each
        H, Tq, d = q.shape
        Tk, dv, b = k.shape[1], v.shape[2], self.block_size
        flops, pooling = block_mean_flops(Tq, Tk, b, d, dv, H)
        c = math.ceil(self.critical_ratio * bsa.n_blocks(Tk, b) - 1e-9)
        if c == 0:
            out = block_mean_attention(q, k, v, b)  # (H, Tq, dv)
            return {"out": out.numpy(), "flops": flops, "overhead_flops": pooling, "block_size": b}
        k_mean, counts = block_means(k, b)
        crit = critical_blocks(q, k_mean, counts, b, c)  # (H, nq, c)
        out = taylor_sparse_attention(q, k, v, b, crit)  # (H, Tq, dv)
        nq, nk = bsa.n_blocks(Tq, b), bsa.n_blocks(Tk, b)
        flops = H * Tq * (c * b * 2 * (d + dv) + (nk - c) * 2 * (d + dv))
        pooling += H * (Tq * d + nq * nk * 2 * d)  # query means, pooled attention
        return {"out": out.numpy(), "flops": flops, "overhead_flops": pooling, "block_size": b}
