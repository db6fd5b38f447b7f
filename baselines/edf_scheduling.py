"""Earliest-deadline-first schedulers for real-time inference on the simulated GPU
(``baselines/gpu_inference_sim.py``).

* ``PreemptiveEDF``: one job at a time, the released job with the earliest deadline runs and
  preempts the others (Liu & Layland 1973); preempted jobs keep their activation memory. Always
  the full model, weights loaded eagerly (whole model before the job starts), first-fit memory.
* ``ConcurrentEDF``: the ``concurrency`` earliest-deadline jobs run together under processor
  sharing (concurrent kernels / streams), full model, eager loading, first-fit memory without
  compaction (a job waits when no hole fits it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method
from claimbench.baselines.gpu_inference_sim import Policy, simulate


@dataclass
class PreemptiveEDF(Method):
    name: ClassVar[str] = "preemptive_edf"

    def run(self, data, seed):
        return simulate(data, Policy(concurrency=1, variant_rule="full", alloc="first_fit",
                                     compact=False, loading="eager"))


@dataclass
class ConcurrentEDF(Method):
    name: ClassVar[str] = "concurrent_edf"
    concurrency: int = 4  # ours: same cap as the RTInfer-like policy

    def run(self, data, seed):
        return simulate(data, Policy(concurrency=self.concurrency, variant_rule="full",
                                     alloc="first_fit", compact=False, loading="eager"))
