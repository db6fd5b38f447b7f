"""Meta-BBO transfer to a control task: neuro-evolution of an Acrobot policy.

The learnable optimizers of a ``metabbo_transfer`` split (trained on its simple shifted
functions) are run, frozen, on a neuro-evolution task: the search space is the flattened
weights of a policy network and the objective is minus the episode's return. This is the
MetaDistill code's ``tasks/neuroevolution`` (``neuro_evo_tasks.py`` TASKS[5] "Acrobot",
``config/acrobot.json``, ``scripts/run_neuroevo.py``):

- environment: Gymnasium ``Acrobot-v1`` (the "book" dynamics, dt = 0.2, one RK4 step,
  torques {-1, 0, +1}, angular speeds clipped to 4 pi and 9 pi), written here in numpy and
  vectorised over the population (no gym download);
- policy: 6-32-3 MLP with leaky ReLU (slope 0.01), action = argmax of the logits;
  323 weights laid out as ``w1 (32, 6), b1 (32), w2 (3, 32), b2 (3)`` (``EvoNet.set_params``);
- episode: at most 256 steps; reward -1 on every step that does not end in the goal
  (tip above the bar: ``-cos t1 - cos(t1 + t2) > 1``); fitness = -return = number of
  steps before the goal (256 if never), in [0, 256], lower is better; box [-5, 5].

Deviation: every policy of one instance starts from the same initial state, drawn once from
U(-0.1, 0.1)^4 with the instance's seed and split (the code resets the environment at random
for every episode, a noisy objective). A fixed start makes the objective a function of the
weights alone, so all methods face the same task and cached instances hold no random state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.datasets.metabbo_transfer import TRAIN_FUNCTIONS, sample_training_tasks

# Acrobot-v1 constants (gymnasium/envs/classic_control/acrobot.py)
DT = 0.2
L1, M1, M2, LC1, LC2, I1, I2, G = 1.0, 1.0, 1.0, 0.5, 0.5, 1.0, 1.0, 9.8
MAX_VEL_1, MAX_VEL_2 = 4 * np.pi, 9 * np.pi
TORQUES = np.array([-1.0, 0.0, 1.0])
N_OBS, N_HIDDEN, N_ACT = 6, 32, 3
N_WEIGHTS = N_OBS * N_HIDDEN + N_HIDDEN + N_HIDDEN * N_ACT + N_ACT  # 323
MAX_STEPS = 256  # the code's --steps 256
LOWER, UPPER = -5.0, 5.0  # TASKS[5] xlb / xub


def dsdt(s: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Time derivative of the state (P, 4) under torques (P,): the 'book' equations of motion."""
    t1, t2, d1t, d2t = s[:, 0], s[:, 1], s[:, 2], s[:, 3]
    c2, s2 = np.cos(t2), np.sin(t2)
    d1 = M1 * LC1 ** 2 + M2 * (L1 ** 2 + LC2 ** 2 + 2 * L1 * LC2 * c2) + I1 + I2
    d2 = M2 * (LC2 ** 2 + L1 * LC2 * c2) + I2
    phi2 = M2 * LC2 * G * np.cos(t1 + t2 - np.pi / 2.0)
    phi1 = (-M2 * L1 * LC2 * d2t ** 2 * s2 - 2 * M2 * L1 * LC2 * d2t * d1t * s2
            + (M1 * LC1 + M2 * L1) * G * np.cos(t1 - np.pi / 2) + phi2)
    dd2 = (a + d2 / d1 * phi1 - M2 * L1 * LC2 * d1t ** 2 * s2 - phi2) / (M2 * LC2 ** 2 + I2 - d2 ** 2 / d1)
    dd1 = -(d2 * dd2 + phi1) / d1
    return np.stack([d1t, d2t, dd1, dd2], axis=1)  # (P, 4)


def acrobot_step(s: np.ndarray, a: np.ndarray) -> np.ndarray:
    """One environment step (P, 4) -> (P, 4): RK4 over [0, dt], angles wrapped, speeds clipped."""
    k1 = dsdt(s, a)
    k2 = dsdt(s + DT / 2 * k1, a)
    k3 = dsdt(s + DT / 2 * k2, a)
    k4 = dsdt(s + DT * k3, a)
    ns = s + DT / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    ns[:, :2] = (ns[:, :2] + np.pi) % (2 * np.pi) - np.pi
    ns[:, 2] = np.clip(ns[:, 2], -MAX_VEL_1, MAX_VEL_1)
    ns[:, 3] = np.clip(ns[:, 3], -MAX_VEL_2, MAX_VEL_2)
    return ns


def observe(s: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(s[:, 0]), np.sin(s[:, 0]), np.cos(s[:, 1]), np.sin(s[:, 1]),
                     s[:, 2], s[:, 3]], axis=1)  # (P, 6)


def at_goal(s: np.ndarray) -> np.ndarray:
    return -np.cos(s[:, 0]) - np.cos(s[:, 1] + s[:, 0]) > 1.0  # (P,)


def policy_actions(W: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """Action indices (P,) of P policies with flat weights W (P, 323) on observations (P, 6)."""
    P = len(W)
    i = N_OBS * N_HIDDEN
    w1 = W[:, :i].reshape(P, N_HIDDEN, N_OBS)  # (P, 32, 6)
    b1 = W[:, i:i + N_HIDDEN]  # (P, 32)
    j = i + N_HIDDEN + N_HIDDEN * N_ACT
    w2 = W[:, i + N_HIDDEN:j].reshape(P, N_ACT, N_HIDDEN)  # (P, 3, 32)
    b2 = W[:, j:]  # (P, 3)
    h = np.einsum("phi,pi->ph", w1, obs) + b1  # (P, 32)
    h = np.where(h > 0, h, 0.01 * h)
    logits = np.einsum("pah,ph->pa", w2, h) + b2  # (P, 3)
    return np.argmax(logits, axis=1)


def episode_steps(W: np.ndarray, start: np.ndarray, max_steps: int = MAX_STEPS) -> np.ndarray:
    """-return of each policy (P,): the steps before its episode reaches the goal (max_steps if never)."""
    W = np.atleast_2d(np.asarray(W, dtype=float))
    s = np.repeat(np.asarray(start, dtype=float)[None], len(W), axis=0)  # (P, 4)
    steps = np.zeros(len(W))
    live = np.arange(len(W))  # policies whose episode is still running
    for _ in range(max_steps):
        a = TORQUES[policy_actions(W[live], observe(s[live]))]
        s[live] = acrobot_step(s[live], a)
        done = at_goal(s[live])
        steps[live[~done]] += 1.0  # reward -1 on each step that does not end the episode
        live = live[~done]
        if len(live) == 0:
            break
    return steps


@dataclass
class AcrobotObjective:
    start: np.ndarray  # (4,) initial state shared by every policy

    def __call__(self, X: np.ndarray) -> np.ndarray:
        return episode_steps(X, self.start)


@dataclass
class MetaBBOControl(Dataset):
    """Training family of ``metabbo_transfer`` split ``split`` + held-out Acrobot neuro-evolution."""

    name: ClassVar[str] = "metabbo_control"
    task: str = "acrobot"  # the code's control tasks: LunarLander, BipedalWalker (Box2D), Acrobot
    split: int = 0  # training replicate: the same training set and seed as metabbo_transfer's split
    train_dim: int = 5
    budget: int = 1600  # evaluations, as the BBOB cells: the initial population of 32 + 49 generations

    def make(self, seed: int) -> Instance:
        if self.task != "acrobot":
            raise ValueError(f"unknown control task {self.task!r} (only acrobot is built)")
        # the same training set as MetaBBOTransfer(split, train_dim): one checkpoint serves both
        train_seed = 7919 * (self.split + 1) + 104729 * self.train_dim
        train = {"key": ("metabbo_transfer", self.split, self.train_dim, tuple(TRAIN_FUNCTIONS)),
                 "seed": train_seed, "dim": self.train_dim,
                 "sample_tasks": lambda rng: sample_training_tasks(self.train_dim, rng)}
        start = np.random.default_rng([seed, self.split, 5]).uniform(-0.1, 0.1, 4)
        data = {"f": AcrobotObjective(start), "dim": N_WEIGHTS, "lower": LOWER, "upper": UPPER,
                "budget": self.budget, "train": train, "control": self.task}
        return Instance(data=data, truth={"control": self.task, "start": start.tolist(),
                                          "max_steps": MAX_STEPS})
