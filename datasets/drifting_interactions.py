"""A synthetic user-item interaction stream with gradual preference drift and an abrupt shift,
scored by frozen backbone recommenders of different quality.

Latent-factor world (dimension ``dim``): items have embeddings q_i ~ N(0, I/dim); user u has a
unit preference direction p_u(t). At every step each of the ``n_users`` users makes one
interaction: the true item is drawn from softmax_i(beta * p_u(t) . q_i) over all items. The
recommender sees a candidate list of ``n_candidates`` items: the true item plus
``n_candidates - 1`` distinct negatives drawn uniformly from the other items (the CARE
repository's protocol: 1 true item + 50 sampled negatives per evaluation event).

Phases (``phase`` array, one entry per step):
    0 pre-drift   p_u(t) = p_u0;
    1 gradual     p_u(t) = cos(theta_t) p_u0 + sin(theta_t) r_u, theta_t rising linearly to
                  ``drift_deg`` at the end of the phase (r_u a fixed unit direction
                  orthogonal to p_u0);
    2 post-shift  p_u(t) = cos(shift_deg) p_u0 + sin(shift_deg) s_u, with s_u a new unit
                  direction orthogonal to p_u0 (an abrupt jump at the first post-shift step).

Backbones (frozen, "trained" on the pre-drift regime): backbone m scores item i for user u by
(p_u0 + sigma_m e_u^m) . (q_i + sigma_m x_i^m) with fixed Gaussian perturbations of per-coordinate
std sigma_m / sqrt(dim); sigma_m evenly spaced from ``noise_min`` (backbone 0, the best) to
``noise_max``. Scores are min-max normalised over each candidate list, as in the CARE
repository's loader, so that a threshold in [0, 1] is comparable across backbones.

``data`` holds a labelled pre-drift calibration batch (one step's worth of interactions) and a
:class:`FeedbackStream`: a method reads the scores of step t, commits its sets for step t, and
only then receives the true items of step t. ``truth`` holds the full record for metrics.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

PHASES = ("pre", "drift", "post")


class StreamSession:
    """One pass over the stream: scores of step t, then sets for step t, then its feedback."""

    def __init__(self, scores: np.ndarray, true_pos: np.ndarray) -> None:
        self._scores = scores  # (T, M, n, C)
        self._true = true_pos  # (T, n)
        self._next = 0
        self.sets = np.zeros(scores.shape[:1] + scores.shape[2:], dtype=bool)  # (T, n, C)

    @property
    def n_steps(self) -> int:
        return self._scores.shape[0]

    def scores(self, t: int) -> np.ndarray:
        """Backbone scores of step t, shape (M, n, C); readable once the past is fed back."""
        if t != self._next:
            raise RuntimeError(f"step {t} requested while the stream is at step {self._next}")
        return self._scores[t]

    def feedback(self, t: int, sets: np.ndarray) -> np.ndarray:
        """Commit the (n, C) boolean sets of step t; returns the true candidate index per user."""
        if t != self._next:
            raise RuntimeError(f"feedback for step {t} while the stream is at step {self._next}")
        sets = np.asarray(sets, dtype=bool)
        if sets.shape != self.sets.shape[1:]:
            raise ValueError(f"sets of shape {sets.shape}, expected {self.sets.shape[1:]}")
        self.sets[t] = sets
        self._next += 1
        return self._true[t].copy()


class FeedbackStream:
    """The interaction stream handed to a method; each ``session()`` starts a fresh pass."""

    def __init__(self, scores: np.ndarray, true_pos: np.ndarray, phase: np.ndarray) -> None:
        self._scores = scores
        self._true = true_pos
        self.phase = phase.copy()  # (T,) the schedule is public: no labels in it
        self.n_steps, self.n_backbones, self.n_users, self.n_candidates = scores.shape

    def session(self) -> StreamSession:
        return StreamSession(self._scores, self._true)


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def _orthogonal_unit(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    r = rng.standard_normal(p.shape)
    r -= (r * p).sum(-1, keepdims=True) * p
    return _unit(r)


def minmax_rows(s: np.ndarray) -> np.ndarray:
    lo, hi = s.min(-1, keepdims=True), s.max(-1, keepdims=True)
    return (s - lo) / np.maximum(hi - lo, 1e-12)


def phase_schedule(steps_pre: int, steps_drift: int, steps_post: int) -> np.ndarray:
    return np.repeat(np.arange(3), [steps_pre, steps_drift, steps_post])


@dataclass
class DriftingInteractions(Dataset):
    name: ClassVar[str] = "drifting_interactions"

    n_users: int = 500  # interactions per step (scaled down; the repo keeps users with >= 100)
    n_items: int = 1000  # research note's plan (1,000 items)
    dim: int = 16  # research note's plan (k = 16)
    n_candidates: int = 51  # repo: 1 true item + 50 sampled negatives
    n_backbones: int = 10  # repo: 10 bootstrapped backbone instances
    noise_min: float = 0.6  # our choice: best backbone's perturbation scale
    noise_max: float = 0.9  # our choice: worst backbone's perturbation scale
    beta: float = 12.0  # our choice: sharpness of the users' true item choice
    steps_pre: int = 10  # repo: 5 phases x 10 steps = 50 steps; we split 10 / 20 / 20
    steps_drift: int = 20
    steps_post: int = 20
    drift_deg: float = 40.0  # our choice: preference rotation reached by the end of the drift
    shift_deg: float = 55.0  # our choice: preference angle right after the abrupt shift
    alpha: float = 0.1  # target miss rate (repo default alpha = 0.1, recall utility)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        n, I, k, C, M = self.n_users, self.n_items, self.dim, self.n_candidates, self.n_backbones
        phase = phase_schedule(self.steps_pre, self.steps_drift, self.steps_post)  # (T,)
        T = phase.size

        q = rng.standard_normal((I, k)) / np.sqrt(k)  # (I, k)
        p0 = _unit(rng.standard_normal((n, k)))  # (n, k)
        r_drift = _orthogonal_unit(rng, p0)  # (n, k)
        s_shift = _orthogonal_unit(rng, p0)  # (n, k)

        sig = np.linspace(self.noise_min, self.noise_max, M)  # (M,)
        p_hat = p0[None] + sig[:, None, None] * rng.standard_normal((M, n, k)) / np.sqrt(k)
        q_hat = q[None] + sig[:, None, None] * rng.standard_normal((M, I, k)) / np.sqrt(k)

        # Full user-item score tables of every backbone, gathered per candidate list below.
        table = np.einsum("mnk,mik->mni", p_hat, q_hat).astype(np.float32)  # (M, n, I)
        cols = np.arange(C)  # (C,)

        def draw_step(pref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            logits = self.beta * pref @ q.T  # (n, I)
            true_item = np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)  # (n,)
            keys = rng.random((n, I), dtype=np.float32)  # (n, I)
            keys[np.arange(n), true_item] = 2.0
            neg = np.argpartition(keys, C - 1, axis=1)[:, :C - 1]  # (n, C-1) distinct negatives
            pos = rng.integers(0, C, n)  # (n,) where the true item sits in the list
            src = np.clip(cols[None] - (cols[None] > pos[:, None]), 0, C - 2)  # (n, C)
            cand = np.take_along_axis(neg, src, axis=1)  # (n, C)
            cand[np.arange(n), pos] = true_item
            # The same gather as take_along_axis over a broadcast index, at half its cost.
            raw = table[:, np.arange(n)[:, None], cand]  # (M, n, C)
            return minmax_rows(raw).astype(np.float32), pos

        def pref_at(t: int) -> np.ndarray:
            if phase[t] == 0:
                return p0
            if phase[t] == 1:
                j = t - self.steps_pre + 1
                th = np.deg2rad(self.drift_deg) * j / self.steps_drift
                return np.cos(th) * p0 + np.sin(th) * r_drift
            th = np.deg2rad(self.shift_deg)
            return np.cos(th) * p0 + np.sin(th) * s_shift

        calib_scores, calib_true = draw_step(p0)
        scores = np.empty((T, M, n, C), dtype=np.float32)
        true_pos = np.empty((T, n), dtype=np.int64)
        for t in range(T):
            scores[t], true_pos[t] = draw_step(pref_at(t))

        data = {"calib_scores": calib_scores, "calib_true": calib_true,
                "stream": FeedbackStream(scores, true_pos, phase), "alpha": self.alpha}
        truth = {"true_pos": true_pos, "phase": phase, "alpha": self.alpha,
                 "backbone_noise": sig, "scores": scores}
        return Instance(data=data, truth=truth)
