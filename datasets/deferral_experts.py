"""Multi-expert learning-to-defer data: a classification set plus synthetic specialist experts.

Each instance is a K-class problem (``base``) and J = ``num_experts`` simulated experts whose
predictions on every training and test point are drawn once, as in the synthetic-expert
protocol of the multi-expert L2D literature (Verma, Barrejon & Nalisnick 2023; the PiCCE
paper's "animal expert", "overlapped" and "varying-accuracy" experts):

* an expert j has a specialty S_j (a set of classes) and an accuracy a_j. On a point whose
  label y is in S_j it answers y with probability a_j, otherwise a class drawn uniformly
  from the K - 1 wrong ones (so its accuracy on S_j is a_j exactly in expectation). Off its
  specialty it answers a class drawn uniformly from all K (accuracy 1/K).
* ``setting`` fixes the specialties (blocks = ``np.array_split(range(K), J)``):
    disjoint     S_j = block j (every class has exactly one specialist), a_j = expert_acc;
    overlapping  S_j = block j + block j+1 (cyclic; every class has two specialists when
                 J >= 2), a_j = expert_acc;
    varied       S_j = the first ceil(K/2) classes for every j (a shared "animal" region),
                 a_j evenly spaced from expert_acc down to acc_low;
    pool         S_j = the same shared region for every j, a_j = expert_acc for every j: a
                 pool of J equally good specialists (the paper's "animal expert" repeated), so
                 every added expert is one more expert correct on the same points. In the
                 other settings the number of experts correct on a point grows slowly with J
                 (disjoint: at most one, whatever J), and that number is what splits the
                 cross-entropy surrogate's mass away from the class outputs (issue 30).

Bases: ``digits`` (scikit-learn's 8x8 handwritten digits, K = 10, pixels / 16 plus Gaussian
noise of std ``noise`` so that the classifier is not near-perfect, then standardised on the
training split) and ``gmm`` (K isotropic unit-variance Gaussians in d dimensions with means
drawn N(0, sep^2 I)).

For ``gmm`` the truth also holds the Bayes quantities on the test points: the class posterior
P(y | x) and each expert's P(m_j = y | x) (``DeferralRecovery``: the pool at larger n_train).

``data`` is what a learner sees (training inputs, labels and expert predictions; test inputs);
``truth`` is for metrics (test labels and test expert predictions, the specialties).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

BASES = ("digits", "gmm")
SETTINGS = ("disjoint", "overlapping", "varied", "pool")


def specialties(setting: str, n_classes: int, n_experts: int) -> list[np.ndarray]:
    """The class set of each expert (sorted int arrays)."""
    if setting not in SETTINGS:
        raise ValueError(f"setting {setting!r} not in {SETTINGS}")
    if not 1 <= n_experts <= n_classes:
        raise ValueError(f"need 1 <= num_experts <= K = {n_classes}, got {n_experts}")
    blocks = np.array_split(np.arange(n_classes), n_experts)
    if setting == "disjoint":
        return [b.copy() for b in blocks]
    if setting == "overlapping":
        if n_experts == 1:
            return [blocks[0].copy()]
        return [np.union1d(blocks[j], blocks[(j + 1) % n_experts]) for j in range(n_experts)]
    shared = np.arange(math.ceil(n_classes / 2))
    return [shared.copy() for _ in range(n_experts)]


def expert_accuracies(setting: str, n_experts: int, acc: float, acc_low: float) -> np.ndarray:
    """a_j on each expert's specialty: constant, or evenly spaced high -> low (``varied``)."""
    if setting not in SETTINGS:
        raise ValueError(f"setting {setting!r} not in {SETTINGS}")
    if setting == "varied":
        return np.linspace(acc, acc_low, n_experts) if n_experts > 1 else np.array([acc])
    return np.full(n_experts, float(acc))


def simulate_experts(y: np.ndarray, spec: list[np.ndarray], acc: np.ndarray, n_classes: int,
                     rng: np.random.Generator) -> np.ndarray:
    """Expert predictions (n, J) for labels y under the specialist model of the docstring."""
    n, n_exp = y.shape[0], len(spec)
    out = np.empty((n, n_exp), dtype=np.int64)
    for j in range(n_exp):
        inside = np.isin(y, spec[j])  # (n,)
        hit = rng.random(n) < acc[j]
        # A wrong answer: y + u (mod K) with u uniform on 1..K-1 is uniform over wrong classes.
        wrong = (y + rng.integers(1, n_classes, size=n)) % n_classes
        uniform = rng.integers(0, n_classes, size=n)
        out[:, j] = np.where(inside, np.where(hit, y, wrong), uniform)
    return out


@lru_cache(maxsize=1)
def _load_digits() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's digits, parsed once per process (a grid makes one instance per seed)."""
    from sklearn.datasets import load_digits

    d = load_digits()
    for a in (d.data, d.target):
        a.setflags(write=False)  # shared by every instance: never modified in place
    return d.data, d.target


def _digits(noise: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    data, target = _load_digits()
    x = data / 16.0 + noise * rng.standard_normal(data.shape)  # (1797, 64)
    return x, target.astype(np.int64)


def _gmm(n: int, n_classes: int, dim: int, sep: float,
         rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    means = sep * rng.standard_normal((n_classes, dim))  # (K, d)
    y = rng.integers(0, n_classes, size=n)
    return means[y] + rng.standard_normal((n, dim)), y, means


def gmm_posterior(x: np.ndarray, means: np.ndarray) -> np.ndarray:
    """P(y = k | x) of the mixture (uniform prior, identity covariance), rows of x raw."""
    z = -0.5 * ((x[:, None, :] - means[None]) ** 2).sum(-1)  # (n, K)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def expert_acc_given_x(posterior: np.ndarray, spec: list[np.ndarray],
                       acc: np.ndarray) -> np.ndarray:
    """P(m_j = y | x) = sum_k P(k | x) P(m_j = k | y = k): a_j on S_j, 1/K off it. (n, J)"""
    n_classes = posterior.shape[1]
    hit = np.full((n_classes, len(spec)), 1.0 / n_classes)  # (K, J)
    for j, s in enumerate(spec):
        hit[s, j] = acc[j]
    return posterior @ hit


@dataclass
class DeferralExperts(Dataset):
    """K-class data with J simulated specialist experts (see the module docstring)."""

    name: ClassVar[str] = "deferral_experts"

    base: str = "digits"  # our choice (paper: CIFAR-100 / ImageNet, not CPU-sized)
    setting: str = "varied"  # paper's "varying-accuracy synthetic expert" (Sec. 6)
    num_experts: int = 4  # our choice; the grids sweep 1..8
    expert_acc: float = 0.95  # our choice (research note): specialist accuracy
    acc_low: float = 0.75  # our choice: lowest accuracy in the ``varied`` setting
    test_frac: float = 0.4  # our choice: test share of the digits data
    noise: float = 0.3  # our choice: pixel noise std (pixels in [0, 1]); plain MLP ~85% test acc
    n_train: int = 2000  # gmm only (our choice)
    n_test: int = 2000  # gmm only (our choice)
    gmm_classes: int = 20  # research note's 20-class mixture
    gmm_dim: int = 10  # our choice
    gmm_sep: float = 1.2  # our choice: std of the component means; plain MLP ~82% test acc

    def make(self, seed: int) -> Instance:
        if self.base not in BASES:
            raise ValueError(f"base {self.base!r} not in {BASES}")
        rng = np.random.default_rng(seed)
        if self.base == "digits":
            x, y = _digits(self.noise, rng)
            n_classes = 10
            perm = rng.permutation(y.shape[0])
            n_te = int(round(self.test_frac * y.shape[0]))
            te, tr = perm[:n_te], perm[n_te:]
        else:
            n_classes = self.gmm_classes
            x, y, means = _gmm(self.n_train + self.n_test, n_classes, self.gmm_dim,
                               self.gmm_sep, rng)
            tr, te = np.arange(self.n_train), np.arange(self.n_train, self.n_train + self.n_test)
            post = gmm_posterior(x[te], means)  # (n_te, K), before standardising x
        mu, sd = x[tr].mean(0), x[tr].std(0) + 1e-8
        x = (x - mu) / sd
        spec = specialties(self.setting, n_classes, self.num_experts)
        acc = expert_accuracies(self.setting, self.num_experts, self.expert_acc, self.acc_low)
        m_tr = simulate_experts(y[tr], spec, acc, n_classes, rng)  # (n_tr, J)
        m_te = simulate_experts(y[te], spec, acc, n_classes, rng)  # (n_te, J)
        data = {"x_train": x[tr], "y_train": y[tr], "m_train": m_tr, "x_test": x[te],
                "n_classes": n_classes, "n_experts": self.num_experts}
        truth = {"y_test": y[te], "m_test": m_te, "specialties": spec, "expert_acc": acc,
                 "n_classes": n_classes}
        if self.base == "gmm":  # the Bayes quantities, known for the mixture only
            truth["posterior"] = post
            truth["expert_acc_x"] = expert_acc_given_x(post, spec, acc)  # (n_te, J)
        return Instance(data=data, truth=truth)


@dataclass
class DeferralRecovery(DeferralExperts):
    """The gmm pool of J = 4 specialists at larger training sizes (issue 30): the setting of
    the recovery and consistency checks, a dataset of its own so that its rows stay out of
    the checks that sweep the number of experts."""

    name: ClassVar[str] = "deferral_recovery"

    base: str = "gmm"
    setting: str = "pool"
    num_experts: int = 4
    n_train: int = 16000  # our choice; the grids sweep it
