"""Periodic and bursty real-time DNN inference workloads for a simulated edge GPU.

``InferenceWorkload`` draws ``n_tasks`` periodic inference tasks (implicit deadlines: the
deadline of a job is its release plus the task's period). Each task serves one DNN with three
lightweight variants, width multipliers 1.0 / 0.75 / 0.5 of a small CNN. The relative cost
(FLOPs), weight size (parameters) and activation size of each variant are *measured* on small
torch CNNs here (``variant_profile``: ``torch.utils.flop_counter.FlopCounterMode``; exact
counts, not wall time, so they do not depend on the machine's load). Accuracies per width
multiplier are the published ImageNet top-1 of MobileNetV2 at those multipliers and 224 px
(72.0 / 69.8 / 65.4, the MobileNetV2 authors' released checkpoints, Sandler et al. 2018), used
as a monotone cost-accuracy table.

Work is in GPU-milliseconds at full device rate. ``load`` is the serial utilisation
sum_i C_i / (u_full T_i), where C_i is the full variant's work and u_full the fraction of the
GPU one full-model job can occupy alone (``baselines/gpu_inference_sim.py``), i.e. the
utilisation a one-job-at-a-time scheduler sees. ``burst_rate`` is the probability that a burst
(``burst_size`` extra jobs of one random task, released together) occurs in each window of
``burst_window`` ms.

``data`` = the task table and the sorted job releases; ``truth`` is empty (the simulator's
outcomes are the metrics; no hidden label exists).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

WIDTHS = (1.0, 0.75, 0.5)  # MobileNetV2 width multipliers (Sandler et al. 2018)
ACCURACY = (72.0, 69.8, 65.4)  # MobileNetV2 ImageNet top-1 at those multipliers (Sandler et al.)
U_FULL = 0.5  # ours: fraction of the GPU one full-model job fills alone (see the simulator)


@functools.lru_cache(maxsize=None)
def variant_profile(channels: tuple[int, ...] = (16, 32, 64, 128)) -> dict:
    """Relative FLOPs, parameters and peak activation of the width-scaled CNN variants, and the
    cumulative FLOP fractions at the exits of a 3-exit version of the full model.

    Counted with torch's FLOP counter on a 32x32 RGB input (batch 1), all relative to the full
    variant (so the absolute CNN size does not matter)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    def convnet(mult: float):
        chans = [max(1, int(round(c * mult))) for c in channels]
        g = torch.Generator().manual_seed(0)
        layers, heads, c_in = [], [], 3
        for c in chans:
            w = torch.randn(c, c_in, 3, 3, generator=g) * 0.1  # (C_out, C_in, 3, 3)
            layers.append(w)
            heads.append(torch.randn(10, c, generator=g) * 0.1)  # (10, C)
            c_in = c
        return layers, heads

    def run(layers, heads, exit_after: int | None):
        x = torch.zeros(1, 3, 32, 32)  # (1, 3, H, W)
        act = 0
        for i, w in enumerate(layers):
            x = torch.nn.functional.conv2d(x, w, padding=1)  # (1, C, H, W)
            x = torch.relu(x)
            if i < len(layers) - 1:
                x = torch.nn.functional.max_pool2d(x, 2)  # (1, C, H/2, W/2)
            act = max(act, x.numel())
            if exit_after is not None and i in exit_after:
                pooled = x.mean(dim=(2, 3))  # (1, C)
                _ = pooled @ heads[i].T  # (1, 10)
        return act

    flops, params, acts = [], [], []
    for m in WIDTHS:
        layers, heads = convnet(m)
        with FlopCounterMode(display=False) as fc:
            act = run(layers, heads, (len(layers) - 1,))
        flops.append(fc.get_total_flops())
        params.append(sum(w.numel() for w in layers) + heads[-1].numel())
        acts.append(act)
    # Multi-exit full model: exits after blocks 2, 3 and 4 (cumulative cost includes the heads).
    layers, heads = convnet(1.0)
    exit_flops = []
    for k in (1, 2, 3):
        with FlopCounterMode(display=False) as fc:
            run(layers[:k + 1], heads, tuple(range(1, k + 1)))
        exit_flops.append(fc.get_total_flops())
    flops = np.array(flops, float)
    return {
        "work": tuple(float(v) for v in flops / flops[0]),
        "weights": tuple(float(v) for v in np.array(params, float) / params[0]),
        "act": tuple(float(v) for v in np.array(acts, float) / acts[0]),
        "exit_work": tuple(float(v) for v in np.array(exit_flops, float) / flops[0]),
    }


@dataclass
class InferenceWorkload(Dataset):
    name: ClassVar[str] = "inference_workload"
    load: float = 1.0  # serial utilisation (see module doc); swept
    burst_rate: float = 0.0  # probability of a burst per window; swept
    n_tasks: int = 4  # the note's plan: 3-6 tasks
    horizon_ms: float = 2000.0  # ours: simulated time
    burst_size: int = 3  # ours: extra jobs released together in a burst
    burst_window_ms: float = 100.0  # ours
    period_choices: tuple = (25.0, 33.3, 50.0, 100.0)  # ours: 40 / 30 / 20 / 10 fps streams

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        prof = variant_profile()
        periods = rng.choice(np.array(self.period_choices), size=self.n_tasks)  # (n,)
        shares = rng.dirichlet(np.full(self.n_tasks, 4.0))  # (n,) share of the utilisation
        # C_i / (U_FULL T_i) = load * share_i
        full_work = self.load * shares * U_FULL * periods  # (n,) GPU-ms at full device rate
        scale = full_work / full_work.mean()  # relative model size of each task
        tasks = []
        for i in range(self.n_tasks):
            tasks.append({
                "period": float(periods[i]),
                "work": tuple(float(full_work[i] * w) for w in prof["work"]),
                "exit_work": tuple(float(full_work[i] * w) for w in prof["exit_work"]),
                "weights": tuple(float(0.25 * scale[i] * w) for w in prof["weights"]),
                "act": tuple(float(0.15 * scale[i] * a) for a in prof["act"]),
                "acc": ACCURACY,
            })
        jobs = []  # (release, task)
        for i, t in enumerate(tasks):
            phase = rng.uniform(0, t["period"])
            for r in np.arange(phase, self.horizon_ms, t["period"]):
                jobs.append((float(r), i))
        n_win = int(self.horizon_ms // self.burst_window_ms)
        for w in range(n_win):
            if rng.random() < self.burst_rate:
                r = float(w * self.burst_window_ms + rng.uniform(0, self.burst_window_ms))
                i = int(rng.integers(self.n_tasks))
                jobs.extend([(r, i)] * self.burst_size)
        jobs.sort()
        return Instance(data={"tasks": tasks, "jobs": jobs, "horizon": self.horizon_ms})
