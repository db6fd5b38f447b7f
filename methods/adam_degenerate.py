"""Adam on highly degenerate polynomials f(x) = x^k / k, k >= 4 even.

Paper: "Towards Understanding Adam Convergence on Highly Degenerate Polynomials",
Zhiwei Bai, Jiajie Zhao, Zhangchen Zhou, Zhi-Qin John Xu, Yaoyu Zhang (ICML 2026),
arXiv 2603.09581, https://arxiv.org/abs/2603.09581. Read: the arXiv v1 abstract and
third-party summaries; the body (theorems, figures, hyperparameters) could not be read.

Algorithm (standard Adam, Kingma & Ba 2014, as the paper analyses it), t = 1, 2, ...:
  (1) g_t = f'(x_{t-1}) = x_{t-1}^{k-1}                          (coordinate-wise when dim > 1)
  (2) m_t = beta1 m_{t-1} + (1 - beta1) g_t,   v_t = beta2 v_{t-1} + (1 - beta2) g_t^2,
      m_0 = v_0 = 0
  (3) m^_t = m_t / (1 - beta1^t),   v^_t = v_t / (1 - beta2^t)    (bias correction)
  (4) x_t = x_{t-1} - lr * m^_t / (sqrt(v^_t) + eps)

Theory used by the benchmark (our derivation, consistent with the abstract's mechanism:
v_t decouples from g_t^2 and the effective step lr / sqrt(v_t) grows geometrically):
  (5) near 0 with eps = 0, x_t ~ C rho^t with rho = beta2^(1 / (2(k - 2))): v_t then decays
      like beta2^t (g_t^2 ~ rho^(2(k-1)t) decays faster), so the step lr * g / sqrt(v) keeps a
      fixed ratio to x. Linear rate: ln|x_{t+1} / x_t| -> ln(beta2) / (2(k - 2)).
  (6) In the scale-free variables p = m / x^(k-1), y = v / (lr^2 x^(2(k-2))) the dynamics
      (bias corrections -> 1, x -> 0) are the 2-D map
          rho_t = 1 - p / sqrt(y),  p' = beta1 p / rho_t^(k-1) + 1 - beta1,
          y' = beta2 y / rho_t^(2(k-2))
      whose fixed point has rho_t = rho. Its Jacobian there has
          det = beta1 / rho^k,  1 + tr + det = 2(1 + c) + (k c - (k - 2)) delta,
      c = beta1 / rho^(k-1), delta = 1 / rho - 1. Locally asymptotically stable iff
          (6a) beta1 < rho^k = beta2^(k / (2(k - 2)))    (for k = 4: beta1 < beta2), and
          (6b) 2(1 + c) + (k c - (k - 2)) delta > 0      (fails only for small beta2).
      Leaving through (6a) (complex pair crossing the unit circle: momentum too slow)
      is what we label the spike side; through (6b) (an eigenvalue through -1: period-2
      sign flips) the SignGD-like side.
  (7) Averaging ln y' - ln y = ln beta2 - 2(k - 2) ln|rho_t| over any bounded orbit of (6)
      gives mean ln|rho_t| = ln(beta2) / (2(k - 2)): the rate (5) holds on every bounded
      orbit, not only at the fixed point. In our runs this is why the (6b) side still
      converges linearly at k = 6, 8 (irregular rho_t > 0); at k = 4 it ends in sign
      descent's 2-cycle at +-lr/2.

Deviations:
  1. Stability conditions (6a)-(6b) and the regime labels are our reconstruction; the
     paper's own theorem and phase boundaries were not seen. The abstract confirms only
     that three regimes exist (stable convergence, spikes, SignGD-like oscillation).
  2. eps = 0 by default (the setting where the decoupling argument is exact); eps > 0 is
     a field. The paper's experimental eps was not seen.
  3. lr = 0.01 (ours): the asymptotic rate (5) does not depend on lr, only the length of
     the initial sign-descent-like transient (about |x0| / lr steps) does.
  4. Float64 limits: the run stops when v_t or |x_t| drops below 1e-300 (no longer a
     trustworthy normal float); with eps > 0 the trusted window ends when
     sqrt(v^_t) < 10 eps (the step is then eps-dominated, GD-like). Both are recorded
     (``t_valid``, ``t_eps_floor``).

Mutants for foils (not the paper's method; the default mutant="" is Adam above, unchanged):
  "max_v": the denominator uses the running maximum of v^_t (AMSGrad's max, Reddi et al. 2018)
  instead of v^_t. v^ can then no longer decay below its peak, which removes the decoupling of
  v_t from g_t^2 that (5)-(7) rest on: the step is at most lr m^ / sqrt(max v^), GD-like.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.degenerate_polynomials import TINY, trajectory_outputs


def decoupled_rate(beta2: float, k: int) -> float:
    """Eq. (5): the predicted ln|x_{t+1} / x_t| in the stable regime (eps = 0)."""
    return math.log(beta2) / (2.0 * (k - 2))


def stability(beta1: float, beta2: float, k: int) -> dict:
    """Eq. (6): Jury quantities of the decoupled fixed point and the predicted regime
    (0 = stable linear convergence, 1 = spike side (6a fails), 2 = SignGD-like side)."""
    rho = beta2 ** (1.0 / (2.0 * (k - 2)))
    c = beta1 / rho ** (k - 1)
    delta = 1.0 / rho - 1.0
    det = beta1 / rho ** k
    flip = 2.0 * (1.0 + c) + (k * c - (k - 2)) * delta
    regime = 0 if (det < 1.0 and flip > 0.0) else (1 if det >= 1.0 else 2)
    return {"rho": rho, "c": c, "delta": delta, "det": det, "flip": flip,
            "trace": flip - 1.0 - det, "stable": regime == 0, "regime": regime}


def normalized_map(p: float, y: float, beta1: float, beta2: float, k: int) -> tuple:
    """Eq. (6): one step of the scale-free map (x -> 0, eps = 0, no bias correction)."""
    rho_t = 1.0 - p / math.sqrt(y)
    return (beta1 * p / rho_t ** (k - 1) + 1.0 - beta1, beta2 * y / rho_t ** (2 * (k - 2)))


@dataclass
class Adam(Method):
    name: ClassVar[str] = "adam"
    lr: float = 0.01  # ours (Deviation 3); paper's value not seen
    beta1: float = 0.9  # Kingma & Ba default; the paper sweeps (beta1, beta2) for its phase diagram
    beta2: float = 0.999  # Kingma & Ba default
    eps: float = 0.0  # the decoupling analysis' setting (Deviation 2)
    bias_correction: bool = True  # Eq. (3), standard Adam
    floor_factor: float = 10.0  # eps-dominated once sqrt(v^) < floor_factor * eps (ours)
    mutant: str = ""  # foil only: "max_v" = AMSGrad's running max of v^ (see the header)

    def run(self, data, seed: int) -> dict:
        if self.mutant not in ("", "max_v"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        grad, x, n_iter = data["grad"], data["x0"], int(data["n_iter"])
        vec = isinstance(x, np.ndarray)
        lowest = np.min if vec else (lambda a: a)
        size = np.linalg.norm if vec else abs
        b1, b2, lr, eps = self.beta1, self.beta2, self.lr, self.eps
        m = v = vmax = 0.0 * x
        p1 = p2 = 1.0  # beta1^t, beta2^t
        xs = [x]
        t_valid, t_floor = n_iter, None
        t0 = time.perf_counter()
        for t in range(1, n_iter + 1):
            g = grad(x)
            m = b1 * m + (1.0 - b1) * g
            v = b2 * v + (1.0 - b2) * g * g
            p1 *= b1
            p2 *= b2
            if lowest(v) < TINY:  # v_t no longer a trustworthy normal float
                t_valid = t - 1
                break
            mh, vh = (m / (1.0 - p1), v / (1.0 - p2)) if self.bias_correction else (m, v)
            if self.mutant == "max_v":  # foil only: v^ never decreases
                vh = vmax = np.maximum(vmax, vh)
            root = vh ** 0.5
            if eps > 0.0 and t_floor is None and lowest(root) < self.floor_factor * eps:
                t_floor = t - 1
            x = x - lr * mh / (root + eps)
            xs.append(x)
            if size(x) < TINY:
                t_valid = t - 1
                break
        elapsed = time.perf_counter() - t0
        if t_floor is not None:
            t_valid = min(t_valid, t_floor)
        return trajectory_outputs(xs, t_valid, elapsed, beta1=b1, beta2=b2, eps=eps,
                                  t_eps_floor=t_floor)
