"""LGA, the Learned Genetic Algorithm (Lange et al., GECCO 2023), trained the original way.

MetaDistill's second student here (c5, "various learnable optimizers"). As in the MetaDistill
code's ``optimizers/lga.py`` (read: ``LGA``, ``GradBasedLGA``, ``configs/lga_config.json``,
``configs/lga_d10_pop200_parentsoft_tau1.json``, ``scripts/train_metabbo_lga.py``), with the
archive size E equal to the population N and D_K = 16 (640 weights):

(1) parents: N draws with replacement from the archive (``LGA``: uniform indices;
    ``GradBasedLGA``, the distilled student: soft, a Gumbel-softmax of zero logits, tau 1);
(2) mutation-rate adaptation: features ``[z(f), rank(f), 1[f < best], z(s), minmax(s)]`` of the
    drawn parents (fitness f, mutation rate s), self-attention ``A = softmax(Q K^T / 4) V``,
    ``s_C = clip(exp(0.5 A W_sigma) s_P, s_min, s_max)``;
(3) children ``x_C = clip(x_P + s_C eps)``, evaluated;
(4) selection: features ``[z, rank]`` of children and parents computed jointly; cross-attention
    ``A_S = softmax(F_P W_QP (F_C W_KC)^T / 4) F_C W_VC``, logits
    ``A_S W_QS (F_C W_KS)^T / 4`` with a constant 1 appended for "keep the parent"; each archive
    slot is replaced by child j or kept by a categorical draw from the row's softmax
    (``GradBasedLGA``: straight-through hard Gumbel-softmax, tau 1).

Original training (``scripts/train_metabbo_lga.py``, the same defaults as the LES script):
MetaBBO, an outer CMA-ES (meta-population 16) over the weights clipped to [-1, 1], fitness
the per-task z-scored best value, median over tasks; ``train_les_metabbo``'s loop with the
LGA rollouts of one task run in lockstep over the meta-population (``run_lga_batch``).

Deviations:
1. Scale as LES's (``learned_optimizer_original.py``): population 32, 50 generations,
   20 meta-generations.
2. Mutation rates are in units of the box width: initial 0.01 x width, bounds
   [1e-6, 1] x width (the code: 0.1 and [1e-6, 10] on BBOB's [-5, 5], i.e. the same there),
   so that the training box [-100, 100] and the test box [-5, 5] are treated alike.
3. The distilled student's recurrent state (archive, mutation rates) is detached between
   generations, as the trainer detaches the population.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.learned_optimizer_original import cached_training

DK = 16
LGA_SHAPES = {"W_QP": (2, DK), "W_KC": (2, DK), "W_VC": (2, DK), "W_QS": (DK, DK), "W_KS": (2, DK),
              "W_QM": (5, DK), "W_KM": (5, DK), "W_VM": (5, DK), "W_sigma": (DK, 1)}
LGA_N_PARAMS = sum(int(np.prod(s)) for s in LGA_SHAPES.values())  # 640
SIGMA_INIT, SIGMA_MIN, SIGMA_MAX = 0.01, 1e-6, 1.0  # x box width (deviation 2)


def lga_unflatten(vec: np.ndarray) -> dict:
    out, i = {}, 0
    for k, s in LGA_SHAPES.items():
        n = int(np.prod(s))
        out[k] = np.asarray(vec[i:i + n], dtype=float).reshape(s)
        i += n
    return out


def _z(x: np.ndarray) -> np.ndarray:
    """z-score along the last axis with torch.std's unbiased estimate, clipped to [-5, 5]."""
    sd = np.maximum(x.std(-1, ddof=1, keepdims=True), 1e-8)
    return np.clip((x - x.mean(-1, keepdims=True)) / sd, -5.0, 5.0)


def _ranks(x: np.ndarray) -> np.ndarray:
    """Centred ranks in [-1/2, 1/2] along the last axis, best (lowest) = -1/2."""
    r = np.argsort(np.argsort(x, axis=-1, kind="stable"), axis=-1, kind="stable")
    return r / (x.shape[-1] - 1) - 0.5


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _stack(params: list[dict]) -> dict:
    return {k: np.stack([p[k] for p in params]) for k in LGA_SHAPES}  # (B, ...)


def mra_sigma(W: dict, fP: np.ndarray, sP: np.ndarray, best: np.ndarray, lo_s: float,
              hi_s: float) -> np.ndarray:
    """(2): children's mutation rates (B, N) from drawn parents' fitness / rates (B, N)."""
    s_norm = np.clip(2.0 * (sP - sP.min(-1, keepdims=True))
                     / (sP.max(-1, keepdims=True) - sP.min(-1, keepdims=True) + 1e-8) - 1.0, -1.0, 1.0)
    FM = np.stack([_z(fP), _ranks(fP), (fP < best[:, None]).astype(float), _z(sP), s_norm], -1)  # (B, N, 5)
    Q, K, V = (FM @ W[k] for k in ("W_QM", "W_KM", "W_VM"))  # (B, N, DK)
    A = _softmax(Q @ K.transpose(0, 2, 1) / math.sqrt(DK)) @ V  # (B, N, DK)
    delta = np.exp(0.5 * (A @ W["W_sigma"])[..., 0])  # (B, N)
    return np.clip(delta * sP, lo_s, hi_s)


def selection_probs(W: dict, fC: np.ndarray, fP: np.ndarray) -> np.ndarray:
    """(4): row-stochastic (B, E, N + 1): archive slot i takes child j, or keeps its parent (j = N)."""
    f_all = np.concatenate([fC, fP], -1)  # (B, 2N)
    F = np.stack([_z(f_all), _ranks(f_all)], -1)  # (B, 2N, 2)
    N = fC.shape[-1]
    FC, FP = F[:, :N], F[:, N:]
    QP, KC, VC = FP @ W["W_QP"], FC @ W["W_KC"], FC @ W["W_VC"]  # (B, N, DK)
    AS = _softmax(QP @ KC.transpose(0, 2, 1) / math.sqrt(DK)) @ VC  # (B, E, DK)
    QS, KS = AS @ W["W_QS"], FC @ W["W_KS"]
    logits = QS @ KS.transpose(0, 2, 1) / math.sqrt(DK)  # (B, E, N)
    return _softmax(np.concatenate([logits, np.ones(logits.shape[:2] + (1,))], -1))


def run_lga_batch(params: list[dict], f: Callable, dim: int, lower: float, upper: float,
                  popsize: int, budget: int, rng: np.random.Generator) -> dict:
    """The sampling LGA (1)-(4) for B weight sets in lockstep on ``f``; returns per-candidate
    best-so-far and final-archive best values (B,) and the best-so-far trace (G, B)."""
    B, N, width = len(params), popsize, upper - lower
    W = _stack(params)
    X = rng.uniform(lower, upper, (B, N, dim))  # (B, N, D) archive
    F = np.asarray(f(X.reshape(B * N, dim)), dtype=float).reshape(B, N)
    S = np.full((B, N), SIGMA_INIT * width)
    best = F.min(1)
    used, trace = N, [best.copy()]
    rows = np.arange(B)[:, None]
    while used + N <= budget:
        idx = rng.integers(0, N, (B, N))
        xP, fP, sP = X[rows, idx], F[rows, idx], S[rows, idx]
        sC = mra_sigma(W, fP, sP, best, SIGMA_MIN * width, SIGMA_MAX * width)
        xC = np.clip(xP + sC[..., None] * rng.standard_normal((B, N, dim)), lower, upper)
        fC = np.asarray(f(xC.reshape(B * N, dim)), dtype=float).reshape(B, N)
        used += N
        best = np.minimum(best, fC.min(1))
        M = selection_probs(W, fC, F)  # (B, E, N + 1)
        pick = (M.cumsum(-1) < rng.random((B, N, 1))).sum(-1)  # categorical draw per slot
        pick = np.minimum(pick, N)
        take = pick < N
        j = np.where(take, pick, 0)
        X = np.where(take[..., None], xC[rows, j], X)
        F = np.where(take, fC[rows, j], F)
        S = np.where(take, sC[rows, j], S)
        trace.append(best.copy())
    return {"best_f": best, "last_f": F.min(1), "best_trace": np.array(trace)}


def train_lga_metabbo(sample_tasks: Callable, popsize: int, generations: int, meta_popsize: int,
                      meta_generations: int, seed: int) -> tuple[dict, dict]:
    """MetaBBO for LGA (``train_les_metabbo``'s loop, LGA rollouts). Returns
    ({"final_mean": weights, "best_zscore": weights}, info)."""
    import cma

    rng = np.random.default_rng(seed)
    es = cma.CMAEvolutionStrategy(rng.uniform(0.0, 1.0, LGA_N_PARAMS), 0.5,
                                  {"popsize": meta_popsize, "bounds": [-1.0, 1.0],
                                   "seed": int(seed % 2**31) + 1, "verbose": -9, "verb_disp": 0,
                                   "verb_log": 0})
    best_score, best_vec, rollouts = math.inf, None, 0
    for _ in range(meta_generations):
        cands = [np.clip(np.asarray(c), -1.0, 1.0) for c in es.ask()]
        tasks = sample_tasks(rng)
        params = [lga_unflatten(v) for v in cands]
        raw = np.empty((len(tasks), len(cands)))  # (K, P)
        for k, (f, dim, lo, hi) in enumerate(tasks):
            raw[k] = run_lga_batch(params, f, dim, lo, hi, popsize, popsize * (generations + 1),
                                   rng)["best_f"]
            rollouts += len(cands)
        z = (raw - raw.mean(1, keepdims=True)) / (raw.std(1, ddof=1, keepdims=True) + 1e-8)
        score = np.median(z, axis=0)
        es.tell(cands, score.tolist())
        j = int(np.argmin(score))
        if score[j] < best_score:
            best_score, best_vec = float(score[j]), cands[j]
    return ({"final_mean": lga_unflatten(np.clip(np.asarray(es.mean), -1.0, 1.0)),
             "best_zscore": lga_unflatten(best_vec)}, {"rollouts": rollouts})


@dataclass
class LearnedGAOriginal(Method):
    """LGA meta-trained from scratch by MetaBBO (outer CMA-ES on the final best value)."""

    name: ClassVar[str] = "lga_original"
    popsize: int = 32  # code: 200; as LES (deviation 1)
    train_generations: int = 50  # code: 100
    meta_popsize: int = 16  # code: train_metabbo_lga.py --meta-popsize 16
    meta_generations: int = 20  # code: 200; as LES (deviation 1)
    selection: str = "final_mean"  # code: "best_zscore"; see learned_optimizer_original.py, deviation 4

    def applies_to(self, dataset) -> str | None:
        if getattr(dataset, "name", "") == "metabbo_control":
            return "LGA is judged on BBOB only (c5)"
        return None

    def run(self, data: dict, seed: int) -> dict:
        if self.selection not in ("final_mean", "best_zscore"):
            raise ValueError(f"unknown selection {self.selection!r}")
        weights, info = cached_training(self, data["train"], lambda: self.train(data["train"]),
                                        eval_only=("selection",))
        t0 = time.perf_counter()
        out = run_lga_batch([weights[self.selection]], data["f"], data["dim"], data["lower"],
                            data["upper"], self.popsize, data["budget"], np.random.default_rng(seed))
        return {"best_f": float(out["best_f"][0]), "last_f": float(out["last_f"][0]),
                "time_s": time.perf_counter() - t0, "train_time_s": info["train_time_s"],
                "train_rollouts": info["rollouts"],
                "traces": {"best_vs_evals": {"x": [float(self.popsize * (g + 1)) for g in range(len(out["best_trace"]))],
                                             "y": [float(v) for v in out["best_trace"][:, 0]]}}}

    def train(self, train: dict) -> tuple[dict, dict]:
        t0 = time.perf_counter()
        weights, info = train_lga_metabbo(train["sample_tasks"], self.popsize, self.train_generations,
                                          self.meta_popsize, self.meta_generations, train["seed"])
        info["train_time_s"] = time.perf_counter() - t0
        return weights, info
