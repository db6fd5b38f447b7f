"""Single-shot retrieval-augmented generation with a masked-diffusion reader.

The standard way to give a diffusion LM external evidence (the "DLM w/ ret@static" row of the
SARDI paper, arXiv 2606.06474, and its no-retrieval row): retrieve once, put the passages in
the prompt, and denoise the whole response from all-masks with that context fixed. Arms
(``retrieval``):

* ``"none"``: no passages (empty slots);
* ``"question"``: BM25 top-K for the question, once (SARDI code: rag_query_type "question");
* ``"oracle"``: the gold passages of the question first, the rest of the K slots filled by the
  question's BM25 ranking (an upper bound: a perfect retriever).

Reader: a bidirectional tiny transformer (``tiny_transformer``) trained as a masked diffusion
model (uniform masking of the response, ``masked_diffusion.UniformMasking``: m ~ U{1..L} of the
L response tokens masked, loss = NLL over masked positions / m) on sequences
[question | K passages | response] (``datasets/bridge_entity_kb.py``), through the checkpoint
cache: one reader (``reader_seed``) for every arm and every test world, as the paper evaluates
one fine-tuned model; the arms differ only at inference.

Decoding: confidence-threshold unmasking (the SARDI code's Dream sampler, alg
"confidence_threshold"): each forward pass commits every masked position whose top-1
probability is at least ``tau_c``, and the single most confident one if none is; greedy tokens
(temperature 0). :func:`denoise` takes an optional ``refresh`` hook called after every step
with the state, which may replace a row's passages: a dynamic-retrieval method (SARDI) plugs
in there.
"""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any, Callable, ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import lm_training, tiny_transformer
from claimbench.baselines.bm25_retrieval import BM25Retriever, words
from claimbench.baselines.masked_diffusion import UniformMasking
from claimbench.datasets import bridge_entity_kb as kb

RETRIEVALS = ("none", "question", "oracle")
FORBIDDEN = (kb.PAD, kb.MASK, kb.QRY)  # never emitted by the reader


@dataclass
class ReaderSpec:
    d_model: int = 64
    n_layers: int = 3
    n_heads: int = 4
    steps: int = 2000
    batch_size: int = 64
    lr: float = 2e-3
    warmup: int = 50


def train_reader(data: dict, spec: ReaderSpec, seed: int):
    """``(model, history, cache_hit)``: the masked-diffusion reader of this instance's training
    set, trained once per (data, spec, seed) through the checkpoint cache."""
    T = kb.seq_len(data["k"])
    mcfg = tiny_transformer.TransformerConfig(
        vocab_size=data["vocab_size"], d_model=spec.d_model, n_layers=spec.n_layers,
        n_heads=spec.n_heads, d_ff=4 * spec.d_model, max_len=T, causal=False,
        positions="learned")
    tcfg = lm_training.TrainConfig(steps=spec.steps, batch_size=spec.batch_size, lr=spec.lr,
                                   weight_decay=0.01, betas=(0.9, 0.999), warmup=spec.warmup,
                                   min_lr_ratio=0.0, grad_clip=1.0, threads=1,
                                   log_every=max(1, spec.steps // 20))
    strat = UniformMasking(data["train"], data["train_prompt"], kb.MASK, spec.batch_size)
    digest = hashlib.sha1(np.ascontiguousarray(data["train"]).tobytes()).hexdigest()
    return lm_training.train_cached(mcfg, tcfg, seed, {"train_sha1": digest, "T": T},
                                    strat.batch_fn, loss_fn=strat.loss_fn,
                                    extra_key={"reader": "bridge_kb_mdm"},
                                    sources=(UniformMasking, kb.training_sequences))


@dataclass
class DenoiseState:
    """What a ``refresh`` hook sees after a step (rows = questions still decoding or just done)."""

    step: int  # 1-based: number of forward passes done
    rows: np.ndarray  # (b,) question indices of this batch
    response: np.ndarray  # (b, 7) committed tokens, MASK where still masked
    conf: np.ndarray  # (b, 7) top-1 probability of this pass
    guess: np.ndarray  # (b, 7) argmax token of this pass


def denoise(model, data: dict, contexts: list, tau_c: float,
            refresh: Callable[[DenoiseState], dict] | None = None) -> dict:
    """Decode every question's response; ``contexts[i]`` are its passage ids (mutated by
    ``refresh``, which returns {row: new passage ids}). Returns responses, forward passes per
    question and the passage ids in context at each forward pass."""
    import torch

    qs, passages, k = data["questions"], data["passages"], data["k"]
    n, rs = len(qs), kb.response_start(k)
    resp = np.full((n, kb.R_LEN), kb.MASK, dtype=np.int64)
    passes = np.zeros(n, dtype=np.int64)
    used = [[] for _ in range(n)]
    step = 0
    with torch.no_grad():
        while (resp == kb.MASK).any():
            rows = np.flatnonzero((resp == kb.MASK).any(1))
            X = np.stack([kb.encode(qs[i], passages[contexts[i]], k, resp[i])
                          for i in rows])  # (b, T)
            logits = model(torch.as_tensor(X))[:, rs:, :].clone()  # (b, 7, V)
            logits[..., list(FORBIDDEN)] = float("-inf")
            conf, guess = logits.softmax(-1).max(-1)  # (b, 7) each
            conf, guess = conf.numpy(), guess.numpy()
            r = resp[rows]  # (b, 7)
            masked = r == kb.MASK
            commit = masked & (conf >= tau_c)
            best = np.where(masked, conf, -1.0).argmax(1)  # (b,)
            none = ~commit.any(1)
            commit[np.flatnonzero(none), best[none]] = True
            r[commit] = guess[commit]
            resp[rows] = r
            step += 1
            passes[rows] += 1
            for i in rows:
                used[i].append(np.asarray(contexts[i]).copy())
            if refresh is not None:
                new = refresh(DenoiseState(step, rows, r.copy(), conf, guess))
                for i, ids in new.items():
                    contexts[i] = ids
    return {"responses": resp, "passes": passes, "used": used}


def question_words(q: np.ndarray) -> list[str]:
    return words(q[1:])  # the question without its QRY marker


def summarise(data: dict, dec: dict, queries: list, retriever_calls: int) -> dict:
    """Outputs shared by every arm (metrics read them with the truth)."""
    resp = dec["responses"]
    return {"answers": resp[:, kb.ANSWER_POS], "responses": resp,
            "passes": dec["passes"], "contexts": dec["used"], "queries": queries,
            "forward_passes": float(dec["passes"].mean()),
            "tokens_per_pass": float(np.mean(kb.R_LEN / dec["passes"])),
            "retrievals": float(retriever_calls / len(resp))}


@dataclass
class SingleShotRAG(Method):
    """Retrieve once (or never, or the gold passages), then denoise with the context fixed."""

    name: ClassVar[str] = "single_shot_rag"

    retrieval: str = "question"  # "none" | "question" | "oracle"
    tau_c: float = 0.9  # SARDI code config.py DEFAULT_TAU_C (commit threshold)
    d_model: int = 64  # ours: reader width (paper: DREAM-7B)
    n_layers: int = 3  # ours
    n_heads: int = 4  # ours
    train_steps: int = 2000  # ours: ~2 CPU-min on one thread, paid once (cached)
    batch_size: int = 64  # ours
    lr: float = 2e-3  # ours
    reader_seed: int = 0  # ours: one reader for every test world (the arms differ at inference)

    def spec(self) -> ReaderSpec:
        return ReaderSpec(self.d_model, self.n_layers, self.n_heads, self.train_steps,
                          self.batch_size, self.lr)

    def make_bm25(self, data: dict) -> BM25Retriever:
        return BM25Retriever([words(p) for p in data["passages"]])

    def initial(self, data: dict, bm25: BM25Retriever) -> tuple[list, list]:
        """Step-0 contexts and queries per question."""
        k, qs = data["k"], data["questions"]
        if self.retrieval == "none":
            return [np.zeros(0, dtype=np.int64) for _ in qs], [[[]] for _ in qs]
        ctx, queries = [], []
        for i, q in enumerate(qs):
            qw = question_words(q)
            if self.retrieval == "oracle":
                gold = np.asarray(data["oracle_passages"][i])
                ids = np.concatenate([gold, bm25.top_k(qw, k - len(gold), exclude=gold)])
            else:
                ids = bm25.top_k(qw, k)
            ctx.append(ids)
            queries.append([qw])
        return ctx, queries

    def run(self, data: Any, seed: int) -> dict:
        import time

        if self.retrieval not in RETRIEVALS:
            raise ValueError(f"retrieval={self.retrieval!r}; valid: {RETRIEVALS}")
        t0 = time.process_time()
        model, hist, hit = train_reader(data, self.spec(), self.reader_seed)
        bm25 = self.make_bm25(data)
        ctx, queries = self.initial(data, bm25)
        dec = denoise(model, data, ctx, self.tau_c)
        out = summarise(data, dec, queries, bm25.calls)
        out.update({"train_loss_last": float(hist["loss"][-1]), "cache_hit": float(hit),
                    "train_wall_s": float(hist["wall_s"]), "cpu_s": time.process_time() - t0})
        return out
