"""Chunk-wise delta actions for imitation-learned manipulation (the paper's recommended design).

Paper: Yuchun Feng, Jinliang Zheng, Zhihao Wang, Dongxiu Liu, Jianxiong Li, Jiangmiao Pang,
Tai Wang, Xianyuan Zhan, "Demystifying Action Space Design for Robotic Manipulation Policies",
arXiv:2602.23408 (ICML 2026), https://arxiv.org/abs/2602.23408 (read: abstract, section titles
and third-party summaries; the body's equations and tables were not read here).

Implemented (the paper's taxonomy, Sec. 2): a policy predicts a chunk of H actions from the
state s_t at the chunk start. Spatial abstraction: joint space (s = q) or task space
(s = end-effector position, executed through IK). Temporal abstraction: absolute
(a_k = s_{t+k}), step-wise delta (a_k = s_{t+k} - s_{t+k-1}, each relative to the previous
step) or chunk-wise delta (a_k = s_{t+k} - s_t, every action relative to the chunk's start
state: the representation the paper finds best, Sec. 4.1). This class is behaviour cloning with
chunk-wise delta actions; the encoder/decoder and the training loop are the generic
``ChunkedBC`` (baselines/chunked_behavior_cloning.py), whose other modes are the baselines.

Deviations:
1. Real bimanual 6-DoF arms (AgileX, AIRBOT), images and ACT / Diffusion-Policy networks are
   replaced by a simulated planar 3-link arm (datasets/planar_arm.py), state observations and
   an MLP chunk regressor trained by MSE (deterministic, no CVAE / diffusion head).
2. One task (reaching a goal) instead of four manipulation tasks; success = final end-effector
   within 5% of the reach of the goal.
3. Proprioception is given in the action's space (q for joint policies, fk(q) for task-space
   policies); the paper's policies see images plus proprioception.
4. Task-space targets are executed by one damped-least-squares IK step per control step.
5. "Control stability" is measured as the mean squared third difference of the joint
   trajectory (jerk); the paper's stability measure was not read.
6. Embodiment change = link lengths scaled by (1.2, 0.8, 1.0) at test time with the
   controller's kinematics updated (the paper's cross-embodiment study is on other robots).
7. Scales (demos, H = 8 from the research note, MLP width, Adam steps) are ours.

Mutant for foils (field ``mutant``; default "" is the method unchanged):
- ``decode_stepwise``: trained on chunk-wise delta labels but decoded as step-wise deltas
  (target_k = current state + a_k instead of chunk-start state + a_k): the implementation slip
  between the two delta conventions that the paper calls decisive ("implementation nuances").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.chunked_behavior_cloning import ChunkedBC

MUTANTS = ("", "decode_stepwise")


@dataclass
class ChunkDeltaBC(ChunkedBC):
    name: ClassVar[str] = "chunk_delta_bc"
    space: str = "joint"  # the paper's best configuration: joint space (wispaper summary)
    mode: str = "chunk_delta"  # Sec. 4.1: chunk-wise delta
    mutant: str = ""

    def _decode_mode(self) -> str:
        if self.mutant not in MUTANTS:
            raise ValueError(f"unknown mutant {self.mutant!r}")
        return "step_delta" if self.mutant == "decode_stepwise" else self.mode
