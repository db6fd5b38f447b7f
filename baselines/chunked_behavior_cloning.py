"""Behaviour cloning with action chunks (ACT-style open-loop chunks, MLP policy), over a choice
of action space: ``space`` joint / eef (end-effector position) and ``mode`` abs / step_delta /
chunk_delta (the temporal representation of the H actions of a chunk).

Encoding of a chunk starting at state s_t (s = q for joint space, s = fk(q) for eef space):
  abs:         a_k = s_{t+k}
  step_delta:  a_k = s_{t+k} - s_{t+k-1}
  chunk_delta: a_k = s_{t+k} - s_t                   (every action relative to the chunk start)
Decoding while executing step k of the chunk, with measured state c_{k-1}:
  abs: target_k = a_k; step_delta: target_k = c_{k-1} + a_k; chunk_delta: target_k = s_t + a_k.
Joint targets are tracked directly (speed-limited), eef targets through one DLS IK step
(datasets/planar_arm.py). The policy observes proprioception in its own space (q or fk(q)) and
the goal; it is an MLP regressing the H x d chunk with a mean-squared error on standardised
targets (Adam). Chunks are executed open loop, then the policy is queried again.
Trained policies go through the checkpoint cache (``claimbench.checkpoints``), keyed on the
training tensors, fields and seed, so configurations that differ in decoding only share one.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.planar_arm import fk, track_ee, track_joint

SPACES = ("joint", "eef")
MODES = ("abs", "step_delta", "chunk_delta")


@functools.cache
def torch_classes() -> SimpleNamespace:
    from torch import nn

    class ChunkMLP(nn.Module):
        def __init__(self, d_in: int, d_out: int, width: int) -> None:
            super().__init__()
            self.net = nn.Sequential(nn.Linear(d_in, width), nn.ReLU(), nn.Linear(width, width),
                                     nn.ReLU(), nn.Linear(width, d_out))

        def forward(self, x):  # x (B, d_in) -> (B, H * d)
            return self.net(x)

    return SimpleNamespace(ChunkMLP=ChunkMLP)


def proprio(q: np.ndarray, links: np.ndarray, space: str) -> np.ndarray:
    return q if space == "joint" else fk(q, links)


def encode_chunks(s: np.ndarray, H: int, mode: str) -> np.ndarray:
    """Chunk labels (B, T, H, d) from state trajectories s (B, T + 1, d); past the end of an
    episode the last state is repeated (the arm holds still)."""
    B, T1, d = s.shape
    pad = np.concatenate([s, np.repeat(s[:, -1:], H, axis=1)], axis=1)  # (B, T + 1 + H, d)
    idx = np.arange(T1 - 1)[:, None] + np.arange(1, H + 1)[None, :]  # (T, H): t + k
    fut = pad[:, idx]  # (B, T, H, d)
    if mode == "abs":
        return fut
    if mode == "chunk_delta":
        return fut - s[:, :-1, None, :]
    prev = pad[:, idx - 1]  # (B, T, H, d): s_{t+k-1}
    return fut - prev


def decode_target(a_k: np.ndarray, start: np.ndarray, current: np.ndarray, mode: str) -> np.ndarray:
    if mode == "abs":
        return a_k
    if mode == "chunk_delta":
        return start + a_k
    return current + a_k


@dataclass
class ChunkedBC(Method):
    name: ClassVar[str] = "chunked_bc"
    space: str = "joint"  # joint | eef
    mode: str = "abs"  # abs | step_delta | chunk_delta
    chunk: int = 8  # research note's plan (H = 8)
    width: int = 64  # ours: CPU scale
    steps: int = 800  # ours: Adam steps, CPU scale
    batch: int = 128  # ours
    lr: float = 1e-3  # ours (Adam default scale)

    def _decode_mode(self) -> str:
        return self.mode

    def features(self, q, goal, links) -> np.ndarray:
        return np.concatenate([proprio(q, links, self.space), goal], axis=-1)

    def run(self, data: dict, seed: int) -> dict:
        import torch

        if self.space not in SPACES or self.mode not in MODES:
            raise ValueError(f"space {self.space!r} / mode {self.mode!r}")
        H, links = self.chunk, data["links"]
        q = data["demo_q"]  # (N, T + 1, 3)
        N, T1, _ = q.shape
        s = proprio(q, links, self.space)  # (N, T + 1, d)
        y = encode_chunks(s, H, self.mode).reshape(N * (T1 - 1), -1)  # (N T, H d)
        goal = np.repeat(data["demo_goal"][:, None], T1 - 1, axis=1)  # (N, T, 2)
        x = self.features(q[:, :-1], goal, links).reshape(N * (T1 - 1), -1)  # (N T, d + 2)
        xm, xs = x.mean(0), x.std(0) + 1e-6
        ym, ys = y.mean(0), y.std(0) + 1e-6
        xt = torch.as_tensor((x - xm) / xs, dtype=torch.float32)
        yt = torch.as_tensor((y - ym) / ys, dtype=torch.float32)
        model, loss = self._trained(xt, yt, seed)
        model.eval()

        def policy(qb, gb, lk):
            f = torch.as_tensor((self.features(qb, gb, lk) - xm) / xs, dtype=torch.float32)
            with torch.no_grad():
                out = model(f).numpy() * ys + ym  # (B, H d)
            return out.reshape(len(qb), H, -1)

        nominal = self.rollout(policy, data["eval_q0"], data["eval_goal"], links, data)
        shifted = self.rollout(policy, data["shift_q0"], data["shift_goal"], data["shift_links"],
                               data)
        jq = np.diff(nominal, n=3, axis=1)  # (B, T - 2, 3)
        return {"final_ee": fk(nominal[:, -1], links),
                "shift_final_ee": fk(shifted[:, -1], data["shift_links"]),
                "jerk": float((jq**2).sum(-1).mean()),
                "train_loss": loss}

    def _trained(self, xt, yt, seed: int):
        """The policy trained on (xt, yt) and its last minibatch loss, through the checkpoint
        cache: a mutant that changes decoding only (methods/action_space.py, decode_stepwise)
        evaluates the very model of its parent configuration, so it loads it instead of
        retraining. The key holds everything that decides the weights (the standardised
        training tensors themselves, the training fields, the seed), not the decoding mode."""
        import sys

        import torch

        from claimbench.baselines import supervised_training
        from claimbench.baselines.supervised_training import build_seeded, torch_seed
        from claimbench.checkpoints import array_digest, cached_train

        C = torch_classes()
        key = {"model": "chunk_mlp_bc", "width": self.width, "steps": self.steps,
               "batch": self.batch, "lr": self.lr, "seed": int(seed), "data": array_digest(xt, yt)}

        def fit(model):
            # foreach: the same per-tensor update as the default loop (torch's CPU foreach ops
            # run the same kernels per tensor), fewer Python calls per step
            opt = torch.optim.Adam(model.parameters(), lr=self.lr, foreach=True)
            g = torch.Generator().manual_seed(torch_seed(seed))
            for _ in range(self.steps):
                idx = torch.randint(0, len(xt), (self.batch,), generator=g)
                loss = ((model(xt[idx]) - yt[idx]) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            return {"train_loss": float(loss.detach())}

        model, history, _ = cached_train(
            key, lambda: build_seeded(lambda: C.ChunkMLP(xt.shape[1], yt.shape[1], self.width),
                                      seed),
            fit, sources=(sys.modules[__name__], supervised_training))
        return model, float(history["train_loss"])

    def rollout(self, policy, q0, goal, links, data) -> np.ndarray:
        """Joint trajectories (B, T + 1, 3) of the policy, chunks executed open loop."""
        H, mode = self.chunk, self._decode_mode()
        q, traj = q0.copy(), [q0.copy()]
        for t0 in range(0, data["horizon"], H):
            acts = policy(q, goal, links)  # (B, H, d)
            start = proprio(q, links, self.space)
            for k in range(min(H, data["horizon"] - t0)):
                cur = proprio(q, links, self.space)
                target = decode_target(acts[:, k], start, cur, mode)
                if self.space == "joint":
                    q = track_joint(q, target, data["max_dq"])
                else:
                    q = track_ee(q, target, links, data["damping"], data["max_dq"])
                traj.append(q.copy())
        return np.stack(traj, axis=1)
