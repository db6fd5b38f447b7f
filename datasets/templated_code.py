"""Code-like text with long-range repetition, character level, for decoding benchmarks.

Each document is a small function in a Python-like grammar: a header introduces a random
function name and argument names (2-4 lowercase letters, drawn per document), and a body of
templated statements reuses them many lines later (assignments, conditions, a recursive call,
a return). Predicting a body identifier needs the header, tens of characters back: a model that
attends only to a short recent window (StreamingLLM-style KV compression) loses it, while the
fixed syntax ("    return ", "):\\n") is predictable from local context alone, which is what
n-gram drafting exploits.

``make(seed)`` returns a training token array (the corpus the language model under test is
trained on), a validation array and ``n_prompts`` prompts: the first ``prompt_len`` characters
of held-out documents, each long enough to contain its header. The trained model itself is
part of the problem instance for decoding methods; it is specified by the ``lm_*`` fields and
trained once per seed through the checkpoint cache (``baselines/greedy_decoding.py``).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
VOCAB = sorted(set(ALPHABET + "0123456789 \n():,=+-*<>#_"))  # fixed: ids do not depend on the seed
INDEX = {c: i for i, c in enumerate(VOCAB)}


def _name(rng, taken: set) -> str:
    while True:
        s = "".join(rng.choice(list(ALPHABET), size=int(rng.integers(2, 5))))
        if s not in taken and s not in {"if", "def", "for", "in", "or", "and", "not", "is", "as"}:
            taken.add(s)
            return s


def document(rng) -> str:
    """One function: header, 4-8 templated statements over its names, a return."""
    taken: set = set()
    fn = _name(rng, taken)
    args = [_name(rng, taken) for _ in range(int(rng.integers(2, 4)))]
    local = [_name(rng, taken) for _ in range(2)]
    names = args + local
    lines = [f"def {fn}({', '.join(args)}):"]
    defined = list(args)
    ops = ["+", "-", "*"]
    for k in range(int(rng.integers(4, 9))):
        kind = rng.integers(0, 4)
        a, b = rng.choice(defined, size=2)
        if kind == 0 or len(defined) < len(names):
            target = local[0] if len(defined) == len(args) else (
                local[1] if len(defined) == len(args) + 1 else rng.choice(local))
            if target not in defined:
                defined.append(target)
            lines.append(f"    {target} = {a} {rng.choice(ops)} {b}")
        elif kind == 1:
            lines.append(f"    if {a} > {b}:")
            lines.append(f"        {a} = {a} {rng.choice(ops)} {int(rng.integers(1, 10))}")
        elif kind == 2:
            call = ", ".join(rng.choice(defined, size=len(args)))
            lines.append(f"    {rng.choice(local)} = {fn}({call})")
        else:
            lines.append(f"    # {a} and {b}")
    lines.append(f"    return {rng.choice(local)} {rng.choice(ops)} {rng.choice(args)}")
    return "\n".join(lines) + "\n\n"


def encode(text: str) -> np.ndarray:
    return np.fromiter((INDEX[c] for c in text), dtype=np.int64, count=len(text))


def decode(ids) -> str:
    return "".join(VOCAB[int(i)] for i in ids)


@dataclass
class TemplatedCode(Dataset):
    """A templated-code corpus, held-out prompts, and the spec of the LM trained on it."""

    name: ClassVar[str] = "templated_code"
    n_train_chars: int = 200_000  # ours: ~1000 documents
    n_prompts: int = 6  # ours: prompts decoded per run
    prompt_len: int = 80  # ours: a header plus a few statements
    gen_len: int = 48  # ours: new tokens per prompt (prompt + new = lm_context)
    lm_d_model: int = 64  # ours (the research note proposes d = 128: the full grid's size)
    lm_layers: int = 2  # research note: 2 layers
    lm_steps: int = 300  # ours: ~25 s of one CPU core
    lm_batch: int = 16  # ours
    lm_context: int = 128  # ours: = prompt_len + gen_len, so decoding stays in-distribution

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        parts, n = [], 0
        while n < self.n_train_chars:
            parts.append(document(rng))
            n += len(parts[-1])
        train = "".join(parts)
        val = "".join(document(rng) for _ in range(100))
        prompts = []
        while len(prompts) < self.n_prompts:
            doc = document(rng)
            if len(doc) >= self.prompt_len + 8:  # the prompt ends inside the body
                prompts.append(encode(doc[: self.prompt_len]))
        sha = hashlib.sha256(train.encode()).hexdigest()[:16]
        lm = {"d_model": self.lm_d_model, "layers": self.lm_layers, "steps": self.lm_steps,
              "batch": self.lm_batch, "context": self.lm_context}
        data = {"train": encode(train), "val": encode(val), "prompts": prompts,
                "gen_len": self.gen_len, "vocab_size": len(VOCAB), "corpus_sha": sha, "lm": lm}
        return Instance(data=data)
