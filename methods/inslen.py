"""InsLen: the Instruction Lens Score for object-hallucination detection in a VLM's caption.

Paper: Runhe Lai, Xinhua Lu, Yanqi Wu, Jinlun Ye, Weijiang Yu, Ruixuan Wang, "Instruction Lens
Score: Your Instruction Contributes a Powerful Object Hallucination Detector for Multimodal
Large Language Models", ICML 2026, arXiv:2605.12258. Official code
github.com/Fraserlairh/Instruction-Lens-Score (``detector/detector.py``, ``evaluate.py``,
``config/detectors.yaml``, ``lvlm/LLaVA.py``), which is what this file follows; the paper's body
was not available offline (abstract and headline numbers only).

For an object token o the VLM generated, let h^l be the hidden state at layer l of the position
that predicts o, I the instruction positions (after the image block, up to the answer), V the
image positions, W the unembedding and tau = 0.1 the logit-lens factor; the instruction lens is
p_i = softmax(tau W h_i^{l_q})[o] for i in I.

(1) w = max_{i in I} p_i                                   (instruction-lens confidence)
(2) Local = mean over the k patches j in V with the largest softmax(tau W v_j^{l_v})[o] of
    cos(v_j^{l_v}, h^{l_t})                                 (GLSIM's local term, ILS layers)
(3) Calibrated Local = w * Local
(4) C = the ``context_num`` = 4 instruction positions with the largest p_i;
    d = || h^{l_t} - mean_{i in C} h_i^{l_q} || / || h^{l_t} ||;
    Context Consistency = (bias - d) * mean_{i in C} p_i,  bias = 2
(5) InsLen = (1 - 0.4) * Calibrated Local + 0.4 * Context Consistency.
High = the object is real; AUROC with the real objects as positives (``util/measuring.py``).
Layers (LLaVA-1.5-7B, ``detectors.yaml``): l_v = 24, l_t = 32, l_q = 22 of 32 (hidden state 0 =
embeddings; the last one is after the final norm, as HF returns it).

Deviations:
1. The VLM is a 4-layer d = 64 transformer trained here on generated shape scenes
   (``baselines/tiny_vlm.py``, ``datasets/shape_scenes.py``), not LLaVA-1.5 on MSCOCO; captions
   are greedy (the code samples at temperature 0.1) and list object tokens only.
2. Layers are mapped by relative depth: round(l / 32 * n_layers) (l_v = 3, l_t = 4, l_q = 3
   of 4); k = 32 of 576 patches becomes ceil(32 / 576 * P) (1 of 16 patches).
3. The hidden state "of the object token" is the one at the position that predicts it, as
   the code's ``answer_hidden_states[idx - 1]``. Our answers open with a fixed DESC token, so
   an object is never the first answer token (where the code's index -1 would wrap around).
4. Mentions come from the caption tokens and the labels from the generator's truth (the code
   uses CHAIR's synonym matching on MSCOCO annotations).
5. bias = 2 (``detectors.yaml``, llava-1.5-7b); the research note cites 1 for LLaVA and 4 for
   InternVL (the function's default).

Variants (field ``variant``; the paper's own components, for the ablation claims):
``inslen`` (5), ``calibrated_local`` (3), ``context_consistency`` (4), ``mean_prob`` (the
code's "Calibration Confidence", mean_{i in C} p_i) and ``instruction_prob`` (w of (1) alone).
Mutant (field ``mutant``, for foils): ``shuffled_instruction`` reads every instruction-side
quantity (p_i, C, the context states) from another test scene of the same run (the next one),
so the instruction lens no longer sees this image; the image-side Local term is unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.tiny_vlm import (OBJ0, Trace, VLMDetector, cosine, layer_at,
                                           lens_probs, top_k_count)
from claimbench.memo import LastOf

VARIANTS = ("inslen", "calibrated_local", "context_consistency", "mean_prob",
            "instruction_prob")
MUTANTS = ("", "shuffled_instruction")


def inslen_parts(trace: Trace, *, scale: float, k_frac: float, context_num: int, bias: float,
                 image_frac: float, text_frac: float, instr_frac: float,
                 shuffle: bool = False) -> dict:
    """Per-mention components (each (n_mentions,)): w, local, calibrated_local,
    context_consistency, mean_prob."""
    L = trace.hidden.shape[0] - 1
    lv, lt, lq = (layer_at(f, L) for f in (image_frac, text_frac, instr_frac))
    lay = trace.layout
    img = slice(lay["image_start"], lay["image_end"] + 1)
    ins = slice(lay["image_end"] + 1, lay["answer_start"])
    n_scenes = trace.hidden.shape[1]
    k = top_k_count(lay["image_end"] - lay["image_start"] + 1, k_frac)
    out = {key: [] for key in ("w", "local", "calibrated_local", "context_consistency",
                               "mean_prob")}
    # A scene's lens over its instruction / image positions does not depend on the mention:
    # computed once per scene (the same call on the same rows, so the same bits) and indexed.
    lens_q: dict = {}
    lens_v: dict = {}
    for scene, cls, pos in trace.mentions:
        tok = OBJ0 + cls
        det = trace.hidden[lt, scene, pos - 1]  # (d,)
        q_scene = (scene + 1) % n_scenes if shuffle else scene
        q_h = trace.hidden[lq, q_scene, ins]  # (n_instr, d)
        if q_scene not in lens_q:
            lens_q[q_scene] = lens_probs(q_h, trace.head, scale)  # (n_instr, V)
        p = lens_q[q_scene][:, tok]  # (n_instr,)
        w = p.max()
        v = trace.hidden[lv, scene, img]  # (P, d)
        if scene not in lens_v:
            lens_v[scene] = lens_probs(v, trace.head, scale)  # (P, V)
        pv = lens_v[scene][:, tok]  # (P,)
        top = np.argsort(pv, kind="stable")[-k:]
        local = cosine(v[top], det[None]).mean()
        ctx = np.argsort(p, kind="stable")[-min(context_num, len(p)):]
        ctx_mean = q_h[ctx].mean(0)  # (d,)
        d = np.linalg.norm(det - ctx_mean) / max(np.linalg.norm(det), 1e-12)
        mean_prob = p[ctx].mean()
        out["w"].append(w)
        out["local"].append(local)
        out["calibrated_local"].append(w * local)
        out["context_consistency"].append((bias - d) * mean_prob)
        out["mean_prob"].append(mean_prob)
    return {key: np.asarray(val, dtype=float) for key, val in out.items()}


_PARTS = LastOf()  # the last trace's parts, per settings


def _parts_memo(trace: Trace, kw: dict) -> dict:
    """inslen_parts, shared by the variants of one cell's trace (five variants read the same
    parts, the two mutants another): tiny_vlm.describe memoises the trace per process, so the
    cells of one seed score the same object (claimbench.memo: keyed on the trace). It returns
    copies; the values are those of a fresh call."""
    parts = _PARTS.get((trace,), tuple(sorted(kw.items())), lambda: inslen_parts(trace, **kw))
    return {name: val.copy() for name, val in parts.items()}


@dataclass
class InsLen(VLMDetector):
    name: ClassVar[str] = "inslen"
    scale: float = 0.1  # detectors.yaml scale (llava-1.5-7b); research note: tau = 0.1
    k_frac: float = 32 / 576  # detectors.yaml k = 32, of LLaVA-1.5's 24 x 24 = 576 patches
    context_num: int = 4  # detectors.yaml context_num (llava-1.5-7b)
    bias: float = 2.0  # detectors.yaml bias (llava-1.5-7b)
    combo_w: float = 0.4  # evaluate.py: InsLen = (1 - w) Calibrated Local + w Context, w = 0.4
    image_frac: float = 24 / 32  # detectors.yaml ils_image_layer 24 of 32
    text_frac: float = 32 / 32  # detectors.yaml ils_text_layer 32
    instr_frac: float = 22 / 32  # detectors.yaml ils_instruction_layer 22
    variant: str = "inslen"
    mutant: str = ""

    def score(self, trace: Trace) -> np.ndarray:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant={self.variant!r}; valid: {VARIANTS}")
        if self.mutant not in MUTANTS:
            raise ValueError(f"mutant={self.mutant!r}; valid: {MUTANTS}")
        kw = {"scale": self.scale, "k_frac": self.k_frac, "context_num": self.context_num,
              "bias": self.bias, "image_frac": self.image_frac, "text_frac": self.text_frac,
              "instr_frac": self.instr_frac, "shuffle": self.mutant == "shuffled_instruction"}
        parts = _parts_memo(trace, kw)
        if self.variant == "inslen":
            return ((1 - self.combo_w) * parts["calibrated_local"]
                    + self.combo_w * parts["context_consistency"])
        if self.variant == "instruction_prob":
            return parts["w"]
        return parts[self.variant]
