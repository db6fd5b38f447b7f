"""Self-Speculative Decoding (Zhang, Wang, Li, Shou, Chen, Chen, Mehrotra, "Draft & Verify:
Lossless Large Language Model Acceleration via Self-Speculative Decoding", ACL 2024, arXiv
2309.08168): lossless and draftless (no auxiliary model) speculative decoding.

Read: the abstract and third-party summaries (the full text was not retrieved here) and the
reference implementation's greedy decoder (dilab-zju/self-speculative-decoding, decoding.py,
``exact_self_speculative_generate``), whose drafting, verification, draft-exiting rule and
default constants this file follows.

Two stages per step:

* **drafting**: the same LM with some of its sublayers (attention or MLP of given blocks)
  skipped decodes draft tokens greedily, one pass each, and stops after ``K`` tokens or
  after the first draft whose top-1 probability falls below the threshold ``gamma`` (adaptive
  draft-exiting; that last draft is kept and verified, as in the reference code);
* **verification**: ONE pass of the full model over ``[current token | drafts]`` with the full
  cache; the drafts are accepted up to the first one that differs from the full model's argmax,
  plus the full model's token after it (the bonus). The output is greedy decoding's exactly.

``gamma`` adapts after each verification (the acceptance rate AR = accepted / drafted):
``ar <- b1 ar + (1 - b1) AR``; ``gamma~ = gamma + eps`` if ``ar < alpha``, else ``gamma`` if
K tokens were drafted, else ``gamma - eps``; ``gamma <- b2 gamma + (1 - b2) gamma~``.

The skipped sublayers are chosen once per trained LM, before any test prompt is decoded, by
the paper's objective (the fastest decoding of held-in text) searched exhaustively instead of
by Bayesian optimisation: every non-empty proper subset of the 2 L sublayers is tried on
``n_dev`` windows of the LM's *training* text, and the one with the most new tokens per
model-equivalent pass wins (``model_passes``: a verification pass counts 1, a draft pass the
fraction of the blocks' weights it uses; a small-batch decoding pass is memory-bound, so its
latency follows the weights it reads).

Counts: every draft pass and every verification pass is one forward pass (``forwards``); the
attended (query, key) pairs of a draft pass are those of one layer scaled by the fraction of
layers whose attention runs (``attn_pairs``, comparable with the other decoders' one-layer
count); ``model_passes`` as above; none of them counts the search of the skipped set, whose
CPU time falls in the first prompt's ``decode_cpu_s`` (reported, not claimed).

Deviations:
1. Exhaustive search over the 2 L - 2 ... sublayer subsets of a 2-layer model on 2 training
   windows, not Bayesian optimisation over an 80-sublayer LLaMA-2 on a dev set; objective
   model-equivalent passes, not measured latency.
2. Constants of the adaptive draft-exiting are the reference code's defaults (max_step_draft
   K = 8, th_stop_draft gamma0 = 0.8, auto_parameters alpha = 0.9, eps = 0.01, b1 = 0.5,
   b2 = 0.9), not checked against the paper's text. The reference decodes the first new token
   with one full pass before drafting; here drafting starts at once.
3. The draft passes write their keys and values into a copy of the cache that is dropped
   before verification (the reference implementation appends to, then crops, the one cache;
   the tokens and counts are the same).
4. Drafting stops early when the drafts would overshoot the requested number of tokens.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from claimbench.baselines import tiny_transformer
from claimbench.baselines.greedy_decoding import DecodingMethod, prefill


def sublayers(n_layers: int) -> list[tuple[str, int]]:
    return [(kind, i) for i in range(n_layers) for kind in ("attn", "mlp")]


def weight_fraction(model, skip) -> float:
    """Fraction of the blocks' parameters a draft pass that skips ``skip`` reads."""
    sizes = {}
    for i, b in enumerate(model.blocks):
        sizes[("attn", i)] = sum(p.numel() for p in (*b.norm1.parameters(), *b.mixer.parameters()))
        sizes[("mlp", i)] = sum(p.numel() for p in (*b.norm2.parameters(), *b.ffn.parameters()))
    total = sum(sizes.values())
    return 1.0 - sum(sizes[s] for s in skip) / total


def draft_step(model, token: int, cache, skip):
    """One pass of the layer-skipped model: logits (V,) of the token after ``token``; the
    non-skipped attention layers append its key and value to ``cache`` (a draft copy)."""
    torch = tiny_transformer.torch_classes().torch
    pos = torch.tensor([cache.next_position()])  # (1,)
    x = model.embed(torch.tensor([[token]]), None, pos)  # (1, 1, d)
    for i, b in enumerate(model.blocks):
        if ("attn", i) not in skip:
            n_keys = 0 if cache.k[i] is None else int(cache.k[i].shape[2])
            mask = torch.ones(1, n_keys + 1, dtype=torch.bool)  # (1, keys): all in the past
            x = x + b.mixer(b.norm1(x), pos, (cache, i), mask)
        if ("mlp", i) not in skip:
            x = x + b.ffn(b.norm2(x))
    cache.positions = torch.cat([cache.positions, pos])
    return model.head(model.norm(x))[0, -1]  # (V,)


@dataclass
class SSDState:
    """Counts of one decoding run (the frame's Counter holds forwards and pairs)."""

    model_passes: float = 0.0
    drafted: int = 0
    accepted: int = 0


def ssd_generate(model, prompt, n_new: int, skip, counter, state: SSDState, K: int = 8,
                 gamma0: float = 0.8, alpha: float = 0.9, eps: float = 0.01, b1: float = 0.5,
                 b2: float = 0.9) -> list[int]:
    torch = tiny_transformer.torch_classes().torch
    skip = frozenset(skip)
    frac = weight_fraction(model, skip)
    attn_frac = sum(("attn", i) not in skip for i in range(len(model.blocks))) / len(model.blocks)
    gamma, ar = gamma0, 0.0
    with torch.no_grad():
        cache = prefill(model, prompt)
        cur, out = int(prompt[-1]), []
        while len(out) < n_new:
            L = len(cache)
            drafts, dcache, tok = [], cache.select(torch.arange(L)), cur
            while len(drafts) < min(K, n_new - len(out) - 1):
                probs = torch.softmax(draft_step(model, tok, dcache, skip), -1)  # (V,)
                counter.forwards += 1
                counter.pairs += (L + len(drafts) + 1) * attn_frac
                state.model_passes += frac
                p, tok = float(probs.max()), int(probs.argmax())
                drafts.append(tok)
                if p < gamma:
                    break  # adaptive draft-exiting, after the low-confidence draft (reference)
            T = 1 + len(drafts)
            tokens = torch.tensor([cur] + drafts)  # (T,)
            mask = torch.cat([torch.ones(T, L, dtype=torch.bool),
                              torch.ones(T, T, dtype=torch.bool).tril()], dim=1)  # (T, L + T)
            pred = counter.forward(model, tokens, cache, torch.arange(L, L + T), mask).argmax(-1)
            state.model_passes += 1.0
            pred = pred.tolist()  # (T,)
            m = 0
            while m < len(drafts) and drafts[m] == pred[m]:
                m += 1
            out += drafts[:m] + [pred[m]]
            cur = out[-1]
            cache = cache.truncate(L + 1 + m)
            if drafts:
                state.drafted += len(drafts)
                state.accepted += m
                ar = b1 * ar + (1 - b1) * m / len(drafts)
                gamma_t = (gamma + eps if ar < alpha
                           else gamma if len(drafts) == K else gamma - eps)
                gamma = b2 * gamma + (1 - b2) * gamma_t
    return out


def choose_skip(model, dev_prompts, n_new: int, n_layers: int, **kw) -> tuple:
    """The sublayer subset with the most new tokens per model-equivalent pass on the dev
    prompts (ties: the earlier subset, fewer skipped first)."""
    from claimbench.baselines.greedy_decoding import Counter

    subs = sublayers(n_layers)
    best, best_rate = (), -1.0
    for r in range(1, len(subs)):
        for skip in itertools.combinations(subs, r):
            st = SSDState()
            n = sum(len(ssd_generate(model, p, n_new, skip, Counter(), st, **kw))
                    for p in dev_prompts)
            if n / st.model_passes > best_rate:
                best, best_rate = skip, n / st.model_passes
    return best


@dataclass
class SelfSpeculativeDecoding(DecodingMethod):
    """Draft with the layer-skipped LM, verify with the full LM in one pass."""

    name: ClassVar[str] = "self_speculative"
    K: int = 8  # most draft tokens per step: reference max_step_draft (Deviation 2)
    gamma0: float = 0.8  # initial draft-exiting threshold: reference th_stop_draft
    alpha: float = 0.9  # target acceptance rate (Deviation 2)
    eps: float = 0.01  # threshold step (Deviation 2)
    b1: float = 0.5  # smoothing of the acceptance rate (Deviation 2)
    b2: float = 0.9  # smoothing of the threshold (Deviation 2)
    n_dev: int = 2  # training-text windows the skipped set is chosen on (Deviation 1)
    skip: tuple = field(default=())  # () = choose per LM (choose_skip); else ((kind, layer), ...)

    def _kw(self) -> dict:
        return {"K": self.K, "gamma0": self.gamma0, "alpha": self.alpha, "eps": self.eps,
                "b1": self.b1, "b2": self.b2}

    def run(self, data, seed):
        self._state, self._skip = SSDState(), tuple(tuple(s) for s in self.skip)
        self._data = data
        out = super().run(data, seed)
        out.update(model_passes=self._state.model_passes, drafted=self._state.drafted,
                   accepted=self._state.accepted, skip=[list(s) for s in self._skip])
        return out

    def _dev_prompts(self, data, seed):
        train, plen = np.asarray(data["train"]), len(data["prompts"][0])
        rng = np.random.default_rng(seed)
        starts = rng.integers(0, len(train) - plen, self.n_dev)
        return [train[s:s + plen] for s in starts]

    def decode(self, model, prompt, n_new, counter, seed):
        if not self._skip:
            self._skip = choose_skip(model, self._dev_prompts(self._data, seed), n_new,
                                     len(model.blocks), **self._kw())
        return ssd_generate(model, prompt, n_new, self._skip, counter, self._state, **self._kw())
