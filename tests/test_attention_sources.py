"""The Q/K/V sources of the sparse-attention benchmarks: planted patterns land where planted;
LM activations are one layer's q, k, v of the cached model."""
import numpy as np
import pytest

from claimbench.datasets.attention_patterns import VerticalSlashAttention


def logits(inst, h=0):
    q, k = inst.data["q"][h].astype(np.float64), inst.data["k"][h].astype(np.float64)
    return q @ k.T / np.sqrt(q.shape[1])  # (T, T)


def test_sinks_and_verticals_get_exactly_their_boost():
    ds = VerticalSlashAttention(context=256, n_heads=1, window=0.0, slash=0.0, noise=0.0, sink=6.0, vertical=4.0)
    inst = ds.make(3)
    s = logits(inst)
    heavy = inst.truth["vertical"][0]
    expect = np.zeros(256)
    expect[: ds.n_sinks], expect[heavy] = 6.0, 4.0
    assert np.allclose(s, expect[None, :], atol=1e-4)
    assert len(heavy) == 2 and min(heavy) >= ds.n_sinks  # 8 per 1024 tokens, never a sink


@pytest.mark.parametrize("offset", [0, 17])
def test_window_and_slash_peak_at_their_offset(offset):
    # the slash pattern alone, at one offset: each query's largest logit is at key i - offset
    ds = VerticalSlashAttention(context=200, n_heads=1, sink=0.0, vertical=0.0, window=0.0, noise=0.0,
                                slash=5.0, slash_offsets=(offset,), window_width=4)
    s = logits(ds.make(0))
    rows = np.arange(offset, 200)
    assert np.array_equal(s[rows].argmax(1), rows - offset)
    assert np.allclose(s[rows, rows - offset], 5.0, atol=1e-4)  # mean of cos(0) = 1


def test_noise_has_the_declared_scale_and_the_seed_decides():
    ds = VerticalSlashAttention(context=512, n_heads=2, sink=0.0, vertical=0.0, window=0.0, slash=0.0, noise=1.5)
    s = logits(ds.make(1), h=1)
    assert s.std() == pytest.approx(1.5, rel=0.1)
    a, b = ds.make(1), ds.make(2)
    assert np.array_equal(a.data["k"], ds.make(1).data["k"]) and not np.array_equal(a.data["k"], b.data["k"])


def test_bad_parameters_name_what_would_be_valid():
    with pytest.raises(ValueError, match="head_dim > 50"):
        VerticalSlashAttention(head_dim=32)


def test_lm_activations_are_one_layers_qkv():
    torch = pytest.importorskip("torch")
    from claimbench.datasets.lm_attention_activations import DEFAULT_LM, LMAttentionActivations, trained_lm

    lm = {**DEFAULT_LM, "steps": 3, "batch": 2, "context": 32}
    ds = LMAttentionActivations(context=64, layer=1, lm=lm)
    inst = ds.make(5)
    q, k, v = (inst.data[x] for x in "qkv")
    assert q.shape == k.shape == v.shape == (3, 64, 32)
    assert inst.data["start"] == ds.make(5).data["start"] != ds.make(6).data["start"]
    # the layer's attention on these q, k, v is what the model computes there
    model, text, _ = trained_lm(lm, 0)
    tokens = torch.as_tensor(text["val"][inst.data["start"]:inst.data["start"] + 64])[None]
    attn = model.blocks[1].mixer
    seen = {}
    hook = attn.register_forward_hook(lambda m, a, o: seen.setdefault("y", o))
    with torch.no_grad():
        model(tokens)
    hook.remove()
    from claimbench.baselines.block_sparse_attention import dense_attention

    y = dense_attention(torch.as_tensor(q), torch.as_tensor(k), torch.as_tensor(v))  # (H, T, dh)
    y = attn.out(y.transpose(0, 1).reshape(64, -1))  # (T, d_model)
    assert torch.allclose(y, seen["y"][0], atol=1e-5)
    with pytest.raises(ValueError, match="layers 0..2"):
        LMAttentionActivations(layer=3)
