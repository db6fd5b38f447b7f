"""The shared sparse-attention frame against dense attention (issue 16: a full mask gives the
dense output; causality holds after permutation; the measurements on hand-checked cases)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines import block_sparse_attention as bsa  # noqa: E402
from claimbench.baselines import sparse_attention_metrics as sam  # noqa: E402


def qkv(h=2, tq=37, tk=37, d=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    f = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    return f(h, tq, d), f(h, tk, d), f(h, tk, 5)


def naive(q, k, v, allowed):
    """Softmax over the allowed (query, key) pairs, written out element by element."""
    s = (q @ k.transpose(-1, -2)) / q.shape[-1] ** 0.5
    s = s.masked_fill(~allowed, float("-inf"))
    return torch.nan_to_num(torch.softmax(s, -1), nan=0.0) @ v


@pytest.mark.parametrize("tq,tk,bs", [(37, 37, 8), (37, 37, (4, 16)), (1, 50, (1, 16)), (10, 50, 7)])
def test_full_mask_equals_dense(tq, tk, bs):
    q, k, v = qkv(tq=tq, tk=tk)
    bq, bk = (bs, bs) if isinstance(bs, int) else bs
    mask = torch.ones(2, bsa.n_blocks(tq, bq), bsa.n_blocks(tk, bk), dtype=torch.bool)
    out = bsa.block_sparse_attention(q, k, v, mask, bs)
    qp, kp = bsa.default_positions(tq, tk)
    assert torch.allclose(out, naive(q, k, v, kp[None, :] <= qp[:, None]), atol=1e-12)
    assert torch.allclose(out, bsa.dense_attention(q, k, v, chunk=5), atol=1e-12)


def test_random_block_mask_equals_elementwise_masking():
    q, k, v = qkv(tq=40, tk=40)
    g = torch.Generator().manual_seed(3)
    mask = torch.rand(2, 5, 5, generator=g) < 0.5
    mask[:, :, 0] = True  # every query sees key 0 (the sink), so no row is empty
    out = bsa.block_sparse_attention(q, k, v, mask, 8)
    qp, kp = bsa.default_positions(40, 40)
    allowed = bsa.expand_block_mask(mask, 8, 40, 40) & (kp[None, :] <= qp[:, None])
    assert torch.allclose(out, naive(q, k, v, allowed), atol=1e-12)


def test_causality_holds_after_permutation():
    """Keys and queries shuffled within segments: with their original positions passed, the
    full-mask output, put back in order, is the dense causal output; no future key leaks."""
    q, k, v = qkv(tq=48, tk=48)
    g = torch.Generator().manual_seed(1)
    perm = torch.cat([s * 16 + torch.randperm(16, generator=g) for s in range(3)])  # (48,)
    mask = torch.ones(2, 6, 6, dtype=torch.bool)
    out_p = bsa.block_sparse_attention(q[:, perm], k[:, perm], v[:, perm], mask, 8,
                                       q_pos=perm, k_pos=perm)
    out = torch.empty_like(out_p)
    out[:, perm] = out_p
    assert torch.allclose(out, bsa.dense_attention(q, k, v), atol=1e-12)
    # a change to the last key can only move the last query's output
    k2 = k.clone()
    k2[:, 47] += 10.0
    out_p2 = bsa.block_sparse_attention(q[:, perm], k2[:, perm], v[:, perm], mask, 8,
                                        q_pos=perm, k_pos=perm)
    moved = (out_p2 - out_p).abs().amax(dim=(0, 2)) > 0  # (48,) over permuted rows
    assert moved.nonzero().flatten().tolist() == [int((perm == 47).nonzero())]


def test_bad_mask_shape_names_the_expected_one():
    q, k, v = qkv(tq=16, tk=16)
    with pytest.raises(ValueError, match=r"must be \(2, 2, 2\)"):
        bsa.block_sparse_attention(q, k, v, torch.ones(2, 3, 3, dtype=torch.bool), 8)


def test_flop_counts_by_hand():
    # T = 4, blocks of 2: a causal kernel computes 3 of the 4 tiles, each 2 x 2 x 2 (d + dv)
    assert bsa.dense_causal_flops(4, 4, 2, d=3, dv=5, n_heads=1) == 3 * 4 * 2 * 8
    # decoding (one query): every key block is visible
    assert bsa.dense_causal_flops(1, 10, (1, 4), d=3, dv=5, n_heads=2) == 2 * 3 * 4 * 2 * 8


def test_measure_dense_and_a_sparse_mask():
    q, k, v = qkv(tq=32, tk=32)
    full = {"out": bsa.dense_attention(q, k, v), "block_mask": torch.ones(2, 4, 4, dtype=torch.bool),
            "block_size": 8}
    m = sam.measure(q, k, v, full)
    assert m["density"] == 1.0 and m["flop_speedup"] == 1.0
    assert m["retained_mass"] == pytest.approx(1.0, abs=1e-12)
    assert m["rel_error"] < 1e-12
    # keep only the diagonal blocks: retained mass is the dense mass on them, computed directly
    diag = torch.eye(4, dtype=torch.bool).expand(2, 4, 4)
    out = bsa.block_sparse_attention(q, k, v, diag, 8)
    m = sam.measure(q, k, v, {"out": out, "block_mask": diag, "block_size": 8})
    qp, kp = bsa.default_positions(32, 32)
    p = bsa.attention_probs(q, k, qp, kp)
    expect = float((p * bsa.expand_block_mask(diag, 8, 32, 32)).sum()) / (2 * 32)
    assert m["retained_mass"] == pytest.approx(expect, abs=1e-12)
    assert m["density"] == pytest.approx(4 / 10)  # 4 diagonal tiles of the 10 causal ones
    assert m["flop_speedup"] == pytest.approx(10 / 4)
    assert m["rel_error"] > 0.1  # random scores spread mass off the diagonal


def test_measure_undoes_a_permutation():
    """A permuted mask's retained mass is read at the original (query, key) pairs."""
    q, k, v = qkv(h=1, tq=32, tk=32)
    perm = torch.cat([torch.arange(16).flip(0), 16 + torch.arange(16).flip(0)])[None]  # (1, 32)
    mask = torch.tensor([[[True, False], [True, True]]])  # (1, 2, 2): permuted tiles of 16
    out_p = bsa.block_sparse_attention(q[:, perm[0]], k[:, perm[0]], v[:, perm[0]], mask, 16,
                                       q_pos=perm[0], k_pos=perm[0])
    out = torch.empty_like(out_p)
    out[:, perm[0]] = out_p
    m = sam.measure(q, k, v, {"out": out, "block_mask": mask, "block_size": 16,
                              "q_index": perm, "k_index": perm})
    # reversing within segments keeps each segment's tile, so this is the full causal mask
    assert m["retained_mass"] == pytest.approx(1.0, abs=1e-12)
    assert m["rel_error"] < 1e-12 and m["density"] == 1.0


def test_measure_rejects_a_wrong_output_shape():
    q, k, v = qkv(tq=8, tk=8)
    with pytest.raises(ValueError, match="dense attention has"):
        sam.measure(q, k, v, {"out": np.zeros((2, 8, 4))})


def test_full_attention_method_is_the_dense_reference():
    from claimbench.baselines.full_attention import FullAttention

    q, k, v = (x.float().numpy() for x in qkv(tq=70, tk=70))
    out = FullAttention(block_size=16).run({"q": q, "k": k, "v": v}, seed=0)
    m = sam.measure(q, k, v, out)
    assert m["density"] == 1.0 and m["flop_speedup"] == 1.0 and m["rel_error"] < 1e-6
    assert m["retained_mass"] == pytest.approx(1.0, abs=1e-12) and out["seconds"] >= 0
