"""Sequential (continual) GD training of a one-hidden-layer quadratic network on XOR-cluster tasks.

Paper: "On the Theory of Continual Learning with Gradient Descent for Neural Networks",
H. Taheri, A. Ghosh, A. Mazumdar. arXiv 2510.05573, https://arxiv.org/abs/2510.05573
(v2; ICML 2026, PMLR v306). Read: the abstract, the table of contents and the caption of
Fig. 1 (K = 3 tasks, n = 2500 / 5000 per task, per-task test error vs iterations); of the full
text (arXiv v1 HTML, arxiv.org/html/2510.05573v1, the copy in our pages corpus) only its
abstract and the opening paragraph of Sec. 1.1 (Motivation), where that copy ends (searched for
the theorems, the stability result and the contributions, 2026-12-06, issue 29). The theorem
statements, their parameter dependencies, constants, initialisation and step size were NOT
available to us.

Implemented (numbering ours):
  (1) Network  f_W(x) = sum_{j<=m} a_j (w_j . x)^2,  a_j = +1/m (first half), -1/m (rest),
      second layer fixed, first layer W = (w_1..w_m) trained, w_j(0) ~ N(0, (s0^2/d) I).
  (2) Task loss  L_k(W) = (1/n) sum_i l(y_i f_W(x_i)),  l(z) = log(1 + e^{-z}) (logistic).
  (3) Hand-written gradient  grad_{w_j} L = 2 a_j G w_j,  G = (1/n) sum_i l'(y_i f_i) y_i x_i x_i^T.
  (4) Continual GD: for k = 1..K, T steps  W <- W - eta grad L_k(W)  from the previous task's
      end point W^(k-1); W^(k) is the iterate after task k.
  (5) Forgetting of task k (k < K):  F_k = L_k(W^(K)) - L_k(W^(k)) on task k's training set
      (train-time) or on fresh test points of task k (test-time); the benchmark reports the
      mean over k < K and F_1 (the first task, which sees all K - 1 later tasks).
  (6) Forgetting bound (our derivation, from the paper's ingredients: the GD dynamics and the
      logistic loss' self-bound |l'| <= l). Write f_W(x) = x^T M x, M = W^T diag(a) W.
      (6a) One GD step on task l gives exactly
             M' = M - 2 eta (G P + P G) + (4 eta^2 / m^2) G M G,   P = W^T W / m^2,
           so ||M' - M|| <= 4 eta g p (1 + eta g / m) with p = ||W||_op^2 / m^2 and
           g = ||G||_op <= (1/n) sum_i |l'_i| ||x_i||^2 <= R_l^2 L_l(W),  R_l = max_i ||x_i||.
      (6b) Summing over the T steps t of each later task l = k+1..K (L_t: task l's loss),
             ||M(W^(K)) - M(W^(k))|| <= dM_k
                 = sum_{l>k} sum_t 4 eta R_l^2 L_t p_t (1 + eta R_l^2 L_t / m).
      (6c) |f_{W^(K)}(x') - f_{W^(k)}(x')| <= dM_k ||x'||^2 and l is decreasing, so
             F_k <= B_k = mean_{x'} [ l(y' f_k(x') - dM_k ||x'||^2) - l(y' f_k(x')) ].
      (6c) holds for test points as well (nothing used that x' was a training point).
      Reading of its dependence: dM_k is proportional to eta, sums over the K - k later tasks
      and over their T steps (grows with T, slowly once those tasks are fit, as L_t -> 0),
      and p_t ~ ||W||_op^2 / m^2 = O(1/m) at a fixed training state, so the bound falls with
      the width m; it does not fall with n (R_l^2 grows like d sigma^2 + O(sqrt(log n))).

Deviations:
  1. The paper's closed-form bounds could not be read; (6) is our own bound, derived for this
     setting. It is evaluated from the run's loss and ||W||_op traces (a certified
     a-posteriori bound, not the paper's closed form in (T, n, K, m)), so "measured <= bound"
     checks our derivation and code, not the paper's constants.
  2. The paper's test-time bound uses algorithmic stability; ours applies (6c) to test points.
  3. Second-layer scaling +-1/m, initialisation scale s0 = 0.1, step eta = 0.5 and full-batch
     GD are reconstructions (research note) / our choices.
  4. Directions of the parameter dependence used by the claims come from (6) and the
     research note's reading of the abstract, not from the theorem statements.
  5. Scale: n <= 800 per task and T <= 800 in the quick grid (paper: n = 2500, 5000).
  6. The paper's Fig. 1 (per-task test error vs iterations) appears only as traces of the
     per-task *training* error (the method never sees test data).

Mutants for foils (not the paper's method; the default mutant="" is the method above, unchanged):
  "no_step_sum": a known-wrong bound. Training is unchanged (and shared with the method's run of
  the same seed through the checkpoint array cache, bit for bit); (6b) counts one average GD step per
  later task instead of summing its T steps (the factor T dropped), so dM_k and B_k are about T
  times too small. A bound check that this wrong bound also passes cannot tell a valid bound
  from an invalid one.
  "replay": full rehearsal, a sequential learner that should not forget (issue 29). Stage k runs
  the same T GD steps from W^(k-1), on tasks 1..k pooled (pooled_stages) instead of task k
  alone; forgetting (5) is measured as for the method. A dependence of forgetting on m, T, K or
  n that this learner shows too is not one of forgetting.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


# -- the network ------------------------------------------------------------------------------
def second_layer(m: int) -> np.ndarray:
    """Fixed second layer: +1/m on the first half of the neurons, -1/m on the rest. (m,)"""
    a = np.full(m, 1.0 / m)
    a[m // 2:] = -1.0 / m
    return a


def init_weights(rng: np.random.Generator, m: int, d: int, scale: float) -> np.ndarray:
    return rng.standard_normal((m, d)) * (scale / np.sqrt(d))  # (m, d)


def forward(W: np.ndarray, a: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = X @ W.T  # (n, m) pre-activations w_j . x_i
    return (H * H) @ a, H  # f (n,), H


def logistic(z: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, -z)


def logistic_deriv(z: np.ndarray) -> np.ndarray:
    return -np.exp(-np.logaddexp(0.0, z))  # l'(z) = -1 / (1 + e^z), overflow-safe


def loss(W: np.ndarray, a: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    f, _ = forward(W, a, X)
    return float(logistic(y * f).mean())


def error(W: np.ndarray, a: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    f, _ = forward(W, a, X)
    return float(np.mean(y * f <= 0))


def loss_and_grad(W: np.ndarray, a: np.ndarray, X: np.ndarray,
                  y: np.ndarray) -> tuple[float, np.ndarray]:
    """L(W) and dL/dW (m, d) of eq. (2)-(3)."""
    f, H = forward(W, a, X)
    z = y * f
    g = logistic_deriv(z) * y / X.shape[0]  # (n,)
    grad = 2.0 * a[:, None] * ((g[:, None] * H).T @ X)  # (m, d)
    return float(logistic(z).mean()), grad


def gd(W: np.ndarray, a: np.ndarray, X: np.ndarray, y: np.ndarray, eta: float, T: int,
       probe=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """T full-batch GD steps; returns W, the loss and ||W||_op before each step ((T,), (T,))."""
    W = W.copy()
    losses = np.empty(T)
    grams = np.empty((T, W.shape[1], W.shape[1]))  # (T, d, d) W_t^T W_t before each step
    for t in range(T):
        if probe is not None:
            probe(t, W)
        losses[t], grad = loss_and_grad(W, a, X, y)
        grams[t] = W.T @ W
        W -= eta * grad
    # ||W_t||_op^2 = top eigenvalue of W_t^T W_t. The eigenvalues feed nothing in the loop, so
    # they are computed after it in one stacked call: LAPACK runs on each matrix as it would
    # alone (the same values), without the per-call overhead of np.linalg (40% of the CPU).
    wopt = np.sqrt(np.linalg.eigvalsh(grams)[:, -1])
    return W, losses, wopt


def pooled_stages(train: list) -> list:
    """Stage k's training set for the replay foil: tasks 1..k pooled, [(X (k n, d), y (k n,))]."""
    return [(np.concatenate([X for X, _ in train[:k + 1]]),
             np.concatenate([y for _, y in train[:k + 1]])) for k in range(len(train))]


def train_sequential(train: list, W0: np.ndarray, a: np.ndarray, eta: float, T: int,
                     n_probe: int = 10, fit: list | None = None) -> dict:
    """Eq. (4). Also records every task's training error at n_probe points per task.

    fit: the set stage k trains on (default: task k's own; the replay foil passes pooled_stages).
    """
    K = len(train)
    fit = train if fit is None else fit
    snaps, losses, wopt = [], np.empty((K, T)), np.empty((K, T))
    probe_x, probe_err = [], []
    every = max(1, T // n_probe)

    def probe(t, W):
        if t % every == 0:
            probe_x.append(k * T + t)
            probe_err.append([error(W, a, X, y) for X, y in train])

    W = W0
    for k in range(K):
        W, losses[k], wopt[k] = gd(W, a, *fit[k], eta, T, probe)
        snaps.append(W.copy())
    probe_x.append(K * T)
    probe_err.append([error(W, a, X, y) for X, y in train])
    return {"snapshots": snaps, "losses": losses, "wopt": wopt,
            "probe_x": probe_x, "probe_err": np.array(probe_err)}  # probe_err (P, K)


# -- forgetting and its bound -------------------------------------------------------------------
def forgetting(snaps: list, a: np.ndarray, sets: list) -> np.ndarray:
    """F_k = L_k(W^(K)) - L_k(W^(k)) for k < K on the given per-task sets, eq. (5). (K-1,)"""
    K = len(snaps)
    return np.array([loss(snaps[-1], a, *sets[k]) - loss(snaps[k], a, *sets[k])
                     for k in range(K - 1)])


def delta_M_bound(later_R2: np.ndarray, later_losses: np.ndarray, later_p: np.ndarray,
                  eta: float, m: int, mutant: str = "") -> float:
    """Bound on ||M(W^(K)) - M(W^(k))||_op from the later tasks' GD traces, eq. (6b).

    later_R2: (K-k,) max_i ||x_i||^2 of each later task; later_losses, later_p: (K-k, T)
    training loss and p_t = ||W_t||_op^2 / m^2 before each step of those tasks.
    """
    g = later_R2[:, None] * later_losses  # (K-k, T) bounds on ||G_t||_op
    steps = 4.0 * eta * g * later_p * (1.0 + eta * g / m)  # (K-k, T)
    if mutant == "no_step_sum":  # foil only: one average step per later task (factor T dropped)
        return float(np.sum(steps.mean(axis=1)))
    return float(np.sum(steps))


def forgetting_bound(Xe: np.ndarray, ye: np.ndarray, W_k: np.ndarray, a: np.ndarray,
                     dM: float) -> float:
    """B_k of eq. (6c) on points (Xe, ye), given the bound dM on ||Delta M||_op."""
    f_k, _ = forward(W_k, a, Xe)
    z = ye * f_k
    return float(np.mean(logistic(z - dM * np.einsum("ij,ij->i", Xe, Xe)) - logistic(z)))


def quad_form(W: np.ndarray, a: np.ndarray) -> np.ndarray:
    """M = W^T diag(a) W, so that f_W(x) = x^T M x. (d, d)"""
    return W.T @ (a[:, None] * W)


def forgetting_report(snaps: list, a: np.ndarray, sets: list, train: list, losses: np.ndarray,
                      wopt: np.ndarray, eta: float, mutant: str = "") -> dict:
    """Per-task (k < K) forgetting F, bound B (6) and the bound B_geom on the same sets.

    B_geom uses the realised ||M(W^(K)) - M(W^(k))||_op in (6c) instead of dM_k (6b): how
    much of B's slack comes from the dynamics step (6a-b) rather than from (6c).
    wopt (K, T): ||W_t||_op before each GD step of each task.
    """
    K, m = len(snaps), a.size
    R2 = np.array([np.einsum("ij,ij->i", X, X).max() for X, _ in train])  # (K,)
    p = wopt ** 2 / m ** 2  # (K, T)
    M_end = quad_form(snaps[-1], a)
    F = forgetting(snaps, a, sets)
    B = np.array([forgetting_bound(*sets[k], snaps[k], a,
                                   delta_M_bound(R2[k + 1:], losses[k + 1:], p[k + 1:], eta, m,
                                                 mutant))
                  for k in range(K - 1)])
    B_geom = np.array([forgetting_bound(*sets[k], snaps[k], a,
                                        np.linalg.norm(M_end - quad_form(snaps[k], a), 2))
                       for k in range(K - 1)])
    return {"F": F, "B": B, "B_geom": B_geom}


def ratio(F: np.ndarray, B: np.ndarray) -> float:
    """Largest per-task F_k / B_k (B_k > 0 whenever any later loss is > 0)."""
    return float(np.max(F / np.maximum(B, 1e-300)))


# -- the method -------------------------------------------------------------------------------
@dataclass
class ContinualQuadraticGD(Method):
    """Eq. (1)-(4): GD on each XOR task in turn; train-time forgetting (5) and bound (6)."""

    name: ClassVar[str] = "continual_quadratic_gd"
    eta: float = 0.5  # step size; our choice (paper's value not read)
    init_scale: float = 0.1  # s0 in w_j(0) ~ N(0, s0^2/d I); our choice (paper not read)
    width: int | None = None  # hidden width m; None = the task stream's protocol
    iters: int | None = None  # GD steps per task T; None = the task stream's protocol
    mutant: str = ""  # foil only: "no_step_sum" (a known-wrong bound), "replay" (see the header)

    def _train(self, train: list, fit: list, W0: np.ndarray, a: np.ndarray, T: int,
               seed: int) -> dict:
        """train_sequential, once per training: the wrong-bound mutant changes only the bound
        (6b), so it shares the method's GD run of the same seed and data through the
        content-hashed array cache (claimbench.checkpoints; float64 arrays stored as they are,
        so the outputs are bit for bit those of training again)."""
        import sys

        from claimbench.checkpoints import array_digest, cached_arrays

        arrays = array_digest(W0, a, *[v for Xy in train for v in Xy],
                              *[v for Xy in fit for v in Xy])
        key = {"model": "continual_quadratic_gd", "seed": int(seed), "eta": self.eta, "T": int(T),
               "n_tasks": len(train), "n_fit": len(fit), "arrays": arrays}

        def compute() -> dict:
            res = train_sequential(train, W0, a, self.eta, T, fit=fit)
            return {**res, "snapshots": np.stack(res["snapshots"]),  # (K, m, d)
                    "probe_x": np.asarray(res["probe_x"], dtype=np.int64)}

        res = cached_arrays(key, compute, sources=(sys.modules[__name__],))
        return {**res, "snapshots": list(res["snapshots"]), "probe_x": res["probe_x"].tolist()}

    def run(self, data, seed):
        if self.mutant not in ("", "no_step_sum", "replay"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        train = data["train"]
        m = self.width or data["protocol"]["width"]
        T = self.iters or data["protocol"]["iters"]
        rng = np.random.default_rng(seed)
        a = second_layer(m)
        W0 = init_weights(rng, m, train[0][0].shape[1], self.init_scale)
        t0 = time.perf_counter()
        fit = pooled_stages(train) if self.mutant == "replay" else train
        res = self._train(train, fit, W0, a, T, seed)
        time_s = time.perf_counter() - t0
        # the bound's R_l is over what stage l trained on (fit), forgetting over the tasks' sets
        rep = forgetting_report(res["snapshots"], a, train, fit, res["losses"], res["wopt"],
                                self.eta, self.mutant)
        traces = {f"task{k + 1}_train_err_vs_iter": {"x": [float(v) for v in res["probe_x"]],
                                                     "y": res["probe_err"][:, k].tolist()}
                  for k in range(len(train))}
        return {
            "W_final": res["snapshots"][-1], "snapshots": res["snapshots"], "a": a,
            "losses": res["losses"], "wopt": res["wopt"], "eta": self.eta, "mutant": self.mutant,
            "train_forgetting": float(rep["F"].mean()),
            "first_task_train_forgetting": float(rep["F"][0]),
            "bound_train": float(rep["B"].mean()), "ratio_train": ratio(rep["F"], rep["B"]),
            "ratio_geom_train": ratio(rep["F"], rep["B_geom"]),
            "final_train_loss": float(np.mean([loss(res["snapshots"][-1], a, X, y)
                                               for X, y in train])),
            "time_s": time_s, "traces": traces,
        }
