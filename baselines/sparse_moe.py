"""Sparsely-gated mixture-of-experts FFN (Shazeer et al., 2017; Switch Transformer, Fedus et al.,
2022) with swappable expert selection, plugged into the shared tiny transformer as its FFN.

Layer (per token h in R^d, E experts, k active):
    logits = W_g h,  p = softmax(logits)                       (router, no bias)
    S = select(p)                                              (|S| = k; the swappable part)
    gates: p_j for j in S ("pre-softmax", Megatron's --moe-router-pre-softmax, FLAME-MoE's
           setting) or softmax(logits restricted to S) when ``pre_softmax=False``
    y = sum_{j in S} gate_j * expert_j(h),  expert_j(h) = W2_j gelu(W1_j h + b1_j) + b2_j
Auxiliary losses (training only; ``aux_loss`` attribute, added by the toolkit's trainer):
    Switch load balancing: aux_coeff * E * sum_j f_j P_j, f_j = (tokens routed to j) / (N k),
        P_j = mean_t p_tj (Fedus et al. eq. 4; Megatron's switch_load_balancing_loss_func, which
        divides by k for top-k);
    router z-loss: z_coeff * mean_t (logsumexp logits_t)^2 (Zoph et al., ST-MoE, 2022).
``skip_datasets`` lets a grid leave a configuration out of a dataset (``applies_to``).
Selections here: top-k (``TopKSelector``), uniformly random k (``RandomKSelector``, a routing
ablation: experts see random tokens), and all E (k = E, a dense soft mixture). The paper-specific
selections (e.g. methods/mp_moe.py) subclass :class:`Selector`.

``MoERouting`` is the Method: it trains a tiny transformer whose FFNs are these layers on a
language-modelling dataset (``train``/``val`` token arrays, e.g. datasets/python_docs_text.py)
or a regression dataset (``train_x``/``train_y``/``val_x``/``val_y``, one point per length-1
sequence, e.g. datasets/mixture_regression.py), then measures on validation data: the loss,
the per-expert load, the expert redundancy (mean pairwise linear CKA of the experts' outputs on
the same inputs), each point's top-1 expert, and the CPU time of one training step (min over
repeats).
"""
from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import lm_training
from claimbench.baselines.tiny_transformer import TransformerConfig, build_model, torch_classes
from claimbench.grid import derive_seed


class Selector:
    """Chooses k experts per token. ``select(probs, training)`` -> bool mask (N, E) with k True per
    row; ``observe(mask)`` sees the final routing of each training forward (for statistics)."""

    def __init__(self, k: int) -> None:
        self.k = k

    def select(self, probs, training: bool):  # pragma: no cover - interface
        raise NotImplementedError

    def observe(self, mask) -> None:
        return None


def topk_mask(probs, k: int):
    import torch

    idx = probs.topk(k, dim=-1).indices  # (N, k)
    return torch.zeros_like(probs, dtype=torch.bool).scatter_(1, idx, True)  # (N, E)


class TopKSelector(Selector):
    def select(self, probs, training: bool):
        return topk_mask(probs, self.k)


class RandomKSelector(Selector):
    """k experts drawn uniformly without replacement per token, from a seeded local generator."""

    def __init__(self, k: int, seed: int) -> None:
        import torch

        super().__init__(k)
        self.gen = torch.Generator().manual_seed(seed)

    def select(self, probs, training: bool):
        import torch

        noise = torch.rand(probs.shape, generator=self.gen)  # (N, E)
        return topk_mask(noise, self.k)


def switch_aux_loss(probs, mask, k: int):
    """E * sum_j f_j P_j with f_j the fraction of the N*k assignments that went to expert j."""
    N, E = probs.shape
    f = mask.float().sum(0) / (N * k)  # (E,)
    P = probs.mean(0)  # (E,)
    return E * (f * P).sum()


def z_loss(logits):
    return logits.logsumexp(-1).pow(2).mean()


def linear_cka(X: np.ndarray, Y: np.ndarray) -> float:
    """Linear CKA (Kornblith et al., 2019): ||Yc^T Xc||_F^2 / (||Xc^T Xc||_F ||Yc^T Yc||_F)."""
    Xc, Yc = X - X.mean(0), Y - Y.mean(0)
    return _cka_centred(Xc, Yc, np.linalg.norm(Xc.T @ Xc), np.linalg.norm(Yc.T @ Yc))


def _cka_centred(Xc: np.ndarray, Yc: np.ndarray, gram_x: float, gram_y: float) -> float:
    """:func:`linear_cka` of centred outputs whose Gram norms are at hand."""
    den = gram_x * gram_y
    return float(np.linalg.norm(Yc.T @ Xc) ** 2 / den) if den > 0 else 0.0


def mean_pairwise_cka(outs: list[np.ndarray]) -> float:
    """Mean of linear_cka(outs[i], outs[j]) over i < j, each output centred and its Gram norm
    taken once (issue 27: CPU; the same arithmetic as the per-pair calls)."""
    cs = [X - X.mean(0) for X in outs]
    gram = [np.linalg.norm(c.T @ c) for c in cs]
    return float(np.mean([_cka_centred(cs[i], cs[j], gram[i], gram[j])
                          for i in range(len(cs)) for j in range(i + 1, len(cs))]))


@functools.cache
def moe_classes():
    T = torch_classes()
    torch, nn, F = T.torch, T.nn, T.F

    class SparseMoE(nn.Module):
        """The MoE FFN of one block; ``selector`` decides which k experts each token uses."""

        def __init__(self, cfg, layer: int, n_experts: int, d_expert: int, selector: Selector,
                     aux_coeff: float, z_coeff: float, pre_softmax: bool) -> None:
            super().__init__()
            d, E = cfg.d_model, n_experts
            self.E, self.selector = E, selector
            self.aux_coeff, self.z_coeff, self.pre_softmax = aux_coeff, z_coeff, pre_softmax
            self.gate = nn.Linear(d, E, bias=False)
            # N(0, 0.02) like the toolkit's init (it only initialises nn.Linear / nn.Embedding)
            self.w1 = nn.Parameter(torch.randn(E, d, d_expert) * 0.02)  # (E, d, h)
            self.b1 = nn.Parameter(torch.zeros(E, d_expert))  # (E, h)
            self.w2 = nn.Parameter(torch.randn(E, d_expert, d) * 0.02)  # (E, h, d)
            self.b2 = nn.Parameter(torch.zeros(E, d))  # (E, d)
            self.aux_loss = None
            self.record = False
            self.load = torch.zeros(E)  # tokens per expert while recording
            self.top1: list = []  # each recorded token's highest-gated expert

        def expert(self, e: int, h):
            return F.gelu(h @ self.w1[e] + self.b1[e]) @ self.w2[e] + self.b2[e]  # (n, d)

        def combine(self, h, mask, gates):
            """sum_{e in S} gate_e * expert_e(h) per token: (N, d).

            One gather for all experts, each expert on a contiguous slice, unbound weights: a few
            autograd nodes per layer instead of a dozen per expert (issue 27). The rounding is
            that of a loop with one gather and one index_add_ per expert, bit for bit
            (tests/test_mp_moe.py): each expert multiplies the same rows in the same order, the
            output adds each token's experts in ascending order as the loop's index_add_ did,
            and the rows are gathered last expert first so that the gradient reaching h adds
            them in the order autograd added the loop's gathers (last one first)."""
            t_dn = mask.T.flip(0).nonzero(as_tuple=True)[1]  # (M,) tokens, last expert first
            counts = mask.sum(0).tolist()  # tokens per expert
            w1, b1, w2, b2 = (p.unbind(0) for p in (self.w1, self.b1, self.w2, self.b2))
            ys = []  # expert outputs, ascending experts
            for e, hs in zip(range(self.E - 1, -1, -1), h[t_dn].split(counts[::-1])):  # (n_e, d)
                if counts[e]:
                    ys.insert(0, F.gelu(hs @ w1[e] + b1[e]) @ w2[e] + b2[e])  # (n_e, d)
            e_up, t_up = mask.T.nonzero(as_tuple=True)  # (M,) the same rows, ascending experts
            y = torch.cat(ys)  # (M, d)
            return torch.zeros_like(h).index_add_(0, t_up, gates[t_up, e_up, None] * y)

        def forward(self, x):
            B, T_, d = x.shape
            h = x.reshape(-1, d)  # (N, d)
            logits = self.gate(h)  # (N, E)
            probs = torch.softmax(logits.float(), dim=-1)  # (N, E)
            with torch.no_grad():
                mask = self.selector.select(probs.detach(), self.training)  # (N, E) bool
            if self.pre_softmax:
                gates = probs  # (N, E); combine reads only the selected entries, p_j for j in S
            else:
                gates = torch.softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)  # (N, E)
            out = self.combine(h, mask, gates)  # (N, d)
            if self.training:
                aux = torch.zeros(())
                if self.aux_coeff:
                    aux = aux + self.aux_coeff * switch_aux_loss(probs, mask, self.selector.k)
                if self.z_coeff:
                    aux = aux + self.z_coeff * z_loss(logits)
                self.aux_loss = aux
                self.selector.observe(mask)
            if self.record:
                self.load += mask.sum(0).float()
                self.top1.append((gates * mask).argmax(-1))  # (N,) highest-gated selected expert
            return out.view(B, T_, d)

    return SimpleNamespace(torch=torch, F=F, SparseMoE=SparseMoE)


@dataclass
class MoERouting(Method):
    """Tiny transformer with MoE FFNs; subclasses say how experts are selected (``selector``)."""

    name: ClassVar[str] = "moe_routing"
    n_experts: int = 8  # E (ours, research note: E=8; FLAME-MoE uses 64)
    top_k: int = 2  # k (ours, research note: k=2; FLAME-MoE uses 8)
    d_expert: int = 64  # expert hidden width (ours, CPU scale)
    aux_coeff: float = 0.01  # Switch load-balancing weight (FLAME-MoE config --moe-aux-loss-coeff)
    z_coeff: float = 0.001  # router z-loss weight (FLAME-MoE config --moe-z-loss-coeff)
    pre_softmax: bool = True  # gates = full-softmax probabilities (FLAME-MoE --moe-router-pre-softmax)
    d_model: int = 64  # ours, CPU scale (research note: d = 96)
    n_layers: int = 2  # research note: 2 layers
    n_heads: int = 4  # head width 16 (ours)
    steps: int = 300  # training steps (ours, CPU scale)
    batch_size: int = 16  # windows per step (ours); regression: batch_size * context / 8 points
    context: int = 64  # characters per window (ours)
    lr: float = 3e-3  # peak AdamW rate, the toolkit's default for tiny models
    eval_windows: int = 64  # validation windows of `context` tokens (LM)
    probe_tokens: int = 512  # FFN inputs on which expert outputs are compared (CKA)
    timing_repeats: int = 5  # one training step timed this often, min kept
    skip_datasets: tuple = ()  # dataset names this configuration is not run on (grid economy)

    def applies_to(self, dataset) -> str | None:
        if dataset.name in self.skip_datasets:
            return f"not run on {dataset.name} (skip_datasets)"
        return None

    def selector(self, layer: int, seed: int) -> Selector:  # pragma: no cover - interface
        raise NotImplementedError

    # -- model ------------------------------------------------------------------------------
    def _ffn(self, seed: int):
        C = moe_classes()

        def make(cfg, layer):
            return C.SparseMoE(cfg, layer, self.n_experts, self.d_expert,
                               self.selector(layer, derive_seed(seed, "selector", layer)),
                               self.aux_coeff, self.z_coeff, self.pre_softmax)

        return make

    def _task(self, data):
        import torch

        if "train_x" in data:
            tx, ty = torch.as_tensor(data["train_x"]), torch.as_tensor(data["train_y"])
            cfg = TransformerConfig(vocab_size=0, out_dim=ty.shape[1], embed_dim=tx.shape[1],
                                    d_model=self.d_model, n_layers=self.n_layers,
                                    n_heads=self.n_heads, positions="none")
            bs = self.batch_size * self.context // 8  # as many points per step as LM tokens / 8

            def batch_fn(step, gen):
                i = torch.randint(0, len(tx), (bs,), generator=gen)
                return tx[i, None, :], ty[i, None, :]  # (b, 1, dim), (b, 1, out)

            def loss_fn(model, batch):
                x, y = batch
                return (model(embeds=x) - y).pow(2).mean()

            return "regression", cfg, batch_fn, loss_fn
        cfg = TransformerConfig(vocab_size=int(data["vocab_size"]), d_model=self.d_model,
                                n_layers=self.n_layers, n_heads=self.n_heads)
        return "lm", cfg, lm_training.random_windows(data["train"], self.batch_size, self.context), \
            lm_training.lm_loss

    def _moe_layers(self, model):
        C = moe_classes()
        return [m for m in model.modules() if isinstance(m, C.SparseMoE)]

    # -- run --------------------------------------------------------------------------------
    def run(self, data, seed: int) -> dict:
        import torch

        kind, cfg, batch_fn, loss_fn = self._task(data)
        model = build_model(cfg, seed, ffn=self._ffn(seed))
        tc = lm_training.TrainConfig(steps=self.steps, batch_size=self.batch_size,
                                     context=self.context, lr=self.lr,
                                     warmup=max(1, self.steps // 10))
        t0 = time.process_time()
        hist = lm_training.train(model, batch_fn, tc, seed, loss_fn=loss_fn)
        train_cpu_s = time.process_time() - t0
        layers = self._moe_layers(model)

        # validation: loss, load and top-1 expert per token, FFN inputs for the CKA probe
        probes = [[] for _ in layers]
        hooks = [m.register_forward_pre_hook(lambda mod, args, i=i: probes[i].append(args[0].detach()))
                 for i, m in enumerate(layers)]
        for m in layers:
            m.record, m.load, m.top1 = True, torch.zeros(m.E), []
        model.eval()
        with torch.no_grad():
            if kind == "lm":
                val_loss = lm_training.eval_nll(model, data["val"], self.context,
                                                max_windows=self.eval_windows)
            else:
                vx, vy = torch.as_tensor(data["val_x"]), torch.as_tensor(data["val_y"])
                val_loss = float((model(embeds=vx[:, None, :])[:, 0] - vy).pow(2).mean())
        for h in hooks:
            h.remove()
        for m in layers:
            m.record = False
        loads = [m.load.numpy() for m in layers]
        load_cv = float(np.mean([lo.std() / lo.mean() for lo in loads]))
        top1 = [torch.cat(m.top1).numpy() for m in layers]
        ckas = []
        with torch.no_grad():
            for m, ps in zip(layers, probes):
                h = torch.cat([p.reshape(-1, p.shape[-1]) for p in ps])[: self.probe_tokens]  # (n, d)
                ckas.append(mean_pairwise_cka([m.expert(e, h).numpy().astype(np.float64)
                                               for e in range(m.E)]))
        step_ms = self._time_step(model, batch_fn, loss_fn, seed)
        out = {"val_loss": val_loss, "expert_cka": float(np.mean(ckas)), "load_cv": load_cv,
               "load": [lo.tolist() for lo in loads], "top1": top1, "step_ms": step_ms,
               "train_cpu_s": train_cpu_s, "final_train_loss": hist["loss"][-1], "task": kind}
        if kind == "lm":
            out["val_ppl"] = math.exp(val_loss)
        return out

    def _time_step(self, model, batch_fn, loss_fn, seed: int) -> float:
        """CPU milliseconds of one training forward + backward (min over repeats) on a fixed
        batch; the thread's CPU clock, so time the scheduler gives other processes is not
        counted."""
        import torch

        batch = batch_fn(0, torch.Generator().manual_seed(derive_seed(seed, "timing")))
        model.train()
        best = float("inf")
        for _ in range(self.timing_repeats):
            t0 = time.thread_time()
            loss = loss_fn(model, batch) + model.aux_loss()
            loss.backward()
            best = min(best, time.thread_time() - t0)
            model.zero_grad(set_to_none=True)
        model.eval()
        return 1000.0 * best


@dataclass
class TopKMoE(MoERouting):
    """Standard top-k routing (Shazeer et al., 2017); with ``aux_coeff`` > 0 the Switch
    load-balancing loss, with ``top_k = n_experts`` a dense soft mixture."""

    name: ClassVar[str] = "topk_moe"

    def selector(self, layer: int, seed: int) -> Selector:
        return TopKSelector(self.top_k)


@dataclass
class RandomKMoE(MoERouting):
    """k experts drawn uniformly at random per token (hash/random routing ablation)."""

    name: ClassVar[str] = "random_k_moe"

    def selector(self, layer: int, seed: int) -> Selector:
        return RandomKSelector(self.top_k, seed)
