"""Global online threshold updating for a threshold set predictor (no change localization).

One backbone, sets C_t = {c : s_c >= lambda_t}. After committing the sets of step t and
observing the true items, the threshold takes a gradient step on the miss rate:
    lambda_{t+1} = clip(lambda_t - eta * (R_hat_t - alpha), 0, 1),
where R_hat_t is
* ``window="step"``: the miss rate of step t alone. With one interaction per step this is
  adaptive conformal inference applied to the threshold directly (Gibbs & Candes 2021; the
  "quantile tracking" form of Angelopoulos, Candes & Tibshirani 2023); here a step is a batch
  of interactions.
* ``window="cumulative"``: the miss rate averaged over every step so far, i.e. CARE's update
  with its segment pinned at the first step (CARE without loss-based change localization).
The initial threshold comes from the calibration batch (split conformal, or the CARE
repository's Hoeffding rule). ``freeze_every`` > 0 skips the update after every
``freeze_every``-th step, as the CARE repository does on its evaluation steps.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.static_calibration import (RULES, conformal_threshold,
                                                     hoeffding_threshold, threshold_sets,
                                                     true_in_set)

WINDOWS = ("step", "cumulative")


@dataclass
class OnlineThresholdUpdate(Method):
    name: ClassVar[str] = "online_threshold_update"

    eta: float = 0.5  # CARE repo care.sh: ETAS = 0.5 (same step size as CARE)
    window: str = "step"  # "cumulative" = CARE's update without localization
    init: str = "conformal"  # "hoeffding" = CARE's initial lambda
    backbone: int = 0  # which backbone's scores (0 = the best by construction)
    freeze_every: int = 0  # CARE repo: 5 (no update after steps 4, 9, ...); 0 = never freeze
    delta: float = 0.05  # CARE repo (hoeffding init only)
    n_grid: int = 101  # CARE repo (hoeffding init only)
    max_size: int | None = 50  # CARE repo README: --max_pred_set_size 50

    def run(self, data, seed: int) -> dict:
        if self.window not in WINDOWS or self.init not in RULES:
            raise ValueError(f"window {self.window!r} / init {self.init!r} unknown")
        alpha = data["alpha"]
        t0 = time.perf_counter()
        cal = data["calib_scores"][self.backbone]  # (n, C)
        y_cal = data["calib_true"]
        if self.init == "conformal":
            lam = conformal_threshold(cal[np.arange(cal.shape[0]), y_cal], alpha)
            lam = float(np.clip(lam, 0.0, 1.0))
        else:
            lam = hoeffding_threshold(cal, y_cal, alpha, self.delta, self.n_grid,
                                      max_size=self.max_size)
        sess = data["stream"].session()
        T = sess.n_steps
        miss = np.zeros(T)  # (T,) observed miss rate per step
        lams = np.zeros(T)  # (T,)
        for t in range(T):
            lams[t] = lam
            sets = threshold_sets(sess.scores(t)[self.backbone], lam, self.max_size)  # (n, C)
            y = sess.feedback(t, sets)
            miss[t] = 1.0 - true_in_set(sets, y).mean()
            if self.freeze_every and (t + 1) % self.freeze_every == 0:
                continue
            r_hat = miss[t] if self.window == "step" else miss[:t + 1].mean()
            lam = float(np.clip(lam - self.eta * (r_hat - alpha), 0.0, 1.0))
        return {"sets": sess.sets, "time_s": time.perf_counter() - t0,
                "traces": {"lambda_vs_step": {"x": list(range(T)), "y": lams.tolist()}}}
