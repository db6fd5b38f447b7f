"""MetaDistill: distilling classical optimizers' trajectories into a learnable optimizer.

Paper: "MetaDistill: Unlocking the Performance Ceiling for Pretrained Optimizers"
(Han, Xing, Wu, Zhang, Wang, Wang; ICML 2026 poster 62149, https://icml.cc/virtual/2026/poster/62149).
No arXiv version was found; the algorithm below follows the authors' public code
(github.com/Roki-Xing/MetaDistill: ``meta_trainers/distill_trainer.py``, ``utils.py``,
``scripts/collect_trajectories.py``, ``scripts/eval_compare_frameworks.py``,
``configs/distill_les.json``) and the abstract.

Student: LES (``baselines/learned_optimizer_original.py``, Eqs. (1)-(6) there).

Pretraining (distillation):
(1) Teachers. Each classical optimizer (here CMA-ES and DE/rand/1/bin) is run for G
    generations on ``E_t`` fresh instances of every training function; generation g of a
    run is stored as a Gaussian ``q_g = N(mu_g, Sigma_g)``: CMA-ES's own search
    distribution ``N(m, sigma^2 C)``, DE's population mean and covariance.
(2) Selection ("best" mode). The G generations are cut into intervals of ``interval``;
    in each interval the teacher whose best value at the interval's last generation is
    lowest supplies that stretch of the expert trajectory.
(3) Alignment ("next"). At generation g the student is compared with the expert's
    Gaussian at ``g_align = min(G - 1, ceil((g + 1) / interval) * interval - 1)``.
(4) Loss. The student's new population ``x_1..x_N`` is fitted by ``p = N(mean, cov)``;
    means are divided by ``max(|mu_p|_max, |mu_q|_max, 1)`` and covariances by
    ``max(|Sigma_p|_max, |Sigma_q|_max, 1)`` ("maxabs"), then
    ``kl = KL(p || q) / D`` is soft-clipped: ``kl`` if ``kl <= 10`` else ``10 (1 + log(kl / 10))``.
(5) Optimisation. In every epoch the student is rolled out from a random population on
    each training function (offsets of teacher epoch ``epoch mod E_t``); after every
    generation the loss averaged over the functions is back-propagated through that
    generation only (the state is detached), the gradient norm clipped to 1 and AdamW
    applied (weight decay 1e-3 on weights, none on biases).

Optional self-supervised test-time fine-tuning (SSFT, variant ``md_j<j>``):
(6) on the test task, after every generation, one Adam step (lr 1e-4) on
    ``(mean f(new population) - mean f(population j - 1 generations back)) / |the latter|``.

Deviations:
1. Scale: 2 teachers (CMA-ES, DE) instead of 7 (CMA-ES, PSO, GA, DE, JADE, SHADE, L-SHADE);
   population 32 (200), 50 generations (100), 4 teacher epochs (16), 16 student epochs (128),
   training dimension 5 (10). The learning rate is raised from 5e-4 to 5e-3 so that the
   product of learning rate and optimizer steps stays within a factor of two of the code's.
2. CMA-ES's Gaussian is ``N(m, sigma^2 C)``; the code stores ``sigma * C``.
3. Teachers are ranked by their best-so-far value at the interval's last generation (the
   code: the best value in that generation's population, the same for DE).
4. SSFT in the code differentiates the objective itself through the population (``f`` is a
   torch function). A black box has no gradient, so (6) uses the least-squares linear fit
   of ``f`` over the new population as ``grad f`` (one fit per generation, no extra evaluations).
5. The trainer's optional fitness term and diversity term (``-logdet`` of the student's
   covariance; the abstract's "diversity-preserving distillation") are off, as in the code's
   LES configuration ``configs/distill_les.json``; the KL to a full teacher covariance
   already penalises a collapsed student population.
6. The CMA-ES teacher repairs sampled points by clipping to the box (pycma's ``bounds`` in
   the code).
7. Control task (c6): the student distilled on the BBOB training set is run frozen on Acrobot
   neuro-evolution; the authors evaluate a separately distilled LES checkpoint there
   (``checkpoints/metadistill/control/les.pt``, training not documented; read:
   ``scripts/repro_control_bipedalwalker_acrobot.sh``, ``docs/MODEL_VARIANTS.md``,
   ``tasks/neuroevolution/``, ``scripts/run_neuroevo.py``). SSFT is not run there.
8. Second student (c5): LGA (``baselines/learned_ga_original.py``; read: the code's
   ``optimizers/lga.py`` ``LGA`` and ``GradBasedLGA``, ``configs/distill_lga.json``,
   ``configs/lga_d10_pop200_parentsoft_tau1.json``, the train loop of
   ``meta_trainers/distill_trainer.py``) is distilled by ``distill_lga``: the same teachers
   (the same seed, so the same expert trajectories as LES), loss, optimiser (torch AdamW,
   weight decay on every weight: LGA has no biases), clipping and schedule; the KL compares
   the archive LGA outputs after each generation. The code's objectives are torch functions,
   so its gradient also flows through the children's fitness into the selection features;
   ours are black boxes, so the gradient reaches the weights only through the children's
   positions (mutation rates) and the straight-through selection probabilities.

Initialisations and metric against the authors' code (issue 14):
- CMA-ES teacher: followed. The code's ``optimizers/cmaes.py`` starts CMA-ES at x0 ~ U(0, 1)^D
  with sigma0 ~ U(0, 1) (``numpy.random.rand()``), whatever the box; ``teacher_cma_init="unit"``
  does the same (sigma0 drawn from U(0.001, 1), as pycma needs sigma0 > 0). Our first version
  started at x0 ~ U(box), sigma0 = 0.2 x width (``teacher_cma_init="box"``). The code handles
  the box with pycma's ``bounds`` option; we clip-repair sampled points (deviation 6).
- DE teacher: its initial population is uniform in the box (the code's ``genRandomPop``).
- LES: the state at the start of a run (mean ~ U(box), sigma = 1.0 on [-5, 5], generation
  counter ~ U{0..2000}) is the code's ``les_config.json``/``_LESCore.reset``; the distilled
  student's weights start at PyTorch's default ``nn.Linear`` init, as the code's
  ``GradBasedLES`` (the 0.02-scaled ``param_init_scale`` of ``les_config.json`` applies to the
  gradient-free LES, whose weights MetaBBO's outer CMA-ES samples instead). The audit's
  further LES-initialisation difference could not be located in the time available.
- Metric: the code's curves plot the best fitness of each generation's population
  (``--curve best-gen``, its default), not the best so far; outputs carry both (``best_f``
  best-so-far, ``last_f`` the final population's best) and the claims use ``last_f``.

Mutants for foils (not the paper's method; the default mutant="" is MetaDistill bit for bit):
  ssft_ascent: SSFT (6) with the sign of its step flipped, i.e. Adam ascending the same
     self-supervised objective (a sign error). A test-time setting: it reuses the trained
     weights of MetaDistill with the same hyperparameters.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.cma_es import cma_trajectory
from claimbench.baselines.differential_evolution import de_trajectory
from claimbench.baselines.learned_optimizer_original import (
    PARAM_SHAPES, cached_training, init_params, les_backward, les_reset, les_step, run_les)
from claimbench.optim import Adam

TEACHERS = ("cma_es", "differential_evolution")


# -- (1)-(3) expert trajectories -----------------------------------------------------------------
def teacher_run(name: str, f, dim: int, lower: float, upper: float, popsize: int,
                generations: int, seed: int, cma_init: str = "unit") -> dict:
    if name == "cma_es":
        tr = cma_trajectory(f, dim, lower, upper, popsize, generations, seed, init=cma_init)
        return {"mean": tr["mean"], "cov": tr["cov"], "best": tr["best_trace"]}
    if name == "differential_evolution":
        tr = de_trajectory(f, dim, lower, upper, popsize, generations, seed)
        return {"mean": tr["mean"], "cov": tr["cov"], "best": tr["best_trace"][1:]}
    raise ValueError(f"unknown teacher {name!r}")


def select_best(runs: dict, interval: int) -> dict:
    """Splice the teachers' Gaussians: per interval, the teacher best at the interval's end (2)."""
    G = len(next(iter(runs.values()))["mean"])
    mean, cov, picked = [], [], []
    for start in range(0, G, interval):
        end = min(start + interval, G)
        name = min(runs, key=lambda k: runs[k]["best"][end - 1])
        mean.append(runs[name]["mean"][start:end]), cov.append(runs[name]["cov"][start:end])
        picked.append(name)
    return {"mean": np.concatenate(mean), "cov": np.concatenate(cov), "picked": picked}


def align_next(g: int, interval: int, G: int) -> int:
    return min(G - 1, math.ceil((g + 1) / interval) * interval - 1)


# -- (4) the distillation loss and its gradient --------------------------------------------------
def soft_clip(x: float, c: float) -> tuple[float, float]:
    """Value and derivative of x -> x (x <= c), c (1 + log(x / c)) (x > c)."""
    return (x, 1.0) if x <= c else (c * (1.0 + math.log(x / c)), c / x)


def _logdet_pd(C: np.ndarray, eps: float) -> tuple[np.ndarray, float, np.ndarray]:
    """(C', logdet C', inverse of C') with C' = C, or C regularised when not positive definite."""
    sign, ld = np.linalg.slogdet(C)
    if sign <= 0 or not np.isfinite(ld):
        vals, vecs = np.linalg.eigh(0.5 * (C + C.T))
        vals = np.maximum(vals, eps)
        C = (vecs * vals) @ vecs.T
        return C, float(np.sum(np.log(vals))), (vecs / vals) @ vecs.T
    return C, float(ld), np.linalg.inv(C)


def distill_loss(cand: np.ndarray, mu_q: np.ndarray, cov_q: np.ndarray, clip: float = 10.0,
                 eps: float = 1e-6) -> tuple[float, float, np.ndarray]:
    """(loss, raw KL / D, dloss/dcand (N, D)) of the normalised, soft-clipped Gaussian KL (4)."""
    N, D = cand.shape
    mu_p = cand.mean(0)  # (D,)
    dev = cand - mu_p  # (N, D)
    cov_p = dev.T @ dev / (N - 1)  # (D, D)
    ms = max(np.abs(mu_p).max(), np.abs(mu_q).max(), 1.0)
    cs = max(np.abs(cov_p).max(), np.abs(cov_q).max(), 1.0)
    mp, mq, Cp, Cq = mu_p / ms, mu_q / ms, cov_p / cs, cov_q / cs
    Cq, ld_q, Cq_inv = _logdet_pd(Cq, eps)
    Cp, ld_p, Cp_inv = _logdet_pd(Cp, eps)
    dm = mq - mp
    kl = 0.5 * (ld_q - ld_p + np.trace(Cq_inv @ Cp) + dm @ Cq_inv @ dm - D)
    if not np.isfinite(kl) or kl <= 0.0:
        return 0.0, max(0.0, float(kl)) if np.isfinite(kl) else 0.0, np.zeros_like(cand)
    x = kl / D
    loss, dloss_dx = soft_clip(x, clip)
    scale = dloss_dx / D
    g_cov = scale * 0.5 * (Cq_inv - Cp_inv) / cs  # (D, D), symmetric
    g_mu = scale * (Cq_inv @ (mp - mq)) / ms  # (D,)
    # the scales enter only the Mahalanobis term T, as cs * |dm|^2 / ms^2; a covariance's
    # largest absolute entry is on its diagonal
    T = float(dm @ Cq_inv @ dm)
    a = int(np.argmax(np.diag(cov_p)))
    if cov_p[a, a] >= max(np.abs(cov_q).max(), 1.0):
        g_cov[a, a] += scale * 0.5 * T / cs
    a = int(np.argmax(np.abs(mu_p)))
    if abs(mu_p[a]) >= max(np.abs(mu_q).max(), 1.0):
        g_mu[a] -= scale * T / ms * np.sign(mu_p[a])
    g_cand = g_mu / N + 2.0 * dev @ g_cov / (N - 1)  # (N, D)
    return float(loss), float(x), g_cand


# -- (5) training -----------------------------------------------------------------------------
def _not_bias(key: str) -> bool:
    """The trainer's AdamW decays every weight but the biases (keys starting with "b")."""
    return not key.startswith("b")


def clip_grad_norm(grads: dict, max_norm: float) -> float:
    norm = math.sqrt(sum(float(np.sum(g * g)) for g in grads.values()))
    if norm > max_norm:
        for g in grads.values():
            g *= max_norm / (norm + 1e-6)
    return norm


def step_grads(params: dict, state, X, fit, eps_noise, lower, upper, mu_q, cov_q, clip):
    """One student generation: new state, new population, loss, and the weights' gradient."""
    new, cache = les_step(params, state, X, fit, lower, upper)
    raw = new.mean + eps_noise * new.sigma
    cand = np.clip(raw, lower, upper)  # (N, D)
    loss, kl, g_cand = distill_loss(cand, mu_q, cov_q, clip)
    g_cand = g_cand * ((raw > lower) & (raw < upper))
    grads = les_backward(params, cache, g_cand.sum(0), (g_cand * eps_noise).sum(0))
    return new, cand, loss, kl, grads


def collect_experts(sample_tasks, n_epochs: int, teachers: tuple[str, ...], popsize: int,
                    generations: int, interval: int, rng: np.random.Generator,
                    cma_init: str = "unit") -> list[list[dict]]:
    """experts[e][k]: task k of teacher epoch e with its selected Gaussian trajectory."""
    experts = []
    for _ in range(n_epochs):
        row = []
        for f, dim, lo, hi in sample_tasks(rng):
            runs = {t: teacher_run(t, f, dim, lo, hi, popsize, generations, int(rng.integers(2**31)),
                                   cma_init) for t in teachers}
            sel = select_best(runs, interval)
            row.append({"task": (f, dim, lo, hi), **sel})
        experts.append(row)
    return experts


def distill(sample_tasks, seed: int, popsize: int, generations: int, interval: int,
            teacher_epochs: int, epochs: int, lr: float, weight_decay: float, grad_clip: float,
            kl_clip: float, teachers: tuple[str, ...], sigma_frac: float,
            teacher_cma_init: str = "unit") -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    experts = collect_experts(sample_tasks, teacher_epochs, teachers, popsize, generations, interval, rng,
                              teacher_cma_init)
    t_teach = time.perf_counter() - t0
    params = init_params(rng, "torch")
    opt = Adam(lr, weight_decay=weight_decay, decoupled=True, decays=_not_bias)  # AdamW
    losses, kls = [], []
    for epoch in range(epochs):
        row = experts[epoch % teacher_epochs]
        runs = []
        for ex in row:
            f, dim, lo, hi = ex["task"]
            X = rng.uniform(lo, hi, (popsize, dim))
            runs.append([les_reset(dim, lo, hi, rng, sigma_frac), X, np.asarray(f(X), dtype=float)])
        ep_loss, ep_kl = 0.0, 0.0
        for g in range(generations):
            ga = align_next(g, interval, generations)
            total = {k: np.zeros(s) for k, s in PARAM_SHAPES.items()}
            for run, ex in zip(runs, row):
                f, dim, lo, hi = ex["task"]
                state, X, fit = run
                noise = rng.standard_normal((popsize, dim))
                new, cand, loss, kl, grads = step_grads(params, state, X, fit, noise, lo, hi,
                                                        ex["mean"][ga], ex["cov"][ga], kl_clip)
                for k in total:
                    total[k] += grads[k] / len(row)
                run[:] = [new, cand, np.asarray(f(cand), dtype=float)]
                ep_loss += loss / len(row)
                ep_kl += kl / len(row)
            clip_grad_norm(total, grad_clip)
            opt.step(params, total)
        losses.append(ep_loss / generations)
        kls.append(ep_kl / generations)
    picked = [p for row in experts for ex in row for p in ex["picked"]]
    info = {"train_time_s": time.perf_counter() - t0, "teacher_time_s": t_teach,
            "loss_by_epoch": losses, "kl_by_epoch": kls,
            "teacher_share": {t: picked.count(t) / len(picked) for t in teachers},
            "rollouts": epochs * len(experts[0]) + teacher_epochs * len(experts[0]) * len(teachers)}
    return params, info


# -- (6) test-time fine-tuning -------------------------------------------------------------------
class SSFT:
    """Self-supervised fine-tuning hook for ``run_les`` (one Adam step per generation)."""

    def __init__(self, interval: int, lr: float, lower: float, upper: float,
                 ascent: bool = False):
        from collections import deque

        self.hist = deque(maxlen=interval)
        self.lr, self.lower, self.upper = lr, lower, upper
        self.ascent = ascent  # foil mutant ssft_ascent only: step up the objective
        self.opt = None

    def __call__(self, params, state, X, fit, cache, eps, X_new, fit_new):
        if self.opt is None:
            params = {k: v.copy() for k, v in params.items()}
            self.opt = Adam(self.lr)
        self.hist.append(float(np.mean(fit)))
        l_hist = self.hist[0]
        # grad f from the least-squares linear fit over the new population (deviation 4)
        A = np.hstack([X_new, np.ones((len(X_new), 1))])
        coef = np.linalg.lstsq(A, fit_new, rcond=None)[0]
        g_f = coef[:-1] / max(abs(l_hist), 1e-12)  # d loss / d x_i, times N
        raw = state.mean + eps * state.sigma
        inside = (raw > self.lower) & (raw < self.upper)  # (N, D)
        g_cand = inside * g_f / len(X_new)
        grads = les_backward(params, cache, g_cand.sum(0), (g_cand * eps).sum(0))
        if self.ascent:
            grads = {k: -v for k, v in grads.items()}
        self.opt.step(params, grads)
        return params


@dataclass
class MetaDistill(Method):
    """LES pretrained by distilling CMA-ES / DE trajectories (optionally with SSFT at test time)."""

    name: ClassVar[str] = "metadistill"
    popsize: int = 32  # code: 200; scaled down (our choice)
    train_generations: int = 50  # code: 100; scaled down
    interval: int = 10  # code: distill_interval 10 / collect_trajectories --interval 10
    teacher_epochs: int = 4  # code: 16 teacher epochs (80 selected trajectories); scaled down
    epochs: int = 16  # code: n_epochs 128; scaled down
    lr: float = 5e-3  # code: 5e-4 with 128 x 100 steps; raised for 16 x 50 steps (deviation 1)
    weight_decay: float = 1e-3  # code: AdamW weight decay 1e-3 (not on biases)
    grad_clip: float = 1.0  # code: clip_grad_norm_ 1.0
    kl_clip: float = 10.0  # code: KL clip_val 10, soft
    teachers: tuple = TEACHERS  # code: 7 teachers; we use CMA-ES and DE (deviation 1)
    sigma_frac: float = 0.1  # LES sigma_init / box width (1.0 on [-5, 5]): code les_config.json
    # CMA-ES teacher's start: "unit" = the code's optimizers/cmaes.py (x0 ~ U(0, 1)^D, sigma0 ~ U(0, 1));
    # "box" = x0 ~ U(box), sigma0 = 0.2 x width (our first version)
    teacher_cma_init: str = "unit"
    ssft_interval: int = 0  # 0: md_j0 (no SSFT); code evaluates j in {1, 3, 5}
    ssft_lr: float = 1e-4  # code: --adapt-lr 1e-4
    mutant: str = ""  # foil only: "ssft_ascent" (see Mutants above); "" is MetaDistill

    def applies_to(self, dataset) -> str | None:
        if self.ssft_interval > 0 and getattr(dataset, "name", "") == "metabbo_control":
            return "SSFT is judged on BBOB only (c4); no claim reads it on the control task"
        return None

    def run(self, data: dict, seed: int) -> dict:
        if self.mutant not in ("", "ssft_ascent"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        params, info = cached_training(self, data["train"], lambda: self.train(data["train"]),
                                       eval_only=("ssft_interval", "ssft_lr", "mutant"))
        t0 = time.perf_counter()
        hook = (SSFT(self.ssft_interval, self.ssft_lr, data["lower"], data["upper"],
                     ascent=self.mutant == "ssft_ascent")
                if self.ssft_interval > 0 else None)
        out = run_les(params, data["f"], data["dim"], data["lower"], data["upper"], self.popsize,
                      data["budget"], np.random.default_rng(seed), self.sigma_frac, on_step=hook)
        return {"best_f": out["best_f"], "last_f": out["last_f"], "time_s": time.perf_counter() - t0,
                "train_time_s": info["train_time_s"], "train_rollouts": info["rollouts"],
                "final_train_kl": info["kl_by_epoch"][-1],
                "traces": {"best_vs_evals": {"x": [float(e) for e in out["evals"]], "y": out["best_trace"]},
                           "distill_kl_vs_epoch": {"x": [float(e) for e in range(1, self.epochs + 1)],
                                                   "y": info["kl_by_epoch"]}}}

    def train(self, train: dict) -> tuple[dict, dict]:
        return distill(train["sample_tasks"], train["seed"], self.popsize, self.train_generations,
                       self.interval, self.teacher_epochs, self.epochs, self.lr, self.weight_decay,
                       self.grad_clip, self.kl_clip, tuple(self.teachers), self.sigma_frac,
                       self.teacher_cma_init)


# -- the second student (c5): LGA, distilled the same way ------------------------------------------
def _lga_torch_step(Wt: dict, X, F: np.ndarray, S, best: float, f, lo: float, hi: float, gen,
                    parent_tau: float, sel_tau: float):
    """One GradBasedLGA generation (baselines/learned_ga_original.py (1)-(4), soft parents and
    straight-through selection): (new archive (N, D) carrying the weights' graph, its fitness,
    its detached mutation rates, best so far). Fitness is a black box: no gradient flows
    through f (deviation 8)."""
    import torch

    from claimbench.baselines.learned_ga_original import DK, SIGMA_MAX, SIGMA_MIN

    N, width = X.shape[0], hi - lo
    s_lo, s_hi = SIGMA_MIN * width, SIGMA_MAX * width

    def gumbel(shape):
        u = torch.rand(shape, generator=gen, dtype=torch.float64).clamp(1e-20, 1.0 - 1e-20)
        return -torch.log(-torch.log(u))

    def z(x):
        return ((x - x.mean()) / x.std().clamp_min(1e-8)).clamp(-5.0, 5.0)

    def ranks(x):
        return torch.argsort(torch.argsort(x)).to(torch.float64) / (len(x) - 1) - 0.5

    Ft = torch.from_numpy(F)
    w = torch.softmax(gumbel((N, N)) / parent_tau, dim=1)  # (N, N) soft parent draws
    xP, fP, sP = w @ X, w @ Ft, (w @ S).clamp(s_lo, s_hi)
    s_norm = (2.0 * (sP - sP.min()) / (sP.max() - sP.min() + 1e-8) - 1.0).clamp(-1.0, 1.0)
    FM = torch.stack([z(fP), ranks(fP), (fP < best).to(torch.float64), z(sP), s_norm], -1)  # (N, 5)
    Q, K, V = FM @ Wt["W_QM"], FM @ Wt["W_KM"], FM @ Wt["W_VM"]
    A = torch.softmax(Q @ K.T / math.sqrt(DK), dim=-1) @ V  # (N, DK)
    sC = (torch.exp((0.5 * (A @ Wt["W_sigma"])[:, 0]).clamp(-10.0, 10.0)) * sP).clamp(s_lo, s_hi)
    eps = torch.randn((N, X.shape[1]), generator=gen, dtype=torch.float64)
    xC = (xP + sC[:, None] * eps).clamp(lo, hi)  # (N, D)
    fC = np.asarray(f(xC.detach().numpy()), dtype=float)
    best = min(best, float(fC.min()))
    f_all = torch.from_numpy(np.concatenate([fC, F]))
    Fa = torch.stack([z(f_all), ranks(f_all)], -1)  # (2N, 2)
    FC, FP = Fa[:N], Fa[N:]
    AS = torch.softmax((FP @ Wt["W_QP"]) @ (FC @ Wt["W_KC"]).T / math.sqrt(DK), dim=-1) @ (FC @ Wt["W_VC"])
    logits = torch.cat([(AS @ Wt["W_QS"]) @ (FC @ Wt["W_KS"]).T / math.sqrt(DK),
                        torch.ones((N, 1), dtype=torch.float64)], 1)  # (N, N + 1)
    y = torch.softmax((logits + gumbel(logits.shape)) / sel_tau, dim=1)
    pick = torch.argmax(y, dim=1)
    y = torch.zeros_like(y).scatter_(1, pick[:, None], 1.0) - y.detach() + y  # straight-through
    X_new = y[:, :N] @ xC + y[:, N:] * X  # (N, D)
    S_new = (y[:, :N] @ sC + y[:, N] * S).detach()
    p = pick.numpy()
    F_new = np.where(p < N, fC[np.minimum(p, N - 1)], F)
    return X_new, F_new, S_new, best


def _lga_start(f, dim, lo, hi, popsize, rng):
    import torch

    from claimbench.baselines.learned_ga_original import SIGMA_INIT

    X = rng.uniform(lo, hi, (popsize, dim))
    F = np.asarray(f(X), dtype=float)
    S = torch.full((popsize,), SIGMA_INIT * (hi - lo), dtype=torch.float64)
    return torch.from_numpy(X), F, S, float(F.min())


def distill_lga(sample_tasks, seed: int, popsize: int, generations: int, interval: int,
                teacher_epochs: int, epochs: int, lr: float, weight_decay: float, grad_clip: float,
                kl_clip: float, teachers: tuple[str, ...], teacher_cma_init: str, parent_tau: float,
                sel_tau: float, init_scale: float) -> tuple[dict, dict]:
    """(1)-(5) with the LGA student: the same teachers (same seed, so the same expert
    trajectories as the LES student's), loss and optimiser; the KL compares the archive LGA
    outputs after each generation, as the code's trainer compares the student's output population."""
    import torch

    from claimbench.baselines.learned_ga_original import LGA_SHAPES

    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    experts = collect_experts(sample_tasks, teacher_epochs, teachers, popsize, generations, interval, rng,
                              teacher_cma_init)
    Wt = {k: torch.tensor(rng.standard_normal(s) * init_scale, requires_grad=True) for k, s in LGA_SHAPES.items()}
    opt = torch.optim.AdamW(list(Wt.values()), lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(int(rng.integers(2**31)))
    kls = []
    for epoch in range(epochs):
        row = experts[epoch % teacher_epochs]
        runs = [list(_lga_start(*ex["task"], popsize, rng)) for ex in row]
        ep_kl = 0.0
        for g in range(generations):
            ga = align_next(g, interval, generations)
            opt.zero_grad()
            surrogate = 0.0
            for run, ex in zip(runs, row):
                f, dim, lo, hi = ex["task"]
                X, F, S, best = run
                X_new, F_new, S_new, best = _lga_torch_step(Wt, X, F, S, best, f, lo, hi, gen,
                                                            parent_tau, sel_tau)
                _, kl, g_cand = distill_loss(X_new.detach().numpy(), ex["mean"][ga], ex["cov"][ga], kl_clip)
                # its gradient in the weights is that of the loss averaged over the tasks
                surrogate = surrogate + (X_new * torch.from_numpy(g_cand / len(row))).sum()
                run[:] = [X_new.detach(), F_new, S_new, best]
                ep_kl += kl / len(row)
            surrogate.backward()
            torch.nn.utils.clip_grad_norm_(list(Wt.values()), grad_clip)
            opt.step()
        kls.append(ep_kl / generations)
    params = {k: v.detach().numpy().copy() for k, v in Wt.items()}
    return params, {"train_time_s": time.perf_counter() - t0, "kl_by_epoch": kls,
                    "rollouts": epochs * len(experts[0]) + teacher_epochs * len(experts[0]) * len(teachers)}


def run_lga_distilled(params: dict, f, dim: int, lower: float, upper: float, popsize: int, budget: int,
                      rng: np.random.Generator, parent_tau: float, sel_tau: float) -> dict:
    """The distilled GradBasedLGA run frozen (the code evaluates it with the same soft-parent,
    straight-through configuration)."""
    import torch

    Wt = {k: torch.from_numpy(v) for k, v in params.items()}
    gen = torch.Generator().manual_seed(int(rng.integers(2**31)))
    with torch.no_grad():
        X, F, S, best = _lga_start(f, dim, lower, upper, popsize, rng)
        used, trace = popsize, [best]
        while used + popsize <= budget:
            X, F, S, best = _lga_torch_step(Wt, X, F, S, best, f, lower, upper, gen, parent_tau, sel_tau)
            used += popsize
            trace.append(best)
    return {"best_f": best, "last_f": float(F.min()), "best_trace": trace}


@dataclass
class MetaDistillLGA(MetaDistill):
    """LGA pretrained by distilling the same CMA-ES / DE trajectories (c5's second student)."""

    name: ClassVar[str] = "metadistill_lga"
    parent_tau: float = 1.0  # code: lga_d10_pop200_parentsoft_tau1.json parent_tau 1.0 (soft)
    sel_tau: float = 1.0  # code: sel_tau 1.0, sel_hard true (straight-through)
    init_scale: float = 0.02  # code: param_init_scale 0.02

    def applies_to(self, dataset) -> str | None:
        if getattr(dataset, "name", "") == "metabbo_control":
            return "LGA is judged on BBOB only (c5)"
        return None

    def run(self, data: dict, seed: int) -> dict:
        params, info = cached_training(self, data["train"], lambda: self.train(data["train"]))
        t0 = time.perf_counter()
        out = run_lga_distilled(params, data["f"], data["dim"], data["lower"], data["upper"], self.popsize,
                                data["budget"], np.random.default_rng(seed), self.parent_tau, self.sel_tau)
        return {"best_f": out["best_f"], "last_f": out["last_f"], "time_s": time.perf_counter() - t0,
                "train_time_s": info["train_time_s"], "train_rollouts": info["rollouts"],
                "final_train_kl": info["kl_by_epoch"][-1],
                "traces": {"best_vs_evals": {"x": [float(self.popsize * (g + 1)) for g in range(len(out["best_trace"]))],
                                             "y": out["best_trace"]}}}

    def train(self, train: dict) -> tuple[dict, dict]:
        return distill_lga(train["sample_tasks"], train["seed"], self.popsize, self.train_generations,
                           self.interval, self.teacher_epochs, self.epochs, self.lr, self.weight_decay,
                           self.grad_clip, self.kl_clip, tuple(self.teachers), self.teacher_cma_init,
                           self.parent_tau, self.sel_tau, self.init_scale)
