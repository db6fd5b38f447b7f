"""Local redundancy: plasticity measured by the gradient norm on a synthetic memorisation task.

Paper: "Local Redundancy: An Information-Theoretic Measure of Plasticity from Synthetic
Memorization", Jiaxuan Cheng. ICML 2026 (PMLR v306, cheng26i); no arXiv id found.
https://raw.githubusercontent.com/mlresearch/v306/main/assets/cheng26i/cheng26i.pdf
Read: the abstract and the first lines of the introduction (the body, its theorem, constants,
tables and experimental protocol could not be retrieved). Searched again on 2026-12-06 (issue
29: the search tool's pages and docs corpora by title, by the PMLR key cheng26i, by the
OpenReview id ucbH88BgIk and by the estimator's terms; the code corpus and the file index by
"local redundancy"): only the PDF's first page (abstract, opening of section 1) and the ICML
schedule's copy of the abstract are stored, so the estimator's normalisation, input and label
distributions and sample size remain unread.

What the abstract states, and what we implement (numbering ours):
  (1) Local model family of a network p_theta(y | x): the parameters in an infinitesimal
      neighbourhood of theta along gradient directions,
          M_eps(theta) = { p_{theta - t g} : 0 <= t <= eps, g a loss gradient at theta }.
  (2) Local redundancy R_eps(theta): the worst-case (minimax) redundancy, in the universal-
      coding sense, of M_eps(theta); the paper argues it is a principled plasticity measure
      (how much code length the network can still save by adapting locally).
  (3) R_eps is intractable; the paper proves a computable lower bound, the expected squared
      gradient norm on a synthetic memorisation task:
          LR(theta) = E_{x ~ P_syn, y ~ Unif{1..C}} || grad_theta l(f_theta(x), y) ||^2,
      inputs random and labels random, unrelated to any training data. (Our reading of why:
      a step of size t along the pair's own gradient raises its log-likelihood by
      t ||grad||^2 + O(t^2), the first-order code-length saving of the local family.)
  (4) Monte Carlo estimator (what `local_redundancy` computes): draw one synthetic task
      {(x_i, y_i)}_{i<=N}, x_i ~ N(0, I_d) in the network's (standardised) input space,
      y_i uniform, and average the per-example squared gradient norms,
          LR_hat(theta) = (1/N) sum_i ||grad_theta l(f_theta(x_i), y_i)||^2,
      each computed in closed form from back-propagated deltas (||a d^T||_F^2 = ||a||^2 ||d||^2).
      The same synthetic task is used for every checkpoint of an instance (common random
      numbers), so rankings do not carry sampling noise between checkpoints.
      With batch_size B > 1 the memorisation loss is the mean over B pairs and LR_hat averages
      ||grad (1/B) sum_{i in batch} l_i||^2 over N/B batches (a variant; B = 1 is the default).
  (5) A larger LR means more plasticity: the measure's score is LR_hat itself.

Deviations:
  1. The theorem and its constants were not available; the bound's form (3) is taken from the
     abstract's words. Constants do not matter here: only rankings of checkpoints are scored.
  2. The synthetic input distribution (standard Gaussian in the standardised input space), the
     label distribution (uniform), N = 512 pairs and the per-example reading of "expected squared
     gradient norm" (B = 1) are reconstructions (research note's plan).
  3. Experiments: the paper's continual image classification and time-series transfer are
     replaced by permuted-digits tasks on a small numpy MLP (datasets/plasticity_checkpoints.py);
     the time-series experiment is not reproduced.
  4. No normalisation (issue 29). LR_hat is the raw squared gradient norm, as the abstract
     words it; it is not divided by the parameter count, the weight norm, the loss or a
     layer-wise scale, because the paper's estimator could not be read. The raw norm is not
     scale-free: scaling a linear softmax model's weights from 0 to infinity takes it from
     (C-1)/C (E||x||^2 + 1) to twice that (tests/test_local_redundancy.py), and in a ReLU MLP
     the activations and deltas grow with the weights. Whether the paper normalises is
     unknown; the benchmark reports the Spearman correlation of every measure with the
     checkpoints' weight norm (metric weight_norm_rho) so that the reader can see how far
     this estimator tracks weight scale.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.plasticity_checkpoints import grad, per_example_sq_grad_norms


def synthetic_memorization_task(rng: np.random.Generator, n: int, d: int, n_classes: int,
                                input_dist: str = "gaussian") -> tuple[np.ndarray, np.ndarray]:
    """Random inputs (n, d) and random labels (n,), unrelated to any data (eq. 4)."""
    if input_dist == "gaussian":
        X = rng.standard_normal((n, d))
    elif input_dist == "uniform":  # unit variance per coordinate, like the Gaussian
        X = rng.uniform(-np.sqrt(3.0), np.sqrt(3.0), (n, d))
    else:
        raise ValueError(f"unknown input_dist {input_dist!r}")
    return X, rng.integers(0, n_classes, n)


def local_redundancy(theta: np.ndarray, sizes: tuple, X: np.ndarray, y: np.ndarray,
                     activation: str = "relu", batch_size: int = 1) -> float:
    """LR_hat(theta) on the synthetic task (X, y): eq. (4)."""
    if batch_size == 1:
        return float(per_example_sq_grad_norms(theta, sizes, X, y, activation).mean())
    n_batches = len(y) // batch_size
    norms = [float(np.sum(grad(theta, sizes, X[i * batch_size:(i + 1) * batch_size],
                               y[i * batch_size:(i + 1) * batch_size], activation) ** 2))
             for i in range(n_batches)]
    return float(np.mean(norms))


@dataclass
class LocalRedundancy(Method):
    """Score each checkpoint by its expected squared gradient norm on random inputs and labels."""

    name: ClassVar[str] = "local_redundancy"
    n_samples: int = 512  # synthetic pairs N (research note plan: 512 Gaussian inputs)
    input_dist: str = "gaussian"  # reconstruction: "random inputs" read as N(0, I)
    batch_size: int = 1  # reconstruction: per-example squared gradient norm

    def run(self, data: dict, seed: int) -> dict:
        rng = np.random.default_rng(seed)
        sizes = data["sizes"]
        X, y = synthetic_memorization_task(rng, self.n_samples, sizes[0], sizes[-1],
                                           self.input_dist)
        t0 = time.perf_counter()
        raw = [local_redundancy(th, sizes, X, y, data["activation"], self.batch_size)
               for th in data["checkpoints"]]
        elapsed = time.perf_counter() - t0
        return {"raw": raw, "scores": raw, "time_s": elapsed}
