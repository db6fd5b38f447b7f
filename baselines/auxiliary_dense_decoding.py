"""Visual question answering with optional auxiliary dense-decoding losses (multi-task training).

One small CNN encoder E maps an image x (3, s, s) to a feature map h = E(x) (c, s/4, s/4). A
question-answering head A reads h and a question vector q and outputs answer logits; optional
decoders D_k (k in recon, depth, seg) map the same h back to a dense s x s map. Training
minimises, over minibatches of training scenes,

    L = CE(A(h, q), y) + sum_k w_k L_k(D_k(h), t_k)

with L_recon = MSE to the input pixels, L_depth = MSE to the (normalised) depth map and
L_seg = per-pixel cross-entropy to the segmentation classes. The decoders are discarded at
test time: answers come from A only, so an auxiliary loss can only matter through what it
teaches the shared encoder. With no auxiliary loss this is plain supervised VQA training
(``UnderstandingOnly``); with reconstruction only, an autoencoding auxiliary objective
(``ReconstructionAux``). Other papers' variants are the ``weights`` argument of
:func:`train_multitask`.

Optimisation follows :class:`Recipe` (default ``RECIPES["warm10_const"]``: AdamW,
gradient-norm clipping, linear warm-up, then constant lr), the same for every arm.

``shuffle_targets`` is a control: every auxiliary target is taken from another scene of the
same minibatch (a cyclic shift), so the decoders receive targets with the right marginal
statistics but no information about the input image.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method

AUX_KINDS = ("recon", "depth", "seg")
PATCH = 4  # pixels per feature cell along each side (the stem's stride)


def build_model(q_dim: int, n_answers: int, n_seg: int, width: int = 32, hidden: int = 64):
    """The encoder, QA head and one decoder per auxiliary kind (torch modules in a ModuleDict)."""
    import torch
    from torch import nn

    class QAHead(nn.Module):
        """FiLM: the question scales and shifts every feature channel; an MLP reads the
        modulated 8 x 8 map (flattened, so positions are kept) and the question."""

        def __init__(self) -> None:
            super().__init__()
            self.film = nn.Linear(q_dim, 2 * width)
            self.mlp = nn.Sequential(nn.Linear(width * 64 + q_dim, hidden), nn.ReLU(),
                                     nn.Linear(hidden, n_answers))

        def forward(self, h, q):  # h (B, c, 8, 8), q (B, q_dim)
            g, b = self.film(q).chunk(2, dim=-1)  # (B, c) each
            z = torch.relu(h * (1 + g[:, :, None, None]) + b[:, :, None, None])  # (B, c, 8, 8)
            return self.mlp(torch.cat([z.flatten(1), q], dim=1))  # (B, n_answers)

    def decoder(out_ch: int) -> nn.Module:
        # per-cell decoder: each 8 x 8 feature cell emits its 4 x 4 pixel block (pixel shuffle)
        return nn.Sequential(nn.Conv2d(width, width, 1), nn.ReLU(),
                             nn.Conv2d(width, out_ch * 16, 1),  # (B, 16 C, 8, 8)
                             nn.PixelShuffle(PATCH))  # (B, C, 32, 32)

    # patch embedding (4 x 4 pixels per cell, as a ViT stem) and two 3 x 3 convolutions
    encoder = nn.Sequential(nn.Conv2d(3, width, PATCH, stride=PATCH), nn.ReLU(),  # (B, c, 8, 8)
                            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
                            nn.Conv2d(width, width, 3, padding=1), nn.ReLU())
    return nn.ModuleDict(dict(encoder=encoder, qa=QAHead(), recon=decoder(3), depth=decoder(1),
                              seg=decoder(n_seg)))


def aux_losses(model, h, targets: dict, weights: dict, shuffle: bool):
    """sum_k w_k L_k for the kinds with w_k > 0; ``model[k]`` maps h to kind k's (B, C, s, s)
    prediction and ``targets[k]`` holds the batch's targets in the same pixel order."""
    import torch
    import torch.nn.functional as F

    total = None
    for k in AUX_KINDS:
        w = weights.get(k, 0.0)
        if w <= 0:
            continue
        t = targets[k]
        if shuffle:
            t = torch.roll(t, shifts=1, dims=0)  # another scene's target, same statistics
        pred = model[k](h)  # (B, C, s, s)
        if k == "seg":
            term = F.cross_entropy(pred, t)
        elif k == "depth":
            term = F.mse_loss(pred[:, 0], t)
        else:
            term = F.mse_loss(pred, t)
        # 0 + x and 1.0 * x are exact (values and gradients): skip those graph nodes
        term = term if w == 1.0 else w * term
        total = term if total is None else total + term
    return h.new_zeros(()) if total is None else total


def cell_order_targets(tr: dict, kinds) -> dict:
    """The training targets of ``kinds`` as torch tensors, pixels permuted into the order in
    which the decoders emit them before their PixelShuffle (see :func:`cell_decoder`)."""
    import torch
    import torch.nn.functional as F

    src = dict(recon=tr["images"], depth=tr["depth"], seg=tr["seg"])
    out = {}
    for k in kinds:
        t = torch.as_tensor(src[k])  # (n, 3, s, s) or (n, s, s)
        u = F.pixel_unshuffle(t if t.dim() == 4 else t[:, None], PATCH)  # (n, 16 C, s/4, s/4)
        out[k] = u.reshape(t.shape)
    return out


def cell_decoder(dec):
    """``dec`` without its PixelShuffle, its output viewed as (B, C, s, s) in cell order.

    Training compares this with the targets of :func:`cell_order_targets`: PixelShuffle only
    moves values, and each loss is elementwise (the class axis of the segmentation loss stays
    axis 1), so the gradients are those of ``dec`` against the image-order targets, without
    shuffling every prediction and unshuffling every gradient at each step."""
    cells = dec[:-1]

    def fn(h):
        p = cells(h)  # (B, 16 C, 8, 8)
        return p.reshape(p.shape[0], -1, PATCH * p.shape[2], PATCH * p.shape[3])  # (B, C, s, s)
    return fn


@dataclass(frozen=True)
class Recipe:
    """The optimiser and schedule (defaults: the training configuration of Harmon, the code base
    of the UniMRG authors' Harmon experiments: AdamW with betas (0.9, 0.95) and weight decay
    0.02, gradient-norm clipping at 1.0, a linear warm-up from 1e-5 x lr over 1 % of the steps,
    then cosine decay to 0). ``RECIPES["adam"]`` is plain constant-lr Adam (the training before
    round 6, which left some runs at chance; kept for comparison)."""

    betas: tuple[float, float] = (0.9, 0.95)
    weight_decay: float = 0.02
    clip: float | None = 1.0  # max gradient norm over all trained parameters; None = no clip
    warmup_frac: float = 0.01  # fraction of the steps in linear warm-up
    warmup_start: float = 1e-5  # lr factor at step 0 of the warm-up
    cosine: bool = True  # cosine decay to 0 after the warm-up


# "warm10_const" (the default of every arm since round 6): Harmon's AdamW and clipping, a warm-up
# over 10 % of the steps (Harmon: 1 %), then constant lr (Harmon: cosine decay). Training from
# scratch, the first full-lr steps silenced encoder units of a baseline run, and any decay left
# the auxiliary arms on the chance plateau of the relation questions (Harmon's schedule with a
# 10 % warm-up: 20 of 24 auxiliary-arm quick runs below .60). "harmon", "harmon_warm10" and
# "adam" (constant-lr Adam, the training before round 6) are kept for comparison.
RECIPES = {"harmon": Recipe(),
           "harmon_warm10": Recipe(warmup_frac=0.1),
           "warm10_const": Recipe(warmup_frac=0.1, cosine=False),
           "adam": Recipe(betas=(0.9, 0.999), weight_decay=0.0, clip=None, warmup_frac=0.0,
                          cosine=False)}


def lr_factor(step: int, steps: int, recipe: Recipe) -> float:
    """Multiplier of the peak lr at optimiser step ``step`` (0-based) of ``steps``."""
    warm = int(recipe.warmup_frac * steps)
    if recipe.warmup_frac > 0:
        warm = max(warm, 1)
    if step < warm:
        return recipe.warmup_start + (1.0 - recipe.warmup_start) * step / warm
    if not recipe.cosine:
        return 1.0
    return 0.5 * (1.0 + math.cos(math.pi * (step - warm) / max(steps - warm, 1)))


def make_optimizer(params: list, lr: float, recipe: Recipe):
    """AdamW (decoupled weight decay) when the recipe decays weights, else Adam."""
    import torch

    if recipe.weight_decay > 0:
        return torch.optim.AdamW(params, lr=lr, betas=recipe.betas,
                                 weight_decay=recipe.weight_decay, foreach=True)
    return torch.optim.Adam(params, lr=lr, betas=recipe.betas, foreach=True)


def optimizer_step(opt, params: list, lr: float, step: int, steps: int, recipe: Recipe) -> None:
    """Clip the gradient norm (if the recipe does), set this step's lr, take the step."""
    import torch

    if recipe.clip is not None:
        torch.nn.utils.clip_grad_norm_(params, recipe.clip, foreach=True)
    for group in opt.param_groups:
        group["lr"] = lr * lr_factor(step, steps, recipe)
    opt.step()


def train_multitask(data: dict, seed: int, weights: dict, steps: int, lr: float,
                    batch_size: int, width: int = 32, shuffle_targets: bool = False,
                    recipe: Recipe = RECIPES["warm10_const"]) -> dict:
    """Train encoder + QA head (+ decoders with weight > 0); return test predictions and dense
    outputs of the decoders that were trained, plus the training loss and CPU time."""
    import torch

    from claimbench.baselines.supervised_training import build_seeded, torch_seed

    t0 = time.process_time()
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        tr = data["train"]
        n, n_q = tr["questions"].shape[:2]
        model = build_seeded(lambda: build_model(tr["questions"].shape[-1], data["n_answers"],
                                                 data["n_seg_classes"], width), seed)
        active = [k for k in AUX_KINDS if weights.get(k, 0.0) > 0]
        params = list(model["encoder"].parameters()) + list(model["qa"].parameters())
        for k in active:
            params += list(model[k].parameters())
        opt = make_optimizer(params, lr, recipe)
        g = torch.Generator().manual_seed(torch_seed(seed) ^ 0x5EED)
        X = torch.as_tensor(tr["images"])  # (n, 3, s, s)
        Q = torch.as_tensor(tr["questions"]).flatten(0, 1)  # (n n_q, q_dim), row i n_q + j
        Y = torch.as_tensor(tr["answers"]).flatten()  # (n n_q,)
        T = cell_order_targets(tr, active)  # kind -> (n, C, s, s) or (n, s, s), cell order
        heads = {k: cell_decoder(model[k]) for k in active}
        ce = torch.nn.CrossEntropyLoss()
        model.train()
        last = []
        for step in range(steps):
            idx = torch.randint(0, n, (batch_size,), generator=g)  # (B,)
            qi = torch.randint(0, n_q, (batch_size,), generator=g)  # (B,) one question each
            h = model["encoder"](X.index_select(0, idx))  # (B, c, 8, 8); = X[idx], row copies
            row = idx * n_q + qi  # (B,) the rows of Q[idx, qi], Y[idx, qi] (one gather each)
            logits = model["qa"](h, Q.index_select(0, row))  # (B, n_answers)
            loss_qa = ce(logits, Y.index_select(0, row))
            tb = {k: v.index_select(0, idx) for k, v in T.items()}  # the batch's targets
            # without auxiliary kinds the sum would add an exact 0: train on loss_qa itself
            loss = loss_qa + aux_losses(heads, h, tb, weights, shuffle_targets) if T else loss_qa
            opt.zero_grad()
            loss.backward()
            optimizer_step(opt, params, lr, step, steps, recipe)
            if step >= steps - 20:  # only the last 20 losses are reported
                last.append(float(loss_qa.detach()))
        out = predict(model, data["test"], active)
        out["train_qa_loss"] = float(np.mean(last)) if last else float("nan")
        out["cpu_s"] = time.process_time() - t0
        return out
    finally:
        torch.set_num_threads(old)


def predict(model, test: dict, active: list[str], batch: int = 250) -> dict:
    """Answers for every test question; decoder outputs for the trained auxiliary kinds."""
    import torch

    model.eval()
    X = torch.as_tensor(test["images"])  # (m, 3, s, s)
    Q = torch.as_tensor(test["questions"])  # (m, n_q, q_dim)
    n_q = Q.shape[1]
    answers, dense = [], {k: [] for k in active}
    with torch.inference_mode():  # no autograd bookkeeping (no_grad still tracks versions)
        for i in range(0, len(X), batch):
            h = model["encoder"](X[i:i + batch])  # (b, c, 8, 8)
            logits = model["qa"](h.repeat_interleave(n_q, dim=0), Q[i:i + batch].flatten(0, 1))
            answers.append(logits.argmax(-1).reshape(-1, n_q).numpy())  # (b, n_q)
            for k in active:
                p = model[k](h)  # (b, C, s, s)
                # numpy's argmax over the class axis: the same indices (first maximum, as
                # torch's) at a fraction of torch's strided CPU reduction
                dense[k].append(np.argmax(p.numpy(), axis=1) if k == "seg" else p.numpy())
    out = {"answers": np.concatenate(answers)}
    for k in active:
        out[f"pred_{k}"] = np.concatenate(dense[k]).astype(np.float32 if k != "seg" else np.int64)
    return out


@dataclass
class UnderstandingOnly(Method):
    """Supervised VQA training alone: the same encoder and QA head, no auxiliary decoder."""

    name: ClassVar[str] = "understanding_only"
    steps: int = 800  # optimiser steps (ours; same for every arm; 400 before round 6)
    lr: float = 2e-3  # (ours; same for every arm)
    batch_size: int = 64  # scenes per step, one random question each (ours)
    width: int = 32  # encoder channels (ours)
    # key of RECIPES: AdamW (.9, .95), wd .02, clip 1.0 (Harmon's config), 10 % warm-up, then
    # constant lr
    recipe: str = "warm10_const"

    def weights(self) -> dict:
        return {}

    def run(self, data, seed):
        return train_multitask(data, seed, self.weights(), self.steps, self.lr, self.batch_size,
                               self.width, recipe=RECIPES[self.recipe])


@dataclass
class ReconstructionAux(UnderstandingOnly):
    """VQA plus one auxiliary decoder that reconstructs the input pixels (autoencoding)."""

    name: ClassVar[str] = "recon_aux"
    w_recon: float = 1.0  # same weight as the QA loss (UniMRG code's default loss weights)

    def weights(self) -> dict:
        return {"recon": self.w_recon}
