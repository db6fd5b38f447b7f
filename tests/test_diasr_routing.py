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


def test_training_split_leaves_the_instance_unchanged_and_matches_its_subjects():
    inst = MultiSubjectTokens(n_subjects=3, **SMALL).make(6)
    short = MultiSubjectTokens(n_subjects=3, train_video=8, **SMALL).make(6)
    for x in ("q", "k", "v"):  # the training clip has its own random stream
        assert np.array_equal(inst.data[x], short.data[x])
    assert inst.data["train_q"].shape == (2, 512, 8) and inst.data["train_masks"].shape == (512,)
    # the training clip is drawn like the evaluated tokens: the anchor router is about as right
    # on it (masks) as on them (planted labels), and far above chance (1/3)
    anchors = dr.identity_anchors(torch.as_tensor(inst.data["k"]), 3).numpy()  # (H, S, d)
    train = np.einsum("hmd,hsd->hms", inst.data["train_q"], anchors).argmax(-1)  # (H, M)
    test = np.einsum("hnd,hsd->hns", inst.data["q"], anchors).argmax(-1)  # (H, N)
    acc_train = (train == inst.data["train_masks"][None]).mean()
    acc_test = (test == inst.truth["labels"][None]).mean()
    assert acc_train > 0.8 and abs(acc_train - acc_test) < 0.05


def test_learned_router_separates_two_known_clusters():
    # two subjects along +e0 / -e0: the trained identity queries must split on the sign of x0
    g = np.random.default_rng(0)
    y = g.integers(0, 2, size=400)
    x = np.zeros((1, 400, 3))
    x[0, :, 0] = np.where(y == 0, 2.0, -2.0)
    x[0, :, 1:] = g.standard_normal((400, 2))
    W, b = dr.train_router(x, y, 2, noise_std=0.0, steps=200, lr=0.05, seed=0)
    test = torch.tensor([[[1.0, 3.0, -3.0], [-1.0, -3.0, 3.0]]], dtype=torch.float64)  # (1, 2, 3)
    assert (test @ W.transpose(-1, -2) + b[:, None, :]).argmax(-1).tolist() == [[0, 1]]
    assert W[0, 0, 0] > W[0, 1, 0]


def test_learned_router_errs_with_noise_and_not_without():
    inst = MultiSubjectTokens(n_subjects=8, n_video=1024, ref_tokens=16, d=64, dv=8, heads=1).make(7)
    clean = metrics(inst, dr.DiasRRouting(repeats=1, router="learned", router_noise=0.0).run(inst.data, 7))
    noisy = metrics(inst, dr.DiasRRouting(repeats=1, router="learned", router_noise=2.0).run(inst.data, 7))
    assert clean["router_accuracy"] > 0.99
    assert 0.3 < noisy["router_accuracy"] < clean["router_accuracy"]
    assert noisy["identity_leak"] == pytest.approx(1 - noisy["router_accuracy"], abs=1e-9)


def test_block_counts_and_wraps_the_layer():
    from claimbench.baselines import dit_block as db
    # N=4 tokens, D=4 (2 heads of 2), dv_total=2, cross-attention of 10 FLOPs
    attn = 2 * 4 * 4 * 12 + 2 * 4 * 4 * 2 * 2 * 2 + 2 * 4 * 4 * 4
    assert db.block_flops(4, 4, 2, 2, 10) == attn + 10 + 2 * 4 * 2 * 4 + 2 * 4 * 4 * 16 * 2
    inst = MultiSubjectTokens(n_subjects=2, **SMALL).make(8)
    dense = db.DiTBlockCrossAttention(cross="dense", repeats=1).run(inst.data, 8)
    plain = FullAttention(causal=False, repeats=1).run(inst.data, 8)
    assert np.allclose(dense["out"], plain["out"], atol=1e-6)
    dec = db.DiTBlockCrossAttention(cross="decoupled", repeats=1).run(inst.data, 8)
    alone = DecoupledCrossAttention().run(inst.data, 8)
    assert np.allclose(dec["out"], alone["out"], atol=1e-6)
    assert dense["flops"] == dec["flops"] == alone["flops"]  # N S R 2 (d + dv) per head
    ours = dr.DiasRRouting(repeats=1, block_repeats=1).run(inst.data, 8)
    assert ours["block_seconds"] > 0 and ours["block_flops"] < dense["block_flops"]
    # the block adds the same self-attention, projections and MLP to both layers
    assert (dense["block_flops"] - dense["flops"]
            == ours["block_flops"] - ours["flops"] - ours["overhead_flops"])
