"""Greedy (argmax) autoregressive decoding with a KV cache, and the shared frame of every
decoding method that is compared against it.

:class:`DecodingMethod` is the frame: it fetches the language model under test (trained once
per seed through the checkpoint cache, so every decoding method of a cell decodes the same
weights), converts it to float64 and decodes each prompt with the subclass's
:meth:`DecodingMethod.decode`. It counts forward passes and attended (query, key) pairs, and
times the method's own decoding (process CPU time). What every method is compared against, the
plain float64 greedy decoding of each prompt (the reference every lossless method must
reproduce token for token), and the LM's validation NLL are computed once, right after
training, and stored with the checkpoint (:func:`trained_lm`): the cells of a seed read them
instead of each decoding the reference again (issue 27).

Why float64: losslessness is an identity in exact arithmetic; a many-query pass and a
one-query pass sum their dot products in different orders, and in float32 a near-tie between
the two largest logits can flip. In float64 such flips need a gap below ~1e-13.

:class:`GreedyDecoding` is the reference itself: one token per forward pass.
"""
from __future__ import annotations

import copy
import hashlib
import time
from dataclasses import asdict, dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import lm_training, tiny_transformer


def lm_config(data: dict):
    spec = data["lm"]
    return tiny_transformer.TransformerConfig(
        vocab_size=data["vocab_size"], d_model=spec["d_model"], n_layers=spec["layers"],
        n_heads=4, d_ff=4 * spec["d_model"])


def trained_lm(data: dict, seed: int):
    """The LM under test for this instance and seed: ``(float32 model, history)``, trained once
    through the checkpoint cache. Besides the training log the history holds ``reference``
    (the float64 greedy tokens of each prompt, :func:`references`) and ``val_nll``, computed
    once after training, so the key also names the prompts, the validation text and the
    number of new tokens."""
    from claimbench.checkpoints import cached_train

    cfg = lm_config(data)
    spec = data["lm"]
    tcfg = lm_training.TrainConfig(steps=spec["steps"], batch_size=spec["batch"],
                                   context=spec["context"], warmup=min(50, spec["steps"] // 5))
    batch_fn = lm_training.random_windows(data["train"], tcfg.batch_size, tcfg.context)
    sha = hashlib.sha1(b"".join(np.asarray(p, dtype=np.int64).tobytes()
                                for p in data["prompts"])).hexdigest()
    key = {"model": asdict(cfg), "train": asdict(tcfg), "seed": seed,
           "data": {"corpus_sha": data["corpus_sha"], "lm": spec},
           "reference": {"prompts_sha1": sha, "gen_len": int(data["gen_len"]),
                         "val_sha1": hashlib.sha1(np.asarray(data["val"]).tobytes()).hexdigest()}}

    def fit(model):
        hist = lm_training.train(model, batch_fn, tcfg, seed)
        return {**hist, **references(model, data)}

    model, hist, _ = cached_train(key, lambda: tiny_transformer.build_model(cfg, seed), fit,
                                  sources=(tiny_transformer, lm_training, references))
    model.eval()
    return model, hist


def references(model32, data: dict) -> dict:
    """What every decoding method of the instance is compared against: ``reference``, the
    full-cache greedy tokens of each prompt in float64, and ``val_nll``, the float32 model's
    validation NLL (32 windows)."""
    torch = tiny_transformer.torch_classes().torch
    model = copy.deepcopy(model32).double().eval()
    n_new = int(data["gen_len"])
    with torch.no_grad():
        refs = [greedy(model, prompt, n_new) for prompt in data["prompts"]]
        val_nll = lm_training.eval_nll(model32, data["val"], context=data["lm"]["context"],
                                       max_windows=32)
    return {"reference": refs, "val_nll": val_nll}


class Counter:
    """Forward passes and attended (query, key) pairs of one decoding (one layer, one head:
    every layer and head attends to the same pairs)."""

    def __init__(self) -> None:
        self.forwards = 0
        self.pairs = 0

    def forward(self, model, tokens, cache, positions, mask):
        """One counted pass: tokens (T,), positions (T,), mask (T, len(cache) + T) -> (T, V)."""
        self.forwards += 1
        self.pairs += int(mask.sum())
        return model(tokens[None], cache=cache, positions=positions, mask=mask)[0]  # (T, V)


def prefill(model, prompt):
    """Cache of ``prompt[:-1]``; the last prompt token is the first 'current' token."""
    torch = tiny_transformer.torch_classes().torch
    cache = model.new_cache()
    if len(prompt) > 1:
        model(torch.as_tensor(prompt[:-1])[None], cache=cache)
    return cache


def greedy(model, prompt, n_new: int, counter: Counter | None = None, visible=None) -> list[int]:
    """``n_new`` argmax tokens after ``prompt``. ``visible(L) -> bool (L,)`` restricts which
    cache slots the query sees (None: all, exact greedy decoding)."""
    torch = tiny_transformer.torch_classes().torch
    counter = counter or Counter()
    cur, out = int(prompt[-1]), []
    with torch.no_grad():
        cache = prefill(model, prompt)
        while len(out) < n_new:
            L = len(cache)
            keep = torch.ones(L, dtype=torch.bool) if visible is None else visible(L)  # (L,)
            mask = torch.cat([keep, torch.ones(1, dtype=torch.bool)])[None]  # (1, L + 1)
            logits = counter.forward(model, torch.tensor([cur]), cache, torch.tensor([L]), mask)
            cur = int(logits[-1].argmax())
            out.append(cur)
    return out


@dataclass
class DecodingMethod(Method):
    """Frame of a decoding method: subclasses implement ``decode(model, prompt, n_new, counter,
    seed) -> list[int]``."""

    name: ClassVar[str] = ""

    def decode(self, model, prompt, n_new: int, counter: Counter, seed: int) -> list[int]:
        raise NotImplementedError

    def run(self, data, seed):
        torch = tiny_transformer.torch_classes().torch
        model32, hist = trained_lm(data, seed)
        model = copy.deepcopy(model32).double().eval()
        n_new = int(data["gen_len"])
        tokens, cpu = [], 0.0
        counter = Counter()
        with torch.no_grad():
            for i, prompt in enumerate(data["prompts"]):
                c0 = time.process_time()
                tokens.append(list(self.decode(model, prompt, n_new, counter, seed + i))[:n_new])
                cpu += time.process_time() - c0
        unigram = lm_training.unigram_nll(data["train"], data["val"], data["vocab_size"])
        return {"tokens": tokens, "reference": [list(r) for r in hist["reference"]],
                "forwards": counter.forwards, "attn_pairs": counter.pairs,
                "generated": len(tokens) * n_new, "decode_cpu_s": cpu,
                "val_nll": float(hist["val_nll"]), "unigram_nll": unigram,
                "train_loss": hist["loss"][-1]}


@dataclass
class GreedyDecoding(DecodingMethod):
    """Plain greedy decoding: one forward pass per token, the full KV cache."""

    name: ClassVar[str] = "greedy"

    def decode(self, model, prompt, n_new, counter, seed):
        return greedy(model, prompt, n_new, counter)


def exact_fraction(tokens, reference) -> float:
    """Fraction of prompts whose decoded tokens equal the reference token for token."""
    return float(np.mean([list(a) == list(b) for a, b in zip(tokens, reference)]))


def prefix_fraction(tokens, reference) -> float:
    """Mean fraction of the reference reproduced before the first differing token."""
    fr = []
    for a, b in zip(tokens, reference):
        k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        fr.append(k / max(1, len(b)))
    return float(np.mean(fr))
