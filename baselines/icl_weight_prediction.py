"""In-context weight prediction with a tiny transformer (Huang, Wang & Lee, ICLR 2025 setting):
a model reads a linear-regression prompt (x_i, y_i), i = 1..n, and outputs a weight vector.

* Direct (non-CoT) prediction, :class:`DirectWeightPredictor`: the prompt plus one query
  token carrying k / K; the model outputs the k-th GD iterate w_k in one forward pass
  (trained on k ~ U{1..K}). Its depth is fixed, so the number of GD steps it can emulate is
  bounded by what two layers compute.
* The chain-of-thought variant (``methods/cot_icgd.py``, ``cot=True`` here) appends weight
  tokens w_0 = 0, w_1, ... and predicts w_{t+1} at the token w_t.

Both use the toolkit's model (``baselines/tiny_transformer.py``) with continuous ``embeds``, no
vocabulary, a linear head of width d, causal attention and no positional encoding (the prompt
is a set; causality orders the chain), trained through the checkpoint cache
(``baselines/lm_training.py``) on fresh prompts from the task distribution named in ``data``
(``datasets/in_context_regression.py``), squared error on the weights.

Token features (width 2d + 5): [x (d), y, w (d), is_example, is_weight, is_query, k / K].
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method


def applies(dataset) -> str | None:
    return None if getattr(dataset, "name", "") == "icl_linear_regression" else \
        "needs linear-regression prompts for weight prediction"


def feature_width(d: int) -> int:
    return 2 * d + 5


def example_tokens(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    B, n, d = X.shape
    E = np.zeros((B, n, feature_width(d)))
    E[..., :d], E[..., d], E[..., 2 * d + 1] = X, y, 1.0
    return E  # (B, n, 2d + 5)


def weight_tokens(W: np.ndarray) -> np.ndarray:
    B, T, d = W.shape
    E = np.zeros((B, T, feature_width(d)))
    E[..., d + 1:2 * d + 1], E[..., 2 * d + 2] = W, 1.0
    return E  # (B, T, 2d + 5)


def query_tokens(k: np.ndarray, K: int, d: int) -> np.ndarray:
    E = np.zeros((len(k), 1, feature_width(d)))
    E[:, 0, 2 * d + 3], E[:, 0, 2 * d + 4] = 1.0, np.asarray(k) / K
    return E  # (B, 1, 2d + 5)


def make_batch(rng: np.random.Generator, data: dict, batch: int, cot: bool):
    """Inputs (B, T, F) and targets: CoT (B, K, d) at the weight tokens; direct (B, d) at the
    query token."""
    from claimbench.datasets.in_context_regression import linear_gd_iterates, sample_linear_tasks

    K = int(data["K"])
    X, y, _ = sample_linear_tasks(rng, batch, int(data["n"]), int(data["d"]), data["noise"])
    W = linear_gd_iterates(X, y, data["lr"], K)  # (B, K + 1, d)
    if cot:
        E = np.concatenate([example_tokens(X, y), weight_tokens(W[:, :K])], axis=1)
        return E, W[:, 1:]
    k = rng.integers(1, K + 1, size=batch)
    E = np.concatenate([example_tokens(X, y), query_tokens(k, K, X.shape[2])], axis=1)
    return E, W[np.arange(batch), k]


def train_model(hp, data: dict, seed: int, cot: bool):
    """Train (or load from the checkpoint cache) the model of hyperparameters ``hp``."""
    import torch

    from claimbench.baselines import lm_training
    from claimbench.baselines.tiny_transformer import TransformerConfig

    d, K = int(data["d"]), int(data["K"])
    mcfg = TransformerConfig(vocab_size=0, d_model=hp.d_model, n_layers=hp.n_layers,
                             n_heads=hp.n_heads, d_ff=4 * hp.d_model, positions="none",
                             out_dim=d, embed_dim=feature_width(d))
    tcfg = lm_training.TrainConfig(steps=hp.train_steps, batch_size=hp.batch_size, lr=hp.lr,
                                   warmup=max(1, hp.train_steps // 15), weight_decay=0.0,
                                   log_every=max(1, hp.train_steps // 20))

    def batch_fn(step, gen):
        s = int(torch.randint(0, 2 ** 62, (1,), generator=gen))
        E, target = make_batch(np.random.default_rng(s), data, hp.batch_size, cot)
        return (torch.as_tensor(E, dtype=torch.float32),
                torch.as_tensor(target, dtype=torch.float32))

    def loss_fn(model, batch):
        E, target = batch
        out = model(embeds=E)  # (B, T, d)
        pred = out[:, -K:] if cot else out[:, -1]  # (B, K, d) or (B, d)
        return ((pred - target) ** 2).sum(-1).mean()

    key = {k: data[k] for k in ("d", "n", "lr", "K", "noise")} | {"cot": cot}
    model, hist, _ = lm_training.train_cached(mcfg, tcfg, seed, key, batch_fn, loss_fn=loss_fn,
                                              sources=(make_batch, train_model))
    return model, hist


ROWS = 4  # ours: torch's batched matmul rounds 1-3 query rows differently from the full
# forward (another kernel); from 4 rows on the numbers were the same (issue 27)


def last_rows(model, E, r: int):
    """``model(embeds=E)[:, -r:]`` (B, r, d) with the last block run at those r rows only: its
    ops are row-wise or read all keys, so for r >= ROWS the numbers are the same (issue 27: the
    other rows of the last block were computed and not read). Evaluation only; training keeps
    the full forward (its backward would sum the weight gradients in another order)."""
    import torch

    cfg, T = model.cfg, E.shape[1]
    blk = model.blocks[-1]
    att = blk.mixer
    if cfg.positions != "none" or not cfg.causal or type(att).__name__ != "SoftmaxAttention":
        return model(embeds=E)[:, -r:]
    positions = torch.arange(T)
    x = model.embed(None, E, positions)  # (B, T, D)
    for b in model.blocks[:-1]:
        x = b(x, positions)
    B, r = x.shape[0], min(r, T)
    qkv = att.qkv(blk.norm1(x)).view(B, T, 3, att.h, att.dh)  # (B, T, 3, H, dh)
    q, k, v = qkv.permute(2, 0, 3, 1, 4)  # (B, H, T, dh) each
    mask = positions[None, :] <= positions[-r:, None]  # (r, T): no key after the query
    s = att.scores(q[:, :, -r:], k).masked_fill(~mask, float("-inf"))  # (B, H, r, T)
    y = torch.softmax(s, dim=-1) @ v  # (B, H, r, dh)
    x = x[:, -r:] + att.out(y.transpose(1, 2).reshape(B, r, -1))  # (B, r, D)
    x = x + blk.ffn(blk.norm2(x))
    return model.head(model.norm(x))  # (B, r, d)


def rollout(model, X: np.ndarray, y: np.ndarray, K: int) -> np.ndarray:
    """CoT inference: feed back the model's own iterates; (B, K + 1, d), w_0 = 0."""
    import torch

    B, n, d = X.shape
    W = np.zeros((B, K + 1, d))
    with torch.no_grad():
        for t in range(K):
            E = np.concatenate([example_tokens(X, y), weight_tokens(W[:, :t + 1])], axis=1)
            out = last_rows(model, torch.as_tensor(E, dtype=torch.float32), ROWS)[:, -1]  # (B, d)
            W[:, t + 1] = out.double().numpy()
    return W


def direct(model, X: np.ndarray, y: np.ndarray, K: int) -> np.ndarray:
    """Non-CoT inference: one pass per k; (B, K + 1, d), w_0 = 0."""
    import torch

    B, n, d = X.shape
    W = np.zeros((B, K + 1, d))
    with torch.no_grad():
        for k in range(1, K + 1):
            E = np.concatenate([example_tokens(X, y), query_tokens(np.full(B, k), K, d)], axis=1)
            E = torch.as_tensor(E, dtype=torch.float32)  # (B, n + 1, 2d + 5)
            W[:, k] = last_rows(model, E, ROWS)[:, -1].double().numpy()
    return W


@dataclass
class DirectWeightPredictor(Method):
    name: ClassVar[str] = "nocot_transformer"
    d_model: int = 64  # same model as the CoT variant (same depth, research note)
    n_layers: int = 2
    n_heads: int = 4
    train_steps: int = 800  # as the CoT model (methods/cot_icgd.py)
    batch_size: int = 64
    lr: float = 1e-3

    def applies_to(self, dataset) -> str | None:
        return applies(dataset)

    def run(self, data, seed: int) -> dict:
        model, hist = train_model(self, data, seed, cot=False)
        pred = direct(model, data["X"], data["y"], int(data["K"]))
        return {"pred": pred, "train_loss": hist["loss"][-1], "train_s": hist.get("wall_s", 0.0)}
