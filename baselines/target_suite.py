"""The target tasks used as the benchmark suite themselves (for BBOB targets: the
human-designed suite). The reference a generated suite is compared with: how well do the
targets separate the portfolio, and how stable is the solver ranking when the same tasks are
run again with other seeds (the noise ceiling of the ranking agreement).

Assessed exactly as a generated suite (:func:`claimbench.baselines.suite_assessment.suite_outputs`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.api import Method


@dataclass
class TargetSuite(Method):
    name: ClassVar[str] = "target_suite"

    def run(self, data, seed: int) -> dict:
        from claimbench.datasets.eob_targets import target_function
        from claimbench.baselines import suite_assessment as ea

        specs = data["targets"]
        labels = [f"f{s['fid']}" if s["kind"] == "bbob" else s["kind"] for s in specs]
        out = ea.suite_outputs([target_function(s) for s in specs], labels, data, seed)
        out.update(time_s=0.0, n_programs_evaluated=0)
        return out
