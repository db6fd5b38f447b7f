"""Level-based foraging (LBF), a small faithful re-implementation (the PyPI ``lbforaging`` package
is not installed in this project's environment).

Rules kept from LBF (Papoudakis et al. 2021, "Benchmarking multi-agent deep RL algorithms in
cooperative tasks"): agents and foods on a grid, each with a level; actions NOOP, N, S, W, E,
LOAD; a food is collected when the agents adjacent to it (4-neighbourhood) that choose LOAD have
levels summing to at least the food's level; the team reward of a collection is the food's level
divided by the sum of all food levels (so an episode's return is at most 1). Agents cannot move
into a food, another agent's cell, or off the grid; two agents moving into one cell both stay.

Reduced: two agents of level 1 on a 5x5 grid with two foods at fixed seeded cells, one of level 2
(needs both agents: the coordination link an interaction-breaking attack cuts) and one of level 1
(either agent alone). Agents start at random free cells; episodes last ``horizon`` steps.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

NOOP, NORTH, SOUTH, WEST, EAST, LOAD = range(6)
MOVES = {NOOP: (0, 0), NORTH: (-1, 0), SOUTH: (1, 0), WEST: (0, -1), EAST: (0, 1), LOAD: (0, 0)}


class Foraging:
    """LBF dynamics; state = (agent cells, food-present flags). Cells are r * size + c."""

    def __init__(self, size: int, food_cells, food_levels, agent_levels, horizon: int):
        self.size, self.horizon = size, horizon
        self.food_cells = tuple(int(c) for c in food_cells)
        self.food_levels = tuple(int(v) for v in food_levels)
        self.agent_levels = tuple(int(v) for v in agent_levels)
        self.n_agents = len(self.agent_levels)
        self.total = float(sum(self.food_levels))
        # Per-step lookups precomputed (the step is the inner loop of every training episode):
        # each cell's in-bounds target per action (itself when the move leaves the grid) and
        # each food cell's 4-neighbourhood.
        self._target = [[self._move(p, a) for a in range(len(MOVES))] for p in range(size * size)]
        self._next_to = [{c for c in range(size * size) if self._adjacent(c, f)}
                         for f in self.food_cells]

    def _move(self, p: int, a: int) -> int:
        r, c = divmod(p, self.size)
        dr, dc = MOVES[a]
        nr, nc = r + dr, c + dc
        return nr * self.size + nc if 0 <= nr < self.size and 0 <= nc < self.size else p

    def reset(self, rng: np.random.Generator):
        free = [c for c in range(self.size ** 2) if c not in self.food_cells]
        self.pos = [int(c) for c in rng.choice(free, size=self.n_agents, replace=False)]
        self.present = [True] * len(self.food_cells)
        self.t = 0
        return self.state()

    def state(self):
        return tuple(self.pos), tuple(self.present)

    def _adjacent(self, a: int, b: int) -> bool:
        ra, ca = divmod(a, self.size)
        rb, cb = divmod(b, self.size)
        return abs(ra - rb) + abs(ca - cb) == 1

    def step(self, actions):
        """Apply one joint action; returns (state, team reward, done)."""
        blocked = {c for c, p in zip(self.food_cells, self.present) if p}
        target = []
        for p, a in zip(self.pos, actions):
            tgt = self._target[p][int(a)]  # p when the move leaves the grid
            target.append(p if tgt in blocked else tgt)
        # An agent moves unless its target is contested or held by an agent that does not leave.
        pos, new = self.pos, list(self.pos)
        for i, tgt in enumerate(target):
            if tgt == pos[i]:
                continue
            if not any(j != i and (target[j] == tgt or (pos[j] == tgt and target[j] == pos[j]))
                       for j in range(self.n_agents)):
                new[i] = tgt
        reward = 0.0
        acts = [int(a) for a in actions]
        for f, lvl in enumerate(self.food_levels if LOAD in acts else ()):  # no LOAD: no change
            if not self.present[f]:
                continue
            loaders = [i for i in range(self.n_agents)
                       if acts[i] == LOAD and pos[i] in self._next_to[f]]
            if loaders and sum(self.agent_levels[i] for i in loaders) >= lvl:
                self.present[f] = False
                reward += lvl / self.total
        self.pos = new
        self.t += 1
        done = self.t >= self.horizon or not any(self.present)
        return self.state(), reward, done


@dataclass
class LevelForaging(Dataset):
    """A seeded LBF layout: food cells drawn away from the border so every food has free sides."""

    name: ClassVar[str] = "lbf"
    size: int = 5
    food_levels: tuple = (2, 1)  # level-2 food needs both agents; level-1 food needs one
    agent_levels: tuple = (1, 1)
    horizon: int = 20  # ours (LBF default is 50 on 8x8; scaled to the 5x5 grid)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        inner = [r * self.size + c for r in range(1, self.size - 1) for c in range(1, self.size - 1)]
        cells = rng.choice(inner, size=len(self.food_levels), replace=False)
        data = {"size": self.size, "food_cells": tuple(int(c) for c in cells),
                "food_levels": tuple(self.food_levels), "agent_levels": tuple(self.agent_levels),
                "horizon": self.horizon}
        return Instance(data=data, truth={"max_return": 1.0})


def make_env(data: dict) -> Foraging:
    return Foraging(data["size"], data["food_cells"], data["food_levels"], data["agent_levels"],
                    data["horizon"])
