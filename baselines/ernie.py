"""ERNIE: robust MARL by adversarial regularisation of the policies' Lipschitz constant, in a
tabular VDN version.

Paper: Alexander Bukharin, Yan Li, Yue Yu, Qingru Zhang, Zhehui Chen, Simiao Zuo, Chao Zhang,
Songan Zhang, Tuo Zhao, "Robust Multi-Agent Reinforcement Learning via Adversarial
Regularization: Theoretical Foundation and Stable Algorithms", NeurIPS 2023, arXiv 2310.10810
(read: the abstract, through the project's pages corpus; code github.com/abukharin3/ERNIE not
read). One of the "existing robust MARL baselines" of the IBAL paper's kind (the research note of
ibal_marl lists adversarial regularisation first among its baselines).

Algorithm implemented: the MARL learner's own loss plus a weight ``lam`` times an adversarial
regulariser max_{o' in B(o_i)} D(Q_i(o_i, .), Q_i(o', .)) for every agent i, which promotes the
Lipschitz continuity of each agent's values (hence its greedy policy) in its observation: the
inner max picks the perturbation of the observation that moves the values most, the outer step
pulls the two value vectors together. Training itself is clean (no attack).

Deviations:
1. Tabular VDN (``baselines/vdn_adversarial.py``) on the level-foraging task of ``ibal_marl``
   instead of deep MARL learners on traffic-light control and particle environments.
2. The perturbation ball B(o_i) of a discrete observation: the agent's view of its teammate
   moved to a grid cell within Manhattan distance ``radius`` (1: the smallest change of a grid
   observation; its own cell and the food flags are kept). The inner max is exact over that set
   (at most 4 cells) instead of projected gradient ascent; D is the squared Euclidean distance.
3. The gradient step of lam * D acts on both Q rows (both are parameters of the table), with
   the TD step's learning rate; ``lam`` = 0.5 is ours (the paper's weight was not read).
4. No regulariser on other agents' actions (ERNIE's malicious-action term) and no Stackelberg
   reformulation.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.vdn_adversarial import (N_ACTIONS, VDN, ObsCoder, evaluate, greedy,
                                                 observe)
from claimbench.datasets.level_foraging import make_env
from claimbench.grid import derive_seed


def neighbours(cell: int, size: int, radius: int) -> list[int]:
    """Cells other than ``cell`` within Manhattan distance ``radius`` on a size x size grid."""
    r, c = divmod(cell, size)
    return [rr * size + cc for rr in range(size) for cc in range(size)
            if 0 < abs(rr - r) + abs(cc - c) <= radius]


def regularise(q_i, row: int, candidates, step: float) -> int:
    """One step of ``step`` * ||q_i[row] - q_i[o']||^2 on both rows, o' the candidate row that
    maximises the distance (the adversarial perturbation); returns o' (-1 when none)."""
    if not candidates:
        return -1
    a = q_i[row]
    dist = [sum((x - y) ** 2 for x, y in zip(a, q_i[o])) for o in candidates]
    worst = candidates[int(np.argmax(dist))]
    b = q_i[worst]
    for k in range(N_ACTIONS):  # gradient of (a - b)^2 is 2(a - b); the 2 is folded into step
        d = a[k] - b[k]
        a[k] -= step * d
        b[k] += step * d
    return worst


def train_ernie(data: dict, seed: int, n_episodes: int, alpha: float, gamma: float,
                eps_end: float, lam: float, radius: int):
    env = make_env(data)
    size = data["size"]
    coder = ObsCoder(size, len(data["food_cells"]))
    q = [[[0.0] * N_ACTIONS for _ in range(coder.n)] for _ in range(2)]  # (2, n_obs, 6) lists
    near = [neighbours(c, size, radius) for c in range(size * size)]
    rng = np.random.default_rng(derive_seed(seed, "train"))
    for k in range(n_episodes):
        eps = max(eps_end, 1.0 - k / (0.6 * n_episodes))  # as VDN: decay over 60% of training
        state = env.reset(rng)
        obs = observe(state, coder, False, -1, rng)
        done = False
        while not done:
            acts = [int(rng.integers(N_ACTIONS)) if rng.random() < eps
                    else greedy(q[i][obs[i]], rng) for i in range(2)]
            pos, present = state
            state, r, done = env.step(acts)
            nobs = observe(state, coder, False, -1, rng)
            boot = 0.0 if done else gamma * sum(max(q[i][nobs[i]]) for i in range(2))
            err = r + boot - sum(q[i][obs[i]][acts[i]] for i in range(2))
            for i in range(2):
                q[i][obs[i]][acts[i]] += alpha * err
            for i in range(2):  # the adversarial regulariser on the observation just used
                mate = pos[1 - i]
                cands = [coder(pos[i], m, present) for m in near[mate]]
                regularise(q[i], obs[i], cands, alpha * lam)
            obs = nobs
    return env, coder, q


@dataclass
class ERNIE(VDN):
    """Tabular VDN trained clean with ERNIE's adversarial Lipschitz regulariser."""

    name: ClassVar[str] = "ernie"
    train_attack: str = "none"
    lam: float = 0.5  # ours: weight of the adversarial regulariser
    radius: int = 1  # ours: the observation ball (teammate view within this grid distance)

    def run(self, data, seed):
        from claimbench.checkpoints import cached_arrays
        from claimbench.datasets import level_foraging

        key = {"kind": "ernie_q", "data": dict(data), "seed": seed, "n_episodes": self.n_episodes,
               "alpha": self.alpha, "gamma": self.gamma, "eps_end": self.eps_end,
               "lam": self.lam, "radius": self.radius}

        def compute() -> dict:
            _, _, q = train_ernie(data, seed, self.n_episodes, self.alpha, self.gamma,
                                  self.eps_end, self.lam, self.radius)
            return {"q": np.asarray(q, dtype=np.float64)}  # (2, n_obs, 6)

        sources = (sys.modules[__name__], sys.modules[VDN.__module__], level_foraging)
        q = cached_arrays(key, compute, sources=sources)["q"]
        env = make_env(data)
        coder = ObsCoder(data["size"], len(data["food_cells"]))
        out = evaluate(env, coder, [qi.tolist() for qi in q], seed, self.test_p, self.n_eval,
                       self.mi_batch, self.mi_objective)
        out["visited_masked_rows"] = float(
            sum(int((np.abs(qi).sum(1) > 0).reshape(-1, coder.cells + 1, 2 ** coder.n_food)
                    [:, coder.mask].sum()) for qi in q))
        return out
