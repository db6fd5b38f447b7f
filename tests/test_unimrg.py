import numpy as np
import pytest

from claimbench.api import Instance
from claimbench.baselines.auxiliary_dense_decoding import (ReconstructionAux, UnderstandingOnly,
                                                           aux_losses, build_model, cell_decoder,
                                                           cell_order_targets, train_multitask)
from claimbench.benchmarks.unimrg import METRICS
from claimbench.datasets.depth_scenes import (COLOURS, Q_DIM, QTYPES, DepthScenes, _questions,
                                              _render_one, render_scenes)
from claimbench.methods.unimrg import UniMRG


def test_render_by_hand_occlusion_depth_and_seg():
    # two objects, red nearer (z=1) over blue (z=2); fixed rng draws replaced by a search for a
    # scene where they overlap, then check the painter's order pixel by pixel
    rng = np.random.default_rng(3)
    for _ in range(500):
        out = _render_one(rng, 32, 2, 1.0, 3.0, 3.5, 0.45, 0.0, 0.25, 2.0, 4)
        if out is None:
            continue
        img, depth, seg, objs = out
        near = int(np.argmin(objs["z"]))
        far = 1 - near
        # every pixel labelled with the near shape's colour has the near depth, and its colour
        # is the near shape's colour times the fog attenuation (noise = 0)
        m = seg == objs["col"][near] + 1
        assert np.allclose(depth[m], objs["z"][near])
        shade = img[:, m] / COLOURS[objs["col"][near]][:, None]
        assert np.allclose(shade, shade[:, :1])
        assert shade[0, 0] <= np.exp(-0.45 * (objs["z"][near] - 1.0)) + 1e-9
        # background pixels have the background depth and class 0
        assert np.all(depth[seg == 0] == 3.5)
        mf = seg == objs["col"][far] + 1
        assert np.allclose(depth[mf], objs["z"][far]) and mf.sum() >= 4
        break
    else:
        pytest.fail("no scene rendered")


def test_question_answers_follow_object_geometry():
    objs = dict(col=np.array([0, 2, 1]), z=np.array([2.0, 1.0, 2.5]),
                cx=np.array([5.0, 20.0, 10.0]), cy=np.array([25.0, 3.0, 12.0]))
    rng = np.random.default_rng(0)
    for _ in range(10):
        q, a = _questions(rng, objs)
        assert q.shape == (4, Q_DIM)
        assert a[QTYPES.index("count")] == 3
        for t, key in ((0, "z"), (1, "cx"), (2, "cy")):  # closer, left, above
            ca, cb = int(np.argmax(q[t, 4:8])), int(np.argmax(q[t, 8:12]))
            assert {ca, cb} == {0, 2}  # the pair is always red (0) and blue (2)
            i, j = (int(np.where(objs["col"] == c)[0][0]) for c in (ca, cb))
            assert a[t] == int(objs[key][i] < objs[key][j])


def test_dataset_seeded_and_depth_normalised():
    a, b = DepthScenes(n_train=20, n_test=10).make(5), DepthScenes(n_train=20, n_test=10).make(5)
    assert np.array_equal(a.data["train"]["images"], b.data["train"]["images"])
    d = a.data["train"]["depth"]
    assert d.min() >= 0.0 and d.max() == pytest.approx(1.0)
    assert "answers" not in a.data["test"] and a.truth["answers"].shape == (10, 4)


def test_shuffled_targets_are_another_scenes():
    import torch

    t = torch.stack([torch.full((32, 32), float(v)) for v in (0.0, 1.0, 2.0)])  # (3, 32, 32)

    class Oracle(torch.nn.Module):  # predicts each scene's own depth exactly
        def forward(self, h):
            return t[:, None]  # (3, 1, 32, 32)

    m = torch.nn.ModuleDict(dict(depth=Oracle()))
    h = torch.zeros(3, 32, 8, 8)
    assert float(aux_losses(m, h, {"depth": t}, {"depth": 1.0}, False)) == 0.0
    # shuffled: scene i is scored against scene i-1's depth: (0-2)^2, (1-0)^2, (2-1)^2
    assert float(aux_losses(m, h, {"depth": t}, {"depth": 1.0}, True)) == pytest.approx(2.0)
    # weight 0 switches a target off
    assert float(aux_losses(m, h, {"depth": t}, {"depth": 0.0}, True)) == 0.0


def test_arms_share_initialisation_and_differ_only_in_aux_weights():
    assert UnderstandingOnly().weights() == {}
    assert ReconstructionAux().weights() == {"recon": 1.0}
    assert UniMRG().weights() == {"recon": 1.0, "depth": 1.0, "seg": 1.0}
    assert UniMRG(representations="depth").weights() == {"depth": 1.0}
    with pytest.raises(ValueError):
        UniMRG(representations="normals").weights()
    data = DepthScenes(n_train=32, n_test=8).make(1).data
    # zero steps: all arms answer identically (same seeded initialisation)
    outs = [train_multitask(data, 7, w, 0, 1e-3, 8) for w in ({}, {"depth": 1.0})]
    assert np.array_equal(outs[0]["answers"], outs[1]["answers"])
    assert "pred_depth" in outs[1] and "pred_depth" not in outs[0]


def test_depth_decoder_learns_and_shuffled_mutant_does_not():
    inst = DepthScenes(n_train=200, n_test=60).make(2)
    r2 = {}
    # 300 steps: with the 10 % warm-up and cosine decay, 150 steps reach R^2 ~ .3 only
    for label, m in (("depth", UniMRG(representations="depth", steps=300)),
                     ("shuffled", UniMRG(representations="depth", steps=300,
                                         mutant="shuffled_targets"))):
        out = m.run(inst.data, 0)
        r2[label] = dict((mm.name, mm.fn(inst, out)) for mm in METRICS)["depth_r2"]
    assert r2["depth"] > 0.5
    assert r2["shuffled"] < 0.2


def test_metrics_on_known_outputs():
    tr = render_scenes(np.random.default_rng(0), 5)
    inst = Instance(data=None, truth=dict(answers=tr["answers"], depth=tr["depth"],
                                          seg=tr["seg"], images=tr["images"]))
    perfect = {"answers": tr["answers"].copy(), "pred_depth": tr["depth"][:, None],
               "pred_recon": tr["images"] + 0.1}
    vals = {m.name: m.fn(inst, perfect) for m in METRICS if m.name not in ("cpu_s",
                                                                          "train_qa_loss")}
    assert vals["acc_all"] == 1.0 and vals["acc_spatial"] == 1.0
    assert vals["depth_r2"] == pytest.approx(1.0)
    assert vals["recon_psnr"] == pytest.approx(20.0)
    wrong = dict(perfect, answers=1 - np.clip(tr["answers"], 0, 1))
    assert {m.name: m.fn(inst, wrong) for m in METRICS}["acc_depth"] == 0.0
    assert {m.name: m.fn(inst, {"answers": tr["answers"]}) for m in METRICS}["depth_r2"] is None


def test_cell_order_losses_and_gradients_equal_image_order():
    # training compares the decoders' pre-shuffle output with targets permuted the same way: the
    # losses match the image-order ones and the encoder's gradient is the same, bit for bit
    import torch

    data = DepthScenes(n_train=6, n_test=2).make(4).data
    tr = data["train"]
    model = build_model(Q_DIM, 4, data["n_seg_classes"])
    h = torch.randn(6, 32, 8, 8, generator=torch.Generator().manual_seed(0), requires_grad=True)
    w = {"recon": 1.0, "depth": 1.0, "seg": 1.0}
    dense = {"recon": torch.as_tensor(tr["images"]), "depth": torch.as_tensor(tr["depth"]),
             "seg": torch.as_tensor(tr["seg"])}
    cells = cell_order_targets(tr, list(w))
    for k in w:
        assert cells[k].shape == dense[k].shape
        assert torch.equal(torch.sort(cells[k].flatten(1))[0], torch.sort(dense[k].flatten(1))[0])
    for shuffle in (False, True):
        grads = []
        for heads, targets in ((model, dense), ({k: cell_decoder(model[k]) for k in w}, cells)):
            loss = aux_losses(heads, h, targets, w, shuffle)
            (g,) = torch.autograd.grad(loss, h)
            grads.append((float(loss.detach()), g))
        assert grads[0][0] == pytest.approx(grads[1][0], rel=1e-6)
        assert torch.equal(grads[0][1], grads[1][1])
