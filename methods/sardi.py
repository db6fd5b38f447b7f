"""SARDI: Self-Augmenting Retrieval for Diffusion Language Models.

Paper: Paul Jünger, Justin Lovelace, Linxi Zhao, Dongyoung Go, Kilian Q. Weinberger,
"Self-Augmenting Retrieval for Diffusion Language Models", ICML 2026, arXiv:2606.06474; official
code github.com/pauljngr/SARDI (``sardi/rag/generate.py``, ``sardi/config.py``), from which the
algorithm and the published settings below are read (paper body read only in its abstract,
introduction and the code's README Table 1).

Algorithm (training-free; retrieval interleaved with masked-diffusion denoising):
(0) Step 0: query q_0 = the question; context C_0 = top-K BM25 passages of q_0; the response
    (reasoning trace + answer) starts all-masked.
(1) Denoising step s: one forward pass on [question | C_s | x_s] gives, at every masked position
    i, p_i(v); commit every masked i with max_v p_i(v) >= tau_c (the commit threshold; at least
    the most confident one), writing argmax_v p_i(v).
(2) After the step, a proxy response x~_s: the committed tokens, plus, at each still-masked
    position whose confidence is >= tau_q (the query threshold, tau_q <= tau_c), the model's
    tentative argmax guess (the "lookahead" tokens that decoding discards). tau_q = 0 exposes
    every position (the published setting); tau_q = 1 disables the proxy (committed tokens only).
(3) Query q_{s+1} = question (+) x~_s, special tokens removed, repeated words dropped; context
    C_{s+1} = top-K BM25 passages of q_{s+1} (re-used without a new call when the query is
    unchanged); the prompt is rebuilt with C_{s+1}, the committed response kept; back to (1)
    until no mask remains.

Deviations:
1. Scale and data: a 3-layer d = 64 bidirectional transformer trained here as a masked-diffusion
   reader (2000 steps, ~2 CPU-min on one thread, once: cached and shared by every arm and test
   world) on generated 2-hop questions over one-fact passages
   (``datasets/bridge_entity_kb.py``), with a fixed 7-token reasoning trace
   "E r B ; B a Z", instead of a RAG-fine-tuned DREAM-7B producing ~100-token free-text
   traces over Wikipedia passages (2WikiMultiHopQA, HotpotQA, MuSiQue, CofCA, SynthWorlds).
2. The response has 7 tokens, so decoding ends within 7 steps (paper: up to 100 steps for 100
   tokens); "retrieval at every step" is kept (code: retrieval_steps "0,s").
3. BM25 is ``rank_bm25``'s BM25Okapi over token-id words (paper: bm25s over chunked corpora);
   passages enter the context in BM25 rank order (the code's deterministic_passage_order).
4. Passages occupy K fixed slots of 3 tokens; the question is 4 tokens (QRY, attribute,
   relation, entity) rather than text.
5. Batched over questions (paper: batch size 1); a row's retrieval cache is per question. As in
   the code's token hook, a retrieval also follows the step that commits the last token (counted
   in ``retrievals``, unused by decoding).
6. The reader's training contexts are what the arms would put in its prompt (empty; BM25 on the
   question; BM25 on the question plus the bridge and a random value word; gold passages), our
   stand-in for the paper's RAG fine-tuning of DREAM-7B, whose data we did not read.

Mutants and variants (fields; defaults are the method):
- ``tau_q = 1.0``: committed tokens only (lookahead removed): the paper's ablation axis.
- ``mutant = "random_draft"``: the lookahead positions are filled with uniformly random
  vocabulary tokens instead of the model's guesses (the self-augmentation signal removed, the
  re-query schedule kept).
- ``mutant = "random_passages"``: every retrieval returns K uniformly random passages
  (grounding removed, same decoding).
- ``retriever = "oracle"``: SARDI's loop with a perfect retriever (gold passages first, the rest
  by BM25 on SARDI's query): what SARDI would reach if retrieval never missed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from claimbench.baselines.bm25_retrieval import dedup, words
from claimbench.baselines.single_shot_rag import (DenoiseState, SingleShotRAG, denoise,
                                                  question_words, summarise, train_reader)
from claimbench.datasets import bridge_entity_kb as kb

MUTANTS = ("", "random_draft", "random_passages")
RETRIEVERS = ("bm25", "oracle")


@dataclass
class SARDI(SingleShotRAG):
    """Re-query BM25 with question + proxy response after every denoising step."""

    name: ClassVar[str] = "sardi"

    retrieval: str = "question"  # step 0 as the single-shot baseline (code: step-0 query = question)
    tau_c: float = 0.9  # code config.py DEFAULT_TAU_C; README Table 1 column tau_c = 0.9
    tau_q: float = 0.0  # code config.py PAPER_CONFIG rag_query_confidence_threshold 0.0
    retriever: str = "bm25"  # code PAPER_CONFIG retriever_type "bm25s"; "oracle" = perfect
    mutant: str = ""  # "" = the paper's method; see the module docstring

    def run(self, data: Any, seed: int) -> dict:
        import time

        if self.mutant not in MUTANTS:
            raise ValueError(f"mutant={self.mutant!r}; valid: {MUTANTS}")
        if self.retriever not in RETRIEVERS:
            raise ValueError(f"retriever={self.retriever!r}; valid: {RETRIEVERS}")
        t0 = time.process_time()
        model, hist, hit = train_reader(data, self.spec(), self.reader_seed)
        bm25 = self.make_bm25(data)
        rng = np.random.default_rng([seed, 7])
        k, qs, n_p = data["k"], data["questions"], len(data["passages"])
        v: kb.Vocab = data["vocab"]

        def fetch(i: int, query: list[str]) -> np.ndarray:
            if self.mutant == "random_passages":
                return rng.choice(n_p, k, replace=False)
            if self.retriever == "oracle":
                gold = np.asarray(data["oracle_passages"][i])
                return np.concatenate([gold, bm25.top_k(query, k - len(gold), exclude=gold)])
            return bm25.top_k(query, k)

        queries = [[question_words(q)] for q in qs]
        ctx = [fetch(i, queries[i][0]) for i in range(len(qs))]

        def refresh(st: DenoiseState) -> dict:
            new = {}
            for j, i in enumerate(st.rows):
                proxy = proxy_response(st.response[j], st.conf[j], st.guess[j], self.tau_q,
                                       self.mutant, v, rng)
                query = dedup(question_words(qs[i]) + words(t for t in proxy
                                                            if t >= kb.N_SPECIAL))
                if query != queries[i][-1] or self.mutant == "random_passages":
                    new[i] = fetch(i, query)
                queries[i].append(query)
            return new

        dec = denoise(model, data, ctx, self.tau_c, refresh)
        out = summarise(data, dec, queries, bm25.calls)
        out.update({"train_loss_last": float(hist["loss"][-1]), "cache_hit": float(hit),
                    "train_wall_s": float(hist["wall_s"]), "cpu_s": time.process_time() - t0})
        return out


def proxy_response(resp: np.ndarray, conf: np.ndarray, guess: np.ndarray, tau_q: float,
                   mutant: str, v: kb.Vocab, rng: np.random.Generator) -> np.ndarray:
    """Step (2): committed tokens plus lookahead guesses at masked positions with conf >= tau_q
    (none when tau_q >= 1, as in the code); ``random_draft`` puts random tokens there instead."""
    proxy = resp.copy()
    if tau_q >= 1.0:
        return proxy
    look = (resp == kb.MASK) & (conf >= tau_q)
    if mutant == "random_draft":
        proxy[look] = rng.integers(kb.N_SPECIAL, v.size, int(look.sum()))
    else:
        proxy[look] = guess[look]
    return proxy
