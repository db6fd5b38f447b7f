"""Decoupled cross-attention over several references (IP-Adapter, Ye et al., arXiv 2308.06721):
one attention branch per reference, the branch outputs added with a weight.

    out_i = sum_s lam_s * softmax(q_i K_s^T / sqrt(d)) V_s

IP-Adapter adds one image branch to the text branch with a scale lambda; with S reference
images (multi-subject personalisation) each reference gets its own branch. ``weighting``:
``"mean"`` (lam_s = 1/S, so the output stays on the scale of one branch) or ``"sum"``
(lam_s = ``scale``, IP-Adapter's default 1.0). Every video token attends to every subject, so
its cost is that of dense attention to all S*R reference tokens, linear in S.

Data: ``q`` (H, N, d), ``k`` (H, S*R, d), ``v`` (H, S*R, dv) with the S references laid out one
after the other (``ref_tokens`` = R each), e.g. datasets/multi_subject_tokens.py.
Outputs: ``out`` (H, N, dv), ``flops`` (exact, Q K^T and P V of every branch), ``seconds``
(process time, min over ``repeats``), ``subject_mass`` (H, N, S): the weight each token's
output gives each reference (lam_s normalised to sum 1).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import block_sparse_attention as bsa
from claimbench.baselines.full_attention import timed


@dataclass
class DecoupledCrossAttention(Method):
    name: ClassVar[str] = "decoupled_cross_attention"
    weighting: str = "mean"  # "mean": lam_s = 1/S; "sum": lam_s = scale (IP-Adapter)
    scale: float = 1.0  # IP-Adapter's default lambda
    repeats: int = 1  # timing repeats (min is kept)

    def run(self, data: dict, seed: int) -> dict:
        torch = bsa._torch()
        q, k, v = (torch.as_tensor(data[x]) for x in ("q", "k", "v"))  # (H, N, d), (H, S*R, d), (H, S*R, dv)
        S, R = int(data["n_subjects"]), int(data["ref_tokens"])
        H, N, d = q.shape
        dv = v.shape[-1]
        lam = 1.0 / S if self.weighting == "mean" else self.scale

        def attend():
            out = torch.zeros(H, N, dv, dtype=q.dtype)
            for s in range(S):
                ks, vs = k[:, s * R:(s + 1) * R], v[:, s * R:(s + 1) * R]  # (H, R, d), (H, R, dv)
                out += lam * bsa.dense_attention(q, ks, vs, causal=False)  # (H, N, dv)
            return out

        out, secs = timed(attend, self.repeats)
        return {"out": out.numpy(), "seconds": secs,
                "flops": H * N * S * R * 2 * (d + dv),
                "subject_mass": np.full((H, N, S), 1.0 / S, dtype=np.float32)}
