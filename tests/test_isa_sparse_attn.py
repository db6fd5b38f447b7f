"""ISA (methods/isa_sparse_attn.py) and block-mean attention on cases whose answer is known:
rho = 1 with no pruning is dense attention, rho = 0 is block-mean attention, block size 1 is
exact, FLOPs by hand, and the mutants against the method."""
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines import block_mean_attention as bma  # noqa: E402
from claimbench.baselines import block_sparse_attention as bsa  # noqa: E402
from claimbench.baselines.block_mean_attention import BlockMeanAttention  # noqa: E402
from claimbench.baselines.sparse_attention_metrics import measure  # noqa: E402
from claimbench.benchmarks import isa_sparse_attn as bench  # noqa: E402
from claimbench.datasets.in_context_editing_tokens import InContextEditingTokens  # noqa: E402
from claimbench.methods.isa_sparse_attn import InContextSparseAttention  # noqa: E402


def qkv(h=2, n=64, d=8, dv=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    f = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    return f(h, n, d), f(h, n, d), f(h, n, dv)


def dense(q, k, v):
    return bsa.dense_attention(q, k, v, causal=False)


def as_data(q, k, v, n_source=None):
    d = {"q": q.numpy(), "k": k.numpy(), "v": v.numpy()}
    if n_source is not None:
        d["n_source"] = n_source
    return d


def test_block_size_one_is_exact_attention():
    q, k, v = qkv(n=37)
    assert torch.allclose(bma.block_mean_attention(q, k, v, 1), dense(q, k, v), atol=1e-12)


def test_constant_blocks_are_exact_and_partial_block_is_weighted_by_size():
    """Keys and values constant inside each block (last block partial): the Taylor
    expansion is exact, which needs the log n_B weight of the short block."""
    q = qkv(n=7)[0]
    base_k, base_v = qkv(n=3, seed=1)[1], qkv(n=3, seed=2)[2]
    idx = torch.tensor([0, 0, 0, 1, 1, 1, 2])  # blocks of 3, last one has a single token
    k, v = base_k[:, idx], base_v[:, idx]
    assert torch.allclose(bma.block_mean_attention(q, k, v, 3), dense(q, k, v), atol=1e-12)


def test_block_mean_by_hand():
    q = torch.tensor([[[1.0, 0.0]]], dtype=torch.float64)  # (1, 1, 2)
    k = torch.tensor([[[2.0, 0.0], [0.0, 0.0], [0.0, 4.0]]], dtype=torch.float64)  # (1, 3, 2)
    v = torch.tensor([[[1.0], [3.0], [10.0]]], dtype=torch.float64)
    # blocks {0, 1} (mean key (1, 0), mean value 2, n = 2) and {2} (key (0, 4), value 10, n = 1)
    w = np.array([2 * math.exp(1 / math.sqrt(2)), 1.0])
    want = (w @ np.array([2.0, 10.0])) / w.sum()
    assert bma.block_mean_attention(q, k, v, 2).item() == pytest.approx(want, rel=1e-12)


def test_full_routing_without_pruning_is_dense():
    q, k, v = qkv(n=64)
    out = InContextSparseAttention(block_size=8, rho=1.0, keep_ratio=1.0).run(as_data(q, k, v, 32), 0)
    assert np.allclose(out["out"], dense(q, k, v).numpy(), atol=1e-10)
    assert out["kept_keys"].all()


def test_no_routing_no_critical_blocks_is_block_mean_attention():
    q, k, v = qkv(n=64)
    out = InContextSparseAttention(block_size=8, rho=0.0, keep_ratio=1.0, critical_ratio=0.0).run(
        as_data(q, k, v), 0)
    ref = BlockMeanAttention(block_size=8).run(as_data(q, k, v), 0)["out"]
    assert np.allclose(out["out"], ref, atol=1e-12)


def test_no_routing_is_taylor_sparse_attention_for_every_query():
    q, k, v = qkv(n=64)
    out = InContextSparseAttention(block_size=8, rho=0.0, keep_ratio=1.0, critical_ratio=0.25).run(
        as_data(q, k, v), 0)
    ref = BlockMeanAttention(block_size=8, critical_ratio=0.25).run(as_data(q, k, v), 0)["out"]
    assert np.allclose(out["out"], ref, atol=1e-12)


def test_taylor_sparse_all_critical_is_dense_and_none_critical_is_block_mean():
    q, k, v = qkv(n=40)
    every = torch.arange(5).expand(2, 5, 5)  # (H, nq, c): all 5 key blocks critical
    assert torch.allclose(bma.taylor_sparse_attention(q, k, v, 8, every), dense(q, k, v), atol=1e-12)
    none = torch.zeros(2, 5, 0, dtype=torch.int64)
    assert torch.allclose(bma.taylor_sparse_attention(q, k, v, 8, none),
                          bma.block_mean_attention(q, k, v, 8), atol=1e-12)


def test_taylor_sparse_by_elementwise_weights():
    """One critical block per query block: softmax over its exact logits and the other blocks'
    mean logits (+ log n_B), written out for one query."""
    q, k, v = qkv(h=1, n=24, d=4, dv=3)
    crit = torch.tensor([[[2], [0], [1]]])  # (1, 3, 1)
    out = bma.taylor_sparse_attention(q, k, v, 8, crit)
    i = 3  # query block 0, critical key block 2
    s = 0.5
    exact = [(q[0, i] @ k[0, j]) * s for j in range(16, 24)]
    means = [(q[0, i] @ k[0, 8 * B:8 * B + 8].mean(0)) * s + math.log(8) for B in (0, 1)]
    w = torch.softmax(torch.stack(exact + means), 0)
    vals = torch.cat([v[0, 16:24], torch.stack([v[0, 0:8].mean(0), v[0, 8:16].mean(0)])])
    assert torch.allclose(out[0, i], w @ vals, atol=1e-12)


def test_full_rows_are_the_sharpest_and_exact_over_kept_keys():
    q, k, v = qkv(n=64)
    out = InContextSparseAttention(block_size=8, rho=0.25, keep_ratio=0.5).run(as_data(q, k, v, 32), 0)
    kept = torch.as_tensor(out["kept_keys"])  # (H, 64)
    assert kept[:, :32].all() and int(kept[0, 32:].sum()) == 16  # 2 of the 4 context blocks
    for h in range(2):
        rows = np.argsort(-out["routing_score"][h])[:16]
        idx = torch.nonzero(kept[h])[:, 0]
        ref = dense(q[h:h + 1, rows], k[h:h + 1, idx], v[h:h + 1, idx])[0]
        assert np.allclose(out["out"][h, rows], ref.numpy(), atol=1e-10)


def test_flops_by_hand():
    H, N, d, dv, b = 2, 64, 8, 5, 8
    q, k, v = qkv(h=H, n=N, d=d, dv=dv)
    out = InContextSparseAttention(block_size=b, rho=0.25, keep_ratio=0.5, critical_ratio=0.2).run(
        as_data(q, k, v, 32), 0)
    m, c, n_full, n_kept = 6, 2, 16, 48  # 4 source + 2 context blocks kept; ceil(0.2 * 6) critical
    taylor = c * b * 2 * (d + dv) + (m - c) * 2 * dv
    assert out["flops"] == H * (n_full * n_kept * 2 * (d + dv) + (N - n_full) * taylor)
    assert out["overhead_flops"] == H * (N * (2 * d + dv) + 8 * 8 * 2 * d + N * m * 2 * d)
    res = measure(q, k, v, out, causal=False, block_size=b)
    assert res["dense_flops"] == H * N * N * 2 * (d + dv)


def test_preselection_keeps_a_planted_salient_context_block():
    q, k, v = qkv(n=64)
    k[:, 48:56] = q.mean(1, keepdim=True) * 3  # context block 6 matches every query
    out = InContextSparseAttention(block_size=8, rho=0.0, keep_ratio=0.25).run(as_data(q, k, v, 32), 0)
    assert out["kept_keys"][:, 48:56].all()


def test_dataset_is_seeded_and_shaped():
    ds = InContextEditingTokens(n_source=64, n_context=96, n_heads=2, head_dim=8, value_dim=4)
    a, b = ds.make(3), ds.make(3)
    assert a.data["q"].shape == (2, 160, 8) and a.data["v"].shape == (2, 160, 4)
    assert all(np.array_equal(a.data[x], b.data[x]) for x in ("q", "k", "v"))
    assert not np.array_equal(a.data["k"], ds.make(4).data["k"])
    # distractor context keys carry the bias in coordinate 0; source keys do not
    assert (a.data["k"][:, :64, 0] == 0).all() and (a.data["k"][:, 64:, 0] <= 0).all()


@pytest.fixture(scope="module")
def icl_runs():
    inst = InContextEditingTokens(n_source=256, n_context=256, n_heads=2).make(0)
    runs = {m: InContextSparseAttention(mutant=m).run(inst.data, 0)
            for m in ("", "random_routing", "random_preselect")}
    return inst, runs


def test_mutants_cost_the_same(icl_runs):
    inst, runs = icl_runs
    assert runs[""]["flops"] == runs["random_routing"]["flops"] == runs["random_preselect"]["flops"]
    assert runs[""]["n_full"] == runs["random_routing"]["n_full"] == math.ceil(0.3 * 512)


def test_sharp_routing_beats_random_routing_on_planted_sharp_queries():
    """Eight queries with 20x the norm (sharp: their block-mean error dominates) among flat
    ones: ISA sends exactly those to full attention, random routing mostly misses them."""
    q, k, v = qkv(h=1, n=64, d=8)
    sharp = torch.arange(3, 64, 8)  # one per block
    q = q * 0.2
    q[:, sharp] *= 100.0
    data = as_data(q, k, v)
    runs = {m: InContextSparseAttention(block_size=8, rho=8 / 64, keep_ratio=1.0, critical_ratio=0.0,
                                        mutant=m).run(data, 0) for m in ("", "random_routing")}
    assert set(np.argsort(-runs[""]["routing_score"][0])[:8]) == set(sharp.tolist())
    ref = dense(q, k, v).numpy()
    err = {m: np.linalg.norm(o["out"] - ref) for m, o in runs.items()}
    assert err[""] < 0.5 * err["random_routing"]


def test_spearman_metric_on_known_scores(icl_runs):
    inst, runs = icl_runs
    out = dict(runs[""])
    q, k, v = (torch.as_tensor(inst.data[x]).double() for x in ("q", "k", "v"))
    kept = torch.as_tensor(out["kept_keys"])
    idx = torch.nonzero(kept)[:, 1].view(2, -1)
    hi = torch.arange(2)[:, None]
    err = torch.linalg.norm(torch.as_tensor(out["taylor_out"]).double()
                            - dense(q, k[hi, idx], v[hi, idx]), dim=-1).numpy()  # (H, N)
    assert bench._sharpness_error_spearman(inst, dict(out, routing_score=err)) == pytest.approx(1.0)
    assert bench._sharpness_error_spearman(inst, dict(out, routing_score=-err)) == pytest.approx(-1.0)
    assert abs(bench._sharpness_error_spearman(inst, dict(runs["random_routing"]))) < 0.15


def test_preselection_beats_random_preselection(icl_runs):
    inst, runs = icl_runs
    kept = bench._context_mass_retained(inst, dict(runs[""]))
    rand = bench._context_mass_retained(inst, dict(runs["random_preselect"]))
    assert kept > rand
    assert bench._saliency_ratio(inst, {}) > 1.0


class _Inst:
    def __init__(self, data):
        self.data = data


def _curve_run(data, mutant="", rhos=(0.0, 0.25, 0.5, 1.0), keeps=(0.5, 1.0)):
    return InContextSparseAttention(block_size=8, mutant=mutant, curve_rhos=rhos,
                                    curve_keep_ratios=keeps).run(data, 0)


def test_curve_point_is_the_run_at_that_setting():
    """Each (rho, kappa) of the operating curve rebuilt from its parts is the output, FLOPs and
    relative error of a run at that setting."""
    q, k, v = qkv(n=64)
    data = as_data(q, k, v, 32)
    out = _curve_run(data)
    inst = _Inst(data)
    pts = bench._curve_eval(inst, dict(out))
    for j, pt in enumerate(out["curve"]):
        for i, rho in enumerate(pt["rhos"]):
            run = InContextSparseAttention(block_size=8, rho=rho, keep_ratio=pt["keep_ratio"]).run(data, 0)
            n_full = math.ceil(rho * 64 - 1e-9)
            rebuilt = pt["taylor_out"].copy()
            for h in range(2):
                rows = pt["order"][h, :n_full]
                rebuilt[h, rows] = pt["full_out"][h, rows]
            assert np.allclose(rebuilt, run["out"], atol=1e-10)
            assert (pt["flops"][i], pt["overhead_flops"][i]) == (run["flops"], run["overhead_flops"])
            res = measure(q, k, v, run, causal=False, block_size=8)
            f, e = pts[1 + j * len(pt["rhos"]) + i]  # pts[0] is the run itself
            assert f == pytest.approx(res["flops"] / res["dense_flops"], rel=1e-12)
            assert e == pytest.approx(res["rel_error"], rel=1e-8, abs=1e-12)


def test_curve_leaves_the_run_unchanged():
    q, k, v = qkv(n=64)
    data = as_data(q, k, v, 32)
    for mutant in ("", "random_routing", "random_preselect"):
        plain = InContextSparseAttention(block_size=8, mutant=mutant).run(data, 0)
        with_curve = _curve_run(data, mutant)
        for key in ("out", "flops", "routing_score", "kept_keys", "taylor_out"):
            assert np.array_equal(np.asarray(plain[key]), np.asarray(with_curve[key]))


def test_lossless_flop_ratio_on_constant_blocks_is_the_cheapest_setting():
    """Keys and values constant inside each block: the Taylor path is exact, so rho = 0 meets
    the bound and the lightest lossless setting is the cheapest of the curve."""
    q = qkv(n=64)[0]
    base_k, base_v = qkv(n=8, seed=1)[1], qkv(n=8, seed=2)[2]
    idx = torch.arange(64) // 8
    data = as_data(q, base_k[:, idx], base_v[:, idx])  # no context: kappa has no effect
    out = _curve_run(data)
    pts = bench._curve_eval(_Inst(data), dict(out))
    assert max(e for f, e in pts[1:]) < 1e-10
    assert bench._lossless_flop_ratio(_Inst(data), dict(out)) == pytest.approx(min(f for f, _ in pts))


def test_lossless_flop_ratio_falls_back_to_dense():
    """No setting meets the bound: 1 (dense attention). Full attention is lossless at 1."""
    q, k, v = qkv(n=64)
    data = as_data(q, k, v)
    taylor = BlockMeanAttention(block_size=8).run(data, 0)
    assert bench._lossless_flop_ratio(_Inst(data), dict(taylor)) == 1.0
    out = _curve_run(data, rhos=(0.0,), keeps=(1.0,))  # the Taylor path only: not lossless
    assert bench._lossless_flop_ratio(_Inst(data), dict(out)) == 1.0
    full = _curve_run(data, rhos=(1.0,), keeps=(1.0,))  # dense over all keys, plus overheads
    assert bench._curve_eval(_Inst(data), dict(full))[-1][1] < 1e-12
    assert bench._lossless_flop_ratio(_Inst(data), dict(full)) == 1.0
