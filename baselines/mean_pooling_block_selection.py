"""Block selection by mean-pooled attention and a cumulative-mass threshold ("MeanPooling").

The selection rule shared by several block-sparse prefill methods (the MeanPooling baseline of
PBS-Attn, arXiv 2510.21270, code xinghaow99/pbs-attn ``baselines/MeanPooling.py`` and
``src/utils.py``; XAttention and FlexPrefill use the same cumulative-mass rule on other block
scores):

1. mean-pool queries and keys over blocks of ``b`` rows: Qbar (H, nq, d), Kbar (H, nk, d);
2. block scores A = softmax_j(Qbar_i Kbar_j^T / sqrt(d)) over the causally allowed key blocks;
3. per query block keep the smallest set of key blocks, taken in decreasing A, whose
   cumulative A reaches ``tau`` (a row that cannot reach tau, e.g. no allowed block, keeps none);
4. always keep the first key block (attention sink) and the current (diagonal) block.

The selected blocks are computed exactly (``block_sparse_attention``). The selection costs
2 d FLOPs per pooled block pair (counted in ``overhead_flops``); pooling and sorting are not
counted. PBS-Attn (``methods/pbs_attn.py``) calls :func:`pooled_block_scores` and
:func:`select_by_cumulative_mass` on permuted keys.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines import block_sparse_attention as bsa
from claimbench.baselines.full_attention import timed


def pad_rows(x, b: int):
    """Zero-pad the sequence axis of (H, T, d) up to a multiple of ``b`` (the reference code
    pads with zeros before pooling, so a partial last block's mean is diluted)."""
    torch = bsa._torch()
    return torch.nn.functional.pad(x, (0, 0, 0, bsa.n_blocks(x.shape[1], b) * b - x.shape[1]))


def pooled_block_scores(q, k, b: int, allowed):
    """Softmax over key blocks of mean-pooled block logits: (H, nq, nk), zero where not allowed.

    ``allowed`` is bool (nq, nk) or (H, nq, nk); a row with no allowed block is all zero."""
    torch = bsa._torch()
    H, _, d = q.shape
    qb = pad_rows(q, b).view(H, -1, b, d).mean(2)  # (H, nq, d)
    kb = pad_rows(k, b).view(H, -1, b, d).mean(2)  # (H, nk, d)
    logits = (qb @ kb.transpose(-1, -2)) / math.sqrt(d)  # (H, nq, nk)
    logits = logits.masked_fill(~allowed, float("-inf"))
    return torch.nan_to_num(torch.softmax(logits.float(), dim=-1), nan=0.0)


def select_by_cumulative_mass(scores, tau: float):
    """Smallest top set per row whose cumulative score reaches ``tau``: bool like ``scores``.

    A row whose total never reaches ``tau`` selects nothing (as the reference ``select_blocks``)."""
    torch = bsa._torch()
    srt, order = torch.sort(scores, dim=-1, descending=True)  # (..., nk)
    reach = torch.cumsum(srt, dim=-1) >= tau  # (..., nk)
    first = torch.argmax(reach.int(), dim=-1, keepdim=True)  # (..., 1)
    ramp = torch.arange(scores.shape[-1]).expand_as(scores)
    keep_sorted = (ramp <= first) & reach.any(-1, keepdim=True)
    out = torch.zeros_like(keep_sorted)
    return out.scatter_(-1, order, keep_sorted)


def causal_blocks(nq: int, nk: int):
    """Key block j <= query block i (prefill, nq == nk aligned at the end): bool (nq, nk)."""
    torch = bsa._torch()
    return torch.arange(nk)[None, :] <= torch.arange(nq)[:, None] + (nk - nq)


def selected_attention(select, data: dict, block_size: int, repeats: int):
    """Select a block mask and attend through it, timed together (min process time over
    ``repeats``): ``(mask, out, seconds, (H, T, d))``."""
    torch = bsa._torch()
    q, k, v = (torch.as_tensor(data[x]) for x in ("q", "k", "v"))  # (H, T, d) each

    def go():
        m = select(q, k)
        return m, bsa.block_sparse_attention(q, k, v, m, block_size)

    (mask, out), secs = timed(go, repeats)
    return mask, out, secs, tuple(q.shape)


def pooled_selection_flops(nq: int, nk: int, d: int, n_heads: int) -> int:
    return n_heads * nq * nk * 2 * d


@dataclass
class MeanPoolingBlockSelection(Method):
    name: ClassVar[str] = "mean_pooling"
    block_size: int = 64  # ours (reference: 128 at 8k-128k tokens); 64 at 1k-4k keeps similar block counts
    tau: float = 0.9  # reference eval configs: threshold=0.9
    force_first_block: bool = True  # reference: force_select_first_block=True
    force_current_block: bool = True  # reference: force_select_current_block=True
    repeats: int = 1  # timing repeats (min kept)

    def select(self, q, k):
        torch = bsa._torch()
        H, T, _ = q.shape
        nq = nk = bsa.n_blocks(T, self.block_size)
        allowed = causal_blocks(nq, nk)
        if self.tau >= 1:  # the reference's threshold == 1 path: every causal block
            mask = allowed.expand(H, -1, -1).clone()
        else:
            scores = pooled_block_scores(q, k, self.block_size, allowed)  # (H, nq, nk)
            mask = select_by_cumulative_mass(scores, self.tau)
        if self.force_first_block:
            mask[..., 0] = True
        if self.force_current_block:
            mask |= torch.eye(nq, nk, dtype=torch.bool)
        return mask

    def run(self, data: dict, seed: int) -> dict:
        mask, out, secs, (H, T, d) = selected_attention(self.select, data, self.block_size, self.repeats)
        nb = bsa.n_blocks(T, self.block_size)
        return {"out": out.numpy(), "block_mask": mask.numpy(), "block_size": self.block_size,
                "overhead_flops": pooled_selection_flops(nb, nb, d, H), "seconds": secs}
