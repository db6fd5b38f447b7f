"""UniMRG: understanding trained together with generating several representations of the image.

Paper: Zihan Su, Hongyang Wei, Kangrui Cen, Yong Wang, Guanhua Chen, Chun Yuan, Xiangxiang Chu,
"Generation Enhances Understanding in Unified Multimodal Models via Multi-Representation
Generation", arXiv:2601.21406 (ICML 2026). Read: the abstract, the project page
(sugewud.github.io/UniMRG-Project) and the public training configuration of the authors' Harmon
code (github.com/Sugewud/UniMRG: ``configs/datasets/qwen2_5_1_5b/UniMRG.py``,
``src/models/harmon_dev.py``, ``scripts/train.py``: gradient clipping defaults to norm 1.0), and
the training example of the Harmon code base it builds on (github.com/wusize/Harmon:
``configs/train_example/qwen2_5_0_5b_kl16_mar_b_train_example.py``: AdamW, betas (0.9, 0.95),
weight decay 0.02, clip 1.0, linear warm-up over 1 % of the iterations, cosine decay to 0).
The UniMRG example config with its own lr and schedule was not among the files read, and the
paper's implementation section and tables were not available offline.

Method (post-training of a unified multimodal model on the same images, four concurrent tasks):

    L = L_und(image, question -> answer)                         (standard understanding)
      + w_pix   L_gen(image -> image)                              (pixel reconstruction)
      + w_depth L_gen(image -> depth map)                          (geometry)
      + w_seg   L_gen(image -> segmentation map)                   (structure)

where L_gen is the model's native generation loss and the understanding encoder is shared (and
updated) by all four. The authors' configuration draws one equal-size batch from each of the
four task datasets per step (``repeat = [1, 1, 1, 1]``) with unit loss weights
(``loss_weights`` default 1.0), so w_pix = w_depth = w_seg = 1.

Here (shared code in :mod:`claimbench.baselines.auxiliary_dense_decoding`): a small CNN encoder
with a FiLM question-answering head is trained on generated scenes; the three generation tasks
are decoders on the shared encoder's feature map, trained with L = CE + MSE(pixels) +
MSE(depth) + CE(segmentation), unit weights. Answers come from the QA head alone.

Deviations:
1. Model and scale: a 3-layer CNN encoder (patch-embedding stem, 32 channels, 8 x 8 cells) and a
   FiLM + MLP answer head, trained from scratch for 800 AdamW steps on 600 generated scenes,
   instead of post-training a 1.5B+ unified multimodal model (Harmon, OpenUni, ...) on
   LLaVA-665k images.
2. Generation objective: one-shot regression/classification decoders (per-cell 1 x 1
   convolutions and pixel shuffle) instead of the UMM's native autoregressive / masked-
   autoregressive / diffusion generation of VAE latents; the segmentation target is a class map
   (colour of the visible shape) rather than a rendered segmentation image.
3. Targets are exact (our renderer's depth and segmentation), not the outputs of off-the-shelf
   depth and segmentation estimators.
4. The four losses are computed on the same minibatch of images (the code draws one batch per
   task from the same image pool).
5. Understanding is a 4-way answer classifier on templated questions, not free-form text
   generation by an LLM; the paper's understanding benchmarks (MMVP, POPE, HallusionBench,
   RealWorldQA, VSR, ...) and its generation benchmarks (GenEval, DPG-Bench) are not run.
6. Optimiser and length (since round 6; every arm): Harmon's AdamW (betas .9/.95, weight decay
   .02) and gradient-norm clipping at 1.0 at our peak lr 2e-3 (the paper's post-training lr is
   for a pretrained 1.5B model), a linear warm-up from 1e-5 x lr over 10 % of the steps
   (Harmon: 1 %), then constant lr (Harmon: cosine decay to 0), for 800 steps (400 before).
   Training from scratch, the QA head must leave a chance plateau on the order-dependent
   yes/no relation questions; with constant-lr Adam for 400 steps 6 of 40 quick runs never left
   it (the first full-lr steps silenced encoder units in a baseline run), and with Harmon's
   decaying schedule at 400 steps most auxiliary-arm runs stayed there.

Variants (fields): ``representations`` chooses the auxiliary targets ("recon+depth+seg" is the
paper's method; "depth" and "seg" are its single-representation ablations). Mutant for foils:
``mutant="shuffled_targets"`` keeps every decoder and loss but gives each image another scene's
targets (a cyclic shift within the minibatch): auxiliary generation with the right statistics
and no information about the input, i.e. without the spatial content the paper credits.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.auxiliary_dense_decoding import (AUX_KINDS, RECIPES, UnderstandingOnly,
                                                           train_multitask)

MUTANTS = ("", "shuffled_targets")


@dataclass
class UniMRG(UnderstandingOnly):
    """Understanding loss + reconstruction, depth and segmentation generation losses."""

    name: ClassVar[str] = "unimrg"
    representations: str = "recon+depth+seg"  # pixel, depth, segmentation (paper: overview figure)
    w_recon: float = 1.0  # unit loss weights (authors' code: harmon_dev.py loss_weights = 1.0)
    w_depth: float = 1.0  # as above; one batch per task per step (UniMRG.py repeat = [1, 1, 1, 1])
    w_seg: float = 1.0  # as above
    mutant: str = ""  # "" = the method; "shuffled_targets" = uninformative targets (foil)

    def weights(self) -> dict:
        kinds = self.representations.split("+")
        bad = [k for k in kinds if k not in AUX_KINDS]
        if bad or self.mutant not in MUTANTS:
            raise ValueError(f"representations={self.representations!r}, mutant={self.mutant!r}")
        w = {"recon": self.w_recon, "depth": self.w_depth, "seg": self.w_seg}
        return {k: w[k] for k in kinds}

    def run(self, data, seed):
        return train_multitask(data, seed, self.weights(), self.steps, self.lr, self.batch_size,
                               self.width, shuffle_targets=self.mutant == "shuffled_targets",
                               recipe=RECIPES[self.recipe])
