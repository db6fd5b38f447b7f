import numpy as np
import pytest

from claimbench.api import Instance
from claimbench.baselines.knn_message_passing import (KnnMPNN, build_encoder, collate,
                                                      featurize, init_params, knn_edges,
                                                      mp_layer, node_features)
from claimbench.baselines.rna_inverse_fold import RNAInverseFold
from claimbench.benchmarks.atl_fgd_rna import _bp_f1, _macro_f1, _recovery
from claimbench.datasets.folded_rna import FoldedRNAFamilies, base_pairs, bp_f1, fold
from claimbench.methods.atl_fgd_rna import ATLFGD, build_teacher, teacher_context

torch = pytest.importorskip("torch")

SMALL = dict(n_families=2, train_per_family=4, test_per_family=2, len_lo=24, len_hi=28)


def test_base_pairs_and_bp_f1_by_hand():
    assert base_pairs("((..))") == {(0, 5), (1, 4)}
    assert base_pairs("(.(..).)") == {(0, 7), (2, 5)}
    assert bp_f1("((..))", "((..))") == 1.0
    assert bp_f1("((..))", "(....)") == pytest.approx(2 * 1 / (2 + 1))
    assert bp_f1("......", "......") == 1.0
    assert bp_f1("......", "((..))") == 0.0


def test_metrics_by_hand():
    inst = Instance(data=None, truth={"seq": ["ACGU", "AAAA"],
                                      "structure": ["....", "...."]})
    out = {"designs": ["ACGG", "AAAA"]}
    assert _recovery(inst, out) == pytest.approx((0.75 + 1.0) / 2)
    assert _bp_f1(inst, out) == pytest.approx(1.0)  # neither design can pair in 4 nt
    from sklearn.metrics import f1_score
    ref = f1_score(list("ACGUAAAA"), list("ACGGAAAA"), labels=list("ACGU"), average="macro",
                   zero_division=0)
    assert _macro_f1(inst, out) == pytest.approx(ref)


def test_dataset_is_seeded_and_hides_native_test_sequences():
    a, b = FoldedRNAFamilies(**SMALL).make(3), FoldedRNAFamilies(**SMALL).make(3)
    assert [g["seq"] for g in a.data["train"]] == [g["seq"] for g in b.data["train"]]
    assert all("seq" not in g for g in a.data["test"])
    assert len(a.truth["seq"]) == len(a.data["test"]) == 4
    for st in a.truth["structure"]:
        assert (len(st) - st.count(".")) / len(st) >= 0.3
    for s, st in zip(a.truth["seq"], a.truth["structure"]):
        assert fold(s) == st  # the target is the native's own MFE structure


def test_layout_backbone_steps_are_unit_without_noise():
    inst = FoldedRNAFamilies(**SMALL, coord_noise=0.0).make(0)
    xy = inst.data["train"][0]["coords"]
    steps = np.linalg.norm(np.diff(xy, axis=0), axis=1)
    assert np.allclose(steps, 1.0, atol=1e-4)


def test_features_are_rotation_invariant_and_knn_is_exact():
    rng = np.random.default_rng(0)
    xy = rng.normal(size=(20, 2))
    a = 0.7
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    assert np.allclose(node_features(xy), node_features(xy @ rot.T))
    src, dst, e = knn_edges(xy, 5)
    assert np.allclose(e, knn_edges(xy @ rot.T, 5)[2])
    D = np.linalg.norm(xy[:, None] - xy[None], axis=-1)
    for i in range(20):
        brute = set(np.argsort(np.where(np.arange(20) == i, np.inf, D[i]))[:5])
        assert set(src[dst == i]) == brute


def test_teacher_context_excludes_the_position_itself():
    gen = torch.Generator().manual_seed(0)
    teacher = build_teacher(torch, 8)
    init_params(torch, teacher, gen)
    s = "ACGUACGUAC"
    z = teacher_context(torch, teacher, [s])[0]
    for i, c in [(0, "G"), (4, "C"), (9, "U")]:
        s2 = s[:i] + c + s[i + 1:]
        z2 = teacher_context(torch, teacher, [s2])[0]
        assert torch.allclose(z[i], z2[i])  # z_i does not see s_i ...
        others = [j for j in range(len(s)) if j != i]
        assert not torch.allclose(z[others], z2[others])  # ... its neighbours do


def test_open_gates_reduce_atl_to_static_knn():
    """With the gate heads at zero and a huge bias, every gate is 1 and ATL's encoder computes
    exactly the static network's function on the same candidate graph and weights."""
    inst = FoldedRNAFamilies(**SMALL).make(1)
    atl = ATLFGD(fgd=False, hidden=8, n_layers=2, gate_bias=50.0)
    static = KnnMPNN(k=atl.k_candidates, hidden=8, n_layers=2)
    model = atl._build(torch, inst.data)
    init_params(torch, model, torch.Generator().manual_seed(0))
    batch = collate(torch, [featurize(g["coords"], atl.k_candidates) for g in inst.data["test"]])
    with torch.no_grad():
        h_atl, ws = atl._encode(torch, model, batch)
        h_static, _ = static._encode(torch, model, batch)
    assert all(torch.allclose(w, torch.ones_like(w)) for w in ws)
    assert torch.allclose(h_atl, h_static, atol=1e-6)


def test_layer_with_index_select_equals_indexing_bit_for_bit():
    """Issue 27: index_select gathers and tensors converted once per graph must give the same
    batch, outputs and gradients as numpy concatenation and h[idx] gathers, exactly."""
    inst = FoldedRNAFamilies(**SMALL).make(2)
    graphs = [featurize(g["coords"], 16) for g in inst.data["train"]]
    batch = collate(torch, graphs)
    offs = np.cumsum([0] + [g["n"] for g in graphs[:-1]])
    assert torch.equal(batch["x"], torch.as_tensor(np.concatenate([g["x"] for g in graphs]),
                                                   dtype=torch.float32))
    assert torch.equal(batch["e"], torch.as_tensor(np.concatenate([g["e"] for g in graphs]),
                                                   dtype=torch.float32))
    for key in ("src", "dst"):
        ref = np.concatenate([g[key] + o for g, o in zip(graphs, offs)])
        assert batch[key].dtype == torch.long and torch.equal(batch[key], torch.as_tensor(ref))
    assert torch.equal(collate(torch, graphs)["src"], batch["src"])  # cached tensors reused
    gate_head = torch.nn.Linear(8, 1)

    def indexed(layer, h):  # the layer as first written, gathers by h[idx]
        msg = layer["msg"]
        pre = (msg["w_i"](h)[batch["dst"]] + msg["w_j"](h)[batch["src"]]
               + msg["w_e"](batch["e"]))
        hid = torch.relu(pre)
        w = torch.sigmoid(gate_head(hid))[:, 0]
        agg = torch.zeros_like(h).index_add_(0, batch["dst"], msg["out"](hid) * w[:, None]) / 16
        h = layer["norm1"](h + agg)
        return layer["norm2"](h + layer["ffn"](h)), w

    def ours(layer, h):
        return mp_layer(torch, layer, h, batch, 16, lambda hid: torch.sigmoid(gate_head(hid))[:, 0])

    for hidden in (8, 32):
        layer = build_encoder(torch, hidden, 1)["layers"][0]
        init_params(torch, layer, torch.Generator().manual_seed(1))
        gate_head = torch.nn.Linear(hidden, 1)
        h0 = torch.randn(batch["n"], hidden, generator=torch.Generator().manual_seed(2))
        got = []
        for fn in (indexed, ours):
            layer.zero_grad()
            gate_head.zero_grad()
            h = h0.clone().requires_grad_()
            out, w = fn(layer, h)
            (out.square().sum() + w.sum()).backward()
            got.append([out.detach(), h.grad] + [p.grad.clone() for p in layer.parameters()]
                       + [gate_head.weight.grad.clone()])
        assert all(torch.equal(a, b) for a, b in zip(*got))


def test_shuffled_teacher_mutant_permutes_within_each_structure():
    gen = torch.Generator().manual_seed(0)
    m = ATLFGD(mutant="shuffled_teacher")
    z1 = torch.arange(12.0).reshape(6, 2)
    z2 = 100 + torch.arange(8.0).reshape(4, 2)
    m._z = {"AAAAAA": z1, "CCCC": z2}
    z = m._teacher_z(torch, ["AAAAAA", "CCCC"], gen)
    assert sorted(map(tuple, z[:6].tolist())) == sorted(map(tuple, z1.tolist()))
    assert sorted(map(tuple, z[6:].tolist())) == sorted(map(tuple, z2.tolist()))
    assert not torch.equal(z, torch.cat([z1, z2]))
    plain = ATLFGD()
    plain._z = m._z
    assert torch.equal(plain._teacher_z(torch, ["AAAAAA", "CCCC"], gen), torch.cat([z1, z2]))
    with pytest.raises(ValueError):
        ATLFGD(mutant="nonsense")


def test_inverse_fold_reaches_targets_and_random_design_does_not(tmp_path):
    targets = ["((((....))))....", "(((...)))..((((....))))"]
    data = {"test": [{"structure": t} for t in targets]}
    inv = RNAInverseFold().run(data, 0)["designs"]
    assert [fold(d) for d in inv] == targets
    assert RNAInverseFold().run(data, 0)["designs"] == inv  # seeded: reproducible
    rnd = RNAInverseFold(search=False).run(data, 0)["designs"]
    assert [len(d) for d in rnd] == [len(t) for t in targets]
    assert np.mean([bp_f1(fold(d), t) for d, t in zip(rnd, targets)]) < 1.0


def test_atl_fgd_runs_end_to_end_and_teacher_learns_family_context(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    inst = FoldedRNAFamilies(**SMALL, mutation=0.05).make(2)
    out = ATLFGD(hidden=8, n_layers=1, epochs=2, teacher_epochs=40).run(inst.data, 0)
    assert [len(d) for d in out["designs"]] == [len(s) for s in inst.truth["seq"]]
    assert set("".join(out["designs"])) <= set("ACGU")
    assert 0.0 <= out["edges_kept"] <= 1.0
    assert out["teacher_acc"] > 0.6  # 5% mutations: the context predicts the family consensus
    again = ATLFGD(hidden=8, n_layers=1, epochs=2, teacher_epochs=40).run(inst.data, 0)
    assert again["designs"] == out["designs"]  # the cached teacher leaves the run unchanged
    assert KnnMPNN(hidden=8, n_layers=1, epochs=1).run(inst.data, 0)["edges_kept"] == 1.0


def test_pretrain_corpus_is_extra_family_members_and_leaves_train_and_test_unchanged():
    base = FoldedRNAFamilies(**SMALL, pretrain_per_family=0).make(5)
    inst = FoldedRNAFamilies(**SMALL, pretrain_per_family=6).make(5)
    assert base.data["pretrain"] == []
    assert [g["seq"] for g in inst.data["train"]] == [g["seq"] for g in base.data["train"]]
    assert inst.truth == base.truth
    pre = inst.data["pretrain"]
    assert len(pre) == 2 * 6
    train = {g["seq"] for g in inst.data["train"]}
    for fam in range(2):  # members of family fam: its length, close to its training members
        block = pre[6 * fam:6 * fam + 6]
        ref = inst.data["train"][4 * fam]["seq"]
        assert {len(s) for s in block} == {len(ref)}
        assert all(np.mean([a != b for a, b in zip(s, ref)]) < 0.5 for s in block)
    assert len(train & set(pre)) <= 1  # distinct random draws (10% mutations of ~26 nt)


def test_heldout_acc_metric_reads_the_teacher_or_falls_back_to_recovery():
    from claimbench.benchmarks.atl_fgd_rna import _heldout_acc
    inst = Instance(data=None, truth={"seq": ["ACGU"], "structure": ["...."]})
    assert _heldout_acc(inst, {"designs": ["ACGG"]}) == pytest.approx(0.75)
    assert _heldout_acc(inst, {"designs": ["ACGG"], "teacher_heldout_acc": 0.9}) == 0.9


def test_pretrained_teacher_reports_heldout_accuracy_and_train_teacher_does_not(tmp_path,
                                                                                 monkeypatch):
    from claimbench.methods.atl_fgd_rna import teacher_accuracy
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    inst = FoldedRNAFamilies(**SMALL, mutation=0.05, pretrain_per_family=16).make(2)
    kw = dict(hidden=8, n_layers=1, epochs=1, teacher_epochs=40)
    out = ATLFGD(**kw).run(inst.data, 0)
    assert out["teacher_heldout_acc"] > 0.6  # 5% mutations: unseen members share the consensus
    self_out = ATLFGD(teacher_data="train", **kw).run(inst.data, 0)
    assert "teacher_heldout_acc" not in self_out
    with pytest.raises(ValueError):
        ATLFGD(teacher_data="nonsense")
    teacher = build_teacher(torch, 4)
    with torch.no_grad():
        for p in teacher.parameters():
            p.zero_()
        teacher["out"].bias[2] = 1.0  # always predicts G
    assert teacher_accuracy(torch, teacher, ["GGAA", "GAGA", "CCCCCC"]) == pytest.approx(4 / 14)
