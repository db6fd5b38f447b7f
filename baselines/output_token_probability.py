"""Output confidence: the probability the model gave to the object token it generated.

The uncertainty baseline of hallucination detection (token probability / NLL, e.g. Zhou et al.,
"Analyzing and Mitigating Object Hallucination in LVLMs", LURE, 2024): p(o | prefix) from the
final layer's softmax at the position that predicts o.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.tiny_vlm import Trace, VLMDetector


def token_probability(trace: Trace) -> np.ndarray:
    m = trace.mentions
    return trace.out_prob[m[:, 0], m[:, 2]].astype(float)


@dataclass
class TokenProbability(VLMDetector):
    name: ClassVar[str] = "token_prob"

    def score(self, trace: Trace) -> np.ndarray:
        return token_probability(trace)
