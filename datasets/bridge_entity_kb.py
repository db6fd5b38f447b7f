"""A generated knowledge base of one-fact passages and 2-hop questions that need a bridge entity.

World: entities (name tokens) with relations to other entities ("E r B": the r of E is B) and
attributes with value tokens ("B a Z": the a of B is Z). Every fact is one 3-token passage. A
2-hop question names a subject E, a relation r and an attribute a, and asks "what is the a of
the r of E?". The answer Z sits in the passage "B a Z" of the bridge entity B, which only the
passage "E r B" names: the question shares just the (frequent) attribute word with the second-hop
passage, so question-only retrieval rarely finds it (the situation of the paper's Fig. 1).

Token layout of a reader sequence (length 4 + 4K + 7; K passage slots):

    [QRY a r E] [s p o SEP] x K [E r B SEP B a Z]
     question    passages         response: a reasoning trace, bridge at 2 and 4, answer at 6

Empty passage slots are [PAD PAD PAD SEP]. The question and passages are the prompt (never
masked); the 7 response tokens are what the masked-diffusion reader denoises.

The test world is a fresh random KB per seed (``n_kb`` entities): its facts never occur in
training, so the answer can only come from the passages in the context. The training set (one
per ``train_seed``, shared by every test world, as the paper reads every benchmark with one
fine-tuned model) is ``n_train`` questions over random training worlds built like the test
world, whose contexts are what the arms retrieve: nothing (``p_empty``), BM25 on the question
(``p_question``), BM25 on the question plus the bridge and a random value word, a noisy SARDI-like
draft (``p_bridge``), or the gold passages (``p_oracle``), shuffled over the slots: the reader
learns to read and copy, and to stay unconfident when evidence is missing. (Hand-made
distractors that mentioned the bridge let an earlier reader learn a shortcut, "the bridge is the
entity named most often", that fails on retrieved contexts.)

Returns ``Instance(data, truth)``: data holds the corpus (passages), test questions, training
sequences and, for an oracle arm only, the gold passage ids (what a perfect retriever returns);
truth holds the answers, bridges and gold ids.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

PAD, MASK, SEP, QRY = 0, 1, 2, 3
N_SPECIAL = 4
Q_LEN, P_LEN, R_LEN = 4, 4, 7  # question, passage slot, response lengths
BRIDGE_POS, ANSWER_POS = (2, 4), 6  # positions inside the response


@dataclass(frozen=True)
class Vocab:
    n_relations: int = 6
    n_attributes: int = 6
    n_values: int = 20
    n_entities: int = 200

    @property
    def rel0(self) -> int:
        return N_SPECIAL

    @property
    def att0(self) -> int:
        return self.rel0 + self.n_relations

    @property
    def val0(self) -> int:
        return self.att0 + self.n_attributes

    @property
    def ent0(self) -> int:
        return self.val0 + self.n_values

    @property
    def size(self) -> int:
        return self.ent0 + self.n_entities


def seq_len(k: int) -> int:
    return Q_LEN + P_LEN * k + R_LEN


def response_start(k: int) -> int:
    return Q_LEN + P_LEN * k


def encode(question: np.ndarray, passages: np.ndarray, k: int, response=None) -> np.ndarray:
    """One reader sequence: question (4,), passages (m <= k, 3), response (7,) or all MASK."""
    x = np.full(seq_len(k), PAD, dtype=np.int64)
    x[:Q_LEN] = question
    for i in range(k):
        s = Q_LEN + P_LEN * i
        if i < len(passages):
            x[s:s + 3] = passages[i]
        x[s + 3] = SEP
    x[response_start(k):] = MASK if response is None else response
    return x


def response_of(question: np.ndarray, bridge: int, answer: int) -> np.ndarray:
    _, a, r, e = question
    return np.array([e, r, bridge, SEP, bridge, a, answer], dtype=np.int64)


def make_kb(v: Vocab, n_kb: int, rel_per: int, att_per: int, rng: np.random.Generator):
    """A random world: passages (P, 3) [subject, relation-or-attribute, object-or-value]."""
    ents = rng.choice(v.n_entities, n_kb, replace=False) + v.ent0  # (n_kb,)
    facts = []
    for e in ents:
        for r in rng.choice(v.n_relations, rel_per, replace=False):
            facts.append((e, v.rel0 + r, rng.choice(ents[ents != e])))
        for a in rng.choice(v.n_attributes, att_per, replace=False):
            facts.append((e, v.att0 + a, v.val0 + rng.integers(v.n_values)))
    return np.array(facts, dtype=np.int64)


def two_hop_questions(v: Vocab, passages: np.ndarray, n: int, rng: np.random.Generator):
    """``n`` questions (distinct (E, r, a) when possible) with their bridge, answer, gold ids."""
    is_rel = passages[:, 1] < v.att0
    rel_ids = np.flatnonzero(is_rel)
    att_of = {}
    for i in np.flatnonzero(~is_rel):
        att_of.setdefault(int(passages[i, 0]), []).append(int(i))
    qs, bridges, answers, gold = [], [], [], []
    for i in rng.permutation(np.repeat(rel_ids, 1 + n // max(1, len(rel_ids))))[:n]:
        e, r, b = passages[i]
        j = att_of[int(b)][rng.integers(len(att_of[int(b)]))]
        qs.append((QRY, passages[j, 1], r, e))
        bridges.append(b)
        answers.append(passages[j, 2])
        gold.append((i, j))
    return (np.array(qs, dtype=np.int64), np.array(bridges), np.array(answers),
            np.array(gold, dtype=np.int64))


def training_sequences(v: Vocab, n: int, k: int, mix: tuple[float, float, float, float],
                       n_kb: int, rel_per: int, att_per: int,
                       rng: np.random.Generator) -> np.ndarray:
    """(n, T) sequences from random training worlds built like the test world. Each question's
    context is, with the probabilities ``mix``: empty; BM25 top-K of the question; BM25 top-K of
    the question plus the bridge and a random value word (a noisy draft); the gold passages
    filled with the question's BM25 ranking. Slots are shuffled."""
    from claimbench.baselines.bm25_retrieval import BM25Retriever, words

    out = np.empty((n, seq_len(k)), dtype=np.int64)
    cum = np.cumsum(mix) / np.sum(mix)
    t = 0
    while t < n:
        passages = make_kb(v, n_kb, rel_per, att_per, rng)
        bm25 = BM25Retriever([words(p) for p in passages])
        qs, bridges, answers, gold = two_hop_questions(v, passages, min(100, n - t), rng)
        for q, b, z, g in zip(qs, bridges, answers, gold):
            kind = int(np.searchsorted(cum, rng.random(), side="right"))
            qw = words(q[1:])
            if kind == 0:
                ids = np.zeros(0, dtype=np.int64)
            elif kind == 1:
                ids = bm25.top_k(qw, k)
            elif kind == 2:
                ids = bm25.top_k(qw + words([b, v.val0 + rng.integers(v.n_values)]), k)
            else:
                ids = np.concatenate([g, bm25.top_k(qw, k - len(g), exclude=g)])
            ids = ids[rng.permutation(len(ids))]
            out[t] = encode(q, passages[ids], k, response_of(q, b, z))
            t += 1
    return out


@functools.lru_cache(maxsize=2)
def _train_set(v: Vocab, n: int, k: int, mix: tuple, n_kb: int, rel_per: int, att_per: int,
               train_seed: int) -> np.ndarray:
    return training_sequences(v, n, k, mix, n_kb, rel_per, att_per,
                              np.random.default_rng([train_seed, 1]))


@dataclass
class BridgeEntityKB(Dataset):
    """A fresh random KB per seed, 2-hop test questions over it, and the reader's training set."""

    name: ClassVar[str] = "bridge_entity_kb"

    n_kb: int = 60  # ours: entities in the test world (corpus = n_kb * (rel_per + att_per))
    rel_per: int = 2  # ours: relations per entity
    att_per: int = 2  # ours: attributes per entity
    n_test: int = 100  # ours: 2-hop test questions per world
    k: int = 7  # SARDI code config.py: retrieve_top_k 7 (K), the reader's passage slots
    n_train: int = 20000  # ours: training questions (200 training worlds of 100)
    p_empty: float = 0.1  # ours: training context empty (the no-retrieval arm's input)
    p_question: float = 0.35  # ours: ... BM25 top-K of the question
    p_bridge: float = 0.35  # ours: ... BM25 top-K of question + bridge + a random value word
    p_oracle: float = 0.2  # ours: ... gold passages + question BM25
    n_relations: int = 6  # ours
    n_attributes: int = 6  # ours
    n_values: int = 20  # ours
    n_entities: int = 200  # ours: entity-name tokens shared by training and test worlds
    train_seed: int = 0  # ours: one training set (and one reader) for every test world

    def vocab(self) -> Vocab:
        return Vocab(self.n_relations, self.n_attributes, self.n_values, self.n_entities)

    def make(self, seed: int) -> Instance:
        v = self.vocab()
        mix = (self.p_empty, self.p_question, self.p_bridge, self.p_oracle)
        train = _train_set(v, self.n_train, self.k, mix, self.n_kb, self.rel_per, self.att_per,
                           self.train_seed)  # (n_train, T), shared by every seed
        rng = np.random.default_rng(seed)
        passages = make_kb(v, self.n_kb, self.rel_per, self.att_per, rng)  # (P, 3)
        qs, bridges, answers, gold = two_hop_questions(v, passages, self.n_test, rng)
        prompt = np.zeros(train.shape, dtype=bool)
        prompt[:, :response_start(self.k)] = True
        data = {"train": train, "train_prompt": prompt, "passages": passages, "questions": qs,
                "k": self.k, "vocab_size": v.size, "vocab": v,
                # what a perfect retriever returns: used by oracle arms only
                "oracle_passages": gold}
        truth = {"answers": answers, "bridges": bridges, "gold": gold}
        return Instance(data=data, truth=truth)
