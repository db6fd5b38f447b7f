"""A tiny LLaVA-style vision-language model and the internals hallucination detectors read.

The model is the toolkit's causal transformer (``tiny_transformer.py``) fed LLaVA's layout:

    [BOS] [IMG x P] [INSTR_0 .. INSTR_{n-1}] [answer: DESC, object tokens ..., EOS]

Image positions carry a continuous patch feature (projected by ``embed_in``) added to a shared
IMG token embedding; the instruction is a fixed 8-token prompt (a stand-in for "Describe the
given image in detail. ASSISTANT:"); the answer opens with a fixed DESC token (LLaVA's answers
open with words such as "The image shows", so an object is never the first answer token) and
then lists the scene's objects. Training is
next-token cross-entropy on the caption tokens only (instruction tuning masks the prompt), through
``lm_training.train_cached`` so every detector of a cell probes the same trained weights.

:func:`describe` captions the test scenes greedily (object tokens and EOS only) and returns a
:class:`Trace` with what the detectors of the papers read, mirroring HuggingFace's
``output_hidden_states``/``output_attentions``:

* ``hidden`` (L + 1, N, T, d): the embeddings, then the residual stream after every block; the
  last entry has the final norm applied, as HF's last hidden state does;
* ``attn`` (L, N, H, T, T): softmax attention probabilities of every layer and head;
* ``head`` (V, d): the unembedding, so a logit lens is ``hidden @ head.T`` (no final norm on
  intermediate layers, as the InsLen and GLSIM code do);
* ``mentions``: one row (scene, object class, token position) per distinct object mentioned.

:class:`VLMDetector` is the shared Method: captions via :func:`describe`, then
``self.score(trace)`` gives one confidence per mention (high = the object is real).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import lm_training, tiny_transformer

BOS, EOS = 0, 1
N_INSTR = 8  # fixed instruction tokens 2 .. 9
DESC = 2 + N_INSTR  # the answer's fixed opening token
OBJ0 = 3 + N_INSTR  # first object token


def vocab(n_classes: int) -> dict:
    """Token ids: BOS, EOS, instruction, DESC, objects, then the IMG placeholder."""
    return {"bos": BOS, "eos": EOS, "instr": list(range(2, 2 + N_INSTR)), "desc": DESC,
            "obj0": OBJ0,
            "img": OBJ0 + n_classes, "size": OBJ0 + n_classes + 1}


def layout(n_patches: int) -> dict:
    """Positions of the prompt blocks (inclusive image_end, as in the InsLen code); the answer
    starts with DESC at ``answer_start``, objects follow."""
    return {"image_start": 1, "image_end": n_patches, "instr_start": n_patches + 1,
            "answer_start": n_patches + 1 + N_INSTR}


def prompt_tokens(n: int, n_patches: int, n_classes: int):
    """(n, 1 + P + N_INSTR) token ids of the prompt."""
    v = vocab(n_classes)
    row = [BOS] + [v["img"]] * n_patches + v["instr"]
    return np.tile(np.asarray(row, dtype=np.int64), (n, 1))


def model_config(vlm: dict):
    v = vocab(vlm["n_classes"])
    return tiny_transformer.TransformerConfig(
        vocab_size=v["size"], d_model=vlm["d_model"], n_layers=vlm["n_layers"], n_heads=4,
        d_ff=4 * vlm["d_model"], causal=True, positions="rope", embed_dim=vlm["embed_dim"])


def _inputs(patches, tokens):
    """Token ids (n, T) and embeds (n, T, D): patch features at the image positions, 0 elsewhere."""
    import torch

    n, P, D = patches.shape
    T = tokens.shape[1]
    emb = torch.zeros(n, T, D)  # (n, T, D)
    emb[:, 1:1 + P] = torch.as_tensor(patches)
    return torch.as_tensor(tokens), emb


def train_vlm(data: dict):
    """The trained tiny VLM of this dataset instance (through the checkpoint cache)."""
    import torch
    import torch.nn.functional as F

    vlm = data["vlm"]
    K, P, M = vlm["n_classes"], vlm["n_patches"], vlm["max_objects"]
    caps = data["train_captions"]  # (N, M + 1), -1 = end
    full = np.concatenate([prompt_tokens(len(caps), P, K),
                           np.full((len(caps), 1), DESC, dtype=np.int64),
                           np.where(caps >= 0, caps + OBJ0, EOS)], axis=1)  # (N, T)
    # loss on the answer (DESC, objects) up to and including its first EOS
    ans0 = layout(P)["answer_start"]
    n_cap = (caps >= 0).sum(1) + 2  # answer tokens incl. DESC and EOS
    target_mask = np.zeros_like(full, dtype=bool)
    for i, c in enumerate(n_cap):
        target_mask[i, ans0:ans0 + c] = True
    tok_all = torch.as_tensor(full)
    mask_all = torch.as_tensor(target_mask)
    patches_all = torch.as_tensor(data["train_patches"])
    tcfg = lm_training.TrainConfig(steps=vlm["steps"], batch_size=32, lr=3e-3, warmup=30)

    def batch_fn(step, gen):
        idx = torch.randint(0, len(tok_all), (tcfg.batch_size,), generator=gen)
        return tok_all[idx], patches_all[idx], mask_all[idx]

    def loss_fn(model, batch):
        tok, pat, tmask = batch
        t, emb = _inputs(pat, tok)
        logits = model(t[:, :-1], embeds=emb[:, :-1])  # (B, T - 1, V)
        y = tok[:, 1:]  # (B, T - 1)
        m = tmask[:, 1:]
        return F.cross_entropy(logits[m], y[m])

    model, hist, _ = lm_training.train_cached(
        model_config(vlm), tcfg, data["model_seed"], data["data_key"], batch_fn, loss_fn,
        sources=(train_vlm,))
    return model, hist


@dataclass
class Trace:
    hidden: Any  # (L + 1, N, T, d) float32
    attn: Any  # (L, N, H, T, T) float32
    head: Any  # (V, d) unembedding
    tokens: Any  # (N, T) prompt + caption (EOS-padded)
    out_prob: Any  # (N, T) probability the model gave to tokens[:, t] at position t - 1
    mentions: Any  # (n_mentions, 3) int: scene, class, position of the object token
    layout: dict
    n_classes: int


_MEMO: dict = {}  # the last trace of this process: the detectors of one cell share it


def describe(data: dict) -> Trace:
    """Greedy captions of the test scenes and the model's internals on them (memoised per
    process on the instance's data key; the trace is deterministic given the data)."""
    key = repr(sorted(data["data_key"].items()))
    if key not in _MEMO:
        _MEMO.clear()
        _MEMO[key] = _describe(data)
    return _MEMO[key]


def _describe(data: dict) -> Trace:
    import torch

    model, _ = train_vlm(data)
    vlm = data["vlm"]
    K, P, M = vlm["n_classes"], vlm["n_patches"], vlm["max_objects"]
    patches = data["test_patches"]  # (N, P, D)
    N = len(patches)
    tok = torch.as_tensor(np.concatenate([prompt_tokens(N, P, K),
                                          np.full((N, 1), DESC, dtype=np.int64)], 1))  # (N, T0)
    allowed = torch.full((vocab(K)["size"],), float("-inf"))
    allowed[OBJ0:OBJ0 + K] = 0.0
    allowed[EOS] = 0.0
    done = torch.zeros(N, dtype=torch.bool)
    with torch.no_grad():
        for _ in range(M + 1):
            t, emb = _inputs(patches, tok.numpy())
            logits = model(t, embeds=emb)[:, -1] + allowed  # (N, V)
            nxt = torch.where(done, torch.full_like(done, EOS, dtype=torch.long),
                              logits.argmax(-1))
            tok = torch.cat([tok, nxt[:, None]], dim=1)  # (N, T + 1)
            done |= nxt == EOS
        # the logits of internals' forward pass are those of model(t, embeds=emb) on the same
        # inputs (keep_qkv only keeps a copy of q, k, v): reused, not computed a second time
        hidden, attn, logits = internals(model, patches, tok.numpy(), with_logits=True)
        logp = torch.log_softmax(logits, dim=-1)  # (N, T, V)
        out_prob = torch.zeros(tok.shape)
        out_prob[:, 1:] = logp[:, :-1].gather(-1, tok[:, 1:, None])[..., 0].exp()
    lay = layout(P)
    rows = []
    for i in range(N):
        seen = set()
        for pos in range(lay["answer_start"] + 1, tok.shape[1]):
            x = int(tok[i, pos])
            if x == EOS:
                break
            c = x - OBJ0
            if c not in seen:  # a repeated word is scored once (as in the InsLen code)
                seen.add(c)
                rows.append((i, c, pos))
    return Trace(hidden=hidden, attn=attn, head=model.head.weight.detach().numpy().copy(),
                 tokens=tok.numpy(), out_prob=out_prob.numpy(),
                 mentions=np.asarray(rows, dtype=np.int64).reshape(-1, 3), layout=lay,
                 n_classes=K)


def internals(model, patches, tokens, with_logits: bool = False):
    """Hidden states (L + 1, N, T, d) and attention probabilities (L, N, H, T, T); with
    ``with_logits`` also the output logits (N, T, V) of the same forward pass (a tensor)."""
    import torch

    T = tokens.shape[1]
    for b in model.blocks:
        b.mixer.keep_qkv = True
    try:
        t, emb = _inputs(patches, tokens)
        with torch.no_grad():
            positions = torch.arange(T)
            x0 = model.embed(t, emb, positions)  # (N, T, d)
            logits, hid = model(t, embeds=emb, return_hidden=True)  # (N, T, V), L x (N, T, d)
            causal = positions[None, :] <= positions[:, None]  # (T, T)
            attn = []
            for b in model.blocks:
                q, k, _ = b.mixer.last_qkv  # (N, H, T, dh)
                s = b.mixer.scores(q, k).masked_fill(~causal, float("-inf"))  # (N, H, T, T)
                attn.append(torch.softmax(s, dim=-1))
            hidden = [x0, *hid[:-1], model.norm(hid[-1])]
    finally:
        for b in model.blocks:
            b.mixer.keep_qkv = False
            b.mixer.last_qkv = None
    out = (torch.stack(hidden).numpy().astype(np.float32),  # (L + 1, N, T, d)
           torch.stack(attn).numpy().astype(np.float32))  # (L, N, H, T, T)
    return (*out, logits) if with_logits else out


# -- helpers shared by the detectors -------------------------------------------------------------
def layer_at(frac: float, n_layers: int) -> int:
    """Index into ``hidden`` (0 = embeddings, n_layers = last) at a fraction of the depth: the
    papers' LLaVA-1.5-7B layer l of 32 becomes round(l / 32 * n_layers)."""
    return int(round(frac * n_layers))


def softmax(x, axis: int = -1):
    z = x - x.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def lens_probs(h, head, scale: float = 1.0):
    """Logit lens: softmax over the vocabulary of ``scale * h @ head.T`` (..., V)."""
    return softmax(scale * (h @ head.T), axis=-1)


def cosine(a, b):
    """Cosine similarity along the last axis (broadcasting)."""
    na = np.linalg.norm(a, axis=-1)
    nb = np.linalg.norm(b, axis=-1)
    return (a * b).sum(-1) / np.maximum(na * nb, 1e-12)


def top_k_count(n_patches: int, k_frac: float) -> int:
    """The papers' k = 32 of LLaVA's 576 patches, as a fraction of this model's patches."""
    return max(1, int(np.ceil(k_frac * n_patches)))


@dataclass
class VLMDetector(Method):
    """A hallucination detector probing the tiny VLM: ``score(trace)`` -> (n_mentions,) scores,
    high meaning 'the mentioned object is really there'."""

    name: ClassVar[str] = ""

    def score(self, trace: Trace) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def run(self, data: Any, seed: int) -> dict:
        trace = describe(data)
        s = np.asarray(self.score(trace), dtype=float).reshape(-1)
        return {"scores": s.tolist(), "mentions": trace.mentions[:, :2].tolist(),
                "n_mentions": int(len(s))}
