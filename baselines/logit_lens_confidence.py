"""Internal confidence: the logit-lens probability of an object over the image representations.

Reference: Jiang et al., "Interpreting and Editing Vision-Language Representations to Mitigate
Hallucinations" (arXiv 2410.02762): c_o = max over layers l and image positions j of
softmax(W h_j^l)[o], the unembedding applied to intermediate image hidden states. A baseline of
the GLSIM and InsLen comparisons. ``scale`` multiplies the logits (1 = their definition).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.tiny_vlm import OBJ0, Trace, VLMDetector, lens_probs


def internal_confidence(trace: Trace, scale: float = 1.0) -> np.ndarray:
    lay = trace.layout
    img = slice(lay["image_start"], lay["image_end"] + 1)
    out = []
    for scene, cls, _ in trace.mentions:
        v = trace.hidden[1:, scene, img]  # (L, P, d): every block's output, not the embeddings
        out.append(float(lens_probs(v, trace.head, scale)[..., OBJ0 + cls].max()))
    return np.asarray(out, dtype=float)


@dataclass
class InternalConfidence(VLMDetector):
    name: ClassVar[str] = "internal_confidence"
    scale: float = 1.0  # Jiang et al.: plain softmax of the logit lens

    def score(self, trace: Trace) -> np.ndarray:
        return internal_confidence(trace, self.scale)
