"""GLSIM: global-local similarity of an object token with the image, for hallucination detection.

Reference: Park et al., "GLSIM: Detecting Object Hallucinations in LVLMs via Global-Local
Similarity" (arXiv 2508.19124), as implemented in the InsLen code (``detector/detector.py``,
``evaluate.py``), which reuses GLSIM's. For a mentioned object token o with hidden states h_o^l
(at the position that predicts o) and the image-patch hidden states v_j^l:

* global = cos(g^{l_t}, h_o^{l_i}), g = hidden state of the last prompt token;
* local = mean over the top-k patches j (ranked by the logit-lens probability
  softmax(tau * W v_j^{l_i})[o]) of cos(v_j^{l_i}, h_o^{l_t});
* GLSIM = w * global + (1 - w) * local, w = 0.5.

Layers: LLaVA-1.5-7B l_i = 32, l_t = 31 of 32 (``config/detectors.yaml``), taken here as
fractions of the depth. ``mode`` selects "glsim", "global" or "local" alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.tiny_vlm import (OBJ0, Trace, VLMDetector, cosine, layer_at,
                                           lens_probs, top_k_count)

MODES = ("glsim", "global", "local")


def glsim_parts(trace: Trace, image_frac: float, text_frac: float, k_frac: float,
                scale: float) -> tuple[np.ndarray, np.ndarray]:
    """(global, local) scores, each (n_mentions,)."""
    L = trace.hidden.shape[0] - 1
    li, lt = layer_at(image_frac, L), layer_at(text_frac, L)
    lay = trace.layout
    img = slice(lay["image_start"], lay["image_end"] + 1)
    last = lay["answer_start"] - 1
    k = top_k_count(lay["image_end"] - lay["image_start"] + 1, k_frac)
    glob, loc = [], []
    for scene, cls, pos in trace.mentions:
        det = trace.hidden[:, scene, pos - 1]  # (L + 1, d)
        glob.append(cosine(trace.hidden[lt, scene, last], det[li]))
        v = trace.hidden[li, scene, img]  # (P, d)
        p = lens_probs(v, trace.head, scale)[:, OBJ0 + cls]  # (P,)
        top = np.argsort(p, kind="stable")[-k:]
        loc.append(cosine(v[top], det[lt][None]).mean())
    return np.asarray(glob, dtype=float), np.asarray(loc, dtype=float)


@dataclass
class GLSIM(VLMDetector):
    name: ClassVar[str] = "glsim"
    w: float = 0.5  # InsLen evaluate.py --w default (GLSIM's weight)
    image_frac: float = 32 / 32  # detectors.yaml llava-1.5-7b glsim_image_layer 32 of 32
    text_frac: float = 31 / 32  # detectors.yaml glsim_text_layer 31
    k_frac: float = 32 / 576  # detectors.yaml k = 32 of LLaVA-1.5's 576 patches
    scale: float = 0.1  # detectors.yaml scale (logit-lens temperature factor)
    mode: str = "glsim"

    def score(self, trace: Trace) -> np.ndarray:
        if self.mode not in MODES:
            raise ValueError(f"mode={self.mode!r}; valid: {MODES}")
        g, loc = glsim_parts(trace, self.image_frac, self.text_frac, self.k_frac, self.scale)
        if self.mode == "global":
            return g
        if self.mode == "local":
            return loc
        return self.w * g + (1 - self.w) * loc
