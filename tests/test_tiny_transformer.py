"""The shared tiny-transformer toolkit: masking, caching, positions, training, checkpoints, text."""
from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines import lm_training as L  # noqa: E402
from claimbench.baselines.tiny_transformer import (TransformerConfig, build_model,  # noqa: E402
                                                   n_params, torch_classes)
from claimbench.checkpoints import cached_train  # noqa: E402
from claimbench.datasets.python_docs_text import PythonDocsText, bpe_tokenizer, split_text  # noqa: E402

SMALL = TransformerConfig(vocab_size=17, d_model=32, n_layers=2, n_heads=4, d_ff=64)


def _tokens(T=12, B=2, seed=0, vocab=17):
    return torch.randint(0, vocab, (B, T), generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("positions", ["rope", "learned", "none"])
def test_causal_mask_leaks_nothing_from_the_future(positions):
    cfg = TransformerConfig(**{**SMALL.to_dict(), "positions": positions})
    model = build_model(cfg, seed=1)
    x = _tokens()
    base = model(x)
    for t in (3, 7, 11):
        x2 = x.clone()
        x2[:, t] = (x2[:, t] + 5) % cfg.vocab_size
        out = model(x2)
        assert torch.equal(out[:, :t], base[:, :t]), f"position {t} leaked into earlier logits"
        assert not torch.allclose(out[:, t], base[:, t])
    # and through the gradient: no earlier output depends on a later input embedding
    cfg_e = TransformerConfig(**{**SMALL.to_dict(), "positions": positions, "vocab_size": 0,
                                 "out_dim": 3})
    m = build_model(cfg_e, seed=2)
    e = torch.randn(1, 10, cfg_e.d_model, requires_grad=True)
    y = m(embeds=e)  # (1, 10, 3)
    y[0, 4].sum().backward()
    assert torch.all(e.grad[0, 5:] == 0) and torch.any(e.grad[0, :5] != 0)


def test_bidirectional_model_sees_both_ways():
    model = build_model(TransformerConfig(**{**SMALL.to_dict(), "causal": False}), seed=1)
    x = _tokens()
    x2 = x.clone()
    x2[:, -1] = (x2[:, -1] + 1) % 17
    assert not torch.allclose(model(x)[:, 0], model(x2)[:, 0])


def test_kv_cache_decoding_equals_the_full_forward():
    model = build_model(SMALL, seed=3)
    x = _tokens(T=10, B=1)
    full = model(x)
    cache = model.new_cache()
    parts = [model(x[:, :4], cache=cache)] + [model(x[:, t:t + 1], cache=cache) for t in range(4, 10)]
    inc = torch.cat(parts, dim=1)
    torch.testing.assert_close(inc, full, rtol=1e-5, atol=1e-5)
    assert len(cache) == 10 and cache.next_position() == 10
    # a sliced cache (StreamingLLM-style: sink + recent) keeps the rotated keys and positions
    kept = cache.select(torch.tensor([0, 7, 8, 9]))
    assert len(kept) == 4 and kept.positions.tolist() == [0, 7, 8, 9]
    assert kept.next_position() == 10


def test_rope_scores_depend_only_on_relative_position():
    T = torch_classes()
    q, k = torch.randn(1, 1, 1, 8), torch.randn(1, 1, 1, 8)

    def score(pq, pk):
        cq, sq = T.rope_tables(torch.tensor([pq]), 8, 10000.0)
        ck, sk = T.rope_tables(torch.tensor([pk]), 8, 10000.0)
        return float((T.apply_rope(q, cq, sq) * T.apply_rope(k, ck, sk)).sum())

    assert score(5, 2) == pytest.approx(score(3, 0), abs=1e-5)
    assert score(105, 100) == pytest.approx(score(5, 0), abs=1e-4)
    assert score(5, 2) != pytest.approx(score(5, 0), abs=1e-3)


def test_same_seed_same_weights_and_global_rng_untouched():
    state = torch.random.get_rng_state()
    a, b, c = build_model(SMALL, 7), build_model(SMALL, 7), build_model(SMALL, 8)
    assert torch.equal(torch.random.get_rng_state(), state)
    sa, sb, sc = a.state_dict(), b.state_dict(), c.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert not all(torch.equal(sa[k], sc[k]) for k in sa)
    assert n_params(a) == sum(v.numel() for k, v in sa.items() if k != "head.weight")  # tied


def test_swappable_ffn_and_its_aux_loss_reach_the_objective():
    T = torch_classes()

    class ScaledMLP(T.MLP):
        def forward(self, x):
            y = super().forward(x)
            self.aux_loss = 0.5 * (y ** 2).mean()
            return y

    model = build_model(SMALL, 0, ffn=ScaledMLP)
    assert all(isinstance(b.ffn, ScaledMLP) for b in model.blocks)
    model(_tokens())
    aux = model.aux_loss()
    assert aux.item() > 0 and model.aux_loss().item() == 0.0  # collected once, then cleared


def test_config_errors_name_the_bad_field():
    with pytest.raises(ValueError, match="positions='alibi'"):
        TransformerConfig(positions="alibi")
    with pytest.raises(ValueError, match="n_heads=3"):
        TransformerConfig(d_model=32, n_heads=3)
    model = build_model(TransformerConfig(**{**SMALL.to_dict(), "positions": "learned",
                                             "max_len": 8}), 0)
    with pytest.raises(ValueError, match="max_len=8"):
        model(_tokens(T=9))


def test_cosine_schedule_endpoints():
    cfg = L.TrainConfig(steps=100, lr=1e-3, warmup=10, min_lr_ratio=0.1)
    assert cfg.lr_at(0) == pytest.approx(1e-4)
    assert cfg.lr_at(9) == pytest.approx(1e-3)
    assert cfg.lr_at(10) == pytest.approx(1e-3)
    assert cfg.lr_at(100) == pytest.approx(1e-4)
    assert cfg.lr_at(55) == pytest.approx(1e-3 * (0.1 + 0.9 * 0.5))


@pytest.fixture(scope="module")
def chars():
    return PythonDocsText().make(0).data


def test_text_split_is_deterministic_and_disjoint(chars):
    train, val = split_text()
    assert 0.05 < len(val) / (len(train) + len(val)) < 0.2
    assert split_text() == (train, val)
    assert len(chars["train"]) == len(train) and chars["vocab"][chars["train"][0]] == train[0]
    assert PythonDocsText().make(1).data["corpus_sha"] == chars["corpus_sha"]


def test_bpe_is_trained_by_tokenizers_and_round_trips():
    tok = bpe_tokenizer(300)
    _, val = split_text()
    ids = tok.encode(val[:2000]).ids
    assert tok.decode(ids) == val[:2000]
    assert len(ids) < 2000 * 0.8  # merges compress
    assert tok.get_vocab_size() == 300


def test_trained_model_beats_unigram_on_validation(chars):
    cfg = TransformerConfig(vocab_size=chars["vocab_size"], d_model=32, n_layers=1, n_heads=2, d_ff=64)
    model = build_model(cfg, 0)
    tc = L.TrainConfig(steps=120, batch_size=16, context=32, lr=1e-2, warmup=10)
    hist = L.train(model, L.random_windows(chars["train"], 16, 32), tc, seed=0)
    nll = L.eval_nll(model, chars["val"], 32, max_windows=100)
    uni = L.unigram_nll(chars["train"], chars["val"][: 100 * 32 + 1], chars["vocab_size"])
    assert hist["loss"][-1] < hist["loss"][0]
    assert nll < uni - 0.2, (nll, uni)
    assert math.log(chars["vocab_size"]) > uni


def test_checkpoint_reloads_bit_for_bit(tmp_path, chars):
    cfg = TransformerConfig(vocab_size=chars["vocab_size"], d_model=32, n_layers=1, n_heads=2, d_ff=64)
    tc = L.TrainConfig(steps=5, batch_size=4, context=16)
    fits = []

    def run():
        def fit(model):
            fits.append(1)
            return L.train(model, L.random_windows(chars["train"], 4, 16), tc, seed=0)
        return cached_train({"cfg": cfg.to_dict(), "n": 5}, lambda: build_model(cfg, 0), fit,
                            sources=(L,), folder=tmp_path)

    m1, h1, hit1 = run()
    m2, h2, hit2 = run()
    assert (hit1, hit2) == (False, True) and len(fits) == 1 and h1 == h2
    s1, s2 = m1.state_dict(), m2.state_dict()
    assert s1.keys() == s2.keys() and all(torch.equal(s1[k], s2[k]) for k in s1)
    assert m2.head.weight is m2.tok.weight  # tying survives the reload
    x = _tokens(vocab=chars["vocab_size"])
    assert torch.equal(m1(x), m2(x))
    # a different key trains again
    cached_train({"cfg": cfg.to_dict(), "n": 6}, lambda: build_model(cfg, 0),
                 lambda m: {"trained": True}, folder=tmp_path)
    assert len(list(tmp_path.glob("*.safetensors"))) == 2


def test_cached_arrays_computes_once_per_key(tmp_path):
    import numpy as np

    from claimbench.checkpoints import cached_arrays

    calls = []

    def compute(v):
        calls.append(v)
        return {"x": np.arange(3) * v}

    a = cached_arrays({"v": 2}, lambda: compute(2), folder=tmp_path)
    b = cached_arrays({"v": 2}, lambda: compute(99), folder=tmp_path)  # a hit: not recomputed
    c = cached_arrays({"v": 3}, lambda: compute(3), folder=tmp_path)
    assert calls == [2, 3]
    assert np.array_equal(a["x"], b["x"]) and list(c["x"]) == [0, 3, 6]
    assert not list(tmp_path.glob("*.tmp.npz"))


def test_foreach_adamw_trains_the_same_bits_as_the_per_tensor_loop(monkeypatch):
    # train() asks for foreach AdamW to save CPU (issue 27); results stay those of torch's
    # per-tensor default only if the two updates are the same arithmetic
    import torch

    toks = torch.randint(0, 32, (4000,), generator=torch.Generator().manual_seed(0)).numpy()
    cfg = L.TrainConfig(steps=12, batch_size=4, context=16, warmup=3)
    tcfg = TransformerConfig(vocab_size=32, d_model=16, n_layers=1, n_heads=2, d_ff=32)
    adamw = torch.optim.AdamW

    def params(foreach: bool):
        monkeypatch.setattr(torch.optim, "AdamW",
                            lambda *a, **k: adamw(*a, **{**k, "foreach": foreach}))
        model = build_model(tcfg, seed=3)
        L.train(model, L.random_windows(toks, cfg.batch_size, cfg.context), cfg, seed=4)
        return [p.detach().clone() for p in model.parameters()]

    single, batched = params(False), params(True)
    init = [p.detach() for p in build_model(tcfg, seed=3).parameters()]
    assert not all(torch.equal(a, b) for a, b in zip(single, init))  # the steps moved the weights
    assert all(torch.equal(a, b) for a, b in zip(single, batched))


def test_array_digest_names_content_shape_and_dtype():
    import numpy as np

    from claimbench.checkpoints import array_digest

    a = np.arange(6, dtype=np.float64)
    assert array_digest(a, a[:2]) == array_digest(a.copy(), np.array([0.0, 1.0]))
    assert array_digest(a) == array_digest(torch.as_tensor(a))  # a CPU tensor hashes as its array
    assert array_digest(a) != array_digest(a.reshape(2, 3))  # same bytes, other shape
    assert array_digest(a) != array_digest(a.astype(np.int64))
    b = a.copy(); b[5] = 5.5
    assert array_digest(a) != array_digest(b)
    assert array_digest(a[::2]) == array_digest(np.ascontiguousarray(a[::2]))
