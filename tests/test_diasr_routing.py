"""DiasR sparse routing: bucketed attention against element-wise masked softmax, exact FLOP
counts, the router on hand-made anchors, the planted data, and the mutants against the method."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines.decoupled_cross_attention import DecoupledCrossAttention  # noqa: E402
from claimbench.baselines.full_attention import FullAttention  # noqa: E402
from claimbench.benchmarks.diasr_routing import BENCHMARK  # noqa: E402
from claimbench.datasets.multi_subject_tokens import MultiSubjectTokens  # noqa: E402
from claimbench.methods import diasr_routing as dr  # noqa: E402

SMALL = dict(n_video=96, ref_tokens=8, d=8, dv=4, heads=2)


def metrics(inst, out):
    return {m.name: m.fn(inst, out) for m in BENCHMARK.metrics}


def reference(q, k, v, route, S):
    """Softmax over the routed subject's keys, token by token, in float64 numpy."""
    H, N, d = q.shape
    R = k.shape[1] // S
    out = np.zeros((H, N, v.shape[-1]))
    for h in range(H):
        for i in range(N):
            s = route[h, i]
            ks, vs = k[h, s * R:(s + 1) * R], v[h, s * R:(s + 1) * R]
            z = ks @ q[h, i] / np.sqrt(d)
            p = np.exp(z - z.max())
            out[h, i] = (p / p.sum()) @ vs
    return out


def test_bucketed_attention_matches_per_token_softmax():
    inst = MultiSubjectTokens(n_subjects=3, **SMALL).make(1)
    q, k, v = (inst.data[x].astype(np.float64) for x in ("q", "k", "v"))
    g = np.random.default_rng(0)
    route = g.integers(0, 3, size=(2, 96))
    got = dr.bucketed_attention(*(torch.as_tensor(x) for x in (q, k, v, route)), 3, tile=16)[0].numpy()
    assert np.allclose(got, reference(q, k, v, route, 3), atol=1e-12)
    masked = dr.masked_attention(*(torch.as_tensor(x) for x in (q, k, v, route)), 3, chunk=40).numpy()
    assert np.allclose(masked, got, atol=1e-12)


def test_router_picks_the_largest_anchor_dot_product():
    k = torch.tensor([[[1., 0.], [3., 0.], [0., 1.], [0., 3.]]])  # (1, 4, 2): anchors (2,0), (0,2)
    assert torch.allclose(dr.identity_anchors(k, 2), torch.tensor([[[2., 0.], [0., 2.]]]))
    q = torch.tensor([[[1., 0.5], [0.2, 0.9], [-1., -2.]]])  # (1, 3, 2)
    assert dr.route_top1(q, dr.identity_anchors(k, 2)).tolist() == [[0, 1, 0]]


def test_bucket_layout_pads_each_bucket_to_whole_tiles():
    route = torch.tensor([[2] * 64 + [0] * 5 + [1] * 70])  # bucket sizes 5, 70, 64 -> tiles 1, 2, 1
    order, rows, tile_subject, T = dr.bucket_layout(route, 3, 64)
    assert T == 4 * 64 and tile_subject.tolist() == [[0, 1, 1, 2]]
    assert route[0, order[0]].tolist() == [0] * 5 + [1] * 70 + [2] * 64  # stable sort by bucket
    assert rows[0, :5].tolist() == list(range(5)) and rows[0, 5] == 64 and rows[0, 75] == 192
    out, mask = dr.bucketed_attention(torch.randn(1, 139, 8, dtype=torch.float64),
                                      torch.randn(1, 30, 8, dtype=torch.float64),
                                      torch.randn(1, 30, 4, dtype=torch.float64), route, 3)
    assert mask.tolist() == [[[True, False, False], [False, True, False], [False, True, False],
                              [False, False, True]]]
    from claimbench.baselines.block_sparse_attention import block_flops
    assert block_flops(mask, (64, 10), 8, 4) == 4 * 64 * 10 * 2 * 12


def test_single_subject_routing_is_dense_attention():
    inst = MultiSubjectTokens(n_subjects=1, **SMALL).make(2)
    out = dr.DiasRRouting(repeats=1).run(inst.data, 2)
    m = metrics(inst, out)
    assert m["rel_error"] < 1e-6 and m["router_accuracy"] == 1.0 and m["identity_leak"] == 0.0


def test_planted_data_shapes_and_separation():
    inst = MultiSubjectTokens(n_subjects=4, **SMALL).make(3)
    d = inst.data
    assert d["q"].shape == (2, 96, 8) and d["k"].shape == (2, 32, 8) and d["v"].shape == (2, 32, 4)
    assert inst.truth["key_subject"].tolist() == np.repeat(np.arange(4), 8).tolist()
    again = MultiSubjectTokens(n_subjects=4, **SMALL).make(3)
    assert np.array_equal(again.data["q"], d["q"])
    # dense attention puts most of each token's mass on its own subject (scale^2 = 4 logit gap)
    dense = FullAttention(causal=False).run(d, 3)
    assert metrics(inst, dense)["identity_leak"] < 0.5


def test_method_against_mutants_and_baselines():
    S = 4
    inst = MultiSubjectTokens(n_subjects=S, n_video=512, ref_tokens=16, d=16, dv=8, heads=2).make(4)
    ours = metrics(inst, dr.DiasRRouting(repeats=1).run(inst.data, 4))
    rand = metrics(inst, dr.DiasRRouting(repeats=1, mutant="random_router").run(inst.data, 4))
    mask = metrics(inst, dr.DiasRRouting(repeats=1, mutant="masked_dense").run(inst.data, 4))
    dense = metrics(inst, FullAttention(causal=False, repeats=1).run(inst.data, 4))
    dec = metrics(inst, DecoupledCrossAttention().run(inst.data, 4))
    assert ours["router_accuracy"] > 0.95 and abs(rand["router_accuracy"] - 1 / S) < 0.05
    assert ours["identity_leak"] < dense["identity_leak"] < rand["identity_leak"]
    assert dec["identity_leak"] == pytest.approx(1 - 1 / S)
    assert mask["rel_error"] == pytest.approx(ours["rel_error"], abs=1e-6)  # same map
    assert ours["rel_error"] < rand["rel_error"]
    # dense and decoupled do S*R work per token; routed about R (plus tile padding and router)
    assert dense["flops"] == dec["flops"] == 2 * 512 * S * 16 * 2 * 24
    assert mask["flops"] > dense["flops"] > 2.5 * ours["flops"]
    assert dense["flop_speedup"] == 1.0


def test_routed_flops_do_not_grow_with_subjects():
    flops = []
    for S in (1, 2, 4, 8):
        inst = MultiSubjectTokens(n_subjects=S, n_video=4096, ref_tokens=64, d=8, dv=8, heads=1).make(5)
        flops.append(metrics(inst, dr.DiasRRouting(repeats=1).run(inst.data, 5))["flops"])
    assert max(flops) / min(flops) < 1.3
