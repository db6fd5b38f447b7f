"""Early-exit degradation under preemptive EDF on the simulated GPU
(``baselines/gpu_inference_sim.py``).

Each job runs a 3-exit version of its task's full model (exit costs measured with torch's FLOP
counter, ``datasets/inference_workloads.variant_profile``), one job at a time in EDF order. At
each exit the job stops ("degrades") when a burst is queued (at least ``BURST_QUEUE`` other
released jobs) or when the next exit cannot be reached by the deadline; otherwise it continues.
Exit i is credited with the accuracy of the width variant of the same rank (65.4 / 69.8 / 72.0),
although the early exits cost more FLOPs than those variants (0.41 / 0.70 vs 0.28 / 0.58).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines.gpu_inference_sim import Policy, simulate


@dataclass
class EarlyExitEDF(Method):
    name: ClassVar[str] = "early_exit"

    def run(self, data, seed):
        return simulate(data, Policy(concurrency=1, variant_rule="early_exit", alloc="first_fit",
                                     compact=False, loading="eager"))
