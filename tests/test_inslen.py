"""InsLen and its baselines as functions of hidden states/attentions; the shape-scene generator;
the tiny VLM's internals."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.api import Instance  # noqa: E402
from claimbench.baselines import tiny_vlm  # noqa: E402
from claimbench.baselines.global_local_similarity import GLSIM, glsim_parts  # noqa: E402
from claimbench.baselines.logit_lens_confidence import internal_confidence  # noqa: E402
from claimbench.baselines.output_token_probability import token_probability  # noqa: E402
from claimbench.baselines.visual_attention_mass import svar, svar_layers  # noqa: E402
from claimbench.benchmarks import inslen as bench  # noqa: E402
from claimbench.datasets.shape_scenes import ShapeScenes, captions_of  # noqa: E402
from claimbench.methods.inslen import InsLen, inslen_parts  # noqa: E402

K, P = 2, 2  # classes, patches
V = tiny_vlm.vocab(K)["size"]
LAY = tiny_vlm.layout(P)
T = LAY["answer_start"] + 3  # prompt + DESC + one object + EOS
POS = LAY["answer_start"] + 1  # the object token; POS - 1 (DESC) predicts it


def _trace(hidden, attn=None, mentions=((0, 1, POS),), out_prob=None):
    L1, N = hidden.shape[:2]
    attn = np.zeros((L1 - 1, N, 1, T, T), np.float32) if attn is None else attn
    return tiny_vlm.Trace(hidden=hidden, attn=attn, head=np.eye(V, dtype=np.float32),
                          tokens=np.zeros((N, T), np.int64),
                          out_prob=np.zeros((N, T)) if out_prob is None else out_prob,
                          mentions=np.asarray(mentions, dtype=np.int64), layout=LAY,
                          n_classes=K)


# -- the generator ------------------------------------------------------------------------------
def test_scenes_are_seeded_and_hide_the_truth():
    a, b = ShapeScenes(n_train=50, n_test=20).make(3), ShapeScenes(n_train=50, n_test=20).make(3)
    assert np.array_equal(a.data["test_patches"], b.data["test_patches"])
    assert not np.array_equal(a.data["test_patches"], ShapeScenes(n_train=50, n_test=20)
                              .make(4).data["test_patches"])
    assert "test_present" not in a.data and a.truth["test_present"].shape == (20, 8)
    pres, dis = a.truth["test_present"], a.truth["test_distractor"]
    assert pres.sum(1).min() >= 1 and pres.sum(1).max() <= 3
    assert not np.any(pres & dis)  # distractors are absent classes


def test_captions_list_present_classes_in_order():
    pres = np.array([[False, True, True], [True, False, False]])
    assert captions_of(pres, 3).tolist() == [[1, 2, -1, -1], [0, -1, -1, -1]]


# -- closed forms -------------------------------------------------------------------------------
def test_inslen_closed_form_with_blank_instruction_states():
    """Zero instruction states: the lens is uniform (p_i = 1/V), the context mean is 0 so the
    relative distance is 1; an object state parallel to the top patch gives Local = 1."""
    obj = tiny_vlm.OBJ0 + 1
    hidden = np.zeros((5, 1, T, V), np.float32)  # 4 layers -> l_v = 3, l_t = 4, l_q = 3
    hidden[3, 0, 1, obj] = 2.0  # patch 0 at l_v: the top patch for the object
    hidden[3, 0, 2, 0] = 1.0  # patch 1: unrelated
    hidden[4, 0, POS - 1, obj] = 3.0  # the predicting state, parallel to patch 0
    tr = _trace(hidden)
    m = InsLen(scale=1.0)
    parts = inslen_parts(tr, scale=1.0, k_frac=m.k_frac, context_num=4, bias=2.0,
                         image_frac=m.image_frac, text_frac=m.text_frac,
                         instr_frac=m.instr_frac)
    assert parts["w"][0] == pytest.approx(1 / V)
    assert parts["local"][0] == pytest.approx(1.0)
    assert parts["context_consistency"][0] == pytest.approx((2.0 - 1.0) / V)
    want = 0.6 * (1 / V) * 1.0 + 0.4 * (2.0 - 1.0) / V
    assert m.score(tr)[0] == pytest.approx(want)


def test_inslen_matches_a_direct_tensor_reimplementation():
    """The official detector's tensor flow (topk over instruction probs, einsum cosines),
    re-written in torch, on random states."""
    rng = np.random.default_rng(0)
    hidden = rng.normal(size=(5, 2, T, V)).astype(np.float32)
    ment = ((0, 1, POS), (1, 0, POS))
    tr = _trace(hidden, mentions=ment)
    got = InsLen().score(tr)
    F = torch.nn.functional
    h = torch.as_tensor(hidden)
    W = torch.eye(V)
    for j, (s, c, pos) in enumerate(ment):
        tok = tiny_vlm.OBJ0 + c
        q = h[3, s, LAY["image_end"] + 1:LAY["answer_start"]]  # (8, V)
        pq = (0.1 * (q @ W.T)).softmax(-1)[:, tok]
        w = pq.max()
        img = h[3, s, 1:P + 1]  # (P, V)
        top = (0.1 * (img @ W.T)).softmax(-1)[:, tok].argsort()[-1:]
        det = h[4, s, pos - 1]
        loc = torch.einsum("d,kd->k", F.normalize(det, dim=-1), F.normalize(img[top], dim=-1)).mean()
        cp, ci = torch.topk(pq, k=4)
        diff = (det - q[ci].mean(0)).norm() / det.norm()
        want = 0.6 * w * loc + 0.4 * (2.0 - diff) * cp.mean()
        assert got[j] == pytest.approx(float(want), rel=1e-5)


def test_glsim_global_and_local_terms():
    obj = tiny_vlm.OBJ0 + 1
    hidden = np.zeros((5, 1, T, V), np.float32)
    last = LAY["answer_start"] - 1  # the last prompt token
    hidden[4, 0, 1, obj] = 1.0  # patch 0 at the last layer (l_i = 4)
    hidden[4, 0, 2, 0] = 1.0
    hidden[4, 0, last, 0] = 1.0  # global direction
    hidden[4, 0, POS - 1, obj] = 1.0  # predicting state at l_i = l_t = 4
    hidden[4, 0, POS - 1, 0] = 1.0  # -> cos with patch 0 and with the global state = 1/sqrt(2)
    g, loc = glsim_parts(_trace(hidden), 1.0, 31 / 32, 32 / 576, 0.1)
    assert g[0] == pytest.approx(1 / np.sqrt(2))
    assert loc[0] == pytest.approx(1 / np.sqrt(2))
    assert GLSIM().score(_trace(hidden))[0] == pytest.approx(1 / np.sqrt(2))
    hidden[4, 0, last] = 0.0
    hidden[4, 0, last, 1] = 1.0  # orthogonal to the predicting state: global 0
    assert GLSIM(mode="global").score(_trace(hidden))[0] == pytest.approx(0.0)


def test_svar_uniform_attention_closed_form():
    """Uniform causal attention: the predicting position t - 1 puts P / t on the image per head."""
    L, H = 32, 2
    hidden = np.zeros((L + 1, 1, T, V), np.float32)
    tri = np.tril(np.ones((T, T))) / np.arange(1, T + 1)[:, None]  # rows sum to 1
    attn = np.broadcast_to(tri, (L, 1, H, T, T)).astype(np.float32)
    pos = POS
    got = svar(_trace(hidden, attn=attn), 4 / 32, 17 / 32)[0]
    assert got == pytest.approx(14 * H * P / pos)  # layers 4..17 (the code's layer_list)
    assert svar_layers(32, 4 / 32, 17 / 32) == list(range(4, 18))
    assert svar_layers(4, 4 / 32, 17 / 32) == [1, 2]


def test_internal_confidence_and_token_probability():
    obj = tiny_vlm.OBJ0 + 1
    hidden = np.zeros((3, 1, T, V), np.float32)
    hidden[2, 0, 2, obj] = 50.0  # one patch at the last layer votes the object
    assert internal_confidence(_trace(hidden))[0] == pytest.approx(1.0)
    hidden[2, 0, 2, obj] = 0.0
    assert internal_confidence(_trace(hidden))[0] == pytest.approx(1 / V)
    op = np.zeros((1, T))
    op[0, POS] = 0.7
    assert token_probability(_trace(hidden, out_prob=op))[0] == pytest.approx(0.7)


def test_shuffled_instruction_mutant_reads_the_next_scenes_instruction():
    rng = np.random.default_rng(1)
    hidden = rng.normal(size=(5, 2, T, V)).astype(np.float32)
    tr = _trace(hidden, mentions=((0, 1, POS),))
    kw = dict(scale=0.1, k_frac=32 / 576, context_num=4, bias=2.0, image_frac=0.75,
              text_frac=1.0, instr_frac=22 / 32)
    own, shuf = inslen_parts(tr, **kw), inslen_parts(tr, shuffle=True, **kw)
    ins = slice(LAY["instr_start"], LAY["answer_start"])
    lens = tiny_vlm.lens_probs(hidden[3, 1, ins], tr.head, 0.1)[:, tiny_vlm.OBJ0 + 1]
    assert shuf["w"][0] == pytest.approx(lens.max())  # scene 1's instruction lens
    assert own["w"][0] != pytest.approx(shuf["w"][0])
    assert shuf["local"][0] == pytest.approx(own["local"][0])  # the image side is unchanged


def test_variants_and_mutants_are_validated():
    tr = _trace(np.zeros((5, 1, T, V), np.float32))
    with pytest.raises(ValueError):
        InsLen(variant="nope").score(tr)
    with pytest.raises(ValueError):
        InsLen(mutant="nope").score(tr)
    assert len(InsLen(variant="mean_prob").score(tr)) == 1


# -- the tiny VLM and the metrics ---------------------------------------------------------------
def test_tiny_vlm_internals_are_consistent():
    inst = ShapeScenes(n_train=100, n_test=12, steps=5).make(0)
    tr = tiny_vlm.describe(inst.data)
    L = inst.data["vlm"]["n_layers"]
    assert tr.hidden.shape[:2] == (L + 1, 12) and tr.attn.shape[:2] == (L, 12)
    assert np.allclose(tr.attn.sum(-1), 1.0, atol=1e-5)  # rows are distributions
    assert np.allclose(np.triu(tr.attn, k=1), 0.0)  # causal
    # the last hidden state is after the final norm: the head on it gives the output probs
    logits = tr.hidden[-1] @ tr.head.T  # (N, T, V)
    p = np.exp(logits - logits.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    t = tr.tokens
    want = np.take_along_axis(p[:, :-1], t[:, 1:, None], -1)[..., 0]
    assert np.allclose(tr.out_prob[:, 1:], want, atol=1e-4)
    m = tr.mentions
    assert np.all(t[m[:, 0], m[:, 2]] == tiny_vlm.OBJ0 + m[:, 1])
    assert np.all(m[:, 2] > tr.layout["answer_start"])
    assert np.all(t[:, tr.layout["answer_start"]] == tiny_vlm.DESC)


def test_auroc_metric_labels_real_objects_positive():
    truth = {"test_present": np.array([[True, False], [False, True]]),
             "test_distractor": np.array([[False, True], [False, False]])}
    inst = Instance(data=None, truth=truth)
    out = {"mentions": [[0, 0], [0, 1], [1, 1]], "scores": [0.9, 0.1, 0.8]}
    auroc = {m.name: m for m in bench.METRICS}["auroc"].fn
    assert auroc(inst, out) == 1.0
    assert auroc(inst, {**out, "scores": [0.1, 0.9, 0.2]}) == 0.0
    assert {m.name: m for m in bench.METRICS}["halluc_rate"].fn(inst, out) == pytest.approx(1 / 3)
    assert {m.name: m for m in bench.METRICS}["auroc_distractor"].fn(inst, out) == 1.0
