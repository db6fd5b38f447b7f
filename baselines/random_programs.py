"""Random benchmark programs: a suite of expression trees drawn from the same program space
and size budget as the GP of EoB (ramped half-and-half up to the GP's depth limit, at least
one variable), with no selection and no evolution. The control that tells what the search
adds over the program space itself.

The suite is assessed exactly as EoB's (:func:`claimbench.baselines.suite_assessment.suite_outputs`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


@dataclass
class RandomPrograms(Method):
    name: ClassVar[str] = "random_programs"
    suite_size: int = 5  # as EoB's suite
    min_depth: int = 2  # as EoB's initial population
    max_depth: int = 6  # EoB's depth limit: the same size budget

    def run(self, data, seed: int) -> dict:
        from claimbench.baselines import suite_assessment as ea
        from claimbench.baselines import expression_trees as et

        rng = np.random.default_rng([seed, 2])
        t0 = time.perf_counter()
        suite = [et.new_program(rng, data["dim"], self.min_depth, self.max_depth)
                 for _ in range(self.suite_size)]
        time_s = time.perf_counter() - t0
        out = ea.suite_outputs([et.program_function(p) for p in suite],
                               [et.to_string(p["tree"]) for p in suite], data, seed)
        out.update(time_s=time_s, n_programs_evaluated=0)
        return out
