import math

import numpy as np
import pytest

from claimbench.baselines.sequence_classifiers import ann_macs
from claimbench.baselines.spiking_layers import (E_AC_PJ, E_MAC_PJ, beta_for_cutoff, energy_pj,
                                                 lif_cutoff, lif_gain, spiking_classes)
from claimbench.datasets.radar_sequences import BANDS, RadarSequences, highpass_noise
from claimbench.methods.snn_mmwave import FrequencyMatchedSNN, _fast_lif_class, matched_cutoff


def test_lif_cutoff_matches_scipy_frequency_response():
    from scipy.signal import freqz

    for beta in (0.3, 0.7, 0.9, 0.98):
        f_c = lif_cutoff(beta)
        w, h = freqz([1.0], [1.0, -beta], worN=[2 * math.pi * f_c, 0.0])
        assert abs(h[0]) ** 2 == pytest.approx(abs(h[1]) ** 2 / 2, rel=1e-9)
        assert lif_gain(beta, f_c) == pytest.approx(1 / math.sqrt(2), rel=1e-9)


def test_beta_for_cutoff_inverts_and_note_example():
    assert lif_cutoff(0.9) == pytest.approx(0.0168, abs=2e-4)  # research note: beta 0.9 -> 0.0168
    for f in (0.003, 0.02, 0.0625, 0.2, 0.4):
        assert lif_cutoff(beta_for_cutoff(f)) == pytest.approx(f, rel=1e-7)
    assert beta_for_cutoff(0.5) == pytest.approx(3 - math.sqrt(8))


def test_energy_constants():
    assert energy_pj(10, 0) == pytest.approx(46.0)
    assert energy_pj(0, 10) == pytest.approx(9.0)
    assert (E_MAC_PJ, E_AC_PJ) == (4.6, 0.9)
    assert ann_macs("gru", 64, 8, 32, 5, 5) == 64 * 3 * (8 * 32 + 32 * 32) + 32 * 5


def test_inline_lif_equals_snntorch_leaky():
    import snntorch
    import torch
    from snntorch import surrogate

    LIF = spiking_classes()
    lif = LIF(0.8, 1.0).eval()
    g = torch.Generator().manual_seed(0)
    cur = torch.rand(40, 3, 5, generator=g) * 0.8  # (T, B, H)
    ours = lif(cur)
    leaky = snntorch.Leaky(beta=0.8, threshold=1.0, spike_grad=surrogate.fast_sigmoid(slope=25),
                           reset_mechanism="subtract")
    mem = leaky.init_leaky()
    ref = []
    for t in range(40):
        s, mem = leaky(cur[t], mem)
        ref.append(s)
    assert torch.equal(ours, torch.stack(ref))
    assert 0 < lif.spikes < ours.numel()


@pytest.mark.parametrize("analog", [False, True])
@pytest.mark.parametrize("threshold", [1.0, 0.7])
def test_hand_written_bptt_equals_autograd_through_the_shared_lif(analog, threshold):
    # issue 27: the method's LIF runs its BPTT by hand; spikes, gradients and the spike count
    # must equal autograd through baselines/spiking_layers.LIF bit for bit
    import torch

    g = torch.Generator().manual_seed(3)
    cur = (torch.randn(48, 6, 7, generator=g) * 1.5).requires_grad_()  # (T, B, H)
    w = torch.randn(48, 6, 7, generator=g)
    got = []
    for cls in (spiking_classes(), _fast_lif_class()):
        cur.grad = None
        lif = cls(0.8, threshold, analog)
        out = lif(cur)
        (out * w).sum().backward()
        lif.eval()
        with torch.no_grad():
            lif(cur)
        got.append((out.detach(), cur.grad.clone(), lif.spikes, lif.events))
    (o1, g1, s1, e1), (o2, g2, s2, e2) = got
    assert torch.equal(o1, o2) and torch.equal(g1, g2) and (s1, e1) == (s2, e2)
    assert 0 < s1 < e1 and g1.abs().sum() > 0


def test_analog_twin_is_leaky_relu_filter():
    import torch

    LIF = spiking_classes()
    lif = LIF(0.5, 1.0, analog=True)
    cur = torch.ones(3, 1, 1)
    assert lif(cur).flatten().tolist() == pytest.approx([1.0, 1.5, 1.75])


def test_highpass_noise_has_no_low_frequencies():
    w = highpass_noise(np.random.default_rng(0), 4, 64, 3, 0.15)
    spec = np.abs(np.fft.rfft(w, axis=1))
    assert spec[:, np.fft.rfftfreq(64) < 0.15].max() < 1e-9
    assert w.std() == pytest.approx(1.0)


def test_dataset_seeded_and_band():
    a = RadarSequences(n_train=20, n_test=10).make(3)
    b = RadarSequences(n_train=20, n_test=10).make(3)
    assert np.array_equal(a.data["x_train"], b.data["x_train"])
    assert "y_test" not in a.data and a.data["x_test"].shape == (10, 64, 8)


def test_matched_cutoff_finds_the_discriminative_band():
    # noise-free low band: the criterion's cut-off sits just above 0.06 f_s, far below 0.15
    inst = RadarSequences(n_train=200, snr_db=40.0, dropout=0.0).make(1)
    f_c = matched_cutoff(inst.data["x_train"], inst.data["y_train"], 0.9)
    assert BANDS["low"][1] <= f_c < 0.15
    hi = RadarSequences(band="high", n_train=200, snr_db=40.0, dropout=0.0).make(1)
    assert matched_cutoff(hi.data["x_train"], hi.data["y_train"], 0.9) >= BANDS["high"][0]


def test_snn_runs_counts_energy_and_mutant_costs_more():
    inst = RadarSequences(n_train=40, n_test=20, T=32).make(0)
    out = FrequencyMatchedSNN(epochs=1).run(inst.data, 1)
    T, C, H = 32, 8, 32
    assert out["macs"] == T * C * H and out["sops"] > 0
    assert out["energy_pJ"] == pytest.approx(out["macs"] * 4.6 + out["sops"] * 0.9)
    assert out["beta"] == pytest.approx(beta_for_cutoff(out["cutoff"]))
    twin = FrequencyMatchedSNN(epochs=1, mutant="no_spike").run(inst.data, 1)
    assert twin["sops"] == 0 and twin["energy_pJ"] > out["energy_pJ"]
    fixed = FrequencyMatchedSNN(epochs=1, beta=0.9).run(inst.data, 1)
    assert fixed["beta"] == 0.9


def test_ann_defaults_unchanged_and_options_add_no_parameters():
    # issue 28: the new options are off by default; standardize and augment add no trainable
    # parameter (energy counts MACs of the classifier only) and the default model is the bare net
    from claimbench.baselines.sequence_classifiers import GRUClassifier, MLPClassifier

    x = np.random.default_rng(0).standard_normal((6, 16, 3)).astype(np.float32) * 4 + 2
    bare = MLPClassifier()._build(x, 5, 0)
    wrapped = MLPClassifier(standardize=True, augment=True)._build(x, 5, 0)
    assert not hasattr(bare, "pre")
    def count(m):
        return sum(p.numel() for p in m.parameters())

    assert count(bare) == count(wrapped) == 16 * 3 * 32 + 32 + 32 * 32 + 32 + 32 * 5 + 5
    assert count(GRUClassifier(pool="mean")._build(x, 5, 0)) == count(GRUClassifier()._build(x, 5, 0))


def test_standardize_uses_training_statistics_and_augment_is_train_only():
    import torch

    from claimbench.baselines.sequence_classifiers import _classes

    _, _, _, Standardize, ShiftFlip, _ = _classes()
    x = np.random.default_rng(1).standard_normal((50, 20, 4)).astype(np.float32) * 3 + 1
    mean, std = x.mean(axis=(0, 1)), x.std(axis=(0, 1))
    z = Standardize(mean, std)(torch.as_tensor(x)).numpy()  # (50, 20, 4)
    assert np.allclose(z.mean(axis=(0, 1)), 0, atol=1e-5) and np.allclose(z.std(axis=(0, 1)), 1,
                                                                          atol=1e-4)
    aug = ShiftFlip(0)
    xt = torch.arange(2 * 5 * 1, dtype=torch.float32).reshape(2, 5, 1)  # (B, T, C)
    aug.eval()
    assert torch.equal(aug(xt), xt)
    aug.train()
    seen = set()
    for _ in range(20):
        out = aug(xt)
        k = [j for j in range(5) if torch.equal(torch.roll(xt, j, 1), out.abs())]
        assert len(k) == 1 and torch.equal(out.abs(), torch.roll(xt, k[0], 1))
        seen.add((k[0], bool((out < 0).any())))
    assert len(seen) > 2  # different shifts and both signs drawn


def test_gru_mean_readout_averages_states():
    import torch

    from claimbench.baselines.sequence_classifiers import _classes

    GRU = _classes()[2]
    torch.manual_seed(0)
    m = GRU(3, 4, 2, pool="mean")
    x = torch.randn(5, 7, 3)  # (B, T, C)
    out, _ = m.rnn(x)  # (B, T, H)
    assert torch.allclose(m(x), m.head(out.mean(1)))
    m.pool = "last"
    assert torch.allclose(m(x), m.head(out[:, -1]))


def test_hand_written_gru_equals_torch_gru_bit_for_bit():
    # the mean-readout GRU runs its recurrence and BPTT by hand (GRUSteps): its output, the
    # input's and every parameter's gradient must equal autograd through nn.GRU bit for bit
    import torch

    from claimbench.baselines.sequence_classifiers import _classes

    GRU = _classes()[2]
    for seed in range(3):
        g = torch.Generator().manual_seed(seed)
        x = torch.randn(9, 20, 3, generator=g)  # (B, T, C)
        got = []
        for hand in (True, False):
            torch.manual_seed(seed)
            m = GRU(3, 6, 4, pool="mean")
            xx = x.clone().requires_grad_()
            # hand: GRUSteps inside m's forward; else autograd through nn.GRU, states (B, T, H)
            logits = m(xx) if hand else m.head(m.rnn(xx)[0].mean(1))
            loss = torch.nn.functional.cross_entropy(logits, torch.arange(9) % 4)
            loss.backward()
            got.append((logits.detach(), xx.grad, [p.grad for p in m.parameters()]))
        (l1, x1, g1), (l2, x2, g2) = got
        assert torch.equal(l1, l2) and torch.equal(x1, x2)
        assert len(g1) == len(g2) == 6 and all(torch.equal(a, b) for a, b in zip(g1, g2))


def test_energy_per_correct_prediction_metric():
    from types import SimpleNamespace

    from claimbench.benchmarks.snn_mmwave import METRICS

    metric = {m.name: m for m in METRICS}["energy_per_correct_pJ"]
    assert metric.higher_is_better is False
    inst = SimpleNamespace(truth={"y_test": np.array([0, 1, 2, 3])})
    # 3 of 4 correct: 300 pJ per sample over accuracy 0.75 = 400 pJ per correct prediction
    out = {"pred": np.array([0, 1, 2, 0]), "energy_pJ": 300.0}
    assert metric.fn(inst, out) == pytest.approx(400.0)
    # all correct: the energy itself; none correct: undefined (not infinite)
    assert metric.fn(inst, {"pred": np.array([0, 1, 2, 3]), "energy_pJ": 300.0}) == 300.0
    assert metric.fn(inst, {"pred": np.array([1, 2, 3, 0]), "energy_pJ": 300.0}) is None
