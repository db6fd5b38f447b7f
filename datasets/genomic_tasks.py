"""Generated DNA-sequence classification tasks in 13 functional categories, each with a known
generative rule (a stand-in for GENEB's 100 real tasks in 13 categories, arXiv 2606.04525).

A sequence is an int array over {0: A, 1: C, 2: G, 3: T}. Every task is binary and balanced
(label 1 = the "functional" class). Each category plants one kind of signal, so which frozen
featuriser can see it differs by category (the reason rankings may differ):

  tf_binding        a motif sampled from a random position weight matrix, at a random place
  enhancer_grammar  two motifs in both classes; label 1 has them adjacent (1-base gap),
                    label 0 at a random larger distance
  splice_site       a donor-like consensus at the centre (label 1) vs a bare GT there (label 0)
  gc_content        GC probability 0.5 + delta (1) vs 0.5 - delta (0)
  species_markov    two random order-2 Markov chains ("species")
  strand_motif      a motif on either strand (1) vs the same bases shuffled (0)
  promoter_position a TATA-like box at a fixed distance from the 3' end (1) vs anywhere (0)
  regional_composition  first half GC-rich and second half AT-rich (1) or the reverse (0)
  tandem_repeat     a short unit repeated several times (1) vs none (0)
  cpg_island        CpG-enriched (1) vs CpG-depleted (0) order-1 chains of equal GC content
  variant_effect    an intact motif (1) vs the motif with one disrupting substitution (0)
  nucleosome_phase  A/T enriched at a fixed 10-bp phase (1) vs background (0)
  coding_potential  codons from a random codon-usage table, in frame (1) vs an order-0 chain of
                    the same base composition (0)

``data`` holds, per task, the training and test sequences with their labels: the GENEB protocol
scores featurisers on labelled test sets, so test labels are part of what the protocol sees.
``truth`` holds each task's generative rule (category and parameters), which no method reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

CATEGORIES = ("tf_binding", "enhancer_grammar", "splice_site", "gc_content", "species_markov",
              "strand_motif", "promoter_position", "regional_composition", "tandem_repeat",
              "cpg_island", "variant_effect", "nucleosome_phase", "coding_potential")
COMP = np.array([3, 2, 1, 0])  # complement of A, C, G, T


def revcomp(s: np.ndarray) -> np.ndarray:
    return COMP[s[::-1]]


def background(rng, n: int, L: int, gc: float = 0.5) -> np.ndarray:
    p = np.array([1 - gc, gc, gc, 1 - gc]) / 2.0
    return rng.choice(4, size=(n, L), p=p)  # (n, L)


def random_pwm(rng, width: int, conc: float = 0.3) -> np.ndarray:
    return rng.dirichlet(np.full(4, conc), size=width)  # (width, 4)


def sample_pwm(rng, pwm: np.ndarray) -> np.ndarray:
    cum = np.cumsum(pwm, axis=1)  # (w, 4)
    u = rng.random(pwm.shape[0])[:, None]
    return np.minimum((u > cum).sum(axis=1), 3)  # (w,)


def markov_chain(rng, P: np.ndarray, order: int, n: int, L: int) -> np.ndarray:
    """n sequences of length L from an order-``order`` chain P of shape (4**order, 4)."""
    X = rng.integers(0, 4, size=(n, L))  # (n, L); the first ``order`` bases stay uniform
    cum = np.cumsum(P, axis=1)  # (4**order, 4)
    for t in range(order, L):
        ctx = np.zeros(n, dtype=int)
        for j in range(order):
            ctx = ctx * 4 + X[:, t - order + j]
        u = rng.random(n)[:, None]
        X[:, t] = np.minimum((u > cum[ctx]).sum(axis=1), 3)
    return X


def _plant(X: np.ndarray, rows, pos, motif: np.ndarray) -> None:
    for r, p in zip(rows, pos):
        X[r, p:p + len(motif)] = motif


# -- one generator per category: (rng, n, L) -> (X (n, L), y (n,), rule dict) -----------------
def _tf_binding(rng, n, L):
    pwm = random_pwm(rng, 8)
    X, y = background(rng, n, L), np.arange(n) % 2
    for r in np.flatnonzero(y):
        p = rng.integers(0, L - 8)
        X[r, p:p + 8] = sample_pwm(rng, pwm)
    return X, y, {"pwm": pwm}


def _enhancer_grammar(rng, n, L):
    a, b = rng.integers(0, 4, 6), rng.integers(0, 4, 6)
    X, y = background(rng, n, L), np.arange(n) % 2
    for r in range(n):
        gap = 1 if y[r] else rng.integers(10, 30)
        p = rng.integers(0, L - 12 - gap)
        X[r, p:p + 6] = a
        X[r, p + 6 + gap:p + 12 + gap] = b
    return X, y, {"a": a, "b": b, "gap": 1}


def _splice_site(rng, n, L):
    # a random 9-base donor consensus with its GT at offsets 3-4, sampled with 15% noise
    cons = rng.integers(0, 4, 9)
    cons[3], cons[4] = 2, 3
    X, y = background(rng, n, L), np.arange(n) % 2
    c = L // 2 - 4
    for r in range(n):
        if y[r]:
            site = np.where(rng.random(9) < 0.15, rng.integers(0, 4, 9), cons)
            site[3], site[4] = 2, 3
            X[r, c:c + 9] = site
        else:
            X[r, c + 3:c + 5] = (2, 3)
    return X, y, {"consensus": cons, "centre": c}


def _gc_content(rng, n, L):
    delta = rng.uniform(0.04, 0.08)
    y = np.arange(n) % 2
    X = np.where(y[:, None] == 1, background(rng, n, L, 0.5 + delta),
                 background(rng, n, L, 0.5 - delta))
    return X, y, {"delta": delta}


def _species_markov(rng, n, L):
    P = [rng.dirichlet(np.full(4, 4.0), size=16) for _ in range(2)]  # (16, 4) each
    y = np.arange(n) % 2
    X = np.empty((n, L), dtype=int)
    for c in (0, 1):
        X[y == c] = markov_chain(rng, P[c], 2, int((y == c).sum()), L)
    return X, y, {"P": P}


def _strand_motif(rng, n, L):
    m = rng.integers(0, 4, 8)
    X, y = background(rng, n, L), np.arange(n) % 2
    for r in range(n):
        p = rng.integers(0, L - 8)
        if y[r]:
            X[r, p:p + 8] = m if rng.random() < 0.5 else revcomp(m)
        else:
            X[r, p:p + 8] = rng.permutation(m)
    return X, y, {"motif": m}


def _promoter_position(rng, n, L):
    box = np.array([3, 0, 3, 0, 0, 0])  # TATAAA
    X, y = background(rng, n, L), np.arange(n) % 2
    fixed = L - 30
    for r in range(n):
        p = fixed if y[r] else rng.integers(0, L - 6)
        X[r, p:p + 6] = box
    return X, y, {"box": box, "position": fixed}


def _regional_composition(rng, n, L):
    delta = rng.uniform(0.12, 0.2)
    y = np.arange(n) % 2
    h = L // 2
    hi, lo = background(rng, n, h, 0.5 + delta), background(rng, n, L - h, 0.5 - delta)
    X = np.concatenate([hi, lo], axis=1)  # (n, L)
    X[y == 0] = X[y == 0][:, ::-1]
    return X, y, {"delta": delta}


def _tandem_repeat(rng, n, L):
    unit = rng.integers(0, 4, rng.integers(2, 4))
    reps = 5
    X, y = background(rng, n, L), np.arange(n) % 2
    rep = np.tile(unit, reps)
    for r in np.flatnonzero(y):
        p = rng.integers(0, L - len(rep))
        X[r, p:p + len(rep)] = rep
    return X, y, {"unit": unit, "reps": reps}


def _cpg_island(rng, n, L):
    # order-1 chains with equal base composition; P(G | C) raised (1) or lowered (0)
    eps = rng.uniform(0.1, 0.15)
    y = np.arange(n) % 2
    X = np.empty((n, L), dtype=int)
    for c, s in ((1, 1.0), (0, -1.0)):
        P = np.full((4, 4), 0.25)
        P[1] = [0.25, 0.25, 0.25 + s * eps, 0.25 - s * eps]  # from C: G up/down, T compensates
        P[3] = [0.25, 0.25, 0.25 - s * eps, 0.25 + s * eps]  # from T: keeps G and T balanced
        X[y == c] = markov_chain(rng, P, 1, int((y == c).sum()), L)
    return X, y, {"eps": eps}


def _variant_effect(rng, n, L):
    m = rng.integers(0, 4, 8)
    k = rng.integers(2, 6)
    mut = m.copy()
    mut[k] = (m[k] + rng.integers(1, 4)) % 4
    X, y = background(rng, n, L), np.arange(n) % 2
    for r in range(n):
        p = rng.integers(0, L - 8)
        X[r, p:p + 8] = m if y[r] else mut
    return X, y, {"motif": m, "mutated": mut}


def _nucleosome_phase(rng, n, L):
    phase = rng.integers(0, 10)
    X, y = background(rng, n, L), np.arange(n) % 2
    sites = np.arange(phase, L - 1, 10)
    for r in np.flatnonzero(y):
        hit = sites[rng.random(len(sites)) < 0.6]
        X[r, hit] = 0  # A
        X[r, hit + 1] = 0  # AA dinucleotide at the phase
    return X, y, {"phase": phase}


def _coding_potential(rng, n, L):
    usage = rng.dirichlet(np.full(64, 0.5))
    for stop in (48, 50, 56):  # TAA, TAG, TGA (base-4 index of the codon)
        usage[stop] = 0.0
    usage /= usage.sum()
    ncod = L // 3
    y = np.arange(n) % 2
    X = background(rng, n, L)
    codons = rng.choice(64, size=(n, ncod), p=usage)  # (n, ncod)
    coded = np.stack([codons // 16, (codons // 4) % 4, codons % 4], axis=2).reshape(n, -1)
    X[y == 1, :3 * ncod] = coded[y == 1]
    comp = np.bincount(coded[y == 1].ravel(), minlength=4) / coded[y == 1].size
    X[y == 0] = rng.choice(4, size=(int((y == 0).sum()), L), p=comp)
    return X, y, {"usage": usage}


GENERATORS = {
    "tf_binding": _tf_binding, "enhancer_grammar": _enhancer_grammar,
    "splice_site": _splice_site, "gc_content": _gc_content, "species_markov": _species_markov,
    "strand_motif": _strand_motif, "promoter_position": _promoter_position,
    "regional_composition": _regional_composition, "tandem_repeat": _tandem_repeat,
    "cpg_island": _cpg_island, "variant_effect": _variant_effect,
    "nucleosome_phase": _nucleosome_phase, "coding_potential": _coding_potential,
}


def make_task(rng, category: str, n_train: int, n_test: int, L: int) -> tuple[dict, dict]:
    X, y, rule = GENERATORS[category](rng, n_train + n_test, L)
    perm = rng.permutation(n_train + n_test)
    X, y = X[perm].astype(np.int8), y[perm].astype(int)
    data = {"category": category, "x_train": X[:n_train], "y_train": y[:n_train],
            "x_test": X[n_train:], "y_test": y[n_train:]}
    return data, {"category": category, **rule}


@dataclass
class GenomicTaskSuite(Dataset):
    """``tasks_per_category`` generated tasks in each of the first ``n_categories`` categories."""

    name: ClassVar[str] = "genomic_tasks"
    n_categories: int = 13  # GENEB: 13 functional categories (abstract)
    tasks_per_category: int = 8  # GENEB: 100 tasks / 13 categories ~ 7.7 (abstract)
    seq_len: int = 100  # ours (GENEB's tasks have their own lengths, often 200-1000 bp)
    n_train: int = 256  # ours, per task (balanced); GENEB's tasks have their own sizes
    n_test: int = 256  # ours, per task

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        tasks, rules = [], []
        for cat in CATEGORIES[:self.n_categories]:
            for _ in range(self.tasks_per_category):
                d, r = make_task(rng, cat, self.n_train, self.n_test, self.seq_len)
                tasks.append(d)
                rules.append(r)
        return Instance(data={"tasks": tasks}, truth={"rules": rules})
