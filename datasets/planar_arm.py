"""A planar serial arm (analytic kinematics) and seeded scripted reaching demonstrations.

Written here: no maintained package ships a planar N-link arm with analytic forward kinematics
and Jacobian whose link lengths can be changed per episode (gymnasium's Reacher needs mujoco and
fixes its embodiment in XML). ``PlanarArmEnv`` gives the gymnasium-style reset/step interface on
one episode; batched kinematics (``fk``, ``jacobian``, ``dls_step``) serve rollouts of many
episodes at once.

Dynamics: kinematic position control. A joint target is tracked in one step up to a per-joint
speed limit ``max_dq``; an end-effector target is turned into a joint step by one damped
least-squares (DLS) IK step, dq = J^T (J J^T + lambda^2 I)^{-1} (x_target - fk(q)).

Expert: moves the end effector straight towards the goal at most ``ee_speed`` per step through
DLS IK, with Gaussian joint noise (the demonstrations are executed noisy trajectories).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

NOMINAL_LINKS = (0.4, 0.35, 0.25)  # ours: reach 1.0, a 3-link redundant planar arm


def fk(q: np.ndarray, links: np.ndarray) -> np.ndarray:
    """End-effector positions (..., 2) of joint angles q (..., n)."""
    ang = np.cumsum(q, axis=-1)  # absolute link angles
    return np.stack([(links * np.cos(ang)).sum(-1), (links * np.sin(ang)).sum(-1)], axis=-1)


def jacobian(q: np.ndarray, links: np.ndarray) -> np.ndarray:
    """d fk / d q, shape (..., 2, n): joint j moves every link from j on."""
    ang = np.cumsum(q, axis=-1)
    lx, ly = links * np.cos(ang), links * np.sin(ang)  # (..., n)
    # reversed cumulative sums: the part of the arm beyond joint j
    sx = np.flip(np.cumsum(np.flip(lx, -1), -1), -1)
    sy = np.flip(np.cumsum(np.flip(ly, -1), -1), -1)
    return np.stack([-sy, sx], axis=-2)


def dls_step(q: np.ndarray, dx: np.ndarray, links: np.ndarray, damping: float) -> np.ndarray:
    """One damped least-squares IK step dq (..., n) for an end-effector displacement dx (..., 2)."""
    J = jacobian(q, links)  # (..., 2, n)
    JJt = J @ np.swapaxes(J, -1, -2) + damping**2 * np.eye(2)  # (..., 2, 2)
    return (np.swapaxes(J, -1, -2) @ np.linalg.solve(JJt, dx[..., None]))[..., 0]


def track_joint(q: np.ndarray, target: np.ndarray, max_dq: float) -> np.ndarray:
    """Next joint state when commanding a joint position target (speed-limited)."""
    return q + np.clip(target - q, -max_dq, max_dq)


def track_ee(q: np.ndarray, target: np.ndarray, links: np.ndarray, damping: float,
             max_dq: float) -> np.ndarray:
    """Next joint state when commanding an end-effector position target (one DLS step)."""
    dq = dls_step(q, target - fk(q, links), links, damping)
    return q + np.clip(dq, -max_dq, max_dq)


def expert_rollout(q0: np.ndarray, goal: np.ndarray, links: np.ndarray, steps: int,
                   ee_speed: float, damping: float, max_dq: float, noise: float,
                   rng: np.random.Generator) -> np.ndarray:
    """Joint trajectories (B, steps + 1, n) of the scripted DLS expert from q0 (B, n)."""
    q = q0.copy()
    traj = [q.copy()]
    for _ in range(steps):
        err = goal - fk(q, links)  # (B, 2)
        norm = np.linalg.norm(err, axis=-1, keepdims=True)
        dx = err * np.minimum(1.0, ee_speed / np.maximum(norm, 1e-12))
        dq = dls_step(q, dx, links, damping) + noise * rng.standard_normal(q.shape)
        q = q + np.clip(dq, -max_dq, max_dq)
        traj.append(q.copy())
    return np.stack(traj, axis=1)


def sample_tasks(rng: np.random.Generator, n: int, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Start configurations (n, 3) (elbow bent, away from the stretched singularity) and goals
    (n, 2) in a half annulus in front of the base."""
    q0 = np.column_stack([rng.uniform(-np.pi / 2, np.pi / 2, n),
                          rng.uniform(0.3, 1.5, n), rng.uniform(0.3, 1.5, n)])
    r = rng.uniform(0.3, 0.8, n) * reach
    phi = rng.uniform(-np.pi / 2, np.pi / 2, n)
    return q0, np.column_stack([r * np.cos(phi), r * np.sin(phi)])


@dataclass
class PlanarArmReaching(Dataset):
    """``n_demos`` scripted demonstrations of reaching on the nominal arm, plus evaluation tasks
    on the nominal arm and on a changed embodiment (links scaled by 1+shift, 1-shift, 1)."""

    name: ClassVar[str] = "planar_arm_reaching"
    n_demos: int = 50  # note's scaling axis 50-500 (ours at reduced scale)
    horizon: int = 32  # ours: steps per episode (expert needs <= 27 at ee_speed)
    n_eval: int = 100  # ours: evaluation episodes per embodiment
    shift: float = 0.2  # ours: embodiment change, links * (1.2, 0.8, 1.0)
    ee_speed: float = 0.06  # ours: expert end-effector step cap
    noise: float = 0.02  # ours: expert joint noise (rad / step)
    max_dq: float = 0.25  # ours: joint speed limit (rad / step)
    damping: float = 0.05  # ours: DLS damping
    tol: float = 0.05  # ours: success radius (5% of reach)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        links = np.array(NOMINAL_LINKS)
        shifted = links * np.array([1 + self.shift, 1 - self.shift, 1.0])
        q0, goal = sample_tasks(rng, self.n_demos, links.sum())
        demo_q = expert_rollout(q0, goal, links, self.horizon, self.ee_speed, self.damping,
                                self.max_dq, self.noise, rng)
        eq0, egoal = sample_tasks(rng, self.n_eval, links.sum())
        sq0, sgoal = sample_tasks(rng, self.n_eval, shifted.sum())
        data = {"links": links, "shift_links": shifted, "demo_q": demo_q, "demo_goal": goal,
                "eval_q0": eq0, "eval_goal": egoal, "shift_q0": sq0, "shift_goal": sgoal,
                "horizon": self.horizon, "max_dq": self.max_dq, "damping": self.damping}
        return Instance(data=data, truth={"eval_goal": egoal, "shift_goal": sgoal, "tol": self.tol})


class PlanarArmEnv:
    """One reaching episode with the gymnasium reset/step signature (obs, reward, terminated,
    truncated, info); actions are joint targets (``mode="joint"``) or end-effector targets."""

    def __init__(self, links=NOMINAL_LINKS, mode: str = "joint", horizon: int = 32,
                 max_dq: float = 0.25, damping: float = 0.05, tol: float = 0.05) -> None:
        self.links, self.mode, self.horizon = np.asarray(links, float), mode, horizon
        self.max_dq, self.damping, self.tol = max_dq, damping, tol

    def reset(self, seed: int | None = None, options: dict | None = None):
        rng = np.random.default_rng(seed)
        q0, goal = sample_tasks(rng, 1, self.links.sum())
        self.q, self.goal, self.t = q0[0], goal[0], 0
        if options:
            self.q = np.asarray(options.get("q0", self.q), float)
            self.goal = np.asarray(options.get("goal", self.goal), float)
        return self._obs(), {}

    def _obs(self) -> np.ndarray:
        return np.concatenate([self.q, fk(self.q, self.links), self.goal])

    def step(self, action):
        action = np.asarray(action, float)
        if self.mode == "joint":
            self.q = track_joint(self.q, action, self.max_dq)
        else:
            self.q = track_ee(self.q, action, self.links, self.damping, self.max_dq)
        self.t += 1
        dist = float(np.linalg.norm(fk(self.q, self.links) - self.goal))
        return self._obs(), -dist, dist < self.tol, self.t >= self.horizon, {"dist": dist}
