"""Video tokens and the reference tokens of S subjects, with planted subject membership: the
cross-attention frame of multi-subject (subject-to-video) generation at reduced scale.

One instance, per attention head h (shapes (H, ., .)):

* S subjects, each with an identity direction mu_{h,s} (random unit vectors in R^d) and an
  identity value u_{h,s} (R^dv, standard normal);
* R reference tokens per subject (its reference image after the encoder): key
  k = scale * d^(1/4) * (mu_s + noise * e / sqrt(d)) and value v = u_s + value_noise * e' (e, e'
  standard normal, so the key noise has norm about ``noise``), laid out subject after subject, so keys s*R .. (s+1)*R - 1 are
  subject s;
* N video tokens, token i belonging to subject z_i (proportions drawn from a symmetric
  Dirichlet(alpha), then i.i.d. labels): query q = scale * d^(1/4) * (mu_{z_i} + noise * e / sqrt(d)).

``scale`` sets the logit gap: q.k / sqrt(d) is about scale^2 for a token and a key of the same
subject and about 0 otherwise. What a method sees: ``q`` (H, N, d), ``k`` (H, S*R, d), ``v``
(H, S*R, dv), ``n_subjects``, ``ref_tokens``. The truth (metrics only): ``labels`` (N,) the
planted subject of each video token and ``key_subject`` (S*R,) the subject of each key.

Training split (for a learned router, as DiasR's identity queries are trained against
ground-truth subject masks): ``train_q`` (H, M, d), M = ``train_video`` tokens of another clip
of the same subjects, drawn the same way with their masks ``train_masks`` (M,). It comes from
its own random stream (seed, 1), so q, k, v and the labels of an instance do not depend on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


@dataclass
class MultiSubjectTokens(Dataset):
    name: ClassVar[str] = "multi_subject_tokens"
    n_subjects: int = 4  # S; the research note sweeps 1..8
    n_video: int = 2048  # N video tokens (research note's proxy size)
    ref_tokens: int = 256  # R reference tokens per subject (research note's proxy size)
    d: int = 64  # head dim of queries/keys (ours: a common DiT head size)
    dv: int = 64  # head dim of values (ours)
    heads: int = 2  # ours: small, the cost is linear in heads
    scale: float = 2.0  # logit gap scale^2 = 4 between own and other subjects' keys (ours)
    noise: float = 1.0  # token noise relative to the unit identity direction (ours)
    value_noise: float = 1.0  # ours
    alpha: float = 2.0  # Dirichlet concentration of subject proportions (ours)
    train_video: int = 512  # M labelled tokens of a training clip (ours: a quarter of N)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        H, S, N, R, d, dv = self.heads, self.n_subjects, self.n_video, self.ref_tokens, self.d, self.dv
        mu = rng.standard_normal((H, S, d))
        mu /= np.linalg.norm(mu, axis=-1, keepdims=True)  # (H, S, d) unit identity directions
        u = rng.standard_normal((H, S, dv))  # (H, S, dv) identity values
        props = rng.dirichlet(np.full(S, self.alpha)) if S > 1 else np.ones(1)
        labels = rng.choice(S, size=N, p=props)  # (N,) planted subject of each video token
        key_subject = np.repeat(np.arange(S), R)  # (S*R,)
        sd = self.noise / np.sqrt(d)  # noise of norm ~noise against a unit direction
        a = self.scale * d ** 0.25  # so that q.k / sqrt(d) = scale^2 * (unit q).(unit k)
        q = a * (mu[:, labels] + sd * rng.standard_normal((H, N, d)))  # (H, N, d)
        k = a * (mu[:, key_subject] + sd * rng.standard_normal((H, S * R, d)))  # (H, S*R, d)
        v = u[:, key_subject] + self.value_noise * rng.standard_normal((H, S * R, dv))  # (H, S*R, dv)
        f32 = np.float32
        data = {"q": q.astype(f32), "k": k.astype(f32), "v": v.astype(f32),
                "n_subjects": S, "ref_tokens": R}
        g = np.random.default_rng([seed, 1])  # the training clip: its own stream
        train_masks = g.choice(S, size=self.train_video, p=props)  # (M,)
        train_q = a * (mu[:, train_masks]
                       + sd * g.standard_normal((H, self.train_video, d)))  # (H, M, d)
        data.update(train_q=train_q.astype(f32), train_masks=train_masks)
        return Instance(data=data, truth={"labels": labels, "key_subject": key_subject})
