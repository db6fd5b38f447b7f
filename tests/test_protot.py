"""Unit tests for the ProtoT benchmark: the prototype mixer against its token-by-token
definition and a hand-computed case, the gated RNN baseline, operation counts, the concept HMM
against brute-force enumeration, and the mutants used as foils."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines.gated_diagonal_rnn import (GatedDiagonalRNNLM,  # noqa: E402
                                                     gated_rnn_classes)
from claimbench.baselines.mixer_lm import SoftmaxTransformerLM  # noqa: E402
from claimbench.baselines.tiny_transformer import build_model  # noqa: E402
from claimbench.benchmarks.protot import BENCHMARK  # noqa: E402
from claimbench.datasets.concept_hmm_language import (  # noqa: E402
    ConceptHMMLanguage, hmm_window_nll, make_hmm, sample_hmm)
from claimbench.methods.protot import ProtoT, protot_classes, time_constant_logits  # noqa: E402

PC = protot_classes()
TINY = dict(d_model=16, d_ff=32, n_heads=2, steps=5, batch_size=4, context=16,
            max_val_windows=8, time_repeats=1)


def _random_routing(B, T, P, dv, seed):
    g = torch.Generator().manual_seed(seed)
    a = torch.softmax(torch.randn(B, T, P, generator=g, dtype=torch.float64), -1)
    r = torch.softmax(torch.randn(B, T, P, generator=g, dtype=torch.float64), -1)
    v = torch.randn(B, T, dv, generator=g, dtype=torch.float64)
    log_g = torch.log(0.05 + 0.9 * torch.rand(P, generator=g, dtype=torch.float64))
    return a, r, v, log_g


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("chunk", [1, 3, 16, 64])
def test_chunked_mixer_equals_the_recurrence(normalize, chunk):
    a, r, v, log_g = _random_routing(2, 37, 5, 4, seed=chunk)
    ref = PC["prototype_recurrence"](a, r, v, log_g, normalize)
    out = PC["prototype_read"](a, r, v, log_g, chunk, normalize)
    assert torch.allclose(out, ref, atol=1e-12, rtol=0)


def test_one_prototype_by_hand():
    # P = 1, g = 1/2, a = r = 1: n = 1, 1.5, 1.75; S = v1, v1/2 + v2, v1/4 + v2/2 + v3
    v = torch.tensor([[[4.0], [2.0], [1.0]]], dtype=torch.float64)  # (1, 3, 1)
    ones = torch.ones(1, 3, 1, dtype=torch.float64)
    log_g = torch.tensor([math.log(0.5)], dtype=torch.float64)
    raw = PC["prototype_read"](ones, ones, v, log_g, 2, normalize=False)
    assert torch.allclose(raw[0, :, 0], torch.tensor([4.0, 4.0, 3.0], dtype=torch.float64))
    mean = PC["prototype_read"](ones, ones, v, log_g, 2, normalize=True)
    want = torch.tensor([4.0, 4.0 / 1.5, 3.0 / 1.75], dtype=torch.float64)
    assert torch.allclose(mean[0, :, 0], want, atol=1e-5)


def test_routing_is_a_softmax_over_prototypes_and_decays_span_the_time_scales():
    tau = 1.0 / (1.0 - 1.0 / (1.0 + np.exp(-time_constant_logits(4, 2.0, 16.0))))
    assert np.allclose(tau, [2.0, 4.0, 8.0, 16.0])
    m = ProtoT(**TINY)
    model = build_model(m.model_config(11), seed=0, mixer=m.mixer_factory())
    mixer = model.blocks[0].mixer
    x = torch.randn(2, 5, 16)
    a, r = mixer.routing(x)
    assert a.shape == (2, 5, 16) and torch.allclose(a.sum(-1), torch.ones(2, 5))
    proto = mixer.prototypes.detach()
    want = torch.softmax(mixer.write(x) @ proto.T / 4.0, dim=-1)
    assert torch.allclose(a, want, atol=1e-6)


@pytest.mark.parametrize("mutant", ["", "uniform_routing"])
def test_protot_model_is_causal(mutant):
    m = ProtoT(**TINY, mutant=mutant, chunk=4)
    model = build_model(m.model_config(11), seed=1, mixer=m.mixer_factory())
    x = torch.randint(0, 11, (2, 13), generator=torch.Generator().manual_seed(0))
    base = model(x)
    x2 = x.clone()
    x2[:, 9] = (x2[:, 9] + 3) % 11
    out = model(x2)
    assert torch.allclose(out[:, :9], base[:, :9], atol=1e-6)
    assert not torch.allclose(out[:, 9:], base[:, 9:])


def test_no_mixer_mutant_sees_only_the_current_token():
    m = ProtoT(**TINY, mutant="no_mixer")
    model = build_model(m.model_config(11), seed=1, mixer=m.mixer_factory())
    x = torch.randint(0, 11, (1, 10), generator=torch.Generator().manual_seed(0))
    x2 = x.clone()
    x2[:, :5] = (x2[:, :5] + 1) % 11
    assert torch.allclose(model(x)[:, 5:], model(x2)[:, 5:])


def test_gated_rnn_chunked_equals_the_recurrence():
    G = gated_rnn_classes()
    g = torch.Generator().manual_seed(3)
    log_f = torch.nn.functional.logsigmoid(torch.randn(2, 29, 6, generator=g, dtype=torch.float64))
    u = torch.randn(2, 29, 6, generator=g, dtype=torch.float64)
    ref = G["gated_recurrence"](log_f, u)
    for chunk in (1, 4, 16, 64):
        assert torch.allclose(G["gated_chunked"](log_f, u, chunk), ref, atol=1e-12, rtol=0)


def _cost(method, T, vocab=11):
    return method.run({"study": "cost", "vocab": vocab, "tokens": np.zeros(T, dtype=np.int64)},
                      seed=0)


def test_operation_counts():
    d, L = 16, 2
    soft = SoftmaxTransformerLM(**TINY)
    for T in (32, 64):
        # per layer: qkv 2*T*d*3d, output 2*T*d*d, scores and weighted sum 2 * 2*T*T*d
        want = L * (8 * T * d * d + 4 * T * T * d)
        assert _cost(soft, T)["mixer_flops"] == want
    proto = ProtoT(**TINY, chunk=8)
    f = [_cost(proto, T)["mixer_flops"] for T in (32, 64, 128)]
    assert f[1] == 2 * f[0] and f[2] == 2 * f[1]  # exactly linear for T a multiple of the chunk
    rnn = GatedDiagonalRNNLM(**TINY, chunk=8)
    g = [_cost(rnn, T)["mixer_flops"] for T in (32, 64)]
    assert g[1] == 2 * g[0]
    assert "mixer_cpu_s" not in _cost(ProtoT(**TINY, time_max_T=16), 32)


def test_window_nll_equals_brute_force_enumeration():
    rng = np.random.default_rng(0)
    hmm = make_hmm(rng, n_concepts=2, vocab=3, support=2, p_stay=0.7)
    tokens, _ = sample_hmm(rng, hmm, 9)  # two windows of 4 (+ 1 target)
    A, E, pi = hmm["A"], hmm["E"], hmm["pi"]

    def log_p(seq):  # log p(x_1..x_n) summing over every state path
        total = 0.0
        for z in itertools.product(range(2), repeat=len(seq)):
            p = pi[z[0]] * E[z[0], seq[0]]
            for t in range(1, len(seq)):
                p *= A[z[t - 1], z[t]] * E[z[t], seq[t]]
            total += p
        return math.log(total)

    ctx = 4
    want = 0.0
    for w in range(2):
        seq = tokens[w * ctx: (w + 1) * ctx + 1]
        want -= log_p(seq) - log_p(seq[:1])  # targets 2..5 given the window's first token
    assert hmm_window_nll(tokens, hmm, ctx) == pytest.approx(want / (2 * ctx), rel=1e-10)
    assert np.allclose(pi @ A, pi) and np.allclose(E.sum(1), 1.0)


def test_concept_language_needs_context():
    inst = ConceptHMMLanguage(n_train=50_000, n_val=4097).make(1)
    train, val = inst.data["train"], inst.data["val"]
    counts = np.ones((48, 48)) * 0.01
    np.add.at(counts, (train[:-1], train[1:]), 1)
    bigram = -np.log((counts / counts.sum(1, keepdims=True))[val[:-1], val[1:]]).mean()
    oracle = hmm_window_nll(val, inst.truth["hmm"], 64)
    assert oracle < bigram - 0.1  # the planted concept carries information beyond one token
    assert set(np.unique(inst.truth["val_concepts"])) == set(range(8))
    again = ConceptHMMLanguage(n_train=50_000, n_val=4097).make(1)
    assert np.array_equal(again.data["val"], val)


def test_mutants_and_metrics():
    data = ConceptHMMLanguage(n_train=3000, n_val=300).make(0)
    uni = ProtoT(**TINY, mutant="uniform_routing").run(data.data, seed=0)
    assert np.all(uni["assign"] == uni["assign"][0])  # no prototype is preferred
    init = ProtoT(**TINY, mutant="random_init").run(data.data, seed=0)
    assert np.array_equal(init["assign"], init["assign_init"])  # never trained
    assert init["train_cpu_s"] < 1.0
    nmi = BENCHMARK.metric("concept_nmi").fn
    gain = BENCHMARK.metric("nmi_gain_vs_init").fn
    assert gain(data, init) == 0.0 and gain(data, uni) == 0.0
    perfect = {"assign": (data.truth["val_concepts"][:128] + 3) % 8}
    assert nmi(data, perfect) == pytest.approx(1.0)
    assert BENCHMARK.metric("nll_excess").fn(data, init) > 0  # an untrained model
    assert ProtoT(**TINY, mutant="no_mixer").run(data.data, seed=0)["assign"] is None
    with pytest.raises(ValueError):
        ProtoT(mutant="bogus")


def test_operation_count_is_counted_once_per_mixer_and_shape():
    from claimbench.baselines import mixer_lm

    mixer_lm._FLOPS.clear()
    proto = _cost(ProtoT(**TINY), 64)["mixer_flops"]
    assert len(mixer_lm._FLOPS) == 1
    # random_init is the same untrained model: it shares the count; another seed too
    assert ProtoT(**TINY, mutant="random_init").cost_key() == ProtoT(**TINY).cost_key()
    assert _cost(ProtoT(**TINY, mutant="random_init"), 64)["mixer_flops"] == proto
    assert len(mixer_lm._FLOPS) == 1
    # another mixer, another shape or another width is counted afresh
    assert _cost(ProtoT(**TINY, mutant="uniform_routing"), 64)["mixer_flops"] < proto
    assert _cost(ProtoT(**TINY), 32)["mixer_flops"] == proto // 2
    assert _cost(ProtoT(**{**TINY, "d_model": 32}), 64)["mixer_flops"] > proto
    assert len(mixer_lm._FLOPS) == 4


def test_chain_sampler_follows_the_transition_rows_token_by_token():
    hmm = make_hmm(np.random.default_rng(3), n_concepts=5, vocab=20, support=6, p_stay=0.6)
    _, z = sample_hmm(np.random.default_rng(4), hmm, 3000)
    u = np.random.default_rng(4).random(3000)  # the sampler's first draws
    cumA = np.cumsum(hmm["A"], axis=1)
    ref = [min(int(np.searchsorted(np.cumsum(hmm["pi"]), u[0])), 4)]
    for t in range(1, 3000):
        ref.append(min(int(np.searchsorted(cumA[ref[-1]], u[t])), 4))
    assert np.array_equal(z, ref)


def test_token_substitution_rate_and_never_the_same_token():
    from claimbench.baselines.mixer_lm import substitute_tokens

    x = torch.arange(48).repeat(400).view(200, 96) % 48  # (200, 96)
    assert torch.equal(substitute_tokens(x, 48, 0.0, seed=1), x)
    full = substitute_tokens(x, 48, 1.0, seed=1)
    assert bool((full != x).all()) and int(full.max()) < 48 and int(full.min()) >= 0
    xp = substitute_tokens(x, 48, 0.1, seed=1)
    frac = float((xp != x).double().mean())  # binomial, n = 19200: sd 0.002
    assert abs(frac - 0.1) < 0.01
    assert torch.equal(xp, substitute_tokens(x, 48, 0.1, seed=1))
    assert not torch.equal(xp, substitute_tokens(x, 48, 0.1, seed=2))


def test_jsd_bits_known_values():
    from claimbench.baselines.mixer_lm import jsd_bits

    p = torch.tensor([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]], dtype=torch.float64)
    q = torch.tensor([[0.5, 0.5, 0.0], [0.0, 1.0, 0.0]], dtype=torch.float64)
    # log 0 = -inf would give 0 * inf = nan; a mass of 1e-300 stands for 0
    lp, lq = torch.log(p.clamp(min=1e-300)), torch.log(q.clamp(min=1e-300))
    out = jsd_bits(lp, lq)
    assert out[0].item() == pytest.approx(0.0, abs=1e-12)  # identical
    assert out[1].item() == pytest.approx(1.0, abs=1e-9)  # disjoint supports: 1 bit
    # p = (1, 0), q = (1/2, 1/2): m = (3/4, 1/4); JSD = 1/2 KL(p||m) + 1/2 KL(q||m)
    a = torch.log(torch.tensor([1.0, 1e-300], dtype=torch.float64))
    b = torch.log(torch.tensor([0.5, 0.5], dtype=torch.float64))
    want = 0.5 * math.log2(4 / 3) + 0.5 * (0.5 * math.log2(2 / 3) + 0.5 * math.log2(2))
    assert jsd_bits(a, b).item() == pytest.approx(want, abs=1e-9)


def test_perturbation_scores_of_a_context_free_model():
    """The no_mixer model sees only the current token: JSD is 0 wherever the input token is
    unchanged, so the mean JSD equals the substituted positions' JSD times their share."""
    from claimbench.baselines.mixer_lm import jsd_bits, perturbation_scores, substitute_tokens

    m = ProtoT(mutant="no_mixer", **TINY)
    model = build_model(m.model_config(12), 0, mixer=m.mixer_factory())
    model.eval()
    x = torch.randint(0, 12, (6, 16), generator=torch.Generator().manual_seed(0))  # (6, 16)
    y = torch.roll(x, -1, dims=1)
    out = perturbation_scores(model, x, y, 12, 0.3, seed=5)
    xp = substitute_tokens(x, 12, 0.3, seed=5)
    with torch.no_grad():
        j = jsd_bits(torch.log_softmax(model(x).double(), -1),
                     torch.log_softmax(model(xp).double(), -1))  # (6, 16)
    changed = xp != x
    assert float(j[~changed].abs().max()) < 1e-12
    assert out["perturb_jsd"] == pytest.approx(float(j.mean()))
    assert out["perturb_frac"] == pytest.approx(float(changed.double().mean()))
    same = perturbation_scores(model, x, y, 12, 0.0, seed=5)
    assert same["perturb_jsd"] == pytest.approx(0.0, abs=1e-12)
    assert same["perturb_nll_gain"] == pytest.approx(0.0, abs=1e-12)
