"""Heuristic sequential placement restricted to rule-legal anchors: greedy minimum-HPWL and
uniform random (the heuristic baselines of RL floorplanning papers, e.g. RulePlanner's
"greedy legal" and "random legal" placers). Works on ``datasets.floorplan_rules`` circuits."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.floorplan_rules import FloorplanEnv


def legal_anchors(env: FloorplanEnv) -> np.ndarray:
    """AND of all rule matrices (fewest broken rules at a dead end)."""
    return env.legal(env.rule_masks())


def place_all(circ: dict, rule: str, rng: np.random.Generator) -> np.ndarray:
    env = FloorplanEnv(circ)
    while not env.done:
        legal = legal_anchors(env)
        if rule == "greedy":
            cost = np.where(legal, env.wire_delta()[None], np.inf)  # (2, G, G)
            cand = np.argwhere(cost <= cost.min() + 1e-9)
        else:
            cand = np.argwhere(legal)
        d, x, y = cand[rng.integers(len(cand))]  # random tie-break
        env.step(int(d), int(x), int(y))
    return env.place


@dataclass
class LegalPlacement(Method):
    name: ClassVar[str] = "legal_placement"
    rule: str = "greedy"  # "greedy" (min HPWL increase) or "random"

    def run(self, data, seed):
        rng = np.random.default_rng(seed)
        # "newrule" (circuits with an extra rule) last: the eval and transfer draws stay as
        # they were
        return {k: [place_all(c, self.rule, rng) for c in data.get(k, [])]
                for k in ("eval", "transfer", "newrule")}
