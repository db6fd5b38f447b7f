import numpy as np
import pytest

from claimbench.baselines.point_transformer import (PointTransformerClassifier, attention_ops,
                                                    gather_neighbours, knn_indices)
from claimbench.baselines.pointnet import PointNetClassifier, SpikingPointNetClassifier
from claimbench.datasets.parametric_point_clouds import SHAPES, ParametricPointClouds, sample_shape
from claimbench.methods.spikenet import SpikeNetClassifier, _spikenet_class


def _tiny():
    return ParametricPointClouds(n_points=24, n_train=24, n_test=16).make(0)


def test_shapes_lie_on_their_surfaces():
    rng = np.random.default_rng(0)
    s = sample_shape("sphere", 200, rng)
    assert np.allclose(np.linalg.norm(s, axis=1), 1.0)
    c = sample_shape("cylinder", 200, rng)
    assert np.allclose(np.hypot(c[:, 0], c[:, 1]), 0.5)
    t = sample_shape("torus", 200, rng)
    assert np.allclose((np.hypot(t[:, 0], t[:, 1]) - 0.7) ** 2 + t[:, 2] ** 2, 0.25 ** 2)
    for kind in SHAPES:
        assert sample_shape(kind, 50, rng).shape == (50, 3)


def test_dataset_normalised_seeded_and_hides_test_labels():
    a, b = _tiny(), _tiny()
    assert np.array_equal(a.data["x_train"], b.data["x_train"])
    assert np.linalg.norm(a.data["x_train"], axis=2).max() == pytest.approx(1.0, abs=1e-6)
    assert "y_test" not in a.data


def test_knn_matches_sklearn():
    import torch
    from sklearn.neighbors import NearestNeighbors

    x = np.random.default_rng(1).standard_normal((2, 30, 3)).astype(np.float32)
    idx = knn_indices(torch.as_tensor(x), 5).numpy()
    for b in range(2):
        ref = NearestNeighbors(n_neighbors=5).fit(x[b]).kneighbors(x[b], return_distance=False)
        assert all(set(idx[b, i]) == set(ref[i]) for i in range(30))
    g = gather_neighbours(torch.as_tensor(x), torch.as_tensor(idx)).numpy()  # (2, 30, 5, 3)
    assert np.array_equal(g[1, 7, 2], x[1, idx[1, 7, 2]])


def test_svmt_is_and_and_accumulate():
    """With binary Q, K, V the block's aggregate equals a count of AND-ed bits (a hand check)."""
    import torch

    q = torch.tensor([[1.0, 0.0, 1.0]])  # point 0
    k = torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0]])  # neighbours
    v = torch.tensor([[1.0, 1.0, 1.0], [0.0, 1.0, 1.0]])
    agg = (q.unsqueeze(1) * k.unsqueeze(0) * v.unsqueeze(0)).sum(1)
    ref = [sum(bool(q[0, c]) and bool(k[j, c]) and bool(v[j, c]) for j in range(2))
           for c in range(3)]
    assert agg[0].tolist() == ref == [1, 0, 1]


def test_spikenet_counts_no_real_multiplication_and_transformer_does():
    inst = _tiny()
    out = SpikeNetClassifier(epochs=1, k=4).run(inst.data, 0)
    assert out["attn_real_ops"] == 0.0
    assert out["macs"] == 24 * 3 * 16 and out["sops"] > 0
    assert out["energy_pJ"] == pytest.approx(out["macs"] * 4.6 + out["sops"] * 0.9)
    pt = PointTransformerClassifier(epochs=1, k=4).run(inst.data, 0)
    ops = attention_ops(24, 4, 16)
    assert pt["attn_real_ops"] == ops["mults"] + ops["softmax"] > 0


def test_spikenet_layers_emit_binary_spikes_and_mutants_differ():
    import torch

    SpikeNet = _spikenet_class()
    x = torch.as_tensor(_tiny().data["x_train"][:4])
    outs = {}
    for mutant in ("", "no_dssr", "no_mask"):
        torch.manual_seed(0)
        net = SpikeNet(16, 8, 2, 4, 0.5, 0.05, mutant).eval()  # low threshold: spikes at init
        with torch.no_grad():
            outs[mutant] = net(x)
        spikes = sum(l.spikes for l in net.lifs)
        assert 0 < spikes <= sum(l.events for l in net.lifs)
    assert not torch.equal(outs[""], outs["no_dssr"])
    assert not torch.equal(outs[""], outs["no_mask"])
    with pytest.raises(ValueError):
        SpikeNetClassifier(mutant="bogus").run(_tiny().data, 0)


def test_pointnets_run_and_count():
    inst = _tiny()
    ann = PointNetClassifier(epochs=1).run(inst.data, 0)
    assert ann["macs"] == 24 * (3 * 16 + 16 * 16) + 16 * 8 and ann["sops"] == 0
    snn = SpikingPointNetClassifier(epochs=1).run(inst.data, 0)
    assert snn["macs"] == 24 * 3 * 16 and 0 <= snn["firing_rate"] <= 1


@pytest.mark.parametrize("mutant", ["", "no_dssr", "no_mask"])
def test_hand_written_lif_bptt_equals_autograd_in_spikenet(mutant):
    # the network's LIFs run their BPTT by hand (baselines/spiking_layers.fast_lif_class): the
    # loss and every parameter gradient must equal autograd through the shared LIF bit for bit,
    # including the expanded first-layer current and the spikes feeding four consumers
    import torch

    from claimbench.baselines.spiking_layers import spiking_classes

    SpikeNet, LIF = _spikenet_class(), spiking_classes()
    data = _tiny().data
    x, y = torch.as_tensor(data["x_train"][:6]), torch.as_tensor(data["y_train"][:6])
    got = []
    for autograd_lif in (False, True):
        torch.manual_seed(0)
        net = SpikeNet(16, 8, 3, 4, 0.5, 0.05, mutant)  # low threshold: spikes at init
        if autograd_lif:
            net.lifs = torch.nn.ModuleList(LIF(0.5, 0.05) for _ in range(6))
        loss = torch.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        # no_mask leaves Wq and Wk unused (no gradient)
        got.append((loss.detach(), [p.grad for p in net.parameters() if p.grad is not None]))
    (l1, g1), (l2, g2) = got
    assert torch.equal(l1, l2) and len(g1) == len(g2)
    assert all(torch.equal(a, b) for a, b in zip(g1, g2))
    assert sum(float(g.abs().sum()) for g in g1) > 0


def test_hand_written_lif_bptt_equals_autograd_in_spiking_pointnet():
    # as above, for the Spiking PointNet baseline (baselines/pointnet.py)
    import torch

    from claimbench.baselines.pointnet import _classes
    from claimbench.baselines.spiking_layers import spiking_classes

    _, SpikingPointNet = _classes()
    LIF = spiking_classes()
    data = _tiny().data
    x, y = torch.as_tensor(data["x_train"][:6]), torch.as_tensor(data["y_train"][:6])
    got = []
    for autograd_lif in (False, True):
        torch.manual_seed(0)
        net = SpikingPointNet(16, 8, 3, 0.5, 0.05)  # low threshold: spikes at init
        if autograd_lif:
            net.lif1, net.lif2 = LIF(0.5, 0.05), LIF(0.5, 0.05)
        loss = torch.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        got.append((loss.detach(), [p.grad for p in net.parameters()]))
    (l1, g1), (l2, g2) = got
    assert torch.equal(l1, l2) and all(torch.equal(a, b) for a, b in zip(g1, g2))
    assert sum(float(g.abs().sum()) for g in g1) > 0
