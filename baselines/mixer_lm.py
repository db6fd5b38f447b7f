"""Language models that differ only in their token mixer, run as claimbench methods.

A :class:`MixerLM` is the toolkit's :class:`TinyTransformer` (``tiny_transformer.py``) with a
swappable mixer factory: the default is causal softmax attention (Vaswani et al., 2017), i.e.
:class:`SoftmaxTransformerLM`; a subclass returns another mixer (a prototype mixer, a gated
diagonal RNN, ...). Embeddings, MLPs, norms, training (``lm_training.train_cached``) and
evaluation are shared, so models compare at matched parameters and budgets.

On an instance with ``data["study"] == "lm"`` (train / val token streams) it trains through the
checkpoint cache and reports the validation NLL and perplexity, plus a clustering of every
validation token's state (``"assign"``): by default k-means (scikit-learn) with
``n_clusters`` clusters on the normed input of the last layer's mixer, the state the mixer
routes on; ``"assign_init"`` is the same clustering of the same seed's untrained model.
It also scores robustness to input perturbations on the same windows (issue 28): each input
token is replaced, independently with probability ``perturb_rate``, by a uniformly drawn
*different* token (a seeded draw that depends only on the seed and the windows, so every
method of a seed sees the same perturbed windows); ``perturb_jsd`` is the mean over all
positions of the Jensen-Shannon divergence (base 2, in [0, 1]) between the next-token
distributions on the clean and the perturbed windows, ``perturb_nll_gain`` the NLL of the
clean next tokens given the perturbed windows minus that given the clean ones.
On ``data["study"] == "cost"`` (one sequence of T tokens) it builds the untrained
model and measures its mixers only (the module a linear-cost architecture replaces):

* ``mixer_flops``: floating-point operations of the matrix products the mixers execute on a
  (1, T, d) input, counted by ``torch.utils.flop_counter.FlopCounterMode`` on the meta device
  (shapes only, no arithmetic: deterministic, load-independent; elementwise operations are
  not counted by torch's counter);
* ``mixer_cpu_s``: the minimum over ``time_repeats`` of the process CPU time of the same
  forward pass on real tensors (one thread), and ``ms_per_token``; only up to ``time_max_T``.

The count depends only on the mixer (class and :meth:`MixerLM.cost_key`), the model
configuration and T, not on the seed: it is counted once per process and key (``_FLOPS``) and
shared by the cells of every seed (counting on the meta device dispatches each of thousands of
small operations through Python, seconds per count at T = 4096).
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import lm_training, tiny_transformer


_FLOPS: dict[str, int] = {}  # cost key -> FLOPs of the mixers (see the module docstring)


def mixer_flops(cfg, mixer, T: int, key: dict) -> int:
    """FLOPs of the matrix products of all mixers of a ``cfg`` model on a (1, T, d) input,
    counted on the meta device; ``key`` names the mixer (everything else that decides the
    count is ``cfg`` and ``T``)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    k = json.dumps({"mixer": key, "model": asdict(cfg), "T": T}, sort_keys=True)
    if k not in _FLOPS:
        with torch.device("meta"):  # shapes only, no memory, any T
            meta_model = tiny_transformer.torch_classes().TinyTransformer(cfg, mixer=mixer)
            x_meta = torch.empty(1, T, cfg.d_model)  # (1, T, d)
            pos_meta = torch.arange(T)
            counter = FlopCounterMode(display=False)
            with counter, torch.no_grad():
                for block in meta_model.blocks:
                    block.mixer(x_meta, pos_meta)
        _FLOPS[k] = int(counter.get_total_flops())
    return _FLOPS[k]


def last_mixer_inputs(model, x):
    """The normed residual stream entering the last layer's mixer: (B, T, d)."""
    box = {}
    handle = model.blocks[-1].norm1.register_forward_hook(
        lambda mod, inp, out: box.__setitem__("h", out.detach()))
    try:
        model(x)
    finally:
        handle.remove()
    return box["h"]


def val_windows(tokens, context: int, max_windows: int | None = None):
    """The windows ``lm_training.eval_nll`` scores: inputs (n, context) as a LongTensor."""
    import torch

    data = torch.as_tensor(np.asarray(tokens), dtype=torch.long)
    n = (len(data) - 1) // context
    if max_windows is not None:
        n = min(n, max_windows)
    return data[: n * context].view(n, context)


def substitute_tokens(x, vocab: int, rate: float, seed: int):
    """``x`` (n, T) with each token replaced w.p. ``rate`` by a uniform *different* token."""
    import torch

    rng = np.random.default_rng([seed, 28])  # local RNG; 28: the issue that declared it
    xs = x.numpy()
    hit = rng.random(xs.shape) < rate  # (n, T)
    shift = rng.integers(1, vocab, size=xs.shape)  # (n, T) in 1..V-1: never the same token
    return torch.as_tensor(np.where(hit, (xs + shift) % vocab, xs), dtype=x.dtype)


def jsd_bits(logp, logq):
    """Jensen-Shannon divergence (base 2) between the rows of two log-distributions (..., V)."""
    import math

    import torch

    logm = torch.logsumexp(torch.stack([logp, logq]), dim=0) - math.log(2.0)  # (..., V)
    kl_pm = (logp.exp() * (logp - logm)).sum(-1)  # (...)
    kl_qm = (logq.exp() * (logq - logm)).sum(-1)
    return (0.5 * (kl_pm + kl_qm) / math.log(2.0)).clamp(min=0.0)


def perturbation_scores(model, x, targets, vocab: int, rate: float, seed: int) -> dict:
    """``perturb_jsd`` and ``perturb_nll_gain`` (module docstring) on windows x (n, T)."""
    import torch

    xp = substitute_tokens(x, vocab, rate, seed)  # (n, T)
    with torch.no_grad():
        logp = torch.log_softmax(model(x).double(), -1)  # (n, T, V) clean
        logq = torch.log_softmax(model(xp).double(), -1)  # (n, T, V) perturbed
    nll = -logp.gather(-1, targets[..., None]).mean()
    nll_p = -logq.gather(-1, targets[..., None]).mean()
    return {"perturb_jsd": float(jsd_bits(logp, logq).mean()),
            "perturb_nll_gain": float(nll_p - nll),
            "perturb_frac": float((xp != x).double().mean())}


@dataclass
class MixerLM(Method):
    """Base class: causal softmax attention unless :meth:`mixer_factory` says otherwise."""

    name: ClassVar[str] = "mixer_lm"
    d_model: int = 64  # ours: CPU scale (the note's plan: d = 128)
    n_layers: int = 2  # the note's plan
    n_heads: int = 4  # ours
    d_ff: int = 256  # 4 d_model (Vaswani et al.)
    steps: int = 200  # ours: CPU budget (the quick grid)
    batch_size: int = 16  # ours
    context: int = 64  # ours: training / evaluation window
    lr: float = 3e-3  # toolkit default for tiny models
    warmup: int = 20  # ours (a tenth of the steps)
    n_clusters: int = 16  # clusters of token states (= the prototype count P it is compared with)
    time_repeats: int = 3  # ours: min over repeats of the mixer CPU time
    time_max_T: int = 2048  # ours: CPU time measured up to this T (operations counted at any T)
    max_val_windows: int = 256  # ours: validation windows scored (256 x 64 tokens)
    perturb_rate: float = 0.1  # ours (issue 28): share of input tokens substituted

    # -- hooks for subclasses -------------------------------------------------------------------
    def mixer_factory(self):
        """``(cfg, layer) -> nn.Module`` or None for the toolkit's softmax attention."""
        return None

    def extra_key(self) -> dict:
        """Settings of the mixer that decide the trained weights (checkpoint key)."""
        return {}

    def cost_key(self) -> dict:
        """What decides the mixer's operation count besides the model configuration and T."""
        return {"class": type(self).__name__, **self.extra_key()}

    def sources(self) -> tuple:
        """Modules whose code builds the mixer (checkpoint key)."""
        import sys

        return (sys.modules[__name__], sys.modules[type(self).__module__])

    def trains(self) -> bool:
        return self.steps > 0

    def assignments(self, model, x):
        """One cluster id per validation token (n * context,) from the windows ``x``."""
        from sklearn.cluster import KMeans

        h = last_mixer_inputs(model, x)  # (n, context, d)
        flat = h.reshape(-1, h.shape[-1]).numpy().astype(np.float64)  # (n * context, d)
        km = KMeans(n_clusters=self.n_clusters, n_init=3, random_state=0).fit(flat)
        return km.labels_.astype(np.int64)

    # -- the two studies ------------------------------------------------------------------------
    def model_config(self, vocab: int):
        return tiny_transformer.TransformerConfig(
            vocab_size=vocab, d_model=self.d_model, n_layers=self.n_layers,
            n_heads=self.n_heads, d_ff=self.d_ff)

    def train_config(self):
        return lm_training.TrainConfig(steps=max(1, self.steps), batch_size=self.batch_size,
                                       context=self.context, lr=self.lr,
                                       warmup=min(self.warmup, max(1, self.steps // 5)))

    def run(self, data, seed):
        if data["study"] == "cost":
            return self.run_cost(data, seed)
        return self.run_lm(data, seed)

    def run_lm(self, data, seed):
        import torch

        cfg = self.model_config(data["vocab"])
        mixer = self.mixer_factory()
        t0 = time.process_time()
        if self.trains():
            train = np.ascontiguousarray(data["train"], dtype=np.int64)
            key = {"train_blake2b": hashlib.blake2b(train.tobytes(), digest_size=16).hexdigest(),
                   "vocab": int(data["vocab"])}
            model, hist, hit = lm_training.train_cached(
                cfg, self.train_config(), seed, key,
                lm_training.random_windows(data["train"], self.batch_size, self.context),
                mixer=mixer, extra_key={"class": type(self).__name__, **self.extra_key()},
                sources=self.sources())
            final_loss = hist["loss"][-1]
        else:
            model, final_loss = tiny_transformer.build_model(cfg, seed, mixer=mixer), None
            model.eval()
        train_cpu = time.process_time() - t0
        nll = lm_training.eval_nll(model, data["val"], self.context,
                                   max_windows=self.max_val_windows)
        x = val_windows(data["val"], self.context, self.max_val_windows)  # (n, context)
        init = tiny_transformer.build_model(cfg, seed, mixer=mixer)  # the same seed, untrained
        init.eval()
        with torch.no_grad():
            assign = self.assignments(model, x)
            assign_init = self.assignments(init, x)
        n_win = x.shape[0]
        targets = torch.as_tensor(np.asarray(data["val"])[1: n_win * self.context + 1],
                                  dtype=torch.long).view(n_win, self.context)  # (n, context)
        robust = perturbation_scores(model, x, targets, int(data["vocab"]), self.perturb_rate,
                                     seed)
        return {**robust, "val_nll": nll, "val_ppl": float(np.exp(nll)), "assign": assign,
                "assign_init": assign_init,
                "n_eval_tokens": int(x.numel()), "context": self.context,
                "n_params": tiny_transformer.n_params(model), "final_train_loss": final_loss,
                "train_cpu_s": train_cpu}

    def run_cost(self, data, seed):
        import torch

        T = int(len(data["tokens"]))
        cfg = self.model_config(data["vocab"])
        mixer = self.mixer_factory()
        flops = mixer_flops(cfg, mixer, T, self.cost_key())
        model = tiny_transformer.build_model(cfg, seed, mixer=mixer)
        out = {"mixer_flops": flops, "n_params": tiny_transformer.n_params(model)}
        if T > self.time_max_T:
            return out
        # CPU time of the same mixers on real tensors.
        model.eval()
        gen = torch.Generator().manual_seed(seed)
        x = torch.randn(1, T, cfg.d_model, generator=gen)  # (1, T, d)
        pos = torch.arange(T)
        best = float("inf")
        with torch.no_grad():
            for _ in range(max(1, self.time_repeats)):
                c0 = time.process_time()
                for block in model.blocks:
                    block.mixer(x, pos)
                best = min(best, time.process_time() - c0)
        return {**out, "mixer_cpu_s": best, "ms_per_token": 1e3 * best / T}


@dataclass
class SoftmaxTransformerLM(MixerLM):
    """Causal softmax-attention transformer (the toolkit's pre-LN model with RoPE)."""

    name: ClassVar[str] = "softmax_transformer"
