"""Static calibration of a threshold set predictor: calibrated once, never updated.

A set predictor over a candidate list with scores s in [0, 1] is C_lambda = {c : s_c >= lambda}
(optionally capped at the ``max_size`` highest-scored candidates). It misses the true item y
iff s_y < lambda (or y falls outside the cap). Two one-shot rules on a labelled calibration
batch of n interactions with true-item scores s_1..s_n:

* ``conformal`` (split conformal prediction, Vovk et al. 2005; Angelopoulos & Bates 2021):
  with nonconformity r_i = -s_i, q = the ceil((n+1)(1-alpha))-th smallest r_i (+inf when that
  rank exceeds n) and lambda = -q. For exchangeable calibration and test points,
  P(y in C_lambda) >= 1 - alpha.
* ``hoeffding`` (the CARE repository's initial threshold, an upper-confidence-bound
  risk-control rule): scan lambda over an evenly spaced grid Lambda from 1 down to 0 and keep
  the first lambda whose empirical risk R_n(lambda) = u_base * (miss rate) satisfies
      R_n(lambda) <= (1 - u_base) + alpha - sqrt(log(2 |Lambda| / delta) / (2 n)),
  falling back to lambda = 0 when none does.

The threshold then stays fixed over the whole stream: the "no recalibration" reference under
drift. The stream is still consumed step by step through the feedback oracle (predict, then
observe), but the feedback is ignored.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method

RULES = ("conformal", "hoeffding")


def threshold_sets(scores: np.ndarray, lam, max_size: int | None = None) -> np.ndarray:
    """Boolean sets {c : s_c >= lam} over the last axis, capped at the ``max_size`` top scores.

    ``lam`` broadcasts against ``scores[..., 0]`` (one threshold per row, or per backbone).
    """
    scores = np.asarray(scores)
    sets = scores >= np.asarray(lam)[..., None]  # (..., C)
    if max_size is not None and max_size < scores.shape[-1] and np.any(sets.sum(-1) > max_size):
        order = np.argsort(-scores, axis=-1, kind="stable")  # (..., C)
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.arange(scores.shape[-1]), axis=-1)
        sets &= rank < max_size
    return sets


def true_in_set(sets: np.ndarray, true_pos: np.ndarray) -> np.ndarray:
    """(..., n) indicator that the true candidate of each row is in its set."""
    idx = np.broadcast_to(np.asarray(true_pos)[..., None], sets.shape[:-1] + (1,))
    return np.take_along_axis(sets, idx, axis=-1)[..., 0]


def conformal_threshold(true_scores: np.ndarray, alpha: float) -> float:
    """Split-conformal threshold on the true items' scores (sets {s >= lambda})."""
    r = np.sort(-np.asarray(true_scores, float))  # (n,) nonconformity, ascending
    n = r.size
    k = math.ceil((n + 1) * (1.0 - alpha))
    if k > n:
        return -np.inf
    return float(-r[k - 1])


def hoeffding_threshold(scores: np.ndarray, true_pos: np.ndarray, alpha: float,
                        delta: float = 0.05, n_grid: int = 101, base_utility: float = 1.0,
                        max_size: int | None = None) -> float:
    """CARE's initial lambda: the largest grid lambda whose miss rate clears the Hoeffding bound."""
    scores = np.asarray(scores)  # (n, C)
    n = scores.shape[0]
    grid = np.linspace(1.0, 0.0, n_grid)
    target = (1.0 - base_utility) + alpha - math.sqrt(math.log(2 * n_grid / delta) / (2 * n))
    for lam in grid:
        hit = true_in_set(threshold_sets(scores, lam, max_size), true_pos).mean()
        if base_utility * (1.0 - hit) <= target:  # repo loss: max(0, u_base - recall)
            return float(lam)
    return 0.0


@dataclass
class StaticCalibration(Method):
    name: ClassVar[str] = "static_calibration"

    rule: str = "conformal"  # "hoeffding" = the CARE repo's initial lambda held fixed
    backbone: int = 0  # which backbone's scores (0 = the best by construction)
    delta: float = 0.05  # repo lambda_search_: delta = 0.05 (hoeffding rule only)
    n_grid: int = 101  # repo lambda_search_: 101 grid points from 1 to 0 (hoeffding rule only)
    max_size: int | None = 50  # repo README: --max_pred_set_size 50

    def run(self, data, seed: int) -> dict:
        if self.rule not in RULES:
            raise ValueError(f"rule {self.rule!r} not in {RULES}")
        alpha = data["alpha"]
        t0 = time.perf_counter()
        cal = data["calib_scores"][self.backbone]  # (n, C)
        y_cal = data["calib_true"]  # (n,)
        if self.rule == "conformal":
            lam = conformal_threshold(cal[np.arange(cal.shape[0]), y_cal], alpha)
        else:
            lam = hoeffding_threshold(cal, y_cal, alpha, self.delta, self.n_grid,
                                      max_size=self.max_size)
        sess = data["stream"].session()
        for t in range(sess.n_steps):
            sess.feedback(t, threshold_sets(sess.scores(t)[self.backbone], lam, self.max_size))
        return {"sets": sess.sets, "lambda": float(lam), "time_s": time.perf_counter() - t0}
