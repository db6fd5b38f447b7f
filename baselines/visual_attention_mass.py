"""SVAR: the attention mass an object token's predicting position puts on the image.

Reference: the summed visual attention ratio of Jiang et al. ("Devils in Middle Layers of Large
Vision-Language Models", CVPR 2025), as computed in the InsLen code (``compute_svar``): for the
position that predicts object token o, sum over heads and over layers l in [4, 17] (of 32) of
the attention probabilities on the image-token block. High mass = grounded = real object.
Layers are taken as fractions of the depth: l / n_layers in [4/32, 17/32].
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.tiny_vlm import Trace, VLMDetector


def svar_layers(n_layers: int, lo_frac: float, hi_frac: float) -> list[int]:
    """Attention layers (0-based) whose relative depth l / n_layers lies in [lo, hi]; at least
    one (the nearest to the middle of the range)."""
    out = [layer for layer in range(n_layers) if lo_frac <= layer / n_layers <= hi_frac + 1e-9]
    if not out:
        mid = 0.5 * (lo_frac + hi_frac) * n_layers
        out = [min(n_layers - 1, int(round(mid)))]
    return out


def svar(trace: Trace, lo_frac: float, hi_frac: float) -> np.ndarray:
    lay = trace.layout
    img = slice(lay["image_start"], lay["image_end"] + 1)
    layers = svar_layers(trace.attn.shape[0], lo_frac, hi_frac)
    out = []
    for scene, _, pos in trace.mentions:
        a = trace.attn[layers, scene, :, pos - 1, img]  # (n_layers_used, H, P)
        out.append(float(a.sum()))
    return np.asarray(out, dtype=float)


@dataclass
class SVAR(VLMDetector):
    name: ClassVar[str] = "svar"
    lo_frac: float = 4 / 32  # InsLen code: layer_list = range(4, 18) of LLaVA's 32 layers
    hi_frac: float = 17 / 32

    def score(self, trace: Trace) -> np.ndarray:
        return svar(trace, self.lo_frac, self.hi_frac)
