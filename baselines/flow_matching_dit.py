"""Class-conditional flow matching with a small diffusion transformer (DiT), sampled by Euler
steps of the probability-flow ODE with classifier-free guidance.

Flow matching / rectified flow (Lipman et al., 2023; Liu et al., 2023): with noise x0 ~ N(0, I),
data x1 and t ~ U(0, 1), x_t = (1 - t) x0 + t x1 and the network v(x_t, t, y) regresses the
velocity x1 - x0 (mean squared error). Sampling integrates dx/dt = v from t = 0 to 1 with
``sample_steps`` Euler steps. Classifier-free guidance (Ho & Salimans, 2022): labels are
replaced by a null class with probability ``p_uncond`` during training, and sampling uses
v_u + w (v_c - v_u).

The network is the shared toolkit's transformer (``tiny_transformer``), bidirectional, with
learned absolute positions: each 2x2 image patch is one token; its input is the linear map of
[patch pixels, sinusoidal features of t] plus the class (or null) embedding, i.e. additive
conditioning on every token (DiT's adaLN is replaced by this; the toolkit has no adaLN).
The linear head outputs the patch's velocity. Positions are learned, not rotary, so the
attention logits are X W_Q^T W_K X^T with X the normed residual stream (what a symmetric /
skew-symmetric split of W_Q^T W_K needs).

Models are trained through the checkpoint cache (``train_cached``): every method of a cell
(this baseline, its guidance variants, a paper's sampling-time modification) sees the same
trained weights. Samples are returned as (n, 64) pixel arrays with their class labels. Samples
are drawn through a content-hashed cache beside the checkpoints (``claimbench.checkpoints.cached_arrays``, keyed on
the weights, the sampler's settings, labels, noise and the attention used): a sample that
several methods need (the vanilla one, alpha = 1 of a sampling-time modification) is drawn
once per trained model, not once per method, with the same numbers.
"""
from __future__ import annotations

import copy
import hashlib
import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.checkpoints import cached_arrays
from claimbench.grid import derive_seed

PATCH = 2  # 2x2 patches of the 8x8 digits: 16 tokens of 4 pixels


def time_features(t, n_freq: int):
    """Sinusoidal features of t in [0, 1] (B,) -> (B, 2 n_freq), frequencies as in DiT's
    timestep embedding of 1000 t (Peebles & Xie, 2023)."""
    import torch

    freqs = torch.exp(-math.log(10000.0) * torch.arange(n_freq, dtype=torch.float32) / n_freq)
    ang = 1000.0 * t[:, None] * freqs[None, :]  # (B, n_freq)
    return torch.cat([ang.sin(), ang.cos()], dim=-1)


@dataclass
class FlowMatchingDiT(Method):
    """Flow-matching DiT on patch tokens; Euler sampling with classifier-free guidance."""

    name: ClassVar[str] = "flow_matching_dit"
    d_model: int = 64  # research note's plan: d = 64
    n_layers: int = 3  # research note's plan: 3 blocks
    n_heads: int = 4  # ours: head width 16
    n_freq: int = 8  # ours: 16 time features
    train_steps: int = 1500  # ours: about half a CPU-minute on one thread
    batch_size: int = 128  # ours
    lr: float = 2e-3  # ours (AdamW, warm-up 100, cosine to 0.1)
    p_uncond: float = 0.1  # label dropout for classifier-free guidance (Ho & Salimans, 2022)
    guidance: float = 2.0  # ours; the paper samples SDXL at w = 5, too strong for a tiny model
    sample_steps: int = 30  # the paper's 30 sampling steps (code README: "30 steps")
    n_per_class: int = 50  # research note's plan: 500 samples (50 per digit)

    # -- model and training ---------------------------------------------------------------------
    def model_config(self, data):
        from claimbench.baselines.tiny_transformer import TransformerConfig

        n_tok = (8 // PATCH) ** 2
        return TransformerConfig(vocab_size=int(data["n_classes"]) + 1, d_model=self.d_model,
                                 n_layers=self.n_layers, n_heads=self.n_heads,
                                 d_ff=4 * self.d_model, max_len=n_tok, causal=False,
                                 positions="learned", tie_embeddings=False,
                                 out_dim=PATCH * PATCH, embed_dim=PATCH * PATCH + 2 * self.n_freq)

    def train_config(self):
        from claimbench.baselines.lm_training import TrainConfig

        return TrainConfig(steps=self.train_steps, batch_size=self.batch_size, lr=self.lr,
                           weight_decay=0.0, warmup=100, log_every=100)

    def velocity(self, model, xt, t, y):
        """v(x_t, t, y): xt (B, 16, 4), t (B,), y (B,) class ids (n_classes = null)."""
        import torch

        tf = time_features(t, self.n_freq)  # (B, 2 n_freq)
        embeds = torch.cat([xt, tf[:, None, :].expand(-1, xt.shape[1], -1)], dim=-1)  # (B, 16, 4 + 2 n_freq)
        tokens = y[:, None].expand(-1, xt.shape[1])  # (B, 16): the class embedding on every token
        return model(tokens=tokens, embeds=embeds)  # (B, 16, 4)

    def trained_model(self, data, seed: int):
        """The trained network for this cell (shared by every method of the cell)."""
        import torch

        from claimbench.baselines import flow_matching_dit
        from claimbench.baselines.lm_training import train_cached
        from claimbench.datasets.digit_images import to_patches

        x1_all = torch.as_tensor(to_patches(np.asarray(data["x"]), PATCH))  # (n, 16, 4)
        y_all = torch.as_tensor(np.asarray(data["y"]), dtype=torch.long)  # (n,)
        null = int(data["n_classes"])

        def batch_fn(step, gen):
            idx = torch.randint(0, len(x1_all), (self.batch_size,), generator=gen)
            x1 = x1_all[idx]  # (B, 16, 4)
            x0 = torch.randn(x1.shape, generator=gen)  # (B, 16, 4)
            t = torch.rand(self.batch_size, generator=gen)  # (B,)
            drop = torch.rand(self.batch_size, generator=gen) < self.p_uncond
            y = torch.where(drop, torch.full_like(y_all[idx], null), y_all[idx])  # (B,)
            return x0, x1, t, y

        def loss_fn(model, batch):
            x0, x1, t, y = batch
            xt = (1 - t)[:, None, None] * x0 + t[:, None, None] * x1  # (B, 16, 4)
            v = self.velocity(model, xt, t, y)  # (B, 16, 4)
            return ((v - (x1 - x0)) ** 2).mean()

        key = {"fm": {"p_uncond": self.p_uncond, "n_freq": self.n_freq, "patch": PATCH}}
        model, hist, _ = train_cached(self.model_config(data), self.train_config(),
                                      derive_seed("train", seed), dict(data["key"]), batch_fn,
                                      loss_fn=loss_fn, extra_key=key,
                                      sources=(flow_matching_dit,))
        return model, hist

    # -- sampling -------------------------------------------------------------------------------
    def sample_inputs(self, data, seed: int):
        """Labels (N,) and initial noise (N, 16, 4), fixed by the cell's seed."""
        import torch

        labels = np.repeat(np.arange(int(data["n_classes"])), self.n_per_class)
        gen = torch.Generator().manual_seed(derive_seed("noise", seed))
        x0 = torch.randn((len(labels), (8 // PATCH) ** 2, PATCH * PATCH), generator=gen)
        return labels, x0

    def sample(self, model, labels, x0, null: int, on_step=None, first=None):
        """Euler integration of the guided velocity from t = 0 to 1: (N, 64) float64 pixels.
        ``on_step(i)`` runs before each step's network call (diagnostic schedules); ``first``
        (2N, 16, 4), if given, is step 0's network output (:meth:`first_velocity`)."""
        import torch

        from claimbench.datasets.digit_images import from_patches

        y = torch.as_tensor(labels, dtype=torch.long)  # (N,)
        yy = torch.cat([y, torch.full_like(y, null)])  # (2N,): conditional, then null
        x = x0.clone()  # (N, 16, 4)
        h = 1.0 / self.sample_steps
        with torch.no_grad():
            for i in range(self.sample_steps):
                if on_step is not None:
                    on_step(i)
                if i == 0 and first is not None:
                    v = torch.as_tensor(first)  # (2N, 16, 4): the same network call, made once
                else:
                    t = torch.full((2 * len(y),), i * h)  # (2N,)
                    v = self.velocity(model, torch.cat([x, x]), t, yy)  # (2N, 16, 4)
                vc, vu = v[: len(y)], v[len(y):]
                x = x + h * (vu + self.guidance * (vc - vu))
        return from_patches(x.numpy().astype(np.float64), PATCH)

    def sample_key(self, model, labels, x0, null: int, **attention) -> dict:
        """Everything that decides a sample: weights, sampler settings, labels, noise and the
        attention (``attention``: what the caller's mixer computes)."""
        return {"weights": weights_digest(model), "guidance": self.guidance,
                "sample_steps": self.sample_steps, "n_freq": self.n_freq, "patch": PATCH,
                "null": int(null), "labels": _digest(np.asarray(labels, dtype=np.int64)),
                "x0": _digest(x0.numpy()), **attention}

    def cached_draw(self, key: dict, compute, sources=()) -> dict:
        """``compute()`` through :func:`cached_arrays`, keyed also on the sampler's code (this
        file, the toolkit's network, the patch layout) and ``sources``."""
        from claimbench.baselines import flow_matching_dit, tiny_transformer
        from claimbench.datasets import digit_images

        return cached_arrays(key, compute,
                             sources=(flow_matching_dit, tiny_transformer, digit_images, *sources))

    def first_velocity(self, model, labels, x0, null: int) -> np.ndarray:
        """Step 0's network output (2N, 16, 4) with the toolkit's attention: at t = 0 from x0 it
        is the same for every guidance scale and step count, so the vanilla draws of a trained
        model (guidance 1, 2 and the frontier's scales) share one call (cached)."""
        import torch

        key = self.sample_key(model, labels, x0, null, attention="toolkit", step=0)
        del key["guidance"], key["sample_steps"]  # they do not enter step 0's network call

        def compute():
            y = torch.as_tensor(labels, dtype=torch.long)  # (N,)
            yy = torch.cat([y, torch.full_like(y, null)])  # (2N,), as in :meth:`sample`
            x = x0.clone()  # (N, 16, 4)
            with torch.no_grad():
                t = torch.full((2 * len(y),), 0 * (1.0 / self.sample_steps))  # (2N,): t = 0
                return {"v": self.velocity(model, torch.cat([x, x]), t, yy).numpy()}

        return self.cached_draw(key, compute)["v"]

    def vanilla_samples(self, model, labels, x0, null: int) -> np.ndarray:
        """:meth:`sample` with the toolkit's attention, drawn once per key (cached); step 0's
        network call comes from :meth:`first_velocity` (the same numbers)."""
        key = self.sample_key(model, labels, x0, null, attention="toolkit")
        return self.cached_draw(key, lambda: {"samples": self.sample(
            model, labels, x0, null, first=self.first_velocity(model, labels, x0, null))})[
            "samples"]

    def run(self, data, seed):
        model, hist = self.trained_model(data, seed)
        labels, x0 = self.sample_inputs(data, seed)
        samples = self.vanilla_samples(model, labels, x0, int(data["n_classes"]))
        return {"samples": samples, "labels": labels, "train_loss": float(hist["loss"][-1])}


def _digest(a: np.ndarray) -> str:
    a = np.ascontiguousarray(a)
    return hashlib.sha256(str((a.dtype.str, a.shape)).encode() + a.tobytes()).hexdigest()[:32]


def weights_digest(model) -> str:
    """Content hash of a model's weights (names, dtypes, shapes and values)."""
    h = hashlib.sha256()
    for name, t in model.state_dict().items():
        h.update(name.encode() + _digest(t.detach().cpu().numpy()).encode())
    return h.hexdigest()[:32]


def copy_with_mixers(model, factory):
    """A deep copy of a trained toolkit transformer whose attention modules are replaced by
    ``factory(cfg, layer)`` instances carrying the same weights (same parameter names)."""
    new = copy.deepcopy(model)
    for i, block in enumerate(new.blocks):
        mixer = factory(new.cfg, i)
        mixer.load_state_dict(block.mixer.state_dict())
        block.mixer = mixer
    new.eval()
    return new
