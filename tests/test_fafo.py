"""FAFO benchmark: masks and positions by hand, losslessness against a no-cache argmax loop,
acceptance with an oracle pool, the compressed drafting mask, the mutant, data and metrics."""
from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines import lm_training as LT  # noqa: E402
from claimbench.baselines.greedy_decoding import (  # noqa: E402
    Counter, GreedyDecoding, exact_fraction, greedy, prefix_fraction)
from claimbench.baselines.lookahead_decoding import (LookaheadDecoding, local_mask,  # noqa: E402
                                                     lookahead_generate, positions_of)
from claimbench.baselines.self_speculative import (  # noqa: E402
    SSDState, SelfSpeculativeDecoding, choose_skip, draft_step, ssd_generate, sublayers,
    weight_fraction)
from claimbench.baselines.streaming_llm import StreamingLLMDecoding, streaming_visible  # noqa: E402
from claimbench.baselines.tiny_transformer import TransformerConfig, build_model  # noqa: E402
from claimbench.benchmarks.fafo import BENCHMARK  # noqa: E402
from claimbench.datasets.templated_code import VOCAB, TemplatedCode, decode, encode  # noqa: E402
from claimbench.methods.fafo import FAFO  # noqa: E402

V = 13


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    # As in a claimbench worker: one torch thread (the default spins on a shared 2-core machine).
    with LT.torch_threads(1):
        yield


def _model(seed=0):
    """A random float64 model (untrained: near-constant outputs, enough for mask arithmetic)."""
    return build_model(TransformerConfig(vocab_size=V, d_model=32, n_layers=2, n_heads=4,
                                         d_ff=64), seed).double().eval()


@pytest.fixture(scope="module")
def lm():
    """A d = 32 model trained for 80 steps on templated code (a few CPU-seconds): its greedy
    output depends on the context, so masks and caches that are wrong change it."""
    data = TemplatedCode(n_train_chars=20_000, n_prompts=4, prompt_len=40).make(0).data
    m = build_model(TransformerConfig(vocab_size=data["vocab_size"], d_model=32, n_layers=2,
                                      n_heads=4, d_ff=64), 0)
    LT.train(m, LT.random_windows(data["train"], 16, 64),
             LT.TrainConfig(steps=80, batch_size=16, context=64, warmup=10), 0)
    return m.double().eval(), data["prompts"]


def _prompt(n, seed):
    return np.random.default_rng(seed).integers(0, V, n)


def _argmax_loop(model, prompt, n_new):
    """Trusted reference: recompute the whole sequence every step, no cache, default mask."""
    seq = list(prompt)
    with torch.no_grad():
        for _ in range(n_new):
            seq.append(int(model(torch.tensor(seq)[None])[0, -1].argmax()))
    return seq[len(prompt):]


# -- masks and positions by hand ------------------------------------------------------------
def test_local_mask_by_hand():
    # W = 2, N = 3, one candidate: [cur | l0c0 l0c1 | l1c0 l1c1 | k0 k1]
    m = local_mask(2, 3, 1).int().numpy()
    want = np.array([
        [1, 0, 0, 0, 0, 0, 0],  # cur
        [1, 1, 0, 0, 0, 0, 0],  # level 0, col 0
        [1, 1, 1, 0, 0, 0, 0],  # level 0, col 1: level-0 cols 0..1
        [1, 1, 0, 1, 0, 0, 0],  # level 1, col 0: level-0 col 0, itself
        [1, 1, 1, 0, 1, 0, 0],  # level 1, col 1: level-0 cols 0..1, itself
        [1, 0, 0, 0, 0, 1, 0],  # candidate token 0
        [1, 0, 0, 0, 0, 1, 1],  # candidate token 1
    ])
    np.testing.assert_array_equal(m, want)


def test_positions_by_hand():
    # L = 10: cur at 10; level l col j at 11 + l + j; candidate token i at 11 + i
    p = positions_of(10, 2, 3, 2).tolist()
    assert p == [10, 11, 12, 12, 13, 11, 12, 11, 12]


def test_streaming_visible_by_hand():
    got = streaming_visible(10, 2, 3).tolist()
    assert got == [True, True, False, False, False, False, False, True, True, True]
    assert streaming_visible(4, 2, 3).all()  # a short cache is kept whole


# -- losslessness ----------------------------------------------------------------------------
def test_greedy_with_cache_equals_no_cache_loop(lm):
    model, prompts = lm
    for p in prompts[:2]:
        assert greedy(model, p, 15) == _argmax_loop(model, p, 15)


@pytest.mark.parametrize("W,N,G", [(15, 5, 15), (3, 2, 2), (4, 3, 1)])
@pytest.mark.parametrize("compressed", [False, True])
def test_lookahead_and_fafo_equal_greedy(lm, W, N, G, compressed):
    model, prompts = lm
    for s, p in enumerate(prompts[:2]):
        ref = greedy(model, p, 20)
        dv = (lambda L: streaming_visible(L, 2, 6)) if compressed else None
        out = lookahead_generate(model, p, 20, W, N, G, Counter(), seed=s, draft_visible=dv)
        assert out[:20] == ref


def test_oracle_pool_accepts_n_tokens_per_pass_and_keeps_exact_kv(lm):
    model, prompts = lm
    p = prompts[0]
    N, n_new = 4, 20
    ref = greedy(model, p, n_new + N)
    seq = [int(p[-1])] + ref
    pool = {}
    for i in range(len(seq) - N + 1):  # every (N-1)-gram of greedy's own continuation
        pool.setdefault(seq[i], []).append(tuple(seq[i + 1:i + N]))
    trace, counter = {}, Counter()
    out = lookahead_generate(model, p, n_new, 3, N, 100, counter, seed=0, pool=pool, trace=trace)
    assert out[:n_new] == ref[:n_new]
    assert trace["emitted"] == [N] * math.ceil(n_new / N)  # N - 1 accepted + the bonus token
    # the kept cache equals a fresh forward of prompt + output (minus the current token)
    full = torch.tensor(list(p) + out[:-1])[None]
    fresh = model.new_cache()
    with torch.no_grad():
        model(full, cache=fresh)
    for k_kept, k_fresh in zip(trace["cache"].k, fresh.k):
        assert k_kept.shape == k_fresh.shape
        assert torch.allclose(k_kept, k_fresh, atol=1e-12)


def test_fafo_drafting_attends_fewer_pairs_by_the_exact_amount():
    model = _model(4)
    p = _prompt(40, 4)
    W, N, G = 3, 3, 5
    c_full, c_comp = Counter(), Counter()
    t_full, t_comp = {}, {}
    # an oracle-free run: the same seed gives the same window; compare pass by pass
    lookahead_generate(model, p, 1, W, N, G, c_full, seed=0, trace=t_full)
    lookahead_generate(model, p, 1, W, N, G, c_comp, seed=0,
                       draft_visible=lambda L: streaming_visible(L, 2, 4), trace=t_comp)
    L = len(p) - 1  # one pass over the prefilled prompt
    assert c_full.forwards == c_comp.forwards == 1
    assert c_full.pairs - c_comp.pairs == (N - 1) * W * (L - 6)  # hidden: L - (2 sinks + 4)


def test_lossy_mutant_leaves_greedy_where_fafo_does_not(lm):
    model, prompts = lm
    fafo, lossy = FAFO(W=4, N=3, G=4, n_sink=2, window=6), \
        FAFO(W=4, N=3, G=4, n_sink=2, window=6, mutant="lossy_verify")
    stream = StreamingLLMDecoding(n_sink=2, window=6)
    diff_lossy = diff_stream = 0
    for s, p in enumerate(prompts):
        ref = greedy(model, p, 20)
        assert fafo.decode(model, p, 20, Counter(), s)[:20] == ref
        diff_lossy += lossy.decode(model, p, 20, Counter(), s)[:20] != ref
        diff_stream += stream.decode(model, p, 20, Counter(), s)[:20] != ref
    assert diff_lossy > 0 and diff_stream > 0


def test_unknown_mutant_rejected():
    with pytest.raises(ValueError):
        FAFO(mutant="nope")


# -- data and metrics ------------------------------------------------------------------------
def test_dataset_deterministic_and_in_vocabulary():
    ds = TemplatedCode(n_train_chars=3000, n_prompts=3, prompt_len=50)
    a, b = ds.make(7).data, ds.make(7).data
    assert np.array_equal(a["train"], b["train"]) and len(a["prompts"]) == 3
    assert all(len(p) == 50 for p in a["prompts"])
    assert a["train"].max() < len(VOCAB) == a["vocab_size"]
    assert not np.array_equal(a["train"][:500], ds.make(8).data["train"][:500])
    assert decode(encode("def f(x):\n")) == "def f(x):\n"


def test_metrics_by_hand():
    assert exact_fraction([[1, 2], [3, 4]], [[1, 2], [3, 5]]) == 0.5
    assert prefix_fraction([[1, 2, 3, 4], [9, 9, 9, 9]], [[1, 2, 0, 4], [9, 9, 9, 9]]) == 0.75


def test_run_outputs_on_a_tiny_instance():
    data = TemplatedCode(n_train_chars=3000, n_prompts=2, prompt_len=30, gen_len=8,
                         lm_d_model=16, lm_steps=3, lm_batch=2, lm_context=32).make(0).data
    g = GreedyDecoding().run(data, 1)
    la = LookaheadDecoding(W=3, N=3, G=3).run(data, 1)
    assert g["tokens"] == g["reference"] == la["reference"] == la["tokens"]
    assert g["forwards"] == g["generated"] == 16 and la["forwards"] <= 16
    assert g["attn_pairs"] == sum(29 + i + 1 for i in range(8)) * 2  # one query, L + 1 keys


def test_benchmark_labels():
    labels = {c.label for c in BENCHMARK.grids["quick"].methods}
    assert {"greedy", "streaming_llm", "lookahead", "fafo", "fafo[mutant=lossy_verify]",
            "self_speculative"} <= labels


# --- Self-Speculative Decoding (baselines/self_speculative.py) ---


@pytest.mark.parametrize("skip", [(("attn", 1),), (("attn", 1), ("mlp", 1)),
                                  (("mlp", 0), ("attn", 1)), (("attn", 0), ("mlp", 0))])
def test_ssd_equals_greedy(lm, skip):
    """Lossless: whatever is skipped in drafting, the output is full-cache greedy decoding's."""
    model, prompts = lm
    for i, p in enumerate(prompts[:3]):
        st = SSDState()
        ref = greedy(model, p, 24)
        assert ssd_generate(model, p, 24, skip, Counter(), st) == ref
        assert 0 <= st.accepted <= st.drafted


def test_ssd_equals_greedy_on_a_random_tiny_model():
    model = _model(3)
    for s in range(3):
        p = _prompt(12, s)
        assert ssd_generate(model, p, 10, (("mlp", 1),), Counter(), SSDState(), gamma0=0.0) == \
            _argmax_loop(model, p, 10)


def test_ssd_draft_with_nothing_skipped_is_the_full_model(lm):
    """The draft pass with no skipped sublayer reproduces the full model's next-token logits,
    so every draft is accepted (up to K per step) and each step emits K + 1 tokens."""
    model, prompts = lm
    p = prompts[0]
    cache = model.new_cache()
    model(torch.as_tensor(p[:-1])[None], cache=cache)
    full = model(torch.as_tensor(p)[None])[0, -1]
    assert torch.allclose(draft_step(model, int(p[-1]), cache, frozenset()), full, atol=1e-10)
    st, c = SSDState(), Counter()
    out = ssd_generate(model, p, 20, (), c, st, K=4, gamma0=0.0)
    assert out == greedy(model, p, 20) and st.accepted == st.drafted
    assert len(out) == 20 and c.forwards == 4 * (4 + 1)  # 4 steps of 4 drafts + 1 verification


def test_weight_fraction_by_hand():
    model = _model(0)  # d = 32, d_ff = 64: attention 4 d^2 + LN 2 d, MLP 2 d d_ff + d_ff + d + LN
    attn, mlp = 4 * 32 * 32 + 64, 2 * 32 * 64 + 64 + 32 + 64
    assert weight_fraction(model, (("attn", 1),)) == pytest.approx(1 - attn / (2 * attn + 2 * mlp))
    assert weight_fraction(model, ()) == 1.0
    assert sublayers(2) == [("attn", 0), ("mlp", 0), ("attn", 1), ("mlp", 1)]


def test_choose_skip_returns_a_proper_subset(lm):
    model, prompts = lm
    skip = choose_skip(model, prompts[:1], 12, 2)
    assert 1 <= len(skip) < 4 and set(skip) <= set(sublayers(2))


def test_ssd_run_outputs_on_a_tiny_instance():
    data = TemplatedCode(n_train_chars=3000, n_prompts=2, prompt_len=30, gen_len=8,
                         lm_d_model=16, lm_steps=3, lm_batch=2, lm_context=32).make(0).data
    out = SelfSpeculativeDecoding(n_dev=1).run(data, 1)
    assert out["tokens"] == out["reference"]
    assert out["model_passes"] <= out["forwards"] and len(out["skip"]) >= 1
