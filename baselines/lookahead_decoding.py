"""Lookahead decoding (Fu, Bailis, Stoica, Zhang, "Break the Sequential Dependency of LLM
Inference Using Lookahead Decoding", ICML 2024, arXiv 2402.02057): lossless, draftless
parallel decoding with an n-gram pool.

One forward pass holds three parts (queries), laid out as
``[current token | lookahead branch (N-1) x W | verification branch G' x (N-1)]``:

* the **lookahead branch**, a 2-D window of Jacobi iterates: level l (0 = oldest), column j
  sits at position p + 1 + l + j (p = position of the current token) and attends to the
  current token, to level 0 columns 0..j and to levels 1..l of its own column, i.e. to one
  consistent causal sequence. The last level's outputs form the next level; each column's
  trajectory plus that output is an N-gram, added to the pool under its first token;
* the **verification branch**: up to G pooled (N-1)-grams whose key is the current token,
  each a causal chain of its own at positions p + 1 .. p + N - 1;
* the current token, whose output is the greedy next token.

Acceptance is greedy: the candidate that agrees longest with the model's own argmax chain is
accepted up to its first disagreement, plus the model's token after it (the "bonus"), so each
pass emits 1 .. N tokens and the output equals greedy decoding exactly. The KV of the current
token and of the accepted candidate tokens (computed with full attention along their chain) is
kept; everything else the pass appended is dropped (``KVCache.select``).

Hooks: ``draft_visible(L) -> bool (L,)`` restricts which cached slots the lookahead branch sees
(Lookahead: all; FAFO: a compressed cache), ``verify_visible`` likewise for the current token
and the verification branch (all, for a lossless method).

Deviations (from the paper and, as far as we read it, its reference implementation
hao-ai-lab/LookaheadDecoding): (1) all N - 1 window levels start as tokens drawn at random
from the prompt (the reference fills the levels in warm-up passes); (2) the pool keeps the G
most recent distinct (N-1)-grams per key and verifies all of them; (3) the window is re-laid
at positions relative to the current token every pass and not realigned when several tokens
are accepted (not checked against the reference);
(4) the pool is not seeded with the prompt's own n-grams (the reference implementation's
optional POOL_FROM_PROMPT).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, ClassVar

from claimbench.baselines import tiny_transformer
from claimbench.baselines.greedy_decoding import Counter, DecodingMethod, prefill


@functools.lru_cache(maxsize=64)
def local_mask(W: int, N: int, g: int):
    """Bool (T, T), T = 1 + (N-1) W + g (N-1): which new tokens each new token attends to."""
    torch = tiny_transformer.torch_classes().torch
    a = 1 + (N - 1) * W
    T = a + g * (N - 1)
    m = torch.zeros(T, T, dtype=torch.bool)
    m[:, 0] = True  # everyone sees the current token
    for l in range(N - 1):
        for j in range(W):
            q = 1 + l * W + j
            m[q, 1:2 + j] = True  # level 0, columns 0..j
            for l2 in range(1, l + 1):
                m[q, 1 + l2 * W + j] = True  # levels 1..l of its own column
    for c in range(g):
        for i in range(N - 1):
            q = a + c * (N - 1) + i
            m[q, a + c * (N - 1): q + 1] = True  # its own chain up to itself
    return m


def positions_of(L: int, W: int, N: int, g: int):
    """Positions (T,) of the pass's tokens, the current one at L."""
    torch = tiny_transformer.torch_classes().torch
    lvl = torch.arange(N - 1)[:, None] + torch.arange(W)[None, :]  # (N-1, W): l + j
    cand = torch.arange(N - 1).repeat(g)  # (g (N-1),)
    return torch.cat([torch.tensor([L]), L + 1 + lvl.flatten(), L + 1 + cand])


def lookahead_generate(model, prompt, n_new: int, W: int, N: int, G: int, counter: Counter,
                       seed: int, draft_visible: Callable | None = None,
                       verify_visible: Callable | None = None, pool: dict | None = None,
                       trace: dict | None = None) -> list[int]:
    """Decode ``n_new`` tokens (or a few more: the last pass may overshoot). ``pool`` seeds the
    n-gram pool (first token -> list of (N-1)-tuples; updated in place); ``trace``, when given,
    receives the final cache and the tokens emitted by each pass."""
    torch = tiny_transformer.torch_classes().torch
    with torch.no_grad():
        return _generate(model, prompt, n_new, W, N, G, counter, seed, draft_visible,
                         verify_visible, {} if pool is None else pool, trace)


def _generate(model, prompt, n_new, W, N, G, counter, seed, draft_visible, verify_visible,
              pool, trace):
    torch = tiny_transformer.torch_classes().torch
    gen = torch.Generator().manual_seed(seed)
    ptoks = torch.as_tensor(prompt)
    window = ptoks[torch.randint(0, len(ptoks), (N - 1, W), generator=gen)]  # (N-1, W)
    cache = prefill(model, prompt)
    cur, out = int(prompt[-1]), []
    a = 1 + (N - 1) * W
    while len(out) < n_new:
        L = len(cache)
        cands = pool.get(cur, [])[-G:]
        g = len(cands)
        ctoks = torch.tensor([t for c in cands for t in c], dtype=torch.long)  # (g (N-1),)
        tokens = torch.cat([torch.tensor([cur]), window.flatten(), ctoks])  # (T,)
        T = len(tokens)
        full = torch.ones(L, dtype=torch.bool)
        draft = full if draft_visible is None else draft_visible(L)  # (L,)
        verify = full if verify_visible is None else verify_visible(L)  # (L,)
        past = torch.cat([verify[None], draft[None].expand(a - 1, L),
                          verify[None].expand(T - a, L)])  # (T, L)
        mask = torch.cat([past, local_mask(W, N, g)], dim=1)  # (T, L + T)
        logits = counter.forward(model, tokens, cache, positions_of(L, W, N, g), mask)  # (T, V)
        pred = logits.argmax(-1).tolist()  # (T,)
        # verification: the longest candidate prefix that equals the model's own argmax chain
        best_m, best_c = 0, -1
        for c, cand in enumerate(cands):
            m, nxt = 0, pred[0]
            while m < N - 1 and cand[m] == nxt:
                nxt = pred[a + c * (N - 1) + m]
                m += 1
            if m > best_m:
                best_m, best_c = m, c
        accepted = list(cands[best_c][:best_m]) if best_m else []
        bonus = pred[0] if best_m == 0 else pred[a + best_c * (N - 1) + best_m - 1]
        keep = list(range(L + 1)) + [L + a + best_c * (N - 1) + i for i in range(best_m)]
        cache = cache.select(torch.tensor(keep))
        # lookahead: the last level's outputs close one N-gram per column and become a new level
        last = torch.tensor(pred[1 + (N - 2) * W: a])  # (W,)
        grams = torch.cat([window, last[None]]).T.tolist()  # (W, N)
        for gram in grams:
            lst = pool.setdefault(gram[0], [])
            tail = tuple(gram[1:])
            if tail in lst:
                lst.remove(tail)
            lst.append(tail)
            del lst[:-G]
        window = torch.cat([window[1:], last[None]])  # (N-1, W)
        out += accepted + [bonus]
        cur = out[-1]
        if trace is not None:
            trace.setdefault("emitted", []).append(len(accepted) + 1)
    if trace is not None:
        trace["cache"] = cache
    return out


@dataclass
class LookaheadDecoding(DecodingMethod):
    """Lookahead decoding with a full-KV lookahead branch."""

    name: ClassVar[str] = "lookahead"
    # hao-ai-lab/LookaheadDecoding's A100 evaluation script: LEVEL=5, WINDOW_SIZE=15,
    # GUESS_SET_SIZE=15 (its README suggests W = G = 7 for 7B models: the full grid runs both)
    W: int = 15  # window size
    N: int = 5  # n-gram size (LEVEL)
    G: int = 15  # most candidates verified per pass (GUESS_SET_SIZE)

    def __post_init__(self) -> None:
        if self.N < 2 or self.W < 1 or self.G < 1:
            raise ValueError(f"need N >= 2, W >= 1, G >= 1; got N={self.N}, W={self.W}, G={self.G}")

    def draft_visible(self, L: int):
        return None

    def verify_visible(self, L: int):
        return None

    def decode(self, model, prompt, n_new, counter, seed):
        dv = (lambda L: self.draft_visible(L)) if self.draft_visible(1) is not None else None
        vv = (lambda L: self.verify_visible(L)) if self.verify_visible(1) is not None else None
        return lookahead_generate(model, prompt, n_new, self.W, self.N, self.G, counter, seed,
                                  draft_visible=dv, verify_visible=vv)
