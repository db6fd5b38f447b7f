"""RNA families folded by ViennaRNA: (2-D layout coordinates, native sequence) pairs for inverse
design.

Generation (seeded, ``numpy.random.default_rng(seed)``):

1. ``n_families`` consensus sequences, length uniform in [len_lo, len_hi], drawn i.i.d. uniform
   over ACGU and redrawn until their ViennaRNA MFE structure (``RNA.fold``) pairs at least
   ``min_paired`` of the positions.
2. Members of a family: the consensus with each position substituted, with probability
   ``mutation``, by another nucleotide; each member is folded by ViennaRNA (its own MFE
   structure, not the consensus's) and redrawn until it pairs at least ``min_paired``.
   Families stand in for the shared sequence context that an RNA foundation model captures.
3. The "tertiary structure" is ViennaRNA's 2-D layout of the member's MFE structure
   (``RNA.simple_xy_coordinates``), in units of the backbone step, randomly rotated, with
   Gaussian noise of s.d. ``coord_noise`` per coordinate. The pairing list is not an input of the
   learned models; the dot-bracket target is given as the design target (classical inverse
   folding needs it; bp-F1 is scored against it).

4. ``pretrain_per_family`` further members of every family, drawn as in 2 but from a separate
   generator (``default_rng([seed, 1])``, so train and test are those of the same seed without
   them), given as sequences only: the unlabelled corpus a sequence "foundation model" is
   pretrained on, disjoint from the design models' training set (issue 30).

``data`` = {"train": [{"coords", "seq"}], "test": [{"coords", "structure"}], "pretrain": [seq]};
the test members' native sequences go to ``truth`` only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

NUC = "ACGU"


def paired_fraction(structure: str) -> float:
    return (len(structure) - structure.count(".")) / max(len(structure), 1)


def base_pairs(structure: str) -> set[tuple[int, int]]:
    """Set of (i, j), i < j, of a pseudoknot-free dot-bracket string."""
    stack, pairs = [], set()
    for i, ch in enumerate(structure):
        if ch == "(":
            stack.append(i)
        elif ch == ")":
            pairs.add((stack.pop(), i))
    return pairs


def bp_f1(predicted: str, target: str) -> float:
    """F1 of the base pairs of ``predicted`` against ``target`` (1 when both have none)."""
    p, t = base_pairs(predicted), base_pairs(target)
    if not p and not t:
        return 1.0
    tp = len(p & t)
    return 0.0 if tp == 0 else 2 * tp / (len(p) + len(t))


def fold(seq: str) -> str:
    import RNA

    return RNA.fold(seq)[0]


def layout(structure: str, rng: np.random.Generator, noise: float) -> np.ndarray:
    """(L, 2) rotated, noisy 2-D layout in backbone-step units."""
    import RNA

    n = len(structure)
    pts = RNA.simple_xy_coordinates(structure)
    xy = np.array([[pts[i].X, pts[i].Y] for i in range(n)], dtype=float)  # (L, 2)
    xy = (xy - xy.mean(0)) / 15.0  # simple_xy places consecutive bases 15 units apart
    a = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return xy @ rot.T + rng.normal(0.0, noise, xy.shape)


def _random_seq(rng: np.random.Generator, n: int) -> str:
    return "".join(NUC[k] for k in rng.integers(0, 4, n))


def _mutate(rng: np.random.Generator, seq: str, rate: float) -> str:
    out = []
    for ch in seq:
        if rng.random() < rate:
            out.append(NUC[(NUC.index(ch) + rng.integers(1, 4)) % 4])
        else:
            out.append(ch)
    return "".join(out)


@dataclass
class FoldedRNAFamilies(Dataset):
    name: ClassVar[str] = "folded_rna"
    n_families: int = 8  # ours: stands in for RDesign's RNA families
    train_per_family: int = 16  # ours (the note: 3k train sequences at paper-proxy scale)
    test_per_family: int = 4  # ours
    len_lo: int = 30  # the issue: short targets, 30-60 nt
    len_hi: int = 50  # ours, inside the range, for CPU speed
    mutation: float = 0.1  # ours: within-family substitution rate
    min_paired: float = 0.3  # research note: keep structures with >= 30% paired positions
    coord_noise: float = 0.1  # ours: "layout coordinates plus noise" (note), backbone-step units
    pretrain_per_family: int = 64  # ours: 4x train_per_family, the teacher's unlabelled corpus

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        train, test, truth = [], [], {"seq": [], "structure": [], "family": []}
        consensus = []
        for fam in range(self.n_families):
            n = int(rng.integers(self.len_lo, self.len_hi + 1))
            cons = _random_seq(rng, n)
            for _ in range(200):
                if paired_fraction(fold(cons)) >= self.min_paired:
                    break
                cons = _random_seq(rng, n)
            consensus.append(cons)
            for m in range(self.train_per_family + self.test_per_family):
                for _ in range(200):
                    seq = _mutate(rng, cons, self.mutation)
                    st = fold(seq)
                    if paired_fraction(st) >= self.min_paired:
                        break
                xy = layout(st, rng, self.coord_noise)
                if m < self.train_per_family:
                    train.append({"coords": xy, "seq": seq})
                else:
                    test.append({"coords": xy, "structure": st})
                    truth["seq"].append(seq)
                    truth["structure"].append(st)
                    truth["family"].append(fam)
        prng = np.random.default_rng([seed, 1])
        pretrain = [self._member(prng, cons) for cons in consensus
                    for _ in range(self.pretrain_per_family)]
        return Instance(data={"train": train, "test": test, "pretrain": pretrain}, truth=truth)

    def _member(self, rng: np.random.Generator, cons: str) -> str:
        for _ in range(200):
            seq = _mutate(rng, cons, self.mutation)
            if paired_fraction(fold(seq)) >= self.min_paired:
                break
        return seq
