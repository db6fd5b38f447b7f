"""Seeded training and evaluation for the tiny-transformer toolkit (``tiny_transformer.py``).

* :func:`train`: AdamW (Loshchilov & Hutter, 2019) with linear warm-up and cosine decay to
  ``min_lr_ratio`` of the peak, gradient-norm clipping, batches drawn from a local
  ``torch.Generator``; the loss is any ``loss_fn(model, batch)`` plus the model's auxiliary
  losses (e.g. a mixture of experts' load-balancing term). Returns the history.
* :func:`lm_loss`, :func:`random_windows`, :func:`eval_nll`: next-token language modelling on a
  1-D token array; :func:`unigram_nll` is the reference a trained model must beat.
* :func:`train_cached`: training through the harness's checkpoint cache
  (``claimbench.checkpoints``), so the cells that evaluate one trained model share it.

``threads`` sets ``torch.set_num_threads`` for the duration of the call (0 keeps the current
setting: one thread inside a claimbench worker, parallelism coming from the cells).
"""
from __future__ import annotations

import contextlib
import math
import time
from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from claimbench.baselines import tiny_transformer


@dataclass(frozen=True)
class TrainConfig:
    steps: int = 500
    batch_size: int = 32
    context: int = 64  # window length for language modelling batches
    lr: float = 3e-3  # peak learning rate (small models tolerate a large one)
    weight_decay: float = 0.1  # AdamW decoupled decay, GPT-style
    betas: tuple[float, float] = (0.9, 0.95)
    warmup: int = 50  # linear warm-up steps
    min_lr_ratio: float = 0.1  # cosine decays to this fraction of the peak
    grad_clip: float = 1.0  # max global gradient norm; 0 disables
    threads: int = 0  # torch.set_num_threads for the call; 0 keeps the current setting
    log_every: int = 10

    def lr_at(self, step: int) -> float:
        if step < self.warmup:
            return self.lr * (step + 1) / self.warmup
        frac = (step - self.warmup) / max(1, self.steps - self.warmup)
        return self.lr * (self.min_lr_ratio + (1 - self.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * frac)))


@contextlib.contextmanager
def torch_threads(n: int):
    import torch

    old = torch.get_num_threads()
    if n > 0:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def train(model, batch_fn: Callable, cfg: TrainConfig, seed: int, loss_fn: Callable | None = None,
          on_step: Callable | None = None) -> dict:
    """Train ``model`` in place; ``batch_fn(step, generator)`` returns a batch and
    ``loss_fn(model, batch)`` its scalar loss (default: :func:`lm_loss`). ``on_step(step,
    model)`` runs after every optimiser step (evaluation schedules). Returns the history:
    logged steps, losses and learning rates, wall seconds and tokens or examples seen."""
    import torch

    loss_fn = loss_fn or lm_loss
    gen = torch.Generator().manual_seed(seed)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    # foreach: one call per step for all tensors, the same arithmetic (bit for bit) as torch's
    # per-tensor loop, the CPU default (issue 27: CPU)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=cfg.lr, betas=cfg.betas, foreach=True)
    hist = {"step": [], "loss": [], "lr": []}
    model.train()
    t0 = time.perf_counter()
    with torch_threads(cfg.threads):
        for step in range(cfg.steps):
            lr = cfg.lr_at(step)
            for g in opt.param_groups:
                g["lr"] = lr
            batch = batch_fn(step, gen)
            loss = loss_fn(model, batch) + model.aux_loss()
            if not torch.isfinite(loss):
                raise FloatingPointError(f"training loss is {loss.item()} at step {step}")
            opt.zero_grad(set_to_none=True)
            loss.backward()
            if cfg.grad_clip > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
            opt.step()
            if step % cfg.log_every == 0 or step == cfg.steps - 1:
                hist["step"].append(step)
                hist["loss"].append(loss.item())
                hist["lr"].append(lr)
            if on_step is not None:
                on_step(step, model)
    model.eval()
    hist["wall_s"] = time.perf_counter() - t0
    return hist


def lm_loss(model, batch):
    """Mean next-token cross-entropy (nats) of ``batch = (x, y)``, both (B, T)."""
    import torch.nn.functional as F

    x, y = batch
    logits = model(x)  # (B, T, V)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))


def random_windows(tokens, batch_size: int, context: int):
    """A ``batch_fn`` drawing random (x, y) windows of ``context`` tokens from a 1-D array."""
    import torch

    data = torch.as_tensor(np.asarray(tokens), dtype=torch.long)
    if len(data) <= context + 1:
        raise ValueError(f"{len(data)} tokens cannot fill a window of context={context} + 1")

    def batch_fn(step, gen):
        start = torch.randint(0, len(data) - context - 1, (batch_size,), generator=gen)
        idx = start[:, None] + torch.arange(context + 1)[None, :]  # (B, T + 1)
        w = data[idx]
        return w[:, :-1], w[:, 1:]

    return batch_fn


def eval_nll(model, tokens, context: int, max_windows: int | None = None, batch_size: int = 32) -> float:
    """Mean next-token NLL (nats per token) over consecutive non-overlapping windows."""
    import torch
    import torch.nn.functional as F

    data = torch.as_tensor(np.asarray(tokens), dtype=torch.long)
    n = (len(data) - 1) // context
    if max_windows is not None:
        n = min(n, max_windows)
    if n < 1:
        raise ValueError(f"{len(data)} tokens give no window of context={context}")
    x = data[: n * context].view(n, context)  # (n, T)
    y = data[1: n * context + 1].view(n, context)
    total = 0.0
    model.eval()
    with torch.no_grad():
        for i in range(0, n, batch_size):
            logits = model(x[i:i + batch_size])  # (b, T, V)
            total += float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                           y[i:i + batch_size].reshape(-1), reduction="sum"))
    return total / (n * context)


def unigram_nll(train_tokens, eval_tokens, vocab_size: int) -> float:
    """NLL (nats per token) of ``eval_tokens`` under add-one-smoothed train frequencies."""
    counts = np.bincount(np.asarray(train_tokens), minlength=vocab_size) + 1.0
    logp = np.log(counts / counts.sum())
    return float(-logp[np.asarray(eval_tokens)].mean())


def train_cached(model_cfg, train_cfg: TrainConfig, seed: int, data_key: dict, batch_fn: Callable,
                 loss_fn: Callable | None = None, mixer: Callable | None = None,
                 ffn: Callable | None = None, extra_key: dict | None = None, sources=()):
    """Build and train a model through the checkpoint cache: ``(model, history, cache_hit)``.

    ``data_key`` names the training data (dataset parameters and seed); ``extra_key`` whatever
    else decides the weights (a mixer's settings); ``sources`` the modules defining the mixer,
    FFN, loss or batches (the toolkit's own two files are always included)."""
    from claimbench.checkpoints import cached_train

    key = {"model": asdict(model_cfg), "train": asdict(train_cfg), "seed": seed,
           "data": data_key, "extra": extra_key or {}}

    def build():
        return tiny_transformer.build_model(model_cfg, seed, mixer=mixer, ffn=ffn)

    def fit(model):
        return train(model, batch_fn, train_cfg, seed, loss_fn=loss_fn)

    model, hist, hit = cached_train(key, build, fit,
                                    sources=(tiny_transformer, train, *sources))
    model.eval()
    return model, hist, hit
