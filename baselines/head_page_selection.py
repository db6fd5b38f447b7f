"""(head, key-page) sparse decoding: importance estimates, the tile-granular cost, and running a
(head, page) selection through the shared block-sparse frame.

Decoding attention of H heads (``Tq`` tokens each, multi-token prediction) over N cached keys
cut into pages of ``page_size`` tokens (Quest's KV pages; a page is one key tile of the
kernel). A selection is a bool (H, n_pages) mask: head h attends to page p.

* :func:`page_importance`: the estimated attention mass of each (head, page), either from
  Quest's per-page upper bound (Tang et al., ICML 2024: per page the elementwise min and max of
  its keys; the bound of q . k over the page is sum_i max(q_i min_i, q_i max_i)), turned into a
  per-head softmax over pages, or ``"exact"``: the true softmax mass of the page (an oracle).
* :func:`tile_count`: the compute cost of a selection at hardware-tile granularity. Heads are
  grouped into tiles of ``head_tile`` consecutive heads (x ``Tq`` query rows): a (head tile,
  page) tile is computed in full as soon as any head of the tile needs the page, so the cost is
  the number of (head tile, page) tiles touched, not the number of (head, page) pairs.
* :func:`run_selection`: the attention output of the selection, via
  ``block_sparse_attention`` with block size (1, page_size) (each query row gathers its head's
  selected pages only), plus ``flops`` = tile_count x head_tile x Tq x page_size x 2 (d + dv),
  the quantity every method of the tilesparse benchmark is budgeted on.
"""
from __future__ import annotations

import numpy as np

from claimbench.baselines import block_sparse_attention as bsa
from claimbench.memo import LastOf


def n_pages(n_keys: int, page_size: int) -> int:
    return -(-n_keys // page_size)


def _pages(k: np.ndarray, page_size: int) -> np.ndarray:
    """(H, n_pages, page_size, d); a short last page is padded with copies of its last key,
    which leaves its min/max bound unchanged."""
    H, N, d = k.shape
    pad = n_pages(N, page_size) * page_size - N
    if pad:
        k = np.concatenate([k, np.repeat(k[:, -1:], pad, axis=1)], axis=1)
    return k.reshape(H, -1, page_size, d)


def quest_bounds(q: np.ndarray, k: np.ndarray, page_size: int) -> np.ndarray:
    """Quest's upper bound of q . k over each page: (H, Tq, n_pages)."""
    kp = _pages(np.asarray(k, np.float64), page_size)  # (H, P, S, d)
    kmin, kmax = kp.min(2), kp.max(2)  # (H, P, d)
    q = np.asarray(q, np.float64)[:, :, None, :]  # (H, Tq, 1, d)
    return np.maximum(q * kmin[:, None], q * kmax[:, None]).sum(-1)  # (H, Tq, P)


def _softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def exact_page_mass(q: np.ndarray, k: np.ndarray, page_size: int) -> np.ndarray:
    """True causal softmax mass of each page, averaged over the Tq tokens: (H, n_pages)."""
    q, k = np.asarray(q, np.float64), np.asarray(k, np.float64)
    H, Tq, d = q.shape
    N = k.shape[1]
    logits = q @ k.transpose(0, 2, 1) / np.sqrt(d)  # (H, Tq, N)
    # decoding: token t of Tq sits at position N - Tq + t and sees keys j <= its position
    future = np.arange(N)[None, :] > (N - Tq + np.arange(Tq))[:, None]  # (Tq, N)
    p = _softmax(np.where(future[None], -np.inf, logits))  # (H, Tq, N)
    pad = n_pages(N, page_size) * page_size - N
    p = np.pad(p, ((0, 0), (0, 0), (0, pad))).reshape(H, Tq, -1, page_size).sum(-1)
    return p.mean(1)  # (H, n_pages)


_IMPORTANCE = LastOf()  # the last (q, k)'s estimates: every method of an instance reads the same


def page_importance(q: np.ndarray, k: np.ndarray, page_size: int, score: str = "quest") -> np.ndarray:
    """Estimated attention mass of each (head, page), rows summing to 1: (H, n_pages).

    ``"quest"``: per-head softmax over pages of bound / sqrt(d) + log(page length) (a page's
    mass if all its keys sat at the bound), averaged over tokens; ``"exact"``: the true mass.
    Memoised on the identity of q and k (the methods of one instance share the estimate, which
    costs more than a cheap method's own work; callers must not modify it in place)."""
    return _IMPORTANCE.get((q, k), (page_size, score),
                           lambda: compute_page_importance(q, k, page_size, score))


def compute_page_importance(q: np.ndarray, k: np.ndarray, page_size: int,
                            score: str = "quest") -> np.ndarray:
    """:func:`page_importance` without the memo."""
    if score == "exact":
        return exact_page_mass(q, k, page_size)
    if score != "quest":
        raise ValueError(f"score={score!r}: use 'quest' or 'exact'")
    d, N = q.shape[-1], k.shape[1]
    u = quest_bounds(q, k, page_size) / np.sqrt(d)  # (H, Tq, P)
    lengths = np.minimum(page_size, N - page_size * np.arange(u.shape[-1]))  # (P,)
    return _softmax(u + np.log(lengths)).mean(1)  # (H, P)


def head_groups(n_heads: int, head_tile: int) -> int:
    if n_heads % head_tile:
        raise ValueError(f"n_heads={n_heads} is not a multiple of head_tile={head_tile}")
    return n_heads // head_tile


def tile_count(mask: np.ndarray, head_tile: int) -> int:
    """(head tile, page) tiles touched by a (H, n_pages) selection."""
    H, P = mask.shape
    return int(mask.reshape(head_groups(H, head_tile), head_tile, P).any(1).sum())


def budget_tiles(budget_frac: float, n_heads: int, n_keys: int, head_tile: int, page_size: int) -> int:
    """The tile budget: floor(budget_frac x dense tiles)."""
    return int(np.floor(budget_frac * head_groups(n_heads, head_tile) * n_pages(n_keys, page_size) + 1e-9))


def run_selection(data: dict, mask: np.ndarray, page_size: int, head_tile: int) -> dict:
    """Attention of each head over its selected pages, with the tile-granular cost."""
    torch = bsa._torch()
    q, k, v = (torch.as_tensor(data[x]) for x in ("q", "k", "v"))  # (H, T, d) each
    H, Tq, d = q.shape
    dv = v.shape[-1]
    block_mask = torch.as_tensor(mask)[:, None, :].expand(H, Tq, mask.shape[1]).contiguous()  # (H, Tq, P)
    out = bsa.block_sparse_attention(q, k, v, block_mask, (1, page_size))  # (H, Tq, dv)
    tiles = tile_count(mask, head_tile)
    return {"out": out.numpy(), "block_mask": block_mask.numpy(), "block_size": (1, page_size),
            "flops": tiles * head_tile * Tq * page_size * 2 * (d + dv), "tiles": tiles,
            "pairs": int(mask.sum())}
