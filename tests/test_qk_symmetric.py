"""Tests of the symmetric / skew-symmetric QK^T split (methods/qk_symmetric.py), its flow-matching
DiT baseline, the digits data and the benchmark's fidelity / diversity metrics."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines.tiny_transformer import TransformerConfig, torch_classes  # noqa: E402
from claimbench.benchmarks.qk_symmetric import knn_precision_recall, pairwise_diversity  # noqa: E402
from claimbench.datasets.digit_images import Digits, from_patches, to_patches  # noqa: E402
from claimbench.methods.qk_symmetric import (SymmetricSkewSampler, blend,  # noqa: E402
                                             hopfield_diagnostics, logit_coefficients,
                                             split_attention_class)

CFG = TransformerConfig(vocab_size=5, d_model=8, n_layers=1, n_heads=2, d_ff=16, max_len=6,
                        causal=False, positions="learned")


def _attention(alpha=1.0, beta=1.0, mutant="", seed=0):
    torch.manual_seed(seed)
    m = split_attention_class()(CFG, 0)
    with torch.no_grad():
        m.qkv.weight.normal_(0, 0.7)
        m.out.weight.normal_(0, 0.5)
    m.alpha, m.beta, m.mutant = alpha, beta, mutant
    return m


def _numpy_reference(m, x, alpha, beta):
    """Equations (1)-(3) in float64 numpy, head by head, from the weights."""
    C, h, dh = CFG.d_model, CFG.n_heads, CFG.d_model // CFG.n_heads
    W = m.qkv.weight.detach().double().numpy()
    Wo = m.out.weight.detach().double().numpy()
    X = x.double().numpy()[0]  # (L, C)
    heads = []
    for i in range(h):
        Wq, Wk, Wv = (W[j * C + i * dh: j * C + (i + 1) * dh] for j in range(3))  # (dh, C)
        A = Wq.T @ Wk  # (C, C)
        S, K = (A + A.T) / 2, (A - A.T) / 2
        assert np.allclose(S + K, A) and np.allclose(S, S.T) and np.allclose(K, -K.T)

        def retrieve(M):
            logits = X @ M @ X.T / np.sqrt(dh)
            P = np.exp(logits - logits.max(1, keepdims=True))
            return (P / P.sum(1, keepdims=True)) @ X  # (L, C)

        H1, Ha = retrieve(A), retrieve(S + alpha * K)
        Hb = H1 + beta * (Ha - H1)
        ratio = np.clip(np.linalg.norm(Ha, axis=1) / np.linalg.norm(Hb, axis=1), 0.25, 4.0)
        heads.append((Hb * ratio[:, None]) @ Wv.T)  # (L, dh)
    return np.concatenate(heads, axis=1) @ Wo.T  # (L, C)


@pytest.mark.parametrize("alpha,beta", [(1.05, 3.0), (1.2, 5.0), (0.8, 1.0), (1.4, 1.0)])
def test_forward_matches_numpy_reference_of_the_split(alpha, beta):
    m = _attention(alpha, beta)
    x = torch.randn(1, 6, CFG.d_model, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        y = m(x, torch.arange(6))[0].double().numpy()
    assert np.allclose(y, _numpy_reference(m, x, alpha, beta), atol=1e-5)


def test_logit_coefficients():
    assert logit_coefficients(1.0) == (1.0, 0.0)
    assert logit_coefficients(1.2) == pytest.approx((1.1, -0.1))
    assert logit_coefficients(1.0, "no_half") == (2.0, 0.0)
    assert logit_coefficients(1.2, "knob_on_symmetric") == pytest.approx((1.1, 0.1))
    # X S X^T + a X K X^T = c1 Q K^T + c2 K Q^T with Q K^T = X A X^T
    rng = np.random.default_rng(0)
    A, X = rng.standard_normal((5, 5)), rng.standard_normal((4, 5))
    S, K = (A + A.T) / 2, (A - A.T) / 2
    c1, c2 = logit_coefficients(1.3)
    assert np.allclose(X @ (S + 1.3 * K) @ X.T, c1 * X @ A @ X.T + c2 * X @ A.T @ X.T)


def test_alpha_one_is_vanilla_attention_and_no_half_is_not():
    m = _attention(1.0, 3.0)
    vanilla = torch_classes().SoftmaxAttention(CFG, 0)
    vanilla.load_state_dict(m.state_dict())
    x = torch.randn(3, 6, CFG.d_model, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        y, y0 = m(x, torch.arange(6)), vanilla(x, torch.arange(6))
        m.mutant = "no_half"
        y_bad = m(x, torch.arange(6))
    assert torch.max(torch.abs(y - y0)) < 1e-5
    assert torch.max(torch.abs(y_bad - y0)) > 1e-3


def test_blend_rescales_to_perturbed_norm_within_clip():
    H1 = torch.tensor([[[[1.0, 0.0]]]])  # (1, 1, 1, 2)
    Ha = torch.tensor([[[[0.0, 2.0]]]])
    assert torch.allclose(blend(H1, Ha, 1.0), Ha)
    out = blend(H1, Ha, 3.0)  # H1 + 3 (Ha - H1) = (-2, 6), rescaled to norm 2
    assert torch.allclose(out.norm(), torch.tensor(2.0)) and out[..., 0] < 0
    tiny = blend(H1, H1 * 1e-3, 1.0)  # norm ratio 1 -> identical
    assert torch.allclose(tiny, H1 * 1e-3)
    big = blend(torch.ones(1, 1, 1, 2), 10 * torch.ones(1, 1, 1, 2), 0.01)  # ratio ~9 -> 4
    hb = torch.ones(1, 1, 1, 2) * (1 + 0.01 * 9)
    assert torch.allclose(big, hb * 4.0)


def test_blend_in_place_is_the_out_of_place_formula_bit_for_bit():
    g = torch.Generator().manual_seed(7)
    H1, Ha = torch.randn(3, 2, 5, 8, generator=g), torch.randn(3, 2, 5, 8, generator=g)
    Hb = H1 + 3.0 * (Ha - H1)
    ratio = (Ha.norm(dim=-1, keepdim=True).clamp_min(1e-6)
             / Hb.norm(dim=-1, keepdim=True).clamp_min(1e-6)).clamp(0.25, 4.0)
    H1c, Hac = H1.clone(), Ha.clone()
    assert torch.equal(blend(H1, Ha, 3.0), Hb * ratio)
    assert torch.equal(H1, H1c) and torch.equal(Ha, Hac)  # inputs untouched
    assert torch.equal(blend(H1, H1, 3.0), H1)  # alpha = 1 skips the blend: it is the identity


def test_hopfield_diagnostics_against_loops():
    rng = np.random.default_rng(3)
    B, H, L, C = 2, 2, 5, 3
    Hx, X = rng.standard_normal((B, H, L, C)), rng.standard_normal((B, L, C))
    R = rng.standard_normal((H, C, C))
    S = (R + R.transpose(0, 2, 1)) / 2
    e, r = hopfield_diagnostics(torch.tensor(Hx), torch.tensor(X), torch.tensor(S))
    E = np.zeros((B, H, C))
    frac = np.zeros((B, H, C))
    for b in range(B):
        Xc = X[b] - X[b].mean(0)
        for h in range(H):
            for c in range(C):
                s = Hx[b, h, :, c] - Hx[b, h, :, c].mean()
                s = s / np.linalg.norm(s)
                z = Xc.T @ s
                E[b, h, c] = -0.5 * z @ S[h] @ z
                frac[b, h, c] = np.mean(s * (Xc @ S[h] @ z) < 0)
    assert np.allclose(e.numpy(), E.mean((1, 2)))
    assert np.allclose(r.numpy(), frac.mean((1, 2)))
    St = torch.tensor(S)
    both = hopfield_diagnostics(torch.tensor(Hx), torch.tensor(X), [St, -St])
    assert torch.equal(both[0][0], e) and torch.equal(both[0][1], r)
    assert torch.allclose(both[1][0], -e)  # a list of couplings: one (energy, r_x) each


def test_random_energy_coupling_keeps_norm_and_symmetry():
    m = _attention(mutant="random_energy")
    R = m.coupling()
    m.mutant = ""
    S = m.coupling()
    assert torch.allclose(R, R.transpose(-1, -2)) and torch.allclose(S, S.transpose(-1, -2))
    assert torch.allclose(R.norm(dim=(1, 2)), S.norm(dim=(1, 2)))
    assert not torch.allclose(R, S)


def test_knn_precision_recall():
    rng = np.random.default_rng(4)
    real = rng.standard_normal((60, 3))
    assert knn_precision_recall(real, real.copy()) == (1.0, 1.0)
    assert knn_precision_recall(real, real + 100.0) == (0.0, 0.0)
    # a collapsed generator: precise (all at a real point) but covers almost nothing
    p, r = knn_precision_recall(real, np.repeat(real[:1], 60, axis=0))
    assert p == 1.0 and r < 0.2


def test_pairwise_diversity():
    s = np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0], [1.0, 1.0]])
    assert pairwise_diversity(s, np.array([0, 0, 1, 1])) == pytest.approx(2.5)


def test_digits_split_and_patches():
    inst = Digits().make(5)
    x, xt = inst.data["x"], inst.truth["x"]
    assert x.shape[1] == 64 and len(x) + len(xt) == 1797
    assert x.min() >= -1 and x.max() <= 1
    assert np.array_equal(from_patches(to_patches(x)), x)
    assert np.array_equal(to_patches(x)[0, 0], x[0, [0, 1, 8, 9]])  # top-left 2x2 patch
    assert np.array_equal(Digits().make(5).data["y"], inst.data["y"])


def test_sampler_end_to_end_identity_and_mutant(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    data = Digits().make(0).data
    tiny = dict(train_steps=20, batch_size=16, n_per_class=2, sample_steps=3, d_model=16,
                n_layers=1, diag_every=1)
    out = SymmetricSkewSampler(sweep_alphas=(1.0, 1.4), **tiny).run(data, 1)
    assert out["samples"].shape == (20, 64) and out["energy"].shape == (20,)
    assert out["identity_dev"] < 1e-5
    assert not np.allclose(out["sweep"]["samples"][0], out["sweep"]["samples"][1])
    bad = SymmetricSkewSampler(mutant="no_half", alpha=1.0, sweep_alphas=(), **tiny).run(data, 1)
    assert bad["identity_dev"] > 1e-5  # the claim threshold (c1)


def test_cached_draws_are_the_uncached_ones_and_shared(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    data = Digits().make(0).data
    tiny = dict(train_steps=20, batch_size=16, n_per_class=2, sample_steps=4, d_model=16,
                n_layers=2, diag_every=2)
    qk = SymmetricSkewSampler(**tiny)
    model, _ = qk.trained_model(data, 1)
    labels, x0 = qk.sample_inputs(data, 1)
    fresh = qk.draw(model, 1.05, labels, x0, 10, diagnostics=True)
    s, e, r = qk.sample_with(model, 1.05, labels, x0, 10, diagnostics=True)
    assert np.array_equal(s, fresh["samples"]) and np.array_equal(e, fresh["energy_learned"])
    rnd = SymmetricSkewSampler(mutant="random_energy", **tiny)
    s2, e2, r2 = rnd.sample_with(model, 1.05, labels, x0, 10, diagnostics=True)
    assert np.array_equal(s2, s) and not np.allclose(e2, e)  # same draw, other coupling
    alone = rnd.draw(model, 1.05, labels, x0, 10, diagnostics=True)  # the mutant on its own
    assert np.array_equal(e2, alone["energy_random"]) and np.array_equal(r2, alone["r_x_random"])
    n = len(list((tmp_path / "samples").glob("*.npz")))
    knob = SymmetricSkewSampler(mutant="knob_on_symmetric", **tiny)
    one = knob.sample_with(model, 1.0, labels, x0, 10)[0]
    n_one = len(list((tmp_path / "samples").glob("*.npz")))
    assert np.array_equal(qk.sample_with(model, 1.0, labels, x0, 10)[0], one)
    assert len(list((tmp_path / "samples").glob("*.npz"))) == n_one == n + 1  # alpha = 1 shared
    assert np.array_equal(one, qk.draw(model, 1.0, labels, x0, 10)["samples"])
    assert np.array_equal(qk.vanilla_samples(model, labels, x0, 10),
                          qk.sample(model, labels, x0, 10))


def test_frontier_gain_on_a_known_polyline():
    from claimbench.benchmarks.qk_symmetric import frontier_gain

    g_fid, g_div = [0.5, 0.7, 0.9], [3.0, 2.0, 1.0]  # guidance w = 1, 1.5, 2: a trade-off
    assert frontier_gain(g_fid, g_div, 0.8, 2.0) == pytest.approx(0.5)  # frontier 1.5 at 0.8
    assert frontier_gain(g_fid, g_div, 0.9, 1.0) == pytest.approx(0.0)  # on the frontier
    assert frontier_gain(g_fid, g_div, 0.95, 1.2) == pytest.approx(0.2)  # above: vs w = 2
    assert frontier_gain(g_fid, g_div, 0.4, 9.0) is None  # below the band: no matched point
    # a frontier that doubles back: the best of its segments at 0.8 (1.5 and 1.75) counts
    assert frontier_gain([0.5, 0.9, 0.7], [3.0, 1.0, 2.5], 0.8, 2.0) == pytest.approx(0.25)


def test_inert_knob_is_vanilla_at_every_alpha_and_frontier_is_vanilla_draws(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    assert logit_coefficients(1.4, "inert_knob") == (1.0, 0.0)
    data = Digits().make(0).data
    tiny = dict(train_steps=20, batch_size=16, n_per_class=2, sample_steps=3, d_model=16,
                n_layers=1, diagnostics=False)
    out = SymmetricSkewSampler(mutant="inert_knob", sweep_alphas=(1.0, 1.4),
                               guidance_sweep=(1.0, 2.0), **tiny).run(data, 1)
    s = out["sweep"]["samples"]
    assert np.array_equal(s[0], s[1]) and out["identity_dev"] < 1e-5
    base = SymmetricSkewSampler(**tiny)
    model, _ = base.trained_model(data, 1)
    labels, x0 = base.sample_inputs(data, 1)
    g = out["guidance_sweep"]
    assert g["guidances"] == [1.0, 2.0]
    assert np.array_equal(g["samples"][1], base.sample(model, labels, x0, 10))  # w = 2
    assert not np.allclose(g["samples"][0], g["samples"][1])
    # step 0's network call is shared by the guidance scales (one cache entry), same numbers
    import dataclasses

    v0 = base.first_velocity(model, labels, x0, 10)
    n = len(list((tmp_path / "samples").glob("*.npz")))
    w1 = dataclasses.replace(base, guidance=1.0)
    assert np.array_equal(w1.first_velocity(model, labels, x0, 10), v0)
    assert len(list((tmp_path / "samples").glob("*.npz"))) == n
    assert np.array_equal(g["samples"][0], w1.sample(model, labels, x0, 10))  # w = 1
