"""Fixed top-K recommendation sets: the K highest-scored candidates of one backbone.

The usual deployed recommender output (a top-K list, here K = 10 as in the CARE research
note's plan). Its size never changes, so its miss rate simply follows the backbone's accuracy
as the stream drifts; it uses no feedback.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def topk_sets(scores: np.ndarray, k: int) -> np.ndarray:
    """Boolean sets of the k highest scores along the last axis (ties broken by position)."""
    scores = np.asarray(scores)
    k = min(k, scores.shape[-1])
    top = np.argsort(-scores, axis=-1, kind="stable")[..., :k]  # (..., k)
    sets = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(sets, top, True, axis=-1)
    return sets


@dataclass
class FixedTopK(Method):
    name: ClassVar[str] = "fixed_topk"

    k: int = 10  # research note's plan: fixed top-K = 10
    backbone: int = 0  # which backbone ranks the candidates (0 = the best by construction)

    def run(self, data, seed: int) -> dict:
        t0 = time.perf_counter()
        sess = data["stream"].session()
        for t in range(sess.n_steps):
            sess.feedback(t, topk_sets(sess.scores(t)[self.backbone], self.k))
        return {"sets": sess.sets, "time_s": time.perf_counter() - t0}
