"""Real English-and-code text with no network: the help topics that ship with CPython.

``pydoc_data.topics.topics`` holds the language reference's help texts (about 465k
characters, 79 topics in CPython 3.11; the exact text varies a little between Python
versions, so every cell records ``corpus_sha``). The split is deterministic: every
``val_every``-th paragraph goes to validation, the rest to training (:func:`split_text`).

Tokenisation: ``level="char"`` maps characters to ids (the vocabulary is the training split's
characters plus one id for characters only validation has); ``level="bpe"`` trains a
byte-level BPE with the maintained ``tokenizers`` library on the training split only.

The corpus is fixed; the seed of :meth:`PythonDocsText.make` changes nothing in the data (a
cell's seed varies the model's initialisation and batches).
"""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

LEVELS = ("char", "bpe")


@functools.cache
def topics() -> tuple[tuple[str, str], ...]:
    from pydoc_data.topics import topics as t

    return tuple(sorted(t.items()))


def split_text(val_every: int = 10) -> tuple[str, str]:
    """(train, validation) text. The topics (sorted by name) are cut into paragraphs (blank-line
    separated) and every ``val_every``-th paragraph goes to validation: about 1/val_every of
    the text, drawn from every topic, never a continuation of a training paragraph."""
    if val_every < 2:
        raise ValueError(f"val_every={val_every}: need >= 2 so that training keeps some text")
    paras = [p for _, text in topics() for p in text.split("\n\n") if p.strip()]
    train = "\n\n".join(p for i, p in enumerate(paras) if i % val_every != val_every - 1)
    val = "\n\n".join(p for i, p in enumerate(paras) if i % val_every == val_every - 1)
    return train, val


def char_encode(train: str, val: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    vocab = sorted(set(train)) + ["<unk>"]
    index = {c: i for i, c in enumerate(vocab)}
    unk = len(vocab) - 1
    enc = lambda s: np.fromiter((index.get(c, unk) for c in s), dtype=np.int64, count=len(s))  # noqa: E731
    return enc(train), enc(val), vocab


@functools.cache
def bpe_tokenizer(vocab_size: int, val_every: int = 10):
    """A byte-level BPE tokenizer (``tokenizers``) trained on the training split."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    train, _ = split_text(val_every)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator([train], trainer=trainer)
    return tok


@dataclass
class PythonDocsText(Dataset):
    """Train/validation token arrays from CPython's help topics."""

    name: ClassVar[str] = "python_docs_text"
    level: str = "char"  # "char" or "bpe"
    bpe_vocab: int = 512  # BPE vocabulary size (level="bpe")
    val_every: int = 10  # every 10th paragraph is validation (about 10% of the text)

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level={self.level!r}; valid: {LEVELS}")

    def make(self, seed: int) -> Instance:
        train, val = split_text(self.val_every)
        if self.level == "char":
            tr, va, vocab = char_encode(train, val)
        else:
            tok = bpe_tokenizer(self.bpe_vocab, self.val_every)
            tr = np.asarray(tok.encode(train).ids, dtype=np.int64)
            va = np.asarray(tok.encode(val).ids, dtype=np.int64)
            vocab = [tok.id_to_token(i) for i in range(tok.get_vocab_size())]
        sha = hashlib.sha256((train + "\x00" + val).encode()).hexdigest()[:16]
        data = {"train": tr, "val": va, "vocab": vocab, "vocab_size": len(vocab),
                "corpus_sha": sha, "level": self.level}
        return Instance(data=data)
