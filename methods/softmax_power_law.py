"""Softmax students trained by gradient descent on peaked teachers: the 1/3 loss law.

Paper: "Universal One-third Time Scaling in Learning Peaked Distributions", Yizhou Liu,
Ziming Liu, Cengiz Pehlevan, Jeff Gore (ICML 2026), arXiv 2602.03685,
https://arxiv.org/abs/2602.03685. Read: the abstract (v1/v2), the opening of the v1 HTML,
and the authors' public code (github.com/liuyz0/TimeScaling: exp/*.py, tests/test-2.ipynb)
for the toy setups; the body of the paper (derivations, fitted exponents) was not read.

Toy models (all numpy, gradients written by hand; B = batch, V = vocabulary, d = width):
  (1) Scalar model. Binary teacher with margin u, student probability of the teacher's
      class q = sigmoid(D |u|); one trainable logit scale D.
        ce:        l = KL(p || q)                   dl/dD = (q - p) |u|
        mse_prob:  l = 2 (q - p)^2                  dl/dD = 4 (q - p) q (1 - q) |u|
        mse_logit: l = (D |u| - |u| / T)^2 / 2      dl/dD = (D - 1/T) u^2    (needs T > 0)
      L(D) = E_u l, integrated by quadrature over u ~ N(0, 1) or summed over a finite set.
  (2) Linear head (the paper's toy, exp/exp-0.py): logits z = W x_hat, W (V, d) zero at
      start, x_hat = rmsnorm(x); loss KL(softmax(W_t x_hat / T) || softmax(z)) on fresh
      batches (online) or on a fixed finite set (full batch).
  (3) Residual MLP (the paper's App. D.6 toy, exp/exp-9.py, one block):
        r = x_hat + W2 relu(W1 x_hat + b1)^2,  z = Wh rmsnorm(r),
      W1, b1 uniform +-1/sqrt(d) (nn.Linear default), W2 = Wh = 0 at start (as the paper's
      student), hidden width 4 d.
  Losses on logits: ce = KL to the teacher's softmax (dz = (Q - P) / B); mse_prob =
  sum_k (Q_k - P_k)^2 (dz = Q * (g - <g, Q>), g = 2 (Q - P) / B); mse_logit =
  sum_k (z_k - z_t,k / T)^2 / 2 (dz = (z - z_t / T) / B).
  Optimizers: gradient descent x <- x - lr g (online = SGD on fresh batches), or Adam
  (Kingma & Ba; the paper's main optimizer, torch defaults beta = (0.9, 0.999), eps = 1e-8).

Theory the benchmark checks (the mechanism of the abstract; our derivation for (1)):
  (4) Peaked targets: only inputs within ~1/D of the decision boundary keep O(1) loss, so
      with a margin density rho(0) > 0, L(D) ~ A / D and dL/dD ~ -A / D^2 (the paper's
      numerics, tests/test-2.ipynb: L ~ beta^-1, -dL/dbeta ~ beta^-2).
  (5) Gradient flow dD/dt = -lr dL/dD = lr A / D^2 gives D^3 = D_0^3 + 3 lr A t, so
      D ~ t^(1/3), L ~ A^(2/3) (3 lr t)^(-1/3), |dL/dD| ~ t^(-2/3).
      For (1) with ce, A = 2 phi(0) int_0^inf log(1 + e^-v) dv = pi^2 / (6 sqrt(2 pi));
      with mse_prob, A = 4 phi(0) (ln 2 - 1/2) (same exponent).
  (6) Controls: a non-peaked (soft, realizable) teacher -> exponential convergence of the
      excess loss; a finite set with margin gamma -> L ~ e^(-gamma D), D ~ log t, L ~ 1/t;
      squared error on logits -> a quadratic problem, exponential convergence.
  Exponents (reported positive): L ~ t^-alpha, logit scale ~ t^gamma, |grad| ~ t^-delta,
  each the least-squares slope of the log-log curve over the late window
  [steps / 10^fit_decades, steps] (the last decade; ``loss_exponent_wide`` repeats the
  loss fit over one more decade); points at or below ``loss_floor`` (float round-off of a
  converged loss) are dropped and a run stops once its loss reaches the floor; when fewer
  than 3 points remain in the window the last 3 points above the floor are used (an
  exponential decay then shows as a steep slope), and a loss at the floor before 3
  checkpoints is reported as the cap EXPONENT_CAP with ``loss_censored`` = 1.

Deviations:
  1. The paper's body was not read; thresholds and the expected controls come from the
     abstract, the authors' code/notebook and derivation (4)-(6). Figure and appendix
     numbers cited in the claims come from the README table of the authors' code.
  2. Sizes scaled down for CPU: d = 16, V = 32, batch 256, 3000 steps (paper: d = 32,
     V = 128, batch 1024, 2e3-1e5 steps); the scalar model (1) is ours (the paper's
     "beta dynamics" along the teacher direction, reduced to a binary problem).
  3. Main optimizer here is plain gradient descent (the paper's App. D.2 uses SGD; its main
     figures use Adam, kept as ``optimizer="adam"``). GD lr = 3 is our choice inside the
     paper's SGD scan [1e-2, 10]; Adam lr = 3e-3 is the paper's exp-0 value.
  4. The MLP's teacher is the linear head (the paper's is a 128-block residual net), one
     residual block, and GD instead of Adam (lr 6e-4 in the paper).
  5. Losses are measured on a fixed probe set of 2048 inputs (online) or the training set
     (finite); the gradient norm is the full gradient on that set.
  6. The squared-error controls (mse_prob, mse_logit) and the finite separable set are our
     controls; the paper's own ablations were not seen.
  7. No shared baseline optimizer file fits (baselines/gradient_descent.py takes a gradient
     callable on a fixed objective); GD and Adam live here as a field.
  8. Fit window: a first prototype (linear head, one seed) was fitted over two decades;
     before the quick grid we moved to the last decade (the local exponent approaches 1/3
     from above as the logit scale grows) and keep the two-decade fit as
     ``loss_exponent_wide``.

Mutants for foils (not the paper's method; mutant="" is the method above, unchanged):
  - "hard_labels": train on the teacher's argmax (one-hot) labels instead of its softmax
    distribution; the loss reported is still the KL to the teacher. The target the loss sees
    is then peaked whatever the teacher's temperature (hard-label training in place of
    distillation). Applies to soft teachers only (temperature >= 0.1): on a (near-)peaked
    teacher the hard labels are the teacher's own and the mutant is the method itself.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.teacher_student import (ScalarTeacher, SoftmaxTeacher, rmsnorm,
                                                 sigmoid, teacher_probs)
from claimbench.optim import Adam

LOSSES = ("ce", "mse_prob", "mse_logit")
MUTANTS = ("", "hard_labels")
HARD_LABEL_MIN_T = 0.1  # below: the teacher's labels are (nearly) one-hot already


def _mutant_reason(mutant: str, loss: str, temperature: float) -> str | None:
    """Why a mutant does not apply (None: it does)."""
    if mutant not in MUTANTS:
        return f"unknown mutant {mutant!r}"
    if mutant == "hard_labels" and (loss == "mse_logit" or temperature < HARD_LABEL_MIN_T):
        return "hard labels differ from the teacher's only for a soft teacher and a softmax loss"
    return None
OPTIMIZERS = ("gd", "adam")
ADAM_LR = 3e-3  # paper's Adam lr for the toy (exp/exp-0.py)
# GD steps (ours): the squared error on logits has curvature E[x x^T] = I (rmsnorm'ed inputs;
# E u^2 = 1 in the scalar model), so it needs lr < 2; 0.1 keeps its exponential decay visible
# over several checkpoints. The softmax losses have curvature <= 1/4 at the start.
SCALAR_GD_LR = {"ce": 1.0, "mse_prob": 1.0, "mse_logit": 0.1}
SOFTMAX_GD_LR = {"ce": 3.0, "mse_prob": 3.0, "mse_logit": 0.1}
EXPONENT_CAP = 100.0  # reported for a loss that hit its floor too early to fit (censored)


# -- fitting -----------------------------------------------------------------------------
def checkpoints(steps: int, n: int) -> np.ndarray:
    """Log-spaced distinct steps 1..steps (always including both ends)."""
    t = np.unique(np.round(np.geomspace(1, steps, n)).astype(int))
    return t[(t >= 1) & (t <= steps)]


def fit_exponent(t: np.ndarray, y: np.ndarray, t_lo: float, floor: float = 0.0) -> dict | None:
    """Least-squares slope of log y on log t over t >= t_lo, points with y > floor only.

    Fewer than 3 such points: the last 3 points above the floor, wherever they lie.
    Returns slope, r2, the window used and its size; None when fewer than 3 points exist.
    """
    t, y = np.asarray(t, float), np.asarray(y, float)
    ok = np.isfinite(y) & (y > floor)
    sel = ok & (t >= t_lo)
    if sel.sum() < 3:
        idx = np.flatnonzero(ok)[-3:]
        if idx.size < 3:
            return None
        sel = np.zeros_like(ok)
        sel[idx] = True
    lx, ly = np.log(t[sel]), np.log(y[sel])
    slope, icpt = np.polyfit(lx, ly, 1)
    resid = ly - (slope * lx + icpt)
    ss = float(((ly - ly.mean()) ** 2).sum())
    r2 = 1.0 - float((resid ** 2).sum()) / ss if ss > 0 else 1.0
    return {"slope": float(slope), "r2": r2, "t_lo": float(t[sel][0]),
            "t_hi": float(t[sel][-1]), "n": int(sel.sum())}


def exponents(t, loss, scale, grad, steps: int, fit_decades: float, floor: float) -> dict:
    """The late-window exponents (positive: L ~ t^-alpha, scale ~ t^gamma, |g| ~ t^-delta).

    A loss at the floor before 3 checkpoints gets ``EXPONENT_CAP`` and ``loss_censored`` = 1
    (it decayed faster than any power law we could fit); values above the cap are capped.
    """
    t, loss, grad = np.asarray(t, float), np.asarray(loss, float), np.asarray(grad, float)
    t_lo = steps / 10.0 ** fit_decades
    f_loss = fit_exponent(t, loss, t_lo, floor)
    f_wide = fit_exponent(t, loss, steps / 10.0 ** (fit_decades + 1.0), floor)
    f_scale = fit_exponent(t, scale, t_lo)
    above = loss > floor  # the gradient means something only while the loss is above its floor
    f_grad = fit_exponent(t[above], grad[above], t_lo)

    def alpha(f):
        return EXPONENT_CAP if f is None else min(-f["slope"], EXPONENT_CAP)

    return {
        "loss_exponent": alpha(f_loss),
        "loss_exponent_wide": alpha(f_wide),
        "loss_censored": float(f_loss is None),
        "loss_fit_r2": None if f_loss is None else f_loss["r2"],
        "fit_t_lo": None if f_loss is None else f_loss["t_lo"],
        "fit_t_hi": None if f_loss is None else f_loss["t_hi"],
        "logit_scale_exponent": None if f_scale is None else f_scale["slope"],
        "grad_exponent": None if f_grad is None else min(-f_grad["slope"], EXPONENT_CAP),
    }


def pack(t, loss, scale, grad, elapsed: float, steps: int, fit_decades: float, floor: float,
         **extra) -> dict:
    t = [int(v) for v in t]
    loss, scale, grad = ([float(v) for v in a] for a in (loss, scale, grad))
    lt = [math.log10(v) for v in t]
    out = {"t": t, "loss": loss, "scale": scale, "grad": grad, "time_s": float(elapsed),
           "loss_final": loss[-1], "scale_final": scale[-1],
           "loss_floor": floor, "fit_decades": fit_decades, **extra,
           "traces": {
               "loss_vs_step": {"x": lt, "y": loss, "xlabel": "log10 step", "ylabel": "loss"},
               "logit_scale_vs_step": {"x": lt, "y": scale, "xlabel": "log10 step",
                                       "ylabel": "logit scale"},
               "grad_norm_vs_step": {"x": lt, "y": grad, "xlabel": "log10 step",
                                     "ylabel": "|grad L|"}}}
    out.update(exponents(t, loss, scale, grad, steps, fit_decades, floor))
    return out


# -- optimizers ------------------------------------------------------------------------
class Optimizer:
    """GD or Adam (bias-corrected, torch defaults; :class:`claimbench.optim.Adam`) updating a
    dict of float arrays in place."""

    def __init__(self, kind: str, lr: float, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8) -> None:
        if kind not in OPTIMIZERS:
            raise ValueError(f"optimizer {kind!r} not in {OPTIMIZERS}")
        self.kind, self.lr = kind, lr
        self.adam = Adam(lr, betas=(beta1, beta2), eps=eps) if kind == "adam" else None

    def step(self, params: dict, grads: dict) -> None:
        if self.adam is not None:
            self.adam.step(params, grads)
            return
        for k, g in grads.items():
            params[k] -= self.lr * g


# -- (1) scalar model ----------------------------------------------------------------------
def log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)


def scalar_grad(D: float, u: np.ndarray, w: np.ndarray, p: np.ndarray, T: float,
                loss: str) -> float:
    """Eq. (1): dL/dD alone (the training step)."""
    if loss == "ce":
        return float(w @ ((sigmoid(D * u) - p) * u))
    if loss == "mse_prob":
        q = sigmoid(D * u)
        return float(w @ (4 * (q - p) * q * (1 - q) * u))
    if loss == "mse_logit":
        return float((D - 1.0 / T) * (w @ (u * u)))
    raise ValueError(f"loss {loss!r} not in {LOSSES}")


def scalar_loss_grad(D: float, u: np.ndarray, w: np.ndarray, p: np.ndarray, T: float,
                     loss: str) -> tuple[float, float]:
    """Eq. (1): L(D) and dL/dD (weights w sum to 1 over the margins u >= 0)."""
    m = D * u  # (n,)
    if loss == "ce":
        q = sigmoid(m)
        ent = np.zeros_like(p)  # p log p + (1 - p) log(1 - p), 0 for hard labels
        soft = (p > 0) & (p < 1)
        ps = p[soft]
        ent[soft] = ps * np.log(ps) + (1 - ps) * np.log1p(-ps)
        ell = ent - p * log_sigmoid(m) - (1 - p) * log_sigmoid(-m)
        return float(w @ ell), float(w @ ((q - p) * u))
    if loss == "mse_prob":
        q = sigmoid(m)
        r = q - p
        return float(w @ (2 * r * r)), float(w @ (4 * r * q * (1 - q) * u))
    if loss == "mse_logit":
        r = (D - 1.0 / T) * u
        return float(w @ (0.5 * r * r)), float(w @ (r * u))
    raise ValueError(f"loss {loss!r} not in {LOSSES}")


@dataclass
class ScalarSoftmax(Method):
    """Eq. (1): one logit scale D trained by GD (or Adam) on the scalar teacher."""

    name: ClassVar[str] = "scalar_softmax"
    loss: str = "ce"  # the paper's loss (KL = cross-entropy minus teacher entropy)
    optimizer: str = "gd"  # App. D.2 (SGD); "adam" = the paper's main optimizer
    lr: float | None = None  # None: SCALAR_GD_LR[loss] for gd (ours), 3e-3 for adam (paper)
    steps: int = 20_000  # ours: D reaches ~30 >> the boundary-layer onset D ~ 1
    n_checkpoints: int = 80  # log-spaced (ours)
    fit_decades: float = 1.0  # late window [steps/10, steps] (ours)
    loss_floor: float = 1e-12  # below: float round-off of a converged loss (ours)
    mutant: str = ""  # foil only: "hard_labels" (see the header); "" = the method

    def applies_to(self, dataset) -> str | None:
        if not isinstance(dataset, ScalarTeacher):
            return "the scalar model trains on scalar_teacher data only"
        if self.loss == "mse_logit" and dataset.temperature == 0.0:
            return "squared error on logits needs finite teacher logits (temperature > 0)"
        return _mutant_reason(self.mutant, self.loss, dataset.temperature) if self.mutant else None

    def run(self, data: dict, seed: int) -> dict:
        u, w, p, T = data["u"], data["w"], data["p"], data["temperature"]
        # p is the teacher's probability of its own class: its hard label is 1 (mutant only).
        p_fit = np.ones_like(p) if self.mutant == "hard_labels" else p
        lr = self.lr if self.lr is not None else (
            SCALAR_GD_LR[self.loss] if self.optimizer == "gd" else ADAM_LR)
        opt = Optimizer(self.optimizer, lr)
        params = {"D": np.array(float(data["d0"]))}
        ck = set(checkpoints(self.steps, self.n_checkpoints).tolist())
        ts, ls, ss, gs = [], [], [], []
        t0 = time.perf_counter()
        for t in range(1, self.steps + 1):
            g = scalar_grad(float(params["D"]), u, w, p_fit, T, self.loss)
            opt.step(params, {"D": np.array(g)})
            if t in ck:
                L, g_now = scalar_loss_grad(float(params["D"]), u, w, p, T, self.loss)
                ts.append(t), ls.append(L), gs.append(abs(g_now))
                ss.append(abs(float(params["D"])))
                if L <= self.loss_floor:  # converged to round-off: later checkpoints say nothing
                    break
        elapsed = time.perf_counter() - t0
        return pack(ts, ls, ss, gs, elapsed, self.steps, self.fit_decades, self.loss_floor,
                    lr=lr, d0=float(data["d0"]))


# -- (2), (3) softmax students --------------------------------------------------------------
def log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def logit_loss(z: np.ndarray, P: np.ndarray | None, z_t: np.ndarray | None, loss: str,
               value: bool = True) -> tuple[float | None, np.ndarray]:
    """Mean loss over the batch (None unless ``value``) and its gradient in the logits z (B, V)."""
    B = z.shape[0]
    if loss == "mse_logit":
        r = z - z_t  # (B, V)
        return (float(0.5 * (r * r).sum() / B) if value else None), r / B
    lq = log_softmax(z)  # (B, V)
    Q = np.exp(lq)
    if loss == "ce":
        L = None
        if value:
            with np.errstate(divide="ignore", invalid="ignore"):
                plogp = np.where(P > 0, P * np.log(np.where(P > 0, P, 1.0)), 0.0)
            L = float((plogp - P * lq).sum() / B)
        return L, (Q - P) / B
    if loss == "mse_prob":
        r = Q - P
        g = 2.0 * r / B
        L = float((r * r).sum() / B) if value else None
        return L, Q * (g - (g * Q).sum(axis=1, keepdims=True))
    raise ValueError(f"loss {loss!r} not in {LOSSES}")


def one_hot_argmax(P: np.ndarray) -> np.ndarray:
    """The teacher's hard labels: one-hot of the argmax over the last axis (mutant only)."""
    return (P.argmax(axis=-1)[..., None] == np.arange(P.shape[-1])).astype(P.dtype)


class LinearHead:
    """Eq. (2): z = W x_hat, W zero at the start (the paper's student)."""

    def __init__(self, d: int, vocab: int, rng: np.random.Generator) -> None:
        self.params = {"W": np.zeros((vocab, d))}

    def forward(self, x: np.ndarray):
        return x @ self.params["W"].T, x

    def backward(self, cache, dz: np.ndarray) -> dict:
        return {"W": dz.T @ cache}


class ResidualMLP:
    """Eq. (3): one residual relu^2 block, final rmsnorm, linear head."""

    def __init__(self, d: int, vocab: int, rng: np.random.Generator, hidden_mult: int = 4) -> None:
        h, bound = hidden_mult * d, 1.0 / math.sqrt(d)
        self.params = {"W1": rng.uniform(-bound, bound, (h, d)),
                       "b1": rng.uniform(-bound, bound, h),
                       "W2": np.zeros((d, h)), "Wh": np.zeros((vocab, d))}

    def forward(self, x: np.ndarray):
        P = self.params
        a = x @ P["W1"].T + P["b1"]  # (B, h)
        ra = np.maximum(a, 0.0)
        hid = ra * ra
        r = x + hid @ P["W2"].T  # (B, d)
        nr = np.linalg.norm(r, axis=1, keepdims=True)  # (B, 1)
        f = r * (math.sqrt(r.shape[1]) / nr)
        return f @ P["Wh"].T, (x, ra, hid, nr, f)

    def backward(self, cache, dz: np.ndarray) -> dict:
        x, ra, hid, nr, f = cache
        P, d = self.params, x.shape[1]
        g = {"Wh": dz.T @ f}
        df = dz @ P["Wh"]  # (B, d)
        dr = (math.sqrt(d) / nr) * (df - f * ((f * df).sum(axis=1, keepdims=True) / d))
        g["W2"] = dr.T @ hid
        da = (dr @ P["W2"]) * (2.0 * ra)  # (B, h)
        g["W1"] = da.T @ x
        g["b1"] = da.sum(axis=0)
        return g


@dataclass
class _SoftmaxStudent(Method):
    """Shared training loop of the linear and MLP students on a SoftmaxTeacher."""

    loss: str = "ce"  # the paper's KL to the teacher's softmax
    optimizer: str = "gd"  # App. D.2 (SGD); "adam" = the paper's main optimizer
    lr: float | None = None  # None: SOFTMAX_GD_LR[loss] for gd (3 for ce: ours, inside the
    # paper's SGD scan [1e-2, 10]), 3e-3 for adam (paper, exp/exp-0.py)
    steps: int = 3000  # ours (paper: 2e3-1e5)
    batch: int = 256  # ours (paper: 1024)
    chunk: int = 50  # online batches drawn per vectorised teacher call (speed only)
    n_checkpoints: int = 60  # log-spaced (ours)
    fit_decades: float = 1.0  # late window [steps/10, steps] (ours)
    loss_floor: float = 1e-12  # below: float round-off of a converged loss (ours)
    mutant: str = ""  # foil only: "hard_labels" (see the header); "" = the method

    def _model(self, d: int, vocab: int, rng: np.random.Generator):  # pragma: no cover
        raise NotImplementedError

    def applies_to(self, dataset) -> str | None:
        if not isinstance(dataset, SoftmaxTeacher):
            return "softmax students train on softmax_teacher data only"
        if self.loss == "mse_logit" and dataset.temperature == 0.0:
            return "squared error on logits needs finite teacher logits (temperature > 0)"
        return _mutant_reason(self.mutant, self.loss, dataset.temperature) if self.mutant else None

    def run(self, data: dict, seed: int) -> dict:
        w_t, T = data["teacher_w"], data["temperature"]
        vocab, d = w_t.shape
        rng = np.random.default_rng([data["stream_seed"], seed])
        model = self._model(d, vocab, rng)
        lr = self.lr if self.lr is not None else (
            SOFTMAX_GD_LR[self.loss] if self.optimizer == "gd" else ADAM_LR)
        opt = Optimizer(self.optimizer, lr)
        need_logits = self.loss == "mse_logit"
        finite = data["x_train"] is not None
        x_eval = data["x_train"] if finite else data["x_probe"]  # (n, d)
        p_eval = data["p_train"] if finite else data["p_probe"]  # (n, V)
        zt_eval = x_eval @ w_t.T / T if need_logits else None
        hard = self.mutant == "hard_labels"
        p_fit = one_hot_argmax(p_eval) if hard and finite else p_eval  # training targets
        ck = set(checkpoints(self.steps, self.n_checkpoints).tolist())
        ts, ls, ss, gs = [], [], [], []
        done = False
        t0 = time.perf_counter()
        for c0 in range(0, self.steps, self.chunk):
            k_n = min(self.chunk, self.steps - c0)
            if finite:
                xs = ps = zts = None
            else:
                xs = rmsnorm(rng.standard_normal((k_n, self.batch, d)))  # (K, B, d)
                zl = xs @ w_t.T  # (K, B, V) teacher logits at T = 1
                ps = None if need_logits else teacher_probs(zl, T)
                if hard:
                    ps = one_hot_argmax(ps)
                zts = zl / T if need_logits else None
            for k in range(k_n):
                t = c0 + k + 1
                if finite:
                    x, P, zt = x_eval, p_fit, zt_eval
                else:
                    x = xs[k]
                    P = None if ps is None else ps[k]
                    zt = None if zts is None else zts[k]
                z, cache = model.forward(x)
                _, dz = logit_loss(z, P, zt, self.loss, value=False)
                opt.step(model.params, model.backward(cache, dz))
                if t in ck:
                    z, cache = model.forward(x_eval)
                    L, dz = logit_loss(z, p_eval, zt_eval, self.loss)
                    grads = model.backward(cache, dz)
                    gn = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
                    ts.append(t), ls.append(L), gs.append(gn)
                    ss.append(float(z.std(axis=1).mean()))  # logit scale: spread across V
                    if L <= self.loss_floor:  # converged to round-off
                        done = True
                        break
            if done:
                break
        elapsed = time.perf_counter() - t0
        return pack(ts, ls, ss, gs, elapsed, self.steps, self.fit_decades, self.loss_floor,
                    lr=lr)


@dataclass
class LinearSoftmax(_SoftmaxStudent):
    """Eq. (2): multinomial logistic (linear head) student, the paper's main toy."""

    name: ClassVar[str] = "linear_softmax"

    def _model(self, d: int, vocab: int, rng: np.random.Generator):
        return LinearHead(d, vocab, rng)


@dataclass
class MLPSoftmax(_SoftmaxStudent):
    """Eq. (3): residual relu^2 MLP student with a final rmsnorm (the paper's App. D.6)."""

    name: ClassVar[str] = "mlp_softmax"
    hidden_mult: int = 4  # hidden = 4 d (paper's MLP, exp/exp-9.py)

    def _model(self, d: int, vocab: int, rng: np.random.Generator):
        return ResidualMLP(d, vocab, rng, self.hidden_mult)
