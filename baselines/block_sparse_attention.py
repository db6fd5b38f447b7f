"""Dense and block-sparse softmax attention (torch), the shared frame of the sparse-attention papers.

* :func:`dense_attention`: softmax(Q K^T / sqrt(d) + causal mask) V, computed in query chunks
  so that long contexts fit in memory. The reference every sparse method is scored against.
* :func:`block_sparse_attention`: the same attention restricted to a block mask. Queries are
  cut into blocks of ``bq`` rows and keys into blocks of ``bk`` columns; ``block_mask[h, i, j]``
  says whether query block i of head h attends to key block j. The selected key blocks are
  *gathered* (index operations, no dense score matrix), so the work done is proportional to the
  number of selected blocks — what a block-sparse kernel (FlashAttention with a block mask,
  Dao et al. 2022; Block-Sparse FlashAttention) does on a GPU.
* Permutation: a method may reorder queries and keys (PBS-Attn permutes within segments).
  It passes the permuted tensors with ``q_pos`` / ``k_pos``, the *original* positions of each
  permuted row, and causality is enforced on those positions, so the output is exactly the
  dense causal attention of the permuted rows whenever the mask covers every causal pair.
* :func:`block_flops`: exact floating-point operation counts (2 d per multiply-add of
  Q K^T, 2 d_v of P V) of the blocks a mask computes, and of dense causal attention with the
  same tiling (a dense kernel skips blocks above the diagonal).

Shapes: q (H, Tq, d), k (H, Tk, d), v (H, Tk, dv); positions (Tq,) / (Tk,) shared by all heads
or (H, Tq) / (H, Tk) per head. Without positions, queries are the last Tq positions of the
Tk-long context (prefill when Tq = Tk, decoding when Tq = 1).
"""
from __future__ import annotations

import math


def _torch():
    import torch

    return torch


def default_positions(tq: int, tk: int):
    torch = _torch()
    return torch.arange(tk - tq, tk), torch.arange(tk)  # (Tq,), (Tk,)


def _per_head(pos, h: int):
    return pos if pos.dim() == 2 else pos.expand(h, -1)  # (H, T)


def dense_attention(q, k, v, q_pos=None, k_pos=None, causal: bool = True, scale: float | None = None,
                    chunk: int = 1024):
    """Exact softmax attention: (H, Tq, dv)."""
    torch = _torch()
    H, Tq, d = q.shape
    if q_pos is None or k_pos is None:
        q_pos, k_pos = default_positions(Tq, k.shape[1])
    qp, kp = _per_head(q_pos, H), _per_head(k_pos, H)
    s = 1.0 / math.sqrt(d) if scale is None else scale
    outs = []
    for a in range(0, Tq, chunk):
        p = attention_probs(q[:, a:a + chunk], k, qp[:, a:a + chunk], kp, causal, s)  # (H, c, Tk)
        outs.append(p @ v)  # (H, c, dv)
    return torch.cat(outs, dim=1)


def attention_probs(q, k, q_pos, k_pos, causal: bool = True, scale: float | None = None):
    """Row-stochastic attention weights (H, Tq, Tk); rows with no visible key are zero."""
    torch = _torch()
    H, _, d = q.shape
    s = 1.0 / math.sqrt(d) if scale is None else scale
    scores = (q @ k.transpose(-1, -2)) * s  # (H, Tq, Tk)
    if causal:
        qp, kp = _per_head(q_pos, H), _per_head(k_pos, H)
        scores.masked_fill_(kp[:, None, :] > qp[:, :, None], float("-inf"))
    # in place: at long contexts these (H, Tq, Tk) tensors are large, and allocating them again
    # costs more than the arithmetic
    p = torch.softmax(scores, dim=-1)  # (H, Tq, Tk)
    # autograd keeps softmax's output for the backward pass: never overwrite it then
    return torch.nan_to_num(p, nan=0.0) if p.requires_grad else p.nan_to_num_(nan=0.0)


def n_blocks(t: int, b: int) -> int:
    return -(-t // b)


def block_sparse_attention(q, k, v, block_mask, block_size, q_pos=None, k_pos=None,
                           causal: bool = True, scale: float | None = None, group: int = 8):
    """Attention of each query block to its selected key blocks only: (H, Tq, dv).

    ``block_size`` is ``bq`` or ``(bq, bk)``; ``block_mask`` is bool (H, ceil(Tq/bq), ceil(Tk/bk)).
    A query that sees no key (nothing selected, or all selected keys in its future) outputs 0.
    Query blocks are processed ``group`` at a time (memory and padding)."""
    torch = _torch()
    bq, bk = (block_size, block_size) if isinstance(block_size, int) else block_size
    H, Tq, d = q.shape
    Tk, dv = k.shape[1], v.shape[2]
    nq, nk = n_blocks(Tq, bq), n_blocks(Tk, bk)
    if tuple(block_mask.shape) != (H, nq, nk):
        raise ValueError(f"block_mask has shape {tuple(block_mask.shape)}; with Tq={Tq}, Tk={Tk}, "
                         f"block_size=({bq}, {bk}) and H={H} it must be {(H, nq, nk)}")
    if q_pos is None or k_pos is None:
        q_pos, k_pos = default_positions(Tq, Tk)
    s = 1.0 / math.sqrt(d) if scale is None else scale
    qp, kp = _per_head(q_pos, H), _per_head(k_pos, H)
    pad_q, pad_k = nq * bq - Tq, nk * bk - Tk
    qb = torch.nn.functional.pad(q, (0, 0, 0, pad_q)).view(H, nq, bq, d)
    kb = torch.nn.functional.pad(k, (0, 0, 0, pad_k)).view(H, nk, bk, d)
    vb = torch.nn.functional.pad(v, (0, 0, 0, pad_k)).view(H, nk, bk, dv)
    qpb = torch.nn.functional.pad(qp, (0, pad_q), value=-1).view(H, nq, bq)
    # padded keys get a position no query reaches, and are masked below even when not causal
    big = torch.iinfo(torch.int64).max
    kpb = torch.nn.functional.pad(kp, (0, pad_k), value=big).view(H, nk, bk)
    key_real = torch.nn.functional.pad(torch.ones(Tk, dtype=torch.bool), (0, pad_k)).view(nk, bk)

    counts = block_mask.sum(-1)  # (H, nq)
    # selected blocks first (stable, so in key order), then unselected ones as padding
    order = torch.argsort((~block_mask).to(torch.int8), dim=-1, stable=True)  # (H, nq, nk)
    hi = torch.arange(H)[:, None, None]
    outs = []
    # query blocks in groups, each padded to its own largest count: a causal mask's early rows
    # select few blocks, and one global pad would gather (and multiply) up to twice the work
    for a in range(0, nq, group):
        rows = slice(a, a + group)
        m = max(int(counts[:, rows].max()), 1)
        idx = order[:, rows, :m]  # (H, g, m)
        g = idx.shape[1]
        chosen = torch.arange(m)[None, None, :] < counts[:, rows, None]  # (H, g, m)
        kg = kb[hi, idx].reshape(H, g, m * bk, d)  # (H, g, m*bk, d)
        vg = vb[hi, idx].reshape(H, g, m * bk, dv)
        kpg = kpb[hi, idx].reshape(H, g, m * bk)
        ok = (chosen[..., None] & key_real[idx]).reshape(H, g, 1, m * bk)  # (H, g, 1, m*bk)
        if causal:
            ok = ok & (kpg[:, :, None, :] <= qpb[:, rows, :, None])  # (H, g, bq, m*bk)
        scores = (qb[:, rows] @ kg.transpose(-1, -2)) * s  # (H, g, bq, m*bk)
        scores = scores.masked_fill(~ok, float("-inf"))
        p = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
        outs.append((p @ vg).reshape(H, g * bq, dv))  # (H, g*bq, dv)
    return torch.cat(outs, dim=1)[:, :Tq]


def causal_block_mask(tq: int, tk: int, block_size, q_pos=None, k_pos=None, n_heads: int = 1):
    """Blocks holding at least one causally visible (query, key) pair: bool (H, nq, nk)."""
    torch = _torch()
    bq, bk = (block_size, block_size) if isinstance(block_size, int) else block_size
    if q_pos is None or k_pos is None:
        q_pos, k_pos = default_positions(tq, tk)
    qp, kp = _per_head(q_pos, n_heads), _per_head(k_pos, n_heads)
    nq, nk = n_blocks(tq, bq), n_blocks(tk, bk)
    q_last = torch.nn.functional.pad(qp, (0, nq * bq - tq), value=-1).view(-1, nq, bq).amax(-1)
    big = torch.iinfo(torch.int64).max
    k_first = torch.nn.functional.pad(kp, (0, nk * bk - tk), value=big).view(-1, nk, bk).amin(-1)
    return k_first[:, None, :] <= q_last[:, :, None]  # (H, nq, nk)


def expand_block_mask(block_mask, block_size, tq: int, tk: int):
    """The (query, key) pairs a block mask covers, in the mask's own (possibly permuted) order:
    bool (H, Tq, Tk)."""
    bq, bk = (block_size, block_size) if isinstance(block_size, int) else block_size
    return block_mask.repeat_interleave(bq, 1).repeat_interleave(bk, 2)[:, :tq, :tk]


def block_flops(block_mask, block_size, d: int, dv: int) -> int:
    """FLOPs of the selected blocks: each is a (bq x bk) tile of Q K^T (2 d per entry) and of
    P V (2 dv per entry). Softmax and selection overheads are not counted here."""
    bq, bk = (block_size, block_size) if isinstance(block_size, int) else block_size
    return int(block_mask.sum()) * bq * bk * 2 * (d + dv)


def dense_causal_flops(tq: int, tk: int, block_size, d: int, dv: int, n_heads: int) -> int:
    """FLOPs of a dense causal kernel with the same tiling (it skips fully masked blocks)."""
    mask = causal_block_mask(tq, tk, block_size, n_heads=1)
    return n_heads * block_flops(mask, block_size, d, dv)
