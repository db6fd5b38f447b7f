"""How much of the attention a sparse method skips, and what that costs: one measurement for
every sparse-attention benchmark (pbs_attn, tilesparse, isa_sparse_attn, diasr_routing).

A sparse method returns its output ``out`` (H, Tq, dv) in the original query order and, when
it computes a block mask, the mask it used (``block_mask``, ``block_size``, and ``q_index`` /
``k_index`` when it permuted rows: permuted row r is original row ``index[h, r]``). Methods
whose work is not a block mask (a Taylor approximation, a router) report ``flops`` themselves.
:func:`measure` compares against exact dense attention computed here in float64:

* ``density``: selected blocks that hold a causally visible pair / blocks a dense causal
  kernel with the same tiling computes;
* ``retained_mass``: mean over queries of the dense softmax mass on the (query, key) pairs the
  mask covers (1 for dense attention);
* ``rel_error``: ||out - dense||_F / ||dense||_F over all heads and queries;
* ``flops`` / ``dense_flops`` / ``flop_speedup``: exact counts (block_sparse_attention.block_flops)
  plus the method's declared ``overhead_flops`` (selection, permutation).
"""
from __future__ import annotations

import hashlib
import math
from collections import OrderedDict

import numpy as np

from claimbench.baselines import block_sparse_attention as bsa
from claimbench.memo import LastOf


def as_tensor(x, dtype=None):
    torch = bsa._torch()
    t = x if isinstance(x, torch.Tensor) else torch.as_tensor(np.asarray(x))
    return t.to(dtype) if dtype is not None else t


def _inverse(index):
    torch = bsa._torch()
    inv = torch.empty_like(index)
    inv.scatter_(-1, index, torch.arange(index.shape[-1]).expand_as(index).contiguous())
    return inv


def measure(q, k, v, outputs: dict, causal: bool = True, block_size=64, chunk: int = 512) -> dict:
    """Density, retained mass, relative error and FLOPs of one sparse method's outputs.

    ``block_size`` is the tiling of the dense reference kernel when the method reports no
    mask of its own (its ``flops`` must then be given)."""
    f64 = bsa._torch().float64
    return _measure(as_tensor(q, f64), as_tensor(k, f64), as_tensor(v, f64), outputs, causal,
                    block_size, chunk)


def _measure(q, k, v, outputs: dict, causal: bool, block_size, chunk: int, ref=None) -> dict:
    """:func:`measure` on float64 q, k, v; ``ref``: their ``_reference`` when already at hand."""
    torch = bsa._torch()
    f64 = torch.float64
    H, Tq, d = q.shape
    Tk, dv = k.shape[1], v.shape[2]
    q_pos, k_pos = bsa.default_positions(Tq, Tk)
    if ref is None:
        ref = _reference(q, k, v, q_pos, k_pos, causal, _pair(block_size), chunk)
    ref, key_block_mass = ref
    out = as_tensor(outputs["out"], f64)
    if tuple(out.shape) != tuple(ref.shape):
        raise ValueError(f"outputs['out'] has shape {tuple(out.shape)}; dense attention has {tuple(ref.shape)}")
    res = {"rel_error": float(torch.linalg.norm(out - ref) / torch.linalg.norm(ref))}

    mask = outputs.get("block_mask")
    bs = outputs.get("block_size", block_size)
    dense_mask = bsa.causal_block_mask(Tq, Tk, bs, n_heads=H) if causal else \
        torch.ones(H, bsa.n_blocks(Tq, _pair(bs)[0]), bsa.n_blocks(Tk, _pair(bs)[1]), dtype=torch.bool)
    res["dense_flops"] = bsa.block_flops(dense_mask, bs, d, dv)
    if mask is not None:
        mask = as_tensor(mask).to(torch.bool)
        qi = _index(outputs.get("q_index"), H, Tq)  # (H, Tq) original row of each permuted row
        ki = _index(outputs.get("k_index"), H, Tk)  # (H, Tk)
        effective = mask & bsa.causal_block_mask(Tq, Tk, bs, qi + (Tk - Tq), ki, n_heads=H) if causal else mask
        res["density"] = float(effective.sum()) / float(dense_mask.sum())
        res["flops"] = bsa.block_flops(effective, bs, d, dv)
        if _pair(bs) == _pair(block_size) and bool((ki == torch.arange(Tk)).all()):
            # keys in their own order: the per-block dense mass of each query row gives the
            # covered mass directly, no second pass over the probabilities
            rows = mask.expand(H, -1, -1)[torch.arange(H)[:, None], _inverse(qi) // _pair(bs)[0]]  # (H, Tq, nk)
            res["retained_mass"] = float((key_block_mass * rows).sum()) / (H * Tq)
        else:
            res["retained_mass"] = _retained_mass(q, k, mask, bs, _inverse(qi), _inverse(ki),
                                                  q_pos, k_pos, causal, chunk)
    if outputs.get("flops") is not None:
        res["flops"] = int(outputs["flops"])
    if "flops" in res:
        res["flops"] += int(outputs.get("overhead_flops", 0))
        res["flop_speedup"] = res["dense_flops"] / max(res["flops"], 1)
    return res


_REFERENCES: "OrderedDict[tuple, tuple]" = OrderedDict()  # the last instances' references
_PER_INSTANCE = LastOf()  # `measured`: the last instance's float64 q, k, v and references


def _reference(q, k, v, q_pos, k_pos, causal: bool, bs: tuple, chunk: int):
    """Float64 dense attention (H, Tq, dv) and each query's dense softmax mass per key block of
    ``bs[1]`` keys in key order (H, Tq, nk): one pass over the probabilities, memoised on the
    content of q, k, v, since every method of one instance is measured against the same
    reference. The output is computed exactly as ``bsa.dense_attention`` (same chunks)."""
    torch = bsa._torch()
    digest = hashlib.blake2b(digest_size=16)
    for t in (q, k, v):
        digest.update(str(tuple(t.shape)).encode())
        digest.update(t.contiguous().numpy().tobytes())
    key = (digest.hexdigest(), causal, bs, chunk)
    if key in _REFERENCES:
        _REFERENCES.move_to_end(key)
        return _REFERENCES[key]
    H, Tq, d = q.shape
    Tk, bk = k.shape[1], bs[1]
    nk = bsa.n_blocks(Tk, bk)
    qp, kp = bsa._per_head(q_pos, H), bsa._per_head(k_pos, H)
    s = 1.0 / math.sqrt(d)
    outs, mass = [], []
    for a in range(0, Tq, chunk):
        p = bsa.attention_probs(q[:, a:a + chunk], k, qp[:, a:a + chunk], kp, causal, s)  # (H, c, Tk)
        outs.append(p @ v)  # (H, c, dv)
        padded = p if nk * bk == Tk else torch.nn.functional.pad(p, (0, nk * bk - Tk))  # (H, c, nk * bk)
        mass.append(padded.view(H, p.shape[1], nk, bk).sum(-1))  # (H, c, nk)
    _REFERENCES[key] = (torch.cat(outs, dim=1), torch.cat(mass, dim=1))
    while len(_REFERENCES) > 2:
        _REFERENCES.popitem(last=False)
    return _REFERENCES[key]


def _index(index, h: int, t: int):
    torch = bsa._torch()
    if index is None:
        return torch.arange(t).expand(h, -1)
    return as_tensor(index).to(torch.int64).expand(h, -1)


def _pair(bs):
    return (bs, bs) if isinstance(bs, int) else tuple(bs)


def _retained_mass(q, k, mask, bs, inv_q, inv_k, q_pos, k_pos, causal, chunk) -> float:
    """Mean over queries of dense softmax mass on covered pairs; the mask is in permuted
    coordinates, so each original (i, j) is looked up at (inv_q[i] // bq, inv_k[j] // bk)."""
    torch = bsa._torch()
    bq, bk = _pair(bs)
    H, Tq, _ = q.shape
    hi = torch.arange(H)[:, None, None]
    col_block = (inv_k // bk)[:, None, :]  # (H, 1, Tk)
    # keys in position order (the default positions): a causal chunk of queries sees only the
    # keys up to its last position, and the rest of its probabilities are exact zeros
    ordered = causal and k_pos.dim() == 1 and bool((k_pos == torch.arange(k.shape[1])).all())
    total = 0.0
    for a in range(0, Tq, chunk):
        qp = q_pos[..., a:a + chunk]
        end = min(k.shape[1], int(qp.max()) + 1) if ordered else k.shape[1]
        p = bsa.attention_probs(q[:, a:a + chunk], k[:, :end], qp, k_pos[..., :end], causal)  # (H, c, end)
        row_block = (inv_q[:, a:a + chunk] // bq)[:, :, None]  # (H, c, 1)
        covered = mask[hi, row_block, col_block[..., :end]]  # (H, c, end)
        total += float(p.mul_(covered).sum())  # in place: p is this chunk's own
    return total / (H * Tq)


def measured(inst, outputs: dict, causal: bool = True, block_size=64) -> dict:
    """:func:`measure` of one cell, cached on its outputs dict: every metric of the cell shares
    one float64 dense reference (the costly part)."""
    if "_measure" not in outputs:
        d = inst.data
        keys = (d["q"], d["k"], d["v"])
        f64 = bsa._torch().float64
        # the instance's float64 q, k, v and its dense reference, once per instance (by identity):
        # converting and content-hashing k and v again for every cell cost more than the rest of a
        # cheap method's cell (tilesparse: 32 x 4096 x 64 keys, ~0.3 s a cell); same values
        q, k, v = _PER_INSTANCE.get(keys, "f64", lambda: tuple(as_tensor(x, f64) for x in keys))
        chunk = 512  # measure's default
        ref = _PER_INSTANCE.get(keys, ("ref", causal, _pair(block_size), chunk), lambda: _reference(
            q, k, v, *bsa.default_positions(q.shape[1], k.shape[1]), causal, _pair(block_size), chunk))
        outputs["_measure"] = _measure(q, k, v, outputs, causal, block_size, chunk, ref)
    return outputs["_measure"]


def measure_metric(key: str, causal: bool = True, block_size=64):
    """A metric function ``(instance, outputs) -> float | None`` reading one number of
    :func:`measured`; None when the method reports no such number (no block mask)."""
    def fn(inst, outputs):
        v = measured(inst, outputs, causal, block_size).get(key)
        return None if v is None else float(v)
    return fn
